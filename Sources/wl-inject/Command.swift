// The injector's command language: value types for every command and a parser that turns
// words (argv, or one line of --stdin) into them with errors naming the offending word.

/// A scroll axis, numbered as `wl_pointer.axis` numbers them.
enum Axis: UInt32, Equatable {
    case vertical = 0
    case horizontal = 1
}

/// A pointer button, as its evdev code (linux/input-event-codes.h).
enum PointerButton: UInt32, Equatable {
    /// BTN_LEFT, 0x110: linux/input-event-codes.h.
    case left = 0x110
    /// BTN_RIGHT, 0x111: linux/input-event-codes.h.
    case right = 0x111
    /// BTN_MIDDLE, 0x112: linux/input-event-codes.h.
    case middle = 0x112
}

/// A position in output (wlr) or global compositor (KWin) pixels.
struct Point: Equatable {
    var x: Double
    var y: Double

    /// The point `fraction` of the way from `self` to `other`.
    func lerp(to other: Point, _ fraction: Double) -> Point {
        Point(x: x + (other.x - x) * fraction, y: y + (other.y - y) * fraction)
    }
}

/// A key of the injector's us keymap that produces a keysym.
struct KeyStroke: Equatable {
    /// The keysym name as written in the script (for messages).
    var name: String
    /// The xkb keycode (evdev code + 8).
    var keycode: UInt32
    /// The keysym sits on the Shift level of its key: Shift must be held around it.
    var needsShift: Bool
}

/// One input request, the unit both backends translate into protocol requests.
enum InputAction: Equatable {
    case pointerAbsolute(Point)
    case pointerMotion(dx: Double, dy: Double)
    case button(PointerButton, pressed: Bool)
    /// Wheel clicks; one notch scrolls 15 units (the value libinput reports per detent).
    case wheel(Axis, notches: Int32)
    /// Touchpad (finger) scrolling by `value` surface units.
    case finger(Axis, value: Double)
    /// The fingers left the touchpad: kinetic scrolling may start.
    case fingerStop(Axis)
    case pointerFrame
    case key(KeyStroke, pressed: Bool)
    case touchDown(id: UInt32, Point)
    case touchMotion(id: UInt32, Point)
    case touchUp(id: UInt32)
    case touchFrame
    case touchCancel
}

/// One command of a script.
enum Command: Equatable {
    /// A single input request.
    case input(InputAction)
    /// Press and release a key.
    case tap(KeyStroke)
    /// Wait, in milliseconds.
    case sleep(milliseconds: Double)
    /// Round-trip to the compositor, then print `ok` on stdout.
    case sync
    /// Button-left drag from `from` to `to` over `milliseconds` in `steps` motions.
    case drag(from: Point, to: Point, milliseconds: Double, steps: Int)
    /// One-finger touch swipe.
    case swipe(id: UInt32, from: Point, to: Point, milliseconds: Double, steps: Int)
    /// Two fingers (ids 0 and 1) on a horizontal line through `center`, each `radius` away
    /// from it, moving from `fromRadius` to `toRadius`.
    case pinch(center: Point, fromRadius: Double, toRadius: Double, milliseconds: Double, steps: Int)
}

/// A parse error: the index (into the words given to the parser) of the word at fault.
struct ParseError: Error, Equatable {
    var wordIndex: Int
    var message: String
}

/// Limits that keep a typo from turning into an hour-long test or a huge allocation.
enum Limits {
    /// 3,600,000 ms (one hour): longest `sleep` or gesture duration accepted.
    static let maxMilliseconds = 3_600_000.0
    /// 100,000 steps: most motions one gesture may expand to (each step is a small array).
    static let maxSteps = 100_000
    /// 1000 notches: largest single wheel command.
    static let maxNotches: Int32 = 1000
    /// 8,388,607 units: the largest magnitude a 24.8 `wl_fixed_t` holds.
    static let maxFixed = 8_388_607.0
}

/// Turns words into commands. Keysym names are resolved through `resolveKey`, which
/// returns a message when a name is unknown or absent from the keymap.
struct CommandParser {
    var resolveKey: (String) -> Result<KeyStroke, KeyLookupError>

