// JPEG variants (baseline, progressive, gray, CMYK, all subsamplings) decode to the encoded colours.
import Raster
import Testing
@testable import Pictures

@Suite("JPEG decoding")
struct JPEGDecodingTests {
    /// Centres of the four flat quadrants of `blockPattern(64, 48)` and their colours.
    static let quadrants: [(x: Int, y: Int, colour: UInt32)] = [
        (16, 12, argb(220, 30, 30)), (48, 12, argb(30, 200, 40)),
        (16, 36, argb(40, 50, 210)), (48, 36, argb(245, 245, 245)),
    ]

    /// Flat areas survive JPEG within a few levels: 4 per channel at quality 95.
    static let flatTolerance = 4

    static func encoded(_ subsampling: JPEGEncoder.Subsampling = .s420, progressive: Bool = false) throws -> [UInt8] {
        try JPEGEncoder.encode(argb: blockPattern(width: 64, height: 48), width: 64, height: 48, quality: 95,
                               subsampling: subsampling, progressive: progressive)
    }

    @Test("baseline JPEG: quadrant colours within tolerance, header read without decoding")
    func baseline() throws {
        let bytes = try Self.encoded()
        let header = try ImageDecoder(data: bytes, file: "b.jpg").readHeader()
        #expect(header == PictureHeader(format: .jpeg, storedWidth: 64, storedHeight: 48,
                                        orientation: .up, hasAlpha: false, isProgressive: false))
        let picture = try decodeOrFail(bytes)
        #expect(picture.isOpaque && !picture.isPlanar)
        for q in Self.quadrants {
            #expect(channelDistance(picture.pixel(x: q.x, y: q.y), q.colour) <= Self.flatTolerance, "at \(q.x),\(q.y)")
        }
    }

    @Test("progressive JPEG decodes to the same pixels as baseline with the same tables")
    func progressive() throws {
        let progressive = try Self.encoded(progressive: true)
        #expect(try ImageDecoder(data: progressive, file: "p.jpg").readHeader().isProgressive)
        let a = try decodeOrFail(progressive).render()!.pixels
        let b = try decodeOrFail(try Self.encoded()).render()!.pixels
        #expect(a == b)
    }

    @Test("grayscale JPEG: every pixel has R = G = B")
    func grayscale() throws {
        let picture = try decodeOrFail(try Self.encoded(.gray))
        let pixels = picture.render()!.pixels
        #expect(pixels.allSatisfy { p in let c = channels(p); return c[0] == 255 && c[1] == c[2] && c[2] == c[3] })
        // Luma of the red quadrant: 0.299·220 + 0.587·30 + 0.114·30 ≈ 87 (BT.601).
        #expect(abs(channels(picture.pixel(x: 16, y: 12))[1] - 87) <= Self.flatTolerance)
    }

    @Test("CMYK (YCCK) JPEG converts with inverted-ink Adobe convention")
    func cmyk() throws {
        // Stored values are inverted (255 = no ink): red needs full magenta and yellow ink.
        let inks: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 255, 255], [255, 255, 255, 128], [255, 255, 255, 255]]
        let samples = (0..<(32 * 16)).flatMap { i in inks[(i % 32) / 8] }
        let bytes = try JPEGEncoder.encode(cmyk: samples, width: 32, height: 16, quality: 100)
        let picture = try decodeOrFail(bytes)
        let expected = [argb(255, 0, 0), argb(0, 255, 255), argb(128, 128, 128), argb(255, 255, 255)]
        for (i, colour) in expected.enumerated() {
            #expect(channelDistance(picture.pixel(x: i * 8 + 4, y: 8), colour) <= 3, "ink set \(i)")
        }
    }

    @Test("planar storage draws the same pixels as libjpeg-turbo's own conversion",
          arguments: JPEGEncoder.Subsampling.allCases)
    func planarMatchesFullDecode(subsampling: JPEGEncoder.Subsampling) throws {
        // Odd sizes exercise the right and bottom edges of the chroma upsampling.
        let w = 61, h = 37
        let source = (0..<(w * h)).map { i in argb((i % w) * 4, (i / w) * 6, (i * 13) & 0xFF) }
        let bytes = try JPEGEncoder.encode(argb: source, width: w, height: h, quality: 90, subsampling: subsampling)
        let planar = try decodeOrFail(bytes, storage: .planar)
        let packed = try decodeOrFail(bytes, storage: .argb)
        #expect(planar.isPlanar)
        let a = planar.render()!.pixels, b = packed.render()!.pixels
        let worst = zip(a, b).map { channelDistance($0, $1) }.max() ?? 0
        #expect(worst == 0, "largest channel difference \(worst)")
    }

    @Test("planar storage holds 1.5 bytes per pixel for 4:2:0 instead of 4")
    func planarMemory() throws {
        let bytes = try JPEGEncoder.encode(argb: blockPattern(width: 64, height: 48), width: 64, height: 48)
        #expect(try decodeOrFail(bytes, storage: .planar).byteCount == 64 * 48 + 2 * 32 * 24)
        #expect(try decodeOrFail(bytes, storage: .argb).byteCount == 64 * 48 * 4)
    }

    @Test("automatic storage keeps small JPEGs packed and large ones planar")
    func automaticStorage() throws {
        let bytes = try Self.encoded()
        let small = try ImageDecoder(data: bytes, file: "s.jpg").decode()
        var limits = DecodeLimits.standard
        limits.planarThreshold = 64 * 48
        let large = try ImageDecoder(data: bytes, file: "l.jpg", limits: limits).decode()
        #expect(!small.isPlanar && large.isPlanar)
    }

    @Test("preview uses DCT scaling: the largest n/8 factor within the budget")
    func preview() throws {
        let w = 256, h = 128
        let bytes = try JPEGEncoder.encode(argb: blockPattern(width: w, height: h), width: w, height: h, quality: 95)
        let decoder = ImageDecoder(data: bytes, file: "big.jpg")
        let eighth = try decoder.decodePreview(maxPixels: 32 * 16)
        #expect(eighth.width == 32 && eighth.height == 16 && eighth.fullWidth == 256 && eighth.isPreview)
        let half = try decoder.decodePreview(maxPixels: 128 * 64)
        #expect(half.width == 128 && half.height == 64)
        let threeEighths = try decoder.decodePreview(maxPixels: 100 * 50)  // 3/8 → 96×48
        #expect(threeEighths.width == 96 && threeEighths.height == 48)
        let tiny = try decoder.decodePreview(maxPixels: 8)  // below 1/8: averaged down further
        #expect(tiny.width * tiny.height <= 8 && tiny.width >= 1)
        #expect(channelDistance(eighth.pixel(x: 8, y: 4), argb(220, 30, 30)) <= Self.flatTolerance)
        let full = try decoder.decodePreview(maxPixels: w * h)
        #expect(!full.isPreview)
    }
}
