// JPEG XL decoded on libjxl_threads' pool: the same pixels as on one thread, for every JPEG XL
// of the corpus (lossy, lossless, alpha, 16-bit, grey, with a profile).
import Foundation
import Raster
import Testing
import TestSupport
@testable import Pictures

@Suite("JPEG XL on several threads")
struct JXLThreadsTests {
    @Test("a decoder for two threads or more renders on a pool of them; one for one thread does not")
    func pool() {
        #expect(JXLCodec.decodesInParallel(workers: 2))
        #expect(JXLCodec.decodesInParallel(workers: 4))
        #expect(!JXLCodec.decodesInParallel(workers: 1))
    }

    @Test("every JPEG XL of the corpus decodes on two threads to the pixels one thread gives")
    func samePixels() async throws {
        let (folder, entries) = try GeneratedCorpus.generated.get()
        let files = entries.filter { $0.format == "jxl" }.map { folder.appendingPathComponent($0.file).path }
        try #require(files.count >= 4, "the corpus has \(files.count) JPEG XL files")
        for path in files {
            let two = try await Parallel.withDefaultWorkers(2) { CorpusTests.pixels(try ImageDecoder(path: path).decode()) }
            let one = try await Parallel.withDefaultWorkers(1) { CorpusTests.pixels(try ImageDecoder(path: path).decode()) }
            #expect(!one.isEmpty && one == two, "\(path)")
        }
    }
}
