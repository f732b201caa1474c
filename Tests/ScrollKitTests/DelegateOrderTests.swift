// The seed scenarios (002, 003) driven by synthetic input: whole delegate sequences with the
// state flags at each call. Lines read "name TDE": T tracking, D dragging, E decelerating.
import Foundation
import Testing
@testable import ScrollKit

/// A 1.5 pt/ms upward flick: 120 pt in 80 ms from (200, 500), lifted while moving.
@discardableResult
func fling(_ h: Harness, at time: Double, from y: CGFloat = 500, distance: CGFloat = 120) -> Double {
    h.drag(from: CGPoint(x: 200, y: y), by: CGPoint(x: 0, y: -distance), at: time)
}

@Suite("Delegate order: seed scenarios")
struct DelegateOrderTests {
    @Test("drag and fling: begin, scroll, end with velocity, decelerate, one end (seed 003 scene 1)")
    func dragAndFling() {
        let h = Harness()
        fling(h, at: 1000)
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
        #expect(!h.scrollView.isDragging && !h.scrollView.isDecelerating && !h.scrollView.isTracking)
    }

    @Test("a 1.5 pt/ms fling rests at the closed-form point, which is the target the delegate was given")
    func flingRestsAtTarget() throws {
        let h = Harness()
        fling(h, at: 1000)
        let end = try #require(h.recorder.endDragging.first)
        #expect(close(end.velocity.y, 1.5, 0.01))
        #expect(end.velocity.x == 0)
        let released = try #require(h.recorder.calls.first { $0.name == "willEndDragging" }).offset
        #expect(released.y == 110)   // 120 pt of finger travel less the 10 pt slop
        let closedForm = released.y + 1.5 / -CGFloat(log(0.998))
        h.settle()
        #expect(abs(h.offset.y - closedForm) <= 0.05 * (closedForm - released.y))
        #expect(h.offset == end.target)
        #expect(close(end.target.y, closedForm, 1))
        // The deceleration takes seconds, as on iOS, and DidScroll fired on every frame of it.
        let decelerationFrames = h.recorder.calls.filter { $0.name == "didScroll" && $0.isDecelerating }.count
        #expect(decelerationFrames > 100)
    }

    @Test("the .fast rate rests at x0 + v0 / 0.01005 (1.5 pt/ms → 149.25 pt further)")
    func fastRate() throws {
        let h = Harness { $0.decelerationRate = .fast }
        fling(h, at: 1000)
        h.settle()
        let end = try #require(h.recorder.endDragging.first)
        #expect(close(h.offset.y, 110 + 1.5 / -CGFloat(log(0.99)), 0.75))
        #expect(h.offset == end.target)
    }

