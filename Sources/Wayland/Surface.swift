// wl_surface: the rectangle the window draws into. Buffers are attached with their damage and
// scale, frame callbacks requested, and the outputs it enters and leaves reported.
import CWaylandClient
import CWaylandProtocols

/// One `wl_surface`.
final class Surface {
    /// `struct wl_surface *`.
    let proxy: OpaquePointer
    /// The surface entered an output (`struct wl_output *`, as the registry bound it).
    var onEnter: ((OpaquePointer?) -> Void)?
    /// The surface left an output.
    var onLeave: ((OpaquePointer?) -> Void)?

    /// Creates a surface of `compositor`; nil when the connection is broken.
    init?(compositor: OpaquePointer) {
        guard let surface = wl_compositor_create_surface(compositor) else { return nil }
        proxy = surface
        // enter/leave name the outputs the surface is on. (wl_surface.preferred_buffer_scale
        // needs wl_compositor v6, beyond libwayland 1.21's headers: the outputs decide.)
        wl_surface_add_listener(surface, &Surface.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Destroys the surface: its role objects and every object made from it must be gone first.
    deinit { wl_surface_destroy(proxy) }

    /// Attaches `buffer` (`struct wl_buffer *`) at the origin for the next commit.
    func attach(_ buffer: OpaquePointer) { wl_surface_attach(proxy, buffer, 0, 0) }

    /// Marks `rect` (buffer pixels, whatever the scale) changed for the next commit.
    func damageBuffer(_ rect: (x: Int, y: Int, width: Int, height: Int)) {
        wl_surface_damage_buffer(proxy, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
    }

    /// Sets how many buffer pixels make one surface point, from the next commit on.
    func setBufferScale(_ scale: Int32) { wl_surface_set_buffer_scale(proxy, scale) }

    /// Says how buffers hold the surface's content from the next commit on: turned as
    /// `transform` (wl_output.transform's values), which the compositor undoes.
    func setBufferTransform(_ transform: Int32) { wl_surface_set_buffer_transform(proxy, transform) }

    /// Asks for a frame callback with the next commit; `done` runs with its time (ms) when the
    /// compositor says it is a good time to draw again.
    func frame(_ done: @escaping (UInt32) -> Void) -> FrameCallback? {
        FrameCallback(surface: proxy, done: done)
    }

    /// Applies everything requested since the last commit.
    func commit() { wl_surface_commit(proxy) }

    private static func from(_ data: UnsafeMutableRawPointer?) -> Surface {
        Unmanaged<Surface>.fromOpaque(data!).takeUnretainedValue()
    }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = wl_surface_listener(
        enter: { data, _, output in Surface.from(data).onEnter?(output) },
        leave: { data, _, output in Surface.from(data).onLeave?(output) })
}
