// The compositor: walks the view tree, works out what changed since the target buffer was
// last drawn, fetches or draws the tiles that intersect it, and paints only that.
import Foundation
import ScrollKit

/// Counters describing the renderer's work, for tests, logs and benchmarks.
public struct RenderStatistics: Sendable, Equatable {
    /// Frames rendered.
    public var frames = 0
    /// Tiles drawn by content views, in total.
    public var tilesDrawn = 0
    /// Tiles resampled to an exact zoom scale and cached, in total.
    public var tilesResampled = 0
    /// Tiles drawn or resampled ahead of need by `prefetch`, in total.
    public var tilesPrefetched = 0
    /// The tiles most recently drawn by content views (including prefetch), oldest first: at
    /// least the last `drawnKeysLimit`, never twice as many, so a window open for days does
    /// not grow.
    public var drawnKeys: [TileKey] = []
    /// How many entries `drawnKeys` keeps.
    public var drawnKeysLimit = 4096

    mutating func recordDrawn(_ key: TileKey) {
        tilesDrawn += 1
        drawnKeys.append(key)
        // Trim in batches so that appending stays amortised O(1).
        if drawnKeys.count >= 2 * max(drawnKeysLimit, 1) { drawnKeys.removeFirst(drawnKeys.count - drawnKeysLimit) }
    }
    /// Pixels painted by the last frame.
    public var lastFramePaintedPixels = 0
}

/// Renders a view tree into framebuffers, one frame at a time, redrawing only what changed.
///
/// Use from one thread. A host keeps one renderer per window and calls
/// `render(_:into:bufferAge:)` whenever the tree asks for a frame; after a frame, it renders
/// again while `needsFollowUpFrame` is true and may call `prefetch(maxTiles:)` while it is idle.
public final class Renderer {
    /// Tile edge in device pixels: 256 (issue 6), confirmed by raster-bench: one-core 1080p
    /// composition took 1.42× memcpy with 128-pixel tiles (more, shorter row copies), 1.11× with
    /// 256 and 1.14× with 512, whose tiles also draw four times the pixels past the visible edge.
    public static let tileSize = 256
    /// Default cache budget: 192 MiB, about six 4K screenfuls of tiles (design decision).
    public static let defaultBudget = 192 << 20
    /// Zoom levels are clamped to 2^-16 ... 2^16 device pixels per point: beyond, views are
    /// sub-pixel or a single point fills the screen many times over.
    static let levelRange = -16...16
    /// Scales at which tiled content is drawn: within √2 of a level. Beyond, a view is far
    /// below a pixel or one point covers thousands of screens; only its background shows, so
    /// no filter ever averages millions of source pixels into one.
    static let drawableScales = levelScale(levelRange.lowerBound) / 2.0.squareRoot()...levelScale(levelRange.upperBound) * 2.0.squareRoot()
    /// Damage of this many past frames is kept, for buffer ages up to that (Wayland hosts
    /// rotate 2–4 buffers).
    static let historyLength = 8
    /// Recursion depth of occlusion culling; deeper, items are simply drawn in order.
    static let occlusionDepth = 8
    /// Output rows resampled at once while zooming, bounding the gathered source pixels.
    static let transientBand = 64
    /// Bands a large repaint is cut into per thread: 4 (decision: enough for threads that come
    /// free at different times to share the rest; each band of a 1080p frame still spans
    /// about 135 rows).
    static let bandsPerWorker = 4

    /// Device pixels per point of the output (the Wayland buffer scale, possibly fractional).
    /// A change repaints the whole next frame at the new scale, drawn sharp at once: tiles are
    /// keyed by their scale, so none drawn at the old one is reused.
    public var outputScale: Double = 1 {
        didSet {
            guard outputScale != oldValue else { return }
            targetSize = nil
            // Not a zoom: no provisional frame resampled from tiles of the old scale.
            for r in records.values { r.lastScale = nil }
        }
    }
    /// Premultiplied colour under the root view.
    public var clearColor: UInt32 = 0xFF00_0000
    /// Repaints of at least this many pixels are split across cores. Measured with
    /// `raster-bench --only threshold` on two cores: composing 512² pixels on both took 0.87–1.04×
    /// the one-core time, 724² 0.77–1.02×, 1024² 0.59–0.70×, a 4K frame 0.6×; below about half a
    /// megapixel the hand-off costs what it saves.
    public var parallelMinimumPixels = 500_000
    /// Threads used for drawing tiles and painting large frames (1 disables parallelism).
    public var workers = Parallel.cores
    /// Most tiles a frame draws or resamples for content that has a stand-in: cached tiles of
    /// another level (the one a zoom just showed, or a coarser one) that can be scaled in the
    /// meantime. Cells over the budget show the stand-in, blurred, and sharpen in later frames
    /// (`needsFollowUpFrame`), nearest the middle of the view first. Tiles without a stand-in
    /// are always made, so nothing is ever left blank, and so is the first cell of a frame
    /// (values below 1 count as 1). Unlimited by default.
    public var maxTilesPerFrame = Int.max

    /// Most bytes of tile pixels the cache keeps (0 keeps nothing between frames).
    public var cacheBudget: Int {
        get { cache.budget }
        set { cache.budget = max(newValue, 0) }
    }
    /// Bytes of tile pixels currently cached (never above `cacheBudget`).
    public var cacheBytes: Int { cache.bytes }
    /// Number of cached tiles.
    public var cachedTileCount: Int { cache.count }
    /// Work counters.
    public var statistics = RenderStatistics()
    /// True when the last frame showed provisional pixels (tiles scaled during a zoom, or
    /// stand-ins for tiles over `maxTilesPerFrame`): render again to replace them with sharp ones.
    public private(set) var needsFollowUpFrame = false
    /// Number of the frame most recently rendered (0 before the first). A host stores it with
    /// each buffer it renders into, and later passes `bufferAge(holding:)` of that number.
    public var lastFrame: UInt64 { frame }