    @Test("drag and release without velocity: no deceleration calls at all")
    func releaseWithoutVelocity() throws {
        let h = Harness()
        h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -200), at: 1000, pause: 60)
        h.settle()
        #expect(h.recorder.folded == [
            "willBeginDragging TD-",
            "didScroll… TD-",
            "willEndDragging -D-",
            "didEndDragging(false) -D-",
        ])
        let end = try #require(h.recorder.endDragging.first)
        #expect(end.velocity == .zero)
        #expect(end.target == CGPoint(x: 0, y: 190))
        #expect(h.offset == CGPoint(x: 0, y: 190))
        #expect(!h.scrollView.isDragging)
    }

    @Test("tap-to-stop during deceleration: WillBeginDragging at touch-down, then the leftover DidEndDecelerating (seed 003 scene 2)")
    func tapToStop() {
        let h = Harness()
        let lift = fling(h, at: 1000)
        h.tick(through: lift + 310)
        let stoppedAt = h.offset
        h.send(.touchDown(id: 1, location: CGPoint(x: 100, y: 300)), at: lift + 310)
        #expect(h.scrollView.isTracking && h.scrollView.isDragging && h.scrollView.isDecelerating)
        h.send(.touchUp(id: 1), at: lift + 380)
        h.settle()
        #expect(h.recorder.folded == [
            "willBeginDragging TD-",
            "didScroll… TD-",
            "willEndDragging -D-",
            "didEndDragging(true) -D-",
            "willBeginDecelerating -DE",
            "didScroll… -DE",
            "willBeginDragging TDE",
            "willEndDragging -DE",
            "didEndDragging(false) -DE",
            "didEndDecelerating ---",
        ])
        #expect(h.offset == stoppedAt)   // the content stopped where the finger caught it
    }

    @Test("a catching finger that jiggles within the slop neither moves nor flings the content")
    func tapToStopWithJitter() {
        let h = Harness()
        let lift = fling(h, at: 1000)
        h.tick(through: lift + 300)
        let caught = h.offset
        h.send(.touchDown(id: 1, location: CGPoint(x: 100, y: 300)), at: lift + 300)
        h.send(.touchMotion(id: 1, location: CGPoint(x: 101, y: 297)), at: lift + 310)
        h.send(.touchMotion(id: 1, location: CGPoint(x: 102, y: 294)), at: lift + 320)
        h.send(.touchUp(id: 1), at: lift + 325)
        h.settle()
        #expect(h.offset == caught)
        #expect(h.recorder.endDragging.last?.velocity == .zero)
        #expect(Array(h.recorder.folded.suffix(4)) == ["willBeginDragging TDE", "willEndDragging -DE",
                                                       "didEndDragging(false) -DE", "didEndDecelerating ---"])
    }

    @Test("re-drag with a new fling during deceleration, then tap-to-stop (seed 003 scene 3)")
    func redragThenStop() {
        let h = Harness()
        var t = fling(h, at: 1000)
        h.tick(through: t + 200)
        t = fling(h, at: t + 210, from: 450)
        h.tick(through: t + 200)
        h.send(.touchDown(id: 0, location: CGPoint(x: 200, y: 300)), at: t + 210)
        h.send(.touchUp(id: 0), at: t + 260)
        h.settle()
        #expect(h.recorder.folded == [
            "willBeginDragging TD-",
            "didScroll… TD-",
            "willEndDragging -D-",
            "didEndDragging(true) -D-",
            "willBeginDecelerating -DE",
            "didScroll… -DE",
            "willBeginDragging TDE",
            "didScroll… TDE",
            "willEndDragging -DE",
            "didEndDragging(true) -DE",
            "willBeginDecelerating -DE",
            "didScroll… -DE",
            "willBeginDragging TDE",
            "willEndDragging -DE",
            "didEndDragging(false) -DE",
            "didEndDecelerating ---",
        ])
    }

    @Test("repeated flings: WillBeginDecelerating each time, exactly one DidEndDecelerating at the very end (seed 002)")
    func repeatedFlings() {
        let h = Harness(content: CGSize(width: 400, height: 20_000))
        var t = 1000.0
        for _ in 0..<4 {
            t = fling(h, at: t)
            h.tick(through: t + 150)
            t += 160
        }
        h.settle()
        let names = h.recorder.foldedNames.filter { $0 != "didScroll…" }
        #expect(names == Array(repeating: ["willBeginDragging", "willEndDragging", "didEndDragging(true)",
                                           "willBeginDecelerating"], count: 4).flatMap { $0 } + ["didEndDecelerating"])
        #expect(h.recorder.count("didEndDecelerating") == 1)
        #expect(h.recorder.calls.last?.name == "didEndDecelerating")
    }

    @Test("re-drag during deceleration released without velocity: the leftover DidEndDecelerating")
    func redragWithoutVelocity() {
        let h = Harness()
        let lift = fling(h, at: 1000)
        h.tick(through: lift + 200)
        h.drag(from: CGPoint(x: 200, y: 300), by: CGPoint(x: 0, y: -40), at: lift + 210, pause: 80)
        h.settle()
        #expect(Array(h.recorder.folded.suffix(6)) == [
            "didScroll… -DE",
            "willBeginDragging TDE",
            "didScroll… TDE",
            "willEndDragging -DE",
            "didEndDragging(false) -DE",
            "didEndDecelerating ---",
        ])
    }

    @Test("a tap on a resting scroll view calls nothing, with a finger or the pointer")
    func tapCallsNothing() {
        let h = Harness()
        h.send(.touchDown(id: 0, location: CGPoint(x: 200, y: 300)), at: 100)
        #expect(h.scrollView.isTracking && !h.scrollView.isDragging)
        h.send(.touchMotion(id: 0, location: CGPoint(x: 203, y: 296)), at: 120)
        h.send(.touchUp(id: 0), at: 160)
        h.send(.pointerMotion(location: CGPoint(x: 50, y: 50)), at: 300)
        h.send(.pointerButton(button: .left, pressed: true), at: 310)
        h.send(.pointerButton(button: .left, pressed: false), at: 360)
        h.settle()
        #expect(h.recorder.lines.isEmpty)
        #expect(!h.scrollView.isTracking)
        #expect(!h.scrollView.isAnimating)
    }

    @Test("targetContentOffset changed by the delegate really changes where the content rests")
    func targetOverride() throws {
        for target in [CGPoint(x: 0, y: 800), CGPoint(x: 0, y: 300), CGPoint(x: 0, y: 40)] {
            let h = Harness()
            h.recorder.targetOverride = target
            fling(h, at: 1000)
            h.settle()
            #expect(h.offset == target)
            #expect(h.recorder.endDragging.first?.target == target)
            #expect(h.recorder.endDragging.first.map { close($0.proposed.y, 859.25, 0.5) } == true)
            #expect(h.recorder.folded.last == "didEndDecelerating ---")
            // Monotonic toward the new target: no overshoot past it.
            let decel = h.recorder.calls.filter { $0.name == "didScroll" && !$0.isTracking }.map(\.offset.y)
            let forward = target.y >= 110
            for (a, b) in zip(decel, decel.dropFirst()) { #expect(forward ? b >= a : b <= a) }
        }
    }

    @Test("a target moved after a release without velocity still moves the content there")
    func targetOverrideWithoutVelocity() {
        let h = Harness()
        h.recorder.targetOverride = CGPoint(x: 0, y: 500)
        h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -100), at: 1000, pause: 60)
        h.settle()
        #expect(h.offset == CGPoint(x: 0, y: 500))
        #expect(h.recorder.foldedNames == ["willBeginDragging", "didScroll…", "willEndDragging",
                                           "didEndDragging(true)", "willBeginDecelerating", "didScroll…",
                                           "didEndDecelerating"])
    }

    @Test("a delegate may start an animation from DidEndDecelerating (seed 000's example)")
    func reentrantAnimation() {
        let h = Harness()
        h.recorder.onDidEndDecelerating = { $0.setContentOffset(CGPoint(x: 0, y: 500), animated: true) }
        fling(h, at: 1000)
        h.settle()
        #expect(h.offset == CGPoint(x: 0, y: 500))
        #expect(Array(h.recorder.folded.suffix(3)) == ["didEndDecelerating ---", "didScroll… ---",
                                                       "didEndScrollingAnimation ---"])
    }

    @Test("a delegate that nudges the offset while the drag ends does not cut the sequence short")
    func nudgeWhileEnding() {
        for nudgeInWillEnd in [true, false] {
            let h = Harness()
            let nudge: (ScrollView) -> Void = { $0.contentOffset.y += 30 }
            if nudgeInWillEnd { h.recorder.onWillEndDragging = nudge } else { h.recorder.onDidEndDragging = nudge }
            fling(h, at: 1000)
            h.settle()
            let expected = nudgeInWillEnd
                ? ["willBeginDragging", "didScroll…", "willEndDragging", "didScroll…", "didEndDragging(true)",
                   "willBeginDecelerating", "didScroll…", "didEndDecelerating"]
                : ["willBeginDragging", "didScroll…", "willEndDragging", "didEndDragging(true)", "didScroll…",
                   "willBeginDecelerating", "didScroll…", "didEndDecelerating"]
            #expect(h.recorder.foldedNames == expected)
            #expect(h.recorder.count("willBeginDecelerating") == 1)
            #expect(h.recorder.count("didEndDecelerating") == 1)
            #expect(!h.scrollView.isDragging && !h.scrollView.isDecelerating)
            // Momentum continued from the nudged offset: 30 pt further than without the nudge.
            #expect(close(h.offset.y, 859.25 + 30, 1), "nudged in \(nudgeInWillEnd ? "WillEnd" : "DidEnd")")
        }
    }

    @Test("a delegate that pins x in DidScroll keeps the fling going on y")
    func reentrantClamp() {
        let h = Harness(content: CGSize(width: 2000, height: 3000))
        h.recorder.onDidScroll = { s in if s.contentOffset.x != 0 { s.contentOffset.x = 0 } }
        h.drag(from: CGPoint(x: 300, y: 500), by: CGPoint(x: -120, y: -120), at: 1000)
        h.settle()
        #expect(h.offset.x == 0)
        #expect(h.offset.y > 500)
        #expect(h.recorder.count("didEndDecelerating") == 1)
    }
}

