// The test-support pin of render threads: renderers made under `.oneRenderThread` or inside
// `Parallel.withDefaultWorkers` default to that many threads, their child tasks too, and
// nothing outside changes.
import Foundation
import Raster
import TestSupport
import Testing

@Suite("Render threads in tests")
struct RenderThreadTests {
    /// The machine's default: one thread per core, at most 8.
    static let cores = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)

    @Test("Unpinned, a renderer uses one thread per core")
    func unpinned() {
        #expect(Renderer().workers == Self.cores)
        #expect(Parallel.defaultWorkers == Self.cores)
    }

    @Test("Under the trait, renderers use one thread", .oneRenderThread)
    func pinnedTest() async {
        #expect(Renderer().workers == 1)
        async let child = Renderer().workers
        #expect(await child == 1, "child tasks inherit the pin")
    }

    /// A suite pinned as the renderer suites are.
    @Suite("Pinned suite", .oneRenderThread)
    struct Pinned {
        @Test("Every test of a pinned suite makes one-thread renderers")
        func pinnedSuite() {
            #expect(Renderer().workers == 1)
        }
    }

    @Test("The pin holds inside its scope only, and never drops below one")
    func scope() async {
        #expect(await Parallel.withDefaultWorkers(3) { Renderer().workers } == 3)
        #expect(await Parallel.withDefaultWorkers(0) { Renderer().workers } == 1)
        #expect(Renderer().workers == Self.cores)
        let renderer = await Parallel.withDefaultWorkers(1) { Renderer() }
        renderer.workers = 2
        #expect(renderer.workers == 2, "a test of the threaded paths sets its own")
    }
}
