// wl_pointer batching: events per frame with their own times, both wheel paths (seat v5–7
// axis_discrete, v8 axis_value120), touchpad axis_stop, and drags that outlive a leave.
import Foundation
import ScrollKit
import Testing
@testable import Wayland

/// A builder whose pointer has entered the surface at (0, 0), as every session starts.
private func enteredBuilder(at time: Double = 0) -> PointerFrameBuilder {
    var b = PointerFrameBuilder()
    b.enter(x: 0, y: 0, now: time)
    _ = b.frame()
    return b
}

@Suite("Pointer frames")
struct PointerFrameTests {
    @Test("Enter, motion and button become events with the events' own times")
    func motionAndButton() {
        var b = PointerFrameBuilder()
        b.enter(x: 3, y: 4, now: 990)
        b.motion(time: 1000, x: 10.5, y: 20)
        #expect(b.frame() == [InputEvent(time: 990, kind: .pointerEnter(location: CGPoint(x: 3, y: 4))),
                              InputEvent(time: 1000, kind: .pointerMotion(location: CGPoint(x: 10.5, y: 20)))])
        b.button(time: 1010, code: 0x110, pressed: true)
        b.button(time: 1010, code: 0x115, pressed: true)  // BTN_FORWARD: tracked, not delivered
        #expect(b.frame() == [InputEvent(time: 1010, kind: .pointerButton(button: .left, pressed: true))])
        #expect(b.heldButtons == [0x110, 0x115])
    }

    @Test("Seat v5–7 wheel: axis_discrete plus axis becomes one wheel event with value120")
    func discreteWheel() {
        var b = enteredBuilder()
        b.axisSource(0)
        b.axisDiscrete(axis: 0, discrete: 1)
        b.axis(time: 500, axis: 0, value: 15)
        #expect(b.frame() == [InputEvent(time: 500, kind: .pointerAxis(source: .wheel, dx: 0, dy: 15, value120X: nil, value120Y: 120))])
    }

    @Test("Seat v8 wheel: axis_value120 keeps fractions of a notch on both axes")
    func value120Wheel() {
        var b = enteredBuilder()
        b.axisSource(0)
        b.axisValue120(axis: 0, value120: -40)
        b.axis(time: 700, axis: 0, value: -5)
        b.axisValue120(axis: 1, value120: 30)
        b.axis(time: 700, axis: 1, value: 3.75)
        #expect(b.frame() == [InputEvent(time: 700, kind: .pointerAxis(source: .wheel, dx: 3.75, dy: -5, value120X: 30, value120Y: -40))])
    }

    @Test("A wheel that sends notches without an axis value still scrolls 15 pt per notch")
    func notchesOnly() {
        var b = enteredBuilder()
        b.axisSource(0)
        b.axisDiscrete(axis: 0, discrete: 2)
        b.motion(time: 90, x: 1, y: 1)
        let events = b.frame()
        #expect(events.last == InputEvent(time: 90, kind: .pointerAxis(source: .wheel, dx: 0, dy: 30, value120X: nil, value120Y: 240)))
    }

    @Test("Touchpad finger scrolling and axis_stop, each in its frame")
    func fingerAndStop() {
        var b = enteredBuilder()
        b.axisSource(1)
        b.axis(time: 10, axis: 0, value: 7.5)
        #expect(b.frame() == [InputEvent(time: 10, kind: .pointerAxis(source: .finger, dx: 0, dy: 7.5, value120X: nil, value120Y: nil))])
        b.axisSource(1)
        b.axisStop(time: 30, axis: 0)
        #expect(b.frame() == [InputEvent(time: 30, kind: .axisStop(axis: .vertical))])
    }

    @Test("Leave comes last in its frame, an enter after it in the same frame follows it, and a frame resets the batch")
    func leaveLastEnterAfter() {
        var b = enteredBuilder()
        b.motion(time: 4, x: 0, y: 0)
        b.leave(now: 5)
        b.motion(time: 6, x: 9, y: 9)  // after the leave, with no button held: not ours
        #expect(b.frame().map(\.kind) == [.pointerMotion(location: .zero), .pointerLeave])
        #expect(b.frame().isEmpty)
        b.enter(x: 1, y: 1, now: 6)
        b.leave(now: 7)
        b.enter(x: 2, y: 2, now: 8)
        #expect(b.frame().map(\.kind) == [.pointerEnter(location: CGPoint(x: 1, y: 1)), .pointerLeave,
                                          .pointerEnter(location: CGPoint(x: 2, y: 2))])
        #expect(b.isFocused)
    }

    @Test("A drag survives leave: motion and the release still arrive while the button is held")
    func dragSurvivesLeave() {
        var b = enteredBuilder()
        b.button(time: 10, code: 0x110, pressed: true)
        b.leave(now: 20)
        _ = b.frame()
        b.motion(time: 30, x: -40, y: 700)  // outside the surface, implicit grab
        b.button(time: 40, code: 0x110, pressed: false)
        #expect(b.frame().map(\.kind) == [.pointerMotion(location: CGPoint(x: -40, y: 700)),
                                          .pointerButton(button: .left, pressed: false)])
        // The drag is over and the pointer is elsewhere: motion now means nothing for us.
        b.motion(time: 50, x: 1, y: 1)
        #expect(b.frame().isEmpty)
    }

    @Test("A pointer drag through the builder scrolls the content with the pointer and ends without momentum after a pause")
    func dragScrollsContent() {
        let harness = ScrollHarness()
        var b = PointerFrameBuilder()
        var events: [InputEvent] = []
        b.enter(x: 200, y: 500, now: 1000)
        b.button(time: 1000, code: 0x110, pressed: true)
        events += b.frame()
        for step in 1...30 {
            b.motion(time: 1000 + Double(step) * 8, x: 200, y: 500 - Double(step) * 10)
            events += b.frame()
        }
        // The pointer rests 150 ms before the release: no fling.
        b.button(time: 1390, code: 0x110, pressed: false)
        events += b.frame()
        harness.deliver(events)
        harness.settle()
        #expect(harness.log.calls == ["WillBeginDragging", "DidScroll…", "WillEndDragging(still)", "DidEndDragging(false)"])
        // The pointer moved 300 pt up; the content follows it, less the touch slop at most.
        let y = harness.scrollView.contentOffset.y
        #expect(y > 280 && y <= 300, "offset \(y)")
    }
}