@Suite("Delegate order: programmatic scrolling")
struct ProgrammaticScrollingTests {
    @Test("contentOffset = p and setContentOffset(p, animated: false): exactly one DidScroll")
    func immediate() {
        let h = Harness()
        h.scrollView.contentOffset = CGPoint(x: 0, y: 700)
        #expect(h.recorder.lines == ["didScroll ---"])
        h.recorder.reset()
        h.scrollView.setContentOffset(CGPoint(x: 0, y: 20), animated: false)
        #expect(h.recorder.lines == ["didScroll ---"])
        h.recorder.reset()
        // A set that changes nothing reports nothing.
        h.scrollView.contentOffset = CGPoint(x: 0, y: 20)
        h.scrollView.setContentOffset(CGPoint(x: 0, y: 20), animated: false)
        h.settle()
        #expect(h.recorder.lines.isEmpty)
        // Not clamped, as in UIKit.
        h.scrollView.contentOffset = CGPoint(x: 0, y: -80)
        #expect(h.offset.y == -80)
    }

    @Test("animated: a series of DidScroll on frames, then DidEndScrollingAnimation; 300 ms at constant velocity")
    func animated() {
        let h = Harness()
        h.call(at: 1000) { $0.setContentOffset(CGPoint(x: 0, y: 900), animated: true) }
        #expect(h.recorder.lines.isEmpty)   // nothing moves until a frame
        #expect(h.scrollView.isAnimating)
        let end = h.settle()
        #expect(h.offset == CGPoint(x: 0, y: 900))
        #expect(h.recorder.folded == ["didScroll… ---", "didEndScrollingAnimation ---"])
        #expect(h.recorder.count("didScroll") >= 15)
        #expect(end >= 1300 && end < 1320)
        // Constant velocity (UIScrollView.h: "animate at constant velocity to new offset"):
        // 900 pt in 300 ms is 3 pt/ms, so every frame moves by 3 pt/ms × its time.
        let scrolls = h.recorder.calls.filter { $0.name == "didScroll" }
        var previous = (time: 1000.0, y: 0.0)
        for call in scrolls {
            #expect(close(call.offset.y - previous.y, 3 * (call.time - previous.time), 1e-6), "at \(call.time)")
            previous = (call.time, Double(call.offset.y))
        }
    }

