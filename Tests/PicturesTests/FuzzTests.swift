// Seeded mutation fuzzing: every mutant ends in an error or a sane, validly premultiplied picture.
import Foundation
import Raster
import SafeOutput
import Testing
import TestSupport
@testable import Pictures

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, seedable, good enough to pick mutations.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Byte-level mutations in the style of libFuzzer's mutators.
enum Mutator {
    /// Values that sit on boundaries decoders tend to get wrong.
    static let interesting: [UInt64] = [0, 1, 2, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF,
                                        0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]

    static func mutate(_ input: [UInt8], others: [[UInt8]], rng: inout SplitMix64) -> [UInt8] {
        var b = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            guard !b.isEmpty else { b = [UInt8.random(in: 0...255, using: &rng)]; continue }
            let at = Int.random(in: 0..<b.count, using: &rng)
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: b[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1: b[at] = UInt8(truncatingIfNeeded: interesting.randomElement(using: &rng)!)
            case 2: b.removeSubrange(Int.random(in: 0...b.count, using: &rng)...)
            case 3: b.insert(contentsOf: (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: at)
            case 4: b.removeSubrange(at..<min(b.count, at + Int.random(in: 1...64, using: &rng)))
            case 5:
                // A big-endian 16- or 32-bit boundary value: sizes, lengths, offsets.
                let width = Bool.random(using: &rng) ? 2 : 4
                let v = interesting.randomElement(using: &rng)!
                for i in 0..<width where at + i < b.count { b[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(width - 1 - i))) }
            case 6:
                let donor = others.randomElement(using: &rng)!
                let from = Int.random(in: 0..<donor.count, using: &rng)
                b.insert(contentsOf: donor[from..<min(donor.count, from + Int.random(in: 1...128, using: &rng))], at: at)
            default:
                let end = min(b.count, at + Int.random(in: 1...64, using: &rng))
                b.insert(contentsOf: b[at..<end], at: Int.random(in: 0...b.count, using: &rng))
            }
        }
        return b
    }

    /// Recomputes every PNG chunk CRC, so mutants get past libpng's CRC check into the
    /// code behind it.
    static func fixPNGChecksums(_ input: [UInt8]) -> [UInt8] {
        var b = input
        var pos = 8
        while pos + 12 <= b.count {
            let length = Int(b[pos]) << 24 | Int(b[pos + 1]) << 16 | Int(b[pos + 2]) << 8 | Int(b[pos + 3])
            guard length <= b.count - pos - 12 else { break }
            let crc = crc32(Array(b[(pos + 4)..<(pos + 8 + length)]))
            b.replaceSubrange((pos + 8 + length)..<(pos + 12 + length), with: be32(Int(crc)))
            pos += 12 + length
        }
        return b
    }
}

@Suite("Decoder fuzzing")
struct FuzzTests {
    /// 4 megapixels: mutants may claim any size up to this, bounding each allocation.
    static let fuzzLimits = DecodeLimits(maxPixels: 1 << 22, availableMemory: { nil })

    /// The same, within a memory budget (64 KiB unless given) on a 16×12 screen: mutants decode
    /// into levels, the finer ones in a level file in `folder`.
    static func budgetLimits(folder: String?, budget: Int = 64 << 10) -> DecodeLimits {
        DecodeLimits(maxPixels: 1 << 22, availableMemory: { nil }, memoryBudget: budget, levelFolder: { folder },
                     screenWidth: 16, screenHeight: 12)
    }

    /// Seconds of mutation per run: 3 by default, PICTURES_FUZZ_SECONDS for long runs.
    static var seconds: Double {
        ProcessInfo.processInfo.environment["PICTURES_FUZZ_SECONDS"].flatMap(Double.init) ?? 3
    }

