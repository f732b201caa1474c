// wp_viewport: shows a surface's buffer at a size in points of our choosing, so a buffer drawn
// at a fractional scale (buffer scale 1) covers exactly the window's points.
import CWaylandClient
import CWaylandProtocols

/// One surface's `wp_viewport`.
final class Viewport {
    private let proxy: OpaquePointer
    /// Kept so the wl_surface outlives this object.
    private let surface: Surface
    /// The destination last sent (nil: unset, the protocol's default), so only changes are sent.
    private(set) var destination: SurfaceSize?

    /// Makes `surface`'s viewport with `viewporter`; nil when the connection is broken.
    init?(viewporter: OpaquePointer, surface: Surface) {
        guard let viewport = wp_viewporter_get_viewport(viewporter, surface.proxy) else { return nil }
        proxy = viewport
        self.surface = surface
    }

    deinit { wp_viewport_destroy(proxy) }

    /// Shows the buffer at `size` points from the next commit on; nil unsets it (the surface
    /// is then the buffer's size over its scale). Sends nothing when unchanged.
    func setDestination(_ size: SurfaceSize?) {
        guard size != destination else { return }
        // −1, −1 unsets the destination.
        wp_viewport_set_destination(proxy, Int32(size?.width ?? -1), Int32(size?.height ?? -1))
        destination = size
    }
}