    /// The age to pass to `render` for a buffer that holds frame `number` (nil: a fresh buffer
    /// or unknown contents, age 0). The next frame is `lastFrame + 1`, so a buffer drawn by the
    /// last frame has age 1.
    public func bufferAge(holding number: UInt64?) -> Int {
        guard let number, number >= 1, number <= frame else { return 0 }
        return Int(clamping: frame - number + 1)
    }

    /// Whether `prefetch(maxTiles:)` has tiles to draw.
    public var hasPrefetchWork: Bool { !prefetchQueue.isEmpty }

    /// Draw tiles ahead of need on a background thread between frames (content that offers
    /// a `concurrentDrawing`), instead of waiting for the host to call `prefetch`: tiles it
    /// finishes join the cache when the next frame starts, and count in
    /// `statistics.tilesPrefetched` only. Off by default, so that tile counts stay exact in
    /// tests; `ViewScene` turns it on.
    public var prefetchesInBackground = false {
        didSet {
            guard prefetchesInBackground != oldValue else { return }
            if !prefetchesInBackground { worker?.submit([]) }
        }
    }

    /// Waits until the background prefetch has drawn everything planned after the last frame
    /// (or `timeout` seconds passed); true when it has. For tests and benchmarks.
    @discardableResult
    public func waitForBackgroundPrefetch(timeout: Double) -> Bool {
        worker?.waitUntilIdle(timeout: timeout) ?? true
    }

    private let cache: TileCache
    private var records: [ObjectIdentifier: ViewRecord] = [:]
    private var nextSerial: UInt64 = 1
    private var frame: UInt64 = 0
    private var items: [DisplayItem] = []
    /// The tiled content views of the last frame's display list, by serial.
    private var contents: [UInt64: (content: any TiledContent, record: ViewRecord)] = [:]
    private var history: [PixelRegion] = []
    private var targetSize: (width: Int, height: Int)?
    private var prefetchQueue: [TileJob] = []
    /// Content just outside the window in the last frame (see `ListBuilder.nearby`).
    private var nearby: [NearbyContent] = []
    /// Memory the painting of a frame's pieces gathers resampling sources into.
    private var scratches: [ScratchPixels] = []
    /// The background prefetcher, made when first needed.
    private var worker: PrefetchWorker?
    /// Content generation by view serial: bumped whenever the view's tiles are dropped, so
    /// that tiles drawn in the background from an older drawing are not adopted.
    private var generations: [UInt64: UInt64] = [:]
    /// Cached tiles of refined content that are out of date (`TiledContent.takeRefinement`):
    /// shown as they are until a frame's budget or the prefetcher makes them again, never
    /// used to make other tiles.
    private var stale = Set<TileKey>()
    /// Stale tiles replaced since the last frame (by prefetch): their cells changed.
    private var refreshed = Set<TileKey>()
    /// Views refined during this frame's visit.
    private var justRefined = Set<UInt64>()
    /// The tiles handed to the background worker after the last frame.
    private var submittedKeys = Set<TileKey>()

    /// Creates a renderer whose tile cache keeps at most `cacheBudget` bytes.
    public init(cacheBudget: Int = Renderer.defaultBudget) {
        cache = TileCache(budget: max(cacheBudget, 0))
    }

    deinit { worker?.stop() }

    /// Device pixels per point of zoom level `level`.
    static func levelScale(_ level: Int) -> Double { Double(sign: .plus, exponent: level, significand: 1) }

    // MARK: Frames

    /// Draws `root` into `target`, whose pixels are what this renderer drew `bufferAge` frames
    /// ago (0: unknown, repaint everything), and returns the rects that changed since the
    /// previous frame, in buffer pixels (for `wl_surface.damage_buffer`). Only the pixels that
    /// differ from the buffer's old contents are painted; a frame where nothing changed paints
    /// nothing and returns no rect.
    @discardableResult
    public func render(_ root: View, into target: Framebuffer, bufferAge: Int) -> [PixelRect] {
        frame &+= 1
        statistics.frames += 1
        needsFollowUpFrame = false
        worker?.pause()
        purgeDeadViews()
        let full = target.bounds
        var builder = ListBuilder(renderer: self, target: full)
        builder.visit(root)
        var newItems = builder.items
        contents = builder.contents
        nearby = builder.nearby
        // After the visit, which dropped the tiles of changed content.
        adoptPrefetched()
        if !stale.isEmpty { stale = stale.filter(cache.contains) }
        // Which cells are sharp and which stand in is part of what the frame shows: decided
        // before the damage is worked out.
        var (tiles, remade) = planCells(&newItems)
        var damage = builder.contentDamage
        damage.formUnion(remade)

        if targetSize.map({ $0 != (target.width, target.height) }) ?? true {
            targetSize = (target.width, target.height)
            history.removeAll()
            damage = PixelRegion([full])
        } else {
            damage.formUnion(newItems.damage(since: items))
        }
        damage.clip(to: full)
        items = newItems
        history.append(damage)
        if history.count > Self.historyLength { history.removeFirst(history.count - Self.historyLength) }

        var repaint = PixelRegion()
        if bufferAge <= 0 || bufferAge > history.count {
            repaint.add(full)
        } else {
            for d in history.suffix(bufferAge) { repaint.formUnion(d) }
        }
        statistics.lastFramePaintedPixels = repaint.area
        if !repaint.isEmpty {
            prepareTiles(for: repaint, into: &tiles)
            paint(repaint, into: target, tiles: tiles)
        }
        planPrefetch()
        return damage.rects
    }

    /// `render(_:into:bufferAge:)` into an offscreen framebuffer, kept alive while drawing.
    @discardableResult
    public func render(_ root: View, into target: OwnedFramebuffer, bufferAge: Int) -> [PixelRect] {
        target.withFramebuffer { render(root, into: $0, bufferAge: bufferAge) }
    }

    // MARK: View records

