// Behaviour with the scroll view's options: insets, bounces, alwaysBounce, scrollEnabled,
// paging, directional lock, rubber band, and the host's frame requests.
import Foundation
import Testing
@testable import ScrollKit

@Suite("Scroll behaviour")
struct ScrollBehaviourTests {
    @Test("rubber band while dragging past the top: displayed = (1 − 1/(x·0.55/d + 1))·d")
    func rubberBandDrag() {
        let h = Harness()
        h.drag(from: CGPoint(x: 200, y: 100), by: CGPoint(x: 0, y: 100), at: 1000, lift: false)
        // 100 pt of finger travel less the 10 pt slop = 90 pt past the edge, d = 600.
        #expect(close(h.offset.y, -45.7275, 0.001))
        #expect(h.offset.x == 0)
        // Keep pulling: still monotonic, always less than the finger.
        h.send(.touchMotion(id: 0, location: CGPoint(x: 200, y: 600)), at: 1100)
        #expect(close(h.offset.y, -CGFloat(RubberBand.displayed(overshoot: 490, dimension: 600)), 0.001))
        // Pushing back moves the content back along the same curve.
        h.send(.touchMotion(id: 0, location: CGPoint(x: 200, y: 200)), at: 1200)
        #expect(close(h.offset.y, -45.7275, 0.001))
        h.send(.touchUp(id: 0), at: 1300)
        h.settle()
        #expect(h.offset.y == 0)
        #expect(h.recorder.folded == ["willBeginDragging TD-", "didScroll… TD-", "willEndDragging -D-",
                                      "didEndDragging(true) -D-", "willBeginDecelerating -DE", "didScroll… -DE",
                                      "didEndDecelerating ---"])
        #expect(h.recorder.endDragging.first?.target == .zero)
    }

    @Test("content insets extend the range; released past the top inset it springs back to −inset")
    func insets() throws {
        let h = Harness { $0.contentInset = EdgeInsets(top: 50, left: 0, bottom: 30, right: 0) }
        #expect(h.scrollView.scrollRange(.vertical) == -50...2430)
        h.drag(from: CGPoint(x: 200, y: 100), by: CGPoint(x: 0, y: 200), at: 1000, pause: 60)
        let deepest = try #require(h.recorder.calls.map(\.offset.y).min())
        #expect(close(deepest, -50 - 68.2422, 0.01))   // 140 pt past −50, rubber-banded
        h.settle()
        #expect(h.offset.y == -50)
        #expect(h.recorder.endDragging.first?.target == CGPoint(x: 0, y: -50))
        // A fling to the far end rests at contentSize + bottom inset − height.
        fling(h, at: 5000, distance: 300)
        h.settle()
        #expect(h.offset.y <= 2430)
        h.scrollView.contentOffset.y = 2300
        fling(h, at: 20_000)
        h.settle()
        #expect(h.offset.y == 2430)
    }

    @Test("bounces off: dragging past an edge stops at it, a fling into the end stops dead there")
    func bouncesOff() {
        let h = Harness { $0.bounces = false }
        h.drag(from: CGPoint(x: 200, y: 100), by: CGPoint(x: 0, y: 120), at: 1000)
        h.settle()
        #expect(h.offset == .zero)
        #expect(h.recorder.folded == ["willBeginDragging TD-", "willEndDragging -D-", "didEndDragging(false) -D-"])

        h.scrollView.contentOffset = CGPoint(x: 0, y: 2000)
        h.recorder.reset()
        fling(h, at: 5000)
        h.settle()
        #expect(h.offset.y == 2400)
        #expect(h.recorder.calls.allSatisfy { $0.offset.y <= 2400 })
        #expect(h.recorder.endDragging.first?.target == CGPoint(x: 0, y: 2400))
        #expect(h.recorder.folded.last == "didEndDecelerating ---")
    }

    @Test("bounces on: a fling into the end overshoots, springs back and rests on the edge")
    func bounceAtEnd() {
        let h = Harness()
        h.scrollView.contentOffset = CGPoint(x: 0, y: 2000)
        h.recorder.reset()
        fling(h, at: 5000)
        h.settle()
        #expect(h.offset.y == 2400)
        // Friction reaches the edge at 0.92 pt/ms; the spring peaks 0.92/(0.01·e) ≈ 34 pt out.
        let peak = h.recorder.calls.map(\.offset.y).max() ?? 0
        #expect(close(peak, 2433.8, 1.5))
        #expect(h.recorder.endDragging.first?.target == CGPoint(x: 0, y: 2400))
        #expect(h.recorder.count("didEndDecelerating") == 1)
    }

    @Test("small content drags only with alwaysBounceVertical (and bounces)")
    func alwaysBounce() {
        let small = CGSize(width: 400, height: 300)
        let plain = Harness(content: small)
        plain.drag(from: CGPoint(x: 200, y: 300), by: CGPoint(x: 0, y: -150), at: 1000)
        plain.settle()
        #expect(plain.recorder.lines.isEmpty)

        let bouncy = Harness(content: small) { $0.alwaysBounceVertical = true }
        bouncy.drag(from: CGPoint(x: 200, y: 300), by: CGPoint(x: 0, y: -150), at: 1000)
        #expect(bouncy.recorder.calls.contains { $0.offset.y > 0 })
        bouncy.settle()
        #expect(bouncy.offset.y == 0)
        #expect(bouncy.recorder.foldedNames == ["willBeginDragging", "didScroll…", "willEndDragging",
                                                "didEndDragging(true)", "willBeginDecelerating", "didScroll…",
                                                "didEndDecelerating"])

        let stiff = Harness(content: small) {
            $0.alwaysBounceVertical = true
            $0.bounces = false
        }
        stiff.drag(from: CGPoint(x: 200, y: 300), by: CGPoint(x: 0, y: -150), at: 1000)
        stiff.settle()
        #expect(stiff.recorder.lines.isEmpty)
    }

    @Test("scrollEnabled off: no input scrolls, code still does")
    func scrollDisabled() {
        let h = Harness { $0.isScrollEnabled = false }
        h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -200), at: 1000)
        h.send(.pointerAxis(source: .wheel, dx: 0, dy: 15, value120X: nil, value120Y: 120), at: 1200)
        h.send(.pointerAxis(source: .finger, dx: 0, dy: 12, value120X: nil, value120Y: nil), at: 1300)
        h.send(.axisStop(axis: .vertical), at: 1310)
        h.send(.key(Key(keysymName: "Page_Down"), pressed: true), at: 1400, modifiers: [])
        h.settle()
        #expect(h.recorder.lines.isEmpty)
        #expect(!h.scrollView.isTracking)
        h.scrollView.contentOffset = CGPoint(x: 0, y: 300)
        #expect(h.recorder.lines == ["didScroll ---"])
    }

    @Test("paging: slow drags go to the nearest page, a flick to the next, one page per fling")
    func paging() {
        func pager() -> Harness {
            Harness(content: CGSize(width: 2000, height: 600)) { $0.isPagingEnabled = true }
        }
        // (finger movement left, steps, pause before lift, expected resting x)
        let cases: [(CGFloat, Int, Double, CGFloat)] = [
            (160, 10, 60, 0),      // 150 pt, slow: back
            (260, 10, 60, 400),    // 250 pt, slow: forward
            (70, 4, 0, 400),       // a short quick flick
            (-70, 4, 0, 0),        // a flick the other way at the first page stays there
            (300, 5, 0, 400),      // a hard fling: still one page
        ]
        for (distance, steps, pause, expected) in cases {
            let h = pager()
            h.drag(from: CGPoint(x: 300, y: 300), by: CGPoint(x: -distance, y: 0), at: 1000, steps: steps, pause: pause)
            h.settle()
            #expect(h.offset == CGPoint(x: expected, y: 0), "moved \(distance)")
            #expect(h.recorder.endDragging.first?.target == CGPoint(x: expected, y: 0))
            #expect(h.recorder.count("didEndDecelerating") == (h.recorder.calls.contains { $0.name == "willBeginDecelerating" } ? 1 : 0))
        }
        // From page 1 a hard fling reaches page 2, not 3; paging lands in well under a second.
        let h = pager()
        h.scrollView.contentOffset = CGPoint(x: 400, y: 0)
        let lift = h.drag(from: CGPoint(x: 300, y: 300), by: CGPoint(x: -300, y: 0), at: 1000, steps: 5)
        let end = h.settle()
        #expect(h.offset.x == 800)
        #expect(end - lift < 900)
    }

    @Test("directional lock: a clearly vertical start moves only y; a diagonal one moves both")
    func directionalLock() {
        let content = CGSize(width: 2000, height: 3000)
        let locked = Harness(content: content) { $0.isDirectionalLockEnabled = true }
        locked.drag(from: CGPoint(x: 300, y: 500), by: CGPoint(x: -20, y: -100), at: 1000, lift: false)
        locked.send(.touchMotion(id: 0, location: CGPoint(x: 150, y: 300)), at: 1100)
        #expect(locked.offset.x == 0)
        #expect(locked.offset.y > 100)
        #expect(locked.scrollView.panGestureRecognizer.lockedAxis == .vertical)
        locked.send(.touchUp(id: 0), at: 1110)
        #expect(locked.recorder.endDragging.first?.velocity.x == 0)

        let diagonal = Harness(content: content) { $0.isDirectionalLockEnabled = true }
        diagonal.drag(from: CGPoint(x: 300, y: 500), by: CGPoint(x: -100, y: -100), at: 1000, pause: 60)
        #expect(close(diagonal.offset.x, 92.93, 0.01))   // 141.4 pt diagonal less the 10 pt slop
        #expect(close(diagonal.offset.y, 92.93, 0.01))

        let free = Harness(content: content)
        free.drag(from: CGPoint(x: 300, y: 500), by: CGPoint(x: -20, y: -100), at: 1000, pause: 60)
        #expect(free.offset.x > 15)
    }

    @Test("content that fits on an axis does not move on it, even when the finger does")
    func fixedAxis() {
        let h = Harness()
        h.drag(from: CGPoint(x: 300, y: 500), by: CGPoint(x: -120, y: -120), at: 1000)
        h.settle()
        #expect(h.offset.x == 0)
        #expect(h.recorder.endDragging.first?.velocity.x == 0)
        #expect(h.recorder.calls.allSatisfy { $0.offset.x == 0 })
    }

    @Test("the host is asked for frames when motion starts; nothing animates at rest")
    func frameRequests() {
        let h = Harness()
        #expect(!h.scrollView.isAnimating)
        h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -120), at: 1000, lift: false)
        let before = h.framesNeeded
        h.send(.touchUp(id: 0), at: 1081)
        #expect(h.framesNeeded > before)
        #expect(h.scrollView.isAnimating)
        let stop = h.settle()
        #expect(!h.scrollView.isAnimating)
        // The indicators wait 500 ms, then fade for 300 ms; the host sleeps until then.
        #expect(h.scrollView.nextWakeTime == stop + 500)
        var requests = h.framesNeeded
        h.scrollView.advance(to: stop + 400)
        #expect(h.framesNeeded == requests)
        h.scrollView.advance(to: stop + 600)
        #expect(h.scrollView.isAnimating)
        #expect(h.framesNeeded == requests + 1)
        h.scrollView.advance(to: stop + 900)
        #expect(!h.scrollView.isAnimating)
        #expect(h.scrollView.nextWakeTime == nil)
        requests = h.framesNeeded
        h.scrollView.advance(to: stop + 5000)
        #expect(h.framesNeeded == requests)   // idle costs nothing
    }

    @Test("touches outside the frame, or with non-finite coordinates, are ignored")
    func outsideTouches() {
        let h = Harness()
        h.drag(from: CGPoint(x: 500, y: 500), by: CGPoint(x: 0, y: -200), at: 1000)
        h.send(.touchDown(id: 3, location: CGPoint(x: CGFloat.nan, y: 10)), at: 2000)
        h.send(.touchMotion(id: 3, location: CGPoint(x: 10, y: CGFloat.infinity)), at: 2010)
        h.send(.touchUp(id: 3), at: 2020)
        h.settle()
        #expect(h.recorder.lines.isEmpty)
    }

    @Test("a second finger neither starts nor ends the first finger's drag")
    func secondFinger() {
        let h = Harness()
        h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -100), at: 1000, lift: false)
        h.send(.touchDown(id: 7, location: CGPoint(x: 100, y: 100)), at: 1100)
        h.send(.touchMotion(id: 7, location: CGPoint(x: 100, y: 300)), at: 1110)
        h.send(.touchUp(id: 7), at: 1120)
        #expect(h.scrollView.isTracking)
        #expect(h.offset.y == 90)
        h.send(.touchUp(id: 0), at: 1200)
        #expect(!h.scrollView.isTracking)
    }
}

