// Ends the event loop's wait from any thread: an eventfd that sits in the loop's poll set.
// The only file that holds the descriptor; the loop reads it, other threads write it.
import CWaylandProtocols
import Foundation
import Glibc

/// A handle any thread may use to wake the event loop of a `Display`.
///
/// Background work (a picture decoder) calls `wake()` when it has a result; the loop's
/// `poll` returns at once, the display clears the wake and runs its wake handlers on the loop's
/// own thread. Wakes are counted by the kernel, so one that arrives before the loop waits is
/// not lost, and many wakes before the loop runs end one wait.
public final class Waker: Sendable {
    /// The eventfd; readable while a wake is pending.
    let fd: Int32

    /// Creates the eventfd; throws `WaylandError.eventLoop` naming the failure.
    public init() throws {
        // Non-blocking: the loop drains without waiting, and a writer never blocks even when
        // the counter is saturated. Close-on-exec: children must not inherit it.
        let descriptor = sk_eventfd()
        guard descriptor >= 0 else {
            throw WaylandError.eventLoop(reason: "eventfd: \(String(cString: strerror(errno)))")
        }
        fd = descriptor
    }

    deinit { close(fd) }

    /// Wakes the loop (any thread, any number of times; never blocks).
    public func wake() {
        var one: UInt64 = 1
        // EAGAIN means the counter is saturated: a wake is pending already. EINTR: retry.
        while write(fd, &one, MemoryLayout<UInt64>.size) < 0 && errno == EINTR {}
    }

    /// Clears pending wakes; returns whether there were any (the loop's thread only).
    @discardableResult
    func drain() -> Bool {
        var count: UInt64 = 0
        while true {
            let n = read(fd, &count, MemoryLayout<UInt64>.size)
            if n == MemoryLayout<UInt64>.size { return count > 0 }
            if n < 0 && errno == EINTR { continue }
            return false  // EAGAIN: nothing pending
        }
    }

    /// What one wait of the event loop saw.
    struct WaitResult: Equatable {
        /// The other descriptor (the compositor's socket) has input, hung up or failed.
        var readable: Bool
        /// A wake arrived (and was cleared).
        var woken: Bool
        /// The errno of a failed `poll`, other than EINTR; nil when it succeeded.
        var failure: Int32?
    }

    /// Waits up to `timeout` ms (−1: without limit) until `fd` becomes readable or a wake
    /// arrives; clears the wake. The event loop's single blocking call.
    func wait(with fd: Int32, timeout: Int32) -> WaitResult {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, timeout)
        if ready < 0 {
            return WaitResult(readable: false, woken: false, failure: errno == EINTR ? nil : errno)
        }
        let readable = fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
        let woken = fds[1].revents & Int16(POLLIN) != 0 && drain()
        return WaitResult(readable: readable, woken: woken, failure: nil)
    }
}
