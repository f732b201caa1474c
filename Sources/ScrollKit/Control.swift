// A button-like view that reports touch-down, tap and cancel to its actions, and the touch
// values the scroll view hands to its content-touch override points.
import Foundation

/// A touch as the scroll view's override points see it (UIKit's `UITouch`, reduced to what a
/// decision needs).
public struct Touch: Hashable, Sendable {
    /// What is touching.
    public enum Source: Hashable, Sendable {
        /// A finger on a touchscreen, by its compositor touch id.
        case finger(id: Int)
        /// The pointer with its left button held (desktop clicking and panning).
        case pointer
    }

    /// The finger or pointer.
    public var source: Source
    /// Where it touches, in the scroll view's bounds (content) coordinates, in points.
    public var location: CGPoint
    /// When it touched down, in milliseconds on the event clock.
    public var timestamp: Double

    /// Creates a touch description.
    public init(source: Source, location: CGPoint, timestamp: Double) {
        self.source = source
        self.location = location
        self.timestamp = timestamp
    }
}

/// A view that tracks one touch and reports what happens to it (UIKit's `UIControl`, as a
/// button uses it): highlighted while the touch is down inside, `touchUpInside` for a tap,
/// `touchCancel` when a scroll view takes the touch away to scroll.
///
/// A host (the scroll view, for controls in its content) drives it through `beginTouch(at:)`,
/// `continueTouch(at:)`, `endTouch(at:)` and `cancelTouch()`; applications listen with
/// `addAction(for:_:)`.
open class Control: View {
    /// What a control reports (UIKit's `UIControl.Event` members for touches).
    public enum Event: String, Hashable, Sendable, CaseIterable {
        /// A touch began on the control.
        case touchDown
        /// The touch lifted inside the control: a tap.
        case touchUpInside
        /// The touch lifted outside the control after leaving it (only possible when nothing
        /// took the touch away, e.g. a scroll view with `canCancelContentTouches` off).
        case touchUpOutside
        /// The touch was taken away (a scroll view began scrolling, or the system cancelled it).
        case touchCancel
    }

    /// Whether the control accepts touches (default true); a disabled control never gets one.
    public var isEnabled = true {
        didSet {
            if !isEnabled, isTracking { cancelTouch() }
        }
    }

    /// Whether the control shows its pressed look: a touch is down inside it.
    public var isHighlighted = false {
        didSet { if isHighlighted != oldValue { setNeedsDisplay() } }
    }

    /// Whether a touch is being tracked (between touch-down and lift or cancel).
    public private(set) var isTracking = false

    /// Whether the tracked touch is inside the control's bounds now.
    public private(set) var isTouchInside = false

    private var actions: [(event: Event, handler: (Control, Event) -> Void)] = []

    /// Creates a control with `frame` in its future superview's coordinates.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
    }

    /// Calls `handler` with the control and the event whenever `event` happens, after the
    /// handlers added before it.
    public func addAction(for event: Event, _ handler: @escaping (Control, Event) -> Void) {
        actions.append((event, handler))
    }

    /// Calls `handler` for each of `events`.
    public func addAction(for events: [Event], _ handler: @escaping (Control, Event) -> Void) {
        for event in events { addAction(for: event, handler) }
    }

    /// Runs the handlers added for `event`, in the order they were added.
    public func sendActions(for event: Event) {
        for action in actions where action.event == event { action.handler(self, event) }
    }

    /// A touch began at `point` (the control's bounds coordinates): highlight, `touchDown`.
    /// Ignored while disabled or already tracking.
    open func beginTouch(at point: CGPoint) {
        guard isEnabled, !isTracking else { return }
        isTracking = true
        isTouchInside = true
        isHighlighted = true
        sendActions(for: .touchDown)
    }

    /// The tracked touch moved to `point` (bounds coordinates): highlighted only while inside.
    open func continueTouch(at point: CGPoint) {
        guard isTracking else { return }
        isTouchInside = self.point(inside: point)
        isHighlighted = isTouchInside
    }

    /// The tracked touch lifted at `point` (bounds coordinates): `touchUpInside` or
    /// `touchUpOutside`.
    open func endTouch(at point: CGPoint) {
        guard isTracking else { return }
        isTouchInside = self.point(inside: point)
        isTracking = false
        isHighlighted = false
        sendActions(for: isTouchInside ? .touchUpInside : .touchUpOutside)
    }

    /// The tracked touch was taken away: `touchCancel`.
    open func cancelTouch() {
        guard isTracking else { return }
        isTracking = false
        isTouchInside = false
        isHighlighted = false
        sendActions(for: .touchCancel)
    }
}
