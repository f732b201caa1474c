// zxdg_toplevel_decoration_v1 (xdg-decoration): asks the compositor to draw the window's title
// bar and borders itself, and keeps the mode it answers with.
import CWaylandClient
import CWaylandProtocols

/// Who draws a toplevel's decorations.
public enum DecorationMode: Sendable {
    /// The window draws its own (or none).
    case clientSide
    /// The compositor draws them.
    case serverSide
}

/// One toplevel's `zxdg_toplevel_decoration_v1`.
final class ToplevelDecoration {
    private let proxy: OpaquePointer
    /// Kept so the toplevel outlives its decoration object, as the protocol requires.
    private let toplevel: XDGToplevel
    /// The mode the compositor configured, nil before it answers.
    private(set) var mode: DecorationMode?

    /// Asks `manager` to decorate `toplevel` server-side; nil when the connection is broken.
    init?(manager: OpaquePointer, toplevel: XDGToplevel) {
        guard let decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel.proxy) else { return nil }
        proxy = decoration
        self.toplevel = toplevel
        zxdg_toplevel_decoration_v1_add_listener(decoration, &ToplevelDecoration.listener, Unmanaged.passUnretained(self).toOpaque())
        zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
    }

    /// Destroys it, then lets go of its toplevel.
    deinit { zxdg_toplevel_decoration_v1_destroy(proxy) }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = zxdg_toplevel_decoration_v1_listener(
        configure: { data, _, mode in
            let decoration = Unmanaged<ToplevelDecoration>.fromOpaque(data!).takeUnretainedValue()
            switch mode {
            case ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue: decoration.mode = .serverSide
            case ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue: decoration.mode = .clientSide
            default: break  // a mode of a later version: keep what we knew
            }
        })
}
