// The parallel 1/8 JPEG decoder gives libjpeg-turbo's own 1/8 decode, wherever its threads split, or nil.
import Foundation
import SafeOutput
import Testing
@testable import Pictures

@Suite("Parallel 1/8 JPEG preview")
struct JPEGPreviewDecoderTests {
    /// A photo-like picture: smooth gradients, a soft disc, hard edges and fine texture.
    static func photo(width: Int, height: Int) -> [UInt32] {
        (0..<(width * height)).map { i in
            let x = i % width, y = i / width
            let dx = Double(x - width / 3), dy = Double(y - height / 2)
            let disc = max(0, 1 - (dx * dx + dy * dy).squareRoot() / Double(max(width, height) / 3 + 1))
            let r = Int(40 + 180 * Double(x) / Double(width) + 30 * disc)
            let g = Int(60 + 120 * Double(y) / Double(height) + 60 * disc) + ((x / 7 + y / 5) % 3) * 4
            let b = (x * 3 + y) % 64 < 32 ? 200 : 90
            return argb(min(255, r), min(255, g), b)
        }
    }

    /// Seeded noise: every Huffman code length shows up, sync points land anywhere.
    static func noise(width: Int, height: Int, seed: UInt64 = 7) -> [UInt32] {
        var rng = SplitMix64(state: seed)
        return (0..<(width * height)).map { _ in
            let v = rng.next()
            return argb(Int(v & 0xFF), Int(v >> 8 & 0xFF), Int(v >> 16 & 0xFF))
        }
    }

    static func jpeg(_ pixels: [UInt32], _ w: Int, _ h: Int, _ subsampling: JPEGEncoder.Subsampling = .s420,
                     quality: Int = 90, progressive: Bool = false) throws -> [UInt8] {
        try JPEGEncoder.encode(argb: pixels, width: w, height: h, quality: quality, subsampling: subsampling,
                               progressive: progressive)
    }

    /// libjpeg-turbo's 1/8 decode of `data` (what the viewer showed before), or nil when it
    /// fails or reports damage.
    static func reference(_ data: [UInt8]) -> [UInt32]? {
        guard let header = try? JPEGCodec.header(data, file: "t", headerComplete: true),
              let (pixels, damage) = try? JPEGCodec.decodeARGB(data, file: "t", header: header, scale: (1, 8)),
              damage == nil else { return nil }
        return Array(UnsafeBufferPointer(start: pixels.base, count: pixels.width * pixels.height))
    }

    /// The parallel decoder's pixels, nil when it declines.
    /// Threads wait for their successor, so that small files exercise the meetings too.
    static func parallel(_ data: [UInt8], threads: Int = 2, splits: [Int]? = nil) -> (pixels: [UInt32], report: JPEGPreviewDecoder.Report)? {
        guard let header = try? JPEGCodec.header(data, file: "t", headerComplete: true) else { return nil }
        var report = JPEGPreviewDecoder.Report()
        guard let pixels = JPEGPreviewDecoder.decode(data, header: header,
                                                     threads: threads, splits: splits, awaitMeetings: true, report: &report) else { return nil }
        return (Array(UnsafeBufferPointer(start: pixels.base, count: pixels.width * pixels.height)), report)
    }

    /// Where two decodes differ, briefly (nil when equal): arrays of pixels are too long to print.
    static func difference(_ a: [UInt32]?, _ b: [UInt32]?) -> String? {
        guard let a, let b else { return a == nil && b == nil ? nil : "one is nil" }
        guard a.count == b.count else { return "\(a.count) vs \(b.count) pixels" }
        let bad = a.indices.filter { a[$0] != b[$0] }
        guard let first = bad.first else { return nil }
        return "\(bad.count) pixels differ, first at \(first): \(String(a[first], radix: 16)) vs \(String(b[first], radix: 16))"
    }

    /// Decodes `data` with the later thread starting at every `step`-th byte of the scan,
    /// expecting libjpeg-turbo's pixels each time; the reports, for what happened.
    static func everySplit(_ data: [UInt8], step: Int, _ label: String) throws -> [JPEGPreviewDecoder.Report] {
        let expected = try #require(reference(data))
        var reports: [JPEGPreviewDecoder.Report] = []
        for split in stride(from: try scanStart(data), to: data.count, by: step) {
            let got = try #require(parallel(data, splits: [split]), "\(label): declined at \(split)")
            #expect(difference(got.pixels, expected) == nil, "\(label): split at \(split) of \(data.count)")
            reports.append(got.report)
        }
        return reports
    }

