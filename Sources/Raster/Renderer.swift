// The compositor's façade: one frame runs the stages in order (walk, place, plan, damage,
// produce, paint, then the prefetch plan), each handing values to the next; this file holds
// the state kept between frames and the public API. docs/architecture.md describes the stages.
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
    /// Tile edge in device pixels (`TileGrid.size`).
    public static let tileSize = TileGrid.size
    /// Default cache budget: 192 MiB, about six 4K screenfuls of tiles (design decision).
    public static let defaultBudget = 192 << 20

    /// Device pixels per point of the output (the Wayland buffer scale, possibly fractional).
    /// A change repaints the whole next frame at the new scale, drawn sharp at once: tiles are
    /// keyed by their scale, so none drawn at the old one is reused.
    public var outputScale: Double = 1 {
        didSet {
            guard outputScale != oldValue else { return }
            damage.forgetTarget()
            // Not a zoom: no provisional frame resampled from tiles of the old scale.
            for serial in histories.keys { histories[serial]?.zoom.lastScale = nil }
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
    public var workers = Parallel.defaultWorkers
    /// Most tiles a frame draws or resamples for content that has a stand-in: cached tiles of
    /// another level (the one a zoom just showed, a coarser one, or the content's backstop,
    /// a level of at most 4×4 tiles kept cached while it shows) that can be scaled in the
    /// meantime. Cells over the budget show the stand-in, blurred, and sharpen in later frames
    /// (`needsFollowUpFrame`), nearest the middle of the view first; zoom frames count the
    /// tiles of the level they scale the same way. Tiles without a stand-in are always made,
    /// so nothing is ever left blank, and so is the first cell of a frame (values below 1
    /// count as 1). Unlimited by default.
    public var maxTilesPerFrame = Int.max

    /// Most bytes of tile pixels the cache keeps (0 keeps nothing between frames).
    public var cacheBudget: Int {
        get { store.cache.budget }
        set { store.cache.budget = max(newValue, 0) }
    }
    /// Bytes of tile pixels currently cached (never above `cacheBudget`).
    public var cacheBytes: Int { store.cache.bytes }
    /// Number of cached tiles.
    public var cachedTileCount: Int { store.cache.count }
    /// The keys of the cached tiles (up to date or not), in no order: what the cache holds,
    /// for tests and statistics.
    public var cachedKeys: [TileKey] { store.cache.keys { _ in true } }
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
    public var hasPrefetchWork: Bool { prefetcher.hasWork }

    /// Draw tiles ahead of need on a background thread between frames (content that offers
    /// a `concurrentDrawing`), instead of waiting for the host to call `prefetch`: tiles it
    /// finishes join the cache when the next frame starts, and count in
    /// `statistics.tilesPrefetched` only. Off by default, so that tile counts stay exact in
    /// tests; `ViewScene` turns it on.
    public var prefetchesInBackground = false {
        didSet {
            guard prefetchesInBackground != oldValue else { return }
            if !prefetchesInBackground { prefetcher.cancelBackground() }
        }
    }

    /// Waits until the background prefetch has drawn everything planned after the last frame
    /// (or `timeout` seconds passed); true when it has. For tests and benchmarks.
    @discardableResult
    public func waitForBackgroundPrefetch(timeout: Double) -> Bool {
        prefetcher.waitForBackground(timeout: timeout)
    }

    private let store: TileStore
    private let prefetcher: Prefetcher
    /// Memory written ahead for the next frames' tiles (`reserveTiles`).
    private let tileMemory = TileMemory()
    private let painter = FramePainter()
    private(set) var registry = ViewRegistry()
    /// What each tiled content view showed in earlier frames, by serial.
    private var histories: [UInt64: ViewHistory] = [:]
    private var damage = DamageHistory()
    private var frame: UInt64 = 0
    /// The last frame's display list, tiled content views and content just outside the window.
    private var items: [DisplayItem] = []
    private var contents: [UInt64: any TiledContent] = [:]
    private var nearby: [NearbyContent] = []

    /// Creates a renderer whose tile cache keeps at most `cacheBudget` bytes.
    public init(cacheBudget: Int = Renderer.defaultBudget) {
        store = TileStore(budget: cacheBudget)
        prefetcher = Prefetcher(store: store)
    }

    // MARK: Tile memory

    /// Whether a picture of `width`×`height` pixels, at rest at `scale` device pixels per
    /// pixel on an output of `outputScale`, is drawn without tile memory of its own, provided
    /// it keeps in memory the power-of-two level its scale settles on (a picture decoded at
    /// screen size for a window filling the screen does): at that level exactly, its tiles are
    /// windows onto the level's pixels; enlarged from it, and at most
    /// `Placement.paintsLevelMaxPixels`, it is painted straight from them every frame. Shrunk
    /// from a finer level (a 1200×800 picture at 0.75 is made from level 0), enlarged past the
    /// paint limit, or at a fractional output scale, it draws tiles of its own.
    public static func drawsWithoutTiles(width: Int, height: Int, scale: Double, outputScale: Double) -> Bool {
        guard width > 0, height > 0, LevelPolicy.drawableScales.contains(scale) else { return false }
        let level = LevelPolicy.settledLevel(scale: scale), levelScale = LevelPolicy.levelScale(level)
        // A level is stored exactly at its scale only when it divides the picture evenly
        // (`Picture.storedPixels`), and only levels at or below full resolution are kept.
        let w = Double(width) * levelScale, h = Double(height) * levelScale
        guard level <= 0, w == w.rounded(), h == h.rounded() else { return false }
        if scale == levelScale { return true }
        if scale == outputScale { return false }
        return Placement.enlargesLevel(scale: scale, level: level)
            && Double(width) * scale * Double(height) * scale <= Double(Placement.paintsLevelMaxPixels)
    }

    /// Writes the memory of the tiles that cover `width`×`height` device pixels now, for the
    /// next frames' tiles to take (see `TileMemory`): a host waiting for content (a decoder)
    /// moves those page faults off the frame that shows it. At most what the cache budget
    /// holds; `releaseReservedTiles` frees what is left.
    public func reserveTiles(width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        let size = TileGrid.size
        // A rectangle not on the grid touches one more column and row of tiles.
        let columns = min(width / size + 2, 1 << 16), rows = min(height / size + 2, 1 << 16)
        tileMemory.reserve(min(columns * rows, cacheBudget / (size * size * 4)))
    }

    /// Frees the memory `reserveTiles` wrote that no tile took; returns how many tiles' worth.
    @discardableResult
    public func releaseReservedTiles() -> Int { tileMemory.release() }

    /// Tiles' worth of memory reserved and not taken yet.
    public var reservedTileCount: Int { tileMemory.count }

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
        prefetcher.pause()
        forgetDeadViews()
        let full = target.bounds
        // Walk: the view tree as entries, and what changed in it.
        let walk = ViewWalk.walk(root, target: full, outputScale: outputScale, clearColor: clearColor, registry: registry)
        apply(walk)
        // Place: each content view at its level.
        let placed = Placement.place(walk, outputScale: outputScale, histories: &histories)
        contents = placed.contents
        nearby = placed.nearby
        // After the walk's invalidations, which dropped the tiles of changed content.
        statistics.tilesPrefetched += prefetcher.adoptFinished(frame: frame)
        store.dropEvictedStale()
        // Plan: which cells are sharp and which stand in is part of what the frame shows,
        // decided before the damage is worked out.
        let planner = CellPlanner(store: store, frame: frame, stale: store.staleTiles, maxTiles: maxTilesPerFrame,
                                  refreshed: store.takeRefreshed(), refined: Set(walk.refinements.map(\.serial)),
                                  submitted: prefetcher.submitted, backgroundPrefetch: prefetchesInBackground,
                                  contents: contents)
        var plan = planner.plan(placed.items)
        needsFollowUpFrame = placed.zooming || plan.provisional
        // Damage: what changed since the last frame, and what this buffer must repaint.
        var changes = walk.contentDamage
        changes.formUnion(plan.remade)
        let damaged = damage.record(changes, items: plan.items, previous: items, target: full)
        items = plan.items
        let repaint = damage.repaint(bufferAge: bufferAge, target: full)
        statistics.lastFramePaintedPixels = repaint.area
        if !repaint.isEmpty {
            // Produce the tiles the repaint lacks, then paint.
            let producer = TileProducer(store: store, frame: frame, contents: contents, workers: workers, memory: tileMemory)
            let made = producer.produce(for: repaint, items: items, into: &plan.tiles)
            for key in made.drawn { statistics.recordDrawn(key) }
            statistics.tilesResampled += made.resampled
            painter.paint(items, over: repaint, into: target, tiles: plan.tiles, workers: workers,
                          parallelMinimumPixels: parallelMinimumPixels)
        }
        // Prefetch: the tiles to make ahead of the next frames.
        let jobs = PrefetchPlanner(store: store).plan(items: items, contents: contents, histories: histories, nearby: nearby,
                                                      window: full)
        prefetcher.schedule(jobs, inBackground: prefetchesInBackground, frame: frame)
        return damaged.rects
    }

    /// `render(_:into:bufferAge:)` into an offscreen framebuffer, kept alive while drawing.
    @discardableResult
    public func render(_ root: View, into target: OwnedFramebuffer, bufferAge: Int) -> [PixelRect] {
        target.withFramebuffer { render(root, into: $0, bufferAge: bufferAge) }
    }

    // MARK: Views

    /// Drops the cached tiles of `view` now rather than at the next frame: the view was taken
    /// out of the tree, and tiles that are windows onto its content's pixels would keep those
    /// alive until then (a gallery page let go at the middle of a slide held its 4 MiB
    /// picture while the page ahead decoded its own, four pictures at once). It is forgotten
    /// as a view that dies is: its zoom history and the prefetcher's work for it go too (a tile
    /// under way in the background finishes first, and its memory goes then). Its serial stays
    /// until the view is gone.
    public func forgetTiles(of view: View) {
        guard let serial = registry.serial(of: view) else { return }
        forget(serial)
    }

    /// Forgets the views that no longer exist, with their tiles.
    private func forgetDeadViews() {
        for serial in registry.removeDead() { forget(serial) }
    }

    private func forget(_ serial: UInt64) {
        store.forget(serial)
        prefetcher.forget(view: serial)
        histories[serial] = nil
    }

    /// Applies what the walk saw: new views get their serials (a view that had the same
    /// address is forgotten), and invalidated or refined content drops or marks its tiles.
    private func apply(_ walk: WalkResult) {
        for (view, serial) in walk.newViews {
            if let replaced = registry.admit(view, serial: serial) { forget(replaced) }
            store.register(serial)
        }
        for invalidation in walk.invalidations { store.invalidate(invalidation.serial, rect: invalidation.rect) }
        for refinement in walk.refinements {
            store.refine(refinement.serial, keepingUpTo: refinement.unchangedUpTo, outputScale: outputScale)
        }
    }

    // MARK: Prefetch

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
        prefetcher.run(maxTiles: maxTiles, frame: frame, statistics: &statistics)
    }
}
