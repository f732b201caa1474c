// PNG variants decode to the exact premultiplied pixels a viewer must show.
import Foundation
import Raster
import Testing
@testable import Pictures

@Suite("PNG decoding")
struct PNGDecodingTests {
    /// A colour that differs at every pixel so misplaced rows or columns show up.
    static func rgb(_ x: Int, _ y: Int) -> [Int] { [(x * 37 + y * 3) & 0xFF, (y * 29 + 7) & 0xFF, (x * y + 11) & 0xFF] }

    @Test("8-bit RGB decodes every pixel exactly")
    func rgb8() throws {
        let png = PNGWriter(width: 17, height: 9, colorType: 2).encode(Self.rgb)
        let picture = try decodeOrFail(png)
        #expect(picture.width == 17 && picture.height == 9 && picture.isOpaque)
        for y in 0..<9 { for x in 0..<17 {
            let c = Self.rgb(x, y)
            #expect(picture.pixel(x: x, y: y) == argb(c[0], c[1], c[2]), "pixel \(x),\(y)")
        } }
    }

    @Test("16-bit RGB and gray reduce to the nearest 8-bit value")
    func sixteenBit() throws {
        let values = [0, 257, 0x1234, 0x7F7F, 0x8080, 0xABCD, 0xFF00, 0xFFFF]
        let rgb16 = PNGWriter(width: values.count, height: 1, colorType: 2, bitDepth: 16)
            .encode { x, _ in [values[x], 0xFFFF - values[x], values[(x + 1) % values.count]] }
        let gray16 = PNGWriter(width: values.count, height: 1, colorType: 0, bitDepth: 16).encode { x, _ in [values[x]] }
        let color = try decodeOrFail(rgb16), gray = try decodeOrFail(gray16)
        func to8(_ v: Int) -> Int { Int((Double(v) / 257).rounded()) }
        for x in 0..<values.count {
            let expected = argb(to8(values[x]), to8(0xFFFF - values[x]), to8(values[(x + 1) % values.count]))
            #expect(color.pixel(x: x, y: 0) == expected, "16-bit RGB value \(values[x])")
            let g = to8(values[x])
            #expect(gray.pixel(x: x, y: 0) == argb(g, g, g), "16-bit gray value \(values[x])")
        }
    }

    @Test("low-depth grayscale expands to full range", arguments: [1, 2, 4, 8])
    func grayDepths(depth: Int) throws {
        let levels = 1 << depth
        let png = PNGWriter(width: 19, height: 3, colorType: 0, bitDepth: UInt8(depth)).encode { x, y in [(x + y) % levels] }
        let picture = try decodeOrFail(png)
        for y in 0..<3 { for x in 0..<19 {
            let v = (x + y) % levels * 255 / (levels - 1)
            #expect(picture.pixel(x: x, y: y) == argb(v, v, v), "depth \(depth) at \(x),\(y)")
        } }
    }

    @Test("gray + alpha is premultiplied with (c·a + 127) / 255")
    func grayAlpha() throws {
        let png = PNGWriter(width: 4, height: 1, colorType: 4).encode { x, _ in [[200, 200, 13, 255][x], [128, 0, 255, 1][x]] }
        let picture = try decodeOrFail(png)
        #expect(!picture.isOpaque)
        #expect(picture.pixel(x: 0, y: 0) == argb(100, 100, 100, 128))  // 200·128 = 25600 → 100
        #expect(picture.pixel(x: 1, y: 0) == 0)                          // fully transparent
        #expect(picture.pixel(x: 2, y: 0) == argb(13, 13, 13, 255))
        #expect(picture.pixel(x: 3, y: 0) == argb(1, 1, 1, 1))           // 255·1 = 255 → 1
    }

    @Test("RGBA premultiplication is exact for every colour and alpha value")
    func premultiplicationExhaustive() throws {
        let png = PNGWriter(width: 256, height: 256, colorType: 6).encode { x, y in [x, 255 - x, (x * 7) & 0xFF, y] }
        let picture = try decodeOrFail(png)
        var mismatches = 0
        for a in 0..<256 { for c in 0..<256 {
            let expected = UInt32(a) << 24 | UInt32((c * a + 127) / 255) << 16
                | UInt32(((255 - c) * a + 127) / 255) << 8 | UInt32((((c * 7) & 0xFF) * a + 127) / 255)
            if picture.pixel(x: c, y: a) != expected { mismatches += 1 }
        } }
        #expect(mismatches == 0)
    }

