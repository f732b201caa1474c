// UIScrollView re-created: content offset is bounds.origin; drags, flings, bounces, paging,
// zooming and programmatic scrolling drive it; the delegate hears about it in UIKit's order.
import Foundation

/// A view that scrolls its subviews by moving `bounds.origin` (UIKit's `UIScrollView`).
///
/// Input arrives through `handle(_:)` (coordinates in the superview's space, the space of
/// `frame`) and time through `advance(to:)`: every animation (momentum, bounce, paging, animated
/// programmatic scrolling, wheel and key steps, indicator fades) moves only on those frame
/// ticks, so a replay of the same events and ticks gives the same frames. All times are in
/// milliseconds on the host's clock, all distances in points.
///
/// A host ticks frames while `isAnimating`, sleeps until `nextWakeTime` otherwise, and draws
/// the scroll indicators that `indicators(at:)` describes. The state lives in one `Motion`
/// value: a pinch rides inside the touch session that owns the fingers, and zoom animations
/// (bounce, programmatic, Ctrl+wheel) are a motion of their own. Touches on `Control`s in the
/// content are delivered by UIKit's rules (`delaysContentTouches`, `canCancelContentTouches`,
/// `touchesShouldBegin(_:with:in:)`, `touchesShouldCancel(in:)`), see ScrollView+ContentTouches.
open class ScrollView: View {
    // MARK: Nested types

