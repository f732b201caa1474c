// The shell role as libdecor plays it, where the compositor draws no decorations (GNOME's
// mutter, weston): libdecor's frame makes the toplevel and draws the title bar, buttons, borders
// and shadows around our surface; the window draws its content as it does under xdg-shell.

/// A surface's toplevel role through libdecor (see `ShellRole`).
///
/// The frame holds the context and the surface, so libdecor's objects go before the surface and
/// the context after its frame, whatever order they are released in.
final class LibdecorShellRole: ShellRole {
    var onConfigure: ((ToplevelConfiguration) -> SurfaceSize)? {
        get { frame.onConfigure }
        set { frame.onConfigure = newValue }
    }
    var onClose: (() -> Void)? {
        get { frame.onClose }
        set { frame.onClose = newValue }
    }
    var onNeedsCommit: (() -> Void)? {
        get { frame.onNeedsCommit }
        set { frame.onNeedsCommit = newValue }
    }
    /// Runs once if libdecor reports an error: its state cannot be trusted afterwards (0.1.1
    /// frees its plugin), so the window ends with it.
    var onFailure: ((WaylandError) -> Void)? {
        didSet {
            guard let onFailure else { return }
            if let error = context.error { onFailure(.decorations(reason: error)) }
            context.onError = { onFailure(.decorations(reason: $0)) }
        }
    }
    /// The window draws its own decorations (libdecor's plugin does, in our process).
    var decorationMode: DecorationMode? { .clientSide }

    private let context: LibdecorContext
    private let frame: LibdecorFrame

    /// Most roundtrips waited for libdecor's toplevel: its context is ready after one (its
    /// globals), its cairo plugin after a second (wl_shm's formats), and the toplevel is made
    /// then; the third is a margin (decision).
    static let maxStartRoundtrips = 3

    /// Decorates `surface` with `title` and `appID`, its content never smaller than
    /// `minimumSize` points. libdecor makes the toplevel only once its plugin is ready, so this
    /// waits for it with roundtrips (at start, before the event loop runs): a toplevel that
    /// exists from the start takes fullscreen and every request at once, as xdg-shell's does.
    /// Throws `WaylandError.decorations` when libdecor fails, or the connection's error.
    init(display: Display, surface: Surface, title: String, appID: String, minimumSize: SurfaceSize) throws {
        guard let context = LibdecorContext(display: display) else {
            throw WaylandError.decorations(reason: "libdecor_new failed")
        }
        guard let frame = LibdecorFrame(context: context, surface: surface) else {
            throw WaylandError.decorations(reason: context.error ?? "libdecor_decorate failed")
        }
        self.context = context
        self.frame = frame
        frame.setTitle(title)
        frame.setAppID(appID)
        frame.setMinimumContentSize(minimumSize)
        var roundtrips = 0
        while !frame.hasToplevel && context.error == nil && roundtrips < Self.maxStartRoundtrips {
            try display.roundtrip()
            roundtrips += 1
        }
        if let error = context.error { throw WaylandError.decorations(reason: error) }
        guard frame.hasToplevel else {
            throw WaylandError.decorations(reason: "no toplevel after \(roundtrips) roundtrips")
        }
        frame.map()
    }

    func setTitle(_ title: String) { frame.setTitle(title) }

    func setFullscreen(_ on: Bool) { frame.setFullscreen(on) }
}