    /// Valid files of every variant the decoders handle.
    static func seeds() throws -> [[UInt8]] {
        var files = RegressionCorpus.seeds + FuzzSeeds.files
        let pattern: (Int, Int) -> [Int] = { x, y in [(x * 9) & 0xFF, (y * 13) & 0xFF, (x ^ y) & 0xFF, 255 - x] }
        files.append(PNGWriter(width: 12, height: 9, colorType: 6).encode(pattern))
        var interlaced = PNGWriter(width: 11, height: 7, colorType: 2, bitDepth: 16, interlaced: true)
        interlaced.exif = tiffOrientation(6)
        files.append(interlaced.encode { x, y in [x * 3000, y * 5000, 40_000] })
        var palette = PNGWriter(width: 10, height: 6, colorType: 3, bitDepth: 4)
        palette.palette = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
        palette.transparency = [128, 0]
        files.append(palette.encode { x, y in [(x + y) % 3] })
        files.append(PNGWriter(width: 9, height: 5, colorType: 4).encode { x, y in [x * 20, y * 50] })
        let argbPixels = blockPattern(width: 24, height: 16)
        for (subsampling, progressive) in [(JPEGEncoder.Subsampling.s420, false), (.s444, true), (.gray, false), (.s422, true)] {
            let jpeg = try JPEGEncoder.encode(argb: argbPixels, width: 24, height: 16, quality: 80,
                                              subsampling: subsampling, progressive: progressive)
            files.append(progressive ? withExif(jpeg, orientation: 8, bigEndian: false) : jpeg)
        }
        files.append(try JPEGEncoder.encode(cmyk: [UInt8](repeating: 200, count: 16 * 8 * 4), width: 16, height: 8))
        // Restart intervals (jpegtran writes them; TurboJPEG's compressor does not) for the parallel preview.
        let noisy = JPEGPreviewDecoderTests.noise(width: 40, height: 24)
        files.append(try JPEGPreviewDecoderTests.jpegtran(try JPEGEncoder.encode(argb: noisy, width: 40, height: 24, quality: 85),
                                                          ["-restart", "1B"]))
        return files
    }

    /// Decodes `input` every way the viewer can (header, preview, a random page, the
    /// animation's first frames, a random detail within a budget whose finer levels go to
    /// `levels`, from memory or read in place from a file there), checking the outcome;
    /// returns whether a strict decode (or, with
    /// `acceptsDamage`, a decode keeping damaged parts) gave a picture.
    @discardableResult
    static func exercise(_ input: [UInt8], rng: inout SplitMix64, acceptsDamage: Bool = false, levels: String? = nil) -> Bool {
        checkParallelPreview(input, rng: &rng)
        checkParallelTIFF(input)
        checkInflatedAhead(input, levels: levels, rng: &rng)
        // Seeds are small: half the time a budget of 1 KiB beside the file, so that their rows go
        // into level files and decodes made whole meet their allowance (4 KiB).
        let limits = budgetLimits(folder: levels, budget: Bool.random(using: &rng) ? 64 << 10 : input.count + (1 << 10))
        var budgeted = ImageDecoder(data: input, file: "fuzz", limits: limits)
        // Half the time read in place from a file, as a PNG, JPEG, TIFF or BMP too large to hold is.
        if let levels, Bool.random(using: &rng) {
            let path = levels + "/input"
            if FileManager.default.createFile(atPath: path, contents: Data(input)), let file = try? PictureFile.open(path: path),
               let streaming = ImageDecoder.streaming(file, limits: limits, above: 0) {
                budgeted = streaming
            }
        }
        let detail = [PictureDetail.screen, .memory, .full].randomElement(using: &rng)!
        if let picture = try? budgeted.decode(detail: detail, acceptsDamage: acceptsDamage) {
            check(picture, rng: &rng)
            if let reduction = picture.screenReduction { check(reduction, rng: &rng) }
        }
        _ = try? budgeted.decodePreview(maxPixels: Int.random(in: 1...4096, using: &rng))
        let decoder = ImageDecoder(data: input, file: "fuzz", limits: fuzzLimits)
        let header = try? decoder.readHeader()
        _ = try? decoder.decodePreview(maxPixels: Int.random(in: 1...4096, using: &rng))
        // An SVG's quick rendition at a power-of-two level (what the loader shows first).
        if header?.format == .svg {
            let scale = Double(sign: .plus, exponent: -Int.random(in: 0...6, using: &rng), significand: 1)
            if let rendition = try? decoder.decodeVectorPreview(scale: scale) { check(rendition, rng: &rng) }
        }
        let storage = [StoragePreference.automatic, .argb, .planar].randomElement(using: &rng)!
        let pages = max(1, header?.pageCount ?? 1)
        let page = Int.random(in: 0..<min(pages, 64), using: &rng)
        // One past the last page is refused from the header, whatever the file.
        if header != nil { #expect((try? decoder.readHeader(page: pages)) == nil, "page past the last") }
        if let header, header.format == .gif || header.frameCount > 1,
           let animation = try? AnimationDecoder(decoder: decoder) {
            for round in 0..<2 {
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    guard let frame = try? animation.next() else { break }
                    check(frame.picture, rng: &rng)
                }
                if round == 0 { animation.reset() }
            }
        }
        guard let picture = try? decoder.decode(page: page, storage: storage, acceptsDamage: acceptsDamage) else { return false }
        check(picture, rng: &rng)
        return true
    }

