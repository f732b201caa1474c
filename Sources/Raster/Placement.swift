// The second stage of a frame: the tiled content the walk sighted, placed at the level the
// level policy chooses given what each view showed in earlier frames, which turns the walked
// entries into the frame's display list.
import Foundation

/// What the renderer remembers about one tiled content view between frames.
struct ViewHistory {
    /// The view's zoom, for the level policy.
    var zoom = ZoomHistory()
    /// Device position of content pixel (0, 0) in the last frame that showed it.
    var lastOrigin: (x: Int, y: Int)?
    /// Direction content last scrolled towards, per axis (−1, 0, 1): where to prefetch.
    var ahead: (x: Int, y: Int) = (0, 0)
    /// Device pixels the content moved by in the last frame, per axis: how far to prefetch.
    var motion: (x: Int, y: Int) = (0, 0)

    /// Notes that the content is shown with its pixel (0, 0) at (`x`, `y`).
    mutating func shown(atX x: Int, y: Int) {
        if let last = lastOrigin {
            let dx = x - last.x, dy = y - last.y
            // Content moving up means scrolling down: the next tiles are below.
            if dx != 0 || dy != 0 { ahead = (dx < 0 ? 1 : dx > 0 ? -1 : 0, dy < 0 ? 1 : dy > 0 ? -1 : 0) }
            motion = (abs(dx), abs(dy))
        }
        lastOrigin = (x, y)
    }
}

/// Tiled content placed just outside the target, which the renderer may prefetch.
struct NearbyContent {
    /// Where and how its tiles would be drawn (settled, as if it were on screen).
    var placement: ContentPlacement
    var content: any TiledContent
    /// The device pixels of the content inside the reach around the target.
    var reachable: PixelRect
}

/// A frame's display list with every tiled content view placed.
struct PlacedFrame {
    var items: [DisplayItem] = []
    /// The tiled content views listed, by serial.
    var contents: [UInt64: any TiledContent] = [:]
    /// Tiled content just outside the target, placed as if settled.
    var nearby: [NearbyContent] = []
    /// Some content's scale changed since the last frame: a zoom is under way.
    var zooming = false
}

/// Places the content of a walk.
enum Placement {
    /// The display list of `walk`, its content placed at `outputScale` given each view's
    /// `histories` (by serial, updated for the next frame). Content whose pixels at its level
    /// would be empty is left out.
    static func place(_ walk: WalkResult, outputScale: Double, histories: inout [UInt64: ViewHistory]) -> PlacedFrame {
        var frame = PlacedFrame()
        frame.items.reserveCapacity(walk.entries.count)
        for entry in walk.entries {
            switch entry {
            case .item(let item):
                frame.items.append(item)
            case .content(let s):
                var history = histories[s.serial] ?? ViewHistory()
                defer { histories[s.serial] = history }
                let mode = LevelPolicy.placementMode(scale: s.scale, outputScale: outputScale, history: &history.zoom)
                frame.zooming = frame.zooming || mode.zooming
                // Settled vector content is drawn at its own scale (`TiledContent.drawsAtAnyScale`),
                // and a quick rendition of it from its own level (`TiledContent.provisionalLevel`).
                var level = !mode.transient && s.content.drawsAtAnyScale ? nil : mode.level
                if !mode.transient, let quick = s.content.provisionalLevel, LevelPolicy.levelScale(quick) < s.scale {
                    level = quick
                }
                let sourceExtent = level.map(s.extent(atLevel:)) ?? s.extent
                guard !sourceExtent.isEmpty else { continue }
                history.shown(atX: s.originX, y: s.originY)
                var standInLevels = mode.standIns.map { StandInLevel(level: $0, extent: s.extent(atLevel: $0)) }
                    .filter { !$0.extent.isEmpty }
                let backstop = Self.backstop(of: s, level: level)
                if let backstop, !standInLevels.contains(backstop) { standInLevels.append(backstop) }
                var placement = ContentPlacement(view: s.serial, scale: s.scale, originX: s.originX, originY: s.originY,
                                                 extent: s.extent, sourceLevel: level, transient: mode.transient,
                                                 opaque: s.content.isOpaqueContent, sourceExtent: sourceExtent,
                                                 standInLevels: standInLevels, backstop: backstop)
                placement.paintsLevel = !mode.transient && Self.paintsLevel(s, level: level)
                if mode.transient, s.scale != outputScale {
                    let settled = LevelPolicy.settledLevel(scale: s.scale)
                    placement.settlingLevel = StandInLevel(level: settled, extent: s.extent(atLevel: settled))
                }
                frame.items.append(DisplayItem(id: ItemID(view: s.serial, part: 1), kind: .content(placement),
                                               bounds: s.visible, opaque: s.content.isOpaqueContent))
                frame.contents[s.serial] = s.content
            }
        }
        for s in walk.nearby {
            // Off screen, nothing animates that anyone sees: the scale counts as settled.
            var history = histories[s.serial] ?? ViewHistory()
            let offscreen = LevelPolicy.offscreenLevel(scale: s.scale, outputScale: outputScale, history: &history.zoom)
            let level = s.content.drawsAtAnyScale ? nil : offscreen
            histories[s.serial] = history
            let sourceExtent = level.map(s.extent(atLevel:)) ?? s.extent
            guard !sourceExtent.isEmpty else { continue }
            let backstop = Self.backstop(of: s, level: level)
            var placement = ContentPlacement(view: s.serial, scale: s.scale, originX: s.originX, originY: s.originY,
                                             extent: s.extent, sourceLevel: level, transient: false,
                                             opaque: s.content.isOpaqueContent, sourceExtent: sourceExtent,
                                             backstop: backstop)
            placement.paintsLevel = Self.paintsLevel(s, level: level)
            frame.nearby.append(NearbyContent(placement: placement, content: s.content, reachable: s.reachable))
        }
        return frame
    }