    /// Runs jpegtran (libjpeg-turbo-progs) with `arguments` on `data`: restart markers and
    /// arithmetic coding, which TurboJPEG's compressor does not write.
    static func jpegtran(_ data: [UInt8], _ arguments: [String]) throws -> [UInt8] {
        let folder = try PrivateFolder(prefix: "jpegtran")
        let input = folder.path + "/in.jpg", output = folder.path + "/out.jpg"
        try #require(FileManager.default.createFile(atPath: input, contents: Data(data)))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jpegtran")
        process.arguments = arguments + ["-outfile", output, input]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "jpegtran \(arguments) failed")
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// Where the entropy-coded data starts (after the SOS header).
    static func scanStart(_ data: [UInt8]) throws -> Int {
        let header = try JPEGCodec.header(data, file: "t", headerComplete: true)
        let layout = JPEGPreviewDecoder.layout(data.span, header: header)
        return try #require(layout).scanStart
    }

    @Test("equals libjpeg-turbo's 1/8 decode for every subsampling, odd sizes, photo and noise",
          arguments: [JPEGEncoder.Subsampling.s420, .s422, .s444, .s440, .gray])
    func matchesLibjpegTurbo(subsampling: JPEGEncoder.Subsampling) throws {
        for (w, h) in [(203, 131), (64, 48), (17, 9), (1, 1), (8, 8), (16, 16), (33, 250), (250, 33), (24, 16)] {
            for pixels in [Self.photo(width: w, height: h), Self.noise(width: w, height: h)] {
                let data = try Self.jpeg(pixels, w, h, subsampling)
                let expected = try #require(Self.reference(data))
                let got = try #require(Self.parallel(data), "declined \(subsampling) \(w)×\(h)")
                #expect(Self.difference(got.pixels, expected) == nil, "\(subsampling) \(w)×\(h)")
            }
        }
    }

    @Test("the later thread may start at any byte: every split gives the same pixels, most after a meeting",
          arguments: [JPEGEncoder.Subsampling.s420, .s422, .s444, .gray])
    func splitAnywhere(subsampling: JPEGEncoder.Subsampling) throws {
        for (pixels, w, h) in [(Self.noise(width: 96, height: 72), 96, 72), (Self.photo(width: 160, height: 120), 160, 120)] {
            let reports = try Self.everySplit(try Self.jpeg(pixels, w, h, subsampling), step: 3, "\(subsampling) \(w)×\(h)")
            let met = reports.filter { $0.speculativeMCUs > 0 }.count, splits = reports.count
            // Near the end the later thread has little to give; elsewhere they meet.
            #expect(met * 10 >= splits * 7, "\(met) meetings in \(splits) splits")
        }
    }

    @Test("a helper writes and converts the bottom rows from the later thread's records: the same pixels",
          arguments: [JPEGEncoder.Subsampling.s420, .s422, .s440, .s444, .gray])
    func finishInParallel(subsampling: JPEGEncoder.Subsampling) throws {
        for (pixels, w, h) in [(Self.noise(width: 72, height: 400), 72, 400), (Self.photo(width: 121, height: 333), 121, 333)] {
            let reports = try Self.everySplit(try Self.jpeg(pixels, w, h, subsampling), step: 41, "\(subsampling) \(w)×\(h)")
            let helped = reports.filter(\.finishedInParallel).count
            #expect(helped > 0)
        }
    }

    @Test("restart intervals: the later thread starts after a marker, any of them")
    func restartIntervals() throws {
        for (subsampling, interval) in [(JPEGEncoder.Subsampling.s420, "1"), (.s444, "3B"), (.gray, "1B"), (.s422, "2")] {
            let base = try Self.jpeg(Self.noise(width: 100, height: 90), 100, 90, subsampling)
            let data = try Self.jpegtran(base, ["-restart", interval])
            #expect(data.contains(0xDD), "no DRI written")
            let met = try Self.everySplit(data, step: 5, "\(subsampling) restart \(interval)").filter { $0.speculativeMCUs > 0 }.count
            #expect(met > 0)
        }
    }

    @Test("no meeting (a tiny file, a split near the end, one thread) still decodes, as do three threads")
    func noMeetingAndMoreThreads() throws {
        let tiny = try Self.jpeg(Self.photo(width: 8, height: 8), 8, 8, .s444)
        #expect(Self.difference(Self.parallel(tiny)?.pixels, Self.reference(tiny)) == nil)
        let data = try Self.jpeg(Self.noise(width: 120, height: 80), 120, 80)
        let expected = try #require(Self.reference(data))
        #expect(Self.difference(Self.parallel(data, splits: [data.count - 4])?.pixels, expected) == nil)
        #expect(Self.difference(Self.parallel(data, threads: 1)?.pixels, expected) == nil)
        let three = try #require(Self.parallel(data, threads: 3))
        #expect(Self.difference(three.pixels, expected) == nil)
        #expect(three.report.syncBytesPastSplit.count == 2, "both later threads met their predecessor")
        let start = try Self.scanStart(data)
        for a in stride(from: start, to: data.count, by: 97) {
            for b in stride(from: a, to: data.count, by: 131) {
                #expect(Self.difference(Self.parallel(data, splits: [a, b])?.pixels, expected) == nil, "splits \(a), \(b)")
            }
        }
    }