    /// The parallel 1/8 JPEG decoder, from random split points on one to three threads: it
    /// must end (no crash, no hang) and, when it gives pixels, give libjpeg-turbo's 1/8
    /// decode of the same file, which must have decoded without damage.
    static func checkParallelPreview(_ input: [UInt8], rng: inout SplitMix64) {
        guard let header = try? JPEGCodec.header(input, file: "fuzz", headerComplete: true),
              header.width > 0, header.height > 0, header.width * header.height <= fuzzLimits.maxPixels else { return }
        let threads = Int.random(in: 1...3, using: &rng)
        let splits = Bool.random(using: &rng) ? nil : (1..<threads).map { _ in Int.random(in: 0..<input.count, using: &rng) }.sorted()
        var report = JPEGPreviewDecoder.Report()
        guard let pixels = JPEGPreviewDecoder.decode(input, header: header,
                                                     threads: threads, splits: splits,
                                                     awaitMeetings: Bool.random(using: &rng), report: &report) else { return }
        let got = Array(UnsafeBufferPointer(start: pixels.base, count: pixels.width * pixels.height))
        let expected = JPEGPreviewDecoderTests.reference(input)
        if let dump = ProcessInfo.processInfo.environment["PREVIEW_FUZZ_DUMP"], JPEGPreviewDecoderTests.difference(got, expected) != nil {
            _ = FileManager.default.createFile(atPath: dump, contents: Data(input))
        }
        #expect(JPEGPreviewDecoderTests.difference(got, expected) == nil, "parallel preview differs from libjpeg-turbo's")
    }

    /// A TIFF page decoded on two threads with every band a chunk of its own (so that a small
    /// seed has many): it must end (no crash, no hang) in the outcome one thread gives, the
    /// same error or the same rows and pixels.
    static func checkParallelTIFF(_ input: [UInt8]) {
        let decoder = ImageDecoder(data: input, file: "fuzz", limits: fuzzLimits)
        guard let inspection = try? decoder.inspect(), inspection.header.format == .tiff, let codec = inspection.codec else { return }
        let header = inspection.header
        let plan = LevelPlan.make(width: header.storedWidth, height: header.storedHeight, last: 0, detail: .full,
                                  memoryBudget: 64 << 20, canUseFile: false)
        func decode(threads: Int) -> (pixels: [UInt32], fraction: Double?, error: String?) {
            do {
                let (pyramid, damage) = try TIFFCodec.decodeLevels(input, file: "fuzz", stream: nil, page: header.page, header: codec,
                                                                   plan: plan, folder: nil, threads: threads, chunkBytes: 1,
                                                                   isCancelled: { false })
                let picture = Picture(storage: .pyramid(pyramid), header: header, isOpaque: false, damage: damage)
                return (CorpusTests.pixels(picture), damage?.decodedFraction, damage?.description)
            } catch {
                return ([], nil, error.reason)
            }
        }
        let one = decode(threads: 1), two = decode(threads: 2)
        let same = one.pixels == two.pixels && one.fraction == two.fraction && one.error == two.error
        #expect(same, "two threads: \(two.error ?? "no error"), \(String(describing: two.fraction)); one: \(one.error ?? "no error"), \(String(describing: one.fraction))")
    }