@Suite("Scroll options without a scenario of their own")
struct ScrollOptionTests {
    @Test("a custom deceleration rate rests at x0 − v0 / ln d for that rate")
    func customRate() throws {
        let h = Harness { $0.decelerationRate = ScrollView.DecelerationRate(rawValue: 0.995) }
        fling(h, at: 1000)
        h.settle()
        let end = try #require(h.recorder.endDragging.first)
        #expect(close(h.offset.y, 110 + 1.5 / -CGFloat(log(0.995)), 0.75))
        #expect(h.offset == end.target)
    }

    @Test("keyboardDismissMode .onDrag asks the host to hide the keyboard when a drag begins")
    func keyboardDismiss() {
        var dismissals = 0
        let h = Harness {
            $0.keyboardDismissMode = .onDrag
        }
        h.scrollView.keyboardDismissHandler = { dismissals += 1 }
        h.send(.touchDown(id: 0, location: CGPoint(x: 200, y: 300)), at: 10)
        h.send(.touchUp(id: 0), at: 30)
        #expect(dismissals == 0)   // a tap is not a drag
        h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -100), at: 100, pause: 60)
        #expect(dismissals == 1)

        var none = 0
        let g = Harness()
        g.scrollView.keyboardDismissHandler = { none += 1 }
        g.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -100), at: 100)
        #expect(none == 0)
    }

    @Test("the pan recognizer snapshot follows the drag")
    func panSnapshot() {
        let h = Harness()
        #expect(h.scrollView.panGestureRecognizer.state == .possible)
        h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -100), at: 100, lift: false)
        #expect(h.scrollView.panGestureRecognizer.state == .changed)
        #expect(h.scrollView.panGestureRecognizer.translation == CGPoint(x: 0, y: -90))
    }

    @Test("scrollRectToVisible works sideways too")
    func scrollRectSideways() {
        let h = Harness(content: CGSize(width: 2000, height: 3000))
        h.scrollView.scrollRectToVisible(CGRect(x: 900, y: 10, width: 100, height: 10), animated: false)
        #expect(h.offset == CGPoint(x: 600, y: 0))
        #expect(h.recorder.lines == ["didScroll ---"])
    }
}
