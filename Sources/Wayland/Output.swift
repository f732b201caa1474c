// wl_output: one screen the compositor shows surfaces on. Only its scale is used (for the
// scale buffers and cursors are drawn at), checked before it is believed.
import CWaylandClient
import CWaylandProtocols

/// One bound `wl_output`.
final class Output {
    /// `struct wl_output *`, as `wl_surface.enter` names it.
    let proxy: OpaquePointer
    /// The bound version: `release` exists from v3.
    let version: UInt32
    /// The checked integer scale (1 until the compositor sends one).
    private(set) var scale = 1
    private let warn: (String) -> Void
    private let changed: () -> Void

    /// Listens to `proxy`; `changed` runs after each scale change, `warn` gets one-line
    /// warnings about scales that were ignored or clamped.
    init(proxy: OpaquePointer, version: UInt32, warn: @escaping (String) -> Void, changed: @escaping () -> Void) {
        self.proxy = proxy
        self.version = version
        self.warn = warn
        self.changed = changed
        wl_output_add_listener(proxy, &Output.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Gives the proxy up (the global went away). Not in `deinit`: at exit the connection may
    /// be closed first, and then it frees every proxy itself.
    func release() {
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    private func scaleEvent(_ factor: Int32) {
        let checked = ScaleLimits.outputScale(factor)
        if let warning = checked.warning { warn(warning) }
        scale = checked.scale
        changed()
    }

    // Every slot is filled: libwayland aborts on a NULL entry the bound version can send.
    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { _, _ in },
        scale: { data, _, factor in
            guard let data else { return }
            Unmanaged<Output>.fromOpaque(data).takeUnretainedValue().scaleEvent(factor)
        },
        name: { _, _, _ in },
        description: { _, _, _ in })
}
