// The surface that draws: a window showing a Scene in shm buffers from the pool, at the scale
// of its outputs (integer, or fractional through a viewport), paced by frame callbacks. What
// makes it a desktop window (configure, close, fullscreen, title, decorations) is its ShellRole:
// xdg-shell, or libdecor where the compositor draws no decorations.
import Foundation
import Host
import Raster
import SafeOutput
import Synchronization

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
    public internal(set) var statistics = FrameStatistics()
    /// Whether frames of motions that run by themselves are drawn ahead of their callbacks (see
    /// `FrameScheduler`); false draws every frame when its callback comes, as a reference.
    public var drawsAhead = true
    /// Called when the user closes the window (xdg_toplevel.close).
    public var onClose: (() -> Void)?
    /// Called after each commit with the frame's size and kind and the commit time (stats).
    public var onFrameCommitted: ((CommittedFrame, Double) -> Void)?
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

    let display: Display
    /// The `wl_surface` (objects made for it, such as an idle inhibitor, hold it).
    let surface: Surface
    /// What makes the surface a desktop window (xdg-shell today).
    private let role: ShellRole
    /// `wp_fractional_scale_v1` of the surface, when it and viewports are offered.
    private var fractionalScale: FractionalScale?
    /// `wp_viewport` of the surface, when viewports are offered: fractional scales, and frames
    /// drawn at half resolution.
    var viewport: Viewport?
    /// The outstanding frame callback (at most one: see FrameScheduler).
    var frameCallback: FrameCallback?
    /// Presentation feedback awaited, by commit number (at most `PresentationTally.maxOutstanding`).
    var feedback: [UInt64: PresentationFeedback] = [:]
    /// Commits made so far, with or without new pixels.
    var commits: UInt64 = 0
    /// The buffer scale the surface was last committed with (the protocol's default at
    /// first), so only changes are sent.
    private var surfaceBufferScale: Int32 = 1
    /// The buffer transform the surface was last committed with, likewise.
    private var surfaceBufferTransform = FrameTransform.normal
    /// The upright frame the scene draws into while buffers are turned.
    var preRotated: PreRotatedFrame?
    private var wakeHandler: Int?
    /// Which of the loop's wakes are the scene's background work (see `BackgroundWakes`).
    private let backgroundWakes = BackgroundWakes()
    private var lastWarning: String?
    var buffers = FrameBuffers<ShmBuffer>()
    var scheduler = FrameScheduler()
    var wakeTimer: Int?
    /// Fires `restDelay` after the last commit: the spare buffers go (see `armRestTimer`).
    var restTimer: Int?
    /// A configure was acknowledged or the decorations changed (libdecor draws them in
    /// subsurfaces synchronised with ours), which take effect with the surface's next commit:
    /// committed after the dispatch unless a frame did. A configure that changes no size draws
    /// no frame (a window becoming active), yet its state and decorations must show.
    var needsCommit = false
    /// Monotonic ms when the outstanding frame callback arrived (as the compositor stamped it,
    /// see `CallbackClock`), from its dispatch until it is answered after the dispatch; nil once
    /// a commit has answered it.
    var callbackArrival: Double?
    /// Monotonic ms of the commit that asked for the outstanding callback.
    var callbackRequested = 0.0
    /// The time the scene was last ticked for (ms): a frame drawn after a dispatch expects its
    /// callback one refresh after it.
    var lastTickTime = 0.0
    /// The frame drawn ahead for the outstanding callback (see `FrameScheduler`), nil when none.
    var heldFrame: HeldFrame?
    /// A frame drawn ahead was given up before it was shown: the scene counts what it drew as
    /// drawn, so the next tick draws whether or not the scene changed since.
    var unshownDrawing = false
    /// The damage of frames drawn and given up since the last commit: the renderer reports what
    /// changed since the frame it drew before, but the compositor must hear of everything that
    /// changed since the frame it was last given, or it keeps showing that frame's pixels there.
    var unshownDamage = PixelRegion()
    /// The sizes configures give, and the floating one to return to (see `ToplevelSizing`).
    private var sizing: ToplevelSizing
    /// Whether frames are kept back while the scene's content is on its way (see `ContentWait`).
    var contentWait = ContentWait()
    /// The timer that commits what shows when the wait for content runs out.
    var contentWaitTimer: Int?
    /// An error from inside a C callback, rethrown by the event loop.
    private var failure: Error?
    /// The subsurface still frames' pictures show in, made with the first such frame.
    var stillSurface: StillSurface?
    /// What the still frame on screen sent; nil while frames are drawn.
    var shownStill: ShownStill?
    /// The small buffer of the last still frame's background (`StillBackground`), and its colour.
    var stillBackground: (buffer: ShmBuffer, colour: UInt32)?

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
        if let viewporter = display.globals.viewporter { viewport = Viewport(viewporter: viewporter, surface: surface) }
        if fractional, let manager = display.globals.fractionalScaleManager {
            fractionalScale = FractionalScale(manager: manager, surface: surface)
            fractionalScale?.onPreferredScale = { [unowned self] in self.preferredScale($0) }
        }
        scene.onNeedsFrame = { [unowned self] in self.scheduler.invalidate() }
        // Background work (picture decoders) wakes the loop instead of the scene polling.
        let waker = display.waker, wakes = backgroundWakes
        scene.onNeedsFrameFromAnyThread = {
            wakes.noteSceneChange()
            waker.wake()
        }
        wakeHandler = display.addWakeHandler { [unowned self] in
            if self.backgroundWakes.takeSceneChange() { self.scheduler.invalidateFromBackground() }
        }
        surface.commit()  // no buffer yet: asks for the first configure
    }

    deinit {
        if let wakeHandler { display.removeWakeHandler(wakeHandler) }
        if let restTimer { display.cancelTimer(restTimer) }
        if let contentWaitTimer { display.cancelTimer(contentWaitTimer) }
        scene.onNeedsFrameFromAnyThread = nil
        // The protocol objects go with their properties: the role's, the fractional scale, the
        // viewport and the still frames' subsurface each hold the surface, so the wl_surface is
        // destroyed after them.
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
    /// scale; buffer scale 1 and a viewport to the size in points for a fractional one or a
    /// buffer drawn at half resolution (`halved`); and the transform it is turned by.
    func commitScaleState(halved: Bool = false) {
        if transform != surfaceBufferTransform {
            surface.setBufferTransform(Int32(transform.rawValue))
            surfaceBufferTransform = transform
        }
        var bufferScale: Int32
        var destination: SurfaceSize?
        switch scale {
        case .integer(let n):
            bufferScale = Int32(n)
            destination = nil
        case .fractional:
            bufferScale = 1
            destination = SurfaceSize(width: width, height: height)
        }
        if halved { (bufferScale, destination) = (1, SurfaceSize(width: width, height: height)) }
        if bufferScale != surfaceBufferScale {
            surface.setBufferScale(bufferScale)
            surfaceBufferScale = bufferScale
        }
        viewport?.setDestination(destination)
    }
}

/// A frame the window committed, as `Window.onFrameCommitted` reports it.
public struct CommittedFrame: Sendable {
    /// Its size in device pixels (the buffer's, or a still frame's size on screen).
    public let width: Int, height: Int
    /// Whether the compositor put it together from a still frame (`Scene.stillFrame`).
    public let isStill: Bool
}

/// Tells the loop's wakes apart: the scene's background work (a decoded picture) changes what
/// the window shows; a spare buffer's pages being in (`Window.makeSpareBuffer`) changes nothing,
/// it only lets the frame for the outstanding callback be drawn ahead now.
final class BackgroundWakes: Sendable {
    private let sceneChanged = Mutex(false)

    /// From any thread, before waking the loop.
    func noteSceneChange() { sceneChanged.withLock { $0 = true } }

    /// On the loop's thread: whether the scene changed since it last asked.
    func takeSceneChange() -> Bool {
        sceneChanged.withLock { changed in
            defer { changed = false }
            return changed
        }
    }
}