    @Test("files it does not take give nil: progressive, arithmetic, CMYK, truncated")
    func declines() throws {
        let pixels = Self.photo(width: 64, height: 48)
        #expect(Self.parallel(try Self.jpeg(pixels, 64, 48, progressive: true)) == nil, "progressive")
        #expect(Self.parallel(try Self.jpegtran(try Self.jpeg(pixels, 64, 48), ["-arithmetic"])) == nil)
        let cmyk = try JPEGEncoder.encode(cmyk: [UInt8](repeating: 200, count: 16 * 8 * 4), width: 16, height: 8)
        #expect(Self.parallel(cmyk) == nil)
        let data = try Self.jpeg(Self.noise(width: 64, height: 48), 64, 48)
        let start = try Self.scanStart(data)
        for cut in stride(from: start, to: data.count - 1, by: 7) {
            #expect(Self.parallel(Array(data[..<cut])) == nil, "cut at \(cut)")
        }
        // Without its EOI libjpeg reports a premature end: the old path decides.
        #expect(Self.parallel(Array(data.dropLast(2))) == nil)
    }

    @Test("corrupted entropy data: nil, or exactly libjpeg-turbo's pixels when it decodes without complaint")
    func corrupted() throws {
        var rng = SplitMix64(state: 11)
        for subsampling in [JPEGEncoder.Subsampling.s420, .s422, .gray] {
            let data = try Self.jpeg(Self.photo(width: 64, height: 64), 64, 64, subsampling)
            let start = try Self.scanStart(data)
            for _ in 0..<150 {
                var bad = data
                let at = Int.random(in: start..<(data.count - 2), using: &rng)
                bad[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                if let got = Self.parallel(bad, splits: [Int.random(in: start..<data.count, using: &rng)]) {
                    #expect(Self.difference(got.pixels, Self.reference(bad)) == nil, "flip at \(at)")
                }
            }
        }
    }

    @Test("decodePreview takes the parallel path at 1/8 and gives libjpeg-turbo's pixels; a truncated file fails as before")
    func previewUsesIt() throws {
        let data = try Self.jpeg(Self.photo(width: 400, height: 300), 400, 300)
        let picture = try ImageDecoder(data: data, file: "p.jpg").decodePreview(maxPixels: 50 * 38)
        let expected = try #require(Self.reference(data))
        #expect(picture.width == 50 && picture.height == 38)
        let rendered = try #require(picture.render()).pixels
        #expect(Self.difference(rendered, expected) == nil)
        let truncated = Array(data[..<(data.count / 2)])
        #expect(throws: PictureError.self) { try ImageDecoder(data: truncated, file: "t.jpg").decodePreview(maxPixels: 50 * 38) }
    }
}

extension JPEGPreviewDecoderTests {
    @Test("the screen level of a JPEG at 1/8, from memory or read in place, is the parallel decode: libjpeg-turbo's pixels")
    func screenLevelUsesIt() throws {
        let data = try Self.jpeg(Self.photo(width: 1600, height: 1200), 1600, 1200)
        let expected = try #require(Self.reference(data))
        // A 200×150 screen: level 3, so the screen decode is DCT-scaled by 1/8.
        let limits = DecodeLimits(memoryBudget: 64 << 20, screenWidth: 200, screenHeight: 150)
        let inMemory = try ImageDecoder(data: data, file: "s.jpg", limits: limits).decode(detail: .screen)
        #expect(inMemory.width == 200 && inMemory.height == 150)
        #expect(Self.difference(try #require(inMemory.render()).pixels, expected) == nil)
        let folder = try PrivateFolder(prefix: "screen-level")
        let path = folder.path + "/s.jpg"
        try #require(FileManager.default.createFile(atPath: path, contents: Data(data)))
        let file = try PictureFile.open(path: path)
        let streaming = try #require(ImageDecoder.streaming(file, limits: limits, above: 0))
        let inPlace = try streaming.decode(detail: .screen)
        #expect(Self.difference(try #require(inPlace.render()).pixels, expected) == nil)
    }
}

extension JPEGPreviewDecoderTests {
    @Test("a cancelled decode stops where it is asked: nil from the decoder, .cancelled from the screen level")
    func cancellation() throws {
        // 1600×1200 in 4:2:0: 100×75 = 7,500 MCUs, asked at MCU 0, 1024, … 7168.
        let data = try Self.jpeg(Self.photo(width: 1600, height: 1200), 1600, 1200)
        let header = try JPEGCodec.header(data, file: "t", headerComplete: true)
        var report = JPEGPreviewDecoder.Report()
        var asked = 0
        let whole = JPEGPreviewDecoder.decode(data, header: header, threads: 1, report: &report) { asked += 1; return false }
        #expect(whole != nil)
        #expect(asked == 8, "asked \(asked) times over 7,500 MCUs")
        // On two threads the first asks until it meets the second (how far that is depends on
        // how the threads are scheduled), at least to where the second started, about halfway.
        for threads in [1, 2] {
            asked = 0
            let stopped = JPEGPreviewDecoder.decode(data, header: header, threads: threads, report: &report) {
                asked += 1
                return asked == 2
            }
            #expect(stopped == nil, "\(threads) threads: decoded although cancelled")
            #expect(asked == 2, "\(threads) threads: went on asking after the answer, \(asked) times")
        }
        // The loader's screen level: cancelled during the parallel decode (the 2nd question),
        // it asks once more and throws, rather than decoding again with libjpeg-turbo.
        let limits = DecodeLimits(memoryBudget: 64 << 20, screenWidth: 200, screenHeight: 150)
        asked = 0
        do {
            _ = try ImageDecoder(data: data, file: "s.jpg", limits: limits).decode(detail: .screen) {
                asked += 1
                return asked >= 2
            }
            Issue.record("the screen level decoded although cancelled")
        } catch {
            #expect(error.kind == .cancelled && asked == 3, "\(error), asked \(asked) times")
        }
    }
}

/// Timings on a big file, when PICTURES_PREVIEW_BENCH names one (e.g. /var/tmp/100mp.jpg):
/// libjpeg-turbo's 1/8 decode against this decoder on one and two threads.
@Suite("Parallel 1/8 JPEG preview timing")
struct JPEGPreviewTiming {
    static let path = ProcessInfo.processInfo.environment["PICTURES_PREVIEW_BENCH"]

