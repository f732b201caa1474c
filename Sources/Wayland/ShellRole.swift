// The seam between the surface that draws and what makes it a desktop window: the shell role
// (title, app id, fullscreen, configure and close), as one protocol and pure configuration
// values. xdg-shell plays it where the compositor draws decorations or none are wanted
// (XDGShellRole); libdecor, which creates the xdg_surface and xdg_toplevel itself and draws
// decorations, plays it elsewhere (LibdecorShellRole), without touching buffers or frames.

/// A size in surface points.
public struct SurfaceSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in points.
    public var width: Int
    /// Height in points.
    public var height: Int

    /// A `width`×`height`-point size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// "800×600".
    public var description: String { "\(width)×\(height)" }
}

/// The states a compositor configures a toplevel with (xdg_toplevel.state).
public struct ToplevelStates: OptionSet, Hashable, Sendable {
    /// Bit n set for state value n.
    public let rawValue: UInt32
    /// The states of the bits in `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Maximized: the size is what the compositor asks, exactly.
    public static let maximized = ToplevelStates(rawValue: 1 << 1)
    /// Fullscreen.
    public static let fullscreen = ToplevelStates(rawValue: 1 << 2)
    /// Being resized interactively.
    public static let resizing = ToplevelStates(rawValue: 1 << 3)
    /// Has the keyboard focus or is otherwise the user's current window.
    public static let activated = ToplevelStates(rawValue: 1 << 4)
    /// Tiled against the left edge: no shadow or rounded corner there (xdg_wm_base v2).
    public static let tiledLeft = ToplevelStates(rawValue: 1 << 5)
    /// Tiled against the right edge (xdg_wm_base v2).
    public static let tiledRight = ToplevelStates(rawValue: 1 << 6)
    /// Tiled against the top edge (xdg_wm_base v2).
    public static let tiledTop = ToplevelStates(rawValue: 1 << 7)
    /// Tiled against the bottom edge (xdg_wm_base v2).
    public static let tiledBottom = ToplevelStates(rawValue: 1 << 8)
    /// Tiled against any edge.
    public static let tiled: ToplevelStates = [.tiledLeft, .tiledRight, .tiledTop, .tiledBottom]

    /// Whether the window floats: neither maximised, fullscreen nor tiled, so its size is its
    /// own choice and a requested size is only a hint (xdg_toplevel.configure).
    public var isFloating: Bool { isDisjoint(with: [.maximized, .fullscreen, .tiled]) }

    /// The states of a configure's array (xdg_toplevel.state values 1…8); values this
    /// program does not know (later protocol versions add some) are left out.
    public init(protocolValues: [UInt32]) {
        self = []
        for value in protocolValues where (1...8).contains(value) { insert(ToplevelStates(rawValue: 1 << value)) }
    }
}

/// What the window manager offers for a toplevel (xdg_toplevel.wm_capabilities, xdg_wm_base v5).
public struct WindowManagerCapabilities: OptionSet, Hashable, Sendable {
    /// Bit n set for capability value n.
    public let rawValue: UInt32
    /// The capabilities of the bits in `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A window menu can be shown (xdg_toplevel.show_window_menu).
    public static let windowMenu = WindowManagerCapabilities(rawValue: 1 << 1)
    /// The window can be maximized.
    public static let maximize = WindowManagerCapabilities(rawValue: 1 << 2)
    /// The window can be made fullscreen.
    public static let fullscreen = WindowManagerCapabilities(rawValue: 1 << 3)
    /// The window can be minimized.
    public static let minimize = WindowManagerCapabilities(rawValue: 1 << 4)

    /// The capabilities of the event's array (values 1…4); unknown values are left out.
    public init(protocolValues: [UInt32]) {
        self = []
        for value in protocolValues where (1...4).contains(value) { insert(WindowManagerCapabilities(rawValue: 1 << value)) }
    }
}

/// What the compositor has configured a toplevel with, as plain values. The toplevel's events
/// update it; a configure sequence ends with `xdg_surface.configure`, when the role hands it on.
public struct ToplevelConfiguration: Hashable, Sendable {
    /// The size asked for, as on the wire: a side of 0 (or less) leaves that side to the window.
    public var requestedSize = SurfaceSize(width: 0, height: 0)
    /// The states asked for.
    public var states: ToplevelStates = []
    /// `configure_bounds` (xdg_wm_base v4): the largest size the window should take, such as
    /// the output's work area; nil when never sent or sent as unknown (0×0). Kept until changed.
    public var bounds: SurfaceSize?
    /// `wm_capabilities` (xdg_wm_base v5); nil when never sent, in which case the protocol
    /// says to assume every capability. Kept until changed.
    public var capabilities: WindowManagerCapabilities?

    /// Nothing configured yet.
    public init() {}

    /// Whether the window is to be fullscreen.
    public var isFullscreen: Bool { states.contains(.fullscreen) }

    /// `xdg_toplevel.configure`: the requested size and states.
    public mutating func configure(width: Int32, height: Int32, states values: [UInt32]) {
        requestedSize = SurfaceSize(width: Int(width), height: Int(height))
        states = ToplevelStates(protocolValues: values)
    }

    /// `xdg_toplevel.configure_bounds`: 0 (or a negative side) means unknown.
    public mutating func configureBounds(width: Int32, height: Int32) {
        bounds = width > 0 && height > 0 ? SurfaceSize(width: Int(width), height: Int(height)) : nil
    }

    /// `xdg_toplevel.wm_capabilities`.
    public mutating func wmCapabilities(_ values: [UInt32]) {
        capabilities = WindowManagerCapabilities(protocolValues: values)
    }

