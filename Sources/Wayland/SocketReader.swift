// A thread that keeps the compositor's socket read while the loop's thread draws: events are
// queued (not dispatched) the moment they arrive, so a burst can never fill the socket.
import CWaylandClient
import Foundation
import SystemPackage

/// Reads the connection on a thread of its own, with libwayland's multi-reader protocol
/// (prepare_read / read_events), into the display's default queue; the loop's thread still
/// dispatches every event, so listeners run where they always did.
///
/// Why: a compositor writes events into a socket whose buffer is fixed (the kernel's, plus
/// libwayland 1.21's 4 KiB ring) and drops a client whose buffer fills. A window that draws for
/// 100 ms (a debug build, a loaded machine, a 4K zoom) reads nothing meanwhile, and a burst of
/// 10,000 wheel events overflowed it ("Broken pipe"). Reading costs microseconds and the queue
/// in memory has no fixed size, so the reader keeps up with any burst.
///
/// The reader prepares its reads on a private queue that never holds an event (it has no
/// proxies), so preparing never asks it to dispatch. When it has read, it signals `queued`,
/// which the loop polls instead of the socket: while the reader runs the loop never prepares a
/// read, since a prepared reader waits in `read_events` for every other prepared reader, and
/// the reader must never wait for a thread that is drawing or not scheduled.
final class SocketReader: Sendable {
    /// Readable after the reader queued events; the loop clears it (Waker's eventfd).
    let queued: Waker
    private let stopSignal: Waker
    private let finished = DispatchSemaphore(value: 0)

    /// The display as the reader thread holds it: libwayland's read functions are made to be
    /// called from several threads at once, with the display's own lock.
    private struct Connection: @unchecked Sendable {
        let display: OpaquePointer
        let queue: OpaquePointer
    }
    private let connection: Connection

    /// Starts reading `display` (a `struct wl_display *`); nil when no eventfd or queue could
    /// be made, and the loop then reads alone as before.
    init?(display: OpaquePointer) {
        guard let queued = try? Waker(), let stopSignal = try? Waker(),
              let queue = wl_display_create_queue(display) else { return nil }
        self.queued = queued
        self.stopSignal = stopSignal
        connection = Connection(display: display, queue: queue)
        let thread = Thread { [self] in run() }
        thread.name = "wayland-reader"
        thread.start()
    }

    /// Ends the thread and waits for it: before the display is disconnected or its loop ends.
    func stop() {
        stopSignal.wake()
        finished.wait()
        wl_event_queue_destroy(connection.queue)
    }

    private func run() {
        defer { finished.signal() }
        let fd = wl_display_get_fd(connection.display)
        while true {
            // The private queue is always empty, so this succeeds at once.
            while wl_display_prepare_read_queue(connection.display, connection.queue) != 0 {
                wl_display_dispatch_queue_pending(connection.display, connection.queue)
            }
            var requests = [SystemCalls.PollRequest(fd, events: SystemCalls.readable),
                            SystemCalls.PollRequest(stopSignal.file.rawValue, events: SystemCalls.readable)]
            do {
                try SystemCalls.poll(&requests, timeout: -1)
            } catch {
                wl_display_cancel_read(connection.display)
                if error == .interrupted { continue }
                queued.wake()
                return
            }
            if requests[1].saw(SystemCalls.readable) {
                wl_display_cancel_read(connection.display)
                return
            }
            // A failed read marks the display broken; the loop's next dispatch reports it.
            let failed = wl_display_read_events(connection.display) < 0
            queued.wake()
            if failed { return }
        }
    }
}