    @Test("palette with tRNS expands to premultiplied colours, at 8 and 4 bits")
    func paletteWithTransparency() throws {
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        for depth: UInt8 in [8, 4, 2] {
            var writer = PNGWriter(width: 8, height: 2, colorType: 3, bitDepth: depth)
            writer.palette = palette
            writer.transparency = [255, 128, 0]  // entry 3 has no tRNS value: opaque
            let picture = try decodeOrFail(writer.encode { x, _ in [x % 4] })
            #expect(!picture.isOpaque)
            #expect(picture.pixel(x: 0, y: 0) == argb(255, 0, 0))
            #expect(picture.pixel(x: 1, y: 1) == argb(0, 128, 0, 128), "depth \(depth)")
            #expect(picture.pixel(x: 2, y: 0) == 0)
            #expect(picture.pixel(x: 7, y: 1) == argb(255, 255, 255))
        }
    }

    @Test("gray and RGB tRNS make the keyed colour transparent")
    func colorKey() throws {
        var gray = PNGWriter(width: 3, height: 1, colorType: 0)
        gray.transparency = [0, 77]
        let g = try decodeOrFail(gray.encode { x, _ in [[77, 78, 0][x]] })
        #expect(g.pixel(x: 0, y: 0) == 0)
        #expect(g.pixel(x: 1, y: 0) == argb(78, 78, 78))
        var rgb = PNGWriter(width: 2, height: 1, colorType: 2)
        rgb.transparency = [0, 10, 0, 20, 0, 30]
        let c = try decodeOrFail(rgb.encode { x, _ in x == 0 ? [10, 20, 30] : [10, 20, 31] })
        #expect(c.pixel(x: 0, y: 0) == 0)
        #expect(c.pixel(x: 1, y: 0) == argb(10, 20, 31))
    }

    @Test("Adam7-interlaced files decode to the same pixels as plain ones")
    func interlaced() throws {
        for (w, h) in [(1, 1), (3, 2), (9, 13), (33, 17)] {
            var writer = PNGWriter(width: w, height: h, colorType: 6)
            let sample: (Int, Int) -> [Int] = { x, y in Self.rgb(x, y) + [255 - (x * 9 + y) % 200] }
            let plain = try decodeOrFail(writer.encode(sample))
            writer.interlaced = true
            let adam7 = ImageDecoder(data: writer.encode(sample), file: "i.png")
            #expect(try adam7.readHeader().isProgressive)
            let picture = try adam7.decode()
            for y in 0..<h { for x in 0..<w {
                #expect(picture.pixel(x: x, y: y) == plain.pixel(x: x, y: y), "\(w)×\(h) at \(x),\(y)")
            } }
        }
    }

