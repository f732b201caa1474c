// A screenshot decoded from grim's binary PPM output (or from any RGB source a harness has),
// with pixel look-ups for assertions and measurements.
import Foundation

/// An RGB screenshot; pixels are returned as opaque 0xFFRRGGBB to compare with XRGB colours.
package struct Screenshot: Sendable {
    /// Its size in pixels.
    package let width: Int, height: Int
    /// Its samples, row by row, 3 bytes (red, green, blue) a pixel.
    package let rgb: [UInt8]

    /// Parses a binary PPM (P6, maxval 255), the format `grim -t ppm` writes.
    package init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var index = 0
        func token() throws -> String {
            // Skip whitespace and comments between header fields.
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                    index += 1
                } else { break }
            }
            let start = index
            while index < bytes.count && !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09) {
                index += 1
            }
            guard index > start else { throw HarnessError(description: "screenshot: truncated PPM header") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        guard try token() == "P6" else { throw HarnessError(description: "screenshot: not a binary PPM") }
        guard let w = Int(try token()), let h = Int(try token()), let maxval = Int(try token()),
              w > 0, h > 0, w <= 16384, h <= 16384, maxval == 255 else {
            throw HarnessError(description: "screenshot: unsupported PPM header")
        }
        index += 1  // the single whitespace byte after maxval
        guard bytes.count - index >= w * h * 3 else {
            throw HarnessError(description: "screenshot: PPM data shorter than \(w)×\(h)")
        }
        width = w
        height = h
        rgb = Array(bytes[index..<(index + w * h * 3)])
    }

    /// The `width`×`height` pixels at (`x`, `y`) of this screenshot.
    package func cropped(x: Int, y: Int, width: Int, height: Int) throws -> Screenshot {
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= self.width, y + height <= self.height else {
            throw HarnessError(description: "cannot crop \(width)×\(height) at (\(x), \(y)) from \(self.width)×\(self.height)")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let start = (row * self.width + x) * 3
            bytes += rgb[start..<(start + width * 3)]
        }
        return Screenshot(width: width, height: height, rgb: bytes)
    }

    /// A screenshot of `rgb`, `width`×`height` pixels of 3 bytes each, row by row.
    package init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// The pixel at (x, y) as 0xFFRRGGBB.
    package func pixel(_ x: Int, _ y: Int) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let i = (y * width + x) * 3
        return 0xFF00_0000 | UInt32(rgb[i]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2])
    }

    /// Writes the screenshot as a PPM file (kept for diagnosing failures).
    package func write(to url: URL) throws {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: rgb)
        try data.write(to: url)
    }
}

/// Formats a pixel for failure messages.
package func hex(_ pixel: UInt32) -> String { String(format: "#%06X", pixel & 0xFF_FFFF) }

/// A screenshot of the compositor reached through `environment`, taken by grim (wlroots'
/// screencopy: sway and cage).
package func grimScreenshot(environment: [String: String]) throws -> Screenshot {
    let result = try runProcess(URL(fileURLWithPath: tool("grim")), ["-t", "ppm", "-"], environment: environment)
    guard result.status == 0 else {
        throw HarnessError(description: "grim failed (status \(result.status)): \(result.stderr)")
    }
    return try Screenshot(ppm: result.stdoutData)
}