    /// A PNG decoded with its image data inflated on a second thread (CPNGStream), from memory or
    /// half the time read in place from a file in `levels`: it must end (no crash, no hang) as
    /// libpng alone allows, the same pixels, or a problem after at least the same rows.
    static func checkInflatedAhead(_ input: [UInt8], levels: String?, rng: inout SplitMix64) {
        guard input.starts(with: ImageFormat.pngSignature) else { return }
        var file: PictureFile?
        if let levels, Bool.random(using: &rng) {
            let path = levels + "/inflated-ahead.png"
            if FileManager.default.createFile(atPath: path, contents: Data(input)) { file = try? PictureFile.open(path: path) }
        }
        let alone = PNGInflateAheadTests.decode(input, ahead: false)
        let ahead = PNGInflateAheadTests.decode(input, ahead: true, file: file)
        if let dump = ProcessInfo.processInfo.environment["PNG_AHEAD_FUZZ_DUMP"], !PNGInflateAheadTests.agrees(ahead, with: alone) {
            _ = FileManager.default.createFile(atPath: dump, contents: Data(input))
        }
        #expect(PNGInflateAheadTests.agrees(ahead, with: alone), "inflated ahead: \(ahead); libpng alone: \(alone)")
    }

    /// A decoded picture has a size within the limit and draws validly premultiplied pixels.
    static func check(_ picture: Picture, rng: inout SplitMix64) {
        #expect(picture.width > 0 && picture.height > 0 && picture.width * picture.height <= fuzzLimits.maxPixels)
        let tile = OwnedFramebuffer(width: 16, height: 16)!
        let scale = [0.03, 0.5, 1, 3].randomElement(using: &rng)!
        let rect = PixelRect(x: Int.random(in: -8...max(0, picture.width), using: &rng),
                             y: Int.random(in: -8...max(0, picture.height), using: &rng), width: 16, height: 16)
        picture.drawTile(rect, scale: scale, into: tile.framebuffer)
        // Premultiplied: no colour channel may exceed alpha.
        let valid = tile.pixels.allSatisfy { p in let c = channels(p); return c[1] <= c[0] && c[2] <= c[0] && c[3] <= c[0] }
        #expect(valid, "invalid premultiplied pixel")
    }

