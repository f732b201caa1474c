// Normalised input: what the Wayland seat and the trace replayer both hand to ScrollKit.
// The scroll logic never sees a C type; one value per wl_pointer.frame / wl_touch.frame item.
import Foundation

/// One input event with its own timestamp, in the coordinates of the window's root view, and
/// the seat's state when it happened: the modifiers held and where the pointer was. The seat
/// (or a replay) stamps that state on every event with `SeatState`, so a receiver never tracks
/// it from the events that changed it.
public struct InputEvent: Hashable, Sendable {
    /// Milliseconds on the event source's clock (Wayland event time, or trace `t`).
    public var time: Double
    /// What happened.
    public var kind: Kind
    /// The keyboard modifiers held when it happened.
    public var modifiers: Modifiers
    /// Where the pointer was, in window points; nil while it is not over the window.
    public var pointerLocation: CGPoint?

    /// Creates an event at `time` milliseconds.
    public init(time: Double, kind: Kind, modifiers: Modifiers = [], pointerLocation: CGPoint? = nil) {
        self.time = time
        self.kind = kind
        self.modifiers = modifiers
        self.pointerLocation = pointerLocation
    }

    /// Pointer buttons that ScrollKit distinguishes.
    public enum Button: String, Hashable, Sendable {
        /// The primary button (`BTN_LEFT`): drags the content like a finger.
        case left
        /// The secondary button (`BTN_RIGHT`).
        case right
        /// The middle button or wheel press (`BTN_MIDDLE`).
        case middle
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
        /// Up and down; positive values scroll toward the end (down).
        case vertical
        /// Left and right; positive values scroll toward the end (right).
        case horizontal
    }

    /// Gesture phases for touchpad pinch and hold (`zwp_pointer_gestures_v1`).
    public enum Phase: String, Hashable, Sendable {
        /// The fingers touched down and the gesture started.
        case begin
        /// The fingers moved (a pinch's scale or position changed).
        case update
        /// The fingers lifted: the gesture is over.
        case end
        /// The compositor ended the gesture (another gesture took over): undo nothing, but
        /// start no momentum.
        case cancel
    }

    /// Keyboard modifier state at the time of a key event.
    public struct Modifiers: OptionSet, Hashable, Sendable {
        /// The modifiers as bits, in the order below.
        public let rawValue: UInt8
        /// The modifiers whose bits are set in `rawValue`.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Either Shift key (xkbcommon's `Shift`).
        public static let shift = Modifiers(rawValue: 1 << 0)
        /// Either Control key (`Control`): Ctrl+wheel zooms.
        public static let ctrl = Modifiers(rawValue: 1 << 1)
        /// Either Alt key (`Mod1`).
        public static let alt = Modifiers(rawValue: 1 << 2)
        /// The logo (Super, Windows, Command) key (`Mod4`).
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
        /// A key went down (or repeated) or up.
        case key(Key, pressed: Bool)
    }
}

extension InputEvent {
    /// 15 axis units per wheel notch: libinput's (and so wlroots', GNOME's, KDE's) 15° click
    /// angle, used when a wheel event carries no value120 (weston sends 10, which then scrolls
    /// two thirds of a notch).
    public static let axisUnitsPerNotch: CGFloat = 15

    /// Wheel notches on one axis: `value120 / 120` when the source sent high-resolution
    /// amounts, else the axis value over `axisUnitsPerNotch`. The one place the two are
    /// reconciled (the seat fills in axis values from notches the same way).
    public static func notches(value120: Int?, axisValue: CGFloat) -> CGFloat {
        value120.map { CGFloat($0) / 120 } ?? axisValue / axisUnitsPerNotch
    }

    /// The wheel notches of a `pointerAxis` event per axis (x horizontal, y vertical); nil for
    /// other kinds.
    public var wheelNotches: CGPoint? {
        guard case .pointerAxis(_, let dx, let dy, let value120X, let value120Y) = kind else { return nil }
        return CGPoint(x: Self.notches(value120: value120X, axisValue: dx), y: Self.notches(value120: value120Y, axisValue: dy))
    }
}

/// The seat's state that every event carries: the modifiers held and where the pointer is.
///
/// The Wayland seat and the trace replay both pass every event through `stamp(_:)`, in order,
/// so live input and its replay hand receivers the same events. Pointer enter and motion set
/// the location, leave clears it. A key event's own modifiers are the state before it (as a
/// compositor reports them); a modifier key then changes the state for the events after it,
/// and `setModifiers(_:)` takes the keyboard's authoritative state when there is one.
public struct SeatState: Hashable, Sendable {
    /// The modifiers held now.
    public private(set) var modifiers: InputEvent.Modifiers = []
    /// Where the pointer is, in window points; nil while it is not over the window.
    public private(set) var pointerLocation: CGPoint?

    /// A seat with no key held and the pointer elsewhere.
    public init() {}

    /// The keyboard reported its modifiers (`wl_keyboard.modifiers`).
    public mutating func setModifiers(_ modifiers: InputEvent.Modifiers) {
        self.modifiers = modifiers
    }

    /// `event` with the seat's state stamped on it, and the state updated by it.
    public mutating func stamp(_ event: InputEvent) -> InputEvent {
        var stamped = event
        switch event.kind {
        case .pointerEnter(let location), .pointerMotion(let location):
            if location.x.isFinite && location.y.isFinite { pointerLocation = location }
        case .pointerLeave:
            pointerLocation = nil
        case .key(let key, let pressed):
            // The event states the modifiers held as it happened; a modifier key changes them
            // for what follows.
            modifiers = event.modifiers
            if let modifier = key.modifier {
                if pressed { modifiers.insert(modifier) } else { modifiers.remove(modifier) }
            }
            stamped.pointerLocation = pointerLocation
            return stamped
        default:
            break
        }
        stamped.modifiers = modifiers
        stamped.pointerLocation = pointerLocation
        return stamped
    }
}
