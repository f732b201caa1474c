// The scroll view's state as values: what it is doing (one `Motion`), and the payload each
// kind of motion carries (the drag session, the deceleration's axes, timed animations, zooms).
import Foundation

/// What the scroll view is doing; one value, so the flags derived from it never disagree.
enum ScrollMotion {
    /// At rest.
    case idle
    /// A finger (or the pointer button) is down but has not moved past the slop.
    case tracking(DragSession)
    /// The content follows a finger, pointer or touchpad; also while the end-of-drag
    /// delegate calls run (`isReleased`).
    case dragging(DragSession)
    /// Momentum, bounce or paging after the finger lifted.
    case decelerating(Deceleration)
    /// A timed animation: programmatic, wheel or key step, scroll to top.
    case animating(ScrollAnimation)
    /// Scale and offset animating together: the bounce back into the zoom limits after a
    /// pinch, an animated `setZoomScale`/`zoom(to:)`, or a Ctrl+wheel step.
    case zoomAnimating(ZoomAnimation)
}

// MARK: - State payloads

/// One finger's (pointer's, touchpad's) drag.
struct DragSession {
    /// What drives the drag.
    enum Source: Equatable {
        case touch(id: Int)
        case pointer
        case touchpad
        /// A touchpad pinch (`zwp_pointer_gestures_v1`): zooms, never pans by itself.
        case touchpadPinch
    }

    var source: Source
    var pan: PanGestureRecognizer
    /// The offset the finger asks for before rubber-banding (past an edge it runs ahead of
    /// the displayed offset).
    var virtualOffset: CGPoint
    /// The drag caught a running deceleration: `isDecelerating` stays true until it ends, and
    /// the leftover `scrollViewDidEndDecelerating` is owed (docs/scroll-view.md, delegate calls 3 and 4).
    var interruptedDeceleration: Bool
    /// The finger lifted; the end-of-drag delegate calls are running.
    var isReleased = false
    /// Velocity (pt/ms, content direction, per axis) that a fling ending this drag carries from
    /// the deceleration it caught (`ScrollPhysics.carriedMomentum`); zero when it caught none.
    var carriedVelocity: CGPoint = .zero
    /// Where the session's own finger (or the pointer) is, superview coordinates: the pan
    /// follows it alone, or the midpoint of it and `secondFinger`.
    var location: CGPoint = .zero
    /// A second finger on the scroll view while zooming is possible (touch sessions only);
    /// fingers beyond the second are ignored.
    var secondFinger: Finger?
    /// The pinch of the two fingers, or of the touchpad.
    var pinch: PinchSession?
    /// The scale animating back into its limits after a pinch ended with a finger still down.
    var zoomBounce: ZoomBounce?

    init(source: Source, pan: PanGestureRecognizer, virtualOffset: CGPoint, interruptedDeceleration: Bool,
         location: CGPoint = .zero) {
        self.source = source
        self.pan = pan
        self.virtualOffset = virtualOffset
        self.interruptedDeceleration = interruptedDeceleration
        self.location = location
    }

    /// What the pan follows: the finger, or the midpoint of two fingers.
    var panPoint: CGPoint {
        guard let second = secondFinger else { return location }
        return PinchGestureRecognizer.midpoint(location, second.location)
    }
}

/// A touching finger: its compositor id and where it is (superview coordinates).
struct Finger: Equatable {
    var id: Int
    var location: CGPoint
}

/// One axis of a deceleration.
struct AxisMotion {
    var simulation: any Simulation
    /// Where the content rests: exactly the target handed to (and maybe changed by) the delegate.
    var rest: CGFloat
    /// When this axis's simulation started, in ms.
    var startTime: Double
}

/// Momentum, bounce or paging after the finger lifted.
struct Deceleration {
    var horizontal: AxisMotion?
    var vertical: AxisMotion?
    /// `scrollViewWillBeginDecelerating` was sent.
    var hasBegun: Bool
    /// Carried over from the drag that caught an earlier deceleration.
    var interruptedDeceleration: Bool

    subscript(axis: ScrollAxis) -> AxisMotion? {
        get { axis == .horizontal ? horizontal : vertical }
        set { if axis == .horizontal { horizontal = newValue } else { vertical = newValue } }
    }
}

/// A timed animation of both axes toward one target.
struct ScrollAnimation {
    /// What started it, which decides the delegate call at its end.
    enum Kind {
        /// `setContentOffset(_:animated:)`, `scrollRectToVisible(_:animated:)`: ends with
        /// `scrollViewDidEndScrollingAnimation`.
        case programmatic
        /// A wheel notch or a scrolling key: ends with `scrollViewDidEndScrollingAnimation`.
        case step
        /// The scroll-to-top trigger: ends with `scrollViewDidScrollToTop`.
        case scrollToTop
    }