    /// Exercises every seed, then mutants of them for `seconds`, 50 at a time: each must end
    /// in an error or a sane picture. The seed of the mutations is PICTURES_FUZZ_SEED's, else
    /// `defaultSeed`; each mutant is saved to PICTURES_FUZZ_CURRENT before it is decoded, so
    /// that the input survives a crash of this process. Returns how many ran and decoded.
    static func fuzz(_ seeds: [[UInt8]], defaultSeed: UInt64, levelsPrefix: String) throws -> (seed: UInt64, runs: Int, decoded: Int) {
        let seed = ProcessInfo.processInfo.environment["PICTURES_FUZZ_SEED"].flatMap { UInt64($0) } ?? defaultSeed
        let currentPath = ProcessInfo.processInfo.environment["PICTURES_FUZZ_CURRENT"]
        var rng = SplitMix64(state: seed)
        let levels = try PrivateFolder(prefix: levelsPrefix)
        for file in seeds { #expect(Self.exercise(file, rng: &rng, levels: levels.path), "seed file does not decode") }
        let deadline = Date().addingTimeInterval(Self.seconds)
        var runs = 0, decoded = 0
        while Date() < deadline {
            for _ in 0..<50 {
                let parent = seeds.randomElement(using: &rng)!
                var mutant = Mutator.mutate(parent, others: seeds, rng: &rng)
                if mutant.starts(with: ImageFormat.pngSignature), Bool.random(using: &rng) {
                    mutant = Mutator.fixPNGChecksums(mutant)
                }
                if let currentPath { _ = FileManager.default.createFile(atPath: currentPath, contents: Data(mutant)) }
                if Self.exercise(mutant, rng: &rng, acceptsDamage: Bool.random(using: &rng), levels: levels.path) { decoded += 1 }
                runs += 1
            }
        }
        return (seed, runs, decoded)
    }

    @Test("mutated files of every format end in an error or a sane picture")
    func mutants() throws {
        let (seed, runs, decoded) = try Self.fuzz(try Self.seeds(), defaultSeed: 0x5C20_11C1, levelsPrefix: "fuzz-levels")
        print("fuzz: \(runs) mutants in \(Self.seconds) s from seed \(seed), \(decoded) decoded, \(runs - decoded) refused")
        #expect(runs > 0)
    }

    /// The generated corpus's files of make-corpus.py's format `name`, then the fuzz seeds of
    /// `format`; nil (recorded as an issue) when the corpus was not made.
    private static func seeds(of name: String, _ format: ImageFormat) throws -> [[UInt8]]? {
        guard case .success(let (folder, _)) = GeneratedCorpus.generated else {
            Issue.record("the corpus was not made")
            return nil
        }
        let made = try GeneratedCorpus.entries(name).map { try [UInt8](Data(contentsOf: folder.appendingPathComponent($0.file))) }
        return made + (try seeds()).filter { ImageFormat.recognise($0) == format }
    }

    @Test("mutated AVIFs of one image (libavif's, else libheif's) end in an error or a sane picture")
    func avifMutants() throws {
        // The generated corpus's AVIFs (libavif's variants, and libheif's two images) and the
        // fuzz seeds'.
        guard let seeds = try Self.seeds(of: "avif", .avif) else { return }
        #expect(seeds.count >= 6)
        let (seed, runs, decoded) = try Self.fuzz(seeds, defaultSeed: 0xA1F0, levelsPrefix: "fuzz-avif-levels")
        print("fuzz: \(runs) AVIF mutants in \(Self.seconds) s from seed \(seed), \(decoded) decoded, \(runs - decoded) refused")
        #expect(runs > 0)
    }

    @Test("mutated HEICs end in an error or a sane picture (the threaded libde265 decoder's input)")
    func heicMutants() throws {
        guard let seeds = try Self.seeds(of: "heif", .heif) else { return }
        #expect(seeds.count >= 4)
        let before = HEIFCodec.threadedHEVCPictures
        let (seed, runs, decoded) = try Self.fuzz(seeds, defaultSeed: 0x4E1C, levelsPrefix: "fuzz-heic-levels")
        print("fuzz: \(runs) HEIC mutants in \(Self.seconds) s from seed \(seed), \(decoded) decoded, \(runs - decoded) refused")
        #expect(runs > 0)
        #expect(HEIFCodec.threadedHEVCPictures > before, "no mutant reached the threaded decoder")
    }

    @Test("regression corpus: inputs that once broke or stressed the decoders")
    func corpus() throws {
        var rng = SplitMix64(state: 1)
        for entry in RegressionCorpus.cases {
            let bytes = try #require(Data(base64Encoded: entry.base64).map(Array.init), "bad base64 in \(entry.name)")
            let decoded = Self.exercise(bytes, rng: &rng)
            let outcome = decodeError(bytes, file: entry.name, limits: Self.fuzzLimits)?.description ?? "decoded"
            #expect(decoded == entry.decodes, "\(entry.name) → \(outcome)")
        }
    }
}
