// Which power-of-two level tiled content is drawn from: the level a scale settles on, the
// scales drawn at all, how a frame places content during and after a zoom, and which cached
// level may stand in for a sharp tile not made yet. Pure: a view's zoom history and a scale
// in, a decision and the next history out.
import Foundation

/// What the renderer remembers of one content view's zoom between frames.
struct ZoomHistory: Equatable, Sendable {
    /// Exact scale of the previous frame: a change means a zoom is under way.
    var lastScale: Double?
    /// Level of the sharp tiles shown when the scale last settled.
    var level: Int?
    /// Level whose tiles the last zoom frame scaled: the first stand-in once it settles.
    var zoomLevel: Int?
}

/// How content at one exact scale is drawn in one frame.
struct PlacementMode: Equatable, Sendable {
    /// The power-of-two level its pixels come from; nil when drawn at the scale itself.
    var level: Int?
    /// Scaled afresh every frame from cached tiles of `level` (a zoom under way).
    var transient: Bool
    /// Levels that may stand in, scaled, for tiles not made yet (sharp tiles, or while
    /// `transient` the tiles of `level`), best first.
    var standIns: [Int]
    /// The scale changed since the last frame: a zoom is under way, and a frame must follow
    /// to show sharp tiles once the scale holds.
    var zooming: Bool
}

/// The level policy: pure functions of scales and zoom histories.
enum LevelPolicy {
    /// Zoom levels are clamped to 2^-16 ... 2^16 device pixels per point: beyond, views are
    /// sub-pixel or a single point fills the screen many times over.
    static let levelRange = -16...16
    /// Scales at which tiled content is drawn: within √2 of a level. Beyond, a view is far
    /// below a pixel or one point covers thousands of screens; only its background shows, so
    /// no filter ever averages millions of source pixels into one.
    static let drawableScales = levelScale(levelRange.lowerBound) / 2.0.squareRoot()...levelScale(levelRange.upperBound) * 2.0.squareRoot()

    /// Device pixels per point of zoom level `level`.
    static func levelScale(_ level: Int) -> Double { Double(sign: .plus, exponent: level, significand: 1) }

    /// The power-of-two level nearest `scale` (a drawable scale), within `levelRange`: the
    /// level sharp tiles come from once the scale holds.
    static func settledLevel(scale: Double) -> Int {
        min(max(Int(log2(scale).rounded()), levelRange.lowerBound), levelRange.upperBound)
    }

    /// The scale of the pixels a tile at scale `k` is made from: its own for power-of-two
    /// levels and the output scale (drawn directly), else its nearest level's.
    static func drawnScale(ofTile k: Double, outputScale: Double) -> Double {
        if k == outputScale { return k }
        return levelScale(settledLevel(scale: k))
    }

    /// How content at exact `scale` on screen is drawn this frame, given its `history`
    /// (updated for the next frame): the level its pixels come from, whether they are scaled
    /// afresh every frame (a zoom under way), and the levels that may stand in for missing tiles.
    static func placementMode(scale: Double, outputScale: Double, history: inout ZoomHistory) -> PlacementMode {
        let nearest = settledLevel(scale: scale)
        defer { history.lastScale = scale }
        if let last = history.lastScale, last != scale {
            // Zoom under way: keep scaling the tiles already drawn while they stay within a
            // factor of two of the output; sharp tiles follow once the scale holds still. A
            // frame exactly at a level (an animation ending at 1:1) draws that level directly.
            var level = nearest
            if let kept = history.level, levelScale(nearest) != scale {
                let ratio = scale / levelScale(kept)
                if ratio >= 0.5 && ratio <= 2 { level = kept }
            }
            // Stand-ins for the tiles of `level` not made yet (a zoom out reveals them, a
            // zoom past twice the settled level switches to a level not drawn): the level the
            // last frame scaled, the one last settled, then a half and a quarter of the resolution.
            let standIns = distinctLevels([history.zoomLevel, history.level, level - 1, level - 2], except: level)
            if levelScale(level) == scale {
                return PlacementMode(level: nil, transient: false, standIns: standIns, zooming: true)
            }
            history.zoomLevel = level
            return PlacementMode(level: level, transient: true, standIns: standIns, zooming: true)
        }
        history.level = nearest
        // Stand-ins: the level the zoom showed, then one and two levels coarser (a half and a
        // quarter of the resolution).
        let standIns = distinctLevels([history.zoomLevel, nearest - 1, nearest - 2], except: nil)
        // Content at the output's own scale (not zoomed) is drawn at it, also when that scale is
        // fractional (1.5): resampled from a power-of-two level, lines and text would blur.
        let exact = levelScale(nearest) == scale || scale == outputScale
        return PlacementMode(level: exact ? nil : nearest, transient: false, standIns: standIns, zooming: false)
    }

    /// `levels` in order, each once, within `levelRange`, without `excluded`.
    private static func distinctLevels(_ levels: [Int?], except excluded: Int?) -> [Int] {
        var distinct: [Int] = []
        for level in levels {
            guard let level, level != excluded, levelRange.contains(level), !distinct.contains(level) else { continue }
            distinct.append(level)
        }
        return distinct
    }

    /// The level content off screen is drawn from (nil: at `scale` itself), as if its scale
    /// had settled: a scale changed while nobody saw it is no zoom to animate.
    static func offscreenLevel(scale: Double, outputScale: Double, history: inout ZoomHistory) -> Int? {
        let nearest = settledLevel(scale: scale)
        history.lastScale = scale
        history.level = nearest
        return levelScale(nearest) == scale || scale == outputScale ? nil : nearest
    }

    /// Longest side of a content view at its backstop level, in pixels: 1024, so that its
    /// tiles are at most 4×4 (4 MiB, decision: at 3840×2160 a picture's backstop is about a
    /// quarter of the window across, blurred but recognisable for the frames it shows).
    static let backstopSide = 1024.0

    /// The level kept cached for content of `size` points as the stand-in of last resort (the
    /// frame's budget is then never broken for want of a stand-in, wherever a zoom or scroll
    /// leads): the finest level at which the whole content fits in `backstopSide` pixels.
    /// Nil when it would not be drawn (an empty view), or when it would be less than a tile
    /// across its shorter side (a long list, smeared to a few pixels: no stand-in for text).
    static func backstopLevel(size: CGSize) -> Int? {
        let width = Double(size.width), height = Double(size.height)
        guard width > 0, height > 0, width.isFinite, height.isFinite else { return nil }
        let level = min(max(Int(log2(backstopSide / max(width, height)).rounded(.down)), levelRange.lowerBound),
                        levelRange.upperBound)
        guard min(width, height) * levelScale(level) >= Double(TileGrid.size) else { return nil }
        return level
    }

    /// The stand-in choice: the first of `p`'s stand-in levels whose tiles covering `rect`
    /// (the visible part of a cell, content pixels at `p.scale`) are all cached, as
    /// `isCached` says (asked in order, stopping at the first tile missing).
    static func standIn(for rect: PixelRect, _ p: ContentPlacement, isCached: (TileKey) -> Bool) -> Int? {
        for level in p.standInLevels where levelScale(level.level) != p.scale {
            let keys = TileGrid.sourceKeys(p.scaled(from: level), for: rect)
            if !keys.isEmpty, keys.allSatisfy(isCached) { return level.level }
        }
        return nil
    }
}
