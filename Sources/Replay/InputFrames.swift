// Trace input as a seat delivers it: consecutive touch (or pointer) lines at one time form one
// input frame, and every event carries the seat's state (modifiers, pointer) as it was then.
import Foundation
import ScrollKit
import TraceFormat

/// Groups timed input into the frames a Wayland seat delivers and stamps each event with the
/// seat's state, the same way for a replay as `Wayland.Seat` does live.
///
/// A `wl_touch.frame` (or `wl_pointer.frame`) hands over everything that happened at once: two
/// fingers moving together arrive as one frame, and the scroll view makes one pinch step of
/// them. A trace keeps no frame boundaries, so consecutive touch lines with the same `t` count
/// as one frame, and so do consecutive pointer lines; a key is a frame of its own.
public struct InputFrameBuilder {
    private var seat = SeatState()
    /// The frames built so far, in order.
    public private(set) var frames: [TimedAction<[InputEvent]>] = []
    private var openClass: DeviceClass?

    /// Which device an event comes from: frames never mix devices.
    private enum DeviceClass {
        case touch, pointer, other
    }

    /// An empty timeline.
    public init() {}

    /// Appends `kind` at `time` (ms, never before the previous one); `modifiers` are those a key
    /// line states. `frame` is the input frame a recording numbered it with: events of one
    /// number form one frame; without a number, same-time touch (or pointer) events do.
    public mutating func append(_ kind: InputEvent.Kind, at time: Double, modifiers: InputEvent.Modifiers = [],
                                frame: Int? = nil) {
        let event = seat.stamp(InputEvent(time: time, kind: kind, modifiers: modifiers))
        let device = Self.deviceClass(kind)
        let joins: Bool
        if let frame {
            joins = frame == openFrame && !frames.isEmpty
        } else {
            joins = device != .other && device == openClass && frames.last?.time == time && openFrame == nil
        }
        if joins {
            frames[frames.count - 1].action.append(event)
        } else {
            frames.append(TimedAction(time: time, action: [event]))
        }
        openClass = device
        openFrame = frame
    }

    /// The recorded frame number of the open frame, if it had one.
    private var openFrame: Int?

    /// Hands out the frames built so far and starts afresh, keeping the seat's state (a
    /// method call comes next, or a test delivers these before building more).
    public mutating func takeFrames() -> [TimedAction<[InputEvent]>] {
        defer {
            frames.removeAll()
            openClass = nil
            openFrame = nil
        }
        return frames
    }

    /// The frames of a list of timed input kinds (tests, hand-made timelines).
    public static func frames(_ timeline: [TimedAction<InputEvent.Kind>]) -> [TimedAction<[InputEvent]>] {
        var builder = InputFrameBuilder()
        for item in timeline { builder.append(item.action, at: item.time) }
        return builder.frames
    }

    private static func deviceClass(_ kind: InputEvent.Kind) -> DeviceClass {
        switch kind {
        case .touchDown, .touchMotion, .touchUp, .touchCancel: .touch
        case .pointerEnter, .pointerLeave, .pointerMotion, .pointerButton, .pointerAxis, .axisStop: .pointer
        case .pinch, .hold, .key: .other
        }
    }
}
