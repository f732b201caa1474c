// Linux input: wheel notches (discrete and value120), touchpad with and without momentum,
// keyboard, pointer drags, touch cancel.
import Foundation
import Testing
@testable import ScrollKit

@Suite("Wheel")
struct WheelTests {
    func notch(_ h: Harness, at time: Double, value120: Int? = 120, dy: CGFloat = 15) {
        h.send(.pointerAxis(source: .wheel, dx: 0, dy: dy, value120X: nil, value120Y: value120), at: time)
    }

    @Test("one notch is a 57 pt animated step ending with DidEndScrollingAnimation")
    func oneNotch() {
        let h = Harness()
        notch(h, at: 100)
        #expect(h.recorder.lines.isEmpty)   // animations move on frames only
        let end = h.settle()
        #expect(h.offset == CGPoint(x: 0, y: 57))
        #expect(h.recorder.folded == ["didScroll… ---", "didEndScrollingAnimation ---"])
        #expect(end >= 300 && end < 320)
    }

    @Test("a discrete wheel without value120: 15 axis units are one notch")
    func discrete() {
        let h = Harness()
        notch(h, at: 100, value120: nil, dy: 15)
        notch(h, at: 400, value120: nil, dy: -7.5)
        h.settle()
        #expect(h.offset == CGPoint(x: 0, y: 29))   // 57 − 28.5, the half point carried
        notch(h, at: 900, value120: nil, dy: -7.5)
        h.settle()
        #expect(h.offset == .zero)
    }

    @Test("consecutive notches extend the running step: one animation, no lost distance")
    func consecutive() {
        let h = Harness()
        notch(h, at: 100)
        notch(h, at: 150)
        notch(h, at: 190)
        h.settle()
        #expect(h.offset == CGPoint(x: 0, y: 171))
        #expect(h.recorder.count("didEndScrollingAnimation") == 1)
        let ys = h.recorder.calls.filter { $0.name == "didScroll" }.map(\.offset.y)
        #expect(zip(ys, ys.dropFirst()).allSatisfy { $0 < $1 })   // smooth: never backwards
    }

    @Test("high-resolution wheels: quarter notches scroll proportionally, fractions carried", arguments: [1, 2, 3, 4])
    func value120Fractions(quarters: Int) {
        let h = Harness()
        for i in 0..<quarters { notch(h, at: 100 + Double(i) * 10, value120: 30) }
        h.settle()
        let expected: [CGFloat] = [14, 28, 42, 57]   // 14.25 per quarter, whole points, remainder kept
        #expect(h.offset.y == expected[quarters - 1])
    }

    @Test("at the top, wheeling up does nothing at all; the end clamps")
    func edges() {
        let h = Harness()
        notch(h, at: 100, value120: -120)
        h.settle()
        #expect(h.recorder.lines.isEmpty)
        h.scrollView.contentOffset.y = 2380
        h.recorder.reset()
        notch(h, at: 1000)
        h.settle()
        #expect(h.offset.y == 2400)
        #expect(h.recorder.folded == ["didScroll… ---", "didEndScrollingAnimation ---"])
    }

    @Test("a wheel during a fling ends the deceleration first")
    func duringFling() {
        let h = Harness()
        let lift = fling(h, at: 1000)
        h.tick(through: lift + 100)
        notch(h, at: lift + 105)
        h.settle()
        let names = h.recorder.foldedNames
        #expect(Array(names.suffix(4)) == ["didScroll…", "didEndDecelerating", "didScroll…", "didEndScrollingAnimation"])
    }

    @Test("a plain wheel scrolls sideways-only content sideways; small views step at most half a view")
    func sidewaysAndSmall() {
        let wide = Harness(content: CGSize(width: 2000, height: 600))
        notch(wide, at: 100)
        wide.settle()
        #expect(wide.offset == CGPoint(x: 57, y: 0))

        let small = Harness(viewport: CGSize(width: 400, height: 80), content: CGSize(width: 400, height: 1000))
        notch(small, at: 100)
        small.settle()
        #expect(small.offset == CGPoint(x: 0, y: 40))
    }

    @Test("continuous sources (trackpoint) scroll at once, within the range, with only DidScroll")
    func continuous() {
        let h = Harness()
        h.send(.pointerAxis(source: .continuous, dx: 0, dy: 30, value120X: nil, value120Y: nil), at: 100)
        #expect(h.offset.y == 30)
        h.send(.pointerAxis(source: .continuous, dx: 0, dy: -80, value120X: nil, value120Y: nil), at: 110)
        #expect(h.offset.y == 0)
        #expect(h.recorder.lines == ["didScroll ---", "didScroll ---"])
    }
}

@Suite("Touchpad")
struct TouchpadTests {
    /// Ten axis events of `dy` every 8 ms from `time`; returns the last event's time.
    @discardableResult
    func swipe(_ h: Harness, at time: Double, dy: CGFloat = 12, count: Int = 10) -> Double {
        var t = time
        for i in 0..<count {
            t = time + Double(i) * 8
            h.send(.pointerAxis(source: .finger, dx: 0, dy: dy, value120X: nil, value120Y: nil), at: t)
        }
        return t
    }

