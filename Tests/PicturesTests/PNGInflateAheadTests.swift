// PNG image data inflated on a second thread (Sources/CPNGStream) decodes as libpng alone decodes
// it: the same pixels, and from a cut or corrupt file the same problem after at least the same
// rows (the thread inflates a cut file's last kilobyte, which libpng reading the file itself
// leaves, so it may show a row or two more).
import Foundation
import Raster
import SafeOutput
import Testing
import TestSupport
@testable import Pictures

@Suite("PNG image data inflated ahead")
struct PNGInflateAheadTests {
    /// What a decode gave: every pixel, how many rows decoded, and the problem, if any.
    struct Outcome: CustomStringConvertible {
        var pixels: [UInt32] = []
        var width = 0
        var rows = 0
        var problem: String?

        var description: String { "\(rows) rows, \(problem ?? "no problem")" }
    }

    /// `bytes` decoded whole by `PNGCodec.decode`, its data inflated ahead or not, from memory or
    /// read in place from `file`. Sizes above 4 megapixels are refused (the fuzzer's limit).
    static func decode(_ bytes: [UInt8], ahead: Bool, file: PictureFile? = nil) -> Outcome {
        do {
            let header = try PNGCodec.header(bytes, file: "test.png", stream: file) { (w, h) throws(PictureError) in
                let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
                if overflow || pixels > FuzzTests.fuzzLimits.maxPixels {
                    throw PictureError(file: "test.png", kind: .tooLarge(width: w, height: h, limit: FuzzTests.fuzzLimits.maxPixels))
                }
            }
            let output = try PNGCodec.decode(bytes, file: "test.png", stream: file, header: header, inflateAhead: ahead)
            let pixels = Array(UnsafeBufferPointer(start: output.pixels.base, count: header.width * header.height))
            let rows = output.damage.map { Int((($0.decodedFraction ?? 0) * Double(header.height)).rounded(.down)) } ?? header.height
            return Outcome(pixels: pixels, width: header.width, rows: header.isProgressive && output.damage != nil ? 0 : rows,
                           problem: output.damage?.error.description)
        } catch {
            return Outcome(problem: error.description)
        }
    }

    /// Whether `ahead` is what `alone` (libpng on its own) allows: the same pixels when it decoded
    /// whole; else a problem too, after at least as many rows, those rows the same. (Not always
    /// the same problem: where libpng reading a cut file stops at a block it cannot read whole,
    /// the thread inflates what there is and libpng may find that corrupt; and a wrong Adler-32
    /// on the last row's data comes after libpng checked that row's filter.)
    static func agrees(_ ahead: Outcome, with alone: Outcome) -> Bool {
        guard alone.problem != nil else { return ahead.problem == nil && ahead.pixels == alone.pixels }
        guard ahead.problem != nil, ahead.rows >= alone.rows else { return false }
        let shared = alone.rows * alone.width
        return ahead.pixels.count >= shared && alone.pixels.count >= shared && ahead.pixels[..<shared] == alone.pixels[..<shared]
    }

