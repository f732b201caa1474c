// wl_pointer and its touchpad gestures (zwp_pointer_gestures_v1 pinch and hold): events
// batched per frame by PointerFrameBuilder, gestures by PointerGestureState, and the cursor.
// Events over surfaces that are not the window's (libdecor's title bar and borders, which have
// a pointer of their own) are left to their owner.
import CWaylandClient
import CWaylandProtocols
import Foundation
import ScrollKit

/// One `wl_pointer` with its pinch and hold gesture objects.
final class PointerDevice {
    private let proxy: OpaquePointer
    private let seatVersion: UInt32
    private var pinch: OpaquePointer?
    private var hold: OpaquePointer?
    private let cursor: CursorSurface?
    private let cursorScale: () -> Int
    private let deliver: ([InputEvent]) -> Void
    /// The window's `wl_surface`: enter and leave name a surface, and motion, buttons and axes
    /// go to the one entered last.
    private let windowSurface: OpaquePointer
    /// Whether the pointer is over one of our other surfaces (decorations) rather than the
    /// window's: its motion, buttons, axes and gestures are not ours.
    private var overForeignSurface = false
    private(set) var builder = PointerFrameBuilder()
    private var gestures = PointerGestureState()
    private var cursorShape: CursorShape
    /// The serial of the latest `enter`, which `set_cursor` must quote; nil while outside.
    private var enterSerial: UInt32?

    init(proxy: OpaquePointer, seatVersion: UInt32, windowSurface: OpaquePointer, gestures: (proxy: OpaquePointer, version: UInt32)?,
         cursor: CursorSurface?, cursorShape: CursorShape, cursorScale: @escaping () -> Int,
         deliver: @escaping ([InputEvent]) -> Void) {
        self.proxy = proxy
        self.windowSurface = windowSurface
        self.seatVersion = seatVersion
        self.cursor = cursor
        self.cursorShape = cursorShape
        self.cursorScale = cursorScale
        self.deliver = deliver
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_pointer_add_listener(proxy, &PointerDevice.listener, me)
        if let gestures {
            pinch = zwp_pointer_gestures_v1_get_pinch_gesture(gestures.proxy, proxy)
            if let pinch { zwp_pointer_gesture_pinch_v1_add_listener(pinch, &PointerDevice.pinchListener, me) }
            // Hold gestures exist from zwp_pointer_gestures_v1 version 3.
            if gestures.version >= 3 {
                hold = zwp_pointer_gestures_v1_get_hold_gesture(gestures.proxy, proxy)
                if let hold { zwp_pointer_gesture_hold_v1_add_listener(hold, &PointerDevice.holdListener, me) }
            }
        }
    }

    /// Releases the device; returns what its loss means for the scene (see
    /// `PointerFrameBuilder.deviceRemoved` and `PointerGestureState.deviceRemoved`).
    func remove(now: Double) -> [InputEvent] {
        let events = gestures.deviceRemoved(now: now) + builder.deviceRemoved(now: now)
        if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
        if let hold { zwp_pointer_gesture_hold_v1_destroy(hold) }
        pinch = nil
        hold = nil
        // wl_pointer.release exists from seat v3; older seats only destroy the proxy.
        if seatVersion >= 3 { wl_pointer_release(proxy) } else { wl_pointer_destroy(proxy) }
        return events
    }

    /// Shows `shape` from now on (at once if the pointer is over the window).
    func setCursor(_ shape: CursorShape) {
        cursorShape = shape
        refreshCursor()
    }

    /// Redraws the cursor (after an enter, a shape or an output scale change).
    func refreshCursor() {
        guard let serial = enterSerial, let cursor else { return }
        if !cursor.show(cursorShape, pointer: proxy, serial: serial, scale: cursorScale()), cursorShape != .arrow {
            // A theme without hands still shows its arrow rather than the compositor's last image.
            cursor.show(.arrow, pointer: proxy, serial: serial, scale: cursorScale())
        }
    }

    private func update(_ change: (inout PointerFrameBuilder) -> Void) {
        guard !overForeignSurface else { return }
        change(&builder)
        // Before seat v5 there is no wl_pointer.frame: every event is a frame of its own.
        if seatVersion < 5 { flush() }
    }

