// The event loop of a connection: one poll over the compositor's socket, the waker and any
// library's own event source, timers that bound the wait, and libwayland's prepare/read/dispatch
// around it. Idle costs nothing.
import CWaylandClient
import Foundation
import SystemPackage

/// Timers waiting to fire, as a pure value: deadlines in monotonic ms, `now` always a parameter.
struct TimerQueue {
    private struct Timer {
        let id: Int
        let deadline: Double
        let action: () -> Void
    }
    private var timers: [Timer] = []
    private var nextID = 1

    /// No timers.
    init() {}

    /// Whether no timer is waiting.
    var isEmpty: Bool { timers.isEmpty }

    /// Adds a timer running `action` at `deadline`; returns its id for `cancel`.
    mutating func schedule(at deadline: Double, _ action: @escaping () -> Void) -> Int {
        let id = nextID
        nextID += 1
        timers.append(Timer(id: id, deadline: deadline, action: action))
        return id
    }

    /// Removes the timer `id` if it has not fired.
    mutating func cancel(_ id: Int) {
        timers.removeAll { $0.id == id }
    }

    /// How long a wait starting at `now` may last, in whole ms rounded up so that the next
    /// timer is due when it ends: −1 (no limit) without timers, 0 when one is due already.
    func pollTimeout(now: Double) -> Int32 {
        guard let next = timers.map(\.deadline).min() else { return -1 }
        let wait = (next - now).rounded(.up)
        return Int32(min(max(wait, 0), Double(Int32.max)))
    }

    /// Removes the timers due at `now` and returns their actions, earliest deadline first.
    mutating func takeDue(now: Double) -> [() -> Void] {
        let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        guard !due.isEmpty else { return [] }
        let dueIDs = Set(due.map(\.id))
        timers.removeAll { dueIDs.contains($0.id) }
        return due.map(\.action)
    }
}

extension Display {
    /// Runs `action` once at `deadline` (monotonic ms); returns an id for `cancelTimer`.
    @discardableResult
    public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> Int {
        timers.schedule(at: deadline, action)
    }

    /// Cancels a timer that has not fired yet.
    public func cancelTimer(_ id: Int) {
        timers.cancel(id)
    }

    /// Stops `run` after the current iteration.
    public func stop() { running = false }

    /// Runs `handler` on the loop's thread after each wake (see `waker`); returns an id for
    /// `removeWakeHandler`.
    @discardableResult
    public func addWakeHandler(_ handler: @escaping () -> Void) -> Int {
        let id = nextWakeHandlerID
        nextWakeHandlerID += 1
        wakeHandlers[id] = handler
        return id
    }

    /// Removes a handler added by `addWakeHandler`.
    public func removeWakeHandler(_ id: Int) {
        wakeHandlers[id] = nil
    }

    /// Adds `fd` to the loop's wait and runs `handler` on the loop's thread whenever it is
    /// readable: the event source of a library that shares the loop but not the compositor's
    /// socket. Returns an id for `removeReadableSource`.
    func addReadableSource(_ fd: Int32, _ handler: @escaping () -> Void) -> Int {
        let id = nextWakeHandlerID
        nextWakeHandlerID += 1
        readableSources[id] = (fd, handler)
        return id
    }

    /// Removes a source added by `addReadableSource`.
    func removeReadableSource(_ id: Int) {
        readableSources[id] = nil
    }

    /// The compositor socket's descriptor, which `run` waits on.
    var socket: Int32 { wl_display_get_fd(proxy) }

    /// Dispatches events, wakes and timers until `stop()`; `afterDispatch` runs after each
    /// batch (the window renders there). Throws when the connection breaks.
    public func run(afterDispatch: () throws -> Void) throws {
        running = true
        let fd = wl_display_get_fd(proxy)
        // Reads the socket while this thread draws (SocketReader); without one (no eventfd
        // to spare) this thread reads alone, between frames.
        let reader = SocketReader(display: proxy)
        defer { reader?.stop() }
        while running {
            let result = try reader.map { try waitForReader($0, fd: fd) } ?? readAlone(fd: fd)
            if result.woken {
                for handler in wakeHandlers.values { handler() }
            }
            for source in readableSources.values where result.readableOthers.contains(source.fd) { source.handler() }
            for action in timers.takeDue(now: monotonicMilliseconds()) { action() }
            guard running else { break }
            try afterDispatch()
        }
        try flush(fd: fd)
    }

    /// Sends the requests queued so far now rather than when the loop next waits: a window about
    /// to draw a frame ahead sends the commit it just made first, or the compositor would get it
    /// only when that drawing is done.
    func flushRequests() throws { try flush(fd: wl_display_get_fd(proxy)) }

    /// One wait while the reader thread reads the socket: this thread never reads it, so the
    /// reader never waits for it (a prepared read waits for every other prepared reader, and a
    /// loaded machine that left this thread unscheduled for a few tens of milliseconds then left
    /// the socket unread: sway's side holds about 260 notches written one at a time, and a
    /// burst of 10,000 dropped the viewer while four live tests shared the two cores). It
    /// dispatches what the reader queued, sends the requests, and sleeps until the reader queues
    /// more, another thread wakes it, a library's event source has input or a timer is due;
    /// a broken connection reaches it through the reader's signal and the next dispatch.
    private func waitForReader(_ reader: SocketReader, fd: Int32) throws -> Waker.WaitResult {
        if wl_display_dispatch_pending(proxy) < 0 { throw connectionError() }
        try flush(fd: fd)
        let result = waker.wait(with: -1, queued: reader.queued, others: readableSources.values.map(\.fd),
                                timeout: timers.pollTimeout(now: monotonicMilliseconds()))
        if let failure = result.failure { throw WaylandError.connectionLost(reason: "poll: \(failure)") }
        if wl_display_dispatch_pending(proxy) < 0 { throw connectionError() }
        return result
    }

    /// One wait reading the socket on this thread (no reader thread: no eventfd to spare).
    private func readAlone(fd: Int32) throws -> Waker.WaitResult {
        // The prepare/read protocol lets events queued by other readers be dispatched first.
        while wl_display_prepare_read(proxy) != 0 {
            if wl_display_dispatch_pending(proxy) < 0 { throw connectionError() }
        }
        try flush(fd: fd)
        // Sleeps until the compositor sends something, another thread wakes us, a library's own
        // event source has input, or the next timer is due; nothing else can end the wait (an
        // idle window costs nothing).
        let result = waker.wait(with: fd, others: readableSources.values.map(\.fd),
                                timeout: timers.pollTimeout(now: monotonicMilliseconds()))
        if result.readable {
            if wl_display_read_events(proxy) < 0 { throw connectionError() }
        } else {
            wl_display_cancel_read(proxy)
            if let failure = result.failure {
                throw WaylandError.connectionLost(reason: "poll: \(failure)")
            }
        }
        if wl_display_dispatch_pending(proxy) < 0 { throw connectionError() }
        return result
    }

    private func flush(fd: Int32) throws {
        while wl_display_flush(proxy) < 0 {
            guard Errno.lastCall == .resourceTemporarilyUnavailable else { throw connectionError() }
            // The socket buffer is full: wait until the compositor reads.
            var request = [SystemCalls.PollRequest(fd, events: SystemCalls.writable)]
            _ = try? SystemCalls.poll(&request, timeout: 1000)
        }
    }
}
