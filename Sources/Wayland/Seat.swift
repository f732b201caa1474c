// wl_seat and the wl_pointer it hands out: follows capability changes and turns pointer
// events, batched per frame, into InputEvents for the window's scene.
import CWaylandClient
import CWaylandProtocols
import Foundation
import ScrollKit

/// The input devices of one `wl_seat`, delivering `InputEvent`s to `onInput`.
public final class Seat {
    /// Receives every input event, in surface points.
    public var onInput: ((InputEvent) -> Void)?
    private let proxy: OpaquePointer
    private let version: UInt32
    private var pointer: OpaquePointer?
    private var pointerFrame = PointerFrameBuilder()

    /// Listens to `seat` (bound at `version`).
    init(proxy: OpaquePointer, version: UInt32) {
        self.proxy = proxy
        self.version = version
        wl_seat_add_listener(proxy, &Seat.seatListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        releasePointer()
    }

    // Devices come and go (an injector connecting, a mouse unplugged): drop and re-get
    // each device object as the capabilities change, or the compositor stops sending events.
    fileprivate func capabilities(_ caps: UInt32) {
        let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        if hasPointer && pointer == nil {
            pointer = wl_seat_get_pointer(proxy)
            wl_pointer_add_listener(pointer, &Seat.pointerListener, Unmanaged.passUnretained(self).toOpaque())
        } else if !hasPointer {
            releasePointer()
        }
    }

    private func releasePointer() {
        guard let p = pointer else { return }
        // A drag in progress ends as if the pointer left.
        pointerFrame.leave(now: monotonicMilliseconds())
        flushPointer()
        if version >= 3 { wl_pointer_release(p) } else { wl_pointer_destroy(p) }
        pointer = nil
    }

    fileprivate func pointerEvent(_ update: (inout PointerFrameBuilder) -> Void) {
        update(&pointerFrame)
        // Before v5 there is no wl_pointer.frame: every event is a frame of its own.
        if version < 5 { flushPointer() }
    }

    fileprivate func flushPointer() {
        for event in pointerFrame.frame() { onInput?(event) }
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> Seat {
        Unmanaged<Seat>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static var seatListener = wl_seat_listener(
        capabilities: { data, _, caps in Seat.from(data).capabilities(caps) },
        name: { _, _, _ in })

    // Every slot is filled: libwayland aborts on a NULL listener entry the bound version can send.
    nonisolated(unsafe) private static var pointerListener = wl_pointer_listener(
        enter: { data, _, _, _, x, y in
            Seat.from(data).pointerEvent {
                $0.enter(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y), now: monotonicMilliseconds())
            }
        },
        leave: { data, _, _, _ in Seat.from(data).pointerEvent { $0.leave(now: monotonicMilliseconds()) } },
        motion: { data, _, time, x, y in
            Seat.from(data).pointerEvent {
                $0.motion(time: unwrapEventTime(time), x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
            }
        },
        button: { data, _, _, time, button, state in
            Seat.from(data).pointerEvent {
                $0.button(time: unwrapEventTime(time), code: button,
                          pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
            }
        },
        axis: { data, _, time, axis, value in
            Seat.from(data).pointerEvent {
                $0.axis(time: unwrapEventTime(time), axis: axis, value: wl_fixed_to_double(value))
            }
        },
        frame: { data, _ in Seat.from(data).flushPointer() },
        axis_source: { data, _, source in Seat.from(data).pointerFrame.axisSource(source) },
        axis_stop: { data, _, time, axis in
            Seat.from(data).pointerEvent { $0.axisStop(time: unwrapEventTime(time), axis: axis) }
        },
        axis_discrete: { data, _, axis, discrete in
            Seat.from(data).pointerFrame.axisDiscrete(axis: axis, discrete: discrete)
        },
        axis_value120: { data, _, axis, value in
            Seat.from(data).pointerFrame.axisValue120(axis: axis, value120: value)
        })
}
