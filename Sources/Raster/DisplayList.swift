// One frame flattened: what each visible view contributes, in device pixels, back to front.
// Comparing two display lists gives the frame's damage without touching a pixel (Damage.swift).
import Foundation
import ScrollKit

/// Names one item across frames: the view's serial and which part of it.
struct ItemID: Hashable {
    var view: UInt64
    /// 0 background, 1 tiled or pattern content, 2… indicators.
    var part: Int
}

/// How a tiled content view is placed in a frame.
struct ContentPlacement: Equatable, Sendable {
    /// The renderer's serial for the view (tile keys).
    var view: UInt64
    /// Exact device pixels per point.
    var scale: Double
    /// Device position of content pixel (0, 0): the view's translation snapped to whole pixels,
    /// so slow scrolling moves content by whole pixels and never resamples (no shimmer).
    var originX: Int
    var originY: Int
    /// The view's bounds in content pixels at `scale`: nothing outside is shown.
    var extent: PixelRect
    /// Power-of-two level the pixels come from when they are resampled; nil when the content
    /// draws at `scale` itself.
    var sourceLevel: Int?
    /// True while the scale changes (a pinch): resample cached tiles every frame instead of
    /// caching resampled tiles that the next frame would not use.
    var transient: Bool
    /// Settled content painted every frame straight from its source level's tiles, which show
    /// the content's stored pixels (`TiledContent.storedPixels`) and so hold no memory: sharp
    /// tiles would be a second copy of the picture at the screen's scale (35 tiles, 8.75 MiB for
    /// a 2560×1600 photo at 1080p, three pages of them in a gallery). Only for enlargements,
    /// whose bilinear filter reads two source pixels per axis: a frame costs about what a zoom
    /// frame does, and its pixels are those the sharp tiles would hold.
    var paintsLevel = false
    /// The content promises opacity inside its bounds.
    var opaque: Bool
    /// The content's bounds in pixels of the source level: [floor, ceil) of the scaled bounds.
    var sourceExtent: PixelRect
    /// Levels whose cached tiles may stand in, scaled, for tiles not made yet (the level the
    /// last zoom frames showed, then coarser ones), each with its source extent: for sharp
    /// tiles, or in a `transient` frame for the tiles of `sourceLevel`.
    var standInLevels: [StandInLevel] = []
    /// The coarsest level (`LevelPolicy.backstopLevel`), last of `standInLevels` too: its
    /// tiles are kept cached while the content shows, so that some stand-in is always there.
    var backstop: StandInLevel?
    /// The visible cells (of the tile grid at `scale`) that this frame shows scaled from a
    /// stand-in level instead of their sharp tile (or in a `transient` frame instead of
    /// `sourceLevel`'s tiles), with that level; set by the cell plan.
    var standIns: [CellIndex: Int] = [:]
    /// While a zoom is under way, the level sharp tiles will be made from once the scale holds
    /// (worth prefetching), with its extent.
    var settlingLevel: StandInLevel?

    /// Device pixels per point of the tiles the content draws.
    var sourceScale: Double { sourceLevel.map(LevelPolicy.levelScale) ?? scale }

    /// The content's extent in pixels at `s`: its own scale's or its source level's.
    func sourceExtentFor(scale s: Double) -> PixelRect { s == scale ? extent : sourceExtent }

    /// Whether the two placements put the same content at the same place and scale, so that
    /// only cells whose source changed differ between them.
    func sameGeometry(_ other: ContentPlacement) -> Bool {
        view == other.view && scale == other.scale && originX == other.originX && originY == other.originY &&
            extent == other.extent && opaque == other.opaque
    }

    /// Where the pixels of `cell` come from: its sharp tile, or tiles of a level scaled.
    func source(of cell: CellIndex) -> CellSource {
        if let level = standIns[cell] { return .scaled(level: level) }
        if transient || paintsLevel, let sourceLevel { return .scaled(level: sourceLevel) }
        return .sharp
    }

    /// The placement that resamples level `level`'s tiles to this scale, as a zoom frame does.
    func scaled(from level: StandInLevel) -> ContentPlacement {
        ContentPlacement(view: view, scale: scale, originX: originX, originY: originY, extent: extent, sourceLevel: level.level,
                         transient: true, opaque: opaque, sourceExtent: level.extent)
    }
}

/// A cell of a content view's tile grid at its exact scale.
struct CellIndex: Hashable, Sendable {
    var column: Int
    var row: Int
}

/// Where a visible cell's pixels come from in one frame.
enum CellSource: Equatable {
    /// Its own tile at the exact scale.
    case sharp
    /// Tiles of a power-of-two level, resampled bilinearly (a zoom frame, or a stand-in).
    case scaled(level: Int)
}

/// A level that may stand in for missing sharp tiles, and the content's extent in its pixels.
struct StandInLevel: Equatable, Sendable {
    var level: Int
    var extent: PixelRect
}

/// What an item draws.
enum ItemKind: Equatable {
    /// A solid premultiplied colour.
    case fill(UInt32)
    /// A pattern view's squares (`PatternContent`), `side` device pixels, the first with its
    /// top-left at (`originX`, `originY`).
    case checker(CheckerPattern, originX: Int, originY: Int, side: Int)
    /// Tiles of a content view.
    case content(ContentPlacement)
    /// A scroll indicator placed at `rect` device pixels, `pointScale` device pixels per point.
    case indicator(IndicatorAppearance, rect: DeviceRect, pointScale: Double)
}

/// One entry of the display list.
struct DisplayItem: Equatable {
    var id: ItemID
    var kind: ItemKind
    /// Device pixels the item may change, already clipped.
    var bounds: PixelRect
    /// Every pixel of `bounds` is covered opaquely: whatever lies below need not be drawn.
    var opaque: Bool
}
