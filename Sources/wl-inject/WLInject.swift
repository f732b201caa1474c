// wl-inject: injects pointer, wheel, touchpad, keyboard and touch input into a Wayland
// compositor for ScrollKit's live tests and the README demo's scripted tour.
//
// Usage
//   wl-inject [OPTIONS] COMMAND...        run the commands given as words, then exit
//   wl-inject [OPTIONS] --stdin           run one command per line of standard input as it arrives
//   wl-inject [OPTIONS]                   connect, pick a backend, exit: 0 when injection is possible
//
// Options (before the first command)
//   --backend auto|wlr|kwin   wlr: zwlr_virtual_pointer_manager_v1 + zwp_virtual_keyboard_manager_v1
//                             (sway); kwin: org_kde_kwin_fake_input (KWin, the only route to touch).
//                             auto (default): wlr when the virtual pointer is offered, else kwin.
//   --extent WxH              wlr: the output size `abs` is relative to, in pixels (default 800x600)
//   --manual-frames           wlr: pointer commands do not send wl_pointer frame themselves
//   --stdin                   read commands from standard input (exclusive with command words)
//   -v, --verbose             print the chosen backend and protocol versions on stderr
//   -h, --help                print this reference
//
// Commands (pixels may be fractional; MS in milliseconds)
//   abs X Y                   pointer to (X, Y) in output (wlr) or global (kwin) pixels
//   move DX DY                relative pointer motion
//   button left|right|middle press|release
//   wheel vertical|horizontal NOTCHES   wheel clicks, positive = down/right; wlr: axis_source
//                             wheel + axis_discrete (15 per notch), kwin: plain axis of 15 per notch
//   finger vertical|horizontal VALUE    touchpad scroll (axis_source finger + axis), wlr only
//   stop vertical|horizontal  fingers lifted (axis_source finger + axis_stop), wlr only
//   frame                     an extra wl_pointer frame (wlr); with --manual-frames the only
//                             frames sent, so several pointer commands can share one; kwin: no-op
//   key KEYSYM press|release  xkbcommon keysym names (Page_Down, Home, q, plus, Control_L);
//                             keysyms on the Shift level bring Shift_L with them (keys pressed
//                             while it is held come out shifted too)
//   tap KEYSYM                press then release
//   touch down ID X Y | touch move ID X Y | touch up ID | touch frame | touch cancel   (kwin only)
//   sleep MS                  wait
//   sync                      round-trip to the compositor, then print "ok" on stdout
//   drag X0 Y0 X1 Y1 MS STEPS         pointer to X0,Y0, press left, STEPS motions over MS, release
//   swipe ID X0 Y0 X1 Y1 MS STEPS     touch down, STEPS motions over MS, up; a frame after each (kwin)
//   pinch X Y R0 R1 MS STEPS          touches 0 and 1 at (X∓R, Y), R going from R0 to R1 (kwin)
//
// Behaviour
//   On wlr every pointer command ends with a frame (wlroots forwards nothing until the frame),
//   so each command is one wl_pointer.frame at the client. Keys use the injector's own us keymap:
//   wlr uploads it to the virtual keyboard and sends `modifiers` whenever a key changes them;
//   kwin receives evdev codes (xkb keycode − 8) and applies its own keymap (us by default).
//   Pressing what is already pressed, releasing what is not, or moving a touch that is not down
//   is a script error. Everything is flushed after each command (and each gesture step).
//   In --stdin mode empty lines and lines starting with # are skipped.
//   With --manual-frames, wlroots keeps only the last axis value per axis within a frame.
//
// Start order (measured under sway 1.7 and KWin 5.27)
//   Injected devices appear on the seat when wl-inject connects and vanish when it exits. A client
//   that is already running learns of them through wl_seat.capabilities and must re-bind
//   wl_pointer/wl_keyboard/wl_touch; input sent before it has done so is lost (keys sent at once
//   were all lost). So start one `wl-inject --stdin` per test before the client under test, `sync`,
//   then start the client. For sway nested in KWin, KWin's fake touch reaches sway only after
//   sway has bound KWin's wl_touch, which no reply to wl-inject reveals: touch sent right after
//   connecting was lost 5 times in 12, after `sync` and `sleep 200` none in 12.
//
// Exit status: 0 done; 1 cannot connect, no injection protocol, compositor lacks a needed version,
// or the connection broke; 2 usage or script error ("wl-inject: argument N: …" / "line N: …").
import CWaylandClient
import Glibc