    /// What the renderer remembers about one view between frames.
    final class ViewRecord {
        weak var view: View?
        let serial: UInt64
        /// Exact scale of the previous frame: a change means a zoom is under way.
        var lastScale: Double?
        /// Level of the sharp tiles shown when the scale last settled.
        var level: Int?
        /// Level whose tiles the last zoom frame scaled: the first stand-in once it settles.
        var zoomLevel: Int?
        var lastOrigin: (x: Int, y: Int)?
        /// Direction content last scrolled towards, per axis (−1, 0, 1): where to prefetch.
        var ahead: (x: Int, y: Int) = (0, 0)
        /// Device pixels the content moved by in the last frame, per axis: how far to prefetch.
        var motion: (x: Int, y: Int) = (0, 0)

        init(view: View, serial: UInt64) {
            self.view = view
            self.serial = serial
        }
    }

    func record(for view: View) -> ViewRecord {
        let id = ObjectIdentifier(view)
        if let r = records[id], r.view === view { return r }
        let r = ViewRecord(view: view, serial: nextSerial)
        nextSerial += 1
        if let stale = records[id] {
            dropTiles(of: stale.serial)
            generations[stale.serial] = nil
        }
        records[id] = r
        generations[r.serial] = 0
        return r
    }

    private func purgeDeadViews() {
        for (id, r) in records where r.view == nil {
            dropTiles(of: r.serial)
            generations[r.serial] = nil
            records[id] = nil
        }
    }

    private func dropTiles(of serial: UInt64) {
        cache.removeAll { $0.view == serial }
        prefetchQueue.removeAll { $0.key.view == serial }
        generations[serial]? &+= 1
    }

    /// Drops cached tiles of `serial` that show any point of `rect` (bounds coordinates; nil
    /// is everything), with a margin for the resampling filters' reach.
    func invalidate(serial: UInt64, rect: CGRect?) {
        guard let rect else { return dropTiles(of: serial) }
        let size = Double(Self.tileSize)
        cache.removeAll { key in
            guard key.view == serial else { return false }
            let s = key.scale
            // Filters read up to two source pixels of at most 2/s points beyond a tile.
            let margin = 5 / s
            let x0 = Double(key.column) * size / s - margin, x1 = Double(key.column + 1) * size / s + margin
            let y0 = Double(key.row) * size / s - margin, y1 = Double(key.row + 1) * size / s + margin
            return Double(rect.maxX) > x0 && Double(rect.minX) < x1 && Double(rect.maxY) > y0 && Double(rect.minY) < y1
        }
        prefetchQueue.removeAll()
        generations[serial]? &+= 1
    }

    /// Marks the cached tiles of `serial` made from pixels above scale `unchangedUpTo` as
    /// stale: the content was refined (`TiledContent.takeRefinement`).
    func refine(serial: UInt64, keepingUpTo unchangedUpTo: Double) {
        stale.formUnion(cache.keys { $0.view == serial && drawnScale(ofTile: $0.scale) > unchangedUpTo })
        justRefined.insert(serial)
        prefetchQueue.removeAll { $0.key.view == serial }
        generations[serial]? &+= 1
    }

    /// The power-of-two level nearest `scale`, within `levelRange`.
    func settledLevel(scale: Double) -> Int {
        min(max(Int(log2(scale).rounded()), Self.levelRange.lowerBound), Self.levelRange.upperBound)
    }

    /// The scale of the pixels a tile at scale `k` is made from: its own for power-of-two
    /// levels and the output scale (drawn directly), else its nearest level's.
    func drawnScale(ofTile k: Double) -> Double {
        if k == outputScale { return k }
        let nearest = min(max(Int(log2(k).rounded()), Self.levelRange.lowerBound), Self.levelRange.upperBound)
        return Self.levelScale(nearest)
    }

    /// Chooses how content at exact `scale` is drawn this frame, updating the zoom state: the
    /// level its pixels come from (nil: drawn at `scale` itself), whether they are scaled
    /// afresh every frame (a zoom under way), and the levels that may stand in for missing tiles.
    func placementMode(_ r: ViewRecord, scale: Double) -> (level: Int?, transient: Bool, standIns: [Int]) {
        let nearest = min(max(Int(log2(scale).rounded()), Self.levelRange.lowerBound), Self.levelRange.upperBound)
        defer { r.lastScale = scale }
        if let last = r.lastScale, last != scale {
            // Zoom under way: keep scaling the tiles already drawn while they stay within a
            // factor of two of the output; sharp tiles follow once the scale holds still.
            needsFollowUpFrame = true
            var level = nearest
            if let kept = r.level {
                let ratio = scale / Self.levelScale(kept)
                if ratio >= 0.5 && ratio <= 2 { level = kept }
            }
            if Self.levelScale(level) == scale { return (nil, false, r.zoomLevel.map { [$0] } ?? []) }
            r.zoomLevel = level
            return (level, true, [])
        }
        r.level = nearest
        // Stand-ins: the level the zoom showed, then one and two levels coarser (a half and a
        // quarter of the resolution).
        var standIns: [Int] = []
        for level in [r.zoomLevel, nearest - 1, nearest - 2] {
            guard let level, Self.levelRange.contains(level), !standIns.contains(level) else { continue }
            standIns.append(level)
        }
        // Content at the output's own scale (not zoomed) is drawn at it, also when that scale is
        // fractional (1.5): resampled from a power-of-two level, lines and text would blur.
        let exact = Self.levelScale(nearest) == scale || scale == outputScale
        return (exact ? nil : nearest, false, standIns)
    }

    /// The level content off screen is drawn from (nil: at `scale` itself), as if its scale
    /// had settled: a scale changed while nobody saw it is no zoom to animate.
    func offscreenLevel(_ r: ViewRecord, scale: Double) -> Int? {
        let nearest = min(max(Int(log2(scale).rounded()), Self.levelRange.lowerBound), Self.levelRange.upperBound)
        r.lastScale = scale
        r.level = nearest
        return Self.levelScale(nearest) == scale || scale == outputScale ? nil : nearest
    }

    // MARK: Tiles

    /// A tile to produce: drawn by its content view, or resampled from drawn tiles.
    struct TileJob {
        var key: TileKey
        var placement: ContentPlacement
        var content: any TiledContent
        /// True for a tile at an exact zoom scale made from `placement.sourceLevel` tiles.
        var resampled: Bool
    }

