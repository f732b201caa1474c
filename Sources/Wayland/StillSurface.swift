// A still frame's picture shown from its own memory (Raster's `StillFrame`): a wl_subsurface of
// the window's surface, taking no input, whose wl_buffer is made from the picture's memfd and
// which a viewport places and sizes in points. The only file holding those protocol objects.
import CWaylandClient
import CWaylandProtocols
import Raster

/// The subsurface a window shows still pictures in, above its own surface.
final class StillSurface {
    /// The picture's wl_buffer and what keeps its memory: the compositor reads that memory from
    /// the commit that shows it until it gives the buffer back.
    private final class PictureBuffer {
        let proxy: OpaquePointer
        let pixels: any SharedPixelFile
        /// Set when the compositor gave it back: only then may it go.
        var released = false
        /// Called when the compositor gives it back.
        var onRelease: (() -> Void)?

        init?(shm: OpaquePointer, pixels: any SharedPixelFile) {
            let stride = pixels.width * 4
            let (size, overflow) = stride.multipliedReportingOverflow(by: pixels.height)
            guard let file = pixels.sharedFile, pixels.width > 0, pixels.height > 0, !overflow, size <= Int(Int32.max),
                  let pool = wl_shm_create_pool(shm, file, Int32(size)) else { return nil }
            // XRGB: premultiplied colour shows as over black, what the window draws under it.
            let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(pixels.width), Int32(pixels.height), Int32(stride),
                                                   WL_SHM_FORMAT_XRGB8888.rawValue)
            wl_shm_pool_destroy(pool)
            guard let buffer else { return nil }
            proxy = buffer
            self.pixels = pixels
            wl_buffer_add_listener(buffer, &PictureBuffer.listener, Unmanaged.passUnretained(self).toOpaque())
        }

        deinit { wl_buffer_destroy(proxy) }

        // Static storage: the listener must outlive every proxy that points at it.
        nonisolated(unsafe) private static var listener = wl_buffer_listener(
            release: { data, _ in
                guard let data else { return }
                let buffer = Unmanaged<PictureBuffer>.fromOpaque(data).takeUnretainedValue()
                buffer.released = true
                buffer.onRelease?()
            })
    }

    private let surface: Surface
    private let subsurface: OpaquePointer
    private let viewport: Viewport
    private let shm: OpaquePointer
    /// The buffer attached last (nil: none, the subsurface shows nothing).
    private var shown: PictureBuffer?
    /// Buffers replaced while the compositor may still read them.
    private var retired: [PictureBuffer] = []
    /// The position last sent, in the parent's points.
    private var position: (x: Int, y: Int)?

    /// Makes a subsurface of `parent` with `compositor`, `subcompositor` and `viewporter`, empty
    /// of input (events over it go to the window) and synchronised with `parent`: what it is
    /// given shows with the parent's next commit. Nil when the connection is broken.
    init?(compositor: OpaquePointer, subcompositor: OpaquePointer, viewporter: OpaquePointer, shm: OpaquePointer,
          parent: Surface) {
        guard let surface = Surface(compositor: compositor),
              let subsurface = wl_subcompositor_get_subsurface(subcompositor, surface.proxy, parent.proxy) else { return nil }
        guard let viewport = Viewport(viewporter: viewporter, surface: surface) else {
            wl_subsurface_destroy(subsurface)
            return nil
        }
        if let region = wl_compositor_create_region(compositor) {
            wl_surface_set_input_region(surface.proxy, region)
            wl_region_destroy(region)
        }
        self.surface = surface
        self.subsurface = subsurface
        self.viewport = viewport
        self.shm = shm
    }

    deinit {
        wl_subsurface_destroy(subsurface)
        // `viewport` and `surface` go after it, the surface last.
    }

    /// Whether a picture shows (from the parent's next commit on, once sent).
    var showsPicture: Bool { shown != nil }

    /// Shows `pixels` (from their memfd) at `origin` in the parent's points, `size` points
    /// large, from the parent's next commit on. False when no buffer could be made of them
    /// (the caller draws the frame instead).
    func show(_ pixels: any SharedPixelFile, origin: (x: Int, y: Int), size: SurfaceSize) -> Bool {
        if shown?.pixels !== pixels {
            guard let buffer = PictureBuffer(shm: shm, pixels: pixels) else { return false }
            buffer.onRelease = { [unowned self] in self.forgetReleased() }
            retire()
            shown = buffer
            surface.attach(buffer.proxy)
            surface.damageBuffer((0, 0, pixels.width, pixels.height))
        }
        if position.map({ $0 != origin }) ?? true {
            wl_subsurface_set_position(subsurface, Int32(origin.x), Int32(origin.y))
            position = origin
        }
        viewport.setDestination(size)
        surface.commit()
        return true
    }

    /// Shows nothing from the parent's next commit on.
    func hide() {
        guard shown != nil else { return }
        retire()
        wl_surface_attach(surface.proxy, nil, 0, 0)
        surface.commit()
    }

    /// The buffer shown so far stays until the compositor gives it back (it may have already).
    private func retire() {
        if let shown, !shown.released { retired.append(shown) }
        shown = nil
    }

    /// Destroys the replaced buffers the compositor gave back, when it does (their memory goes
    /// with the last picture that holds it); one still shown stays, given back or not.
    private func forgetReleased() {
        retired.removeAll { $0.released }
    }
}
