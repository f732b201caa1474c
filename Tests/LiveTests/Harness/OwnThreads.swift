// A test trait that runs a live test on threads of its own instead of Swift concurrency's shared
// pool, a few at a time. swift-testing runs a synchronous test on that pool (a thread per core),
// and a live test blocks its thread for seconds at a time waiting on compositors, screenshots and
// timers: on two cores two live tests held the pool while every other one, already started,
// waited for a thread with its time limit running (tests that take 2 s failed their 120 s limits
// at load 10). On threads of their own, blocked tests take nothing from the others, and
// `OwnThreads.width` of them run at once. Scripts/test.sh sets swift-testing's own width to the
// same number, which admits a test before its time limit starts; without it the tests past the
// width wait here, inside their time limits, as they waited for a thread before.
import Foundation
import Synchronization
import Testing

/// Runs every job it is given on a new thread, so a job that blocks holds only its own thread.
final class ThreadPerJobExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job), executor = asUnownedTaskExecutor()
        Thread.detachNewThread { job.runSynchronously(on: executor) }
    }
}

/// Each test of the suite (or the test) runs on threads of its own, at most `width` at once; a
/// test that times the viewer against the clock (frame delays, a flood the socket must keep up
/// with) takes every place and runs alone: the other tests' compositors and screenshots on the
/// same two cores measure the machine, not the viewer (a GIF frame 48 ms late, a flood that
/// outran the reader, each in one full run of four).
struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    /// Twice the cores: a live test spends most of its time waiting on other processes, which
    /// need the cores meanwhile (decision: at 3 times, tests timing frames and screenshots
    /// failed at load 12 on 2 cores).
    static let width = 2 * ProcessInfo.processInfo.activeProcessorCount

    private static let executor = ThreadPerJobExecutor()
    /// Free places, and the tests waiting for theirs, first come first served.
    private static let places = Mutex<(free: Int, waiting: [(places: Int, test: CheckedContinuation<Void, Never>)])>((width, []))

    /// How many of the `width` places each test takes.
    let needs: Int

    /// Every test in the suite gets the scope, not the suite as a whole.
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let needs = min(max(self.needs, 1), Self.width)
        await withCheckedContinuation { (waiting: CheckedContinuation<Void, Never>) in
            let admitted = Self.places.withLock { places in
                // None overtakes a test already waiting: one that runs alone would wait for good.
                guard places.waiting.isEmpty, places.free >= needs else {
                    places.waiting.append((needs, waiting))
                    return false
                }
                places.free -= needs
                return true
            }
            if admitted { waiting.resume() }
        }
        defer {
            // The places go to the longest waiting tests, as many as now fit, in order.
            let next = Self.places.withLock { places -> [CheckedContinuation<Void, Never>] in
                places.free += needs
                var admitted: [CheckedContinuation<Void, Never>] = []
                while let first = places.waiting.first, first.places <= places.free {
                    places.free -= first.places
                    admitted.append(first.test)
                    places.waiting.removeFirst()
                }
                return admitted
            }
            for test in next { test.resume() }
        }
        let started = ContinuousClock.now
        defer { Self.logDuration(of: test, since: started) }
        try await withTaskExecutorPreference(Self.executor) { try await function() }
    }

    /// With SCROLLKIT_LIVE_TIMES=FILE, each test's own running time (from its admission, not
    /// from swift-testing's start, which counts the wait for a place) is appended to FILE as
    /// "seconds name": where the live run's minutes go.
    private static func logDuration(of test: Test, since start: ContinuousClock.Instant) {
        guard let path = ProcessInfo.processInfo.environment["SCROLLKIT_LIVE_TIMES"], !path.isEmpty else { return }
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        let line = String(format: "%.1f %@\n", seconds, test.displayName ?? test.name)
        timesLock.withLock { _ in
            guard let handle = FileHandle(forWritingAtPath: path) ?? {
                _ = FileManager.default.createFile(atPath: path, contents: nil)
                return FileHandle(forWritingAtPath: path)
            }() else { return }
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            try? handle.close()
        }
    }

    private static let timesLock = Mutex(())
}

extension Trait where Self == OwnThreads {
    /// Each test of the suite (or the test) runs on threads of its own, not on the shared pool,
    /// at most `OwnThreads.width` at once.
    static var ownThreads: Self { OwnThreads(needs: 1) }

    /// Like `ownThreads`, but each test runs with no other live test beside it: for tests that
    /// time the viewer against the clock.
    static var ownThreadsAlone: Self { OwnThreads(needs: OwnThreads.width) }
}
