// wl_callback from wl_surface.frame: the compositor's "draw the next frame now", which paces
// animations. Fires once; the window holds the one outstanding at a time.
import CWaylandClient
import CWaylandProtocols

/// One outstanding frame callback.
final class FrameCallback {
    private var proxy: OpaquePointer?
    private let done: (UInt32) -> Void

    /// Requests a callback on `surface` (`struct wl_surface *`) for its next commit; nil when
    /// the connection is broken.
    init?(surface: OpaquePointer, done: @escaping (UInt32) -> Void) {
        guard let callback = wl_surface_frame(surface) else { return nil }
        proxy = callback
        self.done = done
        wl_callback_add_listener(callback, &FrameCallback.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// A callback that never fired is given up with its holder (the window going away).
    deinit { if let proxy { wl_callback_destroy(proxy) } }

    private func fired(time: UInt32) {
        if let proxy { wl_callback_destroy(proxy) }
        proxy = nil
        done(time)
    }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = wl_callback_listener(
        done: { data, _, time in
            Unmanaged<FrameCallback>.fromOpaque(data!).takeUnretainedValue().fired(time: time)
        })
}
