// xdg_wm_base: the xdg-shell global. Its one event is the compositor's ping, answered at once
// so the window is never shown as unresponsive.
import CWaylandClient
import CWaylandProtocols

/// The listener of the bound `xdg_wm_base`.
enum WMBase {
    /// Answers every `ping` on `proxy` with `pong`.
    static func answerPings(_ proxy: OpaquePointer) {
        xdg_wm_base_add_listener(proxy, &listener, nil)
    }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = xdg_wm_base_listener(
        ping: { _, wmBase, serial in xdg_wm_base_pong(wmBase, serial) })
}
