// Touches on controls in the content: the delivery delay, taking a touch away to scroll, the
// override points, and the double tap. Control events ("a touchDown") and delegate calls are
// recorded in one sequence, with the scroll view's T/D/E flags, and compared whole.
import Foundation
import Testing
@testable import ScrollKit

/// A scroll view whose override points answer as a test wants and count their calls.
final class OverridingScrollView: ScrollView {
    var shouldBegin = true
    var shouldCancel: Bool?
    private(set) var beginQuestions: [(touches: [Touch], event: InputEvent?, view: View)] = []
    private(set) var cancelQuestions: [View] = []

    override func touchesShouldBegin(_ touches: [Touch], with event: InputEvent?, in view: View) -> Bool {
        beginQuestions.append((touches, event, view))
        return shouldBegin
    }

    override func touchesShouldCancel(in view: View) -> Bool {
        cancelQuestions.append(view)
        return shouldCancel ?? super.touchesShouldCancel(in: view)
    }
}

/// A harness with control "a" at (20, 40, 200, 80) in the content of an overriding scroll view.
func controlHarness(frame: CGRect = CGRect(x: 20, y: 40, width: 200, height: 80),
                    configure: (OverridingScrollView) -> Void = { _ in }) -> (Harness, Control, OverridingScrollView) {
    let control = Control(frame: frame)
    let h = Harness(scrollView: OverridingScrollView()) { s in
        s.addSubview(control)
        configure(s as! OverridingScrollView)
    }
    h.recorder.watch(control, as: "a", in: h.scrollView)
    return (h, control, h.scrollView as! OverridingScrollView)
}

/// A point inside control "a".
private let onControl = CGPoint(x: 100, y: 80)

@Suite("Content touches")
struct ContentTouchTests {
    @Test("a quick tap reaches the control at the lift: touchDown then touchUpInside, nothing else")
    func quickTap() {
        let (h, control, s) = controlHarness()
        h.send(.touchDown(id: 0, location: onControl), at: 1000)
        h.tick(through: 1080)
        #expect(!control.isHighlighted && h.recorder.calls.isEmpty)   // still within the 150 ms
        h.send(.touchUp(id: 0), at: 1080)
        h.settle()
        #expect(h.recorder.lines == ["a touchDown T--", "a touchUpInside T--"])
        #expect(h.recorder.calls.allSatisfy { $0.time == 1080 })
        #expect(!control.isHighlighted && !control.isTracking)
        // touchesShouldBegin saw the touch, in the scroll view's content coordinates.
        #expect(s.beginQuestions.count == 1)
        #expect(s.beginQuestions.first?.touches == [Touch(source: .finger(id: 0), location: onControl, timestamp: 1000)])
        #expect(s.beginQuestions.first?.view === control)
        #expect(h.offset == .zero)
    }

    @Test("a touch held still reaches the control after exactly 150 ms and is highlighted until the lift")
    func heldTouch() {
        let (h, control, _) = controlHarness()
        h.send(.touchDown(id: 0, location: onControl), at: 1000)
        #expect(h.scrollView.nextWakeTime == 1150)
        h.tick(through: 1149)
        #expect(h.recorder.calls.isEmpty)
        h.tick(through: 1300)
        #expect(control.isHighlighted)
        h.send(.touchMotion(id: 0, location: CGPoint(x: 104, y: 83)), at: 1310)   // within the slop
        h.send(.touchUp(id: 0), at: 1400)
        h.settle()
        #expect(h.recorder.lines == ["a touchDown T--", "a touchUpInside T--"])
        #expect(h.recorder.calls.map(\.time) == [1150, 1400])
        #expect(h.offset == .zero && h.scrollView.nextWakeTime == nil)
    }

