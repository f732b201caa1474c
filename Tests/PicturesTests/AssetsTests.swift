// The bundled demo images decode to the colours their generator painted at known places.
import Foundation
import Raster
import Testing
@testable import Pictures

@Suite("Bundled assets")
struct AssetsTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Assets")

    static func load(_ name: String) throws -> Picture {
        try ImageDecoder(path: directory.appendingPathComponent(name).path).decode()
    }

    /// JPEG at quality 85–90 keeps a 64-px flat block's centre within this many levels.
    static let jpegTolerance = 6

    @Test("01-sunset.png: exact corner patches")
    func sunset() throws {
        let p = try Self.load("01-sunset.png")
        #expect(p.width == 1200 && p.height == 800 && p.isOpaque)
        #expect(p.pixel(x: 0, y: 0) == argb(12, 34, 56) && p.pixel(x: 15, y: 15) == argb(12, 34, 56))
        #expect(p.pixel(x: 1199, y: 799) == argb(250, 128, 4))
    }

    @Test("02-bubbles-alpha.png: transparent and premultiplied half-transparent patches")
    func bubbles() throws {
        let p = try Self.load("02-bubbles-alpha.png")
        #expect(!p.isOpaque)
        #expect(p.pixel(x: 5, y: 5) == 0)
        #expect(p.pixel(x: 790, y: 8) == argb(100, 50, 25, 128))  // (200, 100, 50) × 128/255
    }

    @Test("03-mosaic-palette.png: palette entry 0 and the transparent entry")
    func mosaic() throws {
        let p = try Self.load("03-mosaic-palette.png")
        #expect(p.width == 640 && p.height == 480)
        #expect(p.pixel(x: 3, y: 3) == argb(248, 67, 69))
        #expect(p.pixel(x: 35, y: 20) == 0)
    }

    @Test("04-city-4000x3000.jpg: flat blocks, planar tiles and a quick preview")
    func city() throws {
        let decoder = try ImageDecoder(path: Self.directory.appendingPathComponent("04-city-4000x3000.jpg").path)
        let header = try decoder.readHeader()
        #expect(header.width == 4000 && header.height == 3000 && header.format == .jpeg)
        let picture = try decoder.decode(storage: .planar)
        #expect(picture.isPlanar && picture.byteCount == 4000 * 3000 * 3 / 2)
        #expect(channelDistance(picture.pixel(x: 1032, y: 1032), argb(200, 30, 30)) <= Self.jpegTolerance)
        #expect(channelDistance(picture.pixel(x: 3032, y: 2032), argb(30, 60, 200)) <= Self.jpegTolerance)
        // A 256-px tile at 1:1 around the red block.
        let tile = OwnedFramebuffer(width: 256, height: 256)!
        picture.drawTile(PixelRect(x: 1024, y: 1024, width: 256, height: 256), into: tile.framebuffer)
        #expect(channelDistance(tile.framebuffer[8, 8], argb(200, 30, 30)) <= Self.jpegTolerance)
        let preview = try decoder.decodePreview(maxPixels: 500 * 375)
        #expect(preview.width == 500 && preview.height == 375)  // 1/8 DCT scaling
        #expect(channelDistance(preview.pixel(x: 129, y: 129), argb(200, 30, 30)) <= Self.jpegTolerance)
    }

    @Test("05-arrow-exif6.jpg: shown rotated to 800×1200 with the marked corners in place")
    func arrow() throws {
        let p = try Self.load("05-arrow-exif6.jpg")
        #expect(p.orientation == .right && p.width == 800 && p.height == 1200)
        #expect(channelDistance(p.pixel(x: 40, y: 40), argb(40, 200, 60)) <= Self.jpegTolerance)
        #expect(channelDistance(p.pixel(x: 760, y: 1160), argb(220, 40, 40)) <= Self.jpegTolerance)
        // The arrow's shaft runs down the middle column below its head.
        #expect(channelDistance(p.pixel(x: 400, y: 800), argb(240, 240, 240)) <= Self.jpegTolerance)
    }
}
