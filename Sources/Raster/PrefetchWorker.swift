// Tiles drawn ahead of need on a thread of the renderer's own, while its host waits for the
// next frame: the idle time between frames of a fling, on the core the frame leaves free.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tile to draw in the background, with everything it needs captured as immutable values.
struct PrefetchJob: Sendable {
    var key: TileKey
    var placement: ContentPlacement
    /// True for a tile at an exact zoom scale resampled from `placement.sourceLevel` tiles.
    var resampled: Bool
    /// The content's drawing as it was when the job was planned.
    var drawing: TileDrawing
    /// Source tiles of a resampled job that were cached when it was planned.
    var sources: [TileKey: Tile]
    /// Source tiles of a resampled job to draw first.
    var missingSources: [TileKey]
    /// The content's generation when planned: results of an older one are dropped.
    var generation: UInt64
}

/// A tile the worker made.
struct PrefetchResult: Sendable {
    var key: TileKey
    var tile: Tile
    var generation: UInt64
    var resampled: Bool
}

/// Runs prefetch jobs one after another on its own thread. The renderer pauses it while it
/// renders (a tile under way finishes), hands it the next plan after each frame and takes
/// the finished tiles at the start of the following one.
final class PrefetchWorker: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [PrefetchJob] = []
    private var next = 0
    private var results: [PrefetchResult] = []
    private var paused = false
    private var stopped = false
    private var started = false
    /// The key of the job under way, if any.
    private var current: TileKey?
    /// Source tiles drawn for this plan's resampled jobs, shared by the jobs after them.
    /// Touched by the worker thread while a job is under way and under `condition` otherwise
    /// (`forget`), cleared with each plan (adopted by then).
    private var planSources: [TileKey: Tile] = [:]
    private var plan = 0
    /// Views forgotten while a job was under way: its tiles of them, and the plan's sources of
    /// them, are dropped once it finishes.
    private var forgotten: Set<UInt64> = []

    /// Replaces the jobs not started yet with `jobs`, in order (less the one under way), and
    /// lets the worker go on.
    func submit(_ jobs: [PrefetchJob]) {
        condition.lock()
        defer { condition.unlock() }
        queue = jobs.filter { $0.key != current }
        next = 0
        plan &+= 1
        paused = false
        if !started && !jobs.isEmpty {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "tile prefetch"
            // Below the frame loop: prefetching is for idle time (see `niceness`).
            thread.qualityOfService = .utility
            thread.start()
        }
        condition.broadcast()
    }

    /// Starts no further job until the next `submit`.
    func pause() {
        condition.lock()
        paused = true
        condition.unlock()
    }

    /// Drops the jobs not started, the finished tiles and the plan's source tiles of `view`
    /// (gone from the tree): tiles that are windows onto its pixels would keep them alive. A
    /// job under way finishes, and what it made of the view is dropped then.
    func forget(view: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        queue = queue[min(next, queue.count)...].filter { $0.key.view != view }
        next = 0
        results.removeAll { $0.key.view == view }
        // The worker touches the plan's sources only while a job is under way.
        if current == nil { planSources = planSources.filter { $0.key.view != view } } else { forgotten.insert(view) }
    }

    /// The tiles finished since the last call, in the order they were made.
    func takeResults() -> [PrefetchResult] {
        condition.lock()
        defer { condition.unlock() }
        let taken = results
        results.removeAll()
        return taken
    }

    /// Blocks until no job is running or waiting (or `timeout` seconds passed): for tests.
    @discardableResult
    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while current != nil || (!paused && next < queue.count) {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Ends the thread after the job under way.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Niceness of the worker thread: 10, whose scheduler weight (110 against 1024 for the
    /// default 0, Linux's CFS table) leaves a frame's threads about nine tenths of a shared
    /// core; the worker is meant to use the time frames leave idle, not to slow them.
    static let niceness: Int32 = 10

    private func run() {
        // On Linux niceness belongs to each thread: "who" 0 is this thread alone (setpriority(2)).
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
        var seenPlan = 0
        while true {
            condition.lock()
            while !stopped && (paused || next >= queue.count) { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            let job = queue[next]
            next += 1
            current = job.key
            if plan != seenPlan {
                seenPlan = plan
                planSources.removeAll()
            }
            condition.unlock()
            let made = make(job)
            condition.lock()
            results.append(contentsOf: made.filter { !forgotten.contains($0.key.view) })
            if !forgotten.isEmpty {
                planSources = planSources.filter { !forgotten.contains($0.key.view) }
                forgotten.removeAll()
            }
            current = nil
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The job's tile, after the source tiles it is resampled from (which are results too).
    private func make(_ job: PrefetchJob) -> [PrefetchResult] {
        var made: [PrefetchResult] = []
        var sources = job.sources
        for key in job.missingSources {
            if let tile = planSources[key] {
                sources[key] = tile
                continue
            }
            let tile = TileProducer.makeTile(key: key, placement: job.placement, resampled: false, sources: [:],
                                             stored: job.drawing.storedPixels(key.scale), draw: job.drawing.draw)
            sources[key] = tile
            planSources[key] = tile
            made.append(PrefetchResult(key: key, tile: tile, generation: job.generation, resampled: false))
        }
        let tile = TileProducer.makeTile(key: job.key, placement: job.placement, resampled: job.resampled, sources: sources,
                                         stored: job.resampled ? nil : job.drawing.storedPixels(job.key.scale),
                                         draw: job.drawing.draw)
        made.append(PrefetchResult(key: job.key, tile: tile, generation: job.generation, resampled: job.resampled))
        return made
    }
}
