// Touchpad pinch and hold (zwp_pointer_gestures_v1) as InputEvent values: phases checked
// against what began, scales sanitised; pure, so hostile gesture streams are testable.
import Foundation
import ScrollKit

/// Turns `zwp_pointer_gesture_pinch_v1` and `zwp_pointer_gesture_hold_v1` events into
/// `.pinch` and `.hold` events. An update or end without its begin is dropped.
public struct PointerGestureState: Sendable {
    /// Smallest and largest cumulative pinch scale passed on (scale factor): the range the
    /// trace format accepts (TraceLimits.zoomScale), so a recorded pinch always replays.
    public static let scaleRange: ClosedRange<CGFloat> = 0.001...1000
    /// Largest pan per update, in points (as `PointerFrameBuilder.maxAxisValue`).
    public static let maxPan: CGFloat = PointerFrameBuilder.maxAxisValue

    /// Whether a pinch is under way.
    public private(set) var isPinching = false
    /// Whether fingers rest on the touchpad (hold gesture under way).
    public private(set) var isHolding = false
    /// The cumulative scale of the running pinch (1 at begin).
    public private(set) var scale: CGFloat = 1
    /// Events dropped as out of order or unusable.
    public private(set) var droppedEvents = 0
    /// The latest event time seen, in ms.
    public private(set) var lastTime: Double = 0

    /// Creates a state with no gesture running.
    public init() {}

    /// `pinch.begin`. A begin while a pinch runs ends the old one first (its end was lost).
    public mutating func pinchBegin(time: Double) -> [InputEvent] {
        var events: [InputEvent] = []
        if isPinching { events.append(pinchEvent(.cancel, time: time, dx: 0, dy: 0)) }
        isPinching = true
        scale = 1
        lastTime = time
        events.append(pinchEvent(.begin, time: time, dx: 0, dy: 0))
        return events
    }

    /// `pinch.update`: `scale` is cumulative since begin (the protocol's meaning), `dx`/`dy`
    /// the pan since the last update, in points. A non-finite or non-positive scale keeps
    /// the last good one; pans are clamped.
    public mutating func pinchUpdate(time: Double, dx: Double, dy: Double, scale newScale: Double) -> InputEvent? {
        guard isPinching else {
            droppedEvents += 1
            return nil
        }
        if newScale.isFinite, newScale > 0 {
            scale = min(max(CGFloat(newScale), Self.scaleRange.lowerBound), Self.scaleRange.upperBound)
        }
        lastTime = time
        return pinchEvent(.update, time: time, dx: Self.pan(dx), dy: Self.pan(dy))
    }

    /// `pinch.end`; `cancelled` (the compositor took it back) ends it as `.cancel`.
    public mutating func pinchEnd(time: Double, cancelled: Bool) -> InputEvent? {
        guard isPinching else {
            droppedEvents += 1
            return nil
        }
        isPinching = false
        lastTime = time
        return pinchEvent(cancelled ? .cancel : .end, time: time, dx: 0, dy: 0)
    }

    /// `hold.begin` (fingers rest on the touchpad): stops running momentum in ScrollKit.
    public mutating func holdBegin(time: Double) -> InputEvent? {
        guard !isHolding else {
            droppedEvents += 1
            return nil
        }
        isHolding = true
        lastTime = time
        return InputEvent(time: time, kind: .hold(phase: .begin))
    }

    /// `hold.end`; cancelled when the fingers went on to scroll or pinch.
    public mutating func holdEnd(time: Double, cancelled: Bool) -> InputEvent? {
        guard isHolding else {
            droppedEvents += 1
            return nil
        }
        isHolding = false
        lastTime = time
        return InputEvent(time: time, kind: .hold(phase: cancelled ? .cancel : .end))
    }

    /// The pointer went away: running gestures are cancelled at `now`.
    public mutating func deviceRemoved(now: Double) -> [InputEvent] {
        let time = max(now, lastTime)
        var events: [InputEvent] = []
        if isPinching { events.append(pinchEvent(.cancel, time: time, dx: 0, dy: 0)) }
        if isHolding { events.append(InputEvent(time: time, kind: .hold(phase: .cancel))) }
        isPinching = false
        isHolding = false
        scale = 1
        lastTime = time
        return events
    }

    private func pinchEvent(_ phase: InputEvent.Phase, time: Double, dx: CGFloat, dy: CGFloat) -> InputEvent {
        InputEvent(time: time, kind: .pinch(phase: phase, scale: scale, dx: dx, dy: dy))
    }

    private static func pan(_ value: Double) -> CGFloat {
        guard value.isFinite else { return 0 }
        return min(max(CGFloat(value), -maxPan), maxPan)
    }
}
