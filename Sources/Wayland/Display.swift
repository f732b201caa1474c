// The connection to the compositor: connect with clear errors, bind globals at
// min(advertised, supported), and run the event loop over the display fd, a waker and timers.
import CWaylandClient
import CWaylandProtocols
import Foundation
import Glibc

/// Milliseconds on CLOCK_MONOTONIC, the clock wlroots, weston and KWin stamp events with.
public func monotonicMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}

/// Maps one device's 32-bit millisecond event timestamps onto the local monotonic clock.
///
/// wl_pointer, wl_touch and wl_keyboard times have an undefined base: wlroots uses
/// CLOCK_MONOTONIC, but KWin's fake input is stamped with a clock hours apart from it (seen
/// here), and nested compositors pass such stamps through. Animations run on the frame
/// clock, so a fling started at an input time must be on that clock too. The mapping keeps
/// the device's spacing exactly (velocity needs it) and estimates the offset as the smallest
/// `now − time` seen: an event cannot arrive before it happened, so the fastest arrival is
/// the best estimate. Pure: `now` is a parameter.
public struct EventClock: Sendable {
    /// A jump of more than this between the estimated offset and an arrival means the
    /// device's clock changed (a new device, a suspended machine): start over. 1000 ms is
    /// far above any dispatch latency a smooth session has.
    public static let resetThreshold: Double = 1000

    private var lastRaw: UInt32?
    private var extended: Double = 0
    private var offset: Double?
    private var lastMapped = -Double.infinity

    /// A clock that has seen no event.
    public init() {}

    /// The local time (ms, the clock `now` is on) of an event stamped `time` by the device.
    public mutating func map(_ time: UInt32, now: Double) -> Double {
        if let last = lastRaw {
            // Signed difference: handles the 49.7-day wrap and slightly reordered stamps.
            extended += Double(Int32(bitPattern: time &- last))
        } else {
            extended = Double(time)
        }
        lastRaw = time
        let candidate = now - extended
        if let current = offset, candidate >= current, candidate - current <= Self.resetThreshold {
            // Slower arrival than the best seen: keep the estimate.
        } else if let current = offset, candidate < current {
            offset = candidate  // a faster arrival: a better estimate
        } else {
            offset = candidate  // first event, or the device's clock jumped
            lastMapped = -Double.infinity
        }
        // Never earlier than the previous event of this device: trackers expect order. Whole
        // milliseconds, the device's own resolution: the offset estimate's fractions (arrival
        // jitter) would otherwise spread a burst of events stamped in one millisecond over
        // made-up microseconds, which a velocity fit reads as absurd speeds, and a recording
        // (which keeps times to the microsecond) could not reproduce exactly.
        let mapped = max((extended + offset!).rounded(), lastMapped)
        lastMapped = mapped
        return mapped
    }
}

/// The input sources whose timestamps may each have their own base.
enum InputClock {
    case pointer, touch, keyboard, gesture
}

/// Per-source event clocks shared by the seat's devices (all on the event-loop thread).
enum EventClocks {
    nonisolated(unsafe) static var clocks: [InputClock: EventClock] = [:]
}

/// The local monotonic time of an event stamped `time` by `source`.
func unwrapEventTime(_ time: UInt32, source: InputClock, now: Double = monotonicMilliseconds()) -> Double {
    EventClocks.clocks[source, default: EventClock()].map(time, now: now)
}

/// The globals this program binds, each at `min(advertised, supported)`.
public struct Globals {
    /// `wl_compositor` (needs v4 for `damage_buffer`).
    public internal(set) var compositor: OpaquePointer?
    /// `wl_shm`.
    public internal(set) var shm: OpaquePointer?
    /// `xdg_wm_base`.
    public internal(set) var wmBase: OpaquePointer?
    /// The first `wl_seat`, its registry name and bound version.
    public internal(set) var seat: (proxy: OpaquePointer, name: UInt32, version: UInt32)?
    /// `zxdg_decoration_manager_v1`, when offered.
    public internal(set) var decorationManager: OpaquePointer?
    /// `wp_viewporter`, when offered.
    public internal(set) var viewporter: OpaquePointer?
    /// `wp_fractional_scale_manager_v1`, when offered.
    public internal(set) var fractionalScaleManager: OpaquePointer?
    /// `zwp_pointer_gestures_v1` and its bound version, when offered.
    public internal(set) var pointerGestures: (proxy: OpaquePointer, version: UInt32)?
    /// Advertised name → (interface, version) of every global seen, for diagnostics.
    public internal(set) var advertised: [UInt32: (interface: String, version: UInt32)] = [:]
}