/// Which injection route the user asked for.
enum BackendChoice: String {
    case auto
    case wlr
    case kwin
}

/// Command-line options; `firstCommand` is the index in argv of the first command word.
struct Options {
    var backend = BackendChoice.auto
    var extent = Extent(width: 800, height: 600)
    var manualFrames = false
    var readStandardInput = false
    var verbose = false
    var help = false
    var firstCommand: Int

    /// Parses options up to the first word that is not one (commands such as `move -5 0`
    /// may contain words that start with a dash).
    init(_ arguments: [String]) throws(InjectFailure) {
        var i = 1
        func value(_ option: String) throws(InjectFailure) -> String {
            guard i + 1 < arguments.count else { throw .script(.argument(i), "\(option) needs a value") }
            i += 1
            return arguments[i]
        }
        while i < arguments.count, arguments[i].hasPrefix("-"), Double(arguments[i]) == nil {
            var option = arguments[i]
            var inline: String?
            if let eq = option.firstIndex(of: "="), option.hasPrefix("--") {
                inline = String(option[option.index(after: eq)...])
                option = String(option[..<eq])
            }
            switch option {
            case "--backend":
                let text: String
                if let inline { text = inline } else { text = try value(option) }
                guard let choice = BackendChoice(rawValue: text) else {
                    throw .script(.argument(i), "--backend: expected auto, wlr or kwin, got '\(text)'")
                }
                backend = choice
            case "--extent":
                let text: String
                if let inline { text = inline } else { text = try value(option) }
                guard let extent = Options.extent(text) else {
                    throw .script(.argument(i), "--extent: expected WxH with 1...65535 pixels each, got '\(text)'")
                }
                self.extent = extent
            case "--manual-frames": manualFrames = true
            case "--stdin": readStandardInput = true
            case "-v", "--verbose": verbose = true
            case "-h", "--help": help = true
            case "--":
                i += 1
                firstCommand = i
                try checkExclusive(arguments)
                return
            default:
                throw .script(.argument(i), "unknown option '\(option)' (see wl-inject --help)")
            }
            i += 1
        }
        firstCommand = i
        try checkExclusive(arguments)
    }

    private func checkExclusive(_ arguments: [String]) throws(InjectFailure) {
        if readStandardInput && firstCommand < arguments.count {
            throw .script(.argument(firstCommand), "--stdin reads commands from standard input; remove '\(arguments[firstCommand])' or --stdin")
        }
    }

    /// "WxH" → extent. 65535: wlr motion_absolute scales the extent by 256 into 32 bits.
    static func extent(_ text: String) -> Extent? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = UInt32(parts[0]), let h = UInt32(parts[1]),
              (1...65535).contains(w), (1...65535).contains(h) else { return nil }
        return Extent(width: w, height: h)
    }
}

/// The program: parse, connect, choose a backend, run, exit with 0, 1 or 2.
@main
enum WLInject {
    static func main() {
        // A test that stops reading our stdout must not kill us in the middle of a gesture.
        signal(SIGPIPE, SIG_IGN)
        do {
            try run(CommandLine.arguments)
            exit(0)
        } catch {
            writeLine("wl-inject: \(error.message)", to: .standardError)
            exit(error.exitCode)
        }
    }