    /// Parses the command that starts at `words[start]`; returns it and the index of the word
    /// after it.
    func parse(_ words: [String], at start: Int) throws(ParseError) -> (command: Command, next: Int) {
        var cursor = WordCursor(words: words, index: start)
        let name = try cursor.word("a command")
        let command: Command
        switch name {
        case "abs":
            command = .input(.pointerAbsolute(try cursor.point(of: "abs", nonNegative: true)))
        case "move":
            let dx = try cursor.number("move", "DX")
            let dy = try cursor.number("move", "DY")
            command = .input(.pointerMotion(dx: dx, dy: dy))
        case "button":
            let which = try cursor.word("button: LEFT|RIGHT|MIDDLE")
            guard let button = PointerButton.named(which) else {
                throw cursor.error(back: 1, "button: expected left, right or middle, got '\(which)'")
            }
            command = .input(.button(button, pressed: try cursor.pressOrRelease("button")))
        case "wheel":
            let axis = try cursor.axis("wheel")
            let notches = try cursor.integer("wheel", "NOTCHES", in: -Int(Limits.maxNotches)...Int(Limits.maxNotches))
            guard notches != 0 else { throw cursor.error(back: 1, "wheel: NOTCHES must not be 0") }
            command = .input(.wheel(axis, notches: Int32(notches)))
        case "finger":
            let axis = try cursor.axis("finger")
            command = .input(.finger(axis, value: try cursor.number("finger", "VALUE")))
        case "stop":
            command = .input(.fingerStop(try cursor.axis("stop")))
        case "frame":
            command = .input(.pointerFrame)
        case "key":
            let stroke = try cursor.key("key", resolveKey)
            command = .input(.key(stroke, pressed: try cursor.pressOrRelease("key")))
        case "tap":
            command = .tap(try cursor.key("tap", resolveKey))
        case "touch":
            command = .input(try parseTouch(&cursor))
        case "sleep":
            command = .sleep(milliseconds: try cursor.milliseconds("sleep"))
        case "sync":
            command = .sync
        case "drag":
            let from = try cursor.point(of: "drag", "X0", "Y0", nonNegative: true)
            let to = try cursor.point(of: "drag", "X1", "Y1", nonNegative: true)
            command = .drag(from: from, to: to, milliseconds: try cursor.milliseconds("drag"),
                            steps: try cursor.steps("drag"))
        case "swipe":
            let id = try cursor.touchID("swipe")
            let from = try cursor.point(of: "swipe", "X0", "Y0", nonNegative: true)
            let to = try cursor.point(of: "swipe", "X1", "Y1", nonNegative: true)
            command = .swipe(id: id, from: from, to: to, milliseconds: try cursor.milliseconds("swipe"),
                             steps: try cursor.steps("swipe"))
        case "pinch":
            let centerIndex = cursor.index
            let center = try cursor.point(of: "pinch", nonNegative: true)
            let r0 = try cursor.number("pinch", "R0", nonNegative: true)
            let r1 = try cursor.number("pinch", "R1", nonNegative: true)
            let ms = try cursor.milliseconds("pinch")
            let steps = try cursor.steps("pinch")
            // Both fingers must stay on the output: a negative coordinate is not a touch point.
            guard center.x - max(r0, r1) >= 0 else {
                throw ParseError(wordIndex: centerIndex, message: "pinch: X − max(R0, R1) = \(center.x - max(r0, r1)) is off the output's left edge")
            }
            command = .pinch(center: center, fromRadius: r0, toRadius: r1, milliseconds: ms, steps: steps)
        default:
            throw cursor.error(back: 1, "unknown command '\(name)' (see wl-inject --help)")
        }
        return (command, cursor.index)
    }

    private func parseTouch(_ cursor: inout WordCursor) throws(ParseError) -> InputAction {
        let sub = try cursor.word("touch: down|move|up|frame|cancel")
        switch sub {
        case "down":
            let id = try cursor.touchID("touch down")
            return .touchDown(id: id, try cursor.point(of: "touch down", nonNegative: true))
        case "move":
            let id = try cursor.touchID("touch move")
            return .touchMotion(id: id, try cursor.point(of: "touch move", nonNegative: true))
        case "up": return .touchUp(id: try cursor.touchID("touch up"))
        case "frame": return .touchFrame
        case "cancel": return .touchCancel
        default:
            throw cursor.error(back: 1, "touch: expected down, move, up, frame or cancel, got '\(sub)'")
        }
    }
}

