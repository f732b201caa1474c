// Bad or hostile input from a compositor is survived: a keymap fd that cannot be mapped,
// touch ids that never went down, motion without enter, absurd axis values, and devices
// vanishing mid-drag. Each case checks what the scroll view (the user) ends up seeing.
import Foundation
import Glibc
import ScrollKit
import Testing
@testable import Wayland

@Suite("Hostile input")
struct HostileInputTests {
    // MARK: Keymaps

    @Test("A keymap fd that is not open is a one-line error naming the problem")
    func closedFD() {
        #expect(throws: KeymapError.badFile(size: 4096, reason: "Bad file descriptor")) {
            try XKBKeymap(fd: -1, size: 4096, format: 1)
        }
        #expect(KeymapError.badFile(size: 4096, reason: "Bad file descriptor").description
            == "wl_keyboard.keymap: the fd cannot hold 4096 bytes (Bad file descriptor); keyboard input is ignored")
    }

    @Test("A pipe is not a keymap file")
    func pipeFD() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[1]) }
        let file = FileIdentity(fds[0])
        #expect(throws: KeymapError.badFile(size: 100, reason: "not a regular file")) {
            try XKBKeymap(fd: fds[0], size: 100, format: 1)
        }
        #expect(file.isClosed, "the fd is closed even when it is refused")
    }

    @Test("A size larger than the file is refused before mapping (reading past the end would be SIGBUS)")
    func sizeBeyondFile() throws {
        let (fd, _) = try temporaryFile(Array("xkb_keymap {};".utf8))
        #expect(throws: KeymapError.badFile(size: 1 << 20, reason: "the file has only 14 bytes")) {
            try XKBKeymap(fd: fd, size: 1 << 20, format: 1)
        }
    }

    @Test("Zero and absurd sizes and unknown formats are refused up front")
    func badSizesAndFormats() throws {
        let (fd1, _) = try temporaryFile([1])
        #expect(throws: KeymapError.badSize(0)) { try XKBKeymap(fd: fd1, size: 0, format: 1) }
        let (fd2, _) = try temporaryFile([1])
        #expect(throws: KeymapError.badSize(.max)) { try XKBKeymap(fd: fd2, size: .max, format: 1) }
        let (fd3, _) = try temporaryFile([1])
        #expect(throws: KeymapError.unsupportedFormat(0)) { try XKBKeymap(fd: fd3, size: 1, format: 0) }
        #expect(KeymapError.badSize(0).description.hasPrefix("wl_keyboard.keymap: size 0 bytes"))
    }

    @Test("Text that is not a keymap fails to compile with a clear message")
    func garbageKeymap() throws {
        let (fd, size) = try temporaryFile(Array("this is not xkb \u{1}\u{2}".utf8) + [0])
        #expect(throws: KeymapError.compileFailed) { try XKBKeymap(fd: fd, size: size, format: 1) }
        let (empty, emptySize) = try temporaryFile([0, 0, 0])
        #expect(throws: KeymapError.compileFailed) { try XKBKeymap(fd: empty, size: emptySize, format: 1) }
    }

    @Test("Without a usable keymap keys are dropped, not guessed from raw codes")
    func keysWithoutKeymap() {
        var s = KeyboardState()
        let event = s.key(code: keyPageDown, pressed: true, time: 0) { _ in nil }
        #expect(event == nil)
        #expect(s.droppedEvents == 1)
        #expect(s.key(code: keyPageDown, pressed: false, time: 1) { _ in nil } == nil, "a release of a key never pressed")
    }

    // MARK: Touch

    @Test("Motion and up for touch ids that never went down are dropped; real fingers are unaffected")
    func touchIDsNeverDown() {
        let harness = ScrollHarness()
        var b = TouchFrameBuilder()
        b.motion(time: 990, id: 7, x: 200, y: 100)
        b.up(time: 995, id: 7)
        b.up(time: 995, id: -1)
        #expect(b.frame().isEmpty)
        #expect(b.droppedEvents == 3)
        var events = swipe(builder: &b)
        b.motion(time: 1200, id: 0, x: 0, y: 0)  // the finger already lifted
        events += b.frame()
        harness.deliver(events)
        harness.settle()
        #expect(harness.log.calls.first == "WillBeginDragging")
        #expect(harness.log.calls.last == "DidEndDecelerating")
        #expect(b.droppedEvents == 4)
    }

    @Test("A cancel with no finger down delivers nothing")
    func strayCancel() {
        var b = TouchFrameBuilder()
        #expect(b.cancel(now: 5).isEmpty)
    }

    // MARK: Pointer

    @Test("Motion, buttons and axis without enter move nothing")
    func motionWithoutEnter() {
        let harness = ScrollHarness()
        var b = PointerFrameBuilder()
        b.motion(time: 10, x: 200, y: 500)
        b.button(time: 11, code: 0x110, pressed: true)
        for step in 1...20 { b.motion(time: 11 + Double(step) * 8, x: 200, y: 500 - Double(step) * 20) }
        b.axisSource(1)
        b.axis(time: 200, axis: 0, value: 300)
        b.button(time: 210, code: 0x110, pressed: false)
        let events = b.frame()
        #expect(events.isEmpty)
        harness.deliver(events)
        harness.settle()
        #expect(harness.log.calls.isEmpty)
        #expect(harness.scrollView.contentOffset == .zero)
    }

    @Test("Absurd axis values are clamped, non-finite ones dropped, and the content stays in range")
    func absurdAxis() {
        var b = PointerFrameBuilder()
        b.enter(x: 200, y: 300, now: 0)
        b.axisSource(1)
        b.axis(time: 1, axis: 0, value: 1e12)
        b.axis(time: 1, axis: 1, value: .nan)
        b.axis(time: 1, axis: 7, value: 5)  // no such axis
        b.axisValue120(axis: 0, value120: .max)
        b.axisDiscrete(axis: 1, discrete: .min)
        let events = b.frame()
        #expect(events.last == InputEvent(time: 1, kind: .pointerAxis(source: .finger, dx: -15 * CGFloat(PointerFrameBuilder.maxValue120) / 120,
                                                                    dy: PointerFrameBuilder.maxAxisValue,
                                                                    value120X: -PointerFrameBuilder.maxValue120,
                                                                    value120Y: PointerFrameBuilder.maxValue120)))
        b.axisSource(1)
        b.axisStop(time: 2, axis: 0)
        let harness = ScrollHarness()
        harness.deliver(events + b.frame())
        harness.settle()
        let offset = harness.scrollView.contentOffset
        #expect(offset.y.isFinite && offset.x.isFinite)
        #expect(offset.y >= 0 && offset.y <= 2400.5, "ends inside the 2400 pt range after the rubber band, at \(offset.y)")
    }

    @Test("Absurd positions from wl_fixed's range are dropped")
    func absurdPositions() {
        var b = PointerFrameBuilder()
        b.enter(x: 8_000_000, y: 0, now: 0)
        #expect(!b.isFocused)
        b.enter(x: 1, y: 1, now: 0)
        b.motion(time: 1, x: -8_388_608, y: 10)
        #expect(b.frame().map(\.kind) == [.pointerEnter(location: CGPoint(x: 1, y: 1))])
    }

    @Test("Buttons pressed without end are bounded, and a second press of a held button is ignored")
    func buttonFlood() {
        var b = PointerFrameBuilder()
        b.enter(x: 0, y: 0, now: 0)
        for code in 0..<UInt32(1000) { b.button(time: 1, code: 0x200 + code, pressed: true) }
        #expect(b.heldButtons.count == PointerFrameBuilder.maxHeldButtons)
        var c = PointerFrameBuilder()
        c.enter(x: 0, y: 0, now: 0)
        c.button(time: 1, code: 0x110, pressed: true)
        c.button(time: 2, code: 0x110, pressed: true)
        #expect(c.frame().filter { if case .pointerButton = $0.kind { return true } else { return false } }.count == 1)
    }

    // MARK: Devices vanishing

    @Test("The pointer vanishing mid-drag ends the drag without a fling and leaves")
    func pointerVanishesMidDrag() {
        let harness = ScrollHarness()
        var b = PointerFrameBuilder()
        var events: [InputEvent] = []
        b.enter(x: 200, y: 500, now: 1000)
        b.button(time: 1000, code: 0x110, pressed: true)
        events += b.frame()
        for step in 1...12 {
            b.motion(time: 1000 + Double(step) * 8, x: 200, y: 500 - Double(step) * 15)
            events += b.frame()
        }
        b.motion(time: 1104, x: 200, y: 300)  // in the frame the device never finished
        let removal = b.deviceRemoved(now: 1105)
        #expect(removal.map(\.kind) == [.pointerMotion(location: CGPoint(x: 200, y: 300)), .touchCancel, .pointerLeave])
        harness.deliver(events + removal)
        let atRemoval = harness.scrollView.contentOffset.y
        harness.settle()
        #expect(harness.log.calls == ["WillBeginDragging", "DidScroll…", "WillEndDragging(still)", "DidEndDragging(false)"])
        #expect(abs(harness.scrollView.contentOffset.y - atRemoval) < 0.001)
        #expect(b.heldButtons.isEmpty && !b.isFocused)
    }

    @Test("The touchscreen vanishing mid-drag cancels the fingers")
    func touchVanishesMidDrag() {
        var b = TouchFrameBuilder()
        b.down(time: 0, id: 0, x: 10, y: 10)
        b.down(time: 0, id: 1, x: 50, y: 50)
        _ = b.frame()
        b.motion(time: 8, id: 0, x: 10, y: 20)
        let removal = b.deviceRemoved(now: 9)
        #expect(removal.map(\.kind) == [.touchMotion(id: 0, location: CGPoint(x: 10, y: 20)), .touchCancel])
        #expect(b.activeIDs.isEmpty)
    }

    @Test("The keyboard vanishing with keys held releases them and stops repeat")
    func keyboardVanishes() throws {
        let keymap = try usKeymap()
        var s = KeyboardState()
        _ = s.key(code: keyLeftCtrl, pressed: true, time: 0) { keymap.describe($0) }
        _ = s.key(code: keyDown, pressed: true, time: 5) { keymap.describe($0) }
        #expect(s.keyRepeat.nextDeadline != nil)
        let released = s.releaseAll(time: 10)
        #expect(released.map(\.kind) == [.key(Key(keysymName: "Control_L"), pressed: false),
                                         .key(Key(keysymName: "Down"), pressed: false)])
        #expect(s.keyRepeat.nextDeadline == nil)
    }

    @Test("Gestures running when the pointer vanishes are cancelled; stray updates and ends are dropped")
    func gestures() {
        var g = PointerGestureState()
        #expect(g.pinchUpdate(time: 0, dx: 1, dy: 1, scale: 2) == nil)
        #expect(g.pinchEnd(time: 0, cancelled: false) == nil)
        #expect(g.holdEnd(time: 0, cancelled: false) == nil)
        _ = g.pinchBegin(time: 1)
        let nan = g.pinchUpdate(time: 2, dx: .infinity, dy: .nan, scale: .nan)
        #expect(nan?.kind == .pinch(phase: .update, scale: 1, dx: 0, dy: 0))
        let huge = g.pinchUpdate(time: 3, dx: 1e9, dy: -1e9, scale: 1e9)
        #expect(huge?.kind == .pinch(phase: .update, scale: 1000, dx: PointerGestureState.maxPan, dy: -PointerGestureState.maxPan))
        _ = g.pinchUpdate(time: 4, dx: 0, dy: 0, scale: 0)
        #expect(g.scale == 1000, "a zero scale keeps the last good one")
        _ = g.holdBegin(time: 5)
        #expect(g.deviceRemoved(now: 6).map(\.kind) == [.pinch(phase: .cancel, scale: 1000, dx: 0, dy: 0), .hold(phase: .cancel)])
        #expect(g.droppedEvents == 3)
    }
}