    @Test("times", .enabled(if: path != nil))
    func times() throws {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try #require(Self.path))))
        let header = try JPEGCodec.header(data, file: "b", headerComplete: true)
        func best(_ body: () -> Void) -> Double {
            (0..<5).map { _ in let t = Date(); body(); return Date().timeIntervalSince(t) * 1000 }.min()!
        }
        let full = best { _ = try? JPEGCodec.decodeARGB(data, file: "b", header: header, zeroed: false) }
        let turbo = best { _ = try? JPEGCodec.decodeARGB(data, file: "b", header: header, scale: (1, 8)) }
        var report = JPEGPreviewDecoder.Report()
        let one = best { _ = JPEGPreviewDecoder.decode(data, header: header, threads: 1, report: &report) }
        var reports: [JPEGPreviewDecoder.Report] = []
        let two = best {
            var r = JPEGPreviewDecoder.Report()
            _ = JPEGPreviewDecoder.decode(data, header: header, threads: 2, report: &r)
            reports.append(r)
        }
        let file = try PictureFile.open(path: try #require(Self.path))
        let read = best { _ = file.bytes(at: 0, count: file.size) }
        print(String(format: "preview timing: reading the file whole %.1f ms", read))
        // Thread 1 writes planes, thread 2 records: where should the split be?
        let start = try JPEGPreviewDecoderTests.scanStart(data)
        for share in [0.44, 0.47, 0.5, 0.53] {
            let split = start + Int(Double(data.count - start) * share)
            let t = best { var r = JPEGPreviewDecoder.Report(); _ = JPEGPreviewDecoder.decode(data, header: header, splits: [split], report: &r) }
            print(String(format: "preview timing: split at %.2f of the scan: %.1f ms", share, t))
        }
        let same = JPEGPreviewDecoderTests.difference(JPEGPreviewDecoderTests.parallel(data)?.pixels, JPEGPreviewDecoderTests.reference(data))
        print(String(format: "preview timing: full libjpeg-turbo %.1f ms, its 1/8 %.1f ms, this decoder 1 thread %.1f ms, 2 threads %.1f ms (%.2f× full)",
                     full, turbo, one, two, two / full))
        print("preview timing: sync bytes past split \(reports.map(\.syncBytesPastSplit)), speculative MCUs \(reports.map(\.speculativeMCUs)), differs: \(same ?? "no")")
        for r in reports {
            print(String(format: "preview timing: threads %.1f ms, records %.1f ms, colour %.1f ms", r.decodeMilliseconds, r.recordsMilliseconds, r.colourMilliseconds))
        }
    }
}
