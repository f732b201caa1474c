// One frame flattened: what each visible view contributes, in device pixels, back to front.
// Comparing two display lists gives the frame's damage without touching a pixel.
import Foundation
import ScrollKit

/// Names one item across frames: the view's serial and which part of it.
struct ItemID: Hashable {
    var view: UInt64
    /// 0 background, 1 tiled content, 2… indicators.
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
    /// The content promises opacity inside its bounds.
    var opaque: Bool
    /// The content's bounds in pixels of the source level: [floor, ceil) of the scaled bounds.
    var sourceExtent: PixelRect
    /// Levels whose cached tiles may stand in, scaled, for sharp tiles not made yet (the level
    /// the last zoom frames showed, then coarser ones), each with its source extent.
    var standInLevels: [StandInLevel] = []
    /// The visible cells (of the tile grid at `scale`) that this frame shows scaled from a
    /// stand-in level instead of their sharp tile, with that level; set by the renderer.
    var standIns: [CellIndex: Int] = [:]
    /// While a zoom is under way, the level sharp tiles will be made from once the scale holds
    /// (worth prefetching), with its extent.
    var settlingLevel: StandInLevel?

    /// Device pixels per point of the tiles the content draws.
    var sourceScale: Double { sourceLevel.map(Renderer.levelScale) ?? scale }

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
        if transient, let sourceLevel { return .scaled(level: sourceLevel) }
        return standIns[cell].map { .scaled(level: $0) } ?? .sharp
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

extension Array where Element == DisplayItem {
    /// The pixels that differ between a frame showing `old` and one showing `self`, judged
    /// from the items alone (content changes inside a view are added by the caller).
    func damage(since old: [DisplayItem]) -> PixelRegion {
        var region = PixelRegion()
        let oldByID = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let newIDs = Set(map(\.id))
        // Stacking order of the items both frames share: a change repaints all of them.
        let sharedOld = old.filter { newIDs.contains($0.id) }.map(\.id)
        let sharedNew = filter { oldByID[$0.id] != nil }.map(\.id)
        if sharedOld != sharedNew {
            for item in old { region.add(item.bounds) }
            for item in self { region.add(item.bounds) }
            return region
        }
        for item in self {
            if let before = oldByID[item.id] {
                if before != item {
                    if case .content(let a) = before.kind, case .content(let b) = item.kind, before.bounds == item.bounds,
                       before.opaque == item.opaque, a.sameGeometry(b) {
                        // Content in place (a zoom settling, stand-ins sharpening): only cells
                        // whose source changed differ.
                        region.formUnion(Self.changedCells(a, b, bounds: item.bounds))
                    } else {
                        region.add(before.bounds)
                        region.add(item.bounds)
                    }
                }
            } else {
                region.add(item.bounds)
            }
        }
        for item in old where !newIDs.contains(item.id) { region.add(item.bounds) }
        return region
    }

