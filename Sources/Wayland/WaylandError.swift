// Typed failures of the Wayland connection: each is one line a user can act on.
import Foundation

/// Why talking to the compositor failed; `description` is the one-line message users see.
public enum WaylandError: Error, Equatable, CustomStringConvertible {
    /// Neither `WAYLAND_DISPLAY` nor `WAYLAND_SOCKET` is set: no session to connect to.
    case noDisplayVariable
    /// `WAYLAND_DISPLAY` names a relative socket but `XDG_RUNTIME_DIR` is not set.
    case noRuntimeDir(display: String)
    /// The socket could not be reached; `socket` is the path tried, `reason` the errno text.
    case connectFailed(socket: String, reason: String)
    /// A global the program needs was not advertised.
    case missingGlobal(String)
    /// A global was advertised at a version older than the program needs.
    case unsupportedVersion(interface: String, required: UInt32, available: UInt32)
    /// The connection broke (compositor exited or killed); `reason` is the errno text.
    case connectionLost(reason: String)
    /// The compositor reported a protocol error on `interface`.
    case protocolError(interface: String, code: UInt32)
    /// Shared memory for a buffer could not be created; `reason` names the failing call.
    case sharedMemory(reason: String)
    /// The compositor asked for a size outside what the program accepts.
    case invalidSize(width: Int, height: Int)
    /// The event loop could not be set up; `reason` names the failing call.
    case eventLoop(reason: String)
    /// libdecor could not draw the window's decorations; `reason` is its message.
    case decorations(reason: String)

    public var description: String {
        switch self {
        case .noDisplayVariable:
            return "WAYLAND_DISPLAY is not set: run inside a Wayland session or set WAYLAND_DISPLAY to a compositor socket"
        case .noRuntimeDir(let display):
            return "XDG_RUNTIME_DIR is not set, so WAYLAND_DISPLAY=\(display) cannot be found: set XDG_RUNTIME_DIR or give WAYLAND_DISPLAY as an absolute path"
        case .connectFailed(let socket, let reason):
            return "cannot connect to the Wayland compositor at \(socket) (WAYLAND_DISPLAY): \(reason)"
        case .missingGlobal(let name):
            return "the compositor does not offer \(name), which this program needs"
        case .unsupportedVersion(let interface, let required, let available):
            return "the compositor offers \(interface) version \(available), but version \(required) or newer is needed"
        case .connectionLost(let reason):
            return "lost the connection to the Wayland compositor: \(reason)"
        case .protocolError(let interface, let code):
            return "the compositor reported protocol error \(code) on \(interface)"
        case .sharedMemory(let reason):
            return "cannot create a shared-memory buffer: \(reason)"
        case .invalidSize(let width, let height):
            return "the compositor asked for a window of \(width)×\(height) pixels, outside the supported range"
        case .eventLoop(let reason):
            return "cannot set up the event loop: \(reason)"
        case .decorations(let reason):
            return "libdecor cannot decorate the window: \(reason)"
        }
    }
}
