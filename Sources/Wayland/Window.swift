// The surface that draws: a window showing a Scene in shm buffers from the pool, at the scale
// of its outputs (integer, or fractional through a viewport), paced by frame callbacks. What
// makes it a desktop window (configure, close, fullscreen, title, decorations) is its ShellRole:
// xdg-shell, or libdecor where the compositor draws no decorations.
import Foundation
import Host
import Raster
import SafeOutput
import ScrollKit

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
    /// Size of the frame in device pixels: the size in points times `scale`, rounded. Buffers
    /// have this size turned by `transform`.
    public private(set) var bufferWidth = 0, bufferHeight = 0
    /// How buffers hold the frame: turned as the screen the surface is on is
    /// (`wl_surface.set_buffer_transform`), so the compositor can show them without turning
    /// every frame; the scene still draws upright (PreRotation.swift).
    public private(set) var transform = FrameTransform.normal
    /// The outputs the surface is on: their transforms, and whether it is hidden.
    public private(set) var placement = SurfacePlacement()
    /// What the window knows of the outputs it is on and the compositor's preferred scale.
    public private(set) var scaleState: SurfaceScaleState
    /// Whether the compositor has put the window in fullscreen.
    public private(set) var isFullscreen = false
    /// Whether the first configure has been acknowledged.
    public private(set) var isConfigured = false
    /// Frame-loop figures.
    public private(set) var statistics = FrameStatistics()
    /// Whether frames of motions that run by themselves are drawn ahead of their callbacks (see
    /// `FrameScheduler`); false draws every frame when its callback comes, as a reference.
    public var drawsAhead = true
    /// Called when the user closes the window (xdg_toplevel.close).
    public var onClose: (() -> Void)?
    /// Called after each commit with the frame's buffer and the commit time (screenshots, stats).
    public var onFrameCommitted: ((Framebuffer, Double) -> Void)?
    /// Receives one-line warnings about scales from the compositor that were ignored or
    /// clamped; the default prints them on standard error. The window goes on drawing.
    public var onWarning: (String) -> Void = { message in
        Diagnostics.line("warning: \(message)")
    }

    /// What the compositor configured last (size asked for, states, bounds, capabilities);
    /// nil before the first configure. The size taken is `width`×`height`.
    public private(set) var configuration: ToplevelConfiguration?
    /// The title last set.
    public private(set) var title: String
    /// Who draws the title bar and borders: the compositor (xdg-decoration), the window
    /// (libdecor), or nil while unknown or when nobody does.
    public var decorationMode: DecorationMode? { role.decorationMode }
    /// The smallest size a floating window takes, in points.
    public let minimumSize: SurfaceSize
    /// 320×240 points: the smallest size the window takes by default, and asks the compositor
    /// to keep (decision). QVGA, the smallest screens the viewer runs on, so a window that fills
    /// one still fits; below it the error card's two lines of text and a picture's detail can
    /// no longer be read, and wlroots' floating minimum (75×50) leaves a strip.
    public static let defaultMinimumSize = SurfaceSize(width: 320, height: 240)

    private let display: Display
    /// The `wl_surface` (objects made for it, such as an idle inhibitor, hold it).
    let surface: Surface
    /// What makes the surface a desktop window (xdg-shell today).
    private let role: ShellRole
    /// `wp_fractional_scale_v1` and `wp_viewport` of the surface, when both are offered.
    private var fractionalScale: FractionalScale?
    private var viewport: Viewport?
    /// The outstanding frame callback (at most one: see FrameScheduler).
    private var frameCallback: FrameCallback?
    /// Presentation feedback awaited, by commit number (at most `PresentationTally.maxOutstanding`).
    private var feedback: [UInt64: PresentationFeedback] = [:]
    /// Commits made so far, with or without new pixels.
    private var commits: UInt64 = 0
    /// The buffer scale the surface was last committed with (the protocol's default at
    /// first), so only changes are sent.
    private var surfaceBufferScale: Int32 = 1
    /// The buffer transform the surface was last committed with, likewise.
    private var surfaceBufferTransform = FrameTransform.normal
    /// The upright frame the scene draws into while buffers are turned.
    private var preRotated: PreRotatedFrame?
    private var wakeHandler: Int?
    private var lastWarning: String?
    private var buffers = FrameBuffers<ShmBuffer>()
    private var scheduler = FrameScheduler()
    private var wakeTimer: Int?
    /// A configure was acknowledged or the decorations changed (libdecor draws them in
    /// subsurfaces synchronised with ours), which take effect with the surface's next commit:
    /// committed after the dispatch unless a frame did. A configure that changes no size draws
    /// no frame (a window becoming active), yet its state and decorations must show.
    private var needsCommit = false
    /// Monotonic ms when the outstanding frame callback arrived (as the compositor stamped it,
    /// see `CallbackClock`), from its dispatch until it is answered after the dispatch; nil once
    /// a commit has answered it.
    private var callbackArrival: Double?
    /// Monotonic ms of the commit that asked for the outstanding callback.
    private var callbackRequested = 0.0
    /// The time the scene was last ticked for (ms): a frame drawn after a dispatch expects its
    /// callback one refresh after it.
    private var lastTickTime = 0.0
    /// The frame drawn ahead for the outstanding callback (see `FrameScheduler`), nil when none.
    private var heldFrame: HeldFrame?
    /// A frame drawn ahead was given up before it was shown: the scene counts what it drew as
    /// drawn, so the next tick draws whether or not the scene changed since.
    private var unshownDrawing = false
    /// The damage of frames drawn and given up since the last commit: the renderer reports what
    /// changed since the frame it drew before, but the compositor must hear of everything that
    /// changed since the frame it was last given, or it keeps showing that frame's pixels there.
    private var unshownDamage = PixelRegion()
    /// The sizes configures give, and the floating one to return to (see `ToplevelSizing`).
    private var sizing: ToplevelSizing
    /// Whether frames are kept back while the scene's content is on its way (see `ContentWait`).
    private var contentWait = ContentWait()
    /// The timer that commits what shows when the wait for content runs out.
    private var contentWaitTimer: Int?
    /// An error from inside a C callback, rethrown by the event loop.
    private var failure: Error?

    /// Largest window edge accepted from a configure, in pixels: larger requests are
    /// clamped so a hostile or buggy compositor cannot make us allocate gigabytes.
    static let maxEdge = 16384

    /// Creates and maps a toplevel titled `title`, of `size` points until the compositor says
    /// otherwise (fitted into its bounds), never smaller than `minimumSize` while floating, with
    /// `decorations` drawn by the compositor or by libdecor (see `WindowDecorations`); the first
    /// frame is drawn after the first configure.
    public init(display: Display, scene: Scene, title: String, appID: String,
                size: (width: Int, height: Int) = (800, 600), minimumSize: SurfaceSize = Window.defaultMinimumSize,
                decorations: WindowDecorations = .automatic, opaque: Bool = true) throws {
        guard let compositor = display.globals.compositor else {
            throw WaylandError.missingGlobal("wl_compositor")
        }
        self.display = display
        self.scene = scene
        self.opaque = opaque
        sizing = ToplevelSizing(defaultSize: SurfaceSize(width: size.width, height: size.height), minimumSize: minimumSize,
                                maxEdge: Window.maxEdge)
        self.minimumSize = minimumSize
        self.title = title
        let fractional = display.globals.fractionalScaleManager != nil && display.globals.viewporter != nil
        scaleState = SurfaceScaleState(fractionalAvailable: fractional)
        scaleState.unplacedScale = display.maxOutputScale
        placement.refresh(outputTransforms: display.outputTransforms)
        if display.presentation != nil { statistics.presentation = PresentationTally() }
        scheduler.refreshInterval = placement.refreshInterval(refreshes: display.outputRefreshes) ?? scheduler.refreshInterval
        guard let surface = Surface(compositor: compositor) else { throw display.connectionError() }
        self.surface = surface
        switch ShellRoleKind.choose(decorations, decorationManagerOffered: display.globals.decorationManager != nil) {
        case .xdgShell(let serverSide):
            role = try XDGShellRole(display: display, surface: surface, title: title, appID: appID, minimumSize: minimumSize,
                                    serverSideDecorations: serverSide)
        case .libdecor:
            role = try LibdecorShellRole(display: display, surface: surface, title: title, appID: appID, minimumSize: minimumSize)
        }
        role.onConfigure = { [unowned self] in self.configure($0) }
        role.onClose = { [unowned self] in self.onClose?() }
        role.onNeedsCommit = { [unowned self] in self.needsCommit = true }
        role.onFailure = { [unowned self] in self.failure = self.failure ?? $0 }
        surface.onEnter = { [unowned self] in self.surfaceEnter($0) }
        surface.onLeave = { [unowned self] in self.surfaceLeave($0) }
        if fractional, let manager = display.globals.fractionalScaleManager, let viewporter = display.globals.viewporter {
            fractionalScale = FractionalScale(manager: manager, surface: surface)
            viewport = Viewport(viewporter: viewporter, surface: surface)
            fractionalScale?.onPreferredScale = { [unowned self] in self.preferredScale($0) }
        }
        scene.onNeedsFrame = { [unowned self] in self.scheduler.invalidate() }
        // Background work (picture decoders) wakes the loop instead of the scene polling.
        let waker = display.waker
        scene.onNeedsFrameFromAnyThread = { waker.wake() }
        wakeHandler = display.addWakeHandler { [unowned self] in self.scheduler.invalidate() }
        surface.commit()  // no buffer yet: asks for the first configure
    }

    deinit {
        if let wakeHandler { display.removeWakeHandler(wakeHandler) }
        if let contentWaitTimer { display.cancelTimer(contentWaitTimer) }
        scene.onNeedsFrameFromAnyThread = nil
        // The protocol objects go with their properties: the role's, the fractional scale and
        // the viewport each hold the surface, so the wl_surface is destroyed after them.
    }

    /// Asks the compositor for fullscreen (true) or a normal window (false).
    public func setFullscreen(_ on: Bool) { role.setFullscreen(on) }

    /// Shows `title` in the title bar and task lists (sent only when it changed).
    public func setTitle(_ title: String) {
        guard title != self.title else { return }
        self.title = title
        role.setTitle(title)
    }

    /// The `wl_surface`, for the seat to recognise events aimed at this window.
    var surfaceProxy: OpaquePointer { surface.proxy }

    /// Marks the scene as changed (input arrived, code changed something).
    public func setNeedsFrame() { scheduler.invalidate() }

    /// Called by the event loop after every dispatch: render now if something changed and
    /// no frame callback is outstanding.
    func afterDispatch() throws {
        if let failure { throw failure }
        if let arrival = callbackArrival {
            try answerCallback(arrivedAt: arrival)
        } else if isConfigured && scheduler.shouldRenderAfterDispatch() {
            try renderFrame(at: monotonicMilliseconds())
        }
        try drawAheadIfDue()
        // Not while a new size waits for its first frame (all buffers busy, or its frame kept
        // back for the content): the old buffer would be shown at a size it was not drawn for.
        // That frame commits when it is drawn.
        if needsCommit && !contentWait.isHolding
            && (!isConfigured || buffers.holdsDrawnFrame(width: bufferWidth, height: bufferHeight)) {
            needsCommit = false
            surface.commit()
        }
    }

    // MARK: Configure

    /// A configure sequence arrived through the role: take its size (see `ToplevelSizing`) and
    /// fullscreen state, and redraw.
    private func configure(_ configuration: ToplevelConfiguration) -> SurfaceSize {
        self.configuration = configuration
        let size = sizing.take(configuration)
        isFullscreen = configuration.isFullscreen
        applyGeometry(width: size.width, height: size.height)
        isConfigured = true
        scheduler.invalidate()
        needsCommit = true
        return size
    }

    // MARK: Scale

    /// Sets the size in points, the scale the state asks for (lowered if the buffer would be
    /// too large, before any is allocated) and the transform of the screen; on a change,
    /// buffers of the old size go and the scene lays out and repaints at the new scale.
    private func applyGeometry(width w: Int, height h: Int) {
        let limited = ScaleLimits.limited(scaleState.scale, width: w, height: h)
        if let warning = limited.warning { warn(warning) }
        let turn = placement.transform
        guard w != width || h != height || limited.scale != scale || turn != transform else { return }
        let size = limited.scale.bufferSize(width: w, height: h)
        let sceneChanged = w != width || h != height || limited.scale != scale
        width = w
        height = h
        scale = limited.scale
        bufferWidth = size.width
        bufferHeight = size.height
        if turn != transform {
            // Buffers of the same size may hold the frame turned the old way: none is reused.
            buffers.resize(width: 0, height: 0)
        }
        preRotated = turn == .normal ? nil : PreRotatedFrame(transform: turn, width: size.width, height: size.height)
        transform = preRotated?.transform ?? .normal
        let turned = transform.bufferSize(width: size.width, height: size.height)
        buffers.resize(width: turned.width, height: turned.height)
        if sceneChanged { scene.resize(width: w, height: h, scale: limited.scale.factor) }
        scheduler.invalidate()
    }

    /// The scale inputs changed: before the first configure they are only noted. The outputs
    /// the surface is on also set the refresh frames are drawn ahead for (60 Hz when none says).
    private func scaleInputsChanged() {
        scheduler.refreshInterval = placement.refreshInterval(refreshes: display.outputRefreshes) ?? FrameScheduler.assumedRefreshInterval
        guard isConfigured else { return }
        applyGeometry(width: width, height: height)
    }

    /// Outputs appeared, went or changed their scale (the display calls this through the
    /// application).
    func outputsChanged() {
        scaleState.refresh(outputScales: display.outputScales)
        scaleState.unplacedScale = display.maxOutputScale
        placement.refresh(outputTransforms: display.outputTransforms)
        scaleInputsChanged()
    }

    private func surfaceEnter(_ output: OpaquePointer?) {
        guard let entered = display.output(for: output) else { return }
        scaleState.enter(output: entered.name, scale: entered.scale)
        placement.enter(output: entered.name)
        scaleInputsChanged()
    }

    private func surfaceLeave(_ output: OpaquePointer?) {
        guard let left = display.output(for: output) else { return }
        scaleState.leave(output: left.name)
        placement.leave(output: left.name)
        scaleInputsChanged()
    }

    private func preferredScale(_ value120: UInt32) {
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
    /// scale; buffer scale 1 and a viewport to the size in points for a fractional one; and
    /// the transform it is turned by.
    private func commitScaleState() {
        if transform != surfaceBufferTransform {
            surface.setBufferTransform(Int32(transform.rawValue))
            surfaceBufferTransform = transform
        }
        let bufferScale: Int32
        let destination: SurfaceSize?
        switch scale {
        case .integer(let n):
            bufferScale = Int32(n)
            destination = nil
        case .fractional:
            bufferScale = 1
            destination = SurfaceSize(width: width, height: height)
        }
        if bufferScale != surfaceBufferScale {
            surface.setBufferScale(bufferScale)
            surfaceBufferScale = bufferScale
        }
        viewport?.setDestination(destination)
    }

    // MARK: Frames

    /// A frame drawn into a buffer that is not attached yet.
    private struct DrawnFrame {
        let id: Int
        let buffer: ShmBuffer
        /// The changed rects, in buffer pixels.
        let damage: [PixelRect]
        let renderMilliseconds: Double
    }

    /// A frame drawn ahead for the outstanding callback: its pixels, or none when its tick
    /// changed nothing visible; `animating` when the scene asked for the frame after it.
    private struct HeldFrame {
        let drawn: DrawnFrame?
        let animating: Bool
    }

    /// The frame callback fired. The frame is drawn after the dispatch (`afterDispatch`),
    /// once everything the compositor sent with it has been read: drawing inside the dispatch
    /// would leave later events in the socket for as long as the frame takes.
    private func frameDone(time: UInt32) {
        // When the compositor sent it: the loop may have been drawing a frame ahead meanwhile.
        // Local time is the frame clock, the one input times are mapped onto.
        callbackArrival = CallbackClock.arrival(stamp: time, requested: callbackRequested, now: monotonicMilliseconds())
    }

    /// Answers the callback that arrived at `arrival` (ms): with the frame held for it, with a
    /// frame drawn now for its time, or not at all when nothing changed or animates (no new
    /// callback, no wakeups). `callbackArrival` is cleared by the commit, or here when none is made.
    private func answerCallback(arrivedAt arrival: Double) throws {
        defer { callbackArrival = nil }
        let answer = scheduler.callbackArrived(predictable: heldFrameOutlivesChange)
        switch answer {
        case .sleep:
            break
        case .commitHeld, .commitHeldThenChange:
            guard let held = heldFrame else { return try renderFrame(at: arrival) }
            heldFrame = nil
            if let drawn = held.drawn {
                present(drawn, drawnAhead: true)
            } else if answer == .commitHeldThenChange {
                // Nothing held to show before the change: the change is drawn now.
                try renderFrame(at: arrival)
            } else if held.animating {
                timeStepWithoutPixels(after: arrival)
            }
        case .draw:
            if heldFrame != nil { statistics.heldFramesDiscarded += 1 }
            releaseHeldFrame()
            try renderFrame(at: arrival)
        }
    }

    /// Ticks the scene for `time` (ms) and sets the timer it asks for.
    private func tick(at time: Double) -> FrameRequest {
        scheduler.frameStarts()
        lastTickTime = time
        let request = scene.advance(to: time)
        scheduler.sceneRequests(request)
        armWakeTimer()
        return request
    }

    /// The frame's size in buffer pixels (turned as the buffers are).
    private var turnedBufferSize: (width: Int, height: Int) { transform.bufferSize(width: bufferWidth, height: bufferHeight) }

    /// Whether a tick needs drawing: something visible changed, or no buffer of the window's
    /// size holds a drawn frame (a window must draw even if the scene reports no change).
    private var tickNeedsDrawing: Bool {
        let size = turnedBufferSize
        return scene.needsRender || unshownDrawing || !buffers.holdsDrawnFrame(width: size.width, height: size.height)
    }

    /// Draws the scene into a buffer; nil when every buffer is busy.
    private func draw() throws -> DrawnFrame? {
        let size = turnedBufferSize
        let acquisition = try buffers.acquire(width: size.width, height: size.height) { id in
            let buffer = try ShmBuffer(shm: display.globals.shm!, id: id, width: size.width, height: size.height, opaque: opaque)
            buffer.onRelease = { [unowned self] id in self.buffers.released(id) }
            return buffer
        }
        guard case .draw(let id, let buffer, let age, let created) = acquisition else { return nil }
        if created { statistics.buffersCreated += 1 }
        let start = monotonicMilliseconds()
        // On a turned screen the scene draws upright and the changed pixels are copied turned.
        let damage = preRotated?.render(scene, into: buffer.framebuffer, bufferAge: age)
            ?? scene.render(into: buffer.framebuffer, bufferAge: age)
        return DrawnFrame(id: id, buffer: buffer, damage: damage, renderMilliseconds: monotonicMilliseconds() - start)
    }

    /// Ticks for `time` (ms), draws and commits.
    private func renderFrame(at time: Double) throws {
        let request = tick(at: time)
        guard tickNeedsDrawing else {
            if request == .nextFrame { timeStepWithoutPixels(after: time) }
            return
        }
        guard let frame = try draw() else {
            scheduler.deferred()  // all busy: drawn after the next release arrives
            return
        }
        if contentWait.holds(at: monotonicMilliseconds(), awaitsContent: scene.awaitsContent,
                             sizeChosenByCompositor: sizeChosenByCompositor) {
            keepBack(frame)
            if request == .nextFrame { timeStepWithoutPixels(after: time) }
            return
        }
        present(frame, drawnAhead: false)
    }

    /// Whether the last configure named the window's size (a tiled or fullscreen window, a
    /// kiosk), rather than leaving it to the window (0×0).
    private var sizeChosenByCompositor: Bool {
        guard let size = configuration?.requestedSize else { return false }
        return size.width > 0 && size.height > 0
    }

    /// Keeps a frame drawn while the scene awaits its content uncommitted (see `ContentWait`):
    /// its buffer is free again holding it, so the frame with the content is drawn into the same
    /// memory and repaints only what changed; the compositor hears of this frame's damage with
    /// that one. A timer commits whatever shows when the wait runs out.
    private func keepBack(_ frame: DrawnFrame) {
        buffers.unused(frame.id)
        unshownDrawing = true
        unshownDamage.formUnion(PixelRegion(frame.damage))
        guard contentWaitTimer == nil, let deadline = contentWait.deadline else { return }
        contentWaitTimer = display.schedule(at: deadline) { [unowned self] in
            self.contentWaitTimer = nil
            self.scheduler.invalidate()
        }
    }

    /// Attaches a drawn frame with its damage and commits it.
    private func present(_ frame: DrawnFrame, drawnAhead: Bool) {
        var damage = frame.damage
        if !unshownDamage.isEmpty {
            unshownDamage.formUnion(PixelRegion(frame.damage))
            damage = unshownDamage.rects
        }
        unshownDrawing = false
        unshownDamage = PixelRegion()
        statistics.lastRenderMilliseconds = frame.renderMilliseconds
        statistics.lastFrameDrawnAhead = drawnAhead
        surface.attach(frame.buffer.proxy)
        commitScaleState()
        // Damage is in buffer pixels, whatever the scale: the renderer's rects as they are.
        for rect in damage where !rect.isEmpty {
            surface.damageBuffer((rect.x, rect.y, rect.width, rect.height))
        }
        // A new buffer always comes with some damage: wlroots' scene graph (cage) repaints, and
        // so answers frame callbacks, only for damage, and a buffer committed without any left
        // the window waiting for a callback that never came (a kiosk under cage drew its first
        // picture and never its slideshow's next). One pixel, unchanged, costs nothing.
        if !damage.contains(where: { !$0.isEmpty }) { surface.damageBuffer((0, 0, 1, 1)) }
        statistics.framesCommitted += 1
        contentWait.committed(sizeChosenByCompositor: sizeChosenByCompositor)
        if let contentWaitTimer {
            display.cancelTimer(contentWaitTimer)
            self.contentWaitTimer = nil
        }
        let time = monotonicMilliseconds()
        if statistics.firstCommitTime == nil { statistics.firstCommitTime = time }
        requestCallbackAndCommit()
        onFrameCommitted?(preRotated?.frame ?? frame.buffer.framebuffer, time)
    }

    /// Draws the frame for the outstanding callback now, when the scheduler says so (see
    /// `FrameScheduler.drawAheadTime`): the scene is ticked for the callback's expected time and
    /// the frame held until the callback comes. A held frame that something changed is drawn
    /// again, or given up when the scene no longer moves by itself.
    private func drawAheadIfDue() throws {
        let size = turnedBufferSize
        // Not while a configure waits for its commit: that commit must carry a frame of its size.
        // Nor while the scene awaits its content: that frame would be a placeholder, drawn into
        // a spare buffer whose pages fault in beside the decoder (the loader's first wake did
        // it under sway: a second 800×600 frame, 4 ms, before the tile's configure).
        guard drawsAhead, isConfigured, !needsCommit, !scene.awaitsContent,
              let time = scheduler.drawAheadTime(predictable: scene.isMotionPredictable) else {
            // Kept for its callback when it may be committed before the change (see
            // `FrameScheduler.callbackArrived`).
            if scheduler.heldFrameIsStale && !heldFrameOutlivesChange { discardHeldFrame() }
            return
        }
        // Its buffer holds the newest pixels: free again, it is the one drawn into next.
        discardHeldFrame()
        guard buffers.canAcquire(width: size.width, height: size.height) else { return }
        // The frame just committed goes to the compositor now, not after this one is drawn.
        try display.flushRequests()
        let request = tick(at: time)
        var drawn: DrawnFrame?
        if tickNeedsDrawing {
            guard let frame = try draw() else {
                scheduler.deferred()
                return
            }
            drawn = frame
        }
        heldFrame = HeldFrame(drawn: drawn, animating: request == .nextFrame)
        scheduler.drewAhead(for: time)
        statistics.framesDrawnAhead += 1
    }

    /// Whether the held frame may still be committed after a change it does not show, the change
    /// being drawn after it: the motion still runs by itself, and the frame is of the window's
    /// size with no configure waiting for a frame (a configure or a new scale outdates it).
    private var heldFrameOutlivesChange: Bool {
        let size = turnedBufferSize
        let fits = heldFrame?.drawn.map {
            $0.buffer.framebuffer.width == size.width && $0.buffer.framebuffer.height == size.height
        } ?? true
        return fits && !needsCommit && scene.isMotionPredictable
    }

    /// Gives the held frame up: the callback draws as now.
    private func discardHeldFrame() {
        if heldFrame != nil { statistics.heldFramesDiscarded += 1 }
        releaseHeldFrame()
        scheduler.discardHeldFrame()
    }

    /// Frees the held frame's buffer (never attached, so never released by the compositor).
    private func releaseHeldFrame() {
        if let drawn = heldFrame?.drawn {
            buffers.unused(drawn.id)
            unshownDrawing = true
            unshownDamage.formUnion(PixelRegion(drawn.damage))
        }
        heldFrame = nil
    }

    /// 16.7 ms: one refresh at 60 Hz, the wait for a scene's next step when it moves without
    /// changing a pixel (no commit, so no frame callback, paces it).
    static let stepWithoutPixels = 1000.0 / 60

    /// The scene moves on without a pixel to show: nothing to commit, since a compositor that
    /// repaints only for damage (wlroots' scene graph, cage) never answers a callback asked for
    /// by an empty commit, and a kiosk under cage waited for one for good after its first
    /// picture. Its next step is timed instead, one refresh after `time` (ms).
    private func timeStepWithoutPixels(after time: Double) {
        scheduler.sceneRequests(.at(max(time, monotonicMilliseconds()) + Self.stepWithoutPixels))
        armWakeTimer()
    }

    /// Sets the timer for the time the scene asked to be woken at (`FrameScheduler.wakeTime`),
    /// replacing the one set before.
    private func armWakeTimer() {
        if let wakeTimer { display.cancelTimer(wakeTimer) }
        wakeTimer = nil
        if let deadline = scheduler.wakeTime {
            wakeTimer = display.schedule(at: deadline) { [unowned self] in
                self.wakeTimer = nil
                self.scheduler.timerFired()
            }
        }
    }

    /// Commits a new frame with a frame callback requested, and asks when it reaches the screen.
    /// (Every commit carries pixels: see `timeStepWithoutPixels`.)
    private func requestCallbackAndCommit() {
        frameCallback = surface.frame { [unowned self] in self.frameDone(time: $0) }
        statistics.callbacksRequested += 1
        commits += 1
        if let presentation = display.presentation, statistics.presentation?.acceptsCommits == true {
            let commit = commits
            let requested = presentation.feedback(for: surface) { [unowned self] outcome in
                self.feedback[commit] = nil
                switch outcome {
                case .presented(let time, let refresh): self.statistics.presentation?.presented(commit, at: time, refresh: refresh)
                case .discarded: self.statistics.presentation?.discarded(commit)
                }
            }
            if let requested {
                feedback[commit] = requested
                statistics.presentation?.committed(commit, answersCallback: callbackArrival != nil)
            }
        }
        surface.commit()
        needsCommit = false  // carried by this commit
        let now = monotonicMilliseconds()
        callbackRequested = now
        // The next callback is expected a refresh after this one's arrival, or after the time a
        // frame drawn after a dispatch was ticked for.
        scheduler.committed(at: callbackArrival ?? lastTickTime)
        // A commit made while a frame callback is handled answers it (at most once).
        statistics.lastAnswerMilliseconds = nil
        if let arrival = callbackArrival {
            callbackArrival = nil
            let answer = now - arrival
            statistics.lastAnswerMilliseconds = answer
            statistics.callbacksAnswered += 1
            statistics.maxCallbackAnswerMilliseconds = max(statistics.maxCallbackAnswerMilliseconds, answer)
            if answer > FrameStatistics.lateAnswerMilliseconds { statistics.lateCallbackAnswers += 1 }
        }
    }
}
