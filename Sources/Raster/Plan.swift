// The plan stage: which cells of each content view a frame shows as placed (sharp, or in a
// zoom frame scaled from its level) and which it shows scaled from a stand-in level, under
// the frame's tile budget, and the cached tiles the cells use. Decided before the damage is worked out: it is part of what the frame shows.
import Foundation

/// What a frame shows, decided before anything is drawn.
struct CellPlan {
    /// The display list, with the stand-in cells written into the content placements.
    var items: [DisplayItem]
    /// Cached tiles the cells use, held for the frame (tiles to make follow in `TileProducer`).
    var tiles: [TileKey: Tile]
    /// Device pixels of the cells whose stale tiles are made again this frame or were by prefetch.
    var remade: PixelRegion
    /// Some cell shows provisional pixels (a stand-in, or a stale tile left for later): the
    /// frame after must come to sharpen it.
    var provisional: Bool
}

/// Plans the cells of one frame.
struct CellPlanner {
    /// The cached tiles; looking one up marks it as used in `frame`.
    let store: TileStore
    let frame: UInt64
    /// The cached tiles that are out of date.
    let stale: Set<TileKey>
    /// Most tiles the frame makes for content that has a stand-in (at least 1).
    let maxTiles: Int
    /// Stale tiles replaced by prefetch since the last frame.
    let refreshed: Set<TileKey>
    /// Views refined during this frame's walk.
    let refined: Set<UInt64>
    /// The tiles handed to the background worker after the last frame.
    let submitted: Set<TileKey>
    /// Whether a background worker draws prefetched tiles.
    let backgroundPrefetch: Bool
    /// The frame's tiled content views, by serial.
    let contents: [UInt64: any TiledContent]

