// Normalised input: what the Wayland seat and the trace replayer both hand to ScrollKit.
// The scroll logic never sees a C type; one value per wl_pointer.frame / wl_touch.frame item.
import Foundation

/// One input event with its own timestamp, in the coordinates of the window's root view.
public struct InputEvent: Hashable, Sendable {
    /// Milliseconds on the event source's clock (Wayland event time, or trace `t`).
    public var time: Double
    /// What happened.
    public var kind: Kind

    /// Creates an event at `time` milliseconds.
    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// Pointer buttons that ScrollKit distinguishes.
    public enum Button: String, Hashable, Sendable {
        case left, right, middle
    }

    /// Where scroll-axis values come from (`wl_pointer.axis_source`).
    public enum AxisSource: String, Hashable, Sendable {
        /// A notched or high-resolution wheel: animated steps.
        case wheel
        /// A touchpad finger: moves the content directly; `axisStop` is the lift.
        case finger
        /// Continuous motion without a lift (trackpoint, on-button scrolling).
        case continuous
        /// A tilted wheel.
        case wheelTilt
    }

    /// Scroll axes (`wl_pointer.axis`).
    public enum Axis: String, Hashable, Sendable {
        case vertical, horizontal
    }

    /// Gesture phases for touchpad pinch and hold (`zwp_pointer_gestures_v1`).
    public enum Phase: String, Hashable, Sendable {
        case begin, update, end, cancel
    }

    /// Keyboard modifier state at the time of a key event.
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1 << 0)
        public static let ctrl = Modifiers(rawValue: 1 << 1)
        public static let alt = Modifiers(rawValue: 1 << 2)
        public static let logo = Modifiers(rawValue: 1 << 3)
    }

    /// The kinds of input, mirroring the trace format's `kind` values.
    public enum Kind: Hashable, Sendable {
        /// A finger touched down; `id` is the compositor's touch point id.
        case touchDown(id: Int, location: CGPoint)
        /// A touching finger moved.
        case touchMotion(id: Int, location: CGPoint)
        /// A finger lifted.
        case touchUp(id: Int)
        /// The compositor took the touch sequence away: end everything, no fling.
        case touchCancel
        /// The pointer entered the surface at `location`.
        case pointerEnter(location: CGPoint)
        /// The pointer left the surface.
        case pointerLeave
        /// The pointer moved to `location`.
        case pointerMotion(location: CGPoint)
        /// A button changed state.
        case pointerButton(button: Button, pressed: Bool)
        /// Scroll amounts for one pointer frame, in points, `wl_pointer.axis` signs
        /// (positive dy scrolls toward the end). `value120` is the high-resolution
        /// wheel amount (120 = one notch) when the source sent one, per axis.
        case pointerAxis(source: AxisSource, dx: CGFloat, dy: CGFloat, value120X: Int?, value120Y: Int?)
        /// The touchpad finger lifted from scrolling on `axis`: may start momentum.
        case axisStop(axis: Axis)
        /// Touchpad pinch: cumulative `scale` since begin, `dx`/`dy` pan since the last update.
        case pinch(phase: Phase, scale: CGFloat, dx: CGFloat, dy: CGFloat)
        /// Touchpad hold (fingers resting): begin stops running momentum.
        case hold(phase: Phase)
        /// A key by xkbcommon keysym name ("Page_Down", "Home", "space", "plus").
        case key(name: String, pressed: Bool, modifiers: Modifiers)
    }
}