    /// How quickly momentum fades: the fraction of the velocity kept after each millisecond.
    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        /// Fraction of velocity kept per millisecond.
        public var rawValue: CGFloat
        /// Creates a rate from a per-millisecond factor; see `isValid`.
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        /// 0.998 per ms: UIScrollView.DecelerationRate.normal.
        public static let normal = DecelerationRate(rawValue: 0.998)
        /// 0.99 per ms: UIScrollView.DecelerationRate.fast.
        public static let fast = DecelerationRate(rawValue: 0.99)
        /// Whether the rate describes motion that slows down and stops: finite and strictly
        /// between 0 and 1. Invalid rates are clamped into [0.5, 0.99999] when used.
        public var isValid: Bool { rawValue.isFinite && rawValue > 0 && rawValue < 1 }
    }

    /// The colour scheme of the scroll indicators (UIKit's `UIScrollView.IndicatorStyle`).
    public enum IndicatorStyle: String, Hashable, Sendable {
        /// Dark with a light border: visible on any background.
        case `default`
        /// Dark only, slightly thinner: for light backgrounds.
        case black
        /// Light only, slightly thinner: for dark backgrounds.
        case white
    }

    /// When dragging dismisses an on-screen keyboard (UIKit's `KeyboardDismissMode`).
    public enum KeyboardDismissMode: String, Hashable, Sendable {
        /// Dragging never dismisses it.
        case none
        /// A drag that begins dismisses it.
        case onDrag
        /// The keyboard follows the drag; on Linux there is no interactive keyboard, so this
        /// dismisses on drag like `.onDrag`.
        case interactive
    }

    // MARK: Content geometry

    /// The point of the content shown at the view's top-left corner, in points. It is
    /// `bounds.origin`; setting it never clamps (UIKit does not either) and ignores
    /// non-finite components. A running deceleration continues from the new offset and a
    /// drag re-anchors to it; an animation is abandoned.
    public var contentOffset: CGPoint {
        get { bounds.origin }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return }
            bounds.origin = newValue
        }
    }

    /// The size of the scrollable content, in points (default zero: nothing scrolls). Every
    /// zoom sets it to the zoom view's scaled frame size, as UIKit does.
    public var contentSize: CGSize = .zero {
        didSet { if contentSize != oldValue { setNeedsComposite() } }
    }

    /// Extra scrollable space around the content, in points (default zero).
    public var contentInset: EdgeInsets = .zero {
        didSet { if contentInset != oldValue { setNeedsComposite() } }
    }

    /// Receives scrolling events; held weakly, as in UIKit.
    public weak var delegate: ScrollViewDelegate?

    // MARK: Scrolling behaviour

    /// Whether a drag that starts clearly horizontal or vertical is locked to that axis
    /// (default false).
    public var isDirectionalLockEnabled = false
    /// Whether content can be pulled past its edges and springs back (default true).
    public var bounces = true
    /// Whether vertical dragging works even when the content is not taller than the view
    /// (needs `bounces`; default false).
    public var alwaysBounceVertical = false
    /// Whether horizontal dragging works even when the content is not wider than the view
    /// (needs `bounces`; default false).
    public var alwaysBounceHorizontal = false
    /// Whether drags come to rest on multiples of the bounds size (default false).
    public var isPagingEnabled = false
    /// Whether input scrolls or zooms the view at all (default true); code still can. When
    /// false, a touch on a control in the content goes to it at once and is never taken away.
    public var isScrollEnabled = true
    /// How fast momentum fades after a fling (default `.normal`).
    public var decelerationRate: DecelerationRate = .normal
    /// Whether the scroll-to-top trigger (Home / Ctrl+Home, `scrollToTop()`) works (default true).
    public var scrollsToTop = true
    /// When a drag dismisses the keyboard (default `.none`).
    public var keyboardDismissMode: KeyboardDismissMode = .none
    /// Called when a drag begins and `keyboardDismissMode` asks for the keyboard to go away;
    /// the host hides whatever text input it shows.
    public var keyboardDismissHandler: (() -> Void)?
    /// Whether a `Control` in the content gets a touch only once the scroll view has decided
    /// it is not a scroll: after `contentTouchDelay` without a drag, or at the lift of a quick
    /// tap (default true). When false the control gets it at touch-down.
    public var delaysContentTouches = true
    /// Whether a drag may take a touch away from a control that already has it (default
    /// true): the control gets `touchCancel` and the content scrolls, if
    /// `touchesShouldCancel(in:)` agrees. When false, once a control has the touch the scroll
    /// view does not scroll for it.
    public var canCancelContentTouches = true

    // MARK: Zooming

    /// Smallest allowed zoom scale (default 1). Non-finite or non-positive values count as 1.
    public var minimumZoomScale: CGFloat = 1
    /// Largest allowed zoom scale (default 1; zooming needs it to differ from the minimum).
    /// Non-finite or non-positive values count as 1, and a maximum below the minimum as the
    /// minimum.
    public var maximumZoomScale: CGFloat = 1
    /// Whether a pinch may go past the limits (rubber-banding) and animate back when it ends
    /// (default true); when false the scale stops at the limits.
    public var bouncesZoom = true
    /// The zoom view's current scale (scale factor, default 1). Setting it is
    /// `setZoomScale(_:animated: false)`: clamped to the limits, ignored without a zoom view.
    public var zoomScale: CGFloat {
        get { storedZoomScale }
        set { setZoomScale(newValue, animated: false) }
    }
    /// Called at the lift of a double tap (two taps within 300 ms and 20 pt, by finger or
    /// pointer button, that neither scrolled nor went to a control) with the first tap's
    /// location in the scroll view's bounds (content) coordinates, in points. The image viewer
    /// toggles its zoom here, as iOS photo viewers do; UIKit leaves the recognizer to the app.
    public var onDoubleTap: ((CGPoint) -> Void)?

    // MARK: Indicators

    /// Whether the horizontal indicator shows while scrolling (default true).
    public var showsHorizontalScrollIndicator = true {
        didSet { if showsHorizontalScrollIndicator != oldValue { setNeedsComposite() } }
    }
    /// Whether the vertical indicator shows while scrolling (default true).
    public var showsVerticalScrollIndicator = true {
        didSet { if showsVerticalScrollIndicator != oldValue { setNeedsComposite() } }
    }
    /// How far the indicators stay from each edge, in points (default zero).
    public var scrollIndicatorInsets: EdgeInsets = .zero {
        didSet { if scrollIndicatorInsets != oldValue { setNeedsComposite() } }
    }
    /// The indicators' colour scheme (default `.default`).
    public var indicatorStyle: IndicatorStyle = .default {
        didSet { if indicatorStyle != oldValue { setNeedsComposite() } }
    }

    // MARK: Clock and state

    /// The scroll view's clock, in milliseconds: set by `handle(_:)` (event time) and
    /// `advance(to:)` (frame time), never moved backwards by them. A host sets it before
    /// calling a programmatic method so that the animation starts at that time.
    public var currentTime: Double = 0


    /// The current motion. Every assignment bumps `motionGeneration`, which lets a sequence of
    /// delegate calls notice that a delegate started something new and stop.
    var motion: ScrollMotion = .idle {
        didSet { motionGeneration &+= 1 }
    }
    var motionGeneration: UInt64 = 0
    /// Set while the scroll view itself moves `bounds.origin`, so `boundsDidChange` can tell
    /// its own changes from outside ones.
    var isApplyingOffset = false
    /// Fractions of a point left over from wheel notches, carried into the next notch so that
    /// wheel targets stay on whole points and slow high-resolution wheels still scroll.
    var wheelRemainder: CGPoint = .zero
    /// Fractions of a wheel notch not yet turned into a page on a paging scroll view.
    var wheelPageRemainder: CGPoint = .zero
    /// Where the pointer is (superview coordinates), once known.
    var pointerLocation: CGPoint?
    /// The left button went down before any pointer position was known; the drag starts at
    /// the next position.
    var pointerPressPending = false
    /// Whether the indicators are showing, or when they start to fade.
    var indicatorVisibility: IndicatorVisibility = .hidden
    /// `zoomScale`'s value: the zoom view's `transformScale` as the scroll view last set it.
    var storedZoomScale: CGFloat = 1
    /// The touch that a control in the content has, or is about to get.
    var contentTouch: ContentTouch?
    /// Counts taps for `onDoubleTap`.
    var doubleTap = TapGestureRecognizer(numberOfTapsRequired: 2)
    /// The finger or pointer whose touch `doubleTap` is following.
    var tapSource: DragSession.Source?
    /// The time of the latest finger movement of a two-finger session not yet applied: the
    /// fingers of one input frame move together, in one pinch (or two-finger pan) step.
    var pendingPinchStep: Double?

    /// Whether a finger (or the pointer button, or fingers on the touchpad) is down on the
    /// scroll view; it may not be dragging yet.
    public var isTracking: Bool {
        switch motion {
        case .tracking: true
        case .dragging(let session): !session.isReleased
        default: false
        }
    }

    /// Whether the user started scrolling. As in UIKit it stays true after the finger lifts
    /// until the deceleration ends, so it reads as "scrolling".
    public var isDragging: Bool {
        switch motion {
        case .dragging, .decelerating: true
        default: false
        }
    }

    /// Whether the content keeps moving after the finger lifted; also true during a drag that
    /// caught a running deceleration, until that drag ends.
    public var isDecelerating: Bool {
        switch motion {
        case .dragging(let session): session.interruptedDeceleration
        case .decelerating(let deceleration): deceleration.hasBegun || deceleration.interruptedDeceleration
        default: false
        }
    }

    /// Whether a zoom gesture (two fingers or a touchpad pinch) is in progress.
    public var isZooming: Bool {
        switch motion {
        case .tracking(let session), .dragging(let session): session.pinch?.recognizer.isActive ?? false
        default: false
        }
    }

    /// Whether the zoom scale is animating back within its limits after a pinch went past them.
    public var isZoomBouncing: Bool {
        switch motion {
        case .tracking(let session), .dragging(let session): session.zoomBounce != nil
        case .zoomAnimating(let animation): animation.kind == .bounce
        default: false
        }
    }

    /// Whether anything needs frame ticks: momentum, bounce, an animation, a zoom bounce or a
    /// fading indicator.
    public var isAnimating: Bool {
        switch motion {
        case .decelerating, .animating, .zoomAnimating: return true
        case .tracking(let session) where session.zoomBounce != nil: return true
        case .dragging(let session) where session.zoomBounce != nil: return true
        default: return indicatorVisibility.isFading(at: currentTime)
        }
    }

    /// The next time, in milliseconds, at which something happens without input or a running
    /// animation: a touch reaching a control after `contentTouchDelay`, or the indicators
    /// starting to fade after their pause. nil when nothing is scheduled. A host sleeps until
    /// then (and calls `advance(to:)`) when `isAnimating` is false; the content-touch timer is
    /// reported even while animating, since frames need not fall on it.
    public var nextWakeTime: Double? {
        var wake: Double?
        if case .pending(let deliverAt)? = contentTouch?.delivery { wake = deliverAt }
        if !isAnimating, case .fadeScheduled(let start) = indicatorVisibility, start > currentTime {
            wake = Swift.min(wake ?? start, start)
        }
        return wake
    }

    /// A snapshot of the pan recognizer behind the current drag (an idle one when not
    /// dragging): state, lock, translation.
    public var panGestureRecognizer: PanGestureRecognizer {
        switch motion {
        case .tracking(let session), .dragging(let session): session.pan
        default: PanGestureRecognizer(isDirectionalLockEnabled: isDirectionalLockEnabled)
        }
    }

    // MARK: Life cycle

    /// Creates a scroll view with `frame` in its future superview's coordinates; it clips its
    /// content to its bounds.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
    }

    /// Reports every change of `contentOffset` to the delegate, and keeps a running drag or
    /// deceleration consistent with an offset changed from outside.
    open override func boundsDidChange(from oldBounds: CGRect) {
        super.boundsDidChange(from: oldBounds)
        guard oldBounds.origin != bounds.origin else { return }
        let own = isApplyingOffset
        isApplyingOffset = false
        if !own { offsetChangedFromOutside(from: oldBounds.origin) }
        delegate?.scrollViewDidScroll(self)
        for case let nested as ScrollView in subviews { nested.enclosingScrollViewDidScroll(self) }
    }

    /// The scroll view this one is a direct subview of scrolled (a pager turned): override
    /// point for nested scroll views (`ZoomingScrollView` returns to its fit out of sight).
    func enclosingScrollViewDidScroll(_ enclosing: ScrollView) {}

    /// Override point: the view zooming scales. Default: what the delegate's
    /// `viewForZooming(in:)` answers (UIKit asks only the delegate; a subclass such as
    /// `ZoomingScrollView` answers for itself and leaves the delegate to the app).
    open func viewForZooming() -> View? {
        delegate?.viewForZooming(in: self)
    }

    /// The zoom scale changed (after the content moved with it, before `scrollViewDidZoom`).
    func zoomDidChange() {}

    /// Zooming ended at `scale` (before `scrollViewDidEndZooming`).
    func zoomDidSettle(atScale scale: CGFloat) {}

    /// Moves the content as part of the scroll view's own motion (drag, momentum, animation).
    func applyOffset(_ offset: CGPoint) {
        guard offset.x.isFinite, offset.y.isFinite else { return }
        isApplyingOffset = true
        bounds.origin = offset
        isApplyingOffset = false
    }

    /// An offset set from outside adjusts the running drag or deceleration in place. That is
    /// not a new motion, so the generation is kept: a delegate nudging the offset from inside
    /// a callback must not cut the rest of the delegate sequence short.
    private func offsetChangedFromOutside(from old: CGPoint) {
        let new = contentOffset
        let generation = motionGeneration
        defer { if case .idle = motion {} else { motionGeneration = generation } }
        switch motion {
        case .dragging(var session):
            guard !session.isReleased else { return }
            for axis in ScrollAxis.allCases where old[axis] != new[axis] {
                session.virtualOffset[axis] = virtualOffset(forDisplayed: new[axis], axis: axis)
            }
            if session.pinch != nil { reanchorPinch(&session) }
            motion = .dragging(session)
        case .decelerating(var deceleration):
            var changed = false
            for axis in ScrollAxis.allCases where old[axis] != new[axis] {
                guard let axisMotion = deceleration[axis] else { continue }
                deceleration[axis] = restarted(axisMotion, from: new[axis], axis: axis)
                changed = true
            }
            if changed { motion = .decelerating(deceleration) }
        case .animating:
            // An explicit offset wins over an animation toward another one.
            becomeIdle(at: currentTime)
        case .tracking(var session):
            // A pinch keeps the content under the fingers from wherever the content now is.
            guard session.pinch != nil else { break }
            reanchorPinch(&session)
            motion = .tracking(session)
        case .idle, .zoomAnimating:
            // A zoom animation owns both scale and offset until it ends (a bounce must reach
            // the limit); the next frame puts the content where the animation says.
            break
        }
    }

    /// The same momentum, continued from `position`: friction and springs depend only on the
    /// present position and velocity, so this is exact when nothing else changed.
    /// nil when, from there, nothing is left to do.
    private func restarted(_ axisMotion: AxisMotion, from position: CGFloat, axis: ScrollAxis) -> AxisMotion? {
        let elapsed = currentTime - axisMotion.startTime
        let velocity = axisMotion.simulation.velocity(at: elapsed)
        let simulation = physics.momentum(from: Double(position), velocity: velocity, range: physicsRange(axis))
        if simulation.isDone(at: 0) { return nil }
        return AxisMotion(simulation: simulation, rest: CGFloat(simulation.finalPosition), startTime: currentTime)
    }

    // MARK: Content-touch override points

    /// Override point (UIKit's `touchesShouldBegin(_:with:in:)`): called just before `touches`
    /// (positions in the scroll view's bounds coordinates) are handed to `view`, a control in
    /// the content; returning false keeps them from it, and the touch then only scrolls or
    /// does nothing. `event` is the input that triggered the delivery (touch-down, or the lift
    /// of a quick tap), nil when the `contentTouchDelay` ran out. Default: true.
    open func touchesShouldBegin(_ touches: [Touch], with event: InputEvent?, in view: View) -> Bool {
        true
    }

    /// Override point (UIKit's `touchesShouldCancel(in:)`): called, only when
    /// `canCancelContentTouches` is true, as a drag or pinch is about to begin while `view`
    /// already has the touch. True takes the touch away (`touchCancel`) and scrolls; false
    /// lets `view` keep it and the scroll view does not scroll for this touch. Default, as
    /// UIKit's: true unless `view` is a `Control`.
    open func touchesShouldCancel(in view: View) -> Bool {
        !(view is Control)
    }

    // MARK: Ranges

    /// The offsets the content may rest at on `axis`, in points:
    /// `[-inset.leading, contentSize + inset.trailing − boundsSize]`, collapsing to
    /// `-inset.leading` when the content is smaller than the bounds.
    public func scrollRange(_ axis: ScrollAxis) -> ClosedRange<CGFloat> {
        scrollRange(axis, contentSize: contentSize)
    }

    /// The range the offsets would have on `axis` with `size` as the content size (a zoom
    /// computes where it will end before the zoom view is scaled).
    func scrollRange(_ axis: ScrollAxis, contentSize size: CGSize) -> ClosedRange<CGFloat> {
        func finite(_ v: CGFloat) -> CGFloat { v.isFinite ? v : 0 }
        let leading = finite(axis == .horizontal ? contentInset.left : contentInset.top)
        let trailing = finite(axis == .horizontal ? contentInset.right : contentInset.bottom)
        let content = finite(size[axis])
        let viewport = finite(bounds.size[axis])
        let low = -leading
        let high = Swift.max(low, content + trailing - viewport)
        return low...high
    }

    /// Whether the content is larger than the view on `axis` (there is somewhere to scroll).
    func hasScrollableRange(_ axis: ScrollAxis) -> Bool {
        let range = scrollRange(axis)
        return range.upperBound > range.lowerBound
    }

    /// Whether a drag moves the content on `axis`: it has a range, or it always bounces.
    func canDrag(_ axis: ScrollAxis) -> Bool {
        let alwaysBounce = axis == .horizontal ? alwaysBounceHorizontal : alwaysBounceVertical
        return hasScrollableRange(axis) || (bounces && alwaysBounce)
    }

    func clamped(_ offset: CGPoint) -> CGPoint {
        clamped(offset, contentSize: contentSize)
    }

    /// `offset` brought into the range the offsets would have with content of `size`.
    func clamped(_ offset: CGPoint, contentSize size: CGSize) -> CGPoint {
        var result = offset
        for axis in ScrollAxis.allCases {
            let range = scrollRange(axis, contentSize: size)
            result[axis] = Swift.min(Swift.max(offset[axis], range.lowerBound), range.upperBound)
        }
        return result
    }

    /// The offset shown for a finger that would put the content at `virtual` without edges:
    /// past an edge, the rubber band.
    func displayedOffset(forVirtual virtual: CGFloat, axis: ScrollAxis) -> CGFloat {
        CGFloat(ScrollPhysics.displayed(virtual: Double(virtual), range: physicsRange(axis), dimension: Double(bounds.size[axis])))
    }

    /// The inverse of `displayedOffset(forVirtual:axis:)`.
    func virtualOffset(forDisplayed displayed: CGFloat, axis: ScrollAxis) -> CGFloat {
        CGFloat(ScrollPhysics.virtual(displayed: Double(displayed), range: physicsRange(axis), dimension: Double(bounds.size[axis])))
    }

    /// The range of `axis` as doubles, for the physics.
    func physicsRange(_ axis: ScrollAxis) -> ClosedRange<Double> {
        let range = scrollRange(axis)
        return Double(range.lowerBound)...Double(range.upperBound)
    }

    /// The scroll policy as the properties set it now.
    public var physics: ScrollPhysics {
        ScrollPhysics(decelerationRate: Double(decelerationRate.rawValue), bounces: bounces, isPagingEnabled: isPagingEnabled)
    }
}
