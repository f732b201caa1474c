// The prefetch plan: after a frame, which tiles to make ahead of need and in which order: the
// cells the frame left provisional, the zoom's next level, the rings a scroll reaches next and
// the content just outside the window. Reads the store, changes nothing.
import Foundation

/// Plans the tiles to make after one frame.
struct PrefetchPlanner {
    /// Frames of motion the prefetch ring looks ahead: 8 (133 ms at 60 Hz, decision: about the
    /// time a fling takes to cross a tile at speed), so it holds the tiles the last frame's
    /// motion would reveal by then.
    static let lookaheadFrames = 8
    /// Deepest prefetch ring, in tiles: 4 (decision; 4 rows of a 1080p window are 44 tiles).
    static let maxRings = 4

    /// The cached tiles: those missing or stale are worth making.
    let store: TileStore

    /// The jobs, in order: the sharp tiles of cells shown by stand-ins (in a zoom frame, the
    /// tiles of its level they wait for) and the visible stale tiles; the backstop tiles of
    /// the content shown; during a zoom, the tiles of the level the scale settles on and of
    /// the zoom's own level around what shows; the missing tiles in rings beyond each settled
    /// content view's visible tiles, on the side it last scrolled towards (all sides, one ring,
    /// before it first scrolls), as many rings as the last frame's motion covers in
    /// `lookaheadFrames` frames; then the backstop and the tiles of content just outside
    /// `window` (a pager's next page), nearest the window first.
    func plan(items: [DisplayItem], contents: [UInt64: any TiledContent], histories: [UInt64: ViewHistory],
              nearby: [NearbyContent], window: PixelRect) -> [TileJob] {
        var jobs: [TileJob] = []
        var queued = Set<TileKey>()
        // A tile of `p`'s grid at its scale (resampled from its level when it has one), or
        // with `drawn`, a tile of the level itself.
        func add(_ key: TileKey, _ p: ContentPlacement, _ content: any TiledContent, drawn: Bool = false) {
            guard store.wants(key), queued.insert(key).inserted else { return }
            jobs.append(TileJob(key: key, placement: p, content: content, resampled: !drawn && p.sourceLevel != nil))
        }
        func addBackstop(of p: ContentPlacement, _ content: any TiledContent) {
            guard let backstop = p.backstop else { return }
            let level = p.scaled(from: backstop)
            for key in TileGrid.cells(of: backstop.extent, view: p.view, scale: level.sourceScale) {
                add(key, level, content, drawn: true)
            }
        }
        let t = TileGrid.size
        for item in items {
            guard case .content(let p) = item.kind, let content = contents[p.view] else { continue }
            for cell in p.standIns.keys.sorted(by: { ($0.row, $0.column) < ($1.row, $1.column) }) {
                let key = TileKey(view: p.view, scale: p.scale, column: cell.column, row: cell.row)
                guard p.transient else {
                    add(key, p, content)
                    continue
                }
                // A zoom frame's cell waits for its level's tiles, not for a tile at a scale
                // the next frame leaves.
                for source in TileGrid.sourceKeys(p, for: TileGrid.rect(of: key).intersection(p.extent)) {
                    add(source, p, content, drawn: true)
                }
            }
            // Visible stale tiles of settled content.
            let visible = item.bounds.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            guard !p.transient, !p.paintsLevel, !store.staleTiles.isEmpty, !visible.isEmpty else { continue }
            for key in TileGrid.cells(of: visible, view: p.view, scale: p.scale) where store.isStale(key) {
                add(key, p, content)
            }
        }
        // The backstops of the content on screen (a few tiles each, drawn once).
        for item in items {
            guard case .content(let p) = item.kind, let content = contents[p.view] else { continue }
            addBackstop(of: p, content)
        }
        // A zoom under way: the tiles of the level the scale will settle on (its sharp tiles'
        // sources, and what the zoom switches to once the scale has doubled or halved), then
        // the zoom's own level one tile around what shows (what zooming out reveals); each
        // from the middle out.
        for item in items {
            guard case .content(let p) = item.kind, p.transient, let content = contents[p.view] else { continue }
            let visible = item.bounds.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            guard !visible.isEmpty else { continue }
            let grown = PixelRect(x: visible.x - t, y: visible.y - t, width: visible.width + 2 * t, height: visible.height + 2 * t)
                .intersection(p.extent)
            var passes: [(ContentPlacement, PixelRect)] = []
            if let settling = p.settlingLevel, settling.level != p.sourceLevel, !settling.extent.isEmpty {
                passes.append((p.scaled(from: settling), visible))
            }
            passes.append((p, grown))
            for (source, area) in passes {
                let rect = TileGrid.sourceRect(source, for: area)
                let mx = 2 * rect.x + rect.width, my = 2 * rect.y + rect.height
                let keys = TileGrid.cells(of: rect, view: p.view, scale: source.sourceScale).sorted { a, b in
                    func d(_ k: TileKey) -> Int {
                        let dx = (2 * k.column + 1) * t - mx, dy = (2 * k.row + 1) * t - my
                        return dx * dx + dy * dy
                    }
                    return (d(a), a.row, a.column) < (d(b), b.row, b.column)
                }
                for key in keys { add(key, source, content, drawn: true) }
            }
        }
        for item in items {
            guard case .content(let p) = item.kind, !p.transient, !p.paintsLevel, let content = contents[p.view],
                  let history = histories[p.view] else { continue }
            let visible = item.bounds.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            guard !visible.isEmpty else { continue }
            for key in Self.ring(around: visible, within: p.extent, history: history) {
                add(TileKey(view: p.view, scale: p.scale, column: key.column, row: key.row), p, content)
            }
        }
        // Content outside the window, by its distance from it, each cell nearest the window first.
        func gap(_ r: PixelRect) -> Int {
            let dx = max(window.x - r.maxX, r.x - window.maxX, 0), dy = max(window.y - r.maxY, r.y - window.maxY, 0)
            return max(dx, dy)
        }
        for n in nearby.sorted(by: { gap($0.reachable) < gap($1.reachable) }) {
            let p = n.placement
            addBackstop(of: p, n.content)
            let area = n.reachable.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            if p.paintsLevel {
                // Its level's tiles, which hold no memory of their own.
                for key in TileGrid.sourceKeys(p, for: area) { add(key, p, n.content, drawn: true) }
                continue
            }
            let cells = TileGrid.cells(of: area, view: p.view, scale: p.scale)
                .map { (gap(TileGrid.rect(of: $0).offsetBy(dx: p.originX, dy: p.originY)), $0) }
                .sorted { ($0.0, $0.1.row, $0.1.column) < ($1.0, $1.1.row, $1.1.column) }
            for (_, key) in cells { add(key, p, n.content) }
        }
        return jobs
    }