    /// Decides for every visible cell of settled content whether this frame shows its sharp
    /// tile or scales a stand-in level's cached tiles: missing sharp tiles (with the source
    /// tiles they are resampled from) are counted against `maxTilesPerFrame` nearest the
    /// middle of each view first, and those over it that have a stand-in show it; stale tiles
    /// over it go on showing as they are. Writes the stand-ins into the items' placements and
    /// returns the cached tiles the cells use (made tiles follow in `prepareTiles`, for the
    /// repaint only: a cell that stays sharp and undamaged is not drawn again, even if its tile
    /// was dropped), with the device pixels of the cells whose stale tiles are made again this
    /// frame or were by prefetch.
    private func planCells(_ items: inout [DisplayItem]) -> (tiles: [TileKey: Tile], remade: PixelRegion) {
        var tiles: [TileKey: Tile] = [:]
        var remade = PixelRegion()
        defer {
            refreshed.removeAll()
            justRefined.removeAll()
        }
        var planned = Set<TileKey>()
        // Tiles counted so far; the first cell is always made, however many tiles it costs,
        // so that every frame sharpens something.
        var spent = 0
        let limit = max(maxTilesPerFrame, 1)

        // Whether the tile is cached and up to date (and now held for the frame).
        func cached(_ key: TileKey) -> Bool {
            if tiles[key] != nil { return true }
            guard !stale.contains(key), let t = cache.lookup(key, frame: frame) else { return false }
            tiles[key] = t
            return true
        }
        // Whether the tile will be there: cached, or counted against the budget already.
        func have(_ key: TileKey) -> Bool { planned.contains(key) || cached(key) }

        for i in items.indices {
            guard case .content(var p) = items[i].kind, !p.transient else { continue }
            let visible = items[i].bounds.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            guard !visible.isEmpty else { continue }
            // The device pixels of a cell, where it shows.
            func shown(_ key: TileKey) -> PixelRect {
                Self.tileRect(key).intersection(visible).offsetBy(dx: p.originX, dy: p.originY)
            }
            var missing = Self.cells(of: visible, view: p.view, scale: p.scale).filter { !have($0) }
            for key in refreshed where key.view == p.view && key.scale == p.scale { remade.add(shown(key)) }
            guard !missing.isEmpty else { continue }
            // Stale tiles look right, only less detailed: with a background worker they are
            // left to it when it has them queued (or the content was refined just now and can
            // be drawn there), and the frames meanwhile only adopt what it finishes.
            let workerDraws = prefetchesInBackground && !stale.isEmpty &&
                (justRefined.contains(p.view) ? contents[p.view]?.content.concurrentDrawing() != nil : true)
            // Distances from the middle in doubled pixels, so that they stay integers.
            let mx = 2 * visible.x + visible.width, my = 2 * visible.y + visible.height
            func distance(_ k: TileKey) -> Int {
                let t = Self.tileSize
                let dx = (2 * k.column + 1) * t - mx, dy = (2 * k.row + 1) * t - my
                return dx * dx + dy * dy
            }
            missing.sort { (distance($0), $0.row, $0.column) < (distance($1), $1.row, $1.column) }
            for key in missing {
                var sources: [TileKey] = []
                if p.sourceLevel != nil {
                    sources = sourceKeys(p, for: Self.tileRect(key).intersection(p.extent)).filter { !have($0) }
                }
                let cost = 1 + sources.count
                let isStale = stale.contains(key)
                if isStale, workerDraws, justRefined.contains(p.view) || submittedKeys.contains(key),
                   let old = cache.lookup(key, frame: frame) {
                    tiles[key] = old
                    needsFollowUpFrame = true
                    continue
                }
                if spent > 0, cost > limit - spent {
                    if isStale, let old = cache.lookup(key, frame: frame) {
                        // Out of date but right where it is: shown until it is made again.
                        tiles[key] = old
                        needsFollowUpFrame = true
                        continue
                    }
                    if let level = standIn(for: Self.tileRect(key).intersection(visible), p, cached: cached) {
                        p.standIns[CellIndex(column: key.column, row: key.row)] = level
                        continue
                    }
                }
                spent += cost
                planned.formUnion(sources)
                planned.insert(key)
                if isStale { remade.add(shown(key)) }
            }
            if !p.standIns.isEmpty {
                needsFollowUpFrame = true
                items[i].kind = .content(p)
            }
        }
        return (tiles, remade)
    }

    /// The first of `p`'s stand-in levels whose tiles covering `rect` (the visible part of a
    /// cell, content pixels) are all cached.
    private func standIn(for rect: PixelRect, _ p: ContentPlacement, cached: (TileKey) -> Bool) -> Int? {
        for level in p.standInLevels where Self.levelScale(level.level) != p.scale {
            let keys = sourceKeys(p.scaled(from: level), for: rect)
            if !keys.isEmpty, keys.allSatisfy(cached) { return level.level }
        }
        return nil
    }

