// Damaged files show what decoded: the rows before the damage, the rest transparent, and one
// line saying what is missing; strict decodes still refuse them.
import Foundation
import Raster
import Synchronization
import Testing
import TestSupport
@testable import Pictures

@Suite("Damaged files")
struct DamageTests {
    /// Decodes `bytes` strictly (must fail with `kind`) and accepting damage (must succeed
    /// with that damage); returns the damaged picture.
    static func damaged(_ bytes: [UInt8], _ kind: PictureError.Kind, file: String = "cut") throws -> Picture {
        let decoder = ImageDecoder(data: bytes, file: file)
        #expect(throws: PictureError(file: file, kind: kind)) { try decoder.decode() }
        let picture = try decoder.decode(acceptsDamage: true)
        let damage = try #require(picture.damage, "\(file): no damage reported")
        #expect(damage.error == PictureError(file: file, kind: kind))
        #expect(!picture.isOpaque)
        return picture
    }

    /// The share of rows that decoded, checked against `expected` within `within`; rows
    /// before it equal `full` within `tolerance`, rows after it are transparent.
    static func checkRows(_ picture: Picture, full: Picture, expected: ClosedRange<Double>, tolerance: Int = 0,
                          settledRows: Int = 0, label: String) throws {
        let damage = try #require(picture.damage)
        let share = try #require(damage.decodedFraction, "\(label): no share")
        #expect(expected.contains(share), "\(label): \(share) decoded")
        let rows = Int((share * Double(picture.height)).rounded(.down))
        #expect(damage.description == "truncated: \(Int((share * 100).rounded(.down)))% of the picture")
        for y in 0..<max(0, rows - settledRows) {
            for x in 0..<picture.width where channelDistance(picture.pixel(x: x, y: y), full.pixel(x: x, y: y)) > tolerance {
                Issue.record("\(label): row \(y) differs at x \(x)")
                return
            }
        }
        // The share is a row count, rounded down by the division: rows from it on are empty.
        let cleared = min(rows + 1, picture.height)..<picture.height
        #expect(cleared.allSatisfy { y in (0..<picture.width).allSatisfy { picture.pixel(x: $0, y: y) == 0 } },
                "\(label): rows past the damage are not transparent")
    }

    @Test("a PNG cut half-way shows its top half, and says 'truncated: 4x% of the picture'")
    func truncatedPNG() throws {
        // Stored deflate: bytes map linearly to rows, so the cut's row is known.
        let png = PNGWriter(width: 100, height: 60, colorType: 6).encode { x, y in [x * 2, y * 4, 90, 200] }
        let full = try decodeOrFail(png)
        let idat = 8 + 25 + 8  // signature, IHDR, IDAT's length and type
        let cut = Array(png.prefix(idat + 2 + (png.count - idat - 2 - 16) / 2))
        let picture = try Self.damaged(cut, .truncated)
        // Image data is read a kilobyte at a time: the last one, 4% of this file, is lost.
        try Self.checkRows(picture, full: full, expected: 0.45...0.51, label: "PNG")
    }

    @Test("a PNG whose second IDAT chunk fails its CRC keeps the rows of the first")
    func corruptPNG() throws {
        let png = PNGWriter(width: 20, height: 20, colorType: 2).encode { x, y in [x * 12, y * 12, 7] }
        // Split the one IDAT into two at half its data, then break the second's CRC.
        let start = 8 + 25
        let length = Int(png[start]) << 24 | Int(png[start + 1]) << 16 | Int(png[start + 2]) << 8 | Int(png[start + 3])
        let data = Array(png[(start + 8)..<(start + 8 + length)])
        var split = Array(png.prefix(start)) + chunk("IDAT", Array(data.prefix(length / 2))) + chunk("IDAT", Array(data.dropFirst(length / 2)))
        split[split.count - 1] ^= 0xFF
        split += chunk("IEND", [])
        let picture = try Self.damaged(split, .corrupt(.png, "IDAT: CRC error"))
        // libpng checks a chunk's CRC after decoding the rows in it: those stay.
        let share = try #require(picture.damage?.decodedFraction)
        #expect(share > 0.3 && share <= 1)
        #expect(picture.damage?.description.hasPrefix("corrupt PNG data: IDAT: CRC error; ") == true)
    }

    @Test("an interlaced PNG cut part-way shows the whole picture at the passes that arrived")
    func truncatedInterlacedPNG() throws {
        var writer = PNGWriter(width: 32, height: 32, colorType: 2, interlaced: true)
        writer.interlaced = true
        let png = writer.encode { x, y in [x * 8, y * 8, 100] }
        // Passes 1–6 are 1/2 of the data; cut inside the last (rows 1, 3, 5…).
        let cut = Array(png.prefix(png.count - 12 - 4 - 400))
        let picture = try Self.damaged(cut, .truncated)
        let share = try #require(picture.damage?.decodedFraction)
        #expect(share > 0.5 && share < 0.95)
        // Every pixel is filled in from the passes so far: no hole in the bottom half.
        #expect(picture.pixel(x: 31, y: 31) >> 24 == 255)
    }

    @Test("a baseline JPEG cut half-way: the rows before the cut, then transparent")
    func truncatedJPEG() throws {
        let pixels = (0..<(64 * 64)).map { i in argb((i % 64) * 4, (i / 64) * 4, 128) }
        let jpeg = try JPEGEncoder.encode(argb: pixels, width: 64, height: 64, quality: 95)
        let full = try decodeOrFail(jpeg)
        let picture = try Self.damaged(Array(jpeg.prefix(jpeg.count / 2 + 200)), .truncated)
        // The MCU row the data stopped in is decoded on its left only, and the one above it
        // takes chroma from it when upsampling: two 16-row MCU rows are unsettled.
        try Self.checkRows(picture, full: full, expected: 0.25...0.75, settledRows: 32, label: "JPEG")
    }

    @Test("a JPEG with a corrupt stretch of scan data is shown with the decoder's complaint")
    func corruptJPEG() throws {
        var jpeg = try JPEGEncoder.encode(argb: blockPattern(width: 64, height: 48), width: 64, height: 48, quality: 90)
        let sos = (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }!
        // Bytes that are no valid Huffman code in the middle of the scan (no 0xFF: no marker).
        for i in 0..<24 { jpeg[sos + 40 + i] = 0xFE }
        let decoder = ImageDecoder(data: jpeg, file: "c.jpg")
        let error = #expect(throws: PictureError.self) { try decoder.decode() }
        #expect(error?.reason.hasPrefix("corrupt JPEG data: ") == true, "\(String(describing: error))")
        let picture = try decoder.decode(acceptsDamage: true)
        #expect(picture.damage?.decodedFraction == nil)
        #expect(picture.damage?.description == error?.reason)
    }

    /// Corpus files and where to cut them: inside the pixel data, past the headers. GIF
    /// data comes in sub-blocks of up to 255 bytes that giflib reads whole, and libtiff
    /// decodes a strip or tile whole, so those lose up to a block.
    static let cuts: [(String, Double)] = [
        ("webp-lossy.webp", 0.6), ("webp-lossless.webp", 0.6), ("gif-animated.gif", 0.5), ("bmp-24bit.bmp", 0.6),
        ("bmp-rle8.bmp", 0.85), ("tiff-strips.tif", 0.6),
    ]

    @Test("WebP, GIF, BMP and TIFF cut part-way keep their decoded rows", arguments: cuts)
    func truncatedOthers(file: String, at fraction: Double) throws {
        let (folder, _) = try GeneratedCorpus.generated.get()
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
        let full = try ImageDecoder(data: bytes, file: file).decode()
        let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
        let decoder = ImageDecoder(data: cut, file: file)
        #expect(throws: PictureError.self) { try decoder.decode() }
        guard let picture = try? decoder.decode(acceptsDamage: true) else {
            Issue.record("\(file): nothing kept from a file cut at \(fraction)")
            return
        }
        let damage = try #require(picture.damage)
        #expect(damage.error.kind == .truncated)
        let share = try #require(damage.decodedFraction)
        #expect(share > 0 && share < 1, "\(file): \(share)")
        // The first decoded row equals the full decode's (bottom-up BMPs decode from the bottom).
        let y = file.hasPrefix("bmp") ? picture.height - 1 : 0
        let same = (0..<picture.width).allSatisfy { channelDistance(picture.pixel(x: $0, y: y), full.pixel(x: $0, y: y)) <= 1 }
        #expect(same, "\(file): first decoded row differs")
    }

    @Test("JPEG XL, HEIF, AVIF and WebP animations cut part-way are refused as truncated: their libraries keep nothing",
          arguments: ["jxl-lossy.jxl", "jxl-lossless.jxl", "heif-lossy.heic", "avif-lossy.avif", "webp-animated.webp"])
    func truncatedWhole(file: String) throws {
        let (folder, _) = try GeneratedCorpus.generated.get()
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
        let cut = ImageDecoder(data: Array(bytes.prefix(bytes.count * 8 / 10)), file: file)
        #expect(throws: PictureError(file: file, kind: .truncated)) { try cut.decode(acceptsDamage: true) }
    }

    @Test("the loader delivers a damaged picture as loaded when asked to, failed otherwise")
    func loader() async throws {
        let png = PNGWriter(width: 40, height: 30, colorType: 2).encode { x, y in [x, y, 9] }
        let path = try PictureLoaderTests.write(Array(png.prefix(png.count / 2)), "half.png")
        var strict = PictureLoader.Options()
        strict.acceptsDamage = false
        let failed = await PictureLoaderTests.collect(PictureLoader(options: strict), path)
        #expect(PictureLoaderTests.shape(failed).last == "failed: half.png: truncated file")
        var lenient = PictureLoader.Options()
        lenient.acceptsDamage = true
        let loaded = await PictureLoaderTests.collect(PictureLoader(options: lenient), path)
        guard case .loaded(let picture) = loaded.last else { Issue.record("not loaded: \(loaded)"); return }
        #expect(picture.damage?.description.hasPrefix("truncated: ") == true)
    }

    @Test("a file of which nothing decodes still fails, whatever the caller accepts")
    func nothingDecoded() throws {
        let png = PNGWriter(width: 40, height: 30, colorType: 2).encode { x, y in [x, y, 9] }
        let headerOnly = Array(png.prefix(8 + 25 + 8 + 2))
        #expect(throws: PictureError(file: "h", kind: .truncated)) {
            try ImageDecoder(data: headerOnly, file: "h").decode(acceptsDamage: true)
        }
    }
}