    private func flush() {
        deliver(builder.frame())
    }

    fileprivate func enter(serial: UInt32, surface: OpaquePointer?, x: Int32, y: Int32) {
        guard let surface else { return }  // the surface was destroyed meanwhile
        // Over a decoration libdecor shows its own cursor and handles the events.
        overForeignSurface = surface != windowSurface
        guard !overForeignSurface else { return }
        enterSerial = serial
        update { $0.enter(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y), now: monotonicMilliseconds()) }
        refreshCursor()
    }

    fileprivate func leave(surface: OpaquePointer?) {
        if let surface, surface != windowSurface {
            overForeignSurface = false
            return
        }
        enterSerial = nil
        update { $0.leave(now: monotonicMilliseconds()) }
    }

    fileprivate func gesture(_ change: (inout PointerGestureState) -> [InputEvent]) {
        guard !overForeignSurface else { return }
        // Gesture events arrive outside wl_pointer.frame; whatever the pointer batched
        // before them happened first.
        flush()
        deliver(change(&gestures))
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> PointerDevice {
        Unmanaged<PointerDevice>.fromOpaque(data!).takeUnretainedValue()
    }

    // MARK: Listeners (static storage: they must outlive every proxy pointing at them)

    // Every slot is filled: libwayland aborts on a NULL listener entry the bound version can send.
    nonisolated(unsafe) private static var listener = wl_pointer_listener(
        enter: { data, _, serial, surface, x, y in PointerDevice.from(data).enter(serial: serial, surface: surface, x: x, y: y) },
        leave: { data, _, _, surface in PointerDevice.from(data).leave(surface: surface) },
        motion: { data, _, time, x, y in
            PointerDevice.from(data).update {
                $0.motion(time: unwrapEventTime(time, source: .pointer), x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
            }
        },
        button: { data, _, _, time, button, state in
            PointerDevice.from(data).update {
                $0.button(time: unwrapEventTime(time, source: .pointer), code: button,
                          pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
            }
        },
        axis: { data, _, time, axis, value in
            PointerDevice.from(data).update {
                $0.axis(time: unwrapEventTime(time, source: .pointer), axis: axis, value: wl_fixed_to_double(value))
            }
        },
        frame: { data, _ in PointerDevice.from(data).flush() },
        axis_source: { data, _, source in PointerDevice.from(data).update { $0.axisSource(source) } },
        axis_stop: { data, _, time, axis in
            PointerDevice.from(data).update { $0.axisStop(time: unwrapEventTime(time, source: .pointer), axis: axis) }
        },
        axis_discrete: { data, _, axis, discrete in
            PointerDevice.from(data).update { $0.axisDiscrete(axis: axis, discrete: discrete) }
        },
        axis_value120: { data, _, axis, value in
            PointerDevice.from(data).update { $0.axisValue120(axis: axis, value120: value) }
        })

    nonisolated(unsafe) private static var pinchListener = zwp_pointer_gesture_pinch_v1_listener(
        begin: { data, _, _, time, _, _ in
            PointerDevice.from(data).gesture { $0.pinchBegin(time: unwrapEventTime(time, source: .gesture)) }
        },
        update: { data, _, time, dx, dy, scale, _ in
            PointerDevice.from(data).gesture {
                $0.pinchUpdate(time: unwrapEventTime(time, source: .gesture), dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy),
                               scale: wl_fixed_to_double(scale)).map { [$0] } ?? []
            }
        },
        end: { data, _, _, time, cancelled in
            PointerDevice.from(data).gesture { $0.pinchEnd(time: unwrapEventTime(time, source: .gesture), cancelled: cancelled != 0).map { [$0] } ?? [] }
        })

    nonisolated(unsafe) private static var holdListener = zwp_pointer_gesture_hold_v1_listener(
        begin: { data, _, _, time, _, _ in
            PointerDevice.from(data).gesture { $0.holdBegin(time: unwrapEventTime(time, source: .gesture)).map { [$0] } ?? [] }
        },
        end: { data, _, _, time, cancelled in
            PointerDevice.from(data).gesture { $0.holdEnd(time: unwrapEventTime(time, source: .gesture), cancelled: cancelled != 0).map { [$0] } ?? [] }
        })
}