    static func run(_ arguments: [String]) throws(InjectFailure) {
        let options = try Options(arguments)
        if options.help {
            writeLine(helpText, to: .standardOutput)
            return
        }
        let keymap: InjectorKeymap
        do { keymap = try InjectorKeymap() } catch { throw .compositor(error.message) }
        let parser = CommandParser(resolveKey: keymap.resolve)

        // Command words are parsed before connecting: a typo never half-runs a script.
        var script: [(command: Command, position: ScriptPosition)] = []
        let words = Array(arguments[options.firstCommand...])
        var index = 0
        while index < words.count {
            do {
                let parsed = try parser.parse(words, at: index)
                script.append((parsed.command, .argument(options.firstCommand + index)))
                index = parsed.next
            } catch {
                throw .script(.argument(options.firstCommand + error.wordIndex), error.message)
            }
        }

        let connection: Connection
        do { connection = try Connection(environment: environment()) } catch { throw .compositor(error.message) }
        let injector = try makeInjector(options, connection: connection, keymap: keymap)
        if options.verbose { writeLine("wl-inject: \(describe(injector.capabilities, connection))", to: .standardError) }

        let initialState = try initialInputState(keymap)
        let runner = Runner(connection: connection, injector: injector, initialState: initialState)
        if options.readStandardInput {
            try runner.runStandardInput(parser: parser)
        } else {
            // The whole script is checked against the backend before the first request.
            var planner = runner.planner
            var planned: [[Step]] = []
            for (command, position) in script {
                do { planned.append(try planner.plan(command)) } catch { throw InjectFailure(error, at: position) }
            }
            for (entry, steps) in zip(script, planned) { try runner.execute(entry.command, steps) }
        }
        try runner.finish()
    }

