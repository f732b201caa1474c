// xdg_toplevel: the desktop-window role of an xdg_surface. Its events (configure, bounds,
// capabilities) accumulate in a pure ToplevelConfiguration; close is passed on.
import CWaylandClient
import CWaylandProtocols

/// One `xdg_toplevel`.
final class XDGToplevel {
    /// `struct xdg_toplevel *`.
    let proxy: OpaquePointer
    /// Kept so the xdg_surface outlives its toplevel, as the protocol requires.
    private let xdgSurface: XDGSurface
    /// The configuration as the events so far have set it; the role hands it on when the
    /// xdg_surface's configure ends the sequence.
    private(set) var configuration = ToplevelConfiguration()
    /// Runs when the user asks to close the window.
    var onClose: (() -> Void)?

    /// Gives `xdgSurface` the toplevel role; nil when the connection is broken.
    init?(xdgSurface: XDGSurface) {
        guard let toplevel = xdg_surface_get_toplevel(xdgSurface.proxy) else { return nil }
        proxy = toplevel
        self.xdgSurface = xdgSurface
        xdg_toplevel_add_listener(toplevel, &XDGToplevel.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Destroys it; its decoration object, which holds it, is gone already.
    deinit { xdg_toplevel_destroy(proxy) }

    /// The title shown in the title bar and task lists.
    func setTitle(_ title: String) { xdg_toplevel_set_title(proxy, title) }

    /// The smallest size the window works at, in points (window geometry: the surface, since
    /// nothing is drawn around it); the compositor should not configure it smaller.
    func setMinSize(_ size: SurfaceSize) {
        xdg_toplevel_set_min_size(proxy, Int32(clamping: size.width), Int32(clamping: size.height))
    }

    /// The application id, which desktop files and window rules match.
    func setAppID(_ appID: String) { xdg_toplevel_set_app_id(proxy, appID) }

    /// Asks for fullscreen on the output the compositor picks, or for a normal window.
    func setFullscreen(_ on: Bool) {
        if on { xdg_toplevel_set_fullscreen(proxy, nil) } else { xdg_toplevel_unset_fullscreen(proxy) }
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> XDGToplevel {
        Unmanaged<XDGToplevel>.fromOpaque(data!).takeUnretainedValue()
    }

    /// The uint32 values of a `wl_array`.
    private static func values(_ array: UnsafeMutablePointer<wl_array>?) -> [UInt32] {
        guard let array, let base = array.pointee.data else { return [] }
        let count = array.pointee.size / MemoryLayout<UInt32>.size
        return Array(UnsafeBufferPointer(start: base.bindMemory(to: UInt32.self, capacity: count), count: count))
    }

    // Every slot is filled: libwayland aborts on a NULL entry the bound version can send.
    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = xdg_toplevel_listener(
        configure: { data, _, width, height, states in
            XDGToplevel.from(data).configuration.configure(width: width, height: height, states: values(states))
        },
        close: { data, _ in XDGToplevel.from(data).onClose?() },
        configure_bounds: { data, _, width, height in
            XDGToplevel.from(data).configuration.configureBounds(width: width, height: height)
        },
        wm_capabilities: { data, _, capabilities in
            XDGToplevel.from(data).configuration.wmCapabilities(values(capabilities))
        })
}
