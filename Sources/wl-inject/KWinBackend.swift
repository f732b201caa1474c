// The kwin route: org_kde_kwin_fake_input (KWin 5.27 offers v4), the only injection
// protocol here that reaches wl_touch.
import CWaylandClient
import CWaylandProtocols

/// Pointer, wheel, keys and touch through KWin's fake input device.
final class KWinInjector: Injector {
    let capabilities: Capabilities
    /// Held so the display outlives `fakeInput`, whose destructor sends a request on it.
    private let connection: Connection
    private let fakeInput: OpaquePointer

    /// Authenticates (KWin ignores requests from an unauthenticated client) and waits
    /// until KWin has handled it.
    init(connection: Connection, fakeInput: BoundGlobal) throws(ConnectionError) {
        self.connection = connection
        self.fakeInput = fakeInput.proxy
        capabilities = Capabilities(backend: .kwin, fakeInputVersion: fakeInput.version)
        org_kde_kwin_fake_input_authenticate(fakeInput.proxy, "wl-inject", "ScrollKit live tests inject input")
        try connection.roundtrip()
    }

    deinit {
        org_kde_kwin_fake_input_destroy(fakeInput)
    }

    /// KWin stamps fake events with its own clock on arrival, so `time` is unused; the
    /// runner's sleeps make those stamps realistic.
    func send(_ action: InputAction, time: UInt32) {
        switch action {
        case .pointerAbsolute(let p):
            org_kde_kwin_fake_input_pointer_motion_absolute(fakeInput, fixed(p.x), fixed(p.y))
        case let .pointerMotion(dx, dy):
            org_kde_kwin_fake_input_pointer_motion(fakeInput, fixed(dx), fixed(dy))
        case let .button(button, pressed):
            org_kde_kwin_fake_input_button(fakeInput, button.rawValue,
                                           pressed ? WL_POINTER_BUTTON_STATE_PRESSED.rawValue : WL_POINTER_BUTTON_STATE_RELEASED.rawValue)
        case let .wheel(axis, notches):
            // fake_input has no axis source or discrete steps: a plain axis of 15 units per notch.
            org_kde_kwin_fake_input_axis(fakeInput, axis.rawValue, fixed(15 * Double(notches)))
        case let .key(stroke, pressed):
            // keyboard_key takes evdev codes: xkb keycodes are offset by 8.
            org_kde_kwin_fake_input_keyboard_key(fakeInput, stroke.keycode - 8,
                                                 pressed ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
        case let .touchDown(id, p):
            org_kde_kwin_fake_input_touch_down(fakeInput, id, fixed(p.x), fixed(p.y))
        case let .touchMotion(id, p):
            org_kde_kwin_fake_input_touch_motion(fakeInput, id, fixed(p.x), fixed(p.y))
        case .touchUp(let id):
            org_kde_kwin_fake_input_touch_up(fakeInput, id)
        case .touchFrame:
            org_kde_kwin_fake_input_touch_frame(fakeInput)
        case .touchCancel:
            org_kde_kwin_fake_input_touch_cancel(fakeInput)
        case .pointerFrame, .finger, .fingerStop:
            // KWin frames every fake pointer event itself; finger scrolling is refused by the planner.
            break
        }
    }
}
