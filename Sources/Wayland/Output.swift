// wl_output: one screen the compositor shows surfaces on. Its scale (for the scale buffers and
// cursors are drawn at), its transform (how buffers are turned for it) and its current mode (its
// size, what a window on it can grow to; its refresh, when frames are drawn ahead for) are used,
// each checked before it is believed.
import CWaylandClient
import CWaylandProtocols
import Raster

/// One bound `wl_output`.
final class Output {
    /// What the window uses of an output's current mode (`wl_output.mode` with the current flag).
    struct Mode {
        /// The size in the output's pixels; nil until the compositor sends one, or when it sent
        /// a size outside 1…`Window.maxEdge`.
        var size: (width: Int, height: Int)?
        /// The refresh rate in mHz; nil until the compositor sends one, or when it sent 0 (as
        /// virtual outputs may) or a rate outside `SurfacePlacement.refreshRange`.
        var refresh: Int?
    }

    /// `struct wl_output *`, as `wl_surface.enter` names it.
    let proxy: OpaquePointer
    /// The bound version: `release` exists from v3.
    let version: UInt32
    /// The checked integer scale (1 until the compositor sends one).
    private(set) var scale = 1
    /// The checked transform (upright until the compositor sends one): how the screen is
    /// turned, and so how buffers shown on it are best drawn.
    private(set) var transform = FrameTransform.normal
    /// The current mode, each part checked; kept in one place since one event says both.
    private(set) var mode = Mode()
    private let warn: (String) -> Void
    private let changed: () -> Void

    /// Listens to `proxy`; `changed` runs after each change of scale, transform or refresh, `warn` gets
    /// one-line warnings about values that were ignored or clamped.
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

    private func geometryEvent(transform raw: Int32) {
        let checked = FrameTransform.checked(outputTransform: raw)
        if let warning = checked.warning { warn(warning) }
        // The geometry event is sent again with every change (and at bind): only a new
        // transform matters here.
        guard let value = checked.transform, value != transform else { return }
        transform = value
        changed()
    }

    /// A mode the output offers; only the current one (`WL_OUTPUT_MODE_CURRENT`) is kept. A new
    /// refresh is a change (frames drawn ahead are timed by it); a new size is not: it tells the
    /// size of the screen, nothing about buffers.
    private func modeEvent(flags: UInt32, width: Int32, height: Int32, refresh raw: Int32) {
        guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
        let edges = 1...Int32(Window.maxEdge)
        mode.size = edges.contains(width) && edges.contains(height) ? (Int(width), Int(height)) : nil
        let checked = SurfacePlacement.checked(refresh: raw)
        if let warning = checked.warning { warn(warning) }
        guard checked.refresh != mode.refresh else { return }
        mode.refresh = checked.refresh
        changed()
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> Output? {
        data.map { Unmanaged<Output>.fromOpaque($0).takeUnretainedValue() }
    }

    // Every slot is filled: libwayland aborts on a NULL entry the bound version can send.
    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = wl_output_listener(
        geometry: { data, _, _, _, _, _, _, _, _, transform in
            Output.from(data)?.geometryEvent(transform: transform)
        },
        mode: { data, _, flags, width, height, refresh in
            Output.from(data)?.modeEvent(flags: flags, width: width, height: height, refresh: refresh)
        },
        done: { _, _ in },
        scale: { data, _, factor in Output.from(data)?.scaleEvent(factor) },
        name: { _, _, _ in },
        description: { _, _, _ in })
}
