// One wl_buffer over shared memory (a sealed memfd, see SharedMemory), mapped for drawing:
// the wl_buffer proxy, its pool and its release listener.
import CWaylandClient
import CWaylandProtocols
import Foundation
import Raster

/// A `wl_buffer` in XRGB8888 or ARGB8888 whose pixels the client draws into through `framebuffer`.
final class ShmBuffer {
    /// The pool's id for this buffer.
    let id: Int
    /// The protocol object (`struct wl_buffer *`).
    let proxy: OpaquePointer
    /// The mapped pixels; valid until `deinit`.
    let framebuffer: Framebuffer
    private let memory: SharedMemory
    /// Called with `id` when the compositor releases the buffer.
    var onRelease: ((Int) -> Void)?

    /// Creates a `width`×`height` buffer; throws `WaylandError.sharedMemory` naming the call that failed.
    init(shm: OpaquePointer, id: Int, width: Int, height: Int, opaque: Bool) throws {
        let stride = width * 4
        let (size, overflow) = stride.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, size <= Int(Int32.max) else {
            throw WaylandError.sharedMemory(reason: "a \(width)×\(height) buffer is too large for wl_shm")
        }
        let memory: SharedMemory
        do {
            memory = try SharedMemory(name: "scrollkit-buffer", byteCount: size)
        } catch {
            throw WaylandError.sharedMemory(reason: error.description)
        }
        // The compositor gets its own copy of the fd with create_pool.
        defer { memory.closeFile() }
        guard let file = memory.file, let pool = wl_shm_create_pool(shm, file.rawValue, Int32(size)) else {
            throw WaylandError.sharedMemory(reason: "wl_shm.create_pool failed")
        }
        let format = opaque ? WL_SHM_FORMAT_XRGB8888 : WL_SHM_FORMAT_ARGB8888
        let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), format.rawValue)
        wl_shm_pool_destroy(pool)
        guard let buffer else {
            throw WaylandError.sharedMemory(reason: "wl_shm_pool.create_buffer failed")
        }
        self.id = id
        self.proxy = buffer
        self.memory = memory
        self.framebuffer = Framebuffer(base: memory.base.bindMemory(to: UInt32.self, capacity: width * height),
                                       width: width, height: height, stride: width)
        wl_buffer_add_listener(buffer, &ShmBuffer.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Faults the pixels' pages in on another thread, then runs `done` there (see
    /// `SharedMemory.prefaultInBackground`).
    func prefaultInBackground(then done: (@Sendable () -> Void)? = nil) { memory.prefaultInBackground(then: done) }

    /// Whether `prefaultInBackground` has faulted the pixels' pages in.
    var pagesAreIn: Bool { memory.pagesAreIn }

    deinit {
        wl_buffer_destroy(proxy)  // before `memory` unmaps the pixels
    }

    // Static storage: the listener must outlive every proxy that points at it.
    nonisolated(unsafe) private static var listener = wl_buffer_listener(
        release: { data, _ in
            guard let data else { return }
            let buffer = Unmanaged<ShmBuffer>.fromOpaque(data).takeUnretainedValue()
            buffer.onRelease?(buffer.id)
        })
}
