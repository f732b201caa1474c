// Splitting work across cores: a parallel map over indices, results collected in order, on a
// pool of threads of our own that sleep between jobs.
import Foundation
import Synchronization

/// Runs independent pieces of work on several threads.
public enum Parallel {
    /// Threads a renderer uses by default (`Renderer.workers` when it is made): one per core,
    /// at most 8, unless the task making it runs inside `withDefaultWorkers`.
    public static var defaultWorkers: Int { pinnedWorkers ?? cores }

    /// Runs `body` with `defaultWorkers` at `workers` (at least 1) for the renderers made in it,
    /// on this task and its child tasks. Tests pin them to one: a test runner already runs a
    /// test per core, and renderers splitting each frame across the cores as well only add
    /// threads that compete for them.
    public static func withDefaultWorkers<R>(_ workers: Int, isolation: isolated (any Actor)? = #isolation,
                                             _ body: () async throws -> R) async rethrows -> R {
        try await $pinnedWorkers.withValue(max(workers, 1), operation: body, isolation: isolation)
    }

    /// The default set by `withDefaultWorkers` for the current task, if any.
    @TaskLocal static var pinnedWorkers: Int?

    /// Runs `body(k)` for k in 0..<count at once on separate threads and waits for all; the
    /// pieces must touch disjoint memory.
    public static func run(_ count: Int, _ body: (Int) -> Void) {
        forEach(count, workers: count, body)
    }

    /// Cores the renderer uses: those this process may run on, at most 8 (the design targets
    /// two; more only helps up to memory bandwidth).
    static let cores = min(max(allowedCores() ?? ProcessInfo.processInfo.activeProcessorCount, 1), 8)

    /// How many CPUs this process may run on: its affinity mask (`taskset -c 0`, systemd's
    /// CPUAffinity=), read from `status` (/proc/self/status); nil when that has no readable
    /// Cpus_allowed_list. Foundation's activeProcessorCount counts every online CPU whatever the
    /// mask (measured: 2 under `taskset -c 0` on two cores, so frames were split between two
    /// threads taking turns on one core), and sched_getaffinity(2) is declared only with
    /// _GNU_SOURCE, which Swift's Glibc module is not built with.
    static func allowedCores(status: String? = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) -> Int? {
        guard let status else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed_list:") {
            return cpuCount(list: line.dropFirst("Cpus_allowed_list:".count))
        }
        return nil
    }

    /// The CPUs in a list such as "0-3,6" (proc(5)'s Cpus_allowed_list format: numbers and
    /// ascending ranges, comma-separated); nil when it is malformed or names none.
    static func cpuCount(list: Substring) -> Int? {
        var count = 0
        for part in list.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2, let low = Int(bounds[0]), let high = Int(bounds[bounds.count - 1]),
                  low >= 0, high >= low else { return nil }
            let (span, wide) = (high - low).addingReportingOverflow(1)
            let (sum, overflow) = count.addingReportingOverflow(span)
            guard !wide && !overflow else { return nil }
            count = sum
        }
        return count > 0 ? count : nil
    }

    /// `body(i)` for every i in 0..<count, on up to `workers` threads, results in index order.
    /// `body` must be safe to run concurrently with itself for different indices.
    static func map<T: Sendable>(_ count: Int, workers: Int, _ body: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        if workers <= 1 || count == 1 { return (0..<count).map(body) }
        let results = Mutex([T?](repeating: nil, count: count))
        let chunks = min(workers, count)
        withoutActuallyEscaping(body) { work in
            let job = UnsafeSendable(work)
            WorkerPool.shared.perform(chunks) { chunk in
                // Interleaved indices balance uneven pieces (edge tiles, empty bands); each
                // thread keeps its results and stores them under the lock once, at the end.
                var mine: [(Int, T)] = []
                var i = chunk
                while i < count {
                    mine.append((i, job.value(i)))
                    i += chunks
                }
                results.withLock { slots in
                    for (index, value) in mine { slots[index] = value }
                }
            }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// `body(i)` for every i in 0..<count, on up to `workers` threads.
    static func forEach(_ count: Int, workers: Int, _ body: (Int) -> Void) {
        _ = map(count, workers: workers, body)
    }

    /// `body(i)` for every i in 0..<count, each index taken by whichever thread is free next
    /// (the pool hands out the iterations one by one), so that a thread slowed by another
    /// process does not hold up the rest; one thread when `workers` ≤ 1.
    static func forEachBalanced(_ count: Int, workers: Int, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        if workers <= 1 || count == 1 {
            for i in 0..<count { body(i) }
            return
        }
        withoutActuallyEscaping(body) { work in
            let job = UnsafeSendable(work)
            WorkerPool.shared.perform(count) { job.value($0) }
        }
    }
}

/// Carries a value into concurrently running closures when the caller guarantees that the
/// threads touch disjoint parts of it (distinct result slots, distinct framebuffer rows).
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Threads that run the pieces of one job at a time alongside the caller, parked on a condition
/// between jobs.
///
/// Not Dispatch's `concurrentPerform`: on Linux the first job libdispatch runs on a global
/// queue starts its thread-pool monitor, a timer that wakes the process once a second for the
/// rest of its life (swift-corelibs-libdispatch, src/event/workqueue.c), so an idle viewer was
/// never idle. A parked thread here waits on a futex without a timeout: no wakeups until work comes.
final class WorkerPool: @unchecked Sendable {
    /// The pool the renderer shares: one thread fewer than `Parallel.cores`, since the caller
    /// works too.
    static let shared = WorkerPool(threads: Parallel.cores - 1)

    /// Threads besides the caller.
    let threadCount: Int
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var body: ((Int) -> Void)?
    private var pieces = 0
    private var next = 0
    private var running = 0
    private var busy = false
    private var started = false

    init(threads: Int) {
        threadCount = max(threads, 0)
    }

    /// Runs `body(i)` for every i in 0..<count on the pool's threads and the caller's, each
    /// index taken by whichever is free next, and returns when all are done. A call made while
    /// the pool runs another job (from another thread, or from inside a piece) runs its pieces
    /// on the calling thread alone, so calls never wait for each other.
    func perform(_ count: Int, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        condition.lock()
        if busy || threadCount == 0 || count == 1 {
            condition.unlock()
            for i in 0..<count { body(i) }
            return
        }
        busy = true
        if !started {
            started = true
            for k in 0..<threadCount {
                let thread = Thread { [self] in workerLoop() }
                thread.name = "raster \(k + 1)"
                thread.qualityOfService = .userInteractive
                thread.start()
            }
        }
        withoutActuallyEscaping(body) { escapable in
            self.body = escapable
            pieces = count
            next = 0
            running = 0
            condition.broadcast()
            takePieces()
            while running > 0 { condition.wait() }
            self.body = nil
            busy = false
            condition.unlock()
        }
    }

    /// Runs pieces until none is left; called and returns with the lock held.
    private func takePieces() {
        while body != nil && next < pieces {
            let index = next
            next += 1
            running += 1
            condition.unlock()
            runPiece(index)
            condition.lock()
            running -= 1
            if running == 0 && next >= pieces { condition.broadcast() }
        }
    }

    /// One piece, outside the lock. `body` is only cleared once no piece runs, so it is set here;
    /// the closure is not held past the call (the caller's `withoutActuallyEscaping` checks).
    private func runPiece(_ index: Int) {
        body?(index)
    }

    private func workerLoop() {
        condition.lock()
        while true {
            while body == nil || next >= pieces { condition.wait() }
            takePieces()
        }
    }
}