    /// Decides for every visible cell of content whether this frame shows it as planned or
    /// scales a stand-in level's cached tiles. For settled content, missing sharp tiles (with
    /// the source tiles they are resampled from) are counted against `maxTiles` nearest the
    /// middle of each view first, and those over it that have a stand-in show it; stale tiles
    /// over it go on showing as they are. A zoom frame (`transient`) scales its level's tiles
    /// afresh: those missing count against the same budget (its first cell is not made
    /// regardless), and a cell over it shows a stand-in level, or its level's stale tiles,
    /// until they are made. Returns the items with
    /// their stand-ins and the cached tiles the cells use (made tiles follow for the repaint
    /// only: a cell that stays sharp and undamaged is not drawn again, even if its tile was
    /// dropped).
    func plan(_ items: [DisplayItem]) -> CellPlan {
        var items = items
        var tiles: [TileKey: Tile] = [:]
        var remade = PixelRegion()
        var provisional = false
        var planned = Set<TileKey>()
        // Tiles counted so far; the first cell is always made, however many tiles it costs,
        // so that every frame sharpens something.
        var spent = 0
        let limit = max(maxTiles, 1)

        // Whether the tile is cached and up to date (and now held for the frame).
        func cached(_ key: TileKey) -> Bool {
            if tiles[key] != nil { return true }
            guard !stale.contains(key), let t = store.anyTile(key, frame: frame) else { return false }
            tiles[key] = t
            return true
        }
        // Whether the tile will be there: cached, or counted against the budget already.
        func have(_ key: TileKey) -> Bool { planned.contains(key) || cached(key) }

        for i in items.indices {
            guard case .content(var p) = items[i].kind else { continue }
            let visible = items[i].bounds.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            guard !visible.isEmpty else { continue }
            // Distances from the middle in doubled pixels, so that they stay integers.
            let mx = 2 * visible.x + visible.width, my = 2 * visible.y + visible.height
            func distance(_ k: TileKey) -> Int {
                let t = TileGrid.size
                let dx = (2 * k.column + 1) * t - mx, dy = (2 * k.row + 1) * t - my
                return dx * dx + dy * dy
            }
            func middleFirst(_ keys: [TileKey]) -> [TileKey] {
                keys.sorted { (distance($0), $0.row, $0.column) < (distance($1), $1.row, $1.column) }
            }
            // The backstop's tiles count as used while the content shows: never evicted first.
            if let backstop = p.backstop {
                for key in TileGrid.cells(of: backstop.extent, view: p.view, scale: LevelPolicy.levelScale(backstop.level)) {
                    _ = cached(key)
                }
            }
            if p.transient || p.paintsLevel {
                for key in middleFirst(TileGrid.cells(of: visible, view: p.view, scale: p.scale)) {
                    let cell = TileGrid.rect(of: key).intersection(visible)
                    if p.paintsLevel {
                        // Its level's tiles show the content's stored pixels: made at the cost of
                        // a lookup, never stood in for, not counted. A stale one made again now,
                        // or by prefetch since the last frame, changes the cell's pixels.
                        let all = TileGrid.sourceKeys(p, for: cell)
                        if all.contains(where: { stale.contains($0) || refreshed.contains($0) }) {
                            remade.add(cell.offsetBy(dx: p.originX, dy: p.originY))
                        }
                        planned.formUnion(all.filter { !have($0) })
                        continue
                    }
                    let sources = TileGrid.sourceKeys(p, for: cell).filter { !have($0) }
                    guard !sources.isEmpty else { continue }
                    // No cell is made regardless here: a zoom frame is provisional anyway, and
                    // its first cell's tiles (up to 3×3) over a 4K window's budget of 2 made the
                    // first frames of a zoom late (17–21 ms against 8–11).
                    if sources.count > limit - spent {
                        // Stale tiles are right where they are, only less detailed.
                        let old = sources.compactMap { key in stale.contains(key) ? store.anyTile(key, frame: frame) : nil }
                        if old.count == sources.count {
                            for (key, tile) in zip(sources, old) { tiles[key] = tile }
                            provisional = true
                            continue
                        }
                        if let level = LevelPolicy.standIn(for: cell, p, isCached: cached) {
                            p.standIns[CellIndex(column: key.column, row: key.row)] = level
                            continue
                        }
                    }
                    spent += sources.count
                    planned.formUnion(sources)
                }
            } else {
                // The device pixels of a cell, where it shows.
                func shown(_ key: TileKey) -> PixelRect {
                    TileGrid.rect(of: key).intersection(visible).offsetBy(dx: p.originX, dy: p.originY)
                }
                let missing = TileGrid.cells(of: visible, view: p.view, scale: p.scale).filter { !have($0) }
                for key in refreshed where key.view == p.view && key.scale == p.scale { remade.add(shown(key)) }
                guard !missing.isEmpty else { continue }
                // Stale tiles look right, only less detailed: with a background worker they are
                // left to it when it has them queued (or the content was refined just now and can
                // be drawn there), and the frames meanwhile only adopt what it finishes.
                let workerDraws = backgroundPrefetch && !stale.isEmpty &&
                    (refined.contains(p.view) ? contents[p.view]?.concurrentDrawing() != nil : true)
                for key in middleFirst(missing) {
                    var sources: [TileKey] = []
                    if p.sourceLevel != nil {
                        sources = TileGrid.sourceKeys(p, for: TileGrid.rect(of: key).intersection(p.extent)).filter { !have($0) }
                    }
                    let cost = 1 + sources.count
                    let isStale = stale.contains(key)
                    if isStale, workerDraws, refined.contains(p.view) || submitted.contains(key),
                       let old = store.anyTile(key, frame: frame) {
                        tiles[key] = old
                        provisional = true
                        continue
                    }
                    if spent > 0, cost > limit - spent {
                        if isStale, let old = store.anyTile(key, frame: frame) {
                            // Out of date but right where it is: shown until it is made again.
                            tiles[key] = old
                            provisional = true
                            continue
                        }
                        if let level = LevelPolicy.standIn(for: TileGrid.rect(of: key).intersection(visible), p, isCached: cached) {
                            p.standIns[CellIndex(column: key.column, row: key.row)] = level
                            continue
                        }
                    }
                    spent += cost
                    planned.formUnion(sources)
                    planned.insert(key)
                    if isStale { remade.add(shown(key)) }
                }
            }
            if !p.standIns.isEmpty {
                provisional = true
                items[i].kind = .content(p)
            }
        }
        return CellPlan(items: items, tiles: tiles, remade: remade, provisional: provisional)
    }
}