    @Test("a drag that starts on a control before the delay scrolls; the control never hears of it")
    func quickDrag() {
        let (h, _, s) = controlHarness()
        h.drag(from: onControl, by: CGPoint(x: 0, y: -100), at: 1000)
        h.settle()
        #expect(Array(h.recorder.folded.prefix(4)) == ["willBeginDragging TD-", "didScroll… TD-", "willEndDragging -D-",
                                                       "didEndDragging(true) -D-"])
        #expect(h.recorder.calls.allSatisfy { !$0.name.hasPrefix("a ") })
        #expect(s.beginQuestions.isEmpty && s.cancelQuestions.isEmpty)
        #expect(h.offset.y > 90)
    }

    @Test("canCancelContentTouches: a drag after delivery cancels the control and scrolls (touchesShouldCancel says yes)")
    func dragCancelsControl() throws {
        let (h, control, s) = controlHarness { $0.shouldCancel = true }
        h.send(.touchDown(id: 0, location: onControl), at: 1000)
        h.tick(through: 1200)
        for i in 1...10 { h.send(.touchMotion(id: 0, location: CGPoint(x: 100, y: 80 - CGFloat(i) * 10)), at: 1200 + Double(i) * 8) }
        h.send(.touchUp(id: 0), at: 1340)   // after a pause: no fling
        h.settle()
        #expect(h.recorder.folded == ["a touchDown T--", "a touchCancel T--", "willBeginDragging TD-", "didScroll… TD-",
                                      "willEndDragging -D-", "didEndDragging(false) -D-"])
        let cancel = try #require(h.recorder.calls.first { $0.name == "a touchCancel" })
        #expect(cancel.time == 1216)   // the move that crossed the slop
        #expect(s.cancelQuestions.count == 1 && s.cancelQuestions.first === control)
        #expect(!control.isHighlighted && h.offset == CGPoint(x: 0, y: 90))
    }

    @Test("by default a control keeps a touch it has: no scroll, highlight follows the finger, touchUpOutside/Inside")
    func controlKeepsTouch() {
        for backInside in [false, true] {
            let (h, control, s) = controlHarness()
            h.send(.touchDown(id: 0, location: onControl), at: 1000)
            h.tick(through: 1200)
            for i in 1...10 { h.send(.touchMotion(id: 0, location: CGPoint(x: 100, y: 80 - CGFloat(i) * 10)), at: 1200 + Double(i) * 8) }
            #expect(!control.isHighlighted)   // the finger is above the control now
            if backInside {
                h.send(.touchMotion(id: 0, location: CGPoint(x: 100, y: 60)), at: 1290)
                #expect(control.isHighlighted)
            }
            h.send(.touchUp(id: 0), at: 1300)
            h.settle()
            #expect(h.recorder.lines == ["a touchDown T--", backInside ? "a touchUpInside T--" : "a touchUpOutside T--"])
            #expect(h.offset == .zero)
            // UIKit's default answer for a control was asked once, and said no.
            #expect(s.cancelQuestions.count == 1)
        }
    }

    @Test("without canCancelContentTouches, once the control has the touch nothing scrolls; touchesShouldCancel is not asked")
    func cannotCancel() {
        let (h, _, s) = controlHarness {
            $0.canCancelContentTouches = false
            $0.shouldCancel = true
        }
        h.send(.touchDown(id: 0, location: onControl), at: 1000)
        h.tick(through: 1200)
        h.send(.touchMotion(id: 0, location: CGPoint(x: 100, y: 20)), at: 1210)
        h.send(.touchMotion(id: 0, location: CGPoint(x: 100, y: 75)), at: 1220)
        h.send(.touchUp(id: 0), at: 1230)
        h.settle()
        #expect(h.recorder.lines == ["a touchDown T--", "a touchUpInside T--"])
        #expect(s.cancelQuestions.isEmpty && h.offset == .zero)
    }

    @Test("without delaysContentTouches the control gets touchDown at touch-down; a drag then cancels it")
    func noDelay() {
        let (h, _, _) = controlHarness {
            $0.delaysContentTouches = false
            $0.shouldCancel = true
        }
        h.drag(from: onControl, by: CGPoint(x: 0, y: -100), at: 1000, pause: 60)
        h.settle()
        #expect(h.recorder.folded == ["a touchDown T--", "a touchCancel T--", "willBeginDragging TD-", "didScroll… TD-",
                                      "willEndDragging -D-", "didEndDragging(false) -D-"])
        #expect(h.recorder.calls.first?.time == 1000 && h.recorder.calls[1].time == 1016)
    }

    @Test("touchesShouldBegin answering no keeps the control out of taps, holds and drags")
    func shouldBeginRefuses() {
        let (h, control, s) = controlHarness { $0.shouldBegin = false }
        h.send(.touchDown(id: 0, location: onControl), at: 1000)
        h.send(.touchUp(id: 0), at: 1050)
        h.send(.touchDown(id: 0, location: onControl), at: 2000)
        h.tick(through: 2300)
        h.send(.touchUp(id: 0), at: 2300)
        h.settle()
        #expect(h.recorder.calls.isEmpty && !control.isHighlighted)
        // Asked at the tap's lift (with that event) and when the hold's delay ran out (no event).
        #expect(s.beginQuestions.map(\.event?.time) == [1050, nil])
    }

    @Test("with scrolling off, a control gets touches at once and dragging never scrolls")
    func scrollDisabled() {
        let (h, _, _) = controlHarness { $0.isScrollEnabled = false }
        h.drag(from: onControl, by: CGPoint(x: 0, y: -100), at: 1000)
        h.send(.touchDown(id: 0, location: onControl), at: 2000)
        h.send(.touchUp(id: 0), at: 2040)
        h.settle()
        #expect(h.recorder.lines == ["a touchDown ---", "a touchUpOutside ---", "a touchDown ---", "a touchUpInside ---"])
        #expect(h.recorder.calls.map(\.time) == [1000, 1080, 2000, 2040])
        #expect(h.offset == .zero)
    }

    @Test("a touch that stops moving content is tap-to-stop, not a tap on the control under it")
    func tapToStopSkipsControl() {
        let (h, _, _) = controlHarness(frame: CGRect(x: 0, y: 0, width: 400, height: 3000))
        let lift = fling(h, at: 1000)
        h.tick(through: lift + 300)
        h.send(.touchDown(id: 1, location: CGPoint(x: 100, y: 300)), at: lift + 300)
        h.tick(through: lift + 600)
        h.send(.touchUp(id: 1), at: lift + 600)
        h.settle()
        #expect(h.recorder.calls.allSatisfy { !$0.name.hasPrefix("a ") })
        #expect(Array(h.recorder.folded.suffix(4)) == ["willBeginDragging TDE", "willEndDragging -DE",
                                                       "didEndDragging(false) -DE", "didEndDecelerating ---"])
    }

    @Test("touch cancel takes a delivered touch away from the control; a waiting one just goes")
    func systemCancel() {
        let (h, _, _) = controlHarness()
        h.send(.touchDown(id: 0, location: onControl), at: 1000)
        h.tick(through: 1200)
        h.send(.touchCancel, at: 1200)
        h.send(.touchDown(id: 0, location: onControl), at: 2000)
        h.send(.touchCancel, at: 2050)
        h.tick(through: 2500)
        #expect(h.recorder.lines == ["a touchDown T--", "a touchCancel T--"])
        #expect(h.scrollView.nextWakeTime == nil)
    }

    @Test("a pointer click is a tap for the control too")
    func pointerClick() {
        let (h, _, _) = controlHarness()
        h.send(.pointerMotion(location: onControl), at: 900)
        h.send(.pointerButton(button: .left, pressed: true), at: 1000)
        h.send(.pointerButton(button: .left, pressed: false), at: 1060)
        h.settle()
        #expect(h.recorder.lines == ["a touchDown T--", "a touchUpInside T--"])
    }

    @Test("a disabled or hidden control is not touched; a tap beside a control touches nothing")
    func notTargets() {
        let (h, control, s) = controlHarness()
        control.isEnabled = false
        h.send(.touchDown(id: 0, location: onControl), at: 1000)
        h.send(.touchUp(id: 0), at: 1050)
        control.isEnabled = true
        control.isHidden = true
        h.send(.touchDown(id: 0, location: onControl), at: 2000)
        h.send(.touchUp(id: 0), at: 2050)
        control.isHidden = false
        h.send(.touchDown(id: 0, location: CGPoint(x: 300, y: 80)), at: 3000)
        h.send(.touchUp(id: 0), at: 3050)
        h.settle()
        #expect(h.recorder.calls.isEmpty && s.beginQuestions.isEmpty)
    }

    @Test("a control nested in a content view is found through it, in that view's coordinates")
    func nestedControl() {
        let container = View(frame: CGRect(x: 0, y: 500, width: 400, height: 400))
        let control = Control(frame: CGRect(x: 50, y: 50, width: 100, height: 40))
        container.addSubview(control)
        let h = Harness { $0.addSubview(container) }
        h.recorder.watch(control, as: "b", in: h.scrollView)
        h.scrollView.contentOffset = CGPoint(x: 0, y: 500)
        h.recorder.reset()
        h.send(.touchDown(id: 0, location: CGPoint(x: 60, y: 60)), at: 1000)
        h.send(.touchUp(id: 0), at: 1040)
        h.send(.touchDown(id: 0, location: CGPoint(x: 60, y: 100)), at: 2000)   // below it
        h.send(.touchUp(id: 0), at: 2040)
        #expect(h.recorder.lines == ["b touchDown T--", "b touchUpInside T--"])
    }

    @Test("a zoom gesture sends no tracking calls to the control under the first finger")
    func pinchSendsNothingToContent() {
        let (h, _) = zoomHarness()
        let control = Control(frame: CGRect(x: 100, y: 250, width: 120, height: 100))
        h.scrollView.addSubview(control)
        h.recorder.watch(control, as: "a", in: h.scrollView)
        let t = pinch(h, from: CGPoint(x: 150, y: 300), CGPoint(x: 250, y: 300),
                      to: CGPoint(x: 100, y: 300), CGPoint(x: 300, y: 300), at: 1000)
        h.tick(through: t + 400)
        h.send(.touchUp(id: 0), at: t + 400)
        h.send(.touchUp(id: 1), at: t + 410)
        h.settle()
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(2.0)"])
        #expect(!control.isHighlighted)
    }

    @Test("a control that has the touch by default keeps it from a second finger: no zoom")
    func controlBlocksPinch() {
        let (h, _) = zoomHarness { $0.delaysContentTouches = false }
        let control = Control(frame: CGRect(x: 120, y: 250, width: 120, height: 100))
        h.scrollView.addSubview(control)
        h.recorder.watch(control, as: "a", in: h.scrollView)
        let t = pinch(h, from: CGPoint(x: 150, y: 300), CGPoint(x: 250, y: 300),
                      to: CGPoint(x: 100, y: 300), CGPoint(x: 300, y: 300), at: 1000)
        h.send(.touchUp(id: 1), at: t + 10)
        h.send(.touchUp(id: 0), at: t + 20)
        h.settle()
        #expect(h.recorder.lines == ["a touchDown T--", "a touchUpOutside T--"])
        #expect(h.scrollView.zoomScale == 1)
    }
}

