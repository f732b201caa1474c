// The shell role as xdg-shell plays it: an xdg_surface with an xdg_toplevel, and server-side
// decorations where xdg-decoration is offered (or none). Acknowledges each configure, then
// hands it on.

/// A surface's xdg-shell toplevel role (see `ShellRole`).
///
/// Each object holds the one it was made from (decoration → toplevel → xdg_surface →
/// wl_surface), so whatever order they are released in, they are destroyed in the order the
/// protocol requires.
final class XDGShellRole: ShellRole {
    var onConfigure: ((ToplevelConfiguration) -> SurfaceSize)?
    /// Never called: the compositor draws the decorations, or nobody does.
    var onNeedsCommit: (() -> Void)?
    /// Never called: the protocol objects cannot fail after creation.
    var onFailure: ((WaylandError) -> Void)?
    var onClose: (() -> Void)? {
        get { toplevel.onClose }
        set { toplevel.onClose = newValue }
    }
    /// Who draws the decorations, as the compositor answered; nil without xdg-decoration or
    /// before its answer.
    var decorationMode: DecorationMode? { decoration?.mode }

    private let xdgSurface: XDGSurface
    private let toplevel: XDGToplevel
    private let decoration: ToplevelDecoration?

    /// Gives `surface` the toplevel role with `title` and `appID`, never smaller than
    /// `minimumSize` points, asking for server-side decorations when `serverSideDecorations` (the
    /// compositor offers xdg-decoration). Throws the connection's error when the objects cannot
    /// be made.
    init(display: Display, surface: Surface, title: String, appID: String, minimumSize: SurfaceSize,
         serverSideDecorations: Bool) throws {
        guard let wmBase = display.globals.wmBase else { throw WaylandError.missingGlobal("xdg_wm_base") }
        guard let xdgSurface = XDGSurface(wmBase: wmBase, surface: surface),
              let toplevel = XDGToplevel(xdgSurface: xdgSurface) else {
            throw display.connectionError()
        }
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        toplevel.setTitle(title)
        toplevel.setAppID(appID)
        toplevel.setMinSize(minimumSize)
        decoration = serverSideDecorations
            ? display.globals.decorationManager.flatMap { ToplevelDecoration(manager: $0, toplevel: toplevel) } : nil
        xdgSurface.onConfigure = { [unowned self] serial in
            self.xdgSurface.ackConfigure(serial)
            _ = self.onConfigure?(self.toplevel.configuration)
        }
    }

    func setTitle(_ title: String) { toplevel.setTitle(title) }

    func setFullscreen(_ on: Bool) { toplevel.setFullscreen(on) }
}
