// wl_seat: follows capability changes at runtime, getting and releasing the pointer,
// keyboard and touch devices as they appear and vanish, and funnels their events to one sink.
// Its events are heard from the bind on (SeatEvents), before any Seat exists.
import CWaylandClient
import CWaylandProtocols
import Foundation
import ScrollKit

/// The input devices of one `wl_seat`, delivering `InputEvent`s to `onInput`.
public final class Seat {
    /// Receives every input frame (the events one device delivered at once), in surface
    /// points, each event with its own timestamp and stamped with the seat's state
    /// (`SeatState`: modifiers held, pointer position).
    public var onInput: (([InputEvent]) -> Void)?
    /// Receives one-line warnings (an unusable keymap…); input goes on without the device.
    public var onWarning: ((String) -> Void)?
    /// The cursor shown while the pointer is over the window.
    public var cursorShape: CursorShape = .arrow {
        didSet { if cursorShape != oldValue { pointer?.setCursor(cursorShape) } }
    }

    /// The bound seat version: v5 brings `wl_pointer.frame`, v8 `axis_value120`.
    public let version: UInt32
    private let proxy: OpaquePointer
    /// Strong: device proxies must be released before the connection is closed.
    private let display: Display
    private let cursorSettings: CursorSettings
    /// The seat's events; this seat follows them until it goes.
    private let events: SeatEvents
    /// The window's `wl_surface`: events over other surfaces (decorations) are not delivered.
    private let windowSurface: OpaquePointer
    private var cursorSurface: CursorSurface?
    private var pointer: PointerDevice?
    private var keyboard: KeyboardDevice?
    private var touch: TouchDevice?
    /// What every event is stamped with: the one place modifiers and pointer position are kept.
    private var state = SeatState()
    /// Frames read since the last `deliverQueued`.
    private var queued: [[InputEvent]] = []

    /// Whether a pointer, keyboard and touch device are present now.
    public var devices: (pointer: Bool, keyboard: Bool, touch: Bool) {
        (pointer != nil, keyboard != nil, touch != nil)
    }

    /// Whether the left pointer button is held on our surface (a pointer drag).
    public var isDraggingWithPointer: Bool { pointer?.builder.heldButtons.contains(0x110) ?? false }
    /// Where the pointer is on our surface in points, nil when it is elsewhere.
    public var pointerLocation: CGPoint? { state.pointerLocation }

    /// Follows `events` of `proxy` (bound at `version`) for the window whose surface is
    /// `windowSurface`, getting the devices it has now; cursors come from the theme `environment`
    /// names.
    init(proxy: OpaquePointer, version: UInt32, events: SeatEvents, display: Display, windowSurface: OpaquePointer,
         environment: [String: String]) {
        self.proxy = proxy
        self.windowSurface = windowSurface
        self.version = version
        self.display = display
        self.events = events
        self.cursorSettings = CursorSettings(environment: environment)
        events.onCapabilities = { [unowned self] in self.capabilities($0) }
        capabilities(events.capabilities)
    }

    deinit {
        // Nobody hears the devices' last words: the seat goes with its owner (the application
        // being torn down), which its handlers may point back to. A seat replaced at runtime
        // has `removeAllDevices` called first, while the scene still listens.
        onInput = nil
        onWarning = nil
        events.onCapabilities = nil
        // Explicitly, before the stored properties go: the display may be released first,
        // and every proxy must be destroyed while the connection is still open.
        removeAllDevices()
        cursorSurface = nil
    }

    /// Releases every device, delivering what their loss means (a drag cancelled, keys
    /// released). Called before the seat itself goes away.
    func removeAllDevices() {
        removePointer()
        removeKeyboard()
        removeTouch()
        deliverQueued()
    }

    /// The outputs' scale changed: cursors are redrawn at the new one.
    func outputScaleChanged() {
        pointer?.refreshCursor()
    }

    /// Queues one device frame, stamped with the seat's state as it was then; the frames read
    /// together go to `onInput` after the dispatch (`deliverQueued`).
    private func deliver(_ events: [InputEvent]) {
        guard !events.isEmpty else { return }
        queued.append(events.map { state.stamp($0) })
    }

    /// Hands the frames queued since the last call to `onInput`, in order, merged where only the
    /// last position or the sum counts (`InputCoalescing`): a burst read at once reaches the
    /// scene as a few events, so reading the socket stays cheap and it never fills.
    public func deliverQueued() {
        guard !queued.isEmpty else { return }
        let frames = InputCoalescing.coalesced(queued)
        queued.removeAll(keepingCapacity: true)
        for frame in frames { onInput?(frame) }
    }

    // Devices come and go (an injector connecting, a mouse unplugged): drop and re-get
    // each device object as the capabilities change, or the compositor stops sending events.
    private func capabilities(_ caps: UInt32) {
        let deliver: ([InputEvent]) -> Void = { [unowned self] in self.deliver($0) }
        if caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0 {
            if pointer == nil, let proxy = wl_seat_get_pointer(proxy) {
                if cursorSurface == nil { cursorSurface = CursorSurface(display: display, settings: cursorSettings) }
                let display = self.display
                pointer = PointerDevice(proxy: proxy, seatVersion: version, windowSurface: windowSurface,
                                  gestures: display.globals.pointerGestures,
                                  cursor: cursorSurface, cursorShape: cursorShape,
                                  cursorScale: { display.maxOutputScale }, deliver: deliver)
            }
        } else {
            removePointer()
        }
        if caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 {
            if keyboard == nil, let proxy = wl_seat_get_keyboard(proxy) {
                keyboard = KeyboardDevice(proxy: proxy, seatVersion: version, display: display, deliver: deliver,
                                    modifiersChanged: { [unowned self] in self.state.setModifiers($0) },
                                    warn: { [unowned self] in self.onWarning?($0) })
            }
        } else {
            removeKeyboard()
        }
        if caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0 {
            if touch == nil, let proxy = wl_seat_get_touch(proxy) {
                touch = TouchDevice(proxy: proxy, seatVersion: version, windowSurface: windowSurface, deliver: deliver)
            }
        } else {
            removeTouch()
        }
    }

    private func removePointer() {
        guard let device = pointer else { return }
        pointer = nil
        deliver(device.remove(now: monotonicMilliseconds()))
    }

    private func removeKeyboard() {
        guard let device = keyboard else { return }
        keyboard = nil
        deliver(device.remove(now: monotonicMilliseconds()))
    }

    private func removeTouch() {
        guard let device = touch else { return }
        touch = nil
        deliver(device.remove(now: monotonicMilliseconds()))
    }

}

/// The events of a bound `wl_seat`, listened to from its bind: its capabilities come with the
/// first roundtrip after it, which may be before the application has made its `Seat` (libdecor
/// waits for its plugin with roundtrips while the window is made).
final class SeatEvents {
    /// The latest `WL_SEAT_CAPABILITY_*` bits; 0 until the compositor sends them.
    private(set) var capabilities: UInt32 = 0
    /// Runs with each capabilities event.
    var onCapabilities: ((UInt32) -> Void)?

    /// Listens to `proxy`, a `wl_seat` just bound.
    init(proxy: OpaquePointer) {
        wl_seat_add_listener(proxy, &SeatEvents.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    private func received(_ caps: UInt32) {
        capabilities = caps
        onCapabilities?(caps)
    }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = wl_seat_listener(
        capabilities: { data, _, caps in Unmanaged<SeatEvents>.fromOpaque(data!).takeUnretainedValue().received(caps) },
        name: { _, _, _ in })
}
