// wl_registry: which globals the compositor offers, binding each one this program uses at
// min(advertised, supported), and following seats and outputs that come and go at runtime.
import CWaylandClient
import CWaylandProtocols

/// The globals this program binds, each at `min(advertised, supported)`.
public struct Globals {
    /// `wl_compositor` (needs v4 for `damage_buffer`).
    public internal(set) var compositor: OpaquePointer?
    /// `wl_shm`.
    public internal(set) var shm: OpaquePointer?
    /// `wl_subcompositor`, when offered (still frames' pictures, see `StillSurface`).
    public internal(set) var subcompositor: OpaquePointer?
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
    /// `zwp_idle_inhibit_manager_v1`, when offered.
    public internal(set) var idleInhibitManager: OpaquePointer?
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
        // A still frame's picture shown from its own memory over the window.
        GlobalRequirement(interface: "wl_subcompositor", minimum: 1, supported: 1, required: false),
        GlobalRequirement(interface: "xdg_wm_base", minimum: 1, supported: 5, required: true),
        GlobalRequirement(interface: "wl_seat", minimum: 1, supported: 8, required: false),
        GlobalRequirement(interface: "zxdg_decoration_manager_v1", minimum: 1, supported: 1, required: false),
        GlobalRequirement(interface: "wp_viewporter", minimum: 1, supported: 1, required: false),
        GlobalRequirement(interface: "wp_fractional_scale_manager_v1", minimum: 1, supported: 1, required: false),
        GlobalRequirement(interface: "zwp_pointer_gestures_v1", minimum: 1, supported: 3, required: false),
        // Keeping the screen on while a slideshow plays.
        GlobalRequirement(interface: "zwp_idle_inhibit_manager_v1", minimum: 1, supported: 1, required: false),
        // When frames reached the screen, for the --stats figures.
        GlobalRequirement(interface: "wp_presentation", minimum: 1, supported: 1, required: false),
        // Outputs for their scale (buffers and cursor images at HiDPI) and transform (buffers
        // drawn turned for a turned screen); v4 adds name/description.
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

/// The registry of one connection and what it bound.
final class Registry {
    private let proxy: OpaquePointer
    /// The bound globals.
    private(set) var globals = Globals()
    /// Required globals advertised at too old a version, in the order seen.
    private(set) var bindErrors: [WaylandError] = []
    /// Bound `wl_output`s by registry name.
    private(set) var outputs: [UInt32: Output] = [:]
    /// `wp_presentation`, when offered.
    private(set) var presentation: Presentation?
    /// The events of the bound seat, heard from its bind on (see `SeatEvents`).
    private(set) var seatEvents: SeatEvents?
    /// Called when a `wl_seat` global appears after start-up or the bound one is removed.
    var onSeatChange: (() -> Void)?
    /// Called when an output appears, goes or changes its scale or transform.
    var onOutputsChange: (() -> Void)?
    /// Receives one-line warnings about values from the compositor that were ignored or clamped.
    var warn: (String) -> Void = { _ in }

    /// Listens to the registry of `display` (`struct wl_display *`); globals arrive with the
    /// next roundtrip.
    init?(display: OpaquePointer) {
        guard let registry = wl_display_get_registry(display) else { return nil }
        proxy = registry
        wl_registry_add_listener(registry, &Registry.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The first required global that was not bound, nil when all were.
    var missingRequiredGlobal: String? {
        for requirement in GlobalRequirement.all where requirement.required {
            let bound: OpaquePointer?
            switch requirement.interface {
            case "wl_compositor": bound = globals.compositor
            case "wl_shm": bound = globals.shm
            default: bound = globals.wmBase
            }
            if bound == nil { return requirement.interface }
        }
        return nil
    }

    private func global(name: UInt32, interface: String, version: UInt32) {
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
            wl_registry_bind(proxy, name, iface, bindVersion).map(OpaquePointer.init)
        }
        switch interface {
        case "wl_compositor": globals.compositor = bind(sk_wl_compositor_interface())
        case "wl_shm": globals.shm = bind(sk_wl_shm_interface())
        case "wl_subcompositor": globals.subcompositor = bind(sk_wl_subcompositor_interface())
        case "xdg_wm_base":
            globals.wmBase = bind(sk_xdg_wm_base_interface())
            if let wmBase = globals.wmBase { WMBase.answerPings(wmBase) }
        case "wl_seat" where globals.seat == nil:
            if let seat = bind(sk_wl_seat_interface()) {
                globals.seat = (seat, name, bindVersion)
                seatEvents = SeatEvents(proxy: seat)
                onSeatChange?()
            }
        case "zxdg_decoration_manager_v1": globals.decorationManager = bind(sk_zxdg_decoration_manager_v1_interface())
        case "wp_viewporter": globals.viewporter = bind(sk_wp_viewporter_interface())
        case "wp_fractional_scale_manager_v1":
            globals.fractionalScaleManager = bind(sk_wp_fractional_scale_manager_v1_interface())
        case "zwp_idle_inhibit_manager_v1": globals.idleInhibitManager = bind(sk_zwp_idle_inhibit_manager_v1_interface())
        case "zwp_pointer_gestures_v1":
            if let g = bind(sk_zwp_pointer_gestures_v1_interface()) { globals.pointerGestures = (g, bindVersion) }
        case "wp_presentation":
            if let proxy = bind(sk_wp_presentation_interface()) { presentation = Presentation(proxy: proxy) }
        case "wl_output":
            if let output = bind(sk_wl_output_interface()) {
                outputs[name] = Output(proxy: output, version: bindVersion,
                                       warn: { [unowned self] in self.warn($0) },
                                       changed: { [unowned self] in self.onOutputsChange?() })
            }
        default: break
        }
    }

    private func globalRemoved(name: UInt32) {
        globals.advertised[name] = nil
        if let output = outputs.removeValue(forKey: name) {
            output.release()
            onOutputsChange?()
        }
        if let seat = globals.seat, seat.name == name {
            seatEvents = nil
            wl_seat_destroy(seat.proxy)
            globals.seat = nil
            onSeatChange?()
        }
    }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let data, let interface else { return }
            Unmanaged<Registry>.fromOpaque(data).takeUnretainedValue()
                .global(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { data, _, name in
            guard let data else { return }
            Unmanaged<Registry>.fromOpaque(data).takeUnretainedValue().globalRemoved(name: name)
        })
}
