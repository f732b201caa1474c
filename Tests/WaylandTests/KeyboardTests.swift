// The keyboard without a compositor: real xkb keymaps compiled from text as a compositor
// sends them, keysym names and modifiers, and key repeat timing to the millisecond.
import Foundation
import Glibc
import ScrollKit
import Testing
@testable import Wayland

// linux/input-event-codes.h key codes (evdev), as wl_keyboard.key carries them.
let keyA: UInt32 = 30, keyLeftCtrl: UInt32 = 29, keyLeftShift: UInt32 = 42, keySpace: UInt32 = 57
let keyHome: UInt32 = 102, keyPageDown: UInt32 = 109, keyDown: UInt32 = 108

/// xkb's fixed real-modifier bits, as wl_keyboard.modifiers serialises them.
let shiftMask: UInt32 = 1 << 0, controlMask: UInt32 = 1 << 2, mod1Mask: UInt32 = 1 << 3, mod4Mask: UInt32 = 1 << 6

/// The US keymap as a compositor would send it (the system's xkb data compiles it).
func usKeymap() throws -> XKBKeymap {
    let text = try #require(XKBKeymap.text(layout: "us"), "xkeyboard-config data is needed (apt: xkb-data)")
    return try XKBKeymap(string: text)
}

@Suite("Keymaps")
struct KeymapTests {
    @Test("Key codes become xkbcommon keysym names, with shift applied")
    func names() throws {
        let keymap = try usKeymap()
        // Page_Down and Next are one keysym; xkbcommon names it "Next", which ScrollKit takes.
        #expect(keymap.describe(keyPageDown)?.name == "Next")
        #expect(keymap.describe(keySpace)?.name == "space")
        #expect(keymap.describe(keyHome)?.name == "Home")
        #expect(keymap.describe(keyLeftCtrl)?.name == "Control_L")
        #expect(keymap.describe(keyA)?.name == "a")
        keymap.updateModifiers(depressed: shiftMask, latched: 0, locked: 0, group: 0)
        #expect(keymap.describe(keyA)?.name == "A")
        #expect(keymap.modifiers == .shift)
    }

    @Test("Modifier masks map to shift, ctrl, alt and logo")
    func modifiers() throws {
        let keymap = try usKeymap()
        #expect(keymap.modifiers == [])
        keymap.updateModifiers(depressed: controlMask | mod1Mask | mod4Mask, latched: 0, locked: 0, group: 0)
        #expect(keymap.modifiers == [.ctrl, .alt, .logo])
        keymap.updateModifiers(depressed: 0, latched: 0, locked: 0, group: 0)
        #expect(keymap.modifiers == [])
    }

    @Test("Ordinary keys repeat; xkb says which")
    func repeatFlags() throws {
        let keymap = try usKeymap()
        #expect(keymap.describe(keyPageDown)?.repeats == true)
        #expect(keymap.describe(keyDown)?.repeats == true)
    }

    @Test("A code outside the keymap has no name")
    func unknownCode() throws {
        let keymap = try usKeymap()
        #expect(keymap.describe(600) == nil)
        #expect(keymap.describe(UInt32.max) == nil, "the +8 offset must not overflow")
    }

    @Test("A keymap fd with the terminating NUL maps and compiles, and the fd is closed")
    func keymapFromFile() throws {
        let text = try #require(XKBKeymap.text(layout: "us"))
        let (fd, size) = try temporaryFile(Array(text.utf8) + [0])
        let file = FileIdentity(fd)
        let keymap = try XKBKeymap(fd: fd, size: size, format: 1)
        #expect(keymap.describe(keySpace)?.name == "space")
        #expect(file.isClosed, "the keymap fd is ours to close")
    }
}

/// What an fd referred to, to tell later whether it was closed. Tests run in parallel, so
/// the number may already belong to another file: a different inode means ours was closed.
struct FileIdentity {
    let fd: Int32
    let device: UInt64
    let inode: UInt64

    init(_ fd: Int32) {
        var info = stat()
        fstat(fd, &info)
        self.fd = fd
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Whether `fd` no longer refers to the same open file.
    var isClosed: Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return true }
        return UInt64(info.st_dev) != device || UInt64(info.st_ino) != inode
    }
}

/// A regular file holding `bytes`, opened read-only, unlinked; returns the fd and the size.
func temporaryFile(_ bytes: [UInt8]) throws -> (Int32, UInt32) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("keymap-\(UUID().uuidString)").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    unlink(path)
    try #require(fd >= 0)
    return (fd, UInt32(bytes.count))
}

@Suite("Key repeat timing")
struct KeyRepeatTests {
    @Test("A held key repeats after the delay at the rate, by its own times, until released")
    func delayAndRate() {
        var r = KeyRepeat()
        r.setInfo(rate: 25, delay: 600)
        r.press(key: keyDown, at: 1000, repeats: true)
        #expect(r.nextDeadline == 1600)
        #expect(r.fire(now: 1599).isEmpty)
        #expect(r.fire(now: 1600) == [1600])
        #expect(r.fire(now: 1681) == [1640, 1680])
        #expect(r.nextDeadline == 1720)
        r.release(key: keyDown)
        #expect(r.nextDeadline == nil)
        #expect(r.fire(now: 5000).isEmpty)
    }

