// The test-support pin of render threads: renderers made under `.oneRenderThread` or inside
// `Parallel.withDefaultWorkers` default to that many threads, their child tasks too, and
// nothing outside changes; unpinned, one thread per core this process may run on.
import CompositorHarness
import Foundation
@testable import Raster
import TestSupport
import Testing

@Suite("Render threads in tests")
struct RenderThreadTests {
    /// The machine's default: one thread per core the tests may run on (coreutils' nproc
    /// reads the affinity mask: 1 under `taskset -c 0`), at most 8.
    static let cores: Int = {
        let nproc = try? runProcess(URL(fileURLWithPath: "/usr/bin/nproc"), [])
        return min(max(Int(nproc?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0, 1), 8)
    }()

    @Test("Unpinned, a renderer uses one thread per core")
    func unpinned() {
        #expect(Renderer().workers == Self.cores)
        #expect(Parallel.defaultWorkers == Self.cores)
    }

    @Test("The cores allowed are counted from proc(5)'s Cpus_allowed_list; a malformed list counts as unknown",
          arguments: [("0", 1), ("0-1", 2), ("0,2-3", 3), ("0-3,6\n", 5), ("  7 ", 1), ("0-63", 64)] as [(String, Int)])
    func allowedList(_ list: String, _ count: Int) {
        #expect(Parallel.cpuCount(list: Substring(list)) == count)
        #expect(Parallel.allowedCores(status: "Name:\timage-viewer\nCpus_allowed:\tff\nCpus_allowed_list:\t\(list)\nMems_allowed:\t1\n") == count)
    }

    @Test("Malformed lists: empty, reversed, negative, not numbers, overflowing", arguments: [
        "", ",", "3-1", "-1", "0-", "a", "0-1-2", "0,,1", "0-9223372036854775807,0-9223372036854775807", "99999999999999999999",
    ])
    func malformedList(_ list: String) {
        #expect(Parallel.cpuCount(list: Substring(list)) == nil)
    }

    @Test("No Cpus_allowed_list (or no status at all): unknown, and the online CPUs count")
    func noList() {
        #expect(Parallel.allowedCores(status: "Name:\tx\n") == nil)
        #expect(Parallel.allowedCores(status: nil) == nil)
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
