// TIFF pages of many strips or tiles decoded on two threads, each with its own libtiff handle:
// the same pixels as on one thread, the same rows kept from a damaged file, and a cancelled
// decode that ends with its helper thread.
import Foundation
import Raster
import Testing
import TestSupport
@testable import Pictures

@Suite("TIFF on two threads")
struct TIFFThreadsTests {
    @Test("pages of at least four chunks go to two threads; one strip, huge bands, or one core stay on one")
    func chunking() {
        // The benchmark's 6000×4000 in 3-row strips: 14 strips (42 rows, 1 MB) a chunk.
        let bench = TIFFCodec.Chunking(width: 6000, height: 4000, bandRows: 3, threads: 2)
        #expect(bench == TIFFCodec.Chunking(width: 6000, height: 4000, bandRows: 3, threads: 8))
        #expect(bench.chunkRows == 42 && bench.threads == 2)
        #expect(TIFFCodec.Chunking(width: 6000, height: 4000, bandRows: 3, threads: 1).threads == 1)
        // One strip (as Pillow writes without compression): one chunk, one thread.
        let whole = TIFFCodec.Chunking(width: 6000, height: 4000, bandRows: 4000, threads: 2)
        #expect(whole.chunkRows == 4000 && whole.threads == 1)
        // Tiles 256 rows high of a picture 1024 wide: 1 MiB, one band a chunk; 3 chunks stay on one thread.
        #expect(TIFFCodec.Chunking(width: 1024, height: 256 * 4, bandRows: 256, threads: 2).threads == 2)
        #expect(TIFFCodec.Chunking(width: 1024, height: 256 * 3, bandRows: 256, threads: 2).threads == 1)
        // The 1-gigapixel benchmark's tile rows (32 MB): one thread; at 8192 wide (8 MiB), two.
        #expect(TIFFCodec.Chunking(width: 31623, height: 31623, bandRows: 256, threads: 2).threads == 1)
        #expect(TIFFCodec.Chunking(width: 8192, height: 8192, bandRows: 256, threads: 2).threads == 2)
    }

    /// A 1024×`height` picture of noise, LZW in strips of 21 rows (Pillow's 64 KB), with alpha
    /// when `alpha`, and a copy in 64×64 tiles (tiffcp): chunks of 252 and 256 rows, so five
    /// at the default height, and two threads.
    static func pictures(alpha: Bool, height: Int = 1200) throws -> (strips: String, tiles: String) {
        try #require(TIFFCodec.openLibrary() == nil)  // decodeMemory is called before any ImageDecoder opens it
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiff-threads-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let mode = alpha ? "RGBA" : "RGB"
        try PillowPictures.make("""
            import random
            random.seed(7)
            w, h = 1024, \(height)
            im = Image.frombytes("\(mode)", (w, h), random.randbytes(w * h * \(alpha ? 4 : 3)))
            im.save(os.path.join(out, "strips.tif"), compression="tiff_lzw")
            import subprocess
            subprocess.run(["tiffcp", "-t", "-w", "64", "-l", "64", "-c", "lzw", os.path.join(out, "strips.tif"),
                            os.path.join(out, "tiles.tif")], check=True)
            """, in: folder)
        return (folder + "/strips.tif", folder + "/tiles.tif")
    }

    static func decode(_ bytes: [UInt8], threads: Int, acceptsDamage: Bool = false) async throws -> Picture {
        try await Parallel.withDefaultWorkers(threads) { try ImageDecoder(data: bytes, file: "t.tif").decode(acceptsDamage: acceptsDamage) }
    }

