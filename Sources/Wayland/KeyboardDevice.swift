// wl_keyboard: the compositor's keymap into xkbcommon, keys and modifiers into key events by
// keysym name, and key repeat at the compositor's rate and delay from an event-loop timer.
import CWaylandClient
import CWaylandProtocols
import Foundation
import ScrollKit

/// One `wl_keyboard`.
final class KeyboardDevice {
    private let proxy: OpaquePointer
    private let seatVersion: UInt32
    /// Strong: device proxies must be released before the connection is closed.
    private let display: Display
    private let deliver: ([InputEvent]) -> Void
    /// Tells the seat the keyboard's modifiers whenever xkb's state changes them.
    private let modifiersChanged: (InputEvent.Modifiers) -> Void
    private let warn: (String) -> Void
    private var keymap: XKBKeymap?
    private var state = KeyboardState()
    private var focused = false
    private var repeatTimer: Int?

    init(proxy: OpaquePointer, seatVersion: UInt32, display: Display, deliver: @escaping ([InputEvent]) -> Void,
         modifiersChanged: @escaping (InputEvent.Modifiers) -> Void, warn: @escaping (String) -> Void) {
        self.modifiersChanged = modifiersChanged
        self.proxy = proxy
        self.seatVersion = seatVersion
        self.display = display
        self.deliver = deliver
        self.warn = warn
        wl_keyboard_add_listener(proxy, &KeyboardDevice.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Releases the device; held keys are released for the scene and repeat stops.
    func remove(now: Double) -> [InputEvent] {
        stopRepeat()
        // wl_keyboard.release exists from seat v3; older seats only destroy the proxy.
        if seatVersion >= 3 { wl_keyboard_release(proxy) } else { wl_keyboard_destroy(proxy) }
        return state.releaseAll(time: now)
    }

    fileprivate func keymap(format: UInt32, fd: Int32, size: UInt32) {
        do {
            keymap = try XKBKeymap(fd: fd, size: size, format: format)
        } catch {
            // Without a keymap no key can be named: keys are dropped until a usable one comes.
            keymap = nil
            warn(error.description)
        }
        state.modifiers = keymap?.modifiers ?? []
        modifiersChanged(state.modifiers)
    }

    fileprivate func enter() {
        // Keys already down when focus arrives get no press events (wl_keyboard.enter's
        // advice): they were pressed for another window.
        focused = true
    }

    fileprivate func leave() {
        focused = false
        stopRepeat()
        deliver(state.releaseAll(time: monotonicMilliseconds()))
    }

    fileprivate func key(time: UInt32, code: UInt32, keyState: UInt32) {
        guard focused else { return }
        // wl_keyboard.key_state: 0 released, 1 pressed (2, repeated, needs seat v10).
        guard keyState <= 1 else { return }
        let keymap = self.keymap
        let event = state.key(code: code, pressed: keyState == 1, time: unwrapEventTime(time, source: .keyboard)) { keymap?.describe($0) }
        if let event { deliver([event]) }
        scheduleRepeat()
    }

    fileprivate func modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let keymap else { return }
        keymap.updateModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        state.modifiers = keymap.modifiers
        modifiersChanged(state.modifiers)
    }

    fileprivate func repeatInfo(rate: Int32, delay: Int32) {
        state.keyRepeat.setInfo(rate: rate, delay: delay)
        scheduleRepeat()
    }

    private func scheduleRepeat() {
        if let repeatTimer { display.cancelTimer(repeatTimer) }
        repeatTimer = nil
        guard let deadline = state.keyRepeat.nextDeadline else { return }
        repeatTimer = display.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.repeatTimer = nil
            self.deliver(self.state.repeats(now: monotonicMilliseconds()))
            self.scheduleRepeat()
        }
    }

    private func stopRepeat() {
        state.keyRepeat.stop()
        if let repeatTimer { display.cancelTimer(repeatTimer) }
        repeatTimer = nil
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> KeyboardDevice {
        Unmanaged<KeyboardDevice>.fromOpaque(data!).takeUnretainedValue()
    }

    // Every slot is filled: libwayland aborts on a NULL listener entry the bound version can send.
    nonisolated(unsafe) private static var listener = wl_keyboard_listener(
        keymap: { data, _, format, fd, size in KeyboardDevice.from(data).keymap(format: format, fd: fd, size: size) },
        enter: { data, _, _, surface, _ in
            guard surface != nil else { return }
            KeyboardDevice.from(data).enter()
        },
        leave: { data, _, _, _ in KeyboardDevice.from(data).leave() },
        key: { data, _, _, time, key, state in KeyboardDevice.from(data).key(time: time, code: key, keyState: state) },
        modifiers: { data, _, _, depressed, latched, locked, group in
            KeyboardDevice.from(data).modifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        },
        repeat_info: { data, _, rate, delay in KeyboardDevice.from(data).repeatInfo(rate: rate, delay: delay) })
}
