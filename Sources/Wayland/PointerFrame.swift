// Groups the pieces of one wl_pointer.frame into InputEvent values; pure, so the wheel
// paths (axis_discrete for seat v5–7, axis_value120 for v8) are testable without a compositor.
import Foundation
import ScrollKit

/// Accumulates `wl_pointer` events until `frame` and turns them into `InputEvent`s.
///
/// It also keeps the little state the protocol implies across frames: whether the pointer
/// is on our surface (events outside an `enter`…`leave` span are dropped, so a compositor
/// sending motion without enter moves nothing) and which buttons are held (a drag survives
/// `leave` until its button is released, and a vanishing device cancels it).
public struct PointerFrameBuilder: Sendable {
    /// Largest axis motion accepted per frame, in points: a compositor or device sending
    /// more is clamped (a real touchpad flick stays far below 1000 pt per event).
    public static let maxAxisValue: CGFloat = 10_000
    /// Largest high-resolution wheel amount per frame (100 notches of 120).
    public static let maxValue120 = 12_000
    /// Largest motion coordinate accepted, in surface points: wl_fixed allows ±8 388 608,
    /// no surface is wider than `Window.maxEdge` (16384), so anything beyond is garbage.
    public static let maxCoordinate: Double = 1_000_000
    /// Most buttons remembered as held: a mouse has a handful; this bounds memory when a
    /// hostile compositor presses thousands of codes without releasing them.
    public static let maxHeldButtons = 32

    /// The events of the frame being built, in arrival order.
    private var batch = Batch()
    /// Whether the pointer is inside our surface (between `enter` and `leave`).
    public private(set) var isFocused = false
    /// Linux button codes pressed on our surface and not yet released.
    public private(set) var heldButtons: Set<UInt32> = []
    /// Events dropped because they broke the protocol's order (motion without enter, a
    /// release of a button never pressed…), for diagnostics and tests.
    public private(set) var droppedEvents = 0
    /// The latest event time seen, in ms: events without a timestamp are stamped no earlier.
    public private(set) var lastTime: Double = 0

    private struct Batch: Sendable {
        var items: [InputEvent] = []
        var source: InputEvent.AxisSource?
        var dx: CGFloat = 0, dy: CGFloat = 0
        var value120X: Int?, value120Y: Int?
        var hasAxis = false
        var axisTime: Double?
        var stops: [InputEvent] = []
        var leave: InputEvent?
    }

    /// Creates an empty builder, pointer outside the surface.
    public init() {}

    /// `wl_pointer.enter` (no timestamp: `now` is used).
    public mutating func enter(x: Double, y: Double, now: Double) {
        guard let location = Self.location(x, y) else {
            droppedEvents += 1
            return
        }
        isFocused = true
        // A leave earlier in this frame is followed by this enter: deliver both, in order.
        if let leave = batch.leave {
            batch.items.append(leave)
            batch.leave = nil
        }
        batch.items.append(InputEvent(time: stamp(now), kind: .pointerEnter(location: location)))
    }

    /// `wl_pointer.leave`; delivered last in its frame. Held buttons stay held: the drag
    /// goes on until their release arrives.
    public mutating func leave(now: Double) {
        guard isFocused else {
            droppedEvents += 1
            return
        }
        isFocused = false
        batch.leave = InputEvent(time: stamp(now), kind: .pointerLeave)
    }

    /// `wl_pointer.motion`; dropped unless the pointer entered or a button is held.
    public mutating func motion(time: Double, x: Double, y: Double) {
        guard isFocused || !heldButtons.isEmpty, let location = Self.location(x, y) else {
            droppedEvents += 1
            return
        }
        lastTime = time
        batch.items.append(InputEvent(time: time, kind: .pointerMotion(location: location)))
    }

    /// `wl_pointer.button` with a Linux input event code (BTN_LEFT = 0x110…); other buttons
    /// are tracked but not delivered. A press needs focus; a release needs its press.
    public mutating func button(time: Double, code: UInt32, pressed: Bool) {
        if pressed {
            guard isFocused, !heldButtons.contains(code), heldButtons.count < Self.maxHeldButtons else {
                droppedEvents += 1
                return
            }
            heldButtons.insert(code)
        } else {
            guard heldButtons.remove(code) != nil else {
                droppedEvents += 1
                return
            }
        }
        lastTime = time
        guard let button = Self.button(code) else { return }
        batch.items.append(InputEvent(time: time, kind: .pointerButton(button: button, pressed: pressed)))
    }

    /// `wl_pointer.axis_source` (0 wheel, 1 finger, 2 continuous, 3 wheel tilt).
    public mutating func axisSource(_ raw: UInt32) {
        switch raw {
        case 0: batch.source = .wheel
        case 1: batch.source = .finger
        case 2: batch.source = .continuous
        case 3: batch.source = .wheelTilt
        default: break  // unknown future source: keep what the frame had
        }
    }

