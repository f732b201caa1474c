// The keyboard's state machine without xkbcommon or timers: held keys, modifiers and key
// repeat timing, with time as a parameter so repeat is testable to the millisecond.
import Foundation
import ScrollKit

/// Key repeat as `wl_keyboard.repeat_info` describes it: after `delay` ms a held key repeats
/// `rate` times per second until it is released, another key is pressed or focus leaves.
public struct KeyRepeat: Equatable, Sendable {
    /// 25 per second: the repeat rate before `repeat_info` arrives (seat < v4), the X
    /// server's and weston's default.
    public static let defaultRate = 25
    /// 600 ms: the delay before `repeat_info` arrives, as `defaultRate`.
    public static let defaultDelay = 600.0
    /// 1000 per second: the fastest rate accepted; a hostile compositor asking for more
    /// would have the timer fire on every loop iteration.
    public static let maxRate = 1000
    /// 10 s: the longest delay accepted (longer means repeat is effectively off anyway).
    public static let maxDelay = 10_000.0
    /// Most repeats delivered by one `fire`: after a stall (a slow frame, a suspended
    /// process) the backlog is dropped instead of scrolling dozens of steps at once.
    public static let maxBurst = 4

    /// Repeats per second; 0 turns repeat off.
    public private(set) var rate: Int
    /// Milliseconds from the press to the first repeat.
    public private(set) var delay: Double
    /// The repeating key (Linux key code) and the time of its next repeat, in ms.
    public private(set) var pending: (key: UInt32, time: Double)?

    /// Repeat with the defaults used before the compositor says otherwise.
    public init() {
        rate = Self.defaultRate
        delay = Self.defaultDelay
    }

    /// `wl_keyboard.repeat_info`: `rate` per second (0 or negative: off), `delay` in ms
    /// (negative counts as 0). Values beyond the limits are clamped.
    public mutating func setInfo(rate: Int32, delay: Int32) {
        self.rate = min(max(Int(rate), 0), Self.maxRate)
        self.delay = min(max(Double(delay), 0), Self.maxDelay)
        if self.rate == 0 { pending = nil }
    }

    /// Milliseconds between repeats, nil when repeat is off.
    public var interval: Double? { rate > 0 ? 1000 / Double(rate) : nil }

    /// A key went down at `time`; only keys that `repeats` (xkb says so) start repeating.
    /// A new press always ends the previous key's repeat, as on every desktop.
    public mutating func press(key: UInt32, at time: Double, repeats: Bool) {
        pending = repeats && rate > 0 ? (key, time + delay) : nil
    }

    /// A key went up: it stops repeating (other keys' releases change nothing).
    public mutating func release(key: UInt32) {
        if pending?.key == key { pending = nil }
    }

    /// Stops any repeat (focus left, keymap replaced, device removed).
    public mutating func stop() { pending = nil }

    /// When the next repeat is due, in ms, or nil when nothing repeats.
    public var nextDeadline: Double? { pending?.time }

    /// The repeats due at or before `now`, by their own times, oldest first; at most
    /// `maxBurst`, after which the schedule resumes from `now`.
    public mutating func fire(now: Double) -> [Double] {
        guard var next = pending, let interval else { return [] }
        var times: [Double] = []
        while next.time <= now && times.count < Self.maxBurst {
            times.append(next.time)
            next.time += interval
        }
        if next.time <= now {
            // Skip the backlog: the next repeat is one interval after the last delivered
            // one, moved forward past `now` in whole intervals.
            let behind = ((now - next.time) / interval).rounded(.down) + 1
            next.time += behind * interval
        }
        pending = next
        return times
    }

    /// Equal when rate, delay and the pending repeat (key and time) are (tuples are not Equatable).
    public static func == (a: KeyRepeat, b: KeyRepeat) -> Bool {
        a.rate == b.rate && a.delay == b.delay && a.pending?.key == b.pending?.key && a.pending?.time == b.pending?.time
    }
}

/// What the keymap says about one key: its keysym name, the key it types and whether it repeats.
public struct KeyDescription: Equatable, Sendable {
    /// The xkbcommon keysym name ("Page_Down", "space", "Control_L").
    public var name: String
    /// The key, from its keysym name and text.
    public var key: Key
    /// Whether the keymap lets this key repeat (modifiers do not).
    public var repeats: Bool

    /// Describes the key with keysym `name` ("Page_Down", "space", "Control_L") and, for a
    /// printable keysym, the `text` it types.
    public init(name: String, text: String? = nil, repeats: Bool) {
        self.name = name
        key = Key(keysymName: name, text: text)
        self.repeats = repeats
    }
}

/// Held keys, modifiers and repeat for one keyboard focus, turning `wl_keyboard.key` into
/// `InputEvent.Kind.key` values.
public struct KeyboardState: Sendable {
    /// Most keys remembered as held (a keyboard has about a hundred); bounds memory when a
    /// hostile compositor presses without releasing.
    public static let maxHeldKeys = 256

    /// Repeat timing.
    public var keyRepeat = KeyRepeat()
    /// Modifiers as the keymap state reports them after the last `modifiers` event.
    public var modifiers: InputEvent.Modifiers = []
    /// Keys pressed (by Linux key code) and the key each was delivered as: a release carries
    /// the same key even if a modifier changed the keysym meanwhile.
    public private(set) var held: [UInt32: KeyDescription] = [:]
    /// Events dropped as out of protocol order or unknown to the keymap.
    public private(set) var droppedEvents = 0

    /// Creates a state with nothing held.
    public init() {}

    /// `wl_keyboard.key`: `describe` looks the code up in the current keymap (nil when the
    /// keymap has no keysym for it). Returns the event to deliver, if any.
    public mutating func key(code: UInt32, pressed: Bool, time: Double,
                             describe: (UInt32) -> KeyDescription?) -> InputEvent? {
        if pressed {
            guard let key = held[code] ?? describe(code) else {
                droppedEvents += 1
                return nil
            }
            guard held[code] != nil || held.count < Self.maxHeldKeys else {
                droppedEvents += 1
                return nil
            }
            held[code] = key
            keyRepeat.press(key: code, at: time, repeats: key.repeats)
            return InputEvent(time: time, kind: .key(key.key, pressed: true), modifiers: modifiers)
        }
        guard let key = held.removeValue(forKey: code) else {
            droppedEvents += 1
            return nil
        }
        keyRepeat.release(key: code)
        return InputEvent(time: time, kind: .key(key.key, pressed: false), modifiers: modifiers)
    }

    /// The repeat presses due at `now`, stamped with their own times.
    public mutating func repeats(now: Double) -> [InputEvent] {
        guard let code = keyRepeat.pending?.key, let key = held[code] else {
            keyRepeat.stop()
            return []
        }
        return keyRepeat.fire(now: now).map {
            InputEvent(time: $0, kind: .key(key.key, pressed: true), modifiers: modifiers)
        }
    }

    /// Focus left (or the keyboard or its keymap went away): repeat stops and every held key
    /// is released at `time`, so the scroll view never believes Ctrl is still down.
    /// Releases come in key-code order, so the result does not depend on hashing.
    public mutating func releaseAll(time: Double) -> [InputEvent] {
        keyRepeat.stop()
        let events = held.keys.sorted().map { code in
            InputEvent(time: time, kind: .key(held[code]!.key, pressed: false), modifiers: modifiers)
        }
        held = [:]
        return events
    }
}
