// wl_touch: down/motion/up with several ids batched per frame by TouchFrameBuilder, and
// cancel, which ends the gesture without a fling. Touch points that go down on surfaces that are
// not the window's (libdecor's decorations) are not ours.
import CWaylandClient
import CWaylandProtocols
import Foundation
import ScrollKit

/// One `wl_touch`.
final class TouchDevice {
    private let proxy: OpaquePointer
    private let seatVersion: UInt32
    private let deliver: ([InputEvent]) -> Void
    private var builder = TouchFrameBuilder()
    /// The window's `wl_surface`, which a touch point must go down on to be ours.
    private let windowSurface: OpaquePointer
    /// Touch points down on other surfaces, skipped until their up (bounded as the builder's).
    private var foreignIDs: Set<Int32> = []

    init(proxy: OpaquePointer, seatVersion: UInt32, windowSurface: OpaquePointer, deliver: @escaping ([InputEvent]) -> Void) {
        self.proxy = proxy
        self.windowSurface = windowSurface
        self.seatVersion = seatVersion
        self.deliver = deliver
        wl_touch_add_listener(proxy, &TouchDevice.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Releases the device; fingers still down are cancelled for the scene.
    func remove(now: Double) -> [InputEvent] {
        // wl_touch.release exists from seat v3; older seats only destroy the proxy.
        if seatVersion >= 3 { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
        return builder.deviceRemoved(now: now)
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TouchDevice {
        Unmanaged<TouchDevice>.fromOpaque(data!).takeUnretainedValue()
    }

    // Every slot is filled: libwayland aborts on a NULL listener entry the bound version can send.
    nonisolated(unsafe) private static var listener = wl_touch_listener(
        down: { data, _, _, time, surface, id, x, y in
            guard let surface else { return }  // the surface was destroyed meanwhile
            let touch = TouchDevice.from(data)
            guard surface == touch.windowSurface else {
                if touch.foreignIDs.count < TouchFrameBuilder.maxTouchPoints { touch.foreignIDs.insert(id) }
                return
            }
            touch.builder.down(time: unwrapEventTime(time, source: .touch), id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        },
        up: { data, _, _, time, id in
            let touch = TouchDevice.from(data)
            guard touch.foreignIDs.remove(id) == nil else { return }
            touch.builder.up(time: unwrapEventTime(time, source: .touch), id: id)
        },
        motion: { data, _, time, id, x, y in
            let touch = TouchDevice.from(data)
            guard !touch.foreignIDs.contains(id) else { return }
            touch.builder.motion(time: unwrapEventTime(time, source: .touch), id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        },
        frame: { data, _ in
            let touch = TouchDevice.from(data)
            touch.deliver(touch.builder.frame())
        },
        cancel: { data, _ in
            let touch = TouchDevice.from(data)
            touch.foreignIDs.removeAll()
            touch.deliver(touch.builder.cancel(now: monotonicMilliseconds()))
        },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in })
}