/// A global this program can bind: the lowest version it needs and the highest its
/// listeners cover (binding higher would let the compositor send events we have no slot for).
struct GlobalRequirement {
    let interface: String
    let minimum: UInt32
    let supported: UInt32
    let required: Bool

    /// Every global the program knows; versions are those of Protocols/ and libwayland 1.21.
    static let all: [GlobalRequirement] = [
        GlobalRequirement(interface: "wl_compositor", minimum: 4, supported: 4, required: true),
        GlobalRequirement(interface: "wl_shm", minimum: 1, supported: 1, required: true),
        GlobalRequirement(interface: "xdg_wm_base", minimum: 1, supported: 5, required: true),
        GlobalRequirement(interface: "wl_seat", minimum: 1, supported: 8, required: false),
        GlobalRequirement(interface: "zxdg_decoration_manager_v1", minimum: 1, supported: 1, required: false),
        GlobalRequirement(interface: "wp_viewporter", minimum: 1, supported: 1, required: false),
        GlobalRequirement(interface: "wp_fractional_scale_manager_v1", minimum: 1, supported: 1, required: false),
        GlobalRequirement(interface: "zwp_pointer_gestures_v1", minimum: 1, supported: 3, required: false),
        // Outputs only for their scale (cursor images at HiDPI); v4 adds name/description.
        GlobalRequirement(interface: "wl_output", minimum: 1, supported: 4, required: false),
    ]

    /// The version to bind for an advertised `version`, or the typed error when it is too old.
    func bindVersion(advertised version: UInt32) -> Result<UInt32, WaylandError> {
        guard version >= minimum else {
            return .failure(.unsupportedVersion(interface: interface, required: minimum, available: version))
        }
        return .success(min(version, supported))
    }
}

/// A connection to a Wayland compositor.
public final class Display {
    /// `struct wl_display *`.
    let proxy: OpaquePointer
    private var registry: OpaquePointer?
    /// The bound globals.
    public private(set) var globals = Globals()
    private var bindErrors: [WaylandError] = []
    /// Called when a `wl_seat` global appears after start-up or the bound one is removed.
    var onSeatChange: (() -> Void)?
    /// Bound `wl_output`s by registry name, with their proxy and checked integer scale.
    private var outputs: [UInt32: (proxy: OpaquePointer, version: UInt32, scale: Int)] = [:]
    /// Called when an output appears, goes or changes its scale.
    var onOutputsChange: (() -> Void)?
    /// Receives one-line warnings about values from the compositor that were ignored or
    /// clamped; warnings from before it is set are held and delivered when it is.
    var onWarning: ((String) -> Void)? {
        didSet {
            guard let onWarning else { return }
            for message in heldWarnings { onWarning(message) }
            heldWarnings.removeAll()
        }
    }
    private var heldWarnings: [String] = []

    /// Wakes `run` from any thread: background work calls `waker.wake()` when it has a result,
    /// and the wake handlers run on the loop's thread.
    public let waker: Waker
    private var wakeHandlers: [Int: () -> Void] = [:]

    /// The largest integer scale of the outputs (1 when none is known): what cursor images
    /// are drawn for, so the cursor is sharp on the densest screen it can be on.
    public var maxOutputScale: Int { max(outputs.values.map(\.scale).max() ?? 1, 1) }

    /// The checked scale of every bound output, by registry name.
    var outputScales: [UInt32: Int] { outputs.mapValues(\.scale) }

    /// The registry name and checked scale of the output whose proxy is `proxy` (as a
    /// `wl_surface.enter` names it), nil for an output not bound here.
    func output(for proxy: OpaquePointer?) -> (name: UInt32, scale: Int)? {
        guard let entry = outputs.first(where: { $0.value.proxy == proxy }) else { return nil }
        return (entry.key, entry.value.scale)
    }

    private struct Timer {
        let id: Int
        let deadline: Double
        let action: () -> Void
    }
    private var timers: [Timer] = []
    private var nextTimerID = 1
    private var running = false