    @Test("animated to where it already is: nothing at all")
    func animatedNoop() {
        let h = Harness()
        h.scrollView.setContentOffset(.zero, animated: true)
        h.settle()
        #expect(h.recorder.lines.isEmpty)
        #expect(!h.scrollView.isAnimating)
    }

    @Test("setContentOffset(animated: false) stops a deceleration where it is (UIKit's stop idiom)")
    func stopIdiom() {
        let h = Harness()
        let lift = fling(h, at: 1000)
        h.tick(through: lift + 255)
        let here = h.offset
        h.call(at: lift + 255) { $0.setContentOffset($0.contentOffset, animated: false) }
        h.settle()
        #expect(h.offset == here)
        #expect(h.recorder.folded.last == "didEndDecelerating ---")
        #expect(!h.scrollView.isDragging && !h.scrollView.isDecelerating)
    }

    @Test("scrollRectToVisible: nothing when visible, nearest edges otherwise")
    func scrollRectToVisible() {
        let h = Harness()
        h.scrollView.scrollRectToVisible(CGRect(x: 10, y: 100, width: 50, height: 50), animated: false)
        h.scrollView.scrollRectToVisible(CGRect(x: 0, y: 0, width: 400, height: 600), animated: true)
        h.settle()
        #expect(h.recorder.lines.isEmpty)

        // Below: its bottom edge comes to the bottom of the view.
        h.scrollView.scrollRectToVisible(CGRect(x: 0, y: 900, width: 10, height: 10), animated: false)
        #expect(h.offset == CGPoint(x: 0, y: 310))
        #expect(h.recorder.lines == ["didScroll ---"])
        // Above: its top edge comes to the top.
        h.scrollView.scrollRectToVisible(CGRect(x: 0, y: 200, width: 10, height: 30), animated: false)
        #expect(h.offset == CGPoint(x: 0, y: 200))
        // Taller than the view: its top edge.
        h.scrollView.scrollRectToVisible(CGRect(x: 0, y: 1000, width: 10, height: 900), animated: false)
        #expect(h.offset == CGPoint(x: 0, y: 1000))
        // Past the content: clamped to the range.
        h.scrollView.scrollRectToVisible(CGRect(x: 0, y: 2990, width: 10, height: 40), animated: false)
        #expect(h.offset == CGPoint(x: 0, y: 2400))
    }

