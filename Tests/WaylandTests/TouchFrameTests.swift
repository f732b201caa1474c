// wl_touch batching: several ids per frame in surface coordinates, a one-finger fling as the
// scroll view sees it, and cancel ending the gesture without a fling.
import Foundation
import ScrollKit
import Testing
@testable import Wayland

/// A one-finger vertical swipe: down at y = 500, `steps` motions of `stepPoints` upward every
/// 8 ms, then up `pause` ms after the last motion. Returns the events, frame by frame.
func swipe(id: Int32 = 0, start: Double = 1000, steps: Int = 12, stepPoints: Double = 15, pause: Double = 8,
           builder: inout TouchFrameBuilder) -> [InputEvent] {
    var events: [InputEvent] = []
    builder.down(time: start, id: id, x: 200, y: 500)
    events += builder.frame()
    for step in 1...steps {
        builder.motion(time: start + Double(step) * 8, id: id, x: 200, y: 500 - Double(step) * stepPoints)
        events += builder.frame()
    }
    builder.up(time: start + Double(steps) * 8 + pause, id: id)
    events += builder.frame()
    return events
}

@Suite("Touch frames")
struct TouchFrameTests {
    @Test("Two fingers in one frame keep their ids, order and surface coordinates")
    func twoFingers() {
        var b = TouchFrameBuilder()
        b.down(time: 10, id: 0, x: 100.5, y: 200)
        b.down(time: 10, id: 1, x: 300, y: 200.25)
        #expect(b.frame() == [InputEvent(time: 10, kind: .touchDown(id: 0, location: CGPoint(x: 100.5, y: 200))),
                              InputEvent(time: 10, kind: .touchDown(id: 1, location: CGPoint(x: 300, y: 200.25)))])
        b.motion(time: 18, id: 1, x: 310, y: 190)
        b.motion(time: 18, id: 0, x: 90, y: 210)
        #expect(b.frame().map(\.kind) == [.touchMotion(id: 1, location: CGPoint(x: 310, y: 190)),
                                          .touchMotion(id: 0, location: CGPoint(x: 90, y: 210))])
        b.up(time: 30, id: 0)
        #expect(b.frame() == [InputEvent(time: 30, kind: .touchUp(id: 0))])
        #expect(b.activeIDs == [1])
        b.up(time: 31, id: 1)
        _ = b.frame()
        #expect(b.activeIDs.isEmpty)
    }

    @Test("Nothing is delivered before the frame event")
    func batchedUntilFrame() {
        var b = TouchFrameBuilder()
        b.down(time: 1, id: 3, x: 1, y: 1)
        b.motion(time: 2, id: 3, x: 2, y: 2)
        let events = b.frame()
        #expect(events.count == 2)
        #expect(b.frame().isEmpty, "a frame hands its events out once")
    }

    @Test("A fast one-finger swipe drags and flings with UIKit's delegate order")
    func fling() {
        let harness = ScrollHarness()
        var b = TouchFrameBuilder()
        harness.deliver(swipe(builder: &b))
        let atRelease = harness.scrollView.contentOffset.y
        harness.settle()
        #expect(harness.log.calls == ["WillBeginDragging", "DidScroll…", "WillEndDragging(moving)", "DidEndDragging(true)",
                                      "WillBeginDecelerating", "DidScroll…", "DidEndDecelerating"])
        #expect(harness.scrollView.contentOffset.y > atRelease + 100, "momentum carries the content on")
    }

    @Test("wl_touch.cancel mid-swipe ends the drag where it is, with no fling")
    func cancelEndsWithoutFling() {
        let harness = ScrollHarness()
        var b = TouchFrameBuilder()
        var events: [InputEvent] = []
        b.down(time: 1000, id: 0, x: 200, y: 500)
        events += b.frame()
        for step in 1...12 {
            b.motion(time: 1000 + Double(step) * 8, id: 0, x: 200, y: 500 - Double(step) * 15)
            events += b.frame()
        }
        events += b.cancel(now: 1100)
        #expect(events.last == InputEvent(time: 1100, kind: .touchCancel))
        harness.deliver(events)
        let atCancel = harness.scrollView.contentOffset.y
        harness.settle()
        #expect(harness.log.calls == ["WillBeginDragging", "DidScroll…", "WillEndDragging(still)", "DidEndDragging(false)"])
        #expect(abs(harness.scrollView.contentOffset.y - atCancel) < 0.001)
        #expect(b.activeIDs.isEmpty)
        // Motion of the cancelled finger is no longer ours.
        b.motion(time: 1110, id: 0, x: 200, y: 100)
        #expect(b.frame().isEmpty)
    }

    @Test("A second down for an id already down moves it instead of adding a finger")
    func duplicateDown() {
        var b = TouchFrameBuilder()
        b.down(time: 1, id: 5, x: 10, y: 10)
        b.down(time: 2, id: 5, x: 20, y: 20)
        #expect(b.frame().map(\.kind) == [.touchDown(id: 5, location: CGPoint(x: 10, y: 10)),
                                          .touchMotion(id: 5, location: CGPoint(x: 20, y: 20))])
        #expect(b.activeIDs == [5])
    }

    @Test("At most ten fingers are followed; the eleventh and its motion are dropped")
    func fingerLimit() {
        var b = TouchFrameBuilder()
        for id in 0..<11 { b.down(time: 1, id: Int32(id), x: 1, y: 1) }
        b.motion(time: 2, id: 10, x: 5, y: 5)
        let events = b.frame()
        #expect(events.count == TouchFrameBuilder.maxTouchPoints)
        #expect(b.activeIDs == Array(0..<10))
        #expect(b.droppedEvents == 2)
    }
}