    @Test("scrolling moves content directly; lifting while moving starts momentum")
    func momentum() throws {
        let h = Harness()
        let last = swipe(h, at: 100)
        #expect(h.offset.y == 120)   // no slop: the compositor already decided
        h.send(.axisStop(axis: .vertical), at: last + 2)
        h.settle()
        #expect(h.recorder.folded == [
            "willBeginDragging TD-",
            "didScroll… TD-",
            "willEndDragging -D-",
            "didEndDragging(true) -D-",
            "willBeginDecelerating -DE",
            "didScroll… -DE",
            "didEndDecelerating ---",
        ])
        let end = try #require(h.recorder.endDragging.first)
        #expect(close(end.velocity.y, 1.5, 0.01))
        #expect(h.offset == end.target)
        #expect(close(h.offset.y, 120 + 1.5 / -CGFloat(log(0.998)), 1))
    }

    @Test("fingers that stop before lifting give no momentum")
    func noMomentum() {
        let h = Harness()
        let last = swipe(h, at: 100)
        h.send(.axisStop(axis: .vertical), at: last + 60)
        h.settle()
        #expect(h.recorder.folded == ["willBeginDragging TD-", "didScroll… TD-", "willEndDragging -D-",
                                      "didEndDragging(false) -D-"])
        #expect(h.offset.y == 120)
    }

    @Test("scrolling again during momentum catches it; resting fingers (hold) stop it")
    func catchAndHold() {
        let h = Harness()
        var last = swipe(h, at: 100)
        h.send(.axisStop(axis: .vertical), at: last + 2)
        h.tick(through: last + 200)
        last = swipe(h, at: last + 210, dy: 6, count: 5)
        h.send(.axisStop(axis: .vertical), at: last + 2)
        h.tick(through: last + 200)
        h.send(.hold(phase: .begin), at: last + 210)
        h.send(.hold(phase: .end), at: last + 300)
        h.settle()
        #expect(h.recorder.folded == [
            "willBeginDragging TD-", "didScroll… TD-", "willEndDragging -D-", "didEndDragging(true) -D-",
            "willBeginDecelerating -DE", "didScroll… -DE",
            "willBeginDragging TDE", "didScroll… TDE", "willEndDragging -DE", "didEndDragging(true) -DE",
            "willBeginDecelerating -DE", "didScroll… -DE",
            "willBeginDragging TDE", "willEndDragging -DE", "didEndDragging(false) -DE",
            "didEndDecelerating ---",
        ])
    }

    @Test("past the top the touchpad rubber-bands too, and the content springs back")
    func overscroll() {
        let h = Harness()
        let last = swipe(h, at: 100, dy: -10)
        #expect(close(h.offset.y, -CGFloat(RubberBand.displayed(overshoot: 100, dimension: 600)), 0.001))
        h.send(.axisStop(axis: .vertical), at: last + 60)
        h.settle()
        #expect(h.offset.y == 0)
        #expect(h.recorder.count("didEndDecelerating") == 1)
    }
}

@Suite("Keyboard")
struct KeyboardTests {
    func press(_ h: Harness, _ name: String, at time: Double, _ modifiers: InputEvent.Modifiers = []) {
        h.send(.key(Key(keysymName: name), pressed: true), at: time, modifiers: modifiers)
        h.send(.key(Key(keysymName: name), pressed: false), at: time + 5, modifiers: modifiers)
    }

    // (key, modifiers, start offset y, expected y)
    static let steps: [(String, UInt8, CGFloat, CGFloat)] = [
        ("Down", 0, 0, 40),
        ("Up", 0, 100, 60),
        ("Page_Down", 0, 0, 560),     // a page less a 40 pt overlap
        ("Next", 0, 0, 560),
        ("Page_Up", 0, 1000, 440),
        ("Prior", 0, 1000, 440),
        ("space", 0, 0, 560),
        ("space", 1, 1000, 440),      // shift+space
        ("End", 0, 300, 2400),
        ("Down", 0, 2390, 2400),      // clamped at the end
    ]

    @Test("keys are animated steps ending with DidEndScrollingAnimation", arguments: steps)
    func step(key: String, modifiers: UInt8, start: CGFloat, expected: CGFloat) {
        let h = Harness()
        h.scrollView.contentOffset.y = start
        h.recorder.reset()
        press(h, key, at: 100, InputEvent.Modifiers(rawValue: modifiers))
        h.settle()
        #expect(h.offset == CGPoint(x: 0, y: expected))
        #expect(h.recorder.folded == ["didScroll… ---", "didEndScrollingAnimation ---"])
    }

    @Test("Home and Ctrl+Home scroll to the top through ShouldScrollToTop / DidScrollToTop")
    func home() {
        for modifiers: InputEvent.Modifiers in [[], [.ctrl]] {
            let h = Harness()
            h.scrollView.contentOffset.y = 1200
            h.recorder.reset()
            press(h, "Home", at: 100, modifiers)
            h.settle()
            #expect(h.offset == .zero)
            #expect(h.recorder.folded == ["shouldScrollToTop ---", "didScroll… ---", "didScrollToTop ---"])
        }
    }