@Suite("AVIF decoded on one CPU")
struct AVIFOneCPUTests {
    /// The calling thread's CPUs as the kernel lists them (`Cpus_allowed_list`).
    static func allowedCPUs() throws -> String {
        let status = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
        return try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }).description
    }

    @Test("The thread that decodes an AVIF may run on the same CPUs after as before, and the picture is whole")
    func affinityRestored() throws {
        let (folder, _) = try GeneratedCorpus.generated.get()
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("avif-lossy.avif")))
        // On a thread of its own, so no other test's work runs on it meanwhile.
        let result = Mutex<(before: String, after: String, size: (Int, Int))?>(nil)
        let failure = Mutex<String?>(nil)
        let thread = Thread {
            do {
                let before = try Self.allowedCPUs()
                let picture = try ImageDecoder(data: bytes, file: "avif-lossy.avif").decode(acceptsDamage: false)
                result.withLock { $0 = (before, try! Self.allowedCPUs(), (picture.width, picture.height)) }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        thread.start()
        let deadline = Date().addingTimeInterval(30)
        while result.withLock({ $0 == nil }) && failure.withLock({ $0 == nil }) && Date() < deadline { usleep(10_000) }
        #expect(failure.withLock { $0 } == nil)
        let seen = try #require(result.withLock { $0 }, "the decode did not end in 30 s")
        #expect(seen.before == seen.after, "CPUs before: \(seen.before), after: \(seen.after)")
        #expect(seen.size.0 > 0 && seen.size.1 > 0)
    }
}