    /// Connects as libwayland would (`WAYLAND_SOCKET`, else `WAYLAND_DISPLAY` under
    /// `XDG_RUNTIME_DIR` or as an absolute path), but refuses to guess `wayland-0` when
    /// nothing is set, and reports a failure as a one-line `WaylandError`.
    public static func connect(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Display {
        let socketFD = environment["WAYLAND_SOCKET"]
        let name = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        var path = "WAYLAND_SOCKET=\(socketFD ?? "")"
        if socketFD == nil {
            guard let name else { throw WaylandError.noDisplayVariable }
            if name.hasPrefix("/") {
                path = name
            } else {
                guard let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty else {
                    throw WaylandError.noRuntimeDir(display: name)
                }
                path = dir + "/" + name
            }
        }
        let waker = try Waker()
        guard let d = wl_display_connect(nil) else {
            throw WaylandError.connectFailed(socket: path, reason: String(cString: strerror(errno)))
        }
        let display = Display(proxy: d, waker: waker)
        try display.bindGlobals()
        return display
    }

    private init(proxy: OpaquePointer, waker: Waker) {
        self.proxy = proxy
        self.waker = waker
    }

    deinit {
        wl_display_disconnect(proxy)
    }

    private func bindGlobals() throws {
        registry = wl_display_get_registry(proxy)
        wl_registry_add_listener(registry, &Display.registryListener, Unmanaged.passUnretained(self).toOpaque())
        try roundtrip()
        if let first = bindErrors.first { throw first }
        for requirement in GlobalRequirement.all where requirement.required {
            let bound: OpaquePointer?
            switch requirement.interface {
            case "wl_compositor": bound = globals.compositor
            case "wl_shm": bound = globals.shm
            default: bound = globals.wmBase
            }
            if bound == nil { throw WaylandError.missingGlobal(requirement.interface) }
        }
    }

    fileprivate func global(name: UInt32, interface: String, version: UInt32) {
        globals.advertised[name] = (interface, version)
        guard let requirement = GlobalRequirement.all.first(where: { $0.interface == interface }) else { return }
        let bindVersion: UInt32
        switch requirement.bindVersion(advertised: version) {
        case .success(let v): bindVersion = v
        case .failure(let error):
            if requirement.required { bindErrors.append(error) }
            return
        }
        func bind(_ iface: UnsafePointer<wl_interface>) -> OpaquePointer? {
            wl_registry_bind(registry, name, iface, bindVersion).map(OpaquePointer.init)
        }
        switch interface {
        case "wl_compositor": globals.compositor = bind(sk_wl_compositor_interface())
        case "wl_shm": globals.shm = bind(sk_wl_shm_interface())
        case "xdg_wm_base":
            globals.wmBase = bind(sk_xdg_wm_base_interface())
            xdg_wm_base_add_listener(globals.wmBase, &Display.wmBaseListener, nil)
        case "wl_seat" where globals.seat == nil:
            if let seat = bind(sk_wl_seat_interface()) {
                globals.seat = (seat, name, bindVersion)
                onSeatChange?()
            }
        case "zxdg_decoration_manager_v1": globals.decorationManager = bind(sk_zxdg_decoration_manager_v1_interface())
        case "wp_viewporter": globals.viewporter = bind(sk_wp_viewporter_interface())
        case "wp_fractional_scale_manager_v1":
            globals.fractionalScaleManager = bind(sk_wp_fractional_scale_manager_v1_interface())
        case "zwp_pointer_gestures_v1":
            if let g = bind(sk_zwp_pointer_gestures_v1_interface()) { globals.pointerGestures = (g, bindVersion) }
        case "wl_output":
            if let output = bind(sk_wl_output_interface()) {
                outputs[name] = (output, bindVersion, 1)
                wl_output_add_listener(output, &Display.outputListener, Unmanaged.passUnretained(self).toOpaque())
            }
        default: break
        }
    }

    fileprivate func outputScale(_ proxy: OpaquePointer?, _ factor: Int32) {
        guard let entry = outputs.first(where: { $0.value.proxy == proxy }) else { return }
        let checked = ScaleLimits.outputScale(factor)
        if let warning = checked.warning { warn(warning) }
        outputs[entry.key]?.scale = checked.scale
        onOutputsChange?()
    }

    /// Passes `message` to `onWarning`, or holds it until that is set.
    func warn(_ message: String) {
        if let onWarning { onWarning(message) } else { heldWarnings.append(message) }
    }

    fileprivate func globalRemoved(name: UInt32) {
        globals.advertised[name] = nil
        if let output = outputs.removeValue(forKey: name) {
            if output.version >= 3 { wl_output_release(output.proxy) } else { wl_output_destroy(output.proxy) }
            onOutputsChange?()
        }
        if let seat = globals.seat, seat.name == name {
            wl_seat_destroy(seat.proxy)
            globals.seat = nil
            onSeatChange?()
        }
    }

    /// Sends pending requests and waits until the compositor has handled them.
    public func roundtrip() throws {
        if wl_display_roundtrip(proxy) < 0 { throw connectionError() }
    }

    /// The error that broke the connection, as a `WaylandError`.
    func connectionError() -> WaylandError {
        var iface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(proxy, &iface, &id)
        if let iface, code != 0 || wl_display_get_error(proxy) == EPROTO {
            return .protocolError(interface: String(cString: iface.pointee.name), code: code)
        }
        let err = wl_display_get_error(proxy)
        let reason = err == 0 ? "the compositor closed the connection" : String(cString: strerror(err))
        return .connectionLost(reason: reason)
    }

    // MARK: Event loop

    /// Runs `action` once at `deadline` (monotonic ms); returns an id for `cancelTimer`.
    @discardableResult
    public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> Int {
        let id = nextTimerID
        nextTimerID += 1
        timers.append(Timer(id: id, deadline: deadline, action: action))
        return id
    }

    /// Cancels a timer that has not fired yet.
    public func cancelTimer(_ id: Int) {
        timers.removeAll { $0.id == id }
    }

    /// Stops `run` after the current iteration.
    public func stop() { running = false }

    /// Runs `handler` on the loop's thread after each wake (see `waker`); returns an id for
    /// `removeWakeHandler`.
    @discardableResult
    public func addWakeHandler(_ handler: @escaping () -> Void) -> Int {
        let id = nextTimerID
        nextTimerID += 1
        wakeHandlers[id] = handler
        return id
    }

    /// Removes a handler added by `addWakeHandler`.
    public func removeWakeHandler(_ id: Int) {
        wakeHandlers[id] = nil
    }

    /// Dispatches events, wakes and timers until `stop()`; `afterDispatch` runs after each
    /// batch (the window renders there). Throws when the connection breaks.
    public func run(afterDispatch: () throws -> Void) throws {
        running = true
        let fd = wl_display_get_fd(proxy)
        while running {
            // The prepare/read protocol lets events queued by other readers be dispatched first.
            while wl_display_prepare_read(proxy) != 0 {
                if wl_display_dispatch_pending(proxy) < 0 { throw connectionError() }
            }
            try flush(fd: fd)
            // Sleeps until the compositor sends something, another thread wakes us, or the
            // next timer is due; nothing else can end the wait (an idle window costs nothing).
            let result = waker.wait(with: fd, timeout: pollTimeout())
            if result.readable {
                if wl_display_read_events(proxy) < 0 { throw connectionError() }
            } else {
                wl_display_cancel_read(proxy)
                if let failure = result.failure {
                    throw WaylandError.connectionLost(reason: "poll: \(failure)")
                }
            }
            if wl_display_dispatch_pending(proxy) < 0 { throw connectionError() }
            if result.woken {
                for handler in wakeHandlers.values { handler() }
            }
            fireDueTimers()
            guard running else { break }
            try afterDispatch()
        }
        try flush(fd: fd)
    }

    private func flush(fd: Int32) throws {
        while wl_display_flush(proxy) < 0 {
            guard errno == EAGAIN else { throw connectionError() }
            // The socket buffer is full: wait until the compositor reads.
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&pfd, 1, 1000)
        }
    }

