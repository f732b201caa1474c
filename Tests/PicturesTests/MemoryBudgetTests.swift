// Decoding within a memory budget (issue 12.8): pictures kept as levels, the finer ones in an
// unlinked private file, drawing the same pixels at every scale as a picture held whole; JPEG
// reduced by DCT scaling; formats decoded whole refused past the budget.
import Foundation
import Raster
import SafeOutput
import Testing
import TestSupport
@testable import Pictures

@Suite("Memory budget")
struct MemoryBudgetTests {
    /// The colour of the 8×8 block holding (x, y): every level down to 1/8 is made of whole
    /// blocks, so each level's pixels are known exactly.
    static func block(_ x: Int, _ y: Int) -> [Int] {
        let bx = x / 8, by = y / 8
        return [(bx * 37 + 11) & 0xFF, (by * 53 + 7) & 0xFF, ((bx + by) * 11) & 0xFF]
    }

    /// 512×384 RGB of 8×8 blocks: levels 512×384 (786 432 bytes), 256×192, 128×96 and 64×48,
    /// the level a 64×48 screen shows it from.
    static let blocks = PNGWriter(width: 512, height: 384, colorType: 2).encode { x, y in block(x, y) }

    /// Limits for a 64×48 screen and a budget of 100 000 bytes beside the file's own (stored
    /// deflate, so about as large as the pixels): the two coarsest levels (61 440 bytes) fit,
    /// the two finest go to a file in `folder` when there is one.
    static func limits(folder: String?, budget: Int = blocks.count + 100_000) -> DecodeLimits {
        DecodeLimits(availableMemory: { nil }, memoryBudget: budget, levelFolder: { folder }, screenWidth: 64, screenHeight: 48)
    }

    /// The picture drawn at `scale` over `rect`.
    static func tile(_ picture: Picture, _ rect: PixelRect, scale: Double) -> [UInt32] {
        let out = OwnedFramebuffer(width: rect.width, height: rect.height)!
        picture.drawTile(rect, scale: scale, into: out.framebuffer)
        return out.pixels
    }

