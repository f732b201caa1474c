// The scroll indicators as a model: where each bar is and how opaque, frame by frame. The
// renderer draws exactly what this says; the scroll view never draws.
import Foundation

/// One scroll indicator as it should appear at a given time.
public struct ScrollIndicator: Hashable, Sendable {
    /// Which axis it shows: a vertical indicator runs along the right edge, a horizontal one
    /// along the bottom.
    public var axis: ScrollAxis
    /// The bar, in the scroll view's superview coordinates (the space of `ScrollView.frame`),
    /// i.e. where it sits on screen relative to the scroll view's parent.
    public var frame: CGRect
    /// The same bar in the scroll view's bounds (content) coordinates, the space UIKit's
    /// indicator subviews live in: it moves with `contentOffset`.
    public var rectInBounds: CGRect
    /// Opacity, 0...1, to multiply into the colours (1 while scrolling, fading to 0 after).
    public var alpha: Double
    /// The style it was built from.
    public var style: ScrollView.IndicatorStyle
    /// The bar's fill (before `alpha`).
    public var fillColor: Color
    /// The border drawn inside the bar's edge (before `alpha`); nil for none.
    public var borderColor: Color?
    /// Border width, in points (0 without a border).
    public var borderWidth: CGFloat
    /// Corner radius, in points: half the thickness, a pill.
    public var cornerRadius: CGFloat

    /// 3 pt: thickness of the `.default` indicator, as on iOS 13 and later.
    public static let defaultThickness: CGFloat = 3
    /// 2.5 pt: `.black` and `.white` are "smaller" (UIScrollView header); iOS 7–12's width.
    public static let plainThickness: CGFloat = 2.5
    /// 3 pt: gap between an indicator and the scroll view's edge (iOS-like, decision).
    public static let edgeInset: CGFloat = 3
    /// 36 pt: the shortest an indicator gets for very long content (decision, iOS-like).
    public static let minimumLength: CGFloat = 36
    /// While rubber-banding the bar shrinks by the overscroll, but not below two thicknesses
    /// (decision: still reads as a bar, not a dot).
    public static let minimumSquashedLengthFactor: CGFloat = 2
    /// 500 ms: how long indicators stay opaque after scrolling stops (decision, iOS-like).
    public static let hideDelay = 500.0
    /// 300 ms: length of the fade-out (decision, iOS-like).
    public static let fadeDuration = 300.0
    /// 600 ms: how long `flashScrollIndicators()` keeps them opaque before fading (decision:
    /// "a short time", long enough to notice).
    public static let flashHold = 600.0

    /// Fill, border and thickness per style. Decisions: black at 45 % reads on light content,
    /// the default's 1 pt white border (at 60 %) keeps it visible on dark content too; the
    /// white style is brighter (70 %) because white on black needs more contrast.
    static func appearance(for style: ScrollView.IndicatorStyle)
        -> (fill: Color, border: Color?, borderWidth: CGFloat, thickness: CGFloat) {
        switch style {
        case .default:
            (Color(red: 0, green: 0, blue: 0, alpha: 0.45), Color(red: 1, green: 1, blue: 1, alpha: 0.6), 1, defaultThickness)
        case .black:
            (Color(red: 0, green: 0, blue: 0, alpha: 0.45), nil, 0, plainThickness)
        case .white:
            (Color(red: 1, green: 1, blue: 1, alpha: 0.7), nil, 0, plainThickness)
        }
    }
}

/// Whether the indicators show, and when they fade.
enum IndicatorVisibility: Equatable {
    /// Not drawn.
    case hidden
    /// Opaque: something is scrolling.
    case shown
    /// Opaque until `start` (ms), then fading over `ScrollIndicator.fadeDuration`.
    case fadeScheduled(start: Double)

    func alpha(at time: Double) -> Double {
        switch self {
        case .hidden: return 0
        case .shown: return 1
        case .fadeScheduled(let start):
            guard time > start else { return 1 }
            return Swift.max(0, 1 - (time - start) / ScrollIndicator.fadeDuration)
        }
    }

    func isFading(at time: Double) -> Bool {
        guard case .fadeScheduled(let start) = self else { return false }
        return time >= start && time < start + ScrollIndicator.fadeDuration
    }
}

extension ScrollView {
    /// The indicators to draw at `time` (ms): only those with some opacity, on axes the
    /// content can scroll (or always bounces), whose `shows…ScrollIndicator` is on.
    public func indicators(at time: Double) -> [ScrollIndicator] {
        let alpha = indicatorVisibility.alpha(at: time)
        guard alpha > 0 else { return [] }
        let showVertical = showsVerticalScrollIndicator && canDrag(.vertical)
        let showHorizontal = showsHorizontalScrollIndicator && canDrag(.horizontal)
        var result: [ScrollIndicator] = []
        if showVertical, let bar = indicator(.vertical, alpha: alpha, otherShown: showHorizontal) { result.append(bar) }
        if showHorizontal, let bar = indicator(.horizontal, alpha: alpha, otherShown: showVertical) { result.append(bar) }
        return result
    }

