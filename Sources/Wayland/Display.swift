// wl_display: the connection to the compositor. Connects with clear errors, owns the registry
// (Registry.swift) and the event loop's state (EventLoop.swift), and turns a broken connection
// into a one-line WaylandError.
import CWaylandClient
import Foundation
import Raster
import SystemPackage

/// A connection to a Wayland compositor.
public final class Display {
    /// `struct wl_display *`.
    let proxy: OpaquePointer
    private let registry: Registry
    /// The bound globals.
    public var globals: Globals { registry.globals }
    /// Called when a `wl_seat` global appears after start-up or the bound one is removed.
    var onSeatChange: (() -> Void)? {
        get { registry.onSeatChange }
        set { registry.onSeatChange = newValue }
    }
    /// Called when an output appears, goes or changes its scale or transform.
    var onOutputsChange: (() -> Void)? {
        get { registry.onOutputsChange }
        set { registry.onOutputsChange = newValue }
    }
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
    /// The event loop's state (EventLoop.swift): timers, wake handlers, other libraries' event
    /// sources, whether it runs.
    var timers = TimerQueue()
    var wakeHandlers: [Int: () -> Void] = [:]
    var nextWakeHandlerID = 1
    var readableSources: [Int: (fd: Int32, handler: () -> Void)] = [:]
    var running = false

    /// `wp_presentation`, when the compositor offers it.
    var presentation: Presentation? { registry.presentation }

    /// The events of the bound `wl_seat`, kept from its bind on.
    var seatEvents: SeatEvents? { registry.seatEvents }

    /// The largest integer scale of the outputs (1 when none is known): what cursor images
    /// are drawn for, so the cursor is sharp on the densest screen it can be on.
    public var maxOutputScale: Int { max(registry.outputs.values.map(\.scale).max() ?? 1, 1) }

    /// The size of the largest output (by pixels) in its own pixels, nil while no output has
    /// said: the most a window's buffers can cover, what pictures for a window that has not
    /// settled on its size yet are decoded for.
    public var largestOutputPixels: (width: Int, height: Int)? {
        registry.outputs.values.compactMap(\.mode.size).max { $0.width * $0.height < $1.width * $1.height }
    }

    /// The checked scale of every bound output, by registry name.
    var outputScales: [UInt32: Int] { registry.outputs.mapValues(\.scale) }

    /// The checked refresh rate (mHz) of every bound output that has one, by registry name.
    var outputRefreshes: [UInt32: Int] { registry.outputs.compactMapValues(\.mode.refresh) }

    /// The checked transform of every bound output, by registry name.
    var outputTransforms: [UInt32: FrameTransform] { registry.outputs.mapValues(\.transform) }

    /// The registry name and checked scale of the output whose proxy is `proxy` (as a
    /// `wl_surface.enter` names it), nil for an output not bound here.
    func output(for proxy: OpaquePointer?) -> (name: UInt32, scale: Int)? {
        guard let entry = registry.outputs.first(where: { $0.value.proxy == proxy }) else { return nil }
        return (entry.key, entry.value.scale)
    }

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
            throw WaylandError.connectFailed(socket: path, reason: Errno.lastCall.description)
        }
        guard let registry = Registry(display: d) else {
            wl_display_disconnect(d)
            throw WaylandError.connectionLost(reason: "wl_display.get_registry failed")
        }
        let display = Display(proxy: d, registry: registry, waker: waker)
        try display.bindGlobals()
        return display
    }

    private init(proxy: OpaquePointer, registry: Registry, waker: Waker) {
        self.proxy = proxy
        self.registry = registry
        self.waker = waker
        registry.warn = { [unowned self] in self.warn($0) }
    }

    deinit {
        wl_display_disconnect(proxy)
    }

    /// Waits for the globals and checks the required ones are there at a usable version.
    private func bindGlobals() throws {
        try roundtrip()
        if let first = registry.bindErrors.first { throw first }
        if let missing = registry.missingRequiredGlobal { throw WaylandError.missingGlobal(missing) }
    }

    /// Passes `message` to `onWarning`, or holds it until that is set.
    func warn(_ message: String) {
        if let onWarning { onWarning(message) } else { heldWarnings.append(message) }
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
        let reason = err == 0 ? "the compositor closed the connection" : Errno(rawValue: err).description
        return .connectionLost(reason: reason)
    }
}
