// Runs one window on the compositor: connect, map, route seat input to the scene (and to a
// recording), keep the cursor in step with the content and the screen on while the app asks,
// and loop until the window closes.
import Foundation
import Host
import Raster
import SafeOutput
import ScrollKit
import TraceFormat

/// The live host of a `Scene`: a Wayland connection with one toplevel window.
public final class Application {
    /// The connection.
    public let display: Display
    /// The window.
    public let window: Window
    /// Decides the cursor shape; polled after every dispatch, so it may read the scene and
    /// `seat` (`isDraggingWithPointer`, `pointerLocation`). When nil the arrow is shown: which
    /// shape the content deserves is the application's policy, not the host's.
    public var cursorProvider: (() -> CursorShape)?
    /// Whether the screen must stay on (a slideshow playing, a finger down); polled after every
    /// dispatch like `cursorProvider`. While it says so and the window is on an output, the
    /// compositor is asked not to blank the screen (zwp_idle_inhibit_manager_v1); where it
    /// lacks that, `onWarning` hears so once. Nil: never.
    public var keepsScreenOn: (() -> Bool)?
    /// Receives one-line warnings about input devices (an unusable keymap…) and about scales
    /// from the compositor that were ignored or clamped; the default prints them on standard
    /// error. Input goes on without the device, drawing at a valid scale.
    public var onWarning: (String) -> Void = { message in
        Diagnostics.line("warning: \(message)")
    }
    /// The recording started by `record(to:setup:)`, if any.
    public private(set) var recorder: InputRecorder?
    /// The seat whose devices drive the window, nil while the compositor offers none.
    public private(set) var seat: Seat?
    private let environment: [String: String]
    private var idleInhibition: IdleInhibition
    private var idleInhibitor: IdleInhibitor?

    /// Connects (throwing a one-line `WaylandError` on failure) and maps a window for `scene`,
    /// with `decorations` drawn by the compositor or by libdecor (see `WindowDecorations`).
    public init(scene: Scene, title: String, appID: String, fullscreen: Bool = false,
                decorations: WindowDecorations = .automatic,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.environment = environment
        display = try Display.connect(environment: environment)
        window = try Window(display: display, scene: scene, title: title, appID: appID, decorations: decorations)
        idleInhibition = IdleInhibition(available: display.globals.idleInhibitManager != nil)
        if fullscreen { window.setFullscreen(true) }
        window.onClose = { [unowned self] in self.display.stop() }
        // Scales the compositor sends that are ignored or clamped are warned about like devices.
        window.onWarning = { [unowned self] in self.onWarning($0) }
        display.onWarning = { [unowned self] in self.onWarning($0) }
        display.onSeatChange = { [unowned self] in self.attachSeat() }
        display.onOutputsChange = { [unowned self] in
            self.window.outputsChanged()
            self.seat?.outputScaleChanged()
        }
        attachSeat()
    }

    private func attachSeat() {
        // The old seat's devices end what they were doing (a drag is cancelled) first.
        seat?.removeAllDevices()
        guard let bound = display.globals.seat, let events = display.seatEvents else {
            seat = nil
            return
        }
        let newSeat = Seat(proxy: bound.proxy, version: bound.version, events: events, display: display,
                           windowSurface: window.surfaceProxy, environment: environment)
        let scene = window.scene
        newSeat.onInput = { [unowned self] frame in
            self.recorder?.record(frame: frame)
            scene.handle(frame: frame)
        }
        newSeat.onWarning = { [unowned self] in self.onWarning($0) }
        seat = newSeat
    }

    /// Records every input event the seat delivers from now on into a trace at `path`
    /// (docs/trace-format.md), which `scroll-replay` replays. `setup` describes the scroll
    /// view; when nil, the first scroll view of a `ViewScene` (the one that receives input)
    /// is described as it is when the first event arrives, with the window's size as viewport.
    /// Throws `RecordingError` naming the file when it cannot be created; an existing file
    /// is replaced only when `replacing` is true (see `InputRecorder`).
    public func record(to path: String, replacing: Bool = false, setup: TraceSetupDescription? = nil) throws(RecordingError) {
        if let setup {
            try record(to: path, replacing: replacing, describing: { setup })
            return
        }
        guard let viewScene = window.scene as? ViewScene, ViewScene.scrollViews(in: viewScene.root).first != nil else {
            throw .noScrollView
        }
        try record(to: path, replacing: replacing, describing: {
            guard let scrollView = ViewScene.scrollViews(in: viewScene.root).first else {
                return TraceSetupDescription(content: .zero)
            }
            return TraceSetupDescription(describing: scrollView)
        })
    }

