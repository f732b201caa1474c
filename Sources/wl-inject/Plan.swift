// Turns commands into timed steps of input actions and checks them, before anything is
// sent, against what the backend can do and what is pressed or touched at that moment.

/// Input actions sent together, `offset` milliseconds after their command started.
struct Step: Equatable {
    var offset: Double
    var actions: [InputAction]
}

extension Command {
    /// The command as steps at offsets (ms) from its start; `sync` has none.
    /// Gestures place step i of n at `milliseconds · i / n`, so the last one lands exactly
    /// at the end and rounding never accumulates.
    var steps: [Step] {
        switch self {
        case .input(let action):
            return [Step(offset: 0, actions: [action])]
        case .tap(let stroke):
            return [Step(offset: 0, actions: [.key(stroke, pressed: true), .key(stroke, pressed: false)])]
        case .sleep(let ms):
            return [Step(offset: ms, actions: [])]
        case .sync:
            return []
        case let .drag(from, to, ms, n):
            var steps = [Step(offset: 0, actions: [.pointerAbsolute(from), .button(.left, pressed: true)])]
            for i in 1...n {
                steps.append(Step(offset: ms * Double(i) / Double(n),
                                  actions: [.pointerAbsolute(from.lerp(to: to, Double(i) / Double(n)))]))
            }
            steps[n].actions.append(.button(.left, pressed: false))
            return steps
        case let .swipe(id, from, to, ms, n):
            var steps = [Step(offset: 0, actions: [.touchDown(id: id, from), .touchFrame])]
            for i in 1...n {
                steps.append(Step(offset: ms * Double(i) / Double(n),
                                  actions: [.touchMotion(id: id, from.lerp(to: to, Double(i) / Double(n))), .touchFrame]))
            }
            steps[n].actions += [.touchUp(id: id), .touchFrame]
            return steps
        case let .pinch(center, r0, r1, ms, n):
            func fingers(_ r: Double) -> (Point, Point) {
                (Point(x: center.x - r, y: center.y), Point(x: center.x + r, y: center.y))
            }
            let (a0, b0) = fingers(r0)
            var steps = [Step(offset: 0, actions: [.touchDown(id: 0, a0), .touchDown(id: 1, b0), .touchFrame])]
            for i in 1...n {
                let (a, b) = fingers(r0 + (r1 - r0) * Double(i) / Double(n))
                steps.append(Step(offset: ms * Double(i) / Double(n),
                                  actions: [.touchMotion(id: 0, a), .touchMotion(id: 1, b), .touchFrame]))
            }
            steps[n].actions += [.touchUp(id: 0), .touchUp(id: 1), .touchFrame]
            return steps
        }
    }
}

/// The injection route chosen for a connection.
enum BackendKind: String, Equatable {
    case wlr
    case kwin
}

/// The absolute-motion extent for wlr, in output pixels.
struct Extent: Equatable {
    var width: UInt32
    var height: UInt32
}

/// What the connected backend offers, as far as planning needs to know.
struct Capabilities: Equatable {
    var backend: BackendKind
    /// wlr: `zwlr_virtual_pointer_manager_v1` is bound.
    var hasVirtualPointer = false
    /// wlr: `zwp_virtual_keyboard_manager_v1` is bound.
    var hasVirtualKeyboard = false
    /// kwin: the bound `org_kde_kwin_fake_input` version (0 when absent).
    var fakeInputVersion: UInt32 = 0
    /// wlr: the extent `abs` coordinates are relative to.
    var extent = Extent(width: 800, height: 600)
}

/// A command that cannot run: either the script is wrong (exit 2) or the compositor lacks
/// something the command needs (exit 1).
struct PlanError: Error, Equatable {
    var message: String
    var isScriptError: Bool
}

/// What is held down between commands: buttons, keys (and the Shift held on their behalf)
/// and touch points. Releasing what is not pressed is a script mistake worth reporting.
struct InputState: Equatable {
    /// Keycodes of Shift_L and Shift_R: a key pressed by the script that already shifts.
    var shiftKeycodes: Set<UInt32>
    /// The Shift key pressed automatically for keysyms on the Shift level.
    var autoShift: KeyStroke
    private(set) var buttons: Set<PointerButton> = []
    /// Pressed keycodes → whether the press relies on the automatic Shift.
    private(set) var keys: [UInt32: Bool] = [:]
    private(set) var autoShiftHeld = false
    private(set) var touches: Set<UInt32> = []

    init(shiftKeycodes: Set<UInt32>, autoShift: KeyStroke) {
        self.shiftKeycodes = shiftKeycodes
        self.autoShift = autoShift
    }

