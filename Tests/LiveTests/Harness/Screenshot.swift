// The live tests' ways to a screenshot besides grim: the PNG files weston-screenshooter and
// mutter's screen cast write, and a turned screen seen upright.
import CompositorHarness
import Foundation
import Pictures
import Raster

extension Screenshot {
    /// Decodes the PNG file at `path` with the project's PNG decoder (a screenshot is opaque,
    /// so its premultiplied pixels are its colours).
    init(pngFile path: String) throws {
        let picture = try ImageDecoder(path: path).decode()
        guard let rendered = picture.render(), picture.width <= 16384, picture.height <= 16384 else {
            throw HarnessError(description: "screenshot \(path): \(picture.width)×\(picture.height) cannot be rendered")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(picture.width * picture.height * 3)
        for pixel in rendered.pixels {
            bytes += [UInt8(pixel >> 16 & 0xFF), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF)]
        }
        self.init(width: picture.width, height: picture.height, rgb: bytes)
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
}