    /// Records as `record(to:setup:)`, asking `describing` for the setup when the first event
    /// arrives (after layout), e.g. `{ TraceSetupDescription(describing: gallery.pager) }`
    /// for a scene that is not a `ViewScene`. A nil viewport in it means the window's size.
    public func record(to path: String, replacing: Bool = false,
                       describing: @escaping () -> TraceSetupDescription) throws(RecordingError) {
        attach(try InputRecorder(path: path, replacing: replacing, setup: describing))
    }

    /// Records into `recorder` (created before the connection, so that a file that cannot be
    /// written is refused before any window opens): every input event from now on, with the
    /// window's size as the viewport when its setup description has none. Write failures are
    /// passed to `onWarning` as they happen.
    public func attach(_ recorder: InputRecorder) {
        recorder.windowSize = { [unowned self] in CGSize(width: self.window.width, height: self.window.height) }
        recorder.onFailure = { [unowned self] in self.onWarning($0.description) }
        self.recorder = recorder
    }

    /// Runs until the window is closed (returns) or the compositor goes away (throws).
    public func run() throws {
        defer { recorder?.finish() }
        let (slowdown, warning) = Self.loopSlowdown(environment)
        if let warning { onWarning(warning) }
        try display.run { [unowned self] in
            // Everything read in this iteration reaches the scene before it draws.
            self.seat?.deliverQueued()
            self.updateCursor()
            self.updateIdleInhibitor()
            self.updateVisibility()
            try self.window.afterDispatch()
            if slowdown > 0 { Thread.sleep(forTimeInterval: slowdown) }
        }
    }

    /// SCROLLKIT_SLOW_LOOP_MS=N (1 to 1,000): the loop's thread sleeps N ms after each iteration,
    /// standing in for a slow machine (a debug build, 4K frames on a loaded CPU) in the live tests
    /// of what must not wait for that thread: the socket reader (FloodLiveTests). In seconds; 0
    /// when unset, and when it is not such a number, with a warning naming it.
    static func loopSlowdown(_ environment: [String: String]) -> (seconds: Double, warning: String?) {
        guard let value = environment["SCROLLKIT_SLOW_LOOP_MS"], !value.isEmpty else { return (0, nil) }
        guard let ms = Int(value), (1...1000).contains(ms) else {
            return (0, "SCROLLKIT_SLOW_LOOP_MS=\(value) is not a whole number of milliseconds from 1 to 1000; ignored")
        }
        return (Double(ms) / 1000, nil)
    }

    /// Ends `run` after the current dispatch.
    public func quit() { display.stop() }

    /// Holds an idle inhibitor exactly while the app wants the screen on and the window is shown.
    private func updateIdleInhibitor() {
        switch idleInhibition.update(wanted: keepsScreenOn?() ?? false, hidden: window.placement.isHidden) {
        case .inhibit:
            idleInhibitor = display.globals.idleInhibitManager.flatMap { IdleInhibitor(manager: $0, surface: window.surface) }
        case .release: idleInhibitor = nil
        case .warnUnavailable: onWarning(IdleInhibition.unavailableWarning)
        case .none: break
        }
    }

    /// Tells the scene whether anyone can see the window (`Scene.isWindowVisible`): on no
    /// output (another workspace, its only screen unplugged) what plays only for a viewer, an
    /// animation, stops until the window shows again.
    private func updateVisibility() {
        let visible = !window.placement.isHidden
        if window.scene.isWindowVisible != visible { window.scene.isWindowVisible = visible }
    }

    private func updateCursor() {
        guard let seat else { return }
        seat.cursorShape = cursorProvider?() ?? .arrow
    }
}
