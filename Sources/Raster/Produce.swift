// The produce stage: the tiles a frame's repaint needs that are not cached, drawn by their
// content views or resampled from drawn tiles to an exact zoom scale, on several cores when
// the content allows it, and kept in the store.
import Foundation

/// A tile to produce: drawn by its content view, or resampled from drawn tiles.
struct TileJob {
    var key: TileKey
    var placement: ContentPlacement
    var content: any TiledContent
    /// True for a tile at an exact zoom scale made from `placement.sourceLevel` tiles.
    var resampled: Bool
}

/// What a frame's production made, for the statistics.
struct ProducedTiles: Equatable {
    /// Tiles drawn by content views, in the order they were asked for.
    var drawn: [TileKey] = []
    /// Number of tiles resampled to an exact zoom scale.
    var resampled = 0
}

/// Produces the tiles of one frame's repaint.
struct TileProducer {
    /// Where tiles are looked up (marked as used in `frame`) and kept.
    let store: TileStore
    let frame: UInt64
    /// The frame's tiled content views, by serial.
    let contents: [UInt64: any TiledContent]
    /// Threads that may draw and resample at once.
    let workers: Int
    /// Memory written ahead for the tiles made (see `TileMemory`); nil: fresh memory.
    var memory: TileMemory? = nil

    /// Looks up or produces every tile that painting `items` over `repaint` needs (sharp cells,
    /// and the level tiles zoom frames scale, but for cells shown by a stand-in), adding them
    /// to `tiles`; the tiles the plan chose (cached ones, stand-ins) are there already.
    func produce(for repaint: PixelRegion, items: [DisplayItem], into tiles: inout [TileKey: Tile]) -> ProducedTiles {
        var drawJobs: [TileJob] = [], resampleJobs: [TileJob] = []
        var queued = Set<TileKey>()

        // Uses the cached tile (a stale one only if the plan chose to show it), or queues it
        // to be made.
        func need(_ key: TileKey, _ p: ContentPlacement, resampled: Bool, into jobs: inout [TileJob]) {
            if tiles[key] != nil || queued.contains(key) { return }
            if let t = store.freshTile(key, frame: frame) { tiles[key] = t; return }
            guard let content = contents[p.view] else { return }
            queued.insert(key)
            jobs.append(TileJob(key: key, placement: p, content: content, resampled: resampled))
        }

        for item in items {
            guard case .content(let p) = item.kind else { continue }
            for r in repaint.rects {
                let visible = r.intersection(item.bounds).offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
                guard !visible.isEmpty else { continue }
                if (p.transient || p.paintsLevel) && p.standIns.isEmpty {
                    for key in TileGrid.sourceKeys(p, for: visible) { need(key, p, resampled: false, into: &drawJobs) }
                    continue
                }
                for key in TileGrid.cells(of: visible, view: p.view, scale: p.scale)
                where p.standIns[CellIndex(column: key.column, row: key.row)] == nil {
                    if p.transient {
                        // A zoom frame's cell that is not stood in for: its level's tiles.
                        for source in TileGrid.sourceKeys(p, for: TileGrid.rect(of: key).intersection(visible)) {
                            need(source, p, resampled: false, into: &drawJobs)
                        }
                    } else if p.sourceLevel != nil {
                        need(key, p, resampled: true, into: &resampleJobs)
                    } else {
                        need(key, p, resampled: false, into: &drawJobs)
                    }
                }
            }
        }
        // Resampled tiles need their source tiles first.
        for job in resampleJobs {
            for key in TileGrid.sourceKeys(job.placement, for: TileGrid.rect(of: job.key).intersection(job.placement.extent)) {
                need(key, job.placement, resampled: false, into: &drawJobs)
            }
        }
        var made = ProducedTiles()
        for jobs in [drawJobs, resampleJobs] {
            for (job, tile) in zip(jobs, make(jobs, using: tiles)) {
                tiles[job.key] = tile
                store.keep(job.key, tile, frame: frame)
                if job.resampled { made.resampled += 1 } else { made.drawn.append(job.key) }
            }
        }
        return made
    }

    /// Draws or resamples tiles, on several cores when the content allows it.
    private func make(_ jobs: [TileJob], using tiles: [TileKey: Tile]) -> [Tile] {
        guard !jobs.isEmpty else { return [] }
        let concurrent = jobs.allSatisfy { $0.resampled || $0.content.drawsConcurrently }
        return Parallel.map(jobs.count, workers: concurrent ? workers : 1) { i in
            Self.makeTile(jobs[i], sources: tiles, memory: memory)
        }
    }

    /// Produces one tile: pure with respect to the renderer (safe on any thread).
    static func makeTile(_ job: TileJob, sources: [TileKey: Tile], memory: TileMemory? = nil) -> Tile {
        makeTile(key: job.key, placement: job.placement, resampled: job.resampled, sources: sources, memory: memory,
                 stored: job.resampled ? nil : job.content.storedPixels(scale: job.key.scale)) { rect, scale, fb in
            job.content.draw(rect, scale: scale, into: fb)
        }
    }

    /// Produces the tile `key` of `placement`: resampled from `sources`, a window onto
    /// `stored` (the content's own pixels at the tile's scale) when they hold all it shows, or
    /// drawn by `draw` (the content's drawing). Pure with respect to the renderer (safe on any
    /// thread when `draw` is).
    static func makeTile(key: TileKey, placement p: ContentPlacement, resampled: Bool, sources: [TileKey: Tile],
                         memory: TileMemory? = nil, stored: StoredPixels? = nil,
                         draw: (PixelRect, Double, Framebuffer) -> Void) -> Tile {
        let cell = TileGrid.rect(of: key)
        if !resampled, let stored {
            let valid = cell.intersection(p.sourceExtentFor(scale: key.scale))
            if !valid.isEmpty, valid.maxX <= stored.framebuffer.width, valid.maxY <= stored.framebuffer.height {
                let window = Tile.window(onto: stored, cell: cell)
                let local = valid.offsetBy(dx: -cell.x, dy: -cell.y)
                return Tile(borrowing: stored, window: window, isOpaque: p.opaque || window.isOpaque(in: local))
            }
        }
        let owned = memory?.tile() ?? OwnedFramebuffer(width: TileGrid.size, height: TileGrid.size)!
        let opaque = owned.withFramebuffer { fb in
            let valid: PixelRect
            if resampled {
                valid = cell.intersection(p.extent)
                TileGrid.resample(p, output: valid, sources: sources, into: fb, at: (valid.x - cell.x, valid.y - cell.y),
                                  blend: false)
            } else {
                draw(cell, key.scale, fb)
                valid = cell.intersection(p.sourceExtentFor(scale: key.scale))
            }
            let local = valid.offsetBy(dx: -cell.x, dy: -cell.y)
            // Content that promises opacity is taken at its word (blits stay inside `valid`);
            // other tiles are scanned, so opaque photos in translucent views still copy.
            return !local.isEmpty && (p.opaque || fb.isOpaque(in: local))
        }
        return Tile(pixels: owned, isOpaque: opaque)
    }
}