    /// Looks up or produces every tile the repaint needs (sharp cells, and the level tiles zoom
    /// frames scale), adding them to `tiles`; stand-in tiles are there already.
    private func prepareTiles(for repaint: PixelRegion, into tiles: inout [TileKey: Tile]) {
        var drawJobs: [TileJob] = [], resampleJobs: [TileJob] = []
        var queued = Set<TileKey>()

        // Uses the cached tile (a stale one only if the plan chose to show it), or queues it
        // to be made.
        func need(_ key: TileKey, _ p: ContentPlacement, resampled: Bool, into jobs: inout [TileJob]) {
            if tiles[key] != nil || queued.contains(key) { return }
            if !stale.contains(key), let t = cache.lookup(key, frame: frame) { tiles[key] = t; return }
            guard let content = contents[p.view]?.content else { return }
            queued.insert(key)
            jobs.append(TileJob(key: key, placement: p, content: content, resampled: resampled))
        }

        for item in items {
            guard case .content(let p) = item.kind else { continue }
            for r in repaint.rects {
                let visible = r.intersection(item.bounds).offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
                guard !visible.isEmpty else { continue }
                if p.transient {
                    for key in sourceKeys(p, for: visible) { need(key, p, resampled: false, into: &drawJobs) }
                    continue
                }
                for key in Self.cells(of: visible, view: p.view, scale: p.scale)
                where p.standIns[CellIndex(column: key.column, row: key.row)] == nil {
                    if p.sourceLevel != nil {
                        need(key, p, resampled: true, into: &resampleJobs)
                    } else {
                        need(key, p, resampled: false, into: &drawJobs)
                    }
                }
            }
        }
        // Resampled tiles need their source tiles first.
        for job in resampleJobs {
            for key in sourceKeys(job.placement, for: Self.tileRect(job.key).intersection(job.placement.extent)) {
                need(key, job.placement, resampled: false, into: &drawJobs)
            }
        }
        for (key, tile) in produce(drawJobs, using: tiles) {
            tiles[key] = tile
            cache.insert(key, tile, frame: frame)
            stale.remove(key)
        }
        for (key, tile) in produce(resampleJobs, using: tiles) {
            tiles[key] = tile
            cache.insert(key, tile, frame: frame)
            stale.remove(key)
        }
    }

    /// Draws or resamples tiles, on several cores when the content allows it.
    private func produce(_ jobs: [TileJob], using tiles: [TileKey: Tile]) -> [(TileKey, Tile)] {
        guard !jobs.isEmpty else { return [] }
        let concurrent = jobs.allSatisfy { $0.resampled || $0.content.drawsConcurrently }
        let made = Parallel.map(jobs.count, workers: concurrent ? workers : 1) { i in
            Self.makeTile(jobs[i], sources: tiles)
        }
        for job in jobs {
            if job.resampled { statistics.tilesResampled += 1 } else {
                statistics.recordDrawn(job.key)
            }
        }
        return zip(jobs.map(\.key), made).map { ($0, $1) }
    }

    /// Produces one tile: pure with respect to the renderer (safe on any thread).
    private static func makeTile(_ job: TileJob, sources: [TileKey: Tile]) -> Tile {
        makeTile(key: job.key, placement: job.placement, resampled: job.resampled, sources: sources) { rect, scale, fb in
            job.content.draw(rect, scale: scale, into: fb)
        }
    }