    /// 1920×1080 pixels: the largest content painted straight from its level every frame
    /// (`ContentPlacement.paintsLevel`). Measured with bench-fling: at 1080p, zoom and gallery
    /// frames doing so were never late (slowest answer 11 ms against 5 ms with sharp tiles, load
    /// 2.4); at 3840×2160 frames painting a whole screen of it took 21–39 ms and were late.
    static let paintsLevelMaxPixels = 1920 * 1080

    /// Whether settled content resampled from `level` is painted straight from that level's
    /// tiles (`ContentPlacement.paintsLevel`): it is enlarged from it, the content keeps the
    /// level's pixels stored, and it is at most `paintsLevelMaxPixels` at its scale (a picture
    /// at its fit; zoomed in, its sharp tiles make pans cheaper).
    private static func paintsLevel(_ s: ContentSighting, level: Int?) -> Bool {
        guard let level, s.extent.width * s.extent.height <= paintsLevelMaxPixels else { return false }
        return enlargesLevel(scale: s.scale, level: level)
            && s.content.storedPixels(scale: LevelPolicy.levelScale(level)) != nil
    }

    /// Whether content at `scale` resampled from `level` is enlarged from it.
    static func enlargesLevel(scale: Double, level: Int) -> Bool { scale > LevelPolicy.levelScale(level) }

    /// The backstop level of the sighted content, when it is coarser than `level` (the one
    /// its pixels come from at its scale; nil for content drawn at its own scale, whose
    /// settled level then counts) and not empty. None when the content keeps that level's
    /// pixels in memory (a picture's screen-size decode): its tiles are windows onto them, made
    /// without drawing, so they stand in themselves, and a backstop would only copy the picture
    /// smaller (6 tiles, 1.5 MiB, for each 2560×1600 picture of a gallery, 4 of them in a slide).
    /// Content drawn at its own scale (settled vector content, no level) is asked for its
    /// pixels at that scale, the ones its tiles show: asked at the level's scale,
    /// a drawing rendered itself whole once more there to answer (an SVG fitted at 0.27 was
    /// rendered at 0.25 too, 1500×1000 or 5.7 MiB, in a frame that took 39–61 ms, now 11–16).
    private static func backstop(of s: ContentSighting, level: Int?) -> StandInLevel? {
        let scale = s.scale, below = level ?? LevelPolicy.settledLevel(scale: scale)
        guard let backstop = LevelPolicy.backstopLevel(size: s.bounds.size), backstop < below else { return nil }
        let levelScale = LevelPolicy.levelScale(below)
        if levelScale <= scale, s.content.storedPixels(scale: level == nil ? scale : levelScale) != nil { return nil }
        let extent = s.extent(atLevel: backstop)
        return extent.isEmpty ? nil : StandInLevel(level: backstop, extent: extent)
    }
}