    @Test("key repeat extends the step; keys that cannot move do nothing")
    func repeatAndNoop() {
        let h = Harness()
        for i in 0..<3 { h.send(.key(Key(keysymName: "Down"), pressed: true), at: 100 + Double(i) * 33) }
        h.settle()
        #expect(h.offset.y == 120)
        #expect(h.recorder.count("didEndScrollingAnimation") == 1)
        h.scrollView.contentOffset.y = 0
        h.recorder.reset()
        press(h, "Up", at: 1000)
        press(h, "Left", at: 1100)   // nothing to scroll sideways
        press(h, "a", at: 1200)
        h.settle()
        #expect(h.recorder.lines.isEmpty)
    }

    @Test("arrows scroll sideways on wide content")
    func sideways() {
        let h = Harness(content: CGSize(width: 2000, height: 600))
        press(h, "Right", at: 100)
        h.settle()
        #expect(h.offset == CGPoint(x: 40, y: 0))
    }
}

@Suite("Pointer drag and touch cancel")
struct PointerAndCancelTests {
    @Test("a left-button drag behaves like a one-finger drag")
    func pointerDrag() {
        let h = Harness()
        h.send(.pointerMotion(location: CGPoint(x: 200, y: 500)), at: 990)
        h.send(.pointerButton(button: .left, pressed: true), at: 1000)
        for i in 1...10 {
            h.send(.pointerMotion(location: CGPoint(x: 200, y: 500 - CGFloat(i) * 12)), at: 1000 + Double(i) * 8)
        }
        h.send(.pointerButton(button: .left, pressed: false), at: 1080)
        h.settle()
        #expect(h.recorder.folded == ["willBeginDragging TD-", "didScroll… TD-", "willEndDragging -D-",
                                      "didEndDragging(true) -D-", "willBeginDecelerating -DE", "didScroll… -DE",
                                      "didEndDecelerating ---"])
        #expect(close(h.offset.y, 859.25, 1))
    }

    @Test("other buttons do not drag; a press before any position starts at the next one")
    func buttons() {
        let h = Harness()
        h.send(.pointerMotion(location: CGPoint(x: 200, y: 500)), at: 10)
        h.send(.pointerButton(button: .right, pressed: true), at: 20)
        h.send(.pointerMotion(location: CGPoint(x: 200, y: 300)), at: 30)
        h.send(.pointerButton(button: .right, pressed: false), at: 40)
        #expect(h.recorder.lines.isEmpty)

        let late = Harness()
        late.send(.pointerButton(button: .left, pressed: true), at: 10)
        late.send(.pointerMotion(location: CGPoint(x: 200, y: 500)), at: 20)
        late.send(.pointerMotion(location: CGPoint(x: 200, y: 400)), at: 30)
        #expect(late.offset.y == 90)
    }

    @Test("touch cancel ends the drag without a fling")
    func cancelDrag() throws {
        let h = Harness()
        h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -120), at: 1000, lift: false)
        h.send(.touchCancel, at: 1081)
        h.settle()
        #expect(h.recorder.folded == ["willBeginDragging TD-", "didScroll… TD-", "willEndDragging -D-",
                                      "didEndDragging(false) -D-"])
        #expect(try #require(h.recorder.endDragging.first).velocity == .zero)
        #expect(h.offset.y == 110)
        #expect(!h.scrollView.isTracking && !h.scrollView.isDragging)
    }

    @Test("touch cancel past an edge still springs back; cancel while only touching does nothing")
    func cancelOverscrolled() {
        let h = Harness()
        h.drag(from: CGPoint(x: 200, y: 100), by: CGPoint(x: 0, y: 150), at: 1000, lift: false)
        h.send(.touchCancel, at: 1100)
        h.settle()
        #expect(h.offset.y == 0)
        #expect(h.recorder.foldedNames.suffix(4) == ["didEndDragging(true)", "willBeginDecelerating", "didScroll…",
                                                     "didEndDecelerating"])

        let t = Harness()
        t.send(.touchDown(id: 0, location: CGPoint(x: 10, y: 10)), at: 10)
        t.send(.touchCancel, at: 20)
        #expect(t.recorder.lines.isEmpty)
        #expect(!t.scrollView.isTracking)
    }

    @Test("touch cancel during a caught deceleration closes it with the leftover DidEndDecelerating")
    func cancelCaught() {
        let h = Harness()
        let lift = fling(h, at: 1000)
        h.tick(through: lift + 200)
        h.send(.touchDown(id: 4, location: CGPoint(x: 200, y: 200)), at: lift + 210)
        h.send(.touchCancel, at: lift + 220)
        h.settle()
        #expect(Array(h.recorder.folded.suffix(4)) == ["willBeginDragging TDE", "willEndDragging -DE",
                                                       "didEndDragging(false) -DE", "didEndDecelerating ---"])
    }
}