@Suite("Double tap")
struct DoubleTapTests {
    func harness() -> (Harness, Box) {
        let h = Harness()
        let box = Box()
        h.scrollView.onDoubleTap = { box.taps.append($0) }
        return (h, box)
    }

    final class Box { var taps: [CGPoint] = [] }

    func tap(_ h: Harness, at p: CGPoint, _ time: Double, id: Int = 0) {
        h.send(.touchDown(id: id, location: p), at: time)
        h.send(.touchUp(id: id), at: time + 60)
    }

    @Test("two taps within 300 ms and 20 pt: reported at the second lift, in content coordinates")
    func doubleTap() {
        let (h, box) = harness()
        h.scrollView.contentOffset = CGPoint(x: 0, y: 1000)
        tap(h, at: CGPoint(x: 120, y: 200), 1000)
        #expect(box.taps.isEmpty)
        tap(h, at: CGPoint(x: 126, y: 210), 1300)   // 240 ms after the first lift, 11.7 pt away
        #expect(box.taps == [CGPoint(x: 120, y: 1200)])
        // A third tap starts a new run.
        tap(h, at: CGPoint(x: 120, y: 200), 1500)
        #expect(box.taps.count == 1)
        #expect(h.recorder.lines == ["didScroll ---"])   // only the offset set above
    }

