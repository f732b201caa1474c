// Touchpad gestures (zwp_pointer_gestures_v1): pinch phases with cumulative scale into zoom,
// and hold, whose begin stops running momentum.
import Foundation
import ScrollKit
import Testing
@testable import Wayland

/// Names a zoom view so the scroll view can zoom.
private final class ZoomDelegate: ScrollViewDelegate {
    let view: View
    init(view: View) { self.view = view }
    func viewForZooming(in scrollView: ScrollView) -> View? { view }
}

@Suite("Pointer gestures")
struct GestureTests {
    @Test("Pinch begin, updates and end: scale cumulative from the protocol, pans as deltas")
    func pinchPhases() {
        var g = PointerGestureState()
        var events = g.pinchBegin(time: 100)
        events += [g.pinchUpdate(time: 110, dx: 1.5, dy: -2, scale: 1.25)].compactMap { $0 }
        events += [g.pinchUpdate(time: 120, dx: 0.5, dy: 0, scale: 1.5)].compactMap { $0 }
        events += [g.pinchEnd(time: 130, cancelled: false)].compactMap { $0 }
        #expect(events == [
            InputEvent(time: 100, kind: .pinch(phase: .begin, scale: 1, dx: 0, dy: 0)),
            InputEvent(time: 110, kind: .pinch(phase: .update, scale: 1.25, dx: 1.5, dy: -2)),
            InputEvent(time: 120, kind: .pinch(phase: .update, scale: 1.5, dx: 0.5, dy: 0)),
            InputEvent(time: 130, kind: .pinch(phase: .end, scale: 1.5, dx: 0, dy: 0)),
        ])
        #expect(!g.isPinching)
    }

    @Test("A cancelled pinch ends as cancel; hold begin/end and cancelled hold")
    func cancelAndHold() {
        var g = PointerGestureState()
        _ = g.pinchBegin(time: 0)
        #expect(g.pinchEnd(time: 5, cancelled: true)?.kind == .pinch(phase: .cancel, scale: 1, dx: 0, dy: 0))
        #expect(g.holdBegin(time: 10) == InputEvent(time: 10, kind: .hold(phase: .begin)))
        #expect(g.holdEnd(time: 20, cancelled: false) == InputEvent(time: 20, kind: .hold(phase: .end)))
        _ = g.holdBegin(time: 30)
        #expect(g.holdEnd(time: 40, cancelled: true)?.kind == .hold(phase: .cancel))
    }

    @Test("A touchpad pinch to 2× zooms the scroll view to 2×")
    func pinchZooms() {
        let harness = ScrollHarness(content: CGSize(width: 400, height: 600))
        let image = View(frame: CGRect(x: 0, y: 0, width: 400, height: 600))
        harness.scrollView.addSubview(image)
        let zoom = ZoomDelegate(view: image)
        harness.scrollView.delegate = zoom
        harness.scrollView.maximumZoomScale = 4
        var p = PointerFrameBuilder()
        p.enter(x: 200, y: 300, now: 0)
        var g = PointerGestureState()
        var events = p.frame() + g.pinchBegin(time: 10)
        for step in 1...10 {
            events += [g.pinchUpdate(time: 10 + Double(step) * 10, dx: 0, dy: 0, scale: 1 + Double(step) / 10)].compactMap { $0 }
        }
        events += [g.pinchEnd(time: 120, cancelled: false)].compactMap { $0 }
        harness.deliver(events)
        harness.settle()
        #expect(abs(harness.scrollView.zoomScale - 2) < 0.01, "zoomScale \(harness.scrollView.zoomScale)")
    }

    @Test("Fingers resting on the touchpad (hold begin) stop a running fling where it is")
    func holdStopsMomentum() {
        // Two identical flings; the second is caught by a hold 100 ms after the lift.
        func fling(hold: Bool) -> (atHold: CGFloat, final: CGFloat, calls: [String]) {
            let harness = ScrollHarness()
            var touch = TouchFrameBuilder()
            let events = swipe(builder: &touch)  // lifts at t = 1104
            harness.deliver(events)
            var gestures = PointerGestureState()
            var tail: [InputEvent] = []
            if hold {
                tail += [gestures.holdBegin(time: 1204)].compactMap { $0 }
                tail += [gestures.holdEnd(time: 1400, cancelled: false)].compactMap { $0 }
            } else {
                tail.append(InputEvent(time: 1204, kind: .pointerMotion(location: CGPoint(x: 5, y: 5))))
            }
            harness.deliver(Array(tail.prefix(1)))
            let atHold = harness.scrollView.contentOffset.y
            harness.deliver(Array(tail.dropFirst()))
            harness.settle()
            return (atHold, harness.scrollView.contentOffset.y, harness.log.calls)
        }
        let free = fling(hold: false)
        let caught = fling(hold: true)
        #expect(free.final > free.atHold + 50, "without a hold the content keeps going")
        #expect(abs(caught.final - caught.atHold) < 0.5, "held at \(caught.atHold), ended at \(caught.final)")
        #expect(caught.calls.last == "DidEndDecelerating")
    }
}
