// The renderer's memory of tiles between frames: the cache, which cached tiles are out of
// date, which of those were replaced ahead of the next frame, and each content view's
// generation (so that tiles drawn from an older drawing are never adopted).
import Foundation
import ScrollKit

/// Cached tiles and what is known about them. Used from the renderer's thread only.
final class TileStore {
    /// Bytes of one tile's pixels.
    static let tileBytes = TileGrid.size * TileGrid.size * 4
    /// The tiles, least recently used first out.
    let cache: TileCache
    /// Cached tiles of refined content that are out of date (`TiledContent.takeRefinement`):
    /// shown as they are until a frame's budget or the prefetcher makes them again, never
    /// used to make other tiles.
    private var stale = Set<TileKey>()
    /// Stale tiles replaced since the last frame (by prefetch): their cells changed.
    private var refreshed = Set<TileKey>()
    /// Content generation by view serial: bumped whenever the view's tiles are dropped.
    private var generations: [UInt64: UInt64] = [:]

    /// A store whose cache keeps at most `budget` bytes.
    init(budget: Int) {
        cache = TileCache(budget: max(budget, 0))
    }

    // MARK: Views

    /// Starts the generations of a view the renderer met for the first time.
    func register(_ serial: UInt64) {
        generations[serial] = 0
    }

    /// Forgets a view that is gone (or whose serial was replaced): its tiles and generation.
    func forget(_ serial: UInt64) {
        cache.removeAll { $0.view == serial }
        generations[serial] = nil
    }

    /// The generation of `serial`'s drawing, nil for a view not registered.
    func generation(of serial: UInt64) -> UInt64? { generations[serial] }

    /// Drops cached tiles of `serial` that show any point of `rect` (bounds coordinates; nil
    /// is everything), with a margin for the resampling filters' reach.
    func invalidate(_ serial: UInt64, rect: CGRect?) {
        defer { generations[serial]? &+= 1 }
        guard let rect else { return cache.removeAll { $0.view == serial } }
        let size = Double(TileGrid.size)
        cache.removeAll { key in
            guard key.view == serial else { return false }
            let s = key.scale
            // Filters read up to two source pixels of at most 2/s points beyond a tile.
            let margin = 5 / s
            let x0 = Double(key.column) * size / s - margin, x1 = Double(key.column + 1) * size / s + margin
            let y0 = Double(key.row) * size / s - margin, y1 = Double(key.row + 1) * size / s + margin
            return Double(rect.maxX) > x0 && Double(rect.minX) < x1 && Double(rect.maxY) > y0 && Double(rect.minY) < y1
        }
    }

    /// Marks the cached tiles of `serial` made from pixels above scale `unchangedUpTo` as
    /// stale: the content was refined (`TiledContent.takeRefinement`).
    /// Tiles that show the content's stored pixels are dropped instead (and reported with the
    /// refreshed ones, so that the next frame repaints their cells): they would keep the old
    /// rendition's memory alive (a full picture the gallery let go of) for a few cells.
    func refine(_ serial: UInt64, keepingUpTo unchangedUpTo: Double, outputScale: Double) {
        for key in cache.keys(where: {
            $0.view == serial && LevelPolicy.drawnScale(ofTile: $0.scale, outputScale: outputScale) > unchangedUpTo
        }) {
            if cache.peek(key)?.isBorrowed == true {
                cache.remove(key)
                refreshed.insert(key)
            } else {
                stale.insert(key)
            }
        }
        generations[serial]? &+= 1
    }

    // MARK: Tiles

    /// Whether a tile is cached (up to date or not), without counting as a use.
    func contains(_ key: TileKey) -> Bool { cache.contains(key) }

    /// The cached tiles that are out of date, as a value (a frame's plan reads it once per
    /// visible cell: from the store, each read was a dynamic exclusivity check, 1% of an
    /// idle frame).
    var staleTiles: Set<TileKey> { stale }

    /// Whether a cached tile is out of date.
    func isStale(_ key: TileKey) -> Bool { stale.contains(key) }

    /// Whether a tile is worth making ahead of need: not cached, or cached but out of date.
    func wants(_ key: TileKey) -> Bool { !cache.contains(key) || stale.contains(key) }

    /// The cached tile, up to date, marked as used in `frame`; nil when missing or stale.
    func freshTile(_ key: TileKey, frame: UInt64) -> Tile? {
        guard !stale.contains(key) else { return nil }
        return cache.lookup(key, frame: frame)
    }

    /// The cached tile if up to date, without counting as a use.
    func peekFresh(_ key: TileKey) -> Tile? {
        guard !stale.contains(key) else { return nil }
        return cache.peek(key)
    }

    /// The cached tile, up to date or not, marked as used in `frame`.
    func anyTile(_ key: TileKey, frame: UInt64) -> Tile? { cache.lookup(key, frame: frame) }

    /// Keeps a tile made for `frame`: it is up to date, and may push out older tiles.
    func keep(_ key: TileKey, _ tile: Tile, frame: UInt64) {
        cache.insert(key, tile, frame: frame)
        stale.remove(key)
    }

    /// Keeps a tile made ahead of need, ranked below the tiles `frame` used and never pushing
    /// them out; false when it does not fit.
    func keepAhead(_ key: TileKey, _ tile: Tile, behind frame: UInt64) -> Bool {
        cache.insert(key, tile, frame: max(frame, 1) - 1, protectFrom: frame)
    }

    /// How many more tiles fit without pushing out any tile `frame` used.
    func roomAhead(behind frame: UInt64) -> Int {
        cache.spareBytes(protectFrom: frame) / Self.tileBytes
    }

    /// Whether one more tile fits without pushing out any tile `frame` used.
    func hasRoomAhead(behind frame: UInt64) -> Bool {
        cache.canFit(Self.tileBytes, protectFrom: frame)
    }

    /// Notes that a tile was made again ahead of need: it is up to date.
    func markUpToDate(_ key: TileKey) {
        stale.remove(key)
    }

    /// Notes that a stale tile was replaced ahead of the next frame, which repaints its cell.
    func markRefreshed(_ key: TileKey) {
        stale.remove(key)
        refreshed.insert(key)
    }

    /// The stale tiles replaced since the last call.
    func takeRefreshed() -> Set<TileKey> {
        defer { refreshed.removeAll() }
        return refreshed
    }

    /// Forgets stale marks of tiles no longer cached.
    func dropEvictedStale() {
        if !stale.isEmpty { stale = stale.filter(cache.contains) }
    }
}