    /// Produces the tile `key` of `placement`: resampled from `sources`, or drawn by `draw`
    /// (the content's drawing). Pure with respect to the renderer (safe on any thread when
    /// `draw` is).
    static func makeTile(key: TileKey, placement p: ContentPlacement, resampled: Bool, sources: [TileKey: Tile],
                         draw: (PixelRect, Double, Framebuffer) -> Void) -> Tile {
        let owned = OwnedFramebuffer(width: tileSize, height: tileSize)!
        let cell = tileRect(key)
        let opaque = owned.withFramebuffer { fb in
            let valid: PixelRect
            if resampled {
                valid = cell.intersection(p.extent)
                resample(p, output: valid, sources: sources, into: fb, at: (valid.x - cell.x, valid.y - cell.y), blend: false)
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

    /// The content pixels tile `key` covers.
    static func tileRect(_ key: TileKey) -> PixelRect {
        PixelRect(x: key.column * tileSize, y: key.row * tileSize, width: tileSize, height: tileSize)
    }

    /// Keys of the grid cells at `scale` that intersect `rect` (content pixels).
    static func cells(of rect: PixelRect, view: UInt64, scale: Double) -> [TileKey] {
        guard !rect.isEmpty else { return [] }
        var keys: [TileKey] = []
        for row in floorDiv(rect.y, tileSize)...floorDiv(rect.maxY - 1, tileSize) {
            for column in floorDiv(rect.x, tileSize)...floorDiv(rect.maxX - 1, tileSize) {
                keys.append(TileKey(view: view, scale: scale, column: column, row: row))
            }
        }
        return keys
    }

    /// The axes mapping content pixels at `p.scale` onto pixels of `p`'s source level.
    static func axes(_ p: ContentPlacement) -> (x: ResampleAxis, y: ResampleAxis)? {
        let step = p.sourceScale / p.scale
        guard let x = ResampleAxis(step: step, lower: p.sourceExtent.x, upper: p.sourceExtent.maxX),
              let y = ResampleAxis(step: step, lower: p.sourceExtent.y, upper: p.sourceExtent.maxY) else { return nil }
        return (x, y)
    }

    /// The filter for resampling `p`: bilinear when enlarging, box when shrinking. While a zoom
    /// is under way the provisional frames use bilinear both ways: it reads two source pixels
    /// per axis instead of three, and a shrink by at most half (`placementMode`) does not alias
    /// enough to show in frames that are replaced when the zoom settles.
    static func filter(_ p: ContentPlacement) -> ResampleFilter {
        p.scale > p.sourceScale || p.transient ? .bilinear : .box
    }

    /// The source pixels that content pixels `rect` (at `p.scale`) are resampled from.
    static func sourceRect(_ p: ContentPlacement, for rect: PixelRect) -> PixelRect {
        guard !rect.isEmpty, let (ax, ay) = axes(p) else { return .zero }
        let bilinear = filter(p) == .bilinear
        let xs = ax.sourceRange(for: rect.x..<rect.maxX, bilinear: bilinear)
        let ys = ay.sourceRange(for: rect.y..<rect.maxY, bilinear: bilinear)
        return PixelRect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)
    }

    private func sourceKeys(_ p: ContentPlacement, for rect: PixelRect) -> [TileKey] {
        Self.cells(of: Self.sourceRect(p, for: rect), view: p.view, scale: p.sourceScale)
    }

    /// Resamples content pixels `output` of `p` from its source tiles into `target` at `at`,
    /// writing (`blend` false) or drawing over (`blend` true); the sources are gathered into
    /// `scratch` when one is given.
    static func resample(_ p: ContentPlacement, output: PixelRect, sources: [TileKey: Tile], into target: Framebuffer,
                         at: (x: Int, y: Int), blend: Bool, scratch: ScratchPixels? = nil) {
        guard !output.isEmpty, let (ax, ay) = axes(p) else { return }
        let src = sourceRect(p, for: output)
        guard !src.isEmpty else { return }
        let keys = cells(of: src, view: p.view, scale: p.sourceScale)
        // Every pixel is copied from a tile when all are there: no need to clear them first
        // (a frame of a zoom gathers about as many pixels as it shows).
        let complete = keys.allSatisfy { sources[$0] != nil }
        if complete, !blend, filter(p) == .bilinear, ax.upper - ax.lower >= 2 {
            // Zoom frames and stand-ins: straight from the tiles, nothing gathered (copying
            // the sources took about a quarter of a zoom frame, perf).
            // The tiles as a grid, looked up once (hashing keys per row and run cost ~10%).
            let c0 = floorDiv(src.x, tileSize), r0 = floorDiv(src.y, tileSize)
            let columns = floorDiv(src.maxX - 1, tileSize) - c0 + 1
            let grid = keys.sorted { ($0.row, $0.column) < ($1.row, $1.column) }.map { sources[$0]!.pixels.framebuffer }
            withExtendedLifetime(sources) {
                Resampler.bilinear(tiles: { column, row in grid[(row - r0) * columns + (column - c0)] },
                                   tileSize: tileSize, xAxis: ax, yAxis: ay, output: output, into: target, at: at)
            }
            return
        }
        let owned = complete && scratch != nil ? nil
            : complete ? OwnedFramebuffer(uninitializedWidth: src.width, height: src.height)
            : OwnedFramebuffer(width: src.width, height: src.height)
        guard let g = owned?.framebuffer ?? scratch?.framebuffer(width: src.width, height: src.height) else { return }
        withExtendedLifetime(owned) {
            for key in keys {
                guard let tile = sources[key] else { continue }
                let cell = tileRect(key)
                let part = cell.intersection(src)
                tile.pixels.withFramebuffer { t in
                    g.copy(from: t, sourceRect: part.offsetBy(dx: -cell.x, dy: -cell.y), to: (part.x - src.x, part.y - src.y))
                }
            }
            // The gathered source is exactly `sourceRect`, so a refusal is a renderer bug.
            do throws(ResampleError) {
                if blend {
                    guard let out = OwnedFramebuffer(width: output.width, height: output.height) else { return }
                    try out.withFramebuffer { o throws(ResampleError) in
                        try Resampler.resample(filter(p), source: g, sourceOrigin: (src.x, src.y), xAxis: ax, yAxis: ay,
                                               output: output, into: o, at: (0, 0))
                        target.blend(from: o, sourceRect: o.bounds, to: at)
                    }
                } else {
                    try Resampler.resample(filter(p), source: g, sourceOrigin: (src.x, src.y), xAxis: ax, yAxis: ay,
                                           output: output, into: target, at: at)
                }
            } catch {
                assertionFailure("\(error)")
            }
        }
    }

    // MARK: Painting

    /// Paints every item over the repaint region, on several cores for large repaints.
    private func paint(_ repaint: PixelRegion, into target: Framebuffer, tiles: [TileKey: Tile]) {
        let list = items
        var pieces = repaint.rects
        let parallel = workers > 1 && repaint.area >= parallelMinimumPixels
        if parallel {
            // Horizontal bands: each thread writes its own rows. Four per thread, handed out
            // as threads come free: on a machine shared with the compositor and other work, one
            // band per thread left the frame waiting for whichever thread was held up.
            pieces = pieces.flatMap { r -> [PixelRect] in
                let bands = min(workers * Self.bandsPerWorker, max(r.height, 1))
                return (0..<bands).map { b in
                    let y0 = r.y + r.height * b / bands, y1 = r.y + r.height * (b + 1) / bands
                    return PixelRect(x: r.x, y: y0, width: r.width, height: y1 - y0)
                }
            }
        }
        // One scratch memory per piece, kept for later frames.
        while scratches.count < pieces.count { scratches.append(ScratchPixels()) }
        let painters = pieces.indices.map { Painter(items: list, tiles: tiles, target: target, scratch: scratches[$0]) }
        Parallel.forEachBalanced(pieces.count, workers: parallel ? workers : 1) { i in
            painters[i].paint(pieces[i], upTo: list.count, depth: 0)
        }
    }

    /// Paints display items into a target; pure and read-only apart from the target's pixels
    /// inside the rect it is given, so several painters may run on disjoint rects at once.
    struct Painter {
        let items: [DisplayItem]
        let tiles: [TileKey: Tile]
        let target: Framebuffer
        /// Memory for resampling sources, this painter's alone.
        let scratch: ScratchPixels

        /// Paints items `0..<n` clipped to `rect`, skipping what an opaque item hides.
        func paint(_ rect: PixelRect, upTo n: Int, depth: Int) {
            guard !rect.isEmpty else { return }
            var top = n - 1
            while top >= 0 && !(items[top].opaque && items[top].bounds.intersects(rect)) { top -= 1 }
            if top < 0 || depth >= Renderer.occlusionDepth {
                for j in 0..<n { draw(items[j], clip: rect) }
                return
            }
            let covered = items[top].bounds.intersection(rect)
            draw(items[top], clip: covered)
            for piece in rect.subtracting(covered) { paint(piece, upTo: top, depth: depth + 1) }
            for j in (top + 1)..<n { draw(items[j], clip: rect) }
        }

        func draw(_ item: DisplayItem, clip: PixelRect) {
            let r = item.bounds.intersection(clip)
            guard !r.isEmpty else { return }
            switch item.kind {
            case .fill(let color):
                target.blendFill(r, with: color)
            case .content(let p):
                drawContent(p, in: r)
            case .indicator(let indicator, let rect, let pointScale):
                indicator.draw(in: rect, pointScale: pointScale, clip: r, into: target)
            }
        }

        private func drawContent(_ p: ContentPlacement, in r: PixelRect) {
            let visible = r.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            guard !visible.isEmpty else { return }
            if p.transient {
                // Bands bound the gathered source while the whole view is rescaled each frame.
                var y = visible.y
                while y < visible.maxY {
                    let h = min(Renderer.transientBand, visible.maxY - y)
                    let band = PixelRect(x: visible.x, y: y, width: visible.width, height: h)
                    Renderer.resample(p, output: band, sources: tiles, into: target,
                                      at: (band.x + p.originX, band.y + p.originY), blend: !p.opaque, scratch: scratch)
                    y += h
                }
                return
            }
            // One band per tile row, written destination row by destination row. The tiles
            // stay alive in `tiles` while their framebuffers are read. Stand-in cells are
            // scaled from their level's tiles, exactly as a zoom frame scales them.
            let size = Renderer.tileSize
            for row in floorDiv(visible.y, size)...floorDiv(visible.maxY - 1, size) {
                let y0 = max(visible.y, row * size), y1 = min(visible.maxY, (row + 1) * size)
                var spans: [RowSpan] = []
                var scaled: [(part: PixelRect, level: Int)] = []
                for column in floorDiv(visible.x, size)...floorDiv(visible.maxX - 1, size) {
                    let x0 = max(visible.x, column * size), x1 = min(visible.maxX, (column + 1) * size)
                    if let level = p.standIns[CellIndex(column: column, row: row)] {
                        scaled.append((PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), level))
                        continue
                    }
                    guard let tile = tiles[TileKey(view: p.view, scale: p.scale, column: column, row: row)] else { continue }
                    spans.append(RowSpan(source: tile.pixels.framebuffer, sx: x0 - column * size, sy: y0 - row * size,
                                         dx: x0 + p.originX, width: x1 - x0, opaque: tile.isOpaque))
                }
                target.composeBand(spans, dy: y0 + p.originY, rows: y1 - y0)
                for (part, level) in scaled {
                    guard let standIn = p.standInLevels.first(where: { $0.level == level }) else { continue }
                    Renderer.resample(p.scaled(from: standIn), output: part, sources: tiles, into: target,
                                      at: (part.x + p.originX, part.y + p.originY), blend: !p.opaque, scratch: scratch)
                }
            }
        }
    }

    // MARK: Prefetch

    /// Frames of motion the prefetch ring looks ahead: 8 (133 ms at 60 Hz, decision: about the
    /// time a fling takes to cross a tile at speed), so it holds the tiles the last frame's
    /// motion would reveal by then.
    static let prefetchLookaheadFrames = 8
    /// Deepest prefetch ring, in tiles: 4 (decision; 4 rows of a 1080p window are 44 tiles).
    static let maxPrefetchRings = 4

    /// Queues, in order: the sharp tiles of cells shown by stand-ins; the missing tiles in
    /// rings beyond each content view's visible tiles, on the side it last scrolled towards
    /// (all sides, one ring, before it first scrolls), as many rings as the last frame's motion
    /// covers in `prefetchLookaheadFrames` frames; then the tiles of content just outside the
    /// window (a pager's next page), nearest the window first. With `prefetchesInBackground`
    /// the queue goes to the background worker, else it waits for `prefetch`.
    private func planPrefetch() {
        var jobs: [TileJob] = []
        var queued = Set<TileKey>()
        func add(_ key: TileKey, _ p: ContentPlacement, _ content: any TiledContent) {
            guard !cache.contains(key) || stale.contains(key), queued.insert(key).inserted else { return }
            jobs.append(TileJob(key: key, placement: p, content: content, resampled: p.sourceLevel != nil))
        }
        let t = Self.tileSize
        for item in items {
            guard case .content(let p) = item.kind, let content = contents[p.view]?.content else { continue }
            for cell in p.standIns.keys.sorted(by: { ($0.row, $0.column) < ($1.row, $1.column) }) {
                add(TileKey(view: p.view, scale: p.scale, column: cell.column, row: cell.row), p, content)
            }
            // Visible stale tiles of settled content.
            let visible = item.bounds.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            guard !p.transient, !stale.isEmpty, !visible.isEmpty else { continue }
            for key in Self.cells(of: visible, view: p.view, scale: p.scale) where stale.contains(key) { add(key, p, content) }
        }
        // A zoom under way: the tiles of the level the scale will settle on (its sharp tiles'
        // sources, and what the zoom switches to once the scale has doubled or halved), then
        // the zoom's own level one tile around what shows (what zooming out reveals); each
        // from the middle out.
        for item in items {
            guard case .content(let p) = item.kind, p.transient, let content = contents[p.view]?.content else { continue }
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
                let rect = Self.sourceRect(source, for: area)
                let mx = 2 * rect.x + rect.width, my = 2 * rect.y + rect.height
                let keys = Self.cells(of: rect, view: p.view, scale: source.sourceScale).sorted { a, b in
                    func d(_ k: TileKey) -> Int {
                        let dx = (2 * k.column + 1) * t - mx, dy = (2 * k.row + 1) * t - my
                        return dx * dx + dy * dy
                    }
                    return (d(a), a.row, a.column) < (d(b), b.row, b.column)
                }
                for key in keys where !cache.contains(key) || stale.contains(key) {
                    guard queued.insert(key).inserted else { continue }
                    jobs.append(TileJob(key: key, placement: source, content: content, resampled: false))
                }
            }
        }
        for item in items {
            guard case .content(let p) = item.kind, !p.transient, let (content, r) = contents[p.view] else { continue }
            let visible = item.bounds.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            guard !visible.isEmpty else { continue }
            let c0 = floorDiv(visible.x, t), c1 = floorDiv(visible.maxX - 1, t)
            let r0 = floorDiv(visible.y, t), r1 = floorDiv(visible.maxY - 1, t)
            func rings(_ motion: Int) -> Int {
                min(max(1, (motion * Self.prefetchLookaheadFrames + t - 1) / t), Self.maxPrefetchRings)
            }
            let all = r.ahead == (0, 0)
            let across = rings(r.motion.x), down = rings(r.motion.y)
            // The visible tiles grown on the side(s) ahead, kept inside the content.
            let cLo = max(c0 - (all ? 1 : r.ahead.x < 0 ? across : 0), floorDiv(p.extent.x, t))
            let cHi = min(c1 + (all ? 1 : r.ahead.x > 0 ? across : 0), floorDiv(p.extent.maxX - 1, t))
            let rLo = max(r0 - (all ? 1 : r.ahead.y < 0 ? down : 0), floorDiv(p.extent.y, t))
            let rHi = min(r1 + (all ? 1 : r.ahead.y > 0 ? down : 0), floorDiv(p.extent.maxY - 1, t))
            guard cLo <= cHi, rLo <= rHi else { continue }
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
            for cell in ring { add(TileKey(view: p.view, scale: p.scale, column: cell.column, row: cell.row), p, content) }
        }
        // Content outside the window, by its distance from it, each cell nearest the window first.
        let window = targetSize.map { PixelRect(x: 0, y: 0, width: $0.width, height: $0.height) } ?? .zero
        func gap(_ r: PixelRect) -> Int {
            let dx = max(window.x - r.maxX, r.x - window.maxX, 0), dy = max(window.y - r.maxY, r.y - window.maxY, 0)
            return max(dx, dy)
        }
        for n in nearby.sorted(by: { gap($0.reachable) < gap($1.reachable) }) {
            let p = n.placement
            let area = n.reachable.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
            let cells = Self.cells(of: area, view: p.view, scale: p.scale)
                .map { (gap(Self.tileRect($0).offsetBy(dx: p.originX, dy: p.originY)), $0) }
                .sorted { ($0.0, $0.1.row, $0.1.column) < ($1.0, $1.1.row, $1.1.column) }
            for (_, key) in cells { add(key, p, n.content) }
        }
        if prefetchesInBackground {
            prefetchQueue.removeAll()
            submitToWorker(jobs)
        } else {
            prefetchQueue = jobs
        }
    }

