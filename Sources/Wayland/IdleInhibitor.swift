// zwp_idle_inhibitor_v1 (idle-inhibit-unstable-v1): while one exists for a surface the
// compositor shows, the screen is not blanked, dimmed or locked for want of input. The window
// holds one while the application asks for it (a slideshow playing, a finger down) and the
// surface is on an output; where the compositor lacks the protocol it says so once.
import CWaylandClient
import CWaylandProtocols

/// One `zwp_idle_inhibitor_v1`.
final class IdleInhibitor {
    private let proxy: OpaquePointer
    /// Kept so the wl_surface outlives its inhibitor.
    private let surface: Surface

    /// Asks `manager` (`zwp_idle_inhibit_manager_v1`) to keep the screen on while `surface` is
    /// shown; nil when the connection is broken.
    init?(manager: OpaquePointer, surface: Surface) {
        guard let inhibitor = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, surface.proxy) else { return nil }
        proxy = inhibitor
        self.surface = surface
    }

    /// Lets the screen blank again.
    deinit { zwp_idle_inhibitor_v1_destroy(proxy) }
}

/// Whether the window should hold an idle inhibitor, as a pure state machine.
struct IdleInhibition: Equatable {
    /// What to do after an update.
    enum Action: Equatable {
        /// Create the inhibitor.
        case inhibit
        /// Destroy it.
        case release
        /// Say, once, that the compositor cannot keep the screen on.
        case warnUnavailable
        /// Nothing changes.
        case none
    }

    /// Whether the compositor offers `zwp_idle_inhibit_manager_v1`.
    let available: Bool
    /// Whether an inhibitor exists now.
    private(set) var inhibiting = false
    private var warned = false

    /// A window on a compositor that offers the protocol (`available`) or not.
    init(available: Bool) { self.available = available }

    /// The application wants the screen on (`wanted`) or not, and the surface is `hidden` (on
    /// no output after having been on one) or not: the inhibitor exists exactly while both say
    /// so; a hidden window cannot keep a screen it is not on awake, and asks nothing of it.
    mutating func update(wanted: Bool, hidden: Bool) -> Action {
        let should = wanted && !hidden
        guard available else {
            guard should, !warned else { return .none }
            warned = true
            return .warnUnavailable
        }
        guard should != inhibiting else { return .none }
        inhibiting = should
        return should ? .inhibit : .release
    }

    /// The line printed where the compositor lacks the protocol.
    static let unavailableWarning = "the compositor does not offer zwp_idle_inhibit_manager_v1 (idle-inhibit-unstable-v1): "
        + "it may blank the screen during the slideshow"
}