    /// `wl_pointer.axis`: `axis` 0 vertical, 1 horizontal; `value` in surface points.
    public mutating func axis(time: Double, axis: UInt32, value: Double) {
        guard isFocused, value.isFinite, axis <= 1 else {
            droppedEvents += 1
            return
        }
        lastTime = time
        batch.axisTime = batch.axisTime ?? time
        batch.hasAxis = true
        let v = min(max(CGFloat(value), -Self.maxAxisValue), Self.maxAxisValue)
        if axis == 0 {
            batch.dy = min(max(batch.dy + v, -Self.maxAxisValue), Self.maxAxisValue)
        } else {
            batch.dx = min(max(batch.dx + v, -Self.maxAxisValue), Self.maxAxisValue)
        }
    }

    /// `wl_pointer.axis_discrete` (seat v5–7): whole notches; becomes value120 = 120 per notch.
    public mutating func axisDiscrete(axis: UInt32, discrete: Int32) {
        // Clamp before multiplying: Int32.max notches would overflow nothing in Int, but
        // the product is meaningless beyond the per-frame limit anyway.
        let notches = min(max(Int(discrete), -Self.maxValue120), Self.maxValue120)
        addValue120(axis: axis, amount: notches * 120)
    }

    /// `wl_pointer.axis_value120` (seat v8): fractions of a notch, 120 per notch.
    public mutating func axisValue120(axis: UInt32, value120: Int32) {
        addValue120(axis: axis, amount: Int(value120))
    }

    private mutating func addValue120(axis: UInt32, amount: Int) {
        guard isFocused, axis <= 1 else {
            droppedEvents += 1
            return
        }
        let clamped = min(max(amount, -Self.maxValue120), Self.maxValue120)
        batch.hasAxis = true
        if axis == 0 {
            batch.value120Y = min(max((batch.value120Y ?? 0) + clamped, -Self.maxValue120), Self.maxValue120)
        } else {
            batch.value120X = min(max((batch.value120X ?? 0) + clamped, -Self.maxValue120), Self.maxValue120)
        }
    }

    /// `wl_pointer.axis_stop`: the touchpad finger lifted on `axis`.
    public mutating func axisStop(time: Double, axis: UInt32) {
        guard isFocused, axis <= 1 else {
            droppedEvents += 1
            return
        }
        lastTime = time
        batch.stops.append(InputEvent(time: time, kind: .axisStop(axis: axis == 0 ? .vertical : .horizontal)))
    }

    /// `wl_pointer.frame`: returns the frame's events in order and starts a new frame.
    public mutating func frame() -> [InputEvent] {
        var events = batch.items
        if batch.hasAxis {
            // A wheel that sent only notches (no axis value) still scrolls: the axis value a
            // compositor would send for them (`InputEvent.axisUnitsPerNotch` per notch).
            let notchPoints = InputEvent.axisUnitsPerNotch
            let x = batch.dx == 0 && batch.value120X != nil ? CGFloat(batch.value120X!) / 120 * notchPoints : batch.dx
            let y = batch.dy == 0 && batch.value120Y != nil ? CGFloat(batch.value120Y!) / 120 * notchPoints : batch.dy
            let hasNotches = batch.value120X != nil || batch.value120Y != nil
            let src = batch.source ?? (hasNotches ? .wheel : .continuous)
            events.append(InputEvent(time: batch.axisTime ?? lastTime,
                                     kind: .pointerAxis(source: src, dx: x, dy: y,
                                                        value120X: batch.value120X, value120Y: batch.value120Y)))
        }
        events += batch.stops
        if let leave = batch.leave { events.append(leave) }
        batch = Batch()
        return events
    }

    /// The pointer device went away (capability lost, seat removed): the unfinished frame
    /// is delivered, a drag held by the left button ends without a fling (`touchCancel`,
    /// which ends whatever owns the scroll view's touch session: the user did not let go),
    /// and the pointer leaves. The builder is empty afterwards.
    public mutating func deviceRemoved(now: Double) -> [InputEvent] {
        var events = frame()
        let time = stamp(now)
        if heldButtons.contains(0x110) { events.append(InputEvent(time: time, kind: .touchCancel)) }
        if isFocused { events.append(InputEvent(time: time, kind: .pointerLeave)) }
        let dropped = droppedEvents
        self = PointerFrameBuilder()
        droppedEvents = dropped
        lastTime = time
        return events
    }

    /// The button ScrollKit distinguishes for a Linux code, if any.
    static func button(_ code: UInt32) -> InputEvent.Button? {
        // linux/input-event-codes.h: BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112.
        switch code {
        case 0x110: return .left
        case 0x111: return .right
        case 0x112: return .middle
        default: return nil
        }
    }

    private static func location(_ x: Double, _ y: Double) -> CGPoint? {
        guard x.isFinite, y.isFinite, abs(x) <= maxCoordinate, abs(y) <= maxCoordinate else { return nil }
        return CGPoint(x: x, y: y)
    }

    /// A time for an event that carries none: `now`, but never before an earlier event.
    private mutating func stamp(_ now: Double) -> Double {
        lastTime = max(now, lastTime)
        return lastTime
    }
}
