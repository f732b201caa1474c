// A screenshot decoded from grim's binary PPM output (or from the PNG files weston-screenshooter
// and mutter's screen cast write), with pixel look-ups for assertions.
import Foundation
import Pictures
import Raster

/// An RGB screenshot; pixels are returned as opaque 0xFFRRGGBB to compare with XRGB colours.
struct Screenshot {
    let width: Int
    let height: Int
    private let rgb: [UInt8]

    /// Parses a binary PPM (P6, maxval 255), the format `grim -t ppm` writes.
    init(ppm data: Data) throws {
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

    /// Decodes the PNG file at `path` with the project's PNG decoder (a screenshot is opaque,
    /// so its premultiplied pixels are its colours).
    init(pngFile path: String) throws {
        let picture = try ImageDecoder(path: path).decode()
        guard let rendered = picture.render(), picture.width <= 16384, picture.height <= 16384 else {
            throw HarnessError(description: "screenshot \(path): \(picture.width)×\(picture.height) cannot be rendered")
        }
        width = picture.width
        height = picture.height
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 3)
        for pixel in rendered.pixels {
            bytes += [UInt8(pixel >> 16 & 0xFF), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF)]
        }
        rgb = bytes
    }

    /// The `width`×`height` pixels at (`x`, `y`) of this screenshot.
    func cropped(x: Int, y: Int, width: Int, height: Int) throws -> Screenshot {
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

    private init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// The picture a screen turned by `transform` shows upright: this screenshot holds the
    /// screen's pixels as sent to it (a buffer turned by `transform`), and pixel (x, y) of the
    /// result is the one the transform sends upright pixel (x, y) to.
    func turnedBack(_ transform: FrameTransform) -> Screenshot {
        let w = transform.swapsAxes ? height : width, h = transform.swapsAxes ? width : height
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let p = transform.map(x: x, y: y, width: w, height: h)
                let i = (p.y * width + p.x) * 3, o = (y * w + x) * 3
                out[o] = rgb[i]
                out[o + 1] = rgb[i + 1]
                out[o + 2] = rgb[i + 2]
            }
        }
        return Screenshot(width: w, height: h, rgb: out)
    }

    /// The pixel at (x, y) as 0xFFRRGGBB.
    func pixel(_ x: Int, _ y: Int) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let i = (y * width + x) * 3
        return 0xFF00_0000 | UInt32(rgb[i]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2])
    }

    /// Writes the screenshot as a PPM file (kept for diagnosing failures).
    func write(to url: URL) throws {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: rgb)
        try data.write(to: url)
    }
}

/// Formats a pixel for failure messages.
func hex(_ pixel: UInt32) -> String { String(format: "#%06X", pixel & 0xFF_FFFF) }
