// An xdg-shell toplevel that shows a Scene: configure/ack, resize, close, fullscreen,
// server-side decorations, output scales (integer, or fractional through a viewport), shm
// buffers from the pool and a frame-callback loop.
import CWaylandClient
import CWaylandProtocols
import Foundation
import Glibc
import Raster
import SafeOutput
import ScrollKit

/// Figures about the frame loop, for `--stats` and the live tests.
public struct FrameStatistics: Sendable {
    /// Frames committed with new pixels.
    public internal(set) var framesCommitted = 0
    /// Frame callbacks requested in total (one per commit).
    public internal(set) var callbacksRequested = 0
    /// Monotonic ms of the first commit with content, nil before it.
    public internal(set) var firstCommitTime: Double?
    /// Milliseconds spent in `Scene.render` for the last committed frame (only the last is
    /// kept: a kiosk animating for weeks would otherwise grow a list by 60 entries a second).
    public internal(set) var lastRenderMilliseconds = 0.0
    /// For the last committed frame: how long after the frame callback it answers it was
    /// committed, in ms; nil when it answered none (the first frame, a configure, a wake-up).
    public internal(set) var lastAnswerMilliseconds: Double?
    /// Buffers created over the window's life (reuse keeps this small).
    public internal(set) var buffersCreated = 0
    /// Frame callbacks answered with a commit (the frames of an animation).
    public internal(set) var callbacksAnswered = 0
    /// The longest time from a frame callback's arrival to the commit answering it, in ms.
    public internal(set) var maxCallbackAnswerMilliseconds = 0.0
    /// Callbacks answered later than `lateAnswerMilliseconds`: frames that missed the
    /// compositor's next refresh.
    public internal(set) var lateCallbackAnswers = 0
    /// 1000/60 ms: one refresh at 60 Hz, the rate frame callbacks run at in every compositor
    /// measured here (design.md budget: every frame of a fling committed before the next callback).
    public static let lateAnswerMilliseconds = 1000.0 / 60
}

/// A top-level window drawing a `Scene` into shm buffers.
public final class Window {
    /// The scene shown.
    public let scene: Scene
    /// Whether the window is opaque (XRGB buffers) or has alpha (ARGB).
    public let opaque: Bool
    /// Current size in surface points (0×0 until the first configure).
    public private(set) var width = 0, height = 0
    /// The scale buffers are drawn at: the outputs' integer scale, or the compositor's
    /// preferred fractional scale when it offers fractional scaling and viewports.
    public private(set) var scale: BufferScale = .integer(1)
    /// Size of the buffers in device pixels: the size in points times `scale`, rounded.
    public private(set) var bufferWidth = 0, bufferHeight = 0
    /// What the window knows of the outputs it is on and the compositor's preferred scale.
    public private(set) var scaleState: SurfaceScaleState
    /// Whether the compositor has put the window in fullscreen.
    public private(set) var isFullscreen = false
    /// Whether the first configure has been acknowledged.
    public private(set) var isConfigured = false
    /// Frame-loop figures.
    public private(set) var statistics = FrameStatistics()
    /// Called when the user closes the window (xdg_toplevel.close).
    public var onClose: (() -> Void)?
    /// Called after each commit with the frame's buffer and the commit time (screenshots, stats).
    public var onFrameCommitted: ((Framebuffer, Double) -> Void)?
    /// Receives one-line warnings about scales from the compositor that were ignored or
    /// clamped; the default prints them on standard error. The window goes on drawing.
    public var onWarning: (String) -> Void = { message in
        Diagnostics.line("warning: \(message)")
    }

    private let display: Display
    private let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    private let toplevel: OpaquePointer
    private var decoration: OpaquePointer?
    /// `wp_fractional_scale_v1` and `wp_viewport` of the surface, when both are offered.
    private var fractionalScale: OpaquePointer?
    private var viewport: OpaquePointer?
    /// The buffer scale and viewport destination the surface was last committed with (the
    /// protocol's defaults at first), so only changes are sent.
    private var surfaceBufferScale: Int32 = 1
    private var surfaceDestination: (width: Int, height: Int)?
    private var wakeHandler: Int?
    private var lastWarning: String?
    private var pool = BufferPool()
    private var buffers: [Int: ShmBuffer] = [:]
    private var scheduler = FrameScheduler()
    private var pendingSize: (width: Int, height: Int) = (0, 0)
    private var pendingFullscreen = false
    private var wakeTimer: Int?
    /// Monotonic ms when the frame callback being handled arrived; nil outside its handling
    /// and once a commit has answered it.
    private var callbackArrival: Double?
    private let defaultSize: (width: Int, height: Int)
    /// An error from inside a C callback, rethrown by the event loop.
    private var failure: Error?

