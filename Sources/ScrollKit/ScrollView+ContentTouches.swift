// Touches on controls in the content, by UIKit's rules: a touch-down is held back until the
// scroll view knows it is not a scroll (the content-touch delay), a drag may take a touch away from
// a control, and the two override points decide both.
import Foundation

extension ScrollView {
    /// 150 ms: how long a touch on a control waits, with `delaysContentTouches`, before the
    /// control gets it (UIScrollView's delay before delivering touchesBegan to content, as
    /// commonly cited). A finger that scrolls within it never reaches the control; one that
    /// lifts within it reaches it at the lift, as a tap.
    public static let contentTouchDelay = 150.0

    /// The enabled control the touch at `location` (superview coordinates) would go to: the
    /// hit view or its nearest ancestor that is a `Control`, inside the scroll view and not
    /// inside a scroll view nested in it (that one delivers its own content's touches). Only
    /// controls receive content touches here.
    func contentTouchTarget(at location: CGPoint) -> Control? {
        var view = hitTest(convertFromSuperview(location))
        while let current = view, current !== self {
            if let control = current as? Control, control.isEnabled { return control }
            if current is ScrollView { return nil }
            view = current.superview
        }
        return nil
    }

    /// A touch went down at `location` on a resting scroll view (touches that catch moving
    /// content are tap-to-stop, not for the content). With `delaysContentTouches` (and
    /// scrolling possible) the control waits for `contentTouchDelay`; otherwise it is asked
    /// for at once.
    func beginContentTouch(_ source: DragSession.Source, at location: CGPoint, time: Double, event: InputEvent) {
        guard let touchSource = source.touchSource, let control = contentTouchTarget(at: location) else { return }
        let touch = Touch(source: touchSource, location: convertFromSuperview(location), timestamp: time)
        contentTouch = ContentTouch(source: source, control: control, touch: touch, location: location,
                                    delivery: .pending(deliverAt: time + Self.contentTouchDelay))
        if !delaysContentTouches || !isScrollEnabled { deliverContentTouch(event: event) }
    }

    /// Hands a waiting touch to its control if `touchesShouldBegin(_:with:in:)` agrees
    /// (`touchDown`); otherwise the control never gets this touch. Returns whether it did.
    @discardableResult
    func deliverContentTouch(event: InputEvent?) -> Bool {
        guard var pending = contentTouch, case .pending = pending.delivery else { return false }
        pending.touch.location = convertFromSuperview(pending.location)
        guard touchesShouldBegin([pending.touch], with: event, in: pending.control) else {
            contentTouch = nil
            return false
        }
        // Without scrolling there is nothing to take the touch away for.
        pending.delivery = isScrollEnabled ? .delivered : .holding
        contentTouch = pending
        pending.control.beginTouch(at: controlPoint(pending.location, in: pending.control))
        return true
    }

    /// The delay of a waiting touch ran out at `now` without a scroll: the control gets it.
    func deliverDelayedContentTouch(at now: Double) {
        guard case .pending(let deliverAt)? = contentTouch?.delivery, now >= deliverAt else { return }
        deliverContentTouch(event: nil)
    }

    /// The scroll view is about to scroll (or pinch) with this touch: a waiting touch is
    /// dropped; a delivered one is cancelled (`touchCancel`) if `canCancelContentTouches` and
    /// `touchesShouldCancel(in:)` allow, otherwise the control keeps the touch for good and
    /// the scroll view must not scroll. Returns whether the scroll view may go ahead.
    func contentTouchYields() -> Bool {
        guard let touch = contentTouch else { return true }
        switch touch.delivery {
        case .pending:
            contentTouch = nil
            return true
        case .holding:
            return false
        case .delivered:
            if canCancelContentTouches && touchesShouldCancel(in: touch.control) {
                contentTouch = nil
                touch.control.cancelTouch()
                return true
            }
            contentTouch?.delivery = .holding
            return false
        }
    }

    /// A pinch takes the touch by the same rules as a drag: a zoom gesture sends no tracking
    /// to the content.
    func contentTouchYieldsToPinch() -> Bool { contentTouchYields() }

    /// The touch of `source` moved to `location` (superview coordinates): a control that has
    /// it follows it (highlighted while inside). Returns whether the control keeps the touch,
    /// in which case the scroll view must not scroll.
    func moveContentTouch(_ source: DragSession.Source, to location: CGPoint) -> Bool {
        guard var touch = contentTouch, touch.source == source else { return false }
        touch.location = location
        contentTouch = touch
        switch touch.delivery {
        case .pending:
            return false
        case .delivered:
            touch.control.continueTouch(at: controlPoint(location, in: touch.control))
            return false
        case .holding:
            touch.control.continueTouch(at: controlPoint(location, in: touch.control))
            return true
        }
    }

    /// The touch of `source` lifted: a waiting touch is delivered now (a quick tap:
    /// `touchDown` then `touchUpInside` at the same moment); a delivered one ends in
    /// `touchUpInside` or `touchUpOutside`. Returns whether a control got the touch.
    func endContentTouch(_ source: DragSession.Source, event: InputEvent) -> Bool {
        guard let touch = contentTouch, touch.source == source else { return false }
        if case .pending = touch.delivery {
            guard deliverContentTouch(event: event) else { return false }
        }
        guard let delivered = contentTouch, delivered.source == source else { return false }
        contentTouch = nil
        delivered.control.endTouch(at: controlPoint(delivered.location, in: delivered.control))
        return true
    }

    /// The system took the touches away: a control that has one gets `touchCancel`.
    func cancelContentTouch() {
        guard let touch = contentTouch else { return }
        contentTouch = nil
        if case .pending = touch.delivery { return }
        touch.control.cancelTouch()
    }

    private func controlPoint(_ location: CGPoint, in control: Control) -> CGPoint {
        control.convert(convertFromSuperview(location), from: self)
    }
}

/// The touch a control in the content has, or will get when the delay runs out.
struct ContentTouch {
    /// How far delivery has got.
    enum Delivery: Equatable {
        /// Waiting for `contentTouchDelay` (or the lift) to decide it is not a scroll.
        case pending(deliverAt: Double)
        /// The control has the touch; a drag may still take it away.
        case delivered
        /// The control keeps the touch: the scroll view does not scroll for it.
        case holding
    }

    var source: DragSession.Source
    var control: Control
    /// What the override points are shown.
    var touch: Touch
    /// The latest position, superview coordinates.
    var location: CGPoint
    var delivery: Delivery
}

extension DragSession.Source {
    /// The touch source a control can receive (fingers and the pointer button; touchpad
    /// gestures never touch content).
    var touchSource: Touch.Source? {
        switch self {
        case .touch(let id): .finger(id: id)
        case .pointer: .pointer
        case .touchpad, .touchpadPinch: nil
        }
    }
}