    @Test("too slow, too far, a drag, or a pointer double click", arguments: ["slow", "far", "drag", "pointer"])
    func variants(kind: String) {
        let (h, box) = harness()
        switch kind {
        case "slow":
            tap(h, at: CGPoint(x: 120, y: 200), 1000)
            tap(h, at: CGPoint(x: 120, y: 200), 1400)
        case "far":
            tap(h, at: CGPoint(x: 120, y: 200), 1000)
            tap(h, at: CGPoint(x: 150, y: 200), 1200)
        case "drag":
            tap(h, at: CGPoint(x: 120, y: 300), 1000)
            h.drag(from: CGPoint(x: 120, y: 300), by: CGPoint(x: 0, y: -50), at: 1100, steps: 5)
        default:
            h.send(.pointerMotion(location: CGPoint(x: 50, y: 60)), at: 900)
            for start in [1000.0, 1150] {
                h.send(.pointerButton(button: .left, pressed: true), at: start)
                h.send(.pointerButton(button: .left, pressed: false), at: start + 50)
            }
        }
        #expect(box.taps == (kind == "pointer" ? [CGPoint(x: 50, y: 60)] : []))
    }

    @Test("taps that a control took do not count; the control gets both taps")
    func controlTaps() {
        let (h, _, _) = controlHarness()
        let box = Box()
        h.scrollView.onDoubleTap = { box.taps.append($0) }
        tap(h, at: onControl, 1000)
        tap(h, at: onControl, 1200)
        #expect(box.taps.isEmpty)
        #expect(h.recorder.lines.count == 4)
    }

    @Test("the recognizer alone: interval, distance and movement limits", arguments: [
        (250.0, CGPoint(x: 5, y: 5), CGPoint(x: 0, y: 0), true),
        (350.0, CGPoint(x: 5, y: 5), CGPoint(x: 0, y: 0), false),
        (250.0, CGPoint(x: 25, y: 0), CGPoint(x: 0, y: 0), false),
        (250.0, CGPoint(x: 5, y: 5), CGPoint(x: 0, y: 12), false),
    ])
    func recognizer(gap: Double, second: CGPoint, wobble: CGPoint, recognized: Bool) {
        var taps = TapGestureRecognizer()
        taps.touchBegan(at: .zero, time: 0)
        #expect(taps.touchEnded(at: 50) == nil)
        taps.touchBegan(at: second, time: 50 + gap)
        taps.touchMoved(to: second + wobble)
        #expect((taps.touchEnded(at: 100 + gap) != nil) == recognized)
    }
}
