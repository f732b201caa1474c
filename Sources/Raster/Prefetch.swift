// Prefetching, run: the plan made after each frame is either queued for the host to draw in
// its idle time (`Renderer.prefetch`) or handed to the background worker, whose finished
// tiles join the store when the next frame starts, unless their content changed meanwhile.
import Foundation

/// Makes the tiles of a prefetch plan, ranked below the tiles the last frame used and never
/// pushing them out. Used from the renderer's thread only.
final class Prefetcher {
    /// Where tiles are looked up and kept.
    let store: TileStore
    /// The jobs the host has not had drawn yet, in order.
    private var queue: [TileJob] = []
    /// The background prefetcher, made when first needed.
    private var worker: PrefetchWorker?
    /// The tiles handed to the background worker after the last frame.
    private(set) var submitted = Set<TileKey>()

    init(store: TileStore) {
        self.store = store
    }

    deinit { worker?.stop() }

    /// Whether jobs wait for `run`.
    var hasWork: Bool { !queue.isEmpty }

    /// Starts no further background job until the next plan (a frame is rendering).
    func pause() {
        worker?.pause()
    }

    /// Drops the queued and background work of `view` and the tiles made for it not adopted
    /// yet (see `Renderer.forgetTiles`).
    func forget(view: UInt64) {
        queue.removeAll { $0.key.view == view }
        worker?.forget(view: view)
    }

    /// Drops the background worker's plan (the tiles under way still finish).
    func cancelBackground() {
        worker?.submit([])
    }

    /// Waits until the background worker has drawn its plan (or `timeout` seconds passed).
    func waitForBackground(timeout: Double) -> Bool {
        worker?.waitUntilIdle(timeout: timeout) ?? true
    }

    /// Takes the jobs of the plan made after frame `frame`: into the queue, or, `inBackground`,
    /// to the worker.
    func schedule(_ jobs: [TileJob], inBackground: Bool, frame: UInt64) {
        if inBackground {
            queue.removeAll()
            submit(jobs, frame: frame)
        } else {
            queue = jobs
        }
    }

    /// Hands the jobs whose content can draw on any thread to the background worker, as many
    /// as fit the cache without evicting what frame `frame` used.
    private func submit(_ jobs: [TileJob], frame: UInt64) {
        var spare = store.roomAhead(behind: frame)
        var drawings: [UInt64: TileDrawing?] = [:]
        var work: [PrefetchJob] = []
        var submitted = Set<TileKey>()
        defer { self.submitted = submitted }
        for job in jobs {
            guard spare > 0 else { break }
            let view = job.key.view
            if drawings[view] == nil { drawings[view] = .some(job.content.concurrentDrawing()) }
            guard let drawing = drawings[view] ?? nil, let generation = store.generation(of: view) else { continue }
            var sources: [TileKey: Tile] = [:], missing: [TileKey] = []
            if job.resampled {
                let cell = TileGrid.rect(of: job.key).intersection(job.placement.extent)
                for key in TileGrid.sourceKeys(job.placement, for: cell) {
                    if let tile = store.peekFresh(key) { sources[key] = tile } else { missing.append(key) }
                }
            }
            spare -= 1 + missing.count
            submitted.insert(job.key)
            work.append(PrefetchJob(key: job.key, placement: job.placement, resampled: job.resampled, drawing: drawing,
                                    sources: sources, missingSources: missing, generation: generation))
        }
        if worker == nil && work.isEmpty { return }
        if worker == nil { worker = PrefetchWorker() }
        worker?.submit(work)
    }

    /// Puts the tiles the background worker finished into the store, below the tiles of the
    /// frame before `frame` (the one being rendered) and never pushing them out; tiles of
    /// content changed since are dropped. Returns how many were kept.
    func adoptFinished(frame: UInt64) -> Int {
        guard let worker else { return 0 }
        let last = frame &- 1
        var adopted = 0
        for result in worker.takeResults() {
            let replacing = store.isStale(result.key)
            guard store.generation(of: result.key.view) == result.generation, !store.contains(result.key) || replacing else {
                continue
            }
            if store.keepAhead(result.key, result.tile, behind: last) {
                adopted += 1
                if replacing { store.markRefreshed(result.key) }
            }
        }
        return adopted
    }

    /// Draws up to `maxTiles` queued tiles into the store without evicting any tile frame
    /// `frame` used, counting them in `statistics`; returns how many were made.
    func run(maxTiles: Int, frame: UInt64, statistics: inout RenderStatistics) -> Int {
        var made = 0
        while made < maxTiles, !queue.isEmpty {
            let job = queue.removeFirst()
            let replacing = store.isStale(job.key)
            if store.contains(job.key) && !replacing { continue }
            // Only what fits without evicting the visible tiles is worth drawing.
            guard store.hasRoomAhead(behind: frame) else {
                queue.removeAll()
                break
            }
            var sources: [TileKey: Tile] = [:]
            if job.resampled {
                let need = TileGrid.sourceKeys(job.placement, for: TileGrid.rect(of: job.key).intersection(job.placement.extent))
                for key in need {
                    if let t = store.freshTile(key, frame: frame) { sources[key] = t; continue }
                    let src = TileJob(key: key, placement: job.placement, content: job.content, resampled: false)
                    let t = TileProducer.makeTile(src, sources: [:])
                    statistics.recordDrawn(key)
                    _ = store.keepAhead(key, t, behind: frame)
                    store.markUpToDate(key)
                    sources[key] = t
                }
            }
            let tile = TileProducer.makeTile(job, sources: sources)
            if job.resampled { statistics.tilesResampled += 1 } else {
                statistics.recordDrawn(job.key)
            }
            statistics.tilesPrefetched += 1
            made += 1
            // Prefetched tiles rank below the visible ones, and never push them out.
            if !store.keepAhead(job.key, tile, behind: frame) {
                queue.removeAll()
            } else if replacing {
                store.markRefreshed(job.key)
            }
        }
        return made
    }
}
