// Splitting work across cores: a parallel map over indices, results collected in order.
import Dispatch
import Foundation
import Synchronization

/// Runs independent pieces of work on several threads.
public enum Parallel {
    /// Threads the renderer uses by default: one per core, at most 8.
    public static var defaultWorkers: Int { cores }

    /// Runs `body(k)` for k in 0..<count at once on separate threads and waits for all; the
    /// pieces must touch disjoint memory.
    public static func run(_ count: Int, _ body: (Int) -> Void) {
        forEach(count, workers: count, body)
    }

    /// Cores the renderer uses: the machine's, at most 8 (the design targets two; more only
    /// helps up to memory bandwidth).
    static let cores = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)

    /// `body(i)` for every i in 0..<count, on up to `workers` threads, results in index order.
    /// `body` must be safe to run concurrently with itself for different indices.
    static func map<T: Sendable>(_ count: Int, workers: Int, _ body: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        if workers <= 1 || count == 1 { return (0..<count).map(body) }
        let results = Mutex([T?](repeating: nil, count: count))
        let chunks = min(workers, count)
        withoutActuallyEscaping(body) { work in
            let job = UnsafeSendable(work)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
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
    /// (Dispatch hands out the iterations one by one), so that a thread slowed by another
    /// process does not hold up the rest; one thread when `workers` ≤ 1.
    static func forEachBalanced(_ count: Int, workers: Int, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        if workers <= 1 || count == 1 {
            for i in 0..<count { body(i) }
            return
        }
        withoutActuallyEscaping(body) { work in
            let job = UnsafeSendable(work)
            DispatchQueue.concurrentPerform(iterations: count) { job.value($0) }
        }
    }
}

/// Carries a value into concurrently running closures when the caller guarantees that the
/// threads touch disjoint parts of it (distinct result slots, distinct framebuffer rows).
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
