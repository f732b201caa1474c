// Groups the pieces of one wl_pointer.frame into InputEvent values; pure, so the wheel
// paths (axis_discrete for seat v5–7, axis_value120 for v8) are testable without a compositor.
import Foundation
import ScrollKit

/// Accumulates `wl_pointer` events until `frame` and turns them into `InputEvent`s.
public struct PointerFrameBuilder: Sendable {
    /// Largest axis motion accepted per frame, in points: a compositor or device sending
    /// more is clamped (a real touchpad flick stays far below 1000 pt per event).
    public static let maxAxisValue: CGFloat = 10_000
    /// Largest high-resolution wheel amount per frame (100 notches of 120).
    public static let maxValue120 = 12_000

    private var items: [InputEvent] = []
    private var source: InputEvent.AxisSource?
    private var dx: CGFloat = 0, dy: CGFloat = 0
    private var value120X: Int?, value120Y: Int?
    private var hasAxis = false
    private var axisTime: Double?
    private var stops: [InputEvent] = []
    private var leave: InputEvent?
    private var lastTime: Double = 0

    /// Creates an empty builder.
    public init() {}

    /// `wl_pointer.enter` (no timestamp: `now` is used).
    public mutating func enter(x: Double, y: Double, now: Double) {
        items.append(InputEvent(time: max(now, lastTime), kind: .pointerEnter(location: CGPoint(x: x, y: y))))
    }

    /// `wl_pointer.leave`; delivered last in its frame.
    public mutating func leave(now: Double) {
        leave = InputEvent(time: max(now, lastTime), kind: .pointerLeave)
    }

    /// `wl_pointer.motion`.
    public mutating func motion(time: Double, x: Double, y: Double) {
        lastTime = time
        items.append(InputEvent(time: time, kind: .pointerMotion(location: CGPoint(x: x, y: y))))
    }

    /// `wl_pointer.button` with a Linux input event code (BTN_LEFT = 0x110…); other buttons are ignored.
    public mutating func button(time: Double, code: UInt32, pressed: Bool) {
        lastTime = time
        // linux/input-event-codes.h: BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112.
        let button: InputEvent.Button
        switch code {
        case 0x110: button = .left
        case 0x111: button = .right
        case 0x112: button = .middle
        default: return
        }
        items.append(InputEvent(time: time, kind: .pointerButton(button: button, pressed: pressed)))
    }

    /// `wl_pointer.axis_source` (0 wheel, 1 finger, 2 continuous, 3 wheel tilt).
    public mutating func axisSource(_ raw: UInt32) {
        switch raw {
        case 0: source = .wheel
        case 1: source = .finger
        case 2: source = .continuous
        case 3: source = .wheelTilt
        default: break  // unknown future source: keep what the frame had
        }
    }

    /// `wl_pointer.axis`: `axis` 0 vertical, 1 horizontal; `value` in surface points.
    public mutating func axis(time: Double, axis: UInt32, value: Double) {
        guard value.isFinite else { return }
        lastTime = time
        axisTime = axisTime ?? time
        hasAxis = true
        let v = min(max(CGFloat(value), -Self.maxAxisValue), Self.maxAxisValue)
        if axis == 0 { dy += v } else if axis == 1 { dx += v }
    }

    /// `wl_pointer.axis_discrete` (seat v5–7): whole notches; becomes value120 = 120 per notch.
    public mutating func axisDiscrete(axis: UInt32, discrete: Int32) {
        addValue120(axis: axis, amount: Int(discrete) * 120)
    }

    /// `wl_pointer.axis_value120` (seat v8): fractions of a notch, 120 per notch.
    public mutating func axisValue120(axis: UInt32, value120: Int32) {
        addValue120(axis: axis, amount: Int(value120))
    }

    private mutating func addValue120(axis: UInt32, amount: Int) {
        let clamped = min(max(amount, -Self.maxValue120), Self.maxValue120)
        hasAxis = true
        if axis == 0 { value120Y = min(max((value120Y ?? 0) + clamped, -Self.maxValue120), Self.maxValue120) }
        if axis == 1 { value120X = min(max((value120X ?? 0) + clamped, -Self.maxValue120), Self.maxValue120) }
    }

    /// `wl_pointer.axis_stop`: the touchpad finger lifted on `axis`.
    public mutating func axisStop(time: Double, axis: UInt32) {
        lastTime = time
        stops.append(InputEvent(time: time, kind: .axisStop(axis: axis == 0 ? .vertical : .horizontal)))
    }

    /// `wl_pointer.frame`: returns the frame's events in order and starts a new frame.
    public mutating func frame() -> [InputEvent] {
        var events = items
        if hasAxis {
            // A wheel that sent only notches (no axis value) still scrolls: 15 pt per notch
            // is libinput's legacy wheel step, which compositors use for the axis value.
            let notchPoints: CGFloat = 15
            let x = dx == 0 && value120X != nil ? CGFloat(value120X!) / 120 * notchPoints : dx
            let y = dy == 0 && value120Y != nil ? CGFloat(value120Y!) / 120 * notchPoints : dy
            let src = source ?? ((value120X != nil || value120Y != nil) ? .wheel : .continuous)
            events.append(InputEvent(time: axisTime ?? lastTime,
                                     kind: .pointerAxis(source: src, dx: x, dy: y, value120X: value120X, value120Y: value120Y)))
        }
        events += stops
        if let leave { events.append(leave) }
        self = PointerFrameBuilder(lastTime: lastTime)
        return events
    }

    private init(lastTime: Double) {
        self.lastTime = lastTime
    }
}