    /// Hands the jobs whose content can draw on any thread to the background worker, as many
    /// as fit the cache without evicting what the last frame used.
    private func submitToWorker(_ jobs: [TileJob]) {
        var spare = cache.spareBytes(protectFrom: frame) / (Self.tileSize * Self.tileSize * 4)
        var drawings: [UInt64: TileDrawing?] = [:]
        var work: [PrefetchJob] = []
        var submitted = Set<TileKey>()
        defer { submittedKeys = submitted }
        for job in jobs {
            guard spare > 0 else { break }
            let view = job.key.view
            if drawings[view] == nil { drawings[view] = .some(job.content.concurrentDrawing()) }
            guard let drawing = drawings[view] ?? nil, let generation = generations[view] else { continue }
            var sources: [TileKey: Tile] = [:], missing: [TileKey] = []
            if job.resampled {
                for key in sourceKeys(job.placement, for: Self.tileRect(job.key).intersection(job.placement.extent)) {
                    if !stale.contains(key), let tile = cache.peek(key) { sources[key] = tile } else { missing.append(key) }
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

    /// Puts the tiles the background worker finished into the cache, below the tiles the last
    /// frame used and never pushing them out; tiles of content changed since are dropped.
    private func adoptPrefetched() {
        guard let worker else { return }
        let last = frame &- 1
        for result in worker.takeResults() {
            let replacing = stale.contains(result.key)
            guard generations[result.key.view] == result.generation, !cache.contains(result.key) || replacing else { continue }
            if cache.insert(result.key, result.tile, frame: max(last, 1) - 1, protectFrom: last) {
                statistics.tilesPrefetched += 1
                if replacing {
                    stale.remove(result.key)
                    refreshed.insert(result.key)
                }
            }
        }
    }

    /// Draws queued prefetch tiles one at a time for as long as `keepGoing` returns true (the
    /// host asks its clock whether idle time remains before the next frame); returns how many
    /// were made.
    @discardableResult
    public func prefetch(while keepGoing: () -> Bool) -> Int {
        var made = 0
        // Each call takes at least one job off the queue, so this ends.
        while hasPrefetchWork, keepGoing() { made += prefetch(maxTiles: 1) }
        return made
    }

    /// Draws up to `maxTiles` queued prefetch tiles into the cache without evicting any tile
    /// the last frame used; returns how many were made. Call while idle time allows.
    @discardableResult
    public func prefetch(maxTiles: Int) -> Int {
        var made = 0
        let tileBytes = Self.tileSize * Self.tileSize * 4
        while made < maxTiles, !prefetchQueue.isEmpty {
            let job = prefetchQueue.removeFirst()
            let replacing = stale.contains(job.key)
            if cache.contains(job.key) && !replacing { continue }
            // Only what fits without evicting the visible tiles is worth drawing.
            guard cache.canFit(tileBytes, protectFrom: frame) else {
                prefetchQueue.removeAll()
                break
            }
            var sources: [TileKey: Tile] = [:]
            if job.resampled {
                let need = sourceKeys(job.placement, for: Self.tileRect(job.key).intersection(job.placement.extent))
                for key in need {
                    if !stale.contains(key), let t = cache.lookup(key, frame: frame) { sources[key] = t; continue }
                    let src = TileJob(key: key, placement: job.placement, content: job.content, resampled: false)
                    let t = Self.makeTile(src, sources: [:])
                    statistics.recordDrawn(key)
                    cache.insert(key, t, frame: max(frame, 1) - 1, protectFrom: frame)
                    stale.remove(key)
                    sources[key] = t
                }
            }
            let tile = Self.makeTile(job, sources: sources)
            if job.resampled { statistics.tilesResampled += 1 } else {
                statistics.recordDrawn(job.key)
            }
            statistics.tilesPrefetched += 1
            made += 1
            // Prefetched tiles rank below the visible ones, and never push them out.
            if !cache.insert(job.key, tile, frame: max(frame, 1) - 1, protectFrom: frame) {
                prefetchQueue.removeAll()
            } else if replacing {
                stale.remove(job.key)
                refreshed.insert(job.key)
            }
        }
        return made
    }
}

/// Floor division (rounds toward −∞, unlike `/`).
@inline(__always)
func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