    /// 600×400 RGB, 8-bit, rows that zlib cannot shrink much (about 700 KB of image data), in
    /// IDAT chunks of 8 KiB as libpng writes them.
    static let large: [UInt8] = {
        var rng = SplitMix64(state: 0x1DA7)
        let noise = (0..<(600 * 3 * 8)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return try! deflatedPNG(width: 600, height: 400, bitDepth: 8, colorType: 2, chunkBytes: 8192) { y in
            (0..<(600 * 3)).map { x in noise[(y % 8) * 1800 + x] &+ UInt8(truncatingIfNeeded: y) }
        }
    }()

    @Test("every corpus PNG decodes to the same pixels with its image data inflated ahead")
    func corpusPictures() throws {
        let (folder, _) = try GeneratedCorpus.generated.get()
        let entries = GeneratedCorpus.entries("png")
        #expect(entries.count >= 6)
        for entry in entries {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(entry.file)))
            // The count is the whole process's: it rises by at least this file's data.
            let before = PNGCodec.inflatedAheadBytes
            let ahead = Self.decode(bytes, ahead: true), alone = Self.decode(bytes, ahead: false)
            #expect(alone.problem == nil && !alone.pixels.isEmpty, "\(entry): \(alone)")
            #expect(ahead.problem == nil && ahead.pixels == alone.pixels, "\(entry): \(ahead) against \(alone)")
            #expect(PNGCodec.inflatedAheadBytes > before, "\(entry): nothing inflated ahead")
        }
    }

    @Test("a large PNG in many IDAT chunks, from memory and read in place, decodes the same")
    func largePicture() throws {
        let bytes = Self.large
        #expect(bytes.count > PNGCodec.inflateAheadBytes, "the picture is too small to inflate ahead by default")
        let chunks = PNGCodec.chunks(bytes, stream: nil)
        let header = try PNGCodec.header(bytes, file: "large.png") { _, _ in }
        #expect(PNGCodec.inflateAhead(chunks, header: header, request: nil) == (Parallel.defaultWorkers > 1 ? 400 * 1801 : nil))
        let before = PNGCodec.inflatedAheadBytes
        let alone = Self.decode(bytes, ahead: false), ahead = Self.decode(bytes, ahead: true)
        #expect(alone.problem == nil && alone.pixels.count == 600 * 400)
        #expect(ahead.problem == nil && ahead.pixels == alone.pixels)
        #expect(PNGCodec.inflatedAheadBytes >= before + 400 * 1801)
        let folder = try PrivateFolder(prefix: "png-ahead")
        let path = folder.path + "/large.png"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let file = try PictureFile.open(path: path)
        let inPlace = Self.decode(bytes, ahead: true, file: file)
        #expect(inPlace.problem == nil && inPlace.pixels == alone.pixels)
    }

    @Test("a cut PNG keeps at least the rows libpng alone keeps, and says it is cut")
    func cutFiles() throws {
        let bytes = Self.large
        // Every 7,919 bytes (a prime, so that cuts fall everywhere in the chunks), then the edges:
        // within the signature and IHDR, an IDAT's length, type, data start and CRC, before IEND.
        var cuts = Array(stride(from: 7919, to: bytes.count, by: 7919))
        let firstData = 8 + 25 + 8
        cuts += [3, 20, firstData - 6, firstData - 2, firstData + 1, firstData + 8192 + 2, bytes.count - 12, bytes.count - 1]
        for cut in cuts {
            let part = Array(bytes[..<cut])
            let alone = Self.decode(part, ahead: false), ahead = Self.decode(part, ahead: true)
            #expect(Self.agrees(ahead, with: alone), "cut at \(cut): ahead \(ahead), alone \(alone)")
            if cut > firstData + 2 * 8192, cut < bytes.count - 12 {
                #expect(ahead.problem?.contains("truncated") == true && ahead.rows > 0, "cut at \(cut): \(ahead)")
            }
        }
    }

    @Test("a corrupt byte in the image data ends both decodes alike, its CRC fixed or not")
    func corruptFiles() throws {
        let bytes = Self.large
        var rng = SplitMix64(state: 0xC0DE)
        for _ in 0..<24 {
            var bad = bytes
            let at = Int.random(in: 60..<(bytes.count - 20), using: &rng)
            bad[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            for file in [bad, Mutator.fixPNGChecksums(bad)] {
                let alone = Self.decode(file, ahead: false), ahead = Self.decode(file, ahead: true)
                #expect(Self.agrees(ahead, with: alone), "byte \(at): ahead \(ahead), alone \(alone)")
            }
        }
        // A wrong CRC is named as libpng names it.
        var wrongCRC = bytes
        wrongCRC[8 + 25 + 8 + 8192] ^= 1
        let ahead = Self.decode(wrongCRC, ahead: true)
        #expect(ahead.problem?.contains("IDAT: CRC error") == true, "\(ahead)")
        #expect(ahead.rows > 0 && ahead.rows < 400)
    }

    @Test("a decode cancelled at its first row stops the inflating thread and returns")
    func cancelled() throws {
        let bytes = Self.large
        let header = try PNGCodec.header(bytes, file: "large.png") { _, _ in }
        let plan = LevelPlan.make(width: 600, height: 400, last: 0, detail: .full, memoryBudget: 64 << 20, canUseFile: false)
        #expect(throws: PictureError(file: "large.png", kind: .cancelled)) {
            _ = try PNGCodec.decodeLevels(bytes, file: "large.png", stream: nil, header: header, plan: plan, folder: nil,
                                          inflateAhead: true, isCancelled: { true })
        }
        let (pyramid, damage) = try PNGCodec.decodeLevels(bytes, file: "large.png", stream: nil, header: header, plan: plan,
                                                          folder: nil, inflateAhead: true, isCancelled: { false })
        #expect(damage == nil)
        let picture = Picture(storage: .pyramid(pyramid), header: try ImageDecoder(data: bytes, file: "large.png").readHeader(),
                              isOpaque: true, damage: nil)
        let alone = Self.decode(bytes, ahead: false)
        let premultiplied = alone.pixels  // opaque: straight and premultiplied agree
        #expect(CorpusTests.pixels(picture) == premultiplied)
    }

    @Test("the image data's size per colour type, depth and interlacing", arguments: [
        (1, 1, 8, 0, false, 2), (5, 3, 1, 0, false, 6), (600, 400, 8, 2, false, 400 * 1801),
        (3, 2, 16, 6, false, 2 * 25), (10, 10, 4, 3, false, 10 * 6),
        // Adam7 on 1×1: only the first pass has a pixel; on 8×8 every pass is full (PNG §8.2).
        (1, 1, 8, 2, true, 4), (8, 8, 8, 0, true, 1 * 2 + 1 * 2 + 1 * 3 + 2 * 3 + 2 * 5 + 4 * 5 + 4 * 9),
    ])
    func inflatedSizes(width: Int, height: Int, depth: Int, colorType: Int, interlaced: Bool, bytes: Int) {
        #expect(PNGCodec.inflatedBytes(width: width, height: height, bitDepth: depth, colorType: colorType,
                                       interlaced: interlaced) == bytes)
    }
}
