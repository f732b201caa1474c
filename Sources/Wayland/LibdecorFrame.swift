// libdecor_frame: libdecor's window around our wl_surface. It makes the xdg_surface and
// xdg_toplevel itself (once its plugin is ready), draws the title bar, buttons, borders and
// shadows as subsurfaces, and hands each configure over, which is acknowledged here.
import CLibdecor
import CWaylandClient

/// One `struct libdecor_frame` decorating a surface.
final class LibdecorFrame {
    /// `struct libdecor_frame *`; nil only while `init` runs.
    private var proxy: OpaquePointer?
    /// Kept so the context outlives its frame.
    private let context: LibdecorContext
    /// Kept so the wl_surface outlives the frame's xdg objects.
    private let surface: Surface
    /// The configuration as the latest configure set it: libdecor binds xdg_wm_base at version
    /// 2, so its bounds and capabilities stay unknown (nil).
    private(set) var configuration = ToplevelConfiguration()
    /// Runs with each configure; returns the size in points the window takes, which is
    /// committed with the decorations around it.
    var onConfigure: ((ToplevelConfiguration) -> SurfaceSize)?
    /// Runs when the user closes the window (the close button, or the compositor).
    var onClose: (() -> Void)?
    /// Runs when the decorations changed and our surface must be committed for them to show.
    var onNeedsCommit: (() -> Void)?

    /// Decorates `surface` with `context`; nil when libdecor refuses (it has failed already).
    init?(context: LibdecorContext, surface: Surface) {
        self.context = context
        self.surface = surface
        guard let frame = libdecor_decorate(context.proxy, surface.proxy, &LibdecorFrame.interface,
                                            Unmanaged.passUnretained(self).toOpaque()) else { return nil }
        proxy = frame
    }

    /// Releases the frame (its xdg_toplevel, xdg_surface and decoration surfaces), unless
    /// libdecor has failed, which frees the plugin the release would call.
    deinit {
        if let proxy, context.error == nil { libdecor_frame_unref(proxy) }
    }

    /// Whether libdecor has made the xdg_surface and xdg_toplevel (after its plugin is ready);
    /// requests that go to the toplevel need it.
    var hasToplevel: Bool { proxy.map { libdecor_frame_get_xdg_toplevel($0) != nil } ?? false }

    /// The title shown in the title bar (redrawn at once) and in task lists.
    func setTitle(_ title: String) {
        guard let proxy else { return }
        libdecor_frame_set_title(proxy, title)
    }

    /// The application id, which desktop files and window rules match.
    func setAppID(_ appID: String) {
        guard let proxy else { return }
        libdecor_frame_set_app_id(proxy, appID)
    }

    /// The smallest content (our surface, without decorations) in points; libdecor adds the
    /// decorations for xdg_toplevel.set_min_size and keeps configured sizes above it.
    func setMinimumContentSize(_ size: SurfaceSize) {
        guard let proxy else { return }
        libdecor_frame_set_min_content_size(proxy, Int32(clamping: size.width), Int32(clamping: size.height))
    }

    /// Asks for fullscreen on the output the compositor picks (libdecor hides the decorations
    /// there), or for a normal window. Ignored before the toplevel exists: libdecor 0.1.1 would
    /// send it on a null toplevel.
    func setFullscreen(_ on: Bool) {
        guard let proxy, hasToplevel else { return }
        if on { libdecor_frame_set_fullscreen(proxy, nil) } else { libdecor_frame_unset_fullscreen(proxy) }
    }

    /// Commits the surface's first state, which asks for the first configure (now, or as soon as
    /// libdecor has made the toplevel).
    func map() {
        guard let proxy else { return }
        libdecor_frame_map(proxy)
    }

    /// The states of a `libdecor_window_state` bit set (libdecor.h: active 1, maximised 2,
    /// fullscreen 4, tiled left 8, right 16, top 32, bottom 64); bits of later versions are left out.
    static func states(windowState bits: UInt32) -> ToplevelStates {
        let table: [(UInt32, ToplevelStates)] = [
            (LIBDECOR_WINDOW_STATE_ACTIVE.rawValue, .activated), (LIBDECOR_WINDOW_STATE_MAXIMIZED.rawValue, .maximized),
            (LIBDECOR_WINDOW_STATE_FULLSCREEN.rawValue, .fullscreen),
            (LIBDECOR_WINDOW_STATE_TILED_LEFT.rawValue, .tiledLeft), (LIBDECOR_WINDOW_STATE_TILED_RIGHT.rawValue, .tiledRight),
            (LIBDECOR_WINDOW_STATE_TILED_TOP.rawValue, .tiledTop), (LIBDECOR_WINDOW_STATE_TILED_BOTTOM.rawValue, .tiledBottom),
        ]
        return table.reduce(into: []) { states, entry in
            if bits & entry.0 != 0 { states.insert(entry.1) }
        }
    }

    /// A configure: its content size (libdecor has taken the decorations off and, for a floating
    /// window, applied the minimum) and states, handed to `onConfigure`; then the size taken is
    /// committed, which acknowledges the configure and draws the decorations around it (shown
    /// with our next commit).
    private func configure(_ libdecorConfiguration: OpaquePointer) {
        guard let proxy else { return }
        var width: Int32 = 0, height: Int32 = 0
        if libdecor_configuration_get_content_size(libdecorConfiguration, proxy, &width, &height) {
            configuration.requestedSize = SurfaceSize(width: Int(width), height: Int(height))
        } else {
            configuration.requestedSize = SurfaceSize(width: 0, height: 0)  // the window decides
        }
        var windowState = LIBDECOR_WINDOW_STATE_NONE
        if libdecor_configuration_get_window_state(libdecorConfiguration, &windowState) {
            configuration.states = Self.states(windowState: windowState.rawValue)
        }
        let size = onConfigure?(configuration) ?? configuration.requestedSize
        guard let state = libdecor_state_new(Int32(clamping: max(size.width, 1)), Int32(clamping: max(size.height, 1))) else { return }
        libdecor_frame_commit(proxy, state, libdecorConfiguration)
        libdecor_state_free(state)
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> LibdecorFrame {
        Unmanaged<LibdecorFrame>.fromOpaque(data!).takeUnretainedValue()
    }

    // Every slot libdecor 0.1.1 calls is filled; the reserved ones it never calls.
    // Static storage: libdecor keeps the pointer for the frame's life.
    nonisolated(unsafe) private static var interface = libdecor_frame_interface(
        configure: { _, configuration, data in
            guard let configuration else { return }
            LibdecorFrame.from(data).configure(configuration)
        },
        close: { _, data in LibdecorFrame.from(data).onClose?() },
        commit: { _, data in LibdecorFrame.from(data).onNeedsCommit?() },
        dismiss_popup: { _, _, _ in },  // no popups
        reserved0: nil, reserved1: nil, reserved2: nil, reserved3: nil, reserved4: nil,
        reserved5: nil, reserved6: nil, reserved7: nil, reserved8: nil, reserved9: nil)
}