    /// Largest window edge accepted from a configure, in pixels: larger requests are
    /// clamped so a hostile or buggy compositor cannot make us allocate gigabytes.
    static let maxEdge = 16384

    /// Creates and maps a toplevel; the first frame is drawn after the first configure.
    public init(display: Display, scene: Scene, title: String, appID: String,
                size: (width: Int, height: Int) = (800, 600), opaque: Bool = true) throws {
        guard let compositor = display.globals.compositor, let wmBase = display.globals.wmBase else {
            throw WaylandError.missingGlobal("wl_compositor")
        }
        self.display = display
        self.scene = scene
        self.opaque = opaque
        self.defaultSize = size
        let fractional = display.globals.fractionalScaleManager != nil && display.globals.viewporter != nil
        scaleState = SurfaceScaleState(fractionalAvailable: fractional)
        scaleState.unplacedScale = display.maxOutputScale
        guard let surface = wl_compositor_create_surface(compositor),
              let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface),
              let toplevel = xdg_surface_get_toplevel(xdgSurface) else {
            throw display.connectionError()
        }
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        let me = Unmanaged.passUnretained(self).toOpaque()
        // enter/leave name the outputs the surface is on. (wl_surface.preferred_buffer_scale
        // needs wl_compositor v6, beyond libwayland 1.21's headers: the outputs decide.)
        wl_surface_add_listener(surface, &Window.surfaceListener, me)
        if fractional, let manager = display.globals.fractionalScaleManager, let viewporter = display.globals.viewporter {
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            if let fractionalScale {
                wp_fractional_scale_v1_add_listener(fractionalScale, &Window.fractionalScaleListener, me)
            }
        }
        xdg_surface_add_listener(xdgSurface, &Window.xdgSurfaceListener, me)
        xdg_toplevel_add_listener(toplevel, &Window.toplevelListener, me)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, appID)
        if let manager = display.globals.decorationManager {
            decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
            zxdg_toplevel_decoration_v1_add_listener(decoration, &Window.decorationListener, me)
            zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        }
        scene.onNeedsFrame = { [unowned self] in self.scheduler.invalidate() }
        // Background work (picture decoders) wakes the loop instead of the scene polling.
        let waker = display.waker
        scene.onNeedsFrameFromAnyThread = { waker.wake() }
        wakeHandler = display.addWakeHandler { [unowned self] in self.scheduler.invalidate() }
        wl_surface_commit(surface)  // no buffer yet: asks for the first configure
    }

    deinit {
        if let wakeHandler { display.removeWakeHandler(wakeHandler) }
        scene.onNeedsFrameFromAnyThread = nil
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        buffers.removeAll()
        wl_surface_destroy(surface)
    }

    /// Asks the compositor for fullscreen (true) or a normal window (false).
    public func setFullscreen(_ on: Bool) {
        if on { xdg_toplevel_set_fullscreen(toplevel, nil) } else { xdg_toplevel_unset_fullscreen(toplevel) }
    }

    /// The `wl_surface`, for the seat to recognise events aimed at this window.
    var surfaceProxy: OpaquePointer { surface }

    /// Marks the scene as changed (input arrived, code changed something).
    public func setNeedsFrame() { scheduler.invalidate() }

    /// Called by the event loop after every dispatch: render now if something changed and
    /// no frame callback is outstanding.
    func afterDispatch() throws {
        if let failure { throw failure }
        if isConfigured && scheduler.shouldRenderAfterDispatch() {
            try renderFrame(at: monotonicMilliseconds())
        }
    }

    // MARK: Configure

    fileprivate func toplevelConfigure(width: Int32, height: Int32, states: [UInt32]) {
        pendingSize = (Int(width), Int(height))
        pendingFullscreen = states.contains(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue)
    }

    fileprivate func surfaceConfigure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        // 0 means "you choose": keep the current size, or the default before the first one.
        var w = pendingSize.width > 0 ? pendingSize.width : (width > 0 ? width : defaultSize.width)
        var h = pendingSize.height > 0 ? pendingSize.height : (height > 0 ? height : defaultSize.height)
        w = min(w, Window.maxEdge)
        h = min(h, Window.maxEdge)
        isFullscreen = pendingFullscreen
        applyGeometry(width: w, height: h)
        isConfigured = true
        scheduler.invalidate()
    }

    // MARK: Scale

    /// Sets the size in points and the scale the state asks for (lowered if the buffer would be
    /// too large, before any is allocated); on a change, buffers of the old size go and the
    /// scene lays out and repaints at the new scale.
    private func applyGeometry(width w: Int, height h: Int) {
        let limited = ScaleLimits.limited(scaleState.scale, width: w, height: h)
        if let warning = limited.warning { warn(warning) }
        guard w != width || h != height || limited.scale != scale else { return }
        let size = limited.scale.bufferSize(width: w, height: h)
        width = w
        height = h
        scale = limited.scale
        bufferWidth = size.width
        bufferHeight = size.height
        for id in pool.resize(width: size.width, height: size.height) { buffers[id] = nil }
        scene.resize(width: w, height: h, scale: limited.scale.factor)
        scheduler.invalidate()
    }

    /// The scale inputs changed: before the first configure they are only noted.
    private func scaleInputsChanged() {
        guard isConfigured else { return }
        applyGeometry(width: width, height: height)
    }

    /// Outputs appeared, went or changed their scale (the display calls this through the
    /// application).
    func outputsChanged() {
        scaleState.refresh(outputScales: display.outputScales)
        scaleState.unplacedScale = display.maxOutputScale
        scaleInputsChanged()
    }

    fileprivate func surfaceEnter(_ output: OpaquePointer?) {
        guard let entered = display.output(for: output) else { return }
        scaleState.enter(output: entered.name, scale: entered.scale)
        scaleInputsChanged()
    }

    fileprivate func surfaceLeave(_ output: OpaquePointer?) {
        guard let left = display.output(for: output) else { return }
        scaleState.leave(output: left.name)
        scaleInputsChanged()
    }

    fileprivate func preferredScale(_ value120: UInt32) {
        if let warning = scaleState.preferredScale(value120) { warn(warning) }
        scaleInputsChanged()
    }

    /// Warns once per distinct message, so a compositor repeating a bad value does not flood.
    private func warn(_ message: String) {
        guard message != lastWarning else { return }
        lastWarning = message
        onWarning(message)
    }

    /// Tells the surface how the attached buffer maps onto it: buffer scale n for an integer
    /// scale; buffer scale 1 and a viewport to the size in points for a fractional one.
    private func commitScaleState() {
        let bufferScale: Int32
        let destination: (width: Int, height: Int)?
        switch scale {
        case .integer(let n):
            bufferScale = Int32(n)
            destination = nil
        case .fractional:
            bufferScale = 1
            destination = (width, height)
        }
        if bufferScale != surfaceBufferScale {
            wl_surface_set_buffer_scale(surface, bufferScale)
            surfaceBufferScale = bufferScale
        }
        let sameDestination = destination?.width == surfaceDestination?.width && destination?.height == surfaceDestination?.height
        if let viewport, !sameDestination {
            // −1, −1 unsets the destination: the surface is the buffer's size over its scale.
            wp_viewport_set_destination(viewport, Int32(destination?.width ?? -1), Int32(destination?.height ?? -1))
            surfaceDestination = destination
        }
    }

    // MARK: Frames

    fileprivate func frameDone(time: UInt32) {
        guard scheduler.callbackDone() else { return }  // idle: no new callback, no wakeups
        do {
            // The callback is delivered as the frame is done: local time is the frame clock,
            // the one input times are mapped onto.
            let arrival = monotonicMilliseconds()
            callbackArrival = arrival
            defer { callbackArrival = nil }
            try renderFrame(at: arrival)
        } catch {
            failure = error
        }
    }

    private func renderFrame(at time: Double) throws {
        let request = scene.advance(to: time)
        scheduler.setAnimating(request == .nextFrame)
        if let wakeTimer { display.cancelTimer(wakeTimer) }
        wakeTimer = nil
        if case .at(let deadline) = request {
            wakeTimer = display.schedule(at: deadline) { [unowned self] in
                self.wakeTimer = nil
                self.scheduler.invalidate()
            }
        }
        guard scene.needsRender || !buffersHoldCurrentSize else {
            if request == .nextFrame { requestCallbackAndCommit() }
            return
        }
        let buffer: ShmBuffer
        let age: Int
        switch pool.acquire(width: bufferWidth, height: bufferHeight) {
        case .reuse(let id, let a):
            guard let b = buffers[id] else { return }
            buffer = b
            age = a
        case .allocate(let id):
            let b = try ShmBuffer(shm: display.globals.shm!, id: id, width: bufferWidth, height: bufferHeight, opaque: opaque)
            b.onRelease = { [unowned self] id in
                if self.pool.released(id) { self.buffers[id] = nil }
            }
            buffers[id] = b
            statistics.buffersCreated += 1
            buffer = b
            age = 0
        case .exhausted:
            scheduler.deferred()  // drawn after the next release arrives
            return
        }
        let start = monotonicMilliseconds()
        let damage = scene.render(into: buffer.framebuffer, bufferAge: age)
        let end = monotonicMilliseconds()
        statistics.lastRenderMilliseconds = end - start
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        commitScaleState()
        // Damage is in buffer pixels, whatever the scale: the renderer's rects as they are.
        for rect in damage where !rect.isEmpty {
            wl_surface_damage_buffer(surface, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        }
        statistics.framesCommitted += 1
        if statistics.firstCommitTime == nil { statistics.firstCommitTime = end }
        requestCallbackAndCommit()
        onFrameCommitted?(buffer.framebuffer, end)
    }

    /// Whether the pool holds at least one buffer of the current size drawn before; a window
    /// without one must draw even if the scene reports no change.
    private var buffersHoldCurrentSize: Bool {
        pool.slots.contains { $0.width == bufferWidth && $0.height == bufferHeight && $0.frame != 0 }
    }

    private func requestCallbackAndCommit() {
        let callback = wl_surface_frame(surface)
        wl_callback_add_listener(callback, &Window.frameListener, Unmanaged.passUnretained(self).toOpaque())
        statistics.callbacksRequested += 1
        wl_surface_commit(surface)
        // A commit made while a frame callback is handled answers it (at most once).
        statistics.lastAnswerMilliseconds = nil
        if let arrival = callbackArrival {
            callbackArrival = nil
            let answer = monotonicMilliseconds() - arrival
            statistics.lastAnswerMilliseconds = answer
            statistics.callbacksAnswered += 1
            statistics.maxCallbackAnswerMilliseconds = max(statistics.maxCallbackAnswerMilliseconds, answer)
            if answer > FrameStatistics.lateAnswerMilliseconds { statistics.lateCallbackAnswers += 1 }
        }
        scheduler.committed()
    }

    // MARK: Listeners (static storage: they must outlive every proxy pointing at them)

    private static func from(_ data: UnsafeMutableRawPointer?) -> Window {
        Unmanaged<Window>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static var xdgSurfaceListener = xdg_surface_listener(
        configure: { data, _, serial in Window.from(data).surfaceConfigure(serial: serial) })

    nonisolated(unsafe) private static var toplevelListener = xdg_toplevel_listener(
        configure: { data, _, width, height, states in
            // `states` is a wl_array of uint32 xdg_toplevel.state values.
            var list: [UInt32] = []
            if let states, let base = states.pointee.data {
                let count = states.pointee.size / MemoryLayout<UInt32>.size
                let words = base.bindMemory(to: UInt32.self, capacity: count)
                list = Array(UnsafeBufferPointer(start: words, count: count))
            }
            Window.from(data).toplevelConfigure(width: width, height: height, states: list)
        },
        close: { data, _ in Window.from(data).onClose?() },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in })

    nonisolated(unsafe) private static var surfaceListener = wl_surface_listener(
        enter: { data, _, output in Window.from(data).surfaceEnter(output) },
        leave: { data, _, output in Window.from(data).surfaceLeave(output) })

    nonisolated(unsafe) private static var fractionalScaleListener = wp_fractional_scale_v1_listener(
        preferred_scale: { data, _, scale in Window.from(data).preferredScale(scale) })

    nonisolated(unsafe) private static var decorationListener = zxdg_toplevel_decoration_v1_listener(
        configure: { _, _, _ in })

    nonisolated(unsafe) private static var frameListener = wl_callback_listener(
        done: { data, callback, time in
            wl_callback_destroy(callback)
            Window.from(data).frameDone(time: time)
        })
}
