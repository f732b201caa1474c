// The wlr route (sway, other wlroots compositors): a zwlr_virtual_pointer_v1 and a
// zwp_virtual_keyboard_v1 carrying the injector's own us keymap.
import CWaylandClient
import CWaylandProtocols
import Glibc
import SafeOutput
import SystemPackage

/// Sends input actions as protocol requests of one backend.
protocol Injector: AnyObject {
    /// What the backend can send, for planning.
    var capabilities: Capabilities { get }
    /// Queues the requests for `action`; `time` is the event time in ms (CLOCK_MONOTONIC,
    /// truncated to 32 bits) for protocols that carry one.
    func send(_ action: InputAction, time: UInt32)
}

/// wl_fixed_t from pixels; callers have checked the value lies within ±2^23.
func fixed(_ value: Double) -> wl_fixed_t { wl_fixed_from_double(value) }

/// Virtual pointer and virtual keyboard devices on the compositor's default seat.
final class WlrInjector: Injector {
    let capabilities: Capabilities
    /// Held so the display outlives the devices: their destructors send requests on it, and
    /// optimised builds would otherwise end the connection's lifetime at its last use.
    private let connection: Connection
    private let pointer: OpaquePointer?
    private let keyboard: OpaquePointer?
    private let keymap: InjectorKeymap
    /// End every pointer command with `frame` (off with --manual-frames).
    private let autoFrame: Bool
    /// motion_absolute takes integers over an extent: scaling both by 256 keeps the
    /// sub-pixel part of fractional positions (the same 1/256 step as wl_fixed_t).
    private static let subpixel = 256.0

    /// Creates the devices the compositor offers and uploads the keymap.
    init(connection: Connection, keymap: InjectorKeymap, extent: Extent, autoFrame: Bool) throws(ConnectionError) {
        self.connection = connection
        self.keymap = keymap
        self.autoFrame = autoFrame
        pointer = connection.pointerManager.flatMap {
            zwlr_virtual_pointer_manager_v1_create_virtual_pointer($0.proxy, connection.seat)
        }
        keyboard = connection.keyboardManager.flatMap {
            zwp_virtual_keyboard_manager_v1_create_virtual_keyboard($0.proxy, connection.seat)
        }
        capabilities = Capabilities(backend: .wlr, hasVirtualPointer: pointer != nil,
                                    hasVirtualKeyboard: keyboard != nil, extent: extent)
        if let keyboard { try Self.upload(keymap.text(), to: keyboard) }
        // The devices exist (and clients see the new seat capabilities) once this returns.
        try connection.roundtrip()
    }

    deinit {
        if let pointer { zwlr_virtual_pointer_v1_destroy(pointer) }
        if let keyboard { zwp_virtual_keyboard_v1_destroy(keyboard) }
    }

    /// The virtual keyboard rejects keys until it has a keymap, passed as a sealed file.
    private static func upload(_ text: [UInt8], to keyboard: OpaquePointer) throws(ConnectionError) {
        let fd = sk_memfd_create("wl-inject-keymap")
        guard fd >= 0 else {
            throw ConnectionError(message: "memfd_create for the keymap failed: \(Errno.lastCall)")
        }
        let file = FileDescriptor(rawValue: fd)
        defer { try? file.close() }
        do {
            try file.writeAllWaiting(text)
        } catch {
            throw ConnectionError(message: "writing the keymap failed: \(error)")
        }
        // libwayland duplicates the descriptor while marshalling, so closing it afterwards is safe.
        zwp_virtual_keyboard_v1_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, fd, UInt32(text.count))
    }

    func send(_ action: InputAction, time: UInt32) {
        switch action {
        case .key(let stroke, let pressed):
            guard let keyboard else { return }
            // The virtual keyboard takes evdev codes: xkb keycodes are offset by 8.
            zwp_virtual_keyboard_v1_key(keyboard, time, stroke.keycode - 8,
                                        pressed ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
            // wlroots does not derive modifiers from a virtual keyboard's keys (update_state
            // is off for it): the client sees Control held only if we say so.
            if let mods = keymap.update(keycode: stroke.keycode, pressed: pressed) {
                zwp_virtual_keyboard_v1_modifiers(keyboard, mods.depressed, mods.latched, mods.locked, mods.group)
            }
            return
        case .touchDown, .touchMotion, .touchUp, .touchFrame, .touchCancel:
            return  // Rejected by the planner: wlroots has no touch injection.
        default:
            break
        }
        guard let pointer else { return }
        switch action {
        case .pointerAbsolute(let p):
            let extent = capabilities.extent
            zwlr_virtual_pointer_v1_motion_absolute(
                pointer, time,
                UInt32((p.x * Self.subpixel).rounded()), UInt32((p.y * Self.subpixel).rounded()),
                UInt32(Double(extent.width) * Self.subpixel), UInt32(Double(extent.height) * Self.subpixel))
        case let .pointerMotion(dx, dy):
            zwlr_virtual_pointer_v1_motion(pointer, time, fixed(dx), fixed(dy))
        case let .button(button, pressed):
            zwlr_virtual_pointer_v1_button(pointer, time, button.rawValue,
                                           pressed ? WL_POINTER_BUTTON_STATE_PRESSED.rawValue : WL_POINTER_BUTTON_STATE_RELEASED.rawValue)
        // wlroots 0.15 files axis_source under the axis of the *previous* axis request
        // (its `pointer->axis`), so the source must follow the axis it describes; sent
        // first, a vertical finger scroll after a horizontal wheel arrives as a wheel.
        case let .wheel(axis, notches):
            // 15 units per notch: what libinput reports for one wheel detent.
            zwlr_virtual_pointer_v1_axis_discrete(pointer, time, axis.rawValue, fixed(15 * Double(notches)), notches)
            zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_WHEEL.rawValue)
        case let .finger(axis, value):
            zwlr_virtual_pointer_v1_axis(pointer, time, axis.rawValue, fixed(value))
            zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_FINGER.rawValue)
        case .fingerStop(let axis):
            zwlr_virtual_pointer_v1_axis_stop(pointer, time, axis.rawValue)
            zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_FINGER.rawValue)
        case .pointerFrame:
            zwlr_virtual_pointer_v1_frame(pointer)
            return
        case .key, .touchDown, .touchMotion, .touchUp, .touchFrame, .touchCancel:
            return
        }
        // wlroots forwards nothing to clients until the frame: one command, one wl_pointer.frame.
        if autoFrame { zwlr_virtual_pointer_v1_frame(pointer) }
    }
}