    /// The cells beyond the ones covering `visible` (content pixels), within `extent`, that a
    /// scroll reaches next given the content's `history`, nearest ring first: on the side(s)
    /// it last moved towards, as many rings as its last motion covers in `lookaheadFrames`
    /// frames (at most `maxRings`); one ring all round before it first moves.
    static func ring(around visible: PixelRect, within extent: PixelRect, history: ViewHistory) -> [CellIndex] {
        let t = TileGrid.size
        let c0 = floorDiv(visible.x, t), c1 = floorDiv(visible.maxX - 1, t)
        let r0 = floorDiv(visible.y, t), r1 = floorDiv(visible.maxY - 1, t)
        func rings(_ motion: Int) -> Int {
            min(max(1, (motion * lookaheadFrames + t - 1) / t), maxRings)
        }
        let ahead = history.ahead
        let all = ahead == (0, 0)
        let across = rings(history.motion.x), down = rings(history.motion.y)
        // The visible tiles grown on the side(s) ahead, kept inside the content.
        let cLo = max(c0 - (all ? 1 : ahead.x < 0 ? across : 0), floorDiv(extent.x, t))
        let cHi = min(c1 + (all ? 1 : ahead.x > 0 ? across : 0), floorDiv(extent.maxX - 1, t))
        let rLo = max(r0 - (all ? 1 : ahead.y < 0 ? down : 0), floorDiv(extent.y, t))
        let rHi = min(r1 + (all ? 1 : ahead.y > 0 ? down : 0), floorDiv(extent.maxY - 1, t))
        guard cLo <= cHi, rLo <= rHi else { return [] }
        // Nearest ring first: the tiles the motion reaches soonest.
        var ring: [(distance: Int, row: Int, column: Int)] = []
        for row in rLo...rHi {
            for column in cLo...cHi where !(r0...r1).contains(row) || !(c0...c1).contains(column) {
                let dx = column < c0 ? c0 - column : column > c1 ? column - c1 : 0
                let dy = row < r0 ? r0 - row : row > r1 ? row - r1 : 0
                ring.append((max(dx, dy), row, column))
            }
        }
        ring.sort { ($0.distance, $0.row, $0.column) < ($1.distance, $1.row, $1.column) }
        return ring.map { CellIndex(column: $0.column, row: $0.row) }
    }
}