    /// The size a window of size `current` (0×0 before its first configure) takes for this
    /// configuration, side by side: the requested side when positive; otherwise the current
    /// side when there is one; otherwise `defaultSize`'s, fitted into `bounds` when the
    /// compositor sent them (a window must not open larger than its screen). A floating window
    /// (`ToplevelStates.isFloating`) is never smaller than `minimumSize` (itself fitted into the
    /// bounds): the compositor's size is only a hint there, and wlroots' `resize set` ignores
    /// xdg_toplevel.set_min_size. Maximised, fullscreen and tiled windows take what they are
    /// given, since a larger one would be cut off. At most `maxEdge` either way, so a hostile
    /// compositor cannot make it allocate gigabytes.
    public func windowSize(current: SurfaceSize, defaultSize: SurfaceSize,
                           minimumSize: SurfaceSize = SurfaceSize(width: 0, height: 0), maxEdge: Int) -> SurfaceSize {
        let floating = states.isFloating
        func side(_ requested: Int, _ current: Int, _ fallback: Int, _ minimum: Int, _ bound: Int?) -> Int {
            var size = requested > 0 ? requested : (current > 0 ? current : min(fallback, bound ?? fallback))
            if floating { size = max(size, min(minimum, bound ?? minimum)) }
            return min(size, maxEdge)
        }
        return SurfaceSize(width: side(requestedSize.width, current.width, defaultSize.width, minimumSize.width, bounds?.width),
                           height: side(requestedSize.height, current.height, defaultSize.height, minimumSize.height,
                                        bounds?.height))
    }
}

/// The sizes a window takes across its configures (pure): what `ToplevelConfiguration.windowSize`
/// gives, with the size it last had while floating kept. A compositor that ends fullscreen,
/// maximised or tiled with a 0×0 configure leaves the size to the window (weston does), and the
/// window goes back to its floating size then, not to the screen-sized one it had.
struct ToplevelSizing: Hashable, Sendable {
    /// The size before configure_bounds shape it, in points.
    let defaultSize: SurfaceSize
    /// The smallest size while floating, in points.
    let minimumSize: SurfaceSize
    /// The largest edge accepted, in points.
    let maxEdge: Int
    /// The size taken last (0×0 before the first configure).
    private(set) var current = SurfaceSize(width: 0, height: 0)
    /// The size taken last while floating (0×0 while never floating: the default then).
    private(set) var floating = SurfaceSize(width: 0, height: 0)

    init(defaultSize: SurfaceSize, minimumSize: SurfaceSize, maxEdge: Int) {
        self.defaultSize = defaultSize
        self.minimumSize = minimumSize
        self.maxEdge = maxEdge
    }

    /// The size for `configuration`, which becomes the current one.
    mutating func take(_ configuration: ToplevelConfiguration) -> SurfaceSize {
        let floats = configuration.states.isFloating
        current = configuration.windowSize(current: floats ? floating : current, defaultSize: defaultSize,
                                           minimumSize: minimumSize, maxEdge: maxEdge)
        if floats { floating = current }
        return current
    }
}

/// Who draws a window's title bar, borders and shadows.
public enum WindowDecorations: Hashable, Sendable {
    /// The compositor where it offers xdg-decoration (sway, KWin, cage), otherwise the window
    /// itself through libdecor and its plugin (GNOME's mutter, weston).
    case automatic
    /// The compositor's where offered, never libdecor's: for a window that is always fullscreen
    /// (a kiosk), where decorations never show and the plugin is not worth loading (measured: 46
    /// more libraries mapped, 7–12 MB and 20–40 ms at start).
    case serverSideOnly
}

/// Which shell role a window gets, decided after the registry roundtrip (pure).
enum ShellRoleKind: Hashable, Sendable {
    /// xdg-shell, asking for server-side decorations when `serverSideDecorations` (the
    /// compositor offers `zxdg_decoration_manager_v1`).
    case xdgShell(serverSideDecorations: Bool)
    /// libdecor: client-side decorations drawn by its plugin.
    case libdecor

    /// The role for `decorations` when the compositor does or does not offer xdg-decoration.
    /// libdecor would ask for server-side decorations by itself where they are offered, but only
    /// after loading its plugin: deciding here keeps the plugin out where it draws nothing.
    static func choose(_ decorations: WindowDecorations, decorationManagerOffered: Bool) -> ShellRoleKind {
        if decorationManagerOffered { return .xdgShell(serverSideDecorations: true) }
        return decorations == .automatic ? .libdecor : .xdgShell(serverSideDecorations: false)
    }
}

/// The shell role of a window's surface: what the compositor and the user see as a window.
/// The window owns one and draws; the role configures and is closed. Its objects are destroyed
/// with it and hold the surface they were made for, so the wl_surface outlives them.
protocol ShellRole: AnyObject {
    /// Runs when a configure sequence has been acknowledged, with the configuration as it
    /// stands. Returns the size in points the window takes, which a role that draws decorations
    /// around the surface (libdecor) must commit with; xdg-shell needs nothing back.
    var onConfigure: ((ToplevelConfiguration) -> SurfaceSize)? { get set }
    /// Runs when the user asks to close the window.
    var onClose: (() -> Void)? { get set }
    /// Runs when the decorations changed (a button lit under the pointer, a new title) and show
    /// only once the window's surface is committed: they are synchronised subsurfaces of it.
    var onNeedsCommit: (() -> Void)? { get set }
    /// Runs if the role fails for good (libdecor reports an error): the window ends with it.
    var onFailure: ((WaylandError) -> Void)? { get set }
    /// Who draws the decorations as far as the role knows: nil while the compositor has not
    /// answered, or when nobody does.
    var decorationMode: DecorationMode? { get }
    /// Sets the title shown in the title bar and task lists.
    func setTitle(_ title: String)
    /// Asks the compositor for fullscreen (true) or a normal window (false).
    func setFullscreen(_ on: Bool)
}