    @Test("scrollRectToVisible animated: DidScroll series then DidEndScrollingAnimation")
    func scrollRectAnimated() {
        let h = Harness()
        h.call(at: 500) { $0.scrollRectToVisible(CGRect(x: 0, y: 1200, width: 10, height: 100), animated: true) }
        h.settle()
        #expect(h.offset == CGPoint(x: 0, y: 700))
        #expect(h.recorder.folded == ["didScroll… ---", "didEndScrollingAnimation ---"])
    }

    @Test("scroll to top: Should → animation → DidScrollToTop; refused, disabled, or already there")
    func scrollToTop() {
        let h = Harness { $0.contentInset = EdgeInsets(top: 50, left: 0, bottom: 0, right: 0) }
        h.scrollView.contentOffset = CGPoint(x: 0, y: 1500)
        h.recorder.reset()
        h.call(at: 100) { $0.scrollToTop() }
        h.settle()
        #expect(h.offset == CGPoint(x: 0, y: -50))
        #expect(h.recorder.folded == ["shouldScrollToTop ---", "didScroll… ---", "didScrollToTop ---"])

        h.recorder.reset()
        h.call(at: 1000) { $0.scrollToTop() }   // already at the top
        #expect(h.recorder.lines == ["shouldScrollToTop ---", "didScrollToTop ---"])

        h.scrollView.contentOffset = CGPoint(x: 0, y: 700)
        h.recorder.reset()
        h.recorder.shouldScrollToTop = false
        h.call(at: 2000) { $0.scrollToTop() }
        h.settle()
        #expect(h.recorder.lines == ["shouldScrollToTop ---"])
        #expect(h.offset.y == 700)

        h.recorder.reset()
        h.recorder.shouldScrollToTop = true
        h.scrollView.scrollsToTop = false
        h.call(at: 3000) { $0.scrollToTop() }
        h.settle()
        #expect(h.recorder.lines.isEmpty)
    }
}
