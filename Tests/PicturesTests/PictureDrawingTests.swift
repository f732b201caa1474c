// drawTile at 1:1, below and above 1, at the picture's edges, from packed and planar storage.
import Raster
import Testing
@testable import Pictures

@Suite("Picture drawing")
struct PictureDrawingTests {
    /// 4×4 RGBA: four 2×2 blocks, each block two colours in a checkerboard.
    static let picture: Picture = {
        let blocks: [[Int]] = [[200, 0, 0, 255], [0, 100, 0, 255], [0, 0, 50, 255], [80, 80, 80, 128]]
        let png = PNGWriter(width: 4, height: 4, colorType: 6).encode { x, y in
            let block = blocks[(y / 2) * 2 + x / 2]
            return (x + y) % 2 == 0 ? block : [0, 0, 0, block[3]]
        }
        return try! ImageDecoder(data: png, file: "d.png").decode()
    }()

    static func draw(_ rect: PixelRect, scale: Double) -> [UInt32] {
        let out = OwnedFramebuffer(width: rect.width, height: rect.height)!
        out.framebuffer.fill(out.framebuffer.bounds, with: 0xDEAD_BEEF)  // every pixel must be written
        picture.drawTile(rect, scale: scale, into: out.framebuffer)
        return out.pixels
    }

    @Test("scale 0.5 averages each 2×2 block of premultiplied pixels, rounded")
    func halfScale() {
        let grey = (80 * 128 + 127) / 255  // 40: premultiplied grey channel
        #expect(Self.draw(PixelRect(x: 0, y: 0, width: 2, height: 2), scale: 0.5) == [
            argb(100, 0, 0), argb(0, 50, 0),
            argb(0, 0, 25), argb(grey / 2, grey / 2, grey / 2, 128),
        ])
    }

    @Test("scale 2 repeats each pixel in a 2×2 square")
    func doubleScale() {
        let tile = Self.draw(PixelRect(x: 0, y: 0, width: 4, height: 2), scale: 2)
        #expect(tile == [argb(200, 0, 0), argb(200, 0, 0), argb(0, 0, 0), argb(0, 0, 0),
                         argb(200, 0, 0), argb(200, 0, 0), argb(0, 0, 0), argb(0, 0, 0)])
    }

    @Test("tiles reaching past the picture are transparent there")
    func edges() {
        let tile = Self.draw(PixelRect(x: 3, y: -1, width: 2, height: 2), scale: 1)
        #expect(tile == [0, 0, Self.picture.pixel(x: 3, y: 0), 0])
        #expect(Self.draw(PixelRect(x: 10, y: 10, width: 3, height: 1), scale: 1) == [0, 0, 0])
    }

    @Test("1:1 tiles put together equal the whole picture")
    func tilesCompose() {
        let whole = Self.draw(PixelRect(x: 0, y: 0, width: 4, height: 4), scale: 1)
        var assembled = [UInt32](repeating: 0, count: 16)
        for ty in [0, 3] { for tx in [0, 3] {
            let w = tx == 0 ? 3 : 1, h = ty == 0 ? 3 : 1
            let tile = Self.draw(PixelRect(x: tx, y: ty, width: w, height: h), scale: 1)
            for y in 0..<h { for x in 0..<w { assembled[(ty + y) * 4 + tx + x] = tile[y * w + x] } }
        } }
        #expect(assembled == whole)
    }

    @Test("downscaled tiles from planar storage equal those from packed storage")
    func planarDownscale() throws {
        let (w, h) = (96, 64)
        let source = (0..<(w * h)).map { i in argb((i % w) * 2, (i / w) * 3, (i * 7) & 0xFF) }
        let bytes = try JPEGEncoder.encode(argb: source, width: w, height: h, quality: 85)
        let planar = try decodeOrFail(bytes, storage: .planar), packed = try decodeOrFail(bytes, storage: .argb)
        for scale in [0.25, 0.3, 0.5] {
            let a = OwnedFramebuffer(width: 20, height: 12)!, b = OwnedFramebuffer(width: 20, height: 12)!
            planar.drawTile(PixelRect(x: 3, y: 2, width: 20, height: 12), scale: scale, into: a.framebuffer)
            packed.drawTile(PixelRect(x: 3, y: 2, width: 20, height: 12), scale: scale, into: b.framebuffer)
            #expect(a.pixels == b.pixels, "scale \(scale)")
        }
    }

    @Test("16-bit RGBA is treated as sRGB and premultiplied after reduction to 8 bits")
    func sixteenBitAlpha() throws {
        let png = PNGWriter(width: 2, height: 1, colorType: 6, bitDepth: 16)
            .encode { x, _ in x == 0 ? [200 * 257, 100 * 257, 0, 128 * 257] : [0xFFFF, 0xFFFF, 0xFFFF, 0] }
        let picture = try decodeOrFail(png)
        #expect(picture.pixel(x: 0, y: 0) == argb(100, 50, 0, 128))
        #expect(picture.pixel(x: 1, y: 0) == 0)
    }
}