/// Why a keysym name cannot be typed.
struct KeyLookupError: Error, Equatable {
    var message: String
}

extension PointerButton {
    /// The button a script names `left`, `right` or `middle`.
    static func named(_ name: String) -> PointerButton? {
        switch name {
        case "left": .left
        case "right": .right
        case "middle": .middle
        default: nil
        }
    }
}

/// Reads typed arguments off a word list, producing errors that point at the word at fault.
private struct WordCursor {
    let words: [String]
    var index: Int

    func error(back: Int = 0, _ message: String) -> ParseError {
        ParseError(wordIndex: max(index - back, 0), message: message)
    }

    mutating func word(_ what: String) throws(ParseError) -> String {
        guard index < words.count else {
            // Point at the last word present: the one whose arguments are missing.
            throw ParseError(wordIndex: max(words.count - 1, 0), message: "\(what): missing")
        }
        defer { index += 1 }
        return words[index]
    }

    /// A finite number; by default one that fits a wl_fixed_t, since most end up as one.
    mutating func number(_ command: String, _ variable: String, nonNegative: Bool = false,
                         limit: (magnitude: Double, reason: String) = (Limits.maxFixed, "the wl_fixed_t range")) throws(ParseError) -> Double {
        let text = try word("\(command): \(variable)")
        guard let value = Double(text), value.isFinite else {
            throw error(back: 1, "\(command): \(variable): expected a number, got '\(text)'")
        }
        guard abs(value) <= limit.magnitude else {
            throw error(back: 1, "\(command): \(variable): \(text) is beyond \(Int(limit.magnitude)), \(limit.reason)")
        }
        if nonNegative && value < 0 {
            throw error(back: 1, "\(command): \(variable): must not be negative, got \(text)")
        }
        return value
    }

    mutating func integer(_ command: String, _ variable: String, in range: ClosedRange<Int>) throws(ParseError) -> Int {
        let text = try word("\(command): \(variable)")
        guard let value = Int(text) else {
            throw error(back: 1, "\(command): \(variable): expected an integer, got '\(text)'")
        }
        guard range.contains(value) else {
            throw error(back: 1, "\(command): \(variable): \(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    mutating func point(of command: String, _ xName: String = "X", _ yName: String = "Y",
                        nonNegative: Bool) throws(ParseError) -> Point {
        let x = try number(command, xName, nonNegative: nonNegative)
        let y = try number(command, yName, nonNegative: nonNegative)
        return Point(x: x, y: y)
    }

    mutating func axis(_ command: String) throws(ParseError) -> Axis {
        let text = try word("\(command): vertical|horizontal")
        switch text {
        case "vertical": return .vertical
        case "horizontal": return .horizontal
        default: throw error(back: 1, "\(command): expected vertical or horizontal, got '\(text)'")
        }
    }

    mutating func pressOrRelease(_ command: String) throws(ParseError) -> Bool {
        let text = try word("\(command): press|release")
        switch text {
        case "press": return true
        case "release": return false
        default: throw error(back: 1, "\(command): expected press or release, got '\(text)'")
        }
    }

    mutating func key(_ command: String, _ resolve: (String) -> Result<KeyStroke, KeyLookupError>) throws(ParseError) -> KeyStroke {
        let name = try word("\(command): KEYSYM")
        switch resolve(name) {
        case .success(let stroke): return stroke
        case .failure(let failure): throw error(back: 1, "\(command): \(failure.message)")
        }
    }

    mutating func touchID(_ command: String) throws(ParseError) -> UInt32 {
        // KWin and wl_touch carry ids as 32-bit values; 0...1000 covers any real touchscreen.
        UInt32(try integer(command, "ID", in: 0...1000))
    }

    mutating func milliseconds(_ command: String) throws(ParseError) -> Double {
        try number(command, "MS", nonNegative: true, limit: (Limits.maxMilliseconds, "the longest wait accepted (one hour)"))
    }

    mutating func steps(_ command: String) throws(ParseError) -> Int {
        try integer(command, "STEPS", in: 1...Limits.maxSteps)
    }
}
