// The first stage of a frame: the view tree walked once, flattened into what each visible view
// contributes in device pixels, back to front, with what the walk saw on the way (content
// invalidated or refined, views met for the first time). It reads the tree and changes nothing
// but the views' pending invalidations and refinements, which it takes.
import Foundation
import ScrollKit

/// A tiled content view the walk met, with what placing it at a level needs.
struct ContentSighting {
    var serial: UInt64
    var content: any TiledContent
    /// Exact device pixels per point.
    var scale: Double
    /// Device position of content pixel (0, 0), snapped to whole pixels.
    var originX: Int
    var originY: Int
    /// The view's bounds in content pixels at `scale`.
    var extent: PixelRect
    /// The view's bounds in points (standardised), for its extent at other levels.
    var bounds: CGRect
    /// The device pixels it shows (clipped); empty for content just outside the target.
    var visible: PixelRect
    /// The device pixels of it inside the reach around the target.
    var reachable: PixelRect

    /// The bounds in pixels of level `level`: [floor, ceil) of the scaled bounds.
    func extent(atLevel level: Int) -> PixelRect {
        let ls = LevelPolicy.levelScale(level), b = bounds
        let sx0 = clampToPixel((Double(b.minX) * ls).rounded(.down)), sx1 = clampToPixel((Double(b.maxX) * ls).rounded(.up))
        let sy0 = clampToPixel((Double(b.minY) * ls).rounded(.down)), sy1 = clampToPixel((Double(b.maxY) * ls).rounded(.up))
        return PixelRect(x: sx0, y: sy0, width: sx1 - sx0, height: sy1 - sy0)
    }
}

/// One entry of the walked list, back to front.
enum WalkEntry {
    /// A finished display item (a fill, an indicator).
    case item(DisplayItem)
    /// Tiled content on screen, to be placed at a level (`Placement`) before it is an item.
    case content(ContentSighting)
}

/// Content whose cached tiles no longer show it (`View.setNeedsDisplay`).
struct Invalidation: Equatable {
    var serial: UInt64
    /// The changed points in bounds coordinates; nil is everything.
    var rect: CGRect?
}

/// Content replaced by a finer rendition of itself (`TiledContent.takeRefinement`).
struct Refinement: Equatable {
    var serial: UInt64
    /// The scale (device pixels per point) up to which its pixels stayed the same.
    var unchangedUpTo: Double
}

/// Everything one walk produced, for the renderer to apply and the next stages to use.
struct WalkResult {
    /// The display list, with tiled content still to be placed.
    var entries: [WalkEntry] = []
    /// Tiled content just outside the target (within one target's width and height), which a
    /// scroll may bring in next: where its tiles would go, for prefetching. Not drawn.
    var nearby: [ContentSighting] = []
    /// Device pixels that content invalidations change.
    var contentDamage = PixelRegion()
    /// Views met for the first time, in walk order, with the serials given to them.
    var newViews: [(view: View, serial: UInt64)] = []
    /// Content invalidations taken from the views, in walk order.
    var invalidations: [Invalidation] = []
    /// Content refinements taken from the views, in walk order.
    var refinements: [Refinement] = []
}

/// Walks a view tree once per frame.
struct ViewWalk {
    /// The target's pixels: nothing outside is listed.
    let target: PixelRect
    /// Device pixels per point of the root.
    let outputScale: Double
    /// Serials of the views met in earlier frames.
    let registry: ViewRegistry
    private(set) var result = WalkResult()
    private var nextSerial: UInt64
    /// Whether the views' invalidations and refinements are taken (see `walk`).
    private var takesChanges = true