    private func pollTimeout() -> Int32 {
        guard let next = timers.map(\.deadline).min() else { return -1 }
        let wait = (next - monotonicMilliseconds()).rounded(.up)
        return Int32(min(max(wait, 0), Double(Int32.max)))
    }

    private func fireDueTimers() {
        let now = monotonicMilliseconds()
        let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        guard !due.isEmpty else { return }
        let dueIDs = Set(due.map(\.id))
        timers.removeAll { dueIDs.contains($0.id) }
        for timer in due { timer.action() }
    }

    // MARK: Listeners (static storage: they must outlive every proxy pointing at them)

    nonisolated(unsafe) private static var registryListener = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let data, let interface else { return }
            Unmanaged<Display>.fromOpaque(data).takeUnretainedValue()
                .global(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { data, _, name in
            guard let data else { return }
            Unmanaged<Display>.fromOpaque(data).takeUnretainedValue().globalRemoved(name: name)
        })

    // Every slot is filled: libwayland aborts on a NULL entry the bound version can send.
    nonisolated(unsafe) private static var outputListener = wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { _, _ in },
        scale: { data, output, factor in
            guard let data else { return }
            Unmanaged<Display>.fromOpaque(data).takeUnretainedValue().outputScale(output, factor)
        },
        name: { _, _, _ in },
        description: { _, _, _ in })

    nonisolated(unsafe) private static var wmBaseListener = xdg_wm_base_listener(
        ping: { _, wmBase, serial in xdg_wm_base_pong(wmBase, serial) })
}