    @Test("A PNG over the budget keeps its coarse levels in memory and its fine ones in an unlinked private file, and draws its own pixels at every scale")
    func fileLevels() throws {
        let folder = try PrivateFolder(prefix: "budget-levels")
        let picture = try ImageDecoder(data: Self.blocks, file: "blocks.png", limits: Self.limits(folder: folder.path)).decode()
        #expect(!picture.isPreview && picture.width == 512 && picture.height == 384)
        #expect(picture.byteCount == (128 * 96 + 64 * 48) * 4, "memory holds the two coarsest levels: \(picture.byteCount)")
        // The level file was unlinked as soon as it was made: nothing is left to find.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        for (x, y) in [(0, 0), (511, 383), (100, 200), (257, 129)] {
            let c = Self.block(x, y)
            #expect(picture.pixel(x: x, y: y) == argb(c[0], c[1], c[2]), "pixel (\(x), \(y))")
        }
        // At 1/2ᵏ each drawn pixel is one block's colour (blocks are 8/2ᵏ pixels wide there).
        for scale in [1.0, 0.5, 0.25, 0.125] {
            let rect = PixelRect(x: Int(96 * scale), y: Int(40 * scale), width: 24, height: 16)
            let drawn = Self.tile(picture, rect, scale: scale)
            for dy in 0..<rect.height {
                for dx in 0..<rect.width {
                    let c = Self.block(Int(Double(rect.x + dx) / scale), Int(Double(rect.y + dy) / scale))
                    guard drawn[dy * rect.width + dx] == argb(c[0], c[1], c[2]) else {
                        Issue.record("scale \(scale): (\(rect.x + dx), \(rect.y + dy)) is \(String(drawn[dy * rect.width + dx], radix: 16))")
                        return
                    }
                }
            }
        }
    }

    @Test("Without a level folder a PNG over the budget is kept reduced, at the finest level memory holds")
    func reducedWithoutFolder() throws {
        let picture = try ImageDecoder(data: Self.blocks, file: "blocks.png", limits: Self.limits(folder: nil)).decode()
        #expect(picture.isPreview && picture.width == 128 && picture.height == 96 && picture.fullWidth == 512)
        #expect(picture.byteCount <= 100_000, "\(picture.byteCount)")
        let c = Self.block(200, 100)
        #expect(picture.pixel(x: 50, y: 25) == argb(c[0], c[1], c[2]))
    }

    @Test("Screen detail keeps the level that fits the screen alone, and a picture's screen reduction shares its pixels")
    func screenDetail() throws {
        let decoder = ImageDecoder(data: Self.blocks, file: "blocks.png", limits: Self.limits(folder: nil, budget: .max))
        let screen = try decoder.decode(detail: .screen)
        #expect(screen.width == 64 && screen.height == 48 && screen.byteCount == 64 * 48 * 4)
        let full = try decoder.decode()
        #expect(!full.isPreview && full.byteCount == (512 * 384 + 256 * 192 + 128 * 96 + 64 * 48) * 4)
        let reduction = try #require(full.screenReduction)
        #expect(reduction.width == 64 && reduction.byteCount == 64 * 48 * 4 && reduction.fullWidth == 512)
        let rect = PixelRect(x: 0, y: 0, width: 64, height: 48)
        #expect(Self.tile(reduction, rect, scale: 1) == Self.tile(screen, rect, scale: 1), "the screen level, shared")
        #expect(Self.tile(full, rect, scale: 0.125) == Self.tile(screen, rect, scale: 1), "the full picture at 1/8 draws its screen level")
    }

    @Test("Levels in a file draw exactly what levels in memory draw: odd sizes, alpha, a turned picture, any scale",
          arguments: [1, 6])
    func fileMatchesMemory(orientation: Int) throws {
        var writer = PNGWriter(width: 301, height: 203, colorType: 6)
        if orientation != 1 { writer.exif = tiffOrientation(orientation) }
        let png = writer.encode { x, y in [(x * 7) & 0xFF, (y * 5) & 0xFF, (x ^ y) & 0xFF, (x + 2 * y) % 256] }
        let folder = try PrivateFolder(prefix: "budget-levels")
        let whole = try ImageDecoder(data: png, file: "a.png", limits: Self.limits(folder: nil, budget: .max)).decode()
        let filed = try ImageDecoder(data: png, file: "a.png", limits: Self.limits(folder: folder.path, budget: png.count + 20_000))
            .decode()
        #expect(filed.byteCount <= 20_000 && whole.byteCount > 300_000, "\(filed.byteCount), \(whole.byteCount)")
        #expect(filed.width == whole.width && filed.height == whole.height && !filed.isPreview)
        for scale in [2, 1, 0.7, 0.5, 0.3, 0.25, 0.12] {
            for rect in [PixelRect(x: 0, y: 0, width: 40, height: 30), PixelRect(x: Int(150 * scale), y: Int(90 * scale), width: 33, height: 17)] {
                #expect(Self.tile(filed, rect, scale: scale) == Self.tile(whole, rect, scale: scale), "scale \(scale), \(rect)")
                #expect(Self.tile(filed, rect, scale: scale).contains { $0 != 0 }, "scale \(scale), \(rect) is drawn")
            }
        }
    }

    @Test("A PNG cut half-way keeps its decoded rows in every level, memory and file, and the rest is transparent")
    func damagedLevels() throws {
        let cut = Array(Self.blocks.prefix(Self.blocks.count / 2))
        let folder = try PrivateFolder(prefix: "budget-levels")
        let picture = try ImageDecoder(data: cut, file: "cut.png", limits: Self.limits(folder: folder.path))
            .decode(acceptsDamage: true)
        let damage = try #require(picture.damage)
        #expect(damage.error.kind == .truncated)
        let c = Self.block(10, 10)
        #expect(picture.pixel(x: 10, y: 10) == argb(c[0], c[1], c[2]))
        #expect(picture.pixel(x: 10, y: 380) == 0)
        // At 1/8, pixel (2, 2) is the block at (16, 16); the last row is rows 376…383, never decoded.
        let coarse = Self.tile(picture, PixelRect(x: 0, y: 0, width: 64, height: 48), scale: 0.125)
        let b = Self.block(16, 16)
        #expect(coarse[2 * 64 + 2] == argb(b[0], b[1], b[2]) && coarse[47 * 64 + 2] == 0)
    }

    @Test("A JPEG over the budget decodes row by row into levels, or, when not even a screen's fit, at the DCT scale that fits; a progressive one whose coefficients pass the budget is refused")
    func jpegWithinBudget() throws {
        let pixels = blockPattern(width: 640, height: 480)
        let baseline = try JPEGEncoder.encode(argb: pixels, width: 640, height: 480, quality: 90)
        // 640×480×4 = 1.2 MB whole; a budget of 400 000 bytes beside the file holds the levels
        // 160×120 and 80×60 (the level of a 64×48 screen), not 320×240 with them.
        let folder = try PrivateFolder(prefix: "budget-levels")
        let small = DecodeLimits(availableMemory: { nil }, memoryBudget: 400_000 + baseline.count, screenWidth: 64, screenHeight: 48)
        let reduced = try ImageDecoder(data: baseline, file: "b.jpg", limits: small).decode()
        #expect(reduced.isPreview && reduced.width == 160 && reduced.height == 120 && reduced.byteCount == (160 * 120 + 80 * 60) * 4)
        var filed = small
        let path = folder.path
        filed.levelFolder = { path }
        let full = try ImageDecoder(data: baseline, file: "b.jpg", limits: filed).decode()
        #expect(!full.isPreview && full.width == 640 && full.byteCount == (160 * 120 + 80 * 60) * 4)
        let whole = try ImageDecoder(data: baseline, file: "b.jpg", limits: DecodeLimits(availableMemory: { nil })).decode(storage: .argb)
        for (x, y) in [(40, 40), (600, 30), (20, 470), (630, 470)] {
            #expect(channelDistance(full.pixel(x: x, y: y), whole.pixel(x: x, y: y)) <= 2, "(\(x), \(y))")
        }
        // 400 000 bytes beside the file on a 1080p screen: the picture is its own screen level,
        // which does not fit; DCT scaling to 320×240 does.
        let limits = DecodeLimits(availableMemory: { nil }, memoryBudget: 400_000 + baseline.count)
        let picture = try ImageDecoder(data: baseline, file: "b.jpg", limits: limits).decode(storage: .argb)
        #expect(picture.isPreview && picture.width == 320 && picture.height == 240 && picture.fullWidth == 640)
        #expect(channelDistance(picture.pixel(x: 40, y: 40), argb(220, 30, 30)) < 8)
        let progressive = try JPEGEncoder.encode(argb: pixels, width: 640, height: 480, quality: 90, subsampling: .s444, progressive: true)
        let tight = DecodeLimits(availableMemory: { nil }, memoryBudget: 1_000_000)
        let error = decodeError(progressive, file: "p.jpg", limits: tight)
        #expect(error?.kind == .overBudget(width: 640, height: 480, needed: 2 * 640 * 480 * 3 + 80 * 60 * 4 + progressive.count,
                                            budget: 1_000_000), "\(String(describing: error))")
    }

    @Test("A format decoded in rows is refused past the budget, one its library decodes whole past the allowance, and an animation past the budget, with both figures")
    func wholeFormatsRefused() throws {
        // An uncompressed BMP (compression 0 at byte 30), read in rows.
        let bmp = FuzzSeeds.files.first { $0.starts(with: [0x42, 0x4D]) && $0[30] == 0 }
        let file = try #require(bmp, "an uncompressed BMP seed")
        let header = try ImageDecoder(data: file, file: "s.bmp").readHeader()
        let limits = DecodeLimits(availableMemory: { nil }, memoryBudget: 64)
        let error = decodeError(file, file: "s.bmp", limits: limits)
        #expect(error?.description.hasPrefix("s.bmp: image too large for the memory budget: \(header.width)×\(header.height) needs ") == true,
                "\(String(describing: error))")
        #expect(error?.description.hasSuffix("the budget is 64 bytes") == true)
        // libheif decodes whole pictures (7 bytes a pixel of its own): the decode may pass the
        // budget up to three times while it runs, not more. A screen level of 48×32 fits the
        // budget of 20 000 bytes beside the file; 384×256 of libheif's planes do not fit three.
        let folder = try PrivateFolder(prefix: "budget-heif")
        let heic = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try PillowPictures.blockPicture(
            "heif", width: 384, height: 256, block: 8, name: "blocks.heic", in: folder.path))))
        let tight = DecodeLimits(availableMemory: { nil }, memoryBudget: heic.count + 20_000, screenWidth: 48, screenHeight: 32)
        let whole = #expect(throws: PictureError.self) {
            try ImageDecoder(data: heic, file: "s.heic", limits: tight).decode(detail: .screen)
        }
        #expect(whole?.description.hasPrefix("s.heic: image too large to decode within the memory budget: 384×256 needs ") == true,
                "\(String(describing: whole))")
        #expect(whole?.description.hasSuffix("the allowance for that is \(PictureError.bytes(3 * (heic.count + 20_000)))") == true,
                "\(String(describing: whole))")
        // An animation holds three canvases: refused past the budget.
        let gif = try #require(FuzzSeeds.files.first { $0.starts(with: Array("GIF8".utf8)) }, "a GIF seed")
        #expect(throws: PictureError.self) { try AnimationDecoder(decoder: ImageDecoder(data: gif, file: "a.gif", limits: limits)) }
    }

    @Test("Every format past the budget opens: the screen level and its full resolution (the finer levels in the level file) show the picture's own pixels",
          arguments: PillowPictures.blockFormats)
    func everyFormatPastTheBudget(format: String, tolerance: Int) throws {
        let folder = try PrivateFolder(prefix: "budget-formats")
        // 384×256 in blocks of 8: 393 216 bytes whole; the budget holds the file and 320 000
        // bytes beside it (the levels from 1/2 down: 129 024 bytes), its allowance for whole
        // decodes a lossless WebP's two whole pictures, and a 48×32 screen shows a block a pixel.
        let path = try PillowPictures.blockPicture(format, width: 384, height: 256, block: 8, name: "blocks", in: folder.path)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let levels = folder.path
        let limits = DecodeLimits(availableMemory: { nil }, memoryBudget: bytes.count + 320_000, levelFolder: { levels },
                                  screenWidth: 48, screenHeight: 32)
        let decoder = ImageDecoder(data: bytes, file: "blocks", limits: limits)
        /// Checks `picture` drawn at `scale` of its own pixels, which are `full` times the
        /// picture's scale.
        func expect(_ picture: Picture, scale: Double, _ label: String) {
            let (w, h) = picture.scaledSize(scale)
            let drawn = Self.tile(picture, PixelRect(x: 0, y: 0, width: w, height: h), scale: scale)
            let shown = scale * Double(picture.width) / Double(picture.fullWidth)
            var worst = (distance: 0, at: (0, 0))
            // Each drawn pixel inside a block (a pixel from its edges, where lossy coding rings),
            // or every pixel where a drawn pixel is a block.
            for y in 0..<h {
                for x in 0..<w {
                    let (px, py) = (Int((Double(x) + 0.5) / shown), Int((Double(y) + 0.5) / shown))
                    let margin = Int(1 / shown) + 1
                    guard shown <= 0.125 || (px % 8 >= margin && px % 8 < 8 - margin && py % 8 >= margin && py % 8 < 8 - margin) else { continue }
                    let c = PillowPictures.blockColor(px / 8, py / 8)
                    let d = channelDistance(drawn[y * w + x], argb(c.0, c.1, c.2))
                    if d > worst.distance { worst = (d, (x, y)) }
                }
            }
            // Three times the format's tolerance where a drawn pixel averages a whole block,
            // its ringing edges too.
            let allowed = shown <= 0.125 ? 3 * tolerance : tolerance
            #expect(worst.distance <= allowed, "\(format) \(label) at \(scale): \(worst.distance) off at \(worst.at)")
        }
        let screen = try decoder.decode(detail: .screen)
        #expect(screen.width == 48 && screen.height == 32 && screen.fullWidth == 384, "\(format): \(screen.width)×\(screen.height)")
        expect(screen, scale: 1, "screen level")
        let full = try decoder.decode(detail: .full)
        #expect(!full.isPreview && full.byteCount == 129_024, "\(format): \(full.width)×\(full.height), \(full.byteCount) bytes held")
        for scale in [1, 0.5, 0.125] { expect(full, scale: scale, "full") }
        // The same file read in place, as the loader reads one too large to hold (BMP rows
        // from the file; the other formats stream only as PNG, JPEG and TIFF).
        if let file = try? PictureFile.open(path: path), let streaming = ImageDecoder.streaming(file, limits: limits, above: 0) {
            let rect = PixelRect(x: 0, y: 0, width: 96, height: 64)
            #expect(Self.tile(try streaming.decode(detail: .full), rect, scale: 0.5) == Self.tile(full, rect, scale: 0.5), "\(format) read in place")
        }
    }

    /// `values` (each (value, bits)) packed least significant bit first, as JPEG XL's headers are.
    static func lsbFirst(_ values: [(Int, Int)]) -> [UInt8] {
        let bits = values.flatMap { value, count in (0..<count).map { (value >> $0) & 1 } }
        return stride(from: 0, to: bits.count, by: 8).map { i in
            UInt8(bits[i..<min(i + 8, bits.count)].enumerated().reduce(0) { $0 | $1.element << $1.offset })
        }
    }

    /// A RIFF WebP holding one chunk.
    static func webp(_ fourCC: String, _ body: [UInt8]) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        return Array("RIFF".utf8) + le32(12 + body.count) + Array("WEBPVP8".utf8) + Array(fourCC.utf8) + le32(body.count) + body
    }

    @Test("Hostile sizes within the viewer's limits (2³² pixels, the default budget) get their error before anything they size is allocated: a 65535² BMP of six bytes, a 65535² JPEG XL header, 16383² WebP headers")
    func hostileSizes() throws {
        let folder = try PrivateFolder(prefix: "budget-hostile")
        let levels = folder.path
        let limits = DecodeLimits(maxPixels: 1 << 32, availableMemory: { nil }, memoryBudget: 64 << 20, levelFolder: { levels },
                                  screenWidth: 1280, screenHeight: 800)
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        // BITMAPINFOHEADER: 65535×65535, one plane, 24 bits, no compression; six bytes of pixels.
        let bmp = Array("BM".utf8) + le(60, 4) + le(0, 4) + le(54, 4) + le(40, 4) + le(65535, 4) + le(65535, 4) + le(1, 2)
            + le(24, 2) + [UInt8](repeating: 0, count: 24) + [UInt8](repeating: 0x80, count: 6)
        #expect(decodeError(bmp, file: "h.bmp", limits: limits)?.kind == .truncated)
        // SizeHeader: not small, height in 18 bits (65534 + 1), ratio 1:1; default metadata.
        let jxl = [0xFF, 0x0A] + Self.lsbFirst([(0, 1), (2, 2), (65534, 18), (1, 3), (1, 1)]) + [UInt8](repeating: 0, count: 16)
        let error = decodeError(jxl, file: "h.jxl", limits: limits)
        #expect(error?.description.hasSuffix("the allowance for that is 192.0 MiB") == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("h.jxl: image too large to decode within the memory budget: 65535×65535 needs 12.") == true,
                "\(String(describing: error))")
        // VP8L: signature, then width − 1 and height − 1 in 14 bits each: libwebp holds a lossless
        // picture whole as ARGB, 1 GiB.
        let lossless = Self.webp("L", [0x2F] + le(16382 | 16382 << 14, 4) + [UInt8](repeating: 0, count: 16))
        let wholeError = decodeError(lossless, file: "h.webp", limits: limits)
        #expect(wholeError?.description.hasPrefix("h.webp: image too large to decode within the memory budget: 16383×16383 needs 1.") == true,
                "\(String(describing: wholeError))")
        // VP8 key frame: a lossy one is scaled as it decodes; its data ends at once.
        let lossy = Self.webp(" ", [0x30, 0, 0, 0x9D, 0x01, 0x2A] + le(16383, 2) + le(16383, 2) + [UInt8](repeating: 0, count: 16))
        let lossyError = decodeError(lossy, file: "h.webp", limits: limits)
        #expect(lossyError?.kind == .truncated || lossyError?.reason.hasPrefix("corrupt WebP data") == true, "\(String(describing: lossyError))")
    }

    /// Writes `bytes` to `name` in `folder` and opens it as the loader does.
    static func opened(_ bytes: [UInt8], _ name: String, in folder: PrivateFolder) throws -> PictureFile {
        try Data(bytes).write(to: URL(fileURLWithPath: folder.appending(name)))
        return try PictureFile.open(path: folder.appending(name))
    }

    @Test("PNG, JPEG and TIFF files read in place are never held whole and decode to the pixels a decode from memory gives",
          arguments: ["png", "jpeg", "progressive", "tiff"])
    func streamed(kind: String) throws {
        let folder = try PrivateFolder(prefix: "budget-streamed")
        let bytes: [UInt8]
        switch kind {
        case "png": bytes = Self.blocks
        case "jpeg", "progressive":
            bytes = try JPEGEncoder.encode(argb: blockPattern(width: 640, height: 480), width: 640, height: 480, quality: 90,
                                           subsampling: .s420, progressive: kind == "progressive")
        default:
            bytes = try #require(FuzzSeeds.files.first { $0.starts(with: [0x49, 0x49, 0x2A, 0x00]) }, "a TIFF seed")
        }
        // Room for the coarse levels beside the file (and a progressive JPEG's 921 600 bytes of
        // coefficients); read in place whatever its size.
        var limits = Self.limits(folder: folder.path, budget: bytes.count + 100_000 + (kind == "progressive" ? 921_600 : 0))
        let file = try Self.opened(bytes, "picture", in: folder)
        let streaming = try #require(ImageDecoder.streaming(file, limits: limits, above: 0), "read in place")
        #expect(streaming.data.count < 70_000, "only the headers are held: \(streaming.data.count) bytes")
        let inMemory = ImageDecoder(data: bytes, file: "picture", limits: limits)
        for detail in [PictureDetail.screen, .full] {
            let a = try streaming.decode(detail: detail), b = try inMemory.decode(detail: detail)
            #expect(a.width == b.width && a.height == b.height, "\(detail): \(a.width)×\(a.height), \(b.width)×\(b.height)")
            for scale in [1, 0.5, 0.125] {
                let rect = PixelRect(x: 0, y: 0, width: 40, height: 30)
                #expect(Self.tile(a, rect, scale: scale) == Self.tile(b, rect, scale: scale), "\(detail) at \(scale)")
            }
        }
        // What libjpeg decodes row by row is what TurboJPEG decodes whole, within rounding.
        if kind != "png", kind != "tiff" {
            limits.memoryBudget = .max
            let whole = try ImageDecoder(data: bytes, file: "picture", limits: limits).decode(storage: .argb)
            let rows = try streaming.decode()
            for (x, y) in [(5, 5), (320, 240), (639, 479), (100, 400)] {
                #expect(channelDistance(rows.pixel(x: x, y: y), whole.pixel(x: x, y: y)) <= 2, "(\(x), \(y))")
            }
        }
    }

    @Test("A PNG and a JPEG cut half-way, read in place, keep their top rows and say they are truncated")
    func streamedDamage() throws {
        let folder = try PrivateFolder(prefix: "budget-streamed")
        let jpeg = try JPEGEncoder.encode(argb: blockPattern(width: 640, height: 480), width: 640, height: 480, quality: 90)
        let files: [(String, [UInt8])] = [("cut.png", Self.blocks), ("cut.jpg", jpeg)]
        for (name, whole) in files {
            let cut = Array(whole.prefix(whole.count / 2))
            let limits = Self.limits(folder: folder.path)
            let file = try Self.opened(cut, name, in: folder)
            let decoder = try #require(ImageDecoder.streaming(file, limits: limits, above: 0))
            #expect(throws: PictureError(file: name, kind: .truncated)) { try decoder.decode() }
            let picture = try decoder.decode(acceptsDamage: true)
            let damage = try #require(picture.damage, "\(name)")
            #expect(damage.error.kind == .truncated && (damage.decodedFraction ?? 0) > 0.2, "\(name): \(damage)")
            #expect(picture.pixel(x: 5, y: 5) >> 24 == 0xFF && picture.pixel(x: 5, y: picture.height - 2) == 0, "\(name)")
        }
    }

    @Test("Rows wider than pixman's 16-bit coordinates (40 000 pixels) are halved, premultiplied and swapped piece by piece")
    func wideRows() throws {
        let width = 40_000, height = 6
        // Translucent RGBA whose colour changes every 1000 pixels, so every piece is checked.
        let sample = { (x: Int, y: Int) -> [Int] in [(x / 1000 * 37) & 0xFF, (y * 40) & 0xFF, 200, x < 20_000 ? 255 : 128] }
        let png = PNGWriter(width: width, height: height, colorType: 6).encode(sample)
        let picture = try ImageDecoder(data: png, file: "wide.png", limits: DecodeLimits(availableMemory: { nil })).decode()
        func expected(_ x: Int, _ y: Int) -> UInt32 {
            let c = sample(x, y), a = c[3]
            func pm(_ v: Int) -> UInt32 { UInt32((v * a + 127) / 255) }
            return UInt32(a) << 24 | pm(c[0]) << 16 | pm(c[1]) << 8 | pm(c[2])
        }
        for x in [0, 16_383, 16_384, 32_767, 32_768, 39_999] {
            #expect(picture.pixel(x: x, y: 3) == expected(x, 3), "x = \(x)")
        }
        // At 1/2, each pixel averages two rows of two equal pixels (x pairs stay within a
        // thousand): within one of the rounding.
        let half = Self.tile(picture, PixelRect(x: 17_000, y: 0, width: 8, height: 3), scale: 0.5)
        let (upper, lower) = (channels(expected(34_004, 2)), channels(expected(34_004, 3)))
        let average = zip(upper, lower).map { UInt32(($0 + $1) / 2) }
        let averaged = average[0] << 24 | average[1] << 16 | average[2] << 8 | average[3]
        #expect(channelDistance(half[1 * 8 + 2], averaged) <= 1, "\(String(half[10], radix: 16)), \(String(averaged, radix: 16))")
        // A tiled gray TIFF as wide: libtiff's R, G, B, A rows swapped by pixman, piece by piece.
        let folder = try PrivateFolder(prefix: "budget-wide")
        let path = folder.appending("wide.tif")
        try writeTiledTIFF(to: path, width: width, height: 16, bitsPerSample: 8, tile: 16) { column, _ in
            [UInt8](repeating: UInt8((column * 16 / 1000 * 53) & 0xFF), count: 256)
        }
        let tiff = try ImageDecoder(data: Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: "wide.tif",
                                    limits: DecodeLimits(availableMemory: { nil })).decode()
        for x in [5, 16_400, 33_000, 39_990] {
            let v = UInt32((x / 16 * 16 / 1000 * 53) & 0xFF)
            #expect(tiff.pixel(x: x, y: 7) == 0xFF00_0000 | v << 16 | v << 8 | v, "TIFF x = \(x)")
        }
    }
}