    /// The indicators at `currentTime`.
    public var scrollIndicators: [ScrollIndicator] { indicators(at: currentTime) }

    /// Shows the indicators for a short time (600 ms, then a 300 ms fade) starting at
    /// `currentTime`, e.g. when the scroll view comes to the front. No effect while scrolling,
    /// when they are showing anyway.
    public func flashScrollIndicators() {
        if case .shown = indicatorVisibility { return }
        guard showsAnyScrollIndicator else { return }
        indicatorVisibility = .fadeScheduled(start: currentTime + ScrollIndicator.flashHold)
        setNeedsComposite()
    }

    /// Whether either indicator may show. With both hidden nothing is shown, so nothing fades
    /// after scrolling either: no frame ticks for bars nobody sees (a gallery's pager).
    var showsAnyScrollIndicator: Bool { showsVerticalScrollIndicator || showsHorizontalScrollIndicator }

    func showIndicators() {
        guard indicatorVisibility != .shown, showsAnyScrollIndicator else { return }
        indicatorVisibility = .shown
        setNeedsComposite()
    }

    func scheduleIndicatorFade(at time: Double) {
        guard case .shown = indicatorVisibility else { return }
        indicatorVisibility = .fadeScheduled(start: time + ScrollIndicator.hideDelay)
        // Hosts read `nextWakeTime` when they tick: ask for one, since the event that ended
        // the scrolling (a resting finger lifting) may have changed nothing else.
        setNeedsComposite()
    }

    func advanceIndicators(at time: Double) {
        guard case .fadeScheduled(let start) = indicatorVisibility, time >= start else { return }
        if time >= start + ScrollIndicator.fadeDuration { indicatorVisibility = .hidden }
        setNeedsComposite()
    }

    private func indicator(_ axis: ScrollAxis, alpha: Double, otherShown: Bool) -> ScrollIndicator? {
        let look = ScrollIndicator.appearance(for: indicatorStyle)
        let thickness = look.thickness
        let inset = ScrollIndicator.edgeInset
        let size = bounds.size
        let insets = scrollIndicatorInsets
        // Leave the corner to the other bar so the two never overlap.
        let corner = otherShown ? thickness + inset : 0

        let trackStart: CGFloat
        let trackEnd: CGFloat
        let across: CGFloat
        switch axis {
        case .vertical:
            trackStart = insets.top + inset
            trackEnd = size.height - insets.bottom - inset - corner
            across = size.width - insets.right - inset - thickness
        case .horizontal:
            trackStart = insets.left + inset
            trackEnd = size.width - insets.right - inset - corner
            across = size.height - insets.bottom - inset - thickness
        }
        let track = trackEnd - trackStart
        guard track > 0, track.isFinite, across.isFinite else { return nil }

        let range = scrollRange(axis)
        let leading = axis == .horizontal ? contentInset.left : contentInset.top
        let trailing = axis == .horizontal ? contentInset.right : contentInset.bottom
        let extent = contentSize[axis] + leading + trailing
        let viewport = size[axis]
        let ratio = extent > viewport && extent > 0 ? viewport / extent : 1
        var length = Swift.min(track, Swift.max(ScrollIndicator.minimumLength, track * ratio))
        let shortest = Swift.min(length, thickness * ScrollIndicator.minimumSquashedLengthFactor)
        let offset = contentOffset[axis]
        let position: CGFloat
        if offset < range.lowerBound {
            length = Swift.max(shortest, length - (range.lowerBound - offset))
            position = trackStart
        } else if offset > range.upperBound {
            length = Swift.max(shortest, length - (offset - range.upperBound))
            position = trackEnd - length
        } else {
            let span = range.upperBound - range.lowerBound
            let progress = span > 0 ? (offset - range.lowerBound) / span : 0
            position = trackStart + (track - length) * progress
        }

        // Viewport coordinates: relative to the visible top-left corner.
        let viewportRect = axis == .vertical
            ? CGRect(x: across, y: position, width: thickness, height: length)
            : CGRect(x: position, y: across, width: length, height: thickness)
        let inBounds = viewportRect.offsetBy(dx: bounds.origin.x, dy: bounds.origin.y)
        let topLeft = convertToSuperview(bounds.origin)
        let inSuperview = CGRect(x: topLeft.x + viewportRect.minX * transformScale,
                                 y: topLeft.y + viewportRect.minY * transformScale,
                                 width: viewportRect.width * transformScale,
                                 height: viewportRect.height * transformScale)
        return ScrollIndicator(axis: axis, frame: inSuperview, rectInBounds: inBounds, alpha: alpha,
                               style: indicatorStyle, fillColor: look.fill, borderColor: look.border,
                               borderWidth: look.borderWidth, cornerRadius: thickness / 2)
    }
}
