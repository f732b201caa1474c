// The injector's wl_display: connecting with one-line errors, binding the injection
// globals from the registry, and flushing, round-tripping and reading without blocking.
import CWaylandClient
import CWaylandProtocols
import Glibc
import SafeOutput
import SystemPackage

/// The compositor cannot be used: cannot connect, lacks a protocol, or the connection broke.
struct ConnectionError: Error {
    var message: String
}

/// A bound global and the version it was bound at.
struct BoundGlobal {
    var proxy: OpaquePointer
    var version: UInt32
}

/// A connection to the compositor with the globals the injector can use.
final class Connection {
    /// `struct wl_display *`.
    let display: OpaquePointer
    private var registry: OpaquePointer?
    /// The first `wl_seat` (v1 is enough: it is only passed to the managers).
    private(set) var seat: OpaquePointer?
    private(set) var pointerManager: BoundGlobal?
    private(set) var keyboardManager: BoundGlobal?
    private(set) var fakeInput: BoundGlobal?
    /// Interface names advertised, for --verbose and error messages.
    private(set) var advertised: [String] = []

    /// Connects as libwayland does (`WAYLAND_SOCKET`, else `WAYLAND_DISPLAY` relative to
    /// `XDG_RUNTIME_DIR` or absolute), refusing to guess `wayland-0` when nothing is set.
    init(environment: [String: String]) throws(ConnectionError) {
        let name = environment["WAYLAND_DISPLAY"] ?? ""
        var target = name
        if environment["WAYLAND_SOCKET"] == nil {
            guard !name.isEmpty else {
                throw ConnectionError(message: "WAYLAND_DISPLAY is not set: set it to the compositor's socket name or absolute path")
            }
            if !name.hasPrefix("/") {
                guard let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty else {
                    throw ConnectionError(message: "WAYLAND_DISPLAY=\(name) is relative but XDG_RUNTIME_DIR is not set")
                }
                target = dir + "/" + name
            }
        } else {
            target = "WAYLAND_SOCKET=\(environment["WAYLAND_SOCKET"]!)"
        }
        guard let display = wl_display_connect(nil) else {
            throw ConnectionError(message: "cannot connect to the Wayland compositor at \(target): \(Errno.lastCall)")
        }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, &Connection.registryListener, Unmanaged.passUnretained(self).toOpaque())
        try roundtrip()
    }

    deinit {
        wl_display_disconnect(display)
    }

    fileprivate func global(name: UInt32, interface: String, version: UInt32) {
        advertised.append(interface)
        // Each interface is bound at the highest version this file's requests cover.
        func bind(_ iface: UnsafePointer<wl_interface>, upTo supported: UInt32) -> BoundGlobal? {
            let v = min(version, supported)
            return wl_registry_bind(registry, name, iface, v).map { BoundGlobal(proxy: OpaquePointer($0), version: v) }
        }
        switch interface {
        case "wl_seat" where seat == nil:
            seat = bind(sk_wl_seat_interface(), upTo: 1)?.proxy
        case "zwlr_virtual_pointer_manager_v1" where pointerManager == nil:
            pointerManager = bind(sk_zwlr_virtual_pointer_manager_v1_interface(), upTo: 1)
        case "zwp_virtual_keyboard_manager_v1" where keyboardManager == nil:
            keyboardManager = bind(sk_zwp_virtual_keyboard_manager_v1_interface(), upTo: 1)
        case "org_kde_kwin_fake_input" where fakeInput == nil:
            fakeInput = bind(sk_org_kde_kwin_fake_input_interface(), upTo: 4)
        default:
            break
        }
    }

    /// Sends everything queued and waits until the compositor has handled it.
    func roundtrip() throws(ConnectionError) {
        if wl_display_roundtrip(display) < 0 { throw failure() }
    }

    /// Sends everything queued, waiting for room when the socket buffer is full.
    func flush() throws(ConnectionError) {
        while wl_display_flush(display) < 0 {
            guard Errno.lastCall == .resourceTemporarilyUnavailable else { throw failure() }
            var request = [SystemCalls.PollRequest(wl_display_get_fd(display), events: SystemCalls.writable)]
            // 1000 ms: re-check the connection at least once a second while blocked.
            _ = try? SystemCalls.poll(&request, timeout: 1000)
        }
    }

    /// The display's file descriptor, for polling next to standard input.
    var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Reads and dispatches what the compositor sent; call when the fd is readable.
    /// Nothing the injector binds sends events that matter, but reading keeps the socket
    /// drained and notices a compositor that went away.
    func dispatchReadable() throws(ConnectionError) {
        if wl_display_dispatch(display) < 0 { throw failure() }
    }

    /// The error that broke the connection, in one line.
    func failure() -> ConnectionError {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var iface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &iface, &id)
            let name = iface.map { String(cString: $0.pointee.name) } ?? "an unknown interface"
            return ConnectionError(message: "the compositor reported protocol error \(protocolCode) on \(name) (object \(id))")
        }
        let reason = code == 0 ? "the compositor closed the connection" : Errno(rawValue: code).description
        return ConnectionError(message: "lost the connection to the compositor: \(reason)")
    }

    // Static storage: libwayland keeps a pointer to the listener for the proxy's lifetime.
    nonisolated(unsafe) private static var registryListener = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let data, let interface else { return }
            Unmanaged<Connection>.fromOpaque(data).takeUnretainedValue()
                .global(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { _, _, _ in
            // A seat or manager vanishing mid-test surfaces as an error on the next request.
        })
}