    private static func environment() -> [String: String] {
        var env: [String: String] = [:]
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { env[name] = String(cString: value) }
        }
        return env
    }

    private static func makeInjector(_ options: Options, connection: Connection, keymap: InjectorKeymap) throws(InjectFailure) -> Injector {
        let hasWlr = connection.pointerManager != nil || connection.keyboardManager != nil
        let kind: BackendKind
        switch options.backend {
        case .wlr:
            guard hasWlr else {
                throw .compositor("--backend wlr: the compositor offers neither zwlr_virtual_pointer_manager_v1 nor zwp_virtual_keyboard_manager_v1")
            }
            kind = .wlr
        case .kwin:
            guard connection.fakeInput != nil else {
                throw .compositor("--backend kwin: the compositor offers no org_kde_kwin_fake_input (KWin advertises it only with KWIN_WAYLAND_NO_PERMISSION_CHECKS=1)")
            }
            kind = .kwin
        case .auto:
            // The virtual pointer decides: a compositor offering only a virtual keyboard next
            // to fake input would otherwise lose pointer and touch.
            if connection.pointerManager != nil { kind = .wlr }
            else if connection.fakeInput != nil { kind = .kwin }
            else if hasWlr { kind = .wlr }
            else {
                throw .compositor("the compositor offers no injection protocol: neither zwlr_virtual_pointer_manager_v1/zwp_virtual_keyboard_manager_v1 (wlroots) nor org_kde_kwin_fake_input (KWin, needs KWIN_WAYLAND_NO_PERMISSION_CHECKS=1)")
            }
        }
        do {
            switch kind {
            case .wlr:
                return try WlrInjector(connection: connection, keymap: keymap, extent: options.extent,
                                       autoFrame: !options.manualFrames)
            case .kwin:
                return try KWinInjector(connection: connection, fakeInput: connection.fakeInput!)
            }
        } catch {
            throw .compositor(error.message)
        }
    }

    private static func initialInputState(_ keymap: InjectorKeymap) throws(InjectFailure) -> InputState {
        guard case .success(let shiftL) = keymap.resolve("Shift_L"),
              case .success(let shiftR) = keymap.resolve("Shift_R") else {
            throw .compositor("the us keymap has no Shift_L/Shift_R key")
        }
        return InputState(shiftKeycodes: [shiftL.keycode, shiftR.keycode], autoShift: shiftL)
    }

    private static func describe(_ caps: Capabilities, _ connection: Connection) -> String {
        switch caps.backend {
        case .wlr:
            let pointer = connection.pointerManager.map { "zwlr_virtual_pointer_manager_v1 v\($0.version)" } ?? "no virtual pointer"
            let keyboard = connection.keyboardManager.map { "zwp_virtual_keyboard_manager_v1 v\($0.version)" } ?? "no virtual keyboard"
            return "backend wlr: \(pointer), \(keyboard), extent \(caps.extent.width)x\(caps.extent.height)"
        case .kwin:
            return "backend kwin: org_kde_kwin_fake_input v\(caps.fakeInputVersion)"
        }
    }

    static let helpText = """
        wl-inject: inject pointer, wheel, touchpad, keyboard and touch input into a Wayland compositor
        (ScrollKit live-test infrastructure).

        USAGE
          wl-inject [OPTIONS] COMMAND...     run the command words, then exit
          wl-inject [OPTIONS] --stdin        run one command per line of standard input as it arrives
          wl-inject [OPTIONS]                only connect and pick a backend (exit 0 = injection works)

        OPTIONS (before the first command)
          --backend auto|wlr|kwin   wlr: zwlr_virtual_pointer_manager_v1 + zwp_virtual_keyboard_manager_v1 (sway)
                                    kwin: org_kde_kwin_fake_input (KWin; the only route to touch)
                                    auto (default): wlr when the virtual pointer is offered, else kwin
          --extent WxH              wlr: output size that abs coordinates refer to (default 800x600)
          --manual-frames           wlr: pointer commands send no frame of their own; use `frame`
          --stdin                   read commands from standard input
          -v, --verbose             print the backend and protocol versions on stderr
          -h, --help                print this help

        COMMANDS (pixels may be fractional; MS = milliseconds)
          abs X Y                           pointer to (X, Y): output pixels (wlr) or global pixels (kwin)
          move DX DY                        relative pointer motion
          button left|right|middle press|release
          wheel vertical|horizontal NOTCHES wheel clicks, positive = down/right (15 units per notch;
                                            wlr: axis_source wheel + axis_discrete; kwin: plain axis)
          finger vertical|horizontal VALUE  touchpad scroll: axis_source finger + axis (wlr only)
          stop vertical|horizontal          fingers lifted: axis_source finger + axis_stop (wlr only)
          frame                             extra pointer frame (wlr); no-op on kwin
          key KEYSYM press|release          xkbcommon keysym name: Page_Down, Home, q, plus, Control_L, ...
          tap KEYSYM                        press, then release
          touch down ID X Y                 (touch commands: kwin only)
          touch move ID X Y
          touch up ID
          touch frame
          touch cancel
          sleep MS                          wait
          sync                              round-trip to the compositor, then print "ok" on stdout
          drag X0 Y0 X1 Y1 MS STEPS         pointer to (X0,Y0), press left, STEPS motions over MS, release
          swipe ID X0 Y0 X1 Y1 MS STEPS     touch down, STEPS motions over MS, up; frame after each (kwin)
          pinch X Y R0 R1 MS STEPS          touches 0 and 1 at (X-R, Y) and (X+R, Y), R from R0 to R1 (kwin)

        NOTES
          wlr: every pointer command ends with a frame, so each arrives as one wl_pointer.frame; with
          --manual-frames, commands accumulate until `frame`. Keys use wl-inject's own us keymap (wlr
          uploads it and sends `modifiers` as modifier keys change; kwin gets evdev codes). A keysym on
          the Shift level (plus, A) is typed with Shift_L held (keys pressed meanwhile come out
          shifted too). Pressing what is pressed, releasing what is not, or moving a touch that is
          not down is an error. Each command (and gesture step) is flushed at once; gesture steps
          are spaced MS/STEPS apart in real time.
          With --manual-frames, wlroots keeps only the last axis value per axis within one frame.
          --stdin: blank lines and lines starting with # are skipped.

        START ORDER
          Injected devices appear when wl-inject connects and vanish when it exits. A running client
          must re-bind its pointer/keyboard/touch after the seat changes, and input sent before that
          is lost. Start one `wl-inject --stdin` per test BEFORE the client under test and `sync`.
          Sway nested in KWin receives KWin's fake touch only once it has bound KWin's wl_touch:
          after connecting to KWin, `sync` and `sleep 200` before the first touch.

        EXIT STATUS
          0 done; 1 cannot connect, no injection protocol, or the connection broke;
          2 usage or script error, reported as "wl-inject: argument N: ..." or "wl-inject: line N: ...".
        """
}