    @Test("Rate 0 turns repeat off; keys xkb marks as non-repeating never repeat")
    func off() {
        var r = KeyRepeat()
        r.setInfo(rate: 0, delay: 200)
        r.press(key: keyDown, at: 0, repeats: true)
        #expect(r.nextDeadline == nil)
        r.setInfo(rate: 30, delay: 200)
        r.press(key: keyLeftShift, at: 0, repeats: false)
        #expect(r.nextDeadline == nil)
    }

    @Test("A new press takes repeat over; releasing the old key leaves it running")
    func newPressTakesOver() {
        var r = KeyRepeat()
        r.setInfo(rate: 10, delay: 300)
        r.press(key: keyDown, at: 0, repeats: true)
        r.press(key: keyPageDown, at: 100, repeats: true)
        r.release(key: keyDown)
        #expect(r.pending?.key == keyPageDown)
        #expect(r.nextDeadline == 400)
    }

    @Test("After a stall at most a burst of repeats is delivered and the schedule resumes after now")
    func stall() {
        var r = KeyRepeat()
        r.setInfo(rate: 50, delay: 100)
        r.press(key: keyDown, at: 0, repeats: true)
        let times = r.fire(now: 10_000)
        #expect(times == [100, 120, 140, 160])
        let next = r.nextDeadline ?? 0
        #expect(next > 10_000 && next <= 10_020)
    }

    @Test("Absurd repeat_info values are clamped: negative is off or zero, huge rates capped")
    func absurdInfo() {
        var r = KeyRepeat()
        r.setInfo(rate: -5, delay: -100)
        #expect(r.rate == 0 && r.delay == 0)
        r.setInfo(rate: .max, delay: .max)
        #expect(r.rate == KeyRepeat.maxRate && r.delay == KeyRepeat.maxDelay)
    }
}

@Suite("Keyboard state")
struct KeyboardStateTests {
    @Test("Press and release by name, with modifiers; the release keeps the press's name")
    func pressRelease() throws {
        let keymap = try usKeymap()
        var s = KeyboardState()
        let press = s.key(code: keyA, pressed: true, time: 10) { keymap.describe($0) }
        #expect(press == InputEvent(time: 10, kind: .key(Key(keysymName: "a"), pressed: true), modifiers: []))
        keymap.updateModifiers(depressed: shiftMask, latched: 0, locked: 0, group: 0)
        s.modifiers = keymap.modifiers
        let release = s.key(code: keyA, pressed: false, time: 20) { keymap.describe($0) }
        #expect(release == InputEvent(time: 20, kind: .key(Key(keysymName: "a"), pressed: false), modifiers: .shift))
    }

    @Test("Repeats come as more presses of the held key; leave releases every held key and stops repeat")
    func repeatsAndLeave() throws {
        let keymap = try usKeymap()
        var s = KeyboardState()
        s.keyRepeat.setInfo(rate: 25, delay: 600)
        _ = s.key(code: keyLeftCtrl, pressed: true, time: 0) { keymap.describe($0) }
        _ = s.key(code: keyPageDown, pressed: true, time: 100) { keymap.describe($0) }
        let repeats = s.repeats(now: 740)
        #expect(repeats == [700, 740].map { InputEvent(time: $0, kind: .key(Key(keysymName: "Next"), pressed: true), modifiers: []) })
        let released = s.releaseAll(time: 750)
        #expect(released == [InputEvent(time: 750, kind: .key(Key(keysymName: "Control_L"), pressed: false), modifiers: []),
                             InputEvent(time: 750, kind: .key(Key(keysymName: "Next"), pressed: false), modifiers: [])])
        #expect(s.keyRepeat.nextDeadline == nil)
        #expect(s.repeats(now: 2000).isEmpty)
    }

    @Test("Holding Page_Down pages once, then once per repeat: the scroll view ends four pages down")
    func pagingWithRepeat() throws {
        let keymap = try usKeymap()
        var s = KeyboardState()
        s.keyRepeat.setInfo(rate: 25, delay: 600)
        var events: [InputEvent] = []
        if let e = s.key(code: keyPageDown, pressed: true, time: 1000, describe: { keymap.describe($0) }) { events.append(e) }
        events += s.repeats(now: 1700)  // 1600, 1640, 1680
        if let e = s.key(code: keyPageDown, pressed: false, time: 1700, describe: { keymap.describe($0) }) { events.append(e) }
        #expect(events.count == 5)
        let harness = ScrollHarness()
        harness.deliver(events)
        harness.settle()
        // A page is the 600 pt viewport less ScrollKit's 40 pt overlap.
        let page = 600 - ScrollView.pageOverlap
        #expect(abs(harness.scrollView.contentOffset.y - 4 * page) < 0.5)
    }
}
