// The huge-JPEG benchmark of pictures-bench run in process, opt-in.
import Foundation
import SafeOutput
import Testing
@testable import pictures_bench

/// The huge-JPEG benchmark, opt-in (PICTURES_BENCH=1) because it generates a 100-MP photo;
/// it prints figures and asserts only that it measured something.
@Suite("Huge JPEG benchmark")
struct HugeJPEGBenchmark {
    @Test("first frame versus full decode, and peak memory",
          .enabled(if: ProcessInfo.processInfo.environment["PICTURES_BENCH"] == "1"))
    func hugeJPEG() throws {
        // A private folder: the default, the shared temporary folder, is a fixed name anyone
        // could plant a link at.
        let folder = try PrivateFolder(prefix: "pictures-bench-test")
        let figures = try PictureBenchmark.run(directory: folder.path)
        print(figures)
        #expect(figures.fullDecodeSeconds > 0 && figures.firstFrameSeconds > 0)
    }
}
