// Ends the event loop's wait from any thread: an eventfd that sits in the loop's poll set.
// The only file that holds the descriptor; the loop reads it, other threads write it.
import Foundation
import SystemPackage

/// A handle any thread may use to wake the event loop of a `Display`.
///
/// Background work (a picture decoder) calls `wake()` when it has a result; the loop's
/// `poll` returns at once, the display clears the wake and runs its wake handlers on the loop's
/// own thread. Wakes are counted by the kernel, so one that arrives before the loop waits is
/// not lost, and many wakes before the loop runs end one wait.
public final class Waker: Sendable {
    /// The eventfd; readable while a wake is pending.
    let file: FileDescriptor

    /// Creates the eventfd; throws `WaylandError.eventLoop` naming the failure.
    public init() throws {
        // Non-blocking: the loop drains without waiting, and a writer never blocks even when
        // the counter is saturated. Close-on-exec: children must not inherit it.
        do {
            file = try SystemCalls.eventFile()
        } catch {
            throw WaylandError.eventLoop(reason: error.description)
        }
    }

    deinit { try? file.close() }

    /// Wakes the loop (any thread, any number of times; never blocks).
    public func wake() {
        let one: UInt64 = 1
        // EAGAIN means the counter is saturated: a wake is pending already (EINTR is retried).
        _ = try? withUnsafeBytes(of: one) { try file.write($0) }
    }

    /// Clears pending wakes; returns whether there were any (the loop's thread only).
    @discardableResult
    func drain() -> Bool {
        var count: UInt64 = 0
        // EAGAIN: nothing pending (EINTR is retried).
        let n = try? withUnsafeMutableBytes(of: &count) { try file.read(into: $0) }
        return n == MemoryLayout<UInt64>.size && count > 0
    }

    /// What one wait of the event loop saw.
    struct WaitResult: Equatable {
        /// The other descriptor (the compositor's socket) has input, hung up or failed.
        var readable: Bool
        /// A wake arrived (and was cleared).
        var woken: Bool
        /// The socket reader queued events (and the signal was cleared).
        var queued: Bool = false
        /// Why `poll` failed, other than EINTR; nil when it succeeded.
        var failure: Errno?
        /// Those of the further descriptors that have input, hung up or failed, in the order given.
        var readableOthers: [Int32] = []
    }

    /// Waits up to `timeout` ms (−1: without limit) until `fd` (none when negative) or one of `others` (event
    /// sources of libraries sharing the loop) becomes readable, a wake arrives or `queued` (the
    /// socket reader's signal) fires; clears the wake and the signal. The event loop's single
    /// blocking call.
    func wait(with fd: Int32, queued: Waker? = nil, others: [Int32] = [], timeout: Int32) -> WaitResult {
        let ready = SystemCalls.readable | SystemCalls.hangUp | SystemCalls.failed
        var requests = [SystemCalls.PollRequest(fd, events: SystemCalls.readable),
                        SystemCalls.PollRequest(file.rawValue, events: SystemCalls.readable)]
        if let queued { requests.append(SystemCalls.PollRequest(queued.file.rawValue, events: SystemCalls.readable)) }
        let firstOther = requests.count
        requests += others.map { SystemCalls.PollRequest($0, events: SystemCalls.readable) }
        do {
            try SystemCalls.poll(&requests, timeout: timeout)
        } catch {
            return WaitResult(readable: false, woken: false, failure: error == .interrupted ? nil : error)
        }
        let readable = requests[0].saw(ready)
        let woken = requests[1].saw(SystemCalls.readable) && drain()
        let sawQueued = queued != nil && requests[2].saw(SystemCalls.readable) && queued?.drain() == true
        let readableOthers = zip(others, requests.dropFirst(firstOther)).filter { $0.1.saw(ready) }.map(\.0)
        return WaitResult(readable: readable, woken: woken, queued: sawQueued, failure: nil, readableOthers: readableOthers)
    }
}