    /// The device pixels of the visible cells whose source differs between `a` and `b`, two
    /// placements of the same geometry shown within `bounds`. Changed cells are merged into
    /// runs along each tile row, and equal runs of consecutive rows into one rect, so the
    /// region stays small (all cells changed: the bounds, one rect).
    static func changedCells(_ a: ContentPlacement, _ b: ContentPlacement, bounds: PixelRect) -> PixelRegion {
        var rects: [PixelRect] = []
        let visible = bounds.offsetBy(dx: -b.originX, dy: -b.originY).intersection(b.extent)
        guard !visible.isEmpty else { return PixelRegion() }
        let t = Renderer.tileSize
        var open: [PixelRect] = []  // the previous row's runs, still growing downwards
        for row in floorDiv(visible.y, t)...floorDiv(visible.maxY - 1, t) {
            var runs: [PixelRect] = []
            var run: PixelRect?
            for column in floorDiv(visible.x, t)...floorDiv(visible.maxX - 1, t) {
                let cell = CellIndex(column: column, row: row)
                guard a.source(of: cell) != b.source(of: cell) else {
                    if let r = run { runs.append(r) }
                    run = nil
                    continue
                }
                let r = PixelRect(x: column * t, y: row * t, width: t, height: t)
                run = run.map { $0.union(r) } ?? r
            }
            if let r = run { runs.append(r) }
            var next: [PixelRect] = []
            for r in runs {
                if let k = open.firstIndex(where: { $0.x == r.x && $0.width == r.width && $0.maxY == r.y }) {
                    next.append(open.remove(at: k).union(r))
                } else {
                    next.append(r)
                }
            }
            rects.append(contentsOf: open)
            open = next
        }
        rects.append(contentsOf: open)
        return PixelRegion(rects.map { $0.offsetBy(dx: b.originX, dy: b.originY).intersection(bounds) })
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

/// Walks the view tree once per frame, building the display list and collecting the damage
/// that content invalidations (`setNeedsDisplay`) cause.
struct ListBuilder {
    let renderer: Renderer
    /// The target's pixels: nothing outside is listed.
    let target: PixelRect
    private(set) var items: [DisplayItem] = []
    private(set) var contentDamage = PixelRegion()
    /// The tiled content views listed, by serial.
    private(set) var contents: [UInt64: (content: any TiledContent, record: Renderer.ViewRecord)] = [:]
    /// Tiled content just outside the target (within `reach`), which a scroll may bring in next:
    /// where its tiles would go, for prefetching. Not drawn.
    private(set) var nearby: [NearbyContent] = []

    init(renderer: Renderer, target: PixelRect) {
        self.renderer = renderer
        self.target = target
        items.append(DisplayItem(id: ItemID(view: 0, part: 0), kind: .fill(renderer.clearColor), bounds: target,
                                 opaque: renderer.clearColor >> 24 == 255))
    }

    /// Lists `root` and its visible descendants, the root placed at the window's origin, and
    /// notes the content views within one window's width and height of it.
    mutating func visit(_ root: View) {
        let s = renderer.outputScale
        guard s.isFinite, s > 0 else { return }
        let reach = PixelRect(x: target.x - target.width, y: target.y - target.height, width: 3 * target.width,
                              height: 3 * target.height)
        visit(root, parentScale: s, parentX: 0, parentY: 0, clip: target, reach: reach)
    }

    /// `parentScale`, `parentX`, `parentY`: device = parentScale · p + parent offset for a
    /// point p in the superview's bounds coordinates.
    /// `reach` is the clip grown beyond the target (by the target's size, at each clipping
    /// ancestor): views inside it but outside `clip` are visited for `nearby` only.
    private mutating func visit(_ view: View, parentScale: Double, parentX: Double, parentY: Double, clip: PixelRect,
                                reach: PixelRect) {
        guard !view.isHidden else { return }
        let ts = Double(view.transformScale)
        let frameOrigin = view.frame.origin, b = view.bounds.standardized
        let scale = parentScale * ts
        guard scale.isFinite, scale > 0 else { return }
        // device = scale · p + (tx, ty) for p in this view's bounds coordinates.
        let tx = parentScale * (Double(frameOrigin.x) - Double(view.bounds.origin.x) * ts) + parentX
        let ty = parentScale * (Double(frameOrigin.y) - Double(view.bounds.origin.y) * ts) + parentY
        // A view placed at a non-finite position has no place on screen, nor its subviews.
        guard tx.isFinite, ty.isFinite else { return }
        let ox = clampToPixel(tx.rounded()), oy = clampToPixel(ty.rounded())
        let x0 = clampToPixel((Double(b.minX) * scale).rounded()), x1 = clampToPixel((Double(b.maxX) * scale).rounded())
        let y0 = clampToPixel((Double(b.minY) * scale).rounded()), y1 = clampToPixel((Double(b.maxY) * scale).rounded())
        let extent = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let rect = extent.offsetBy(dx: ox, dy: oy)
        let visible = rect.intersection(clip)
        let reachable = rect.intersection(reach)
        let record = renderer.record(for: view)
        let content = view as? any TiledContent

        let invalidations = view.takeInvalidations()
        if !invalidations.isEmpty {
            for r in invalidations {
                if content != nil { renderer.invalidate(serial: record.serial, rect: r) }
                guard let r, content != nil else { contentDamage.add(visible); continue }
                // Resampling filters reach two pixels beyond the changed points.
                let d = DeviceRect(x: Double(r.minX) * scale + Double(ox) - 2, y: Double(r.minY) * scale + Double(oy) - 2,
                                   width: Double(r.width) * scale + 4, height: Double(r.height) * scale + 4)
                // A rect too large to map (infinite) changes everything visible.
                contentDamage.add((d.isDrawable ? d.enclosingPixels : visible).intersection(visible))
            }
        }

        if let content, let unchangedUpTo = content.takeRefinement() {
            renderer.refine(serial: record.serial, keepingUpTo: unchangedUpTo)
        }

        if let color = view.backgroundColor, !visible.isEmpty {
            let pixel = color.premultipliedARGB
            if pixel != 0 {
                items.append(DisplayItem(id: ItemID(view: record.serial, part: 0), kind: .fill(pixel), bounds: visible,
                                         opaque: pixel >> 24 == 255))
            }
        }

        // The bounds in pixels of level `level`: [floor, ceil) of the scaled bounds.
        func levelExtent(_ level: Int) -> PixelRect {
            let ls = Renderer.levelScale(level)
            let sx0 = clampToPixel((Double(b.minX) * ls).rounded(.down)), sx1 = clampToPixel((Double(b.maxX) * ls).rounded(.up))
            let sy0 = clampToPixel((Double(b.minY) * ls).rounded(.down)), sy1 = clampToPixel((Double(b.maxY) * ls).rounded(.up))
            return PixelRect(x: sx0, y: sy0, width: sx1 - sx0, height: sy1 - sy0)
        }

        if let content, visible.isEmpty, !reachable.isEmpty, Renderer.drawableScales.contains(scale) {
            // Off screen, nothing animates that anyone sees: the scale counts as settled.
            let level = renderer.offscreenLevel(record, scale: scale)
            let sourceExtent = level.map(levelExtent) ?? extent
            if !sourceExtent.isEmpty {
                let placement = ContentPlacement(view: record.serial, scale: scale, originX: ox, originY: oy, extent: extent,
                                                 sourceLevel: level, transient: false, opaque: content.isOpaqueContent,
                                                 sourceExtent: sourceExtent)
                nearby.append(NearbyContent(placement: placement, content: content, reachable: reachable))
            }
        }

        if let content, !visible.isEmpty, Renderer.drawableScales.contains(scale) {
            let mode = renderer.placementMode(record, scale: scale)
            let sourceExtent = mode.level.map(levelExtent) ?? extent
            if !sourceExtent.isEmpty {
                if let last = record.lastOrigin {
                    let dx = ox - last.x, dy = oy - last.y
                    // Content moving up means scrolling down: the next tiles are below.
                    if dx != 0 || dy != 0 { record.ahead = (dx < 0 ? 1 : dx > 0 ? -1 : 0, dy < 0 ? 1 : dy > 0 ? -1 : 0) }
                    record.motion = (abs(dx), abs(dy))
                }
                record.lastOrigin = (ox, oy)
                let standInLevels = mode.standIns.map { StandInLevel(level: $0, extent: levelExtent($0)) }.filter { !$0.extent.isEmpty }
                var placement = ContentPlacement(view: record.serial, scale: scale, originX: ox, originY: oy, extent: extent,
                                                 sourceLevel: mode.level, transient: mode.transient,
                                                 opaque: content.isOpaqueContent, sourceExtent: sourceExtent,
                                                 standInLevels: standInLevels)
                if mode.transient, scale != renderer.outputScale {
                    let settled = renderer.settledLevel(scale: scale)
                    placement.settlingLevel = StandInLevel(level: settled, extent: levelExtent(settled))
                }
                items.append(DisplayItem(id: ItemID(view: record.serial, part: 1), kind: .content(placement),
                                         bounds: visible, opaque: content.isOpaqueContent))
                contents[record.serial] = (content, record)
            }
        }

        let childClip = view.clipsToBounds ? visible : clip
        // What a clipping view (a scroll view) shows next lies outside its bounds: its reach
        // for subviews is its rect grown like the window's.
        let grown = PixelRect(x: rect.x - target.width, y: rect.y - target.height, width: rect.width + 2 * target.width,
                              height: rect.height + 2 * target.height)
        let childReach = view.clipsToBounds ? grown.intersection(reach) : reach
        if view.clipsToBounds && childClip.isEmpty && childReach.isEmpty { return }
        for sub in view.subviews {
            visit(sub, parentScale: scale, parentX: tx, parentY: ty, clip: childClip, reach: childReach)
        }

        if let source = view as? any ScrollIndicatorSource {
            for (i, indicator) in source.indicatorsForDisplay.enumerated() where indicator.alpha > 0 {
                let r = indicator.rect.standardized
                let d = DeviceRect(x: Double(r.minX) * scale + tx, y: Double(r.minY) * scale + ty,
                                   width: Double(r.width) * scale, height: Double(r.height) * scale)
                let bounds = d.enclosingPixels.intersection(childClip)
                guard !bounds.isEmpty else { continue }
                items.append(DisplayItem(id: ItemID(view: record.serial, part: 2 + i),
                                         kind: .indicator(indicator, rect: d, pointScale: scale), bounds: bounds, opaque: false))
            }
        }
    }
}
