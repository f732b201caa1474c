// wp_fractional_scale_v1: the compositor's preferred scale for one surface, in 120ths (1.5 is
// 180), which the window draws at when it also has a viewport to show the buffer at its size.
import CWaylandClient
import CWaylandProtocols

/// One surface's `wp_fractional_scale_v1`.
final class FractionalScale {
    private let proxy: OpaquePointer
    /// Kept so the wl_surface outlives this object.
    private let surface: Surface
    /// Runs with each `preferred_scale` (120ths, unchecked).
    var onPreferredScale: ((UInt32) -> Void)?

    /// Asks `manager` for `surface`'s preferred scale; nil when the connection is broken.
    init?(manager: OpaquePointer, surface: Surface) {
        guard let fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface.proxy) else { return nil }
        proxy = fractionalScale
        self.surface = surface
        wp_fractional_scale_v1_add_listener(fractionalScale, &FractionalScale.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { wp_fractional_scale_v1_destroy(proxy) }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = wp_fractional_scale_v1_listener(
        preferred_scale: { data, _, scale in
            Unmanaged<FractionalScale>.fromOpaque(data!).takeUnretainedValue().onPreferredScale?(scale)
        })
}