    var kind: Kind
    var horizontal: ScrollAnimationCurve
    var vertical: ScrollAnimationCurve
    var target: CGPoint
    var startTime: Double

    init(kind: Kind, from start: CGPoint, to target: CGPoint, initialVelocity: CGPoint?, duration: Double,
         startTime: Double) {
        self.kind = kind
        self.target = target
        self.startTime = startTime
        if kind == .programmatic {
            // Restarted from where it is when retargeted: the velocity stays constant per move.
            horizontal = ScrollAnimationCurve(constantVelocityFrom: Double(start.x), to: Double(target.x), duration: duration)
            vertical = ScrollAnimationCurve(constantVelocityFrom: Double(start.y), to: Double(target.y), duration: duration)
        } else {
            horizontal = ScrollAnimationCurve(from: Double(start.x), to: Double(target.x), duration: duration,
                                              initialVelocity: initialVelocity.map { Double($0.x) })
            vertical = ScrollAnimationCurve(from: Double(start.y), to: Double(target.y), duration: duration,
                                            initialVelocity: initialVelocity.map { Double($0.y) })
        }
    }

    func position(at t: Double) -> CGPoint {
        CGPoint(x: horizontal.position(at: t), y: vertical.position(at: t))
    }

    func velocity(at t: Double) -> CGPoint {
        CGPoint(x: horizontal.velocity(at: t), y: vertical.velocity(at: t))
    }

    func isDone(at t: Double) -> Bool { horizontal.isDone(at: t) && vertical.isDone(at: t) }
}

// MARK: - Zoom state payloads

/// The pinch inside a touch (or touchpad) session.
struct PinchSession {
    var recognizer: PinchGestureRecognizer
    /// The zoom view's point (its own coordinates) kept under the centroid.
    var anchor: CGPoint
    /// The scale the fingers ask for is this times `recognizer.scale` (before rubber-banding).
    var startAskedScale: CGFloat
    /// The content offset when the second finger touched down.
    var startOffset: CGPoint
}

/// A scale returning to its limit while a finger is still down after a pinch.
struct ZoomBounce {
    var to: CGFloat
    /// The point it zooms around (the pinch's last midpoint), superview coordinates.
    var around: CGPoint
    var curve: ScrollAnimationCurve
    var startTime: Double

    init(from: CGFloat, to: CGFloat, around: CGPoint, startTime: Double) {
        self.to = to
        self.around = around
        self.startTime = startTime
        curve = ScrollAnimationCurve(from: Double(from), to: Double(to), duration: ScrollView.zoomBounceDuration)
    }
}

/// Scale and offset animating together toward a target, both moving in proportion so that
/// one point of the content stays fixed on screen (or, without a scale change, a plain move).
struct ZoomAnimation {
    /// What started it.
    enum Kind: Equatable {
        /// Back into the limits after a pinch: `isZoomBouncing`.
        case bounce
        /// `setZoomScale(_:animated:)` or `zoom(to:animated:)`.
        case programmatic
        /// A Ctrl+wheel notch.
        case step
    }

    var kind: Kind
    var fromScale: CGFloat
    var toScale: CGFloat
    var fromOffset: CGPoint
    var toOffset: CGPoint
    /// Progress from 0 to 1: an ease-out.
    var progress: ScrollAnimationCurve
    var startTime: Double

    init(kind: Kind, fromScale: CGFloat, toScale: CGFloat, fromOffset: CGPoint, toOffset: CGPoint, duration: Double,
         startTime: Double) {
        self.kind = kind
        self.fromScale = fromScale
        self.toScale = toScale
        self.fromOffset = fromOffset
        self.toOffset = toOffset
        self.startTime = startTime
        progress = ScrollAnimationCurve(from: 0, to: 1, duration: duration)
    }

    func scale(at t: Double) -> CGFloat {
        fromScale + (toScale - fromScale) * CGFloat(progress.position(at: t))
    }

    // Offset and scale both linear in the progress: with content growing linearly too, an
    // offset within its range at both ends stays within it throughout.
    func offset(at t: Double) -> CGPoint {
        let u = CGFloat(progress.position(at: t))
        return CGPoint(x: fromOffset.x + (toOffset.x - fromOffset.x) * u, y: fromOffset.y + (toOffset.y - fromOffset.y) * u)
    }

    func isDone(at t: Double) -> Bool { progress.isDone(at: t) }
}