    @Test("header reports size and alpha without decoding")
    func header() throws {
        let png = PNGWriter(width: 640, height: 480, colorType: 4).encode { _, _ in [0, 0] }
        let header = try ImageDecoder(data: png, file: "h.png").readHeader()
        #expect(header == PictureHeader(format: .png, storedWidth: 640, storedHeight: 480,
                                        orientation: .up, hasAlpha: true, isProgressive: false))
    }

    @Test("an eXIf chunk orients a PNG")
    func exifChunk() throws {
        var writer = PNGWriter(width: 3, height: 2, colorType: 2)
        writer.exif = tiffOrientation(6, bigEndian: false)
        let picture = try decodeOrFail(writer.encode { x, y in [x * 100, y * 100, 0] })
        #expect(picture.width == 2 && picture.height == 3 && picture.orientation == .right)
        // Rotated 90° clockwise: the stored bottom-left pixel (0, 1) shows at the top-left.
        #expect(picture.pixel(x: 0, y: 0) == argb(0, 100, 0))
        #expect(picture.pixel(x: 1, y: 2) == argb(200, 0, 0))
    }

    @Test("PNG preview fits the pixel budget and averages colours")
    func preview() throws {
        let png = PNGWriter(width: 200, height: 100, colorType: 2).encode { x, _ in x % 2 == 0 ? [0, 0, 0] : [200, 100, 50] }
        let preview = try ImageDecoder(data: png, file: "p.png").decodePreview(maxPixels: 5000)
        #expect(preview.width * preview.height <= 5000)
        #expect(preview.width == 100 && preview.height == 50)
        #expect(preview.fullWidth == 200 && preview.fullHeight == 100 && preview.isPreview)
        #expect(preview.pixel(x: 10, y: 10) == argb(100, 50, 25))
    }

    /// 1-bit PNGs as encoders write them, IDAT deflated by zlib at level 9 (Python's zlib):
    /// all white, 400² (143 bytes, 143:1) and 1200² (786 bytes, 231:1), and a palette circle
    /// of radius s/3 in white on black, 400² (727 bytes). A packed format compresses this well,
    /// so a size check that assumed 8 bits per sample or counted the wrong bytes called them
    /// truncated (issue 12.12); the bound is deflate's 1032:1 over the IDAT bytes and libpng's
    /// own bit depth.
    static let oneBitFiles: [(name: String, size: Int, base64: String, black: @Sendable (Int, Int) -> Bool)] = [
        ("white 400", 400, "iVBORw0KGgoAAAANSUhEUgAAAZAAAAGQAQAAAACoxAthAAAAVklEQVR42u3LMQ0AAAwDoPo33WrYu8BPehZFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRFURRF+V4GPNjWZIcwu64AAAAASUVORK5CYII=", { _, _ in false }),
        ("white 1200", 1200, "iVBORw0KGgoAAAANSUhEUgAABLAAAASwAQAAAADDWo5iAAAC2UlEQVR42u3OAQ0AAAwCIPuX1hr/BglIT4qWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaW1u/WAEqiieURv+i9AAAAAElFTkSuQmCC", { _, _ in false }),
        ("palette circle 400", 400, "iVBORw0KGgoAAAANSUhEUgAAAZAAAAGQAQMAAAC6caSPAAAABlBMVEUAAAD///+l2Z/dAAACjElEQVR42u2bQW6DMBBFg1h4yRF8FI6WHM1H4QheskC4VSM1TeMZ+39RQ8n8/VPk+QMKnj+Xi8lkMplMJpPJZDKZ/kRdSgEj+vSpCULSl24A4e/IAh3kroD+CPIz6Vu1p3EPJFYi4wNZwcPXF8D9RCJWr/qapSfdatvroZpGG56RGStxbZmvz0gCXalzxv1GIuZKnTPjb2QFjawxs3tFAnr68vmHV2RGT18+//UVSXDBSiXrc8iEFqxUsiGHzFiHlbssV7BCybKEWrIujwS0xnqVXR6JaI31Kvs8smB9XOrlvC2qMQKhGNNJSEBt0YxxEhJRWzRjvIQsWyKjhKywk4qXIiF62clI2A7pZWRCzZftH2Rk3g7xMrKg5sv2E4jcL2LHKITUMTjSaUhA+0XqGAJxGhK3QgYNmbdCvIYsaItJTUYgWlcKfUkgKpHvSxzpdCTshvQ6Mm2DOB2J2yCDjsy7IV5Hlt2QUUfW3RD9Oc4+yW2QApF7+I+KdCUk/B+kLyHTqRFXQqIh0Fs89x435JiILyGLIYYYcnjEXn2nQewPCYq8+T/YM32MnOkj8bhf4oe9uzjsbc9h78faXA+2ueo87E1vm4vuRpf2bQYQxGSkzcimzfipzSiNmPG1GT4yU9ERbTEK8WhXthpwE5N3Yr7fJnhAJCKY3MWImt8qdkLkYYjUDZHtIRJERE6JSUONqJNUsovIjxEpNSILRyTuiFwfkx70aI2pJCSRtyRSnUR2lEmojlgfCyUrpW2JTC+RHCbyyUwK2mMdlj1/OdFN5MaJdDqTgSeS9kSen9gaYHYTiA0IYs+C2OZgdkaIzRRm/4XYsiF2eZiNIWYvidh+MplMJpPJZDKZTKY31QdbCDA1+raTTAAAAABJRU5ErkJggg==", { x, y in
            let dx = Double(x) - 200, dy = Double(y) - 200
            return dx * dx + dy * dy >= (400.0 / 3) * (400.0 / 3)
        }),
    ]

    @Test("Compressed 1-bit PNGs decode in full, not as truncated", arguments: 0..<3)
    func oneBitCompressed(index: Int) throws {
        let file = Self.oneBitFiles[index]
        let bytes = try #require(Data(base64Encoded: file.base64).map { [UInt8]($0) })
        let picture = try decodeOrFail(bytes)
        #expect(picture.width == file.size && picture.height == file.size, "\(file.name)")
        var wrong = 0
        for y in stride(from: 0, to: file.size, by: 7) { for x in stride(from: 0, to: file.size, by: 5) {
            let expected = file.black(x, y) ? argb(0, 0, 0) : argb(255, 255, 255)
            if picture.pixel(x: x, y: y) != expected { wrong += 1 }
        } }
        #expect(wrong == 0, "\(file.name): \(wrong) sampled pixels differ")
    }
}