    @Test("strips and tiles, opaque and with alpha, decode on two threads to the pixels of one", arguments: [false, true])
    func samePixels(alpha: Bool) async throws {
        let (strips, tiles) = try Self.pictures(alpha: alpha)
        for path in [strips, tiles] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let (chunking, _) = try TIFFCodec.decodeMemory(bytes, file: path, stream: nil, page: 0, threads: 2)
            #expect(chunking.threads == 2, "\(path) would decode on one thread")
            let two = CorpusTests.pixels(try await Self.decode(bytes, threads: 2))
            let one = CorpusTests.pixels(try await Self.decode(bytes, threads: 1))
            let same = one.count == 1024 * 1200 && one == two
            #expect(same, "\(path): first difference at pixel \(String(describing: one.indices.first { $0 >= two.count || one[$0] != two[$0] }))")
        }
    }

    /// A 1024×1200 RGB TIFF of noise in uncompressed 7-row strips with its directory first (as
    /// cameras write them; Pillow and tiffcp put it after the pixels, where a cut file loses
    /// it): 15 chunks, so two threads.
    static func directoryFirst() throws -> [UInt8] {
        try #require(TIFFCodec.openLibrary() == nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiff-threads-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PillowPictures.make("""
            import random, struct
            random.seed(11)
            w, h, rps = 1024, 1200, 7
            strips = (h + rps - 1) // rps
            short = lambda tag, v: struct.pack("<HHIHH", tag, 3, 1, v, 0)
            long = lambda tag, count, v: struct.pack("<HHII", tag, 4, count, v)
            count = 10
            bits = 8 + 2 + count * 12 + 4
            offsets = bits + 6
            counts = offsets + 4 * strips
            data = counts + 4 * strips
            row = w * 3
            ifd = [long(256, 1, w), long(257, 1, h), struct.pack("<HHII", 258, 3, 3, bits), short(259, 1), short(262, 2),
                   long(273, strips, offsets), short(277, 3), long(278, 1, rps), long(279, strips, counts), short(284, 1)]
            with open(os.path.join(out, "first.tif"), "wb") as f:
                f.write(b"II*\\x00" + struct.pack("<IH", 8, count) + b"".join(ifd) + struct.pack("<I", 0))
                f.write(struct.pack("<3H", 8, 8, 8))
                f.write(b"".join(struct.pack("<I", data + i * rps * row) for i in range(strips)))
                f.write(b"".join(struct.pack("<I", min(rps, h - i * rps) * row) for i in range(strips)))
                f.write(random.randbytes(w * h * 3))
            """, in: folder)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/first.tif")))
    }

    @Test("a file cut part-way keeps on two threads the rows one thread keeps", arguments: [0.3, 0.55, 0.8])
    func damaged(at fraction: Double) async throws {
        let whole = try Self.directoryFirst()
        let (chunking, _) = try TIFFCodec.decodeMemory(whole, file: "t.tif", stream: nil, page: 0, threads: 2)
        #expect(chunking.threads == 2)
        let full = CorpusTests.pixels(try await Self.decode(whole, threads: 1))
        let cut = Array(whole.prefix(Int(Double(whole.count) * fraction)))
        let two = try await Self.decode(cut, threads: 2, acceptsDamage: true)
        let one = try await Self.decode(cut, threads: 1, acceptsDamage: true)
        let damage = try #require(two.damage)
        #expect(damage.error.kind == .truncated, "\(damage.error)")
        #expect(damage.decodedFraction == one.damage?.decodedFraction)
        // Whole 7-row strips up to the cut: the rows before it, less the strip it falls in.
        let rows = Int((try #require(damage.decodedFraction) * 1200).rounded())
        #expect(rows % 7 == 0 && abs(Double(rows) / 1200 - fraction) < 0.01, "\(rows) rows")
        let kept = CorpusTests.pixels(two)
        let sameAsOne = kept == CorpusTests.pixels(one)
        #expect(sameAsOne, "two threads kept other pixels than one")
        let rowsAsFull = kept.count == full.count && kept[..<(rows * 1024)] == full[..<(rows * 1024)]
        #expect(rowsAsFull, "the rows kept differ from the whole file's")
    }

    @Test("a decode cancelled part-way stops, and its helper thread with it")
    func cancelled() async throws {
        // 12 chunks: the helper's six are more than its two buffers.
        let (strips, _) = try Self.pictures(alpha: false, height: 3000)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: strips)))
        final class Polls: @unchecked Sendable { var count = 0 }
        let polls = Polls()
        let error = await #expect(throws: PictureError.self) {
            try await Parallel.withDefaultWorkers(2) {
                try ImageDecoder(data: bytes, file: "t.tif").decode(isCancelled: {
                    polls.count += 1
                    return polls.count > 2
                })
            }
        }
        #expect(polls.count == 3)
        // Cancelled before each of the first chunks but the first, the helper ahead and waiting.
        for at in 1...4 {
            polls.count = 0
            let stopped = await #expect(throws: PictureError.self) {
                try await Parallel.withDefaultWorkers(2) {
                    try ImageDecoder(data: bytes, file: "t.tif").decode(isCancelled: {
                        polls.count += 1
                        guard polls.count > at else { return false }
                        // The helper meanwhile fills both its buffers and waits for one.
                        usleep(30_000)
                        return true
                    })
                }
            }
            #expect(stopped?.kind == .cancelled, "cancelled after \(at) polls")
        }
        #expect(error?.kind == .cancelled)
        // The decode after it, on the same threads' pool, is whole.
        let after = CorpusTests.pixels(try await Self.decode(bytes, threads: 2))
        #expect(after.count == 1024 * 3000)
    }
}