    /// Applies one action; returns the actions to send (a shifted keysym brings its Shift).
    mutating func apply(_ action: InputAction) throws(PlanError) -> [InputAction] {
        func mistake(_ message: String) -> PlanError { PlanError(message: message, isScriptError: true) }
        switch action {
        case let .button(button, pressed):
            if pressed {
                guard buttons.insert(button).inserted else { throw mistake("button \(button) is already pressed") }
            } else {
                guard buttons.remove(button) != nil else { throw mistake("button \(button) is not pressed") }
            }
            return [action]
        case let .key(stroke, pressed):
            return pressed ? try press(stroke) : try release(stroke)
        case let .touchDown(id, _):
            guard touches.insert(id).inserted else { throw mistake("touch \(id) is already down") }
            return [action]
        case let .touchMotion(id, _):
            guard touches.contains(id) else { throw mistake("touch \(id) is not down") }
            return [action]
        case let .touchUp(id):
            guard touches.remove(id) != nil else { throw mistake("touch \(id) is not down") }
            return [action]
        case .touchCancel:
            touches.removeAll()
            return [action]
        case .pointerAbsolute, .pointerMotion, .wheel, .finger, .fingerStop, .pointerFrame, .touchFrame:
            return [action]
        }
    }

    private mutating func press(_ stroke: KeyStroke) throws(PlanError) -> [InputAction] {
        guard keys[stroke.keycode] == nil else {
            throw PlanError(message: "key \(stroke.name) is already pressed", isScriptError: true)
        }
        if autoShiftHeld && stroke.keycode == autoShift.keycode {
            throw PlanError(message: "key \(stroke.name) is held for a shifted keysym; release that first", isScriptError: true)
        }
        let userShift = keys.keys.contains { shiftKeycodes.contains($0) }
        let usesAutoShift = stroke.needsShift && !userShift
        var sent: [InputAction] = []
        if usesAutoShift && !autoShiftHeld {
            autoShiftHeld = true
            sent.append(.key(autoShift, pressed: true))
        }
        keys[stroke.keycode] = usesAutoShift
        sent.append(.key(stroke, pressed: true))
        return sent
    }

    private mutating func release(_ stroke: KeyStroke) throws(PlanError) -> [InputAction] {
        guard let usedAutoShift = keys.removeValue(forKey: stroke.keycode) else {
            throw PlanError(message: "key \(stroke.name) is not pressed", isScriptError: true)
        }
        var sent: [InputAction] = [.key(stroke, pressed: false)]
        if usedAutoShift && !keys.values.contains(true) {
            autoShiftHeld = false
            sent.append(.key(autoShift, pressed: false))
        }
        return sent
    }
}

/// Checks and expands commands in order, carrying the input state from one to the next.
struct Planner {
    var capabilities: Capabilities
    var state: InputState

    /// The command's steps with every action checked and expanded; the state changes only
    /// when the whole command is valid, so a rejected gesture sends nothing.
    mutating func plan(_ command: Command) throws(PlanError) -> [Step] {
        var next = state
        var planned: [Step] = []
        for step in command.steps {
            var actions: [InputAction] = []
            for action in step.actions {
                try check(action)
                actions += try next.apply(action)
            }
            planned.append(Step(offset: step.offset, actions: actions))
        }
        state = next
        return planned
    }

    /// Whether the backend can send `action`.
    func check(_ action: InputAction) throws(PlanError) {
        let caps = capabilities
        switch caps.backend {
        case .wlr:
            switch action {
            case .touchDown, .touchMotion, .touchUp, .touchFrame, .touchCancel:
                throw PlanError(message: "touch needs the kwin backend (wlroots offers no touch injection)",
                                isScriptError: true)
            case .key:
                guard caps.hasVirtualKeyboard else {
                    throw PlanError(message: "the compositor offers no zwp_virtual_keyboard_manager_v1, needed for keys",
                                    isScriptError: false)
                }
            case .pointerAbsolute(let p):
                try requirePointer(caps)
                guard p.x <= Double(caps.extent.width), p.y <= Double(caps.extent.height) else {
                    throw PlanError(message: "abs: (\(p.x), \(p.y)) lies outside the extent \(caps.extent.width)x\(caps.extent.height) (set --extent)",
                                    isScriptError: true)
                }
            case .pointerMotion, .button, .wheel, .finger, .fingerStop, .pointerFrame:
                try requirePointer(caps)
            }
        case .kwin:
            switch action {
            case .finger, .fingerStop:
                throw PlanError(message: "finger and stop need the wlr backend (org_kde_kwin_fake_input has no axis source or axis_stop)",
                                isScriptError: true)
            case .touchDown, .touchMotion, .touchUp, .touchFrame, .touchCancel:
                try requireFakeInput(caps, version: 2, for: "touch")
            case .pointerAbsolute:
                try requireFakeInput(caps, version: 3, for: "abs")
            case .key:
                try requireFakeInput(caps, version: 4, for: "keys")
            case .pointerMotion, .button, .wheel, .pointerFrame:
                break
            }
        }
    }

    private func requirePointer(_ caps: Capabilities) throws(PlanError) {
        guard caps.hasVirtualPointer else {
            throw PlanError(message: "the compositor offers no zwlr_virtual_pointer_manager_v1, needed for pointer commands",
                            isScriptError: false)
        }
    }

    private func requireFakeInput(_ caps: Capabilities, version: UInt32, for what: String) throws(PlanError) {
        guard caps.fakeInputVersion >= version else {
            throw PlanError(message: "\(what) needs org_kde_kwin_fake_input version \(version); the compositor offers version \(caps.fakeInputVersion)",
                            isScriptError: false)
        }
    }
}
