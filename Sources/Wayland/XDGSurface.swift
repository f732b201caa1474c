// xdg_surface: the xdg-shell object between a wl_surface and its toplevel role. Its configure
// event ends each configure sequence and must be acknowledged before the next commit.
import CWaylandClient
import CWaylandProtocols

/// One `xdg_surface`.
final class XDGSurface {
    /// `struct xdg_surface *`.
    let proxy: OpaquePointer
    /// Kept so the wl_surface outlives its xdg_surface, as the protocol requires.
    private let surface: Surface
    /// Runs with the serial of each `configure`: the end of a configure sequence.
    var onConfigure: ((UInt32) -> Void)?

    /// Gives `surface` an xdg_surface of `wmBase`; nil when the connection is broken.
    init?(wmBase: OpaquePointer, surface: Surface) {
        guard let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface.proxy) else { return nil }
        proxy = xdgSurface
        self.surface = surface
        xdg_surface_add_listener(xdgSurface, &XDGSurface.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Destroys it; its toplevel, which holds it, is gone already.
    deinit { xdg_surface_destroy(proxy) }

    /// Acknowledges the configure sequence `serial`: the next commit follows it.
    func ackConfigure(_ serial: UInt32) { xdg_surface_ack_configure(proxy, serial) }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = xdg_surface_listener(
        configure: { data, _, serial in
            Unmanaged<XDGSurface>.fromOpaque(data!).takeUnretainedValue().onConfigure?(serial)
        })
}