    /// Walks `root` into `target` at `outputScale`, over `clearColor`: the root placed at the
    /// target's origin, and the content views within one target's width and height of it noted.
    /// `takesChanges` false leaves the views' invalidations and refinements for the next walk
    /// that takes them (a look at the frame that draws nothing, `Renderer.stillFrame`).
    static func walk(_ root: View, target: PixelRect, outputScale: Double, clearColor: UInt32,
                     registry: ViewRegistry, takesChanges: Bool = true) -> WalkResult {
        var walk = ViewWalk(target: target, outputScale: outputScale, registry: registry)
        walk.takesChanges = takesChanges
        walk.result.entries.append(.item(DisplayItem(id: ItemID(view: 0, part: 0), kind: .fill(clearColor), bounds: target,
                                                     opaque: clearColor >> 24 == 255)))
        walk.visit(root)
        return walk.result
    }

    private init(target: PixelRect, outputScale: Double, registry: ViewRegistry) {
        self.target = target
        self.outputScale = outputScale
        self.registry = registry
        nextSerial = registry.nextSerial
    }

    private mutating func visit(_ root: View) {
        let s = outputScale
        guard s.isFinite, s > 0 else { return }
        let reach = PixelRect(x: target.x - target.width, y: target.y - target.height, width: 3 * target.width,
                              height: 3 * target.height)
        visit(root, parentScale: s, parentX: 0, parentY: 0, clip: target, reach: reach)
    }

    /// The serial of `view`, a new one when the registry does not know it.
    private mutating func serial(of view: View) -> UInt64 {
        if let serial = registry.serial(of: view) { return serial }
        let serial = nextSerial
        nextSerial += 1
        result.newViews.append((view, serial))
        return serial
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
        let serial = serial(of: view)
        let content = view as? any TiledContent

        let invalidations = takesChanges ? view.takeInvalidations() : []
        if !invalidations.isEmpty {
            for r in invalidations {
                if content != nil { result.invalidations.append(Invalidation(serial: serial, rect: r)) }
                guard let r, content != nil else { result.contentDamage.add(visible); continue }
                // Resampling filters reach two pixels beyond the changed points.
                let d = DeviceRect(x: Double(r.minX) * scale + Double(ox) - 2, y: Double(r.minY) * scale + Double(oy) - 2,
                                   width: Double(r.width) * scale + 4, height: Double(r.height) * scale + 4)
                // A rect too large to map (infinite) changes everything visible.
                result.contentDamage.add((d.isDrawable ? d.enclosingPixels : visible).intersection(visible))
            }
        }

        if takesChanges, let content, let unchangedUpTo = content.takeRefinement() {
            result.refinements.append(Refinement(serial: serial, unchangedUpTo: unchangedUpTo))
        }

        if let color = view.backgroundColor, !visible.isEmpty {
            let pixel = color.premultipliedARGB
            if pixel != 0 {
                result.entries.append(.item(DisplayItem(id: ItemID(view: serial, part: 0), kind: .fill(pixel), bounds: visible,
                                                        opaque: pixel >> 24 == 255)))
            }
        }

        if content == nil, let patterned = view as? any PatternContent, !visible.isEmpty {
            let pattern = patterned.pattern
            result.entries.append(.item(DisplayItem(
                id: ItemID(view: serial, part: 1),
                kind: .checker(pattern, originX: ox, originY: oy, side: pattern.side(atScale: scale)), bounds: visible,
                opaque: pattern.first >> 24 == 255 && pattern.second >> 24 == 255)))
        }

        if let content, LevelPolicy.drawableScales.contains(scale) {
            let sighting = ContentSighting(serial: serial, content: content, scale: scale, originX: ox, originY: oy,
                                           extent: extent, bounds: b, visible: visible, reachable: reachable)
            if !visible.isEmpty {
                result.entries.append(.content(sighting))
            } else if !reachable.isEmpty {
                result.nearby.append(sighting)
            }
        }

        let childClip = view.clipsToBounds ? visible : clip
        // What a clipping view (a scroll view) shows next lies outside its bounds: its reach
        // for subviews is its rect grown like the target's.
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
                result.entries.append(.item(DisplayItem(id: ItemID(view: serial, part: 2 + i),
                                                        kind: .indicator(indicator, rect: d, pointScale: scale), bounds: bounds,
                                                        opaque: false)))
            }
        }
    }
}
