// The indicator model: geometry in both coordinate spaces, opacity over time, styles.
import Foundation
import Testing
@testable import ScrollKit

@Suite("Scroll indicators")
struct IndicatorTests {
    func rectsClose(_ a: CGRect?, _ b: CGRect, _ tolerance: CGFloat = 0.01) -> Bool {
        guard let a else { return false }
        return close(a.minX, b.minX, tolerance) && close(a.minY, b.minY, tolerance)
            && close(a.width, b.width, tolerance) && close(a.height, b.height, tolerance)
    }

    @Test("hidden at rest; while dragging a 3 pt bar 3 pt from the right edge, sized by the visible fraction")
    func geometry() throws {
        let h = Harness()
        #expect(h.scrollView.scrollIndicators.isEmpty)
        h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -200), at: 1000, lift: false)
        let bars = h.scrollView.indicators(at: h.now)
        #expect(bars.count == 1)   // the content is as wide as the view: no horizontal bar
        let bar = try #require(bars.first)
        #expect(bar.axis == .vertical)
        #expect(bar.alpha == 1)
        // Track 594 pt (3 pt each end), 600/3000 of it long, 190/2400 of the way down.
        let expected = CGRect(x: 394, y: 3 + (594 - 118.8) * 190 / 2400, width: 3, height: 118.8)
        #expect(rectsClose(bar.frame, expected))
        #expect(rectsClose(bar.rectInBounds, expected.offsetBy(dx: 0, dy: 190)))
        #expect(bar.cornerRadius == 1.5)
        #expect(bar.borderColor != nil && bar.borderWidth == 1)
    }

    @Test("frames are in the superview's space: a scroll view placed at (50, 80)")
    func superviewSpace() throws {
        let root = View(frame: CGRect(x: 0, y: 0, width: 800, height: 800))
        let s = ScrollView(frame: CGRect(x: 50, y: 80, width: 400, height: 600))
        s.contentSize = CGSize(width: 400, height: 3000)
        root.addSubview(s)
        s.contentOffset = CGPoint(x: 0, y: 2400)
        s.flashScrollIndicators()
        let bar = try #require(s.scrollIndicators.first)
        #expect(rectsClose(bar.frame, CGRect(x: 50 + 394, y: 80 + 3 + 475.2, width: 3, height: 118.8)))
        #expect(rectsClose(bar.rectInBounds, CGRect(x: 394, y: 2400 + 3 + 475.2, width: 3, height: 118.8)))
    }

    @Test("Lifting a finger that had stopped asks the host for a tick, so it learns when to fade the bars")
    func fadeIsScheduledWithTheHost() {
        // A host only reads `nextWakeTime` when it ticks; a lift that moves nothing must still
        // ask for that tick, or the bars stay on screen until the next input.
        let h = Harness()
        h.send(.touchDown(id: 0, location: CGPoint(x: 200, y: 500)), at: 1000)
        for i in 1...10 { h.send(.touchMotion(id: 0, location: CGPoint(x: 200, y: 500 - 20 * Double(i))), at: 1000 + 8 * Double(i)) }
        h.tick(through: 1300)  // the finger rests: frames go by, nothing moves
        let before = h.framesNeeded
        h.send(.touchUp(id: 0), at: 1300)
        #expect(h.framesNeeded > before, "the lift asked for no frame")
        #expect(h.scrollView.nextWakeTime == 1800)
    }

    @Test("opaque while scrolling, then 500 ms later a 300 ms fade")
    func fade() {
        let h = Harness()
        let lift = h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -200), at: 1000, pause: 60)
        #expect(!h.scrollView.isAnimating)
        #expect(h.scrollView.nextWakeTime == lift + 500)
        #expect(h.scrollView.indicators(at: lift + 499).first?.alpha == 1)
        #expect(h.scrollView.indicators(at: lift + 650).first.map { close($0.alpha, 0.5, 1e-9) } == true)
        #expect(h.scrollView.indicators(at: lift + 800).isEmpty)
        // During a deceleration they stay opaque until it ends.
        let g = Harness()
        let flingEnd = fling(g, at: 1000)
        g.tick(through: flingEnd + 1500)
        #expect(g.scrollView.scrollIndicators.first?.alpha == 1)
    }

    @Test("with both indicators hidden nothing fades: no ticks and no wake-up once scrolling ends")
    func hiddenIndicatorsCostNoFrames() {
        let h = Harness { $0.showsVerticalScrollIndicator = false; $0.showsHorizontalScrollIndicator = false }
        let lift = h.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -200), at: 1000, pause: 60)
        #expect(!h.scrollView.isAnimating && h.scrollView.nextWakeTime == nil)
        #expect(h.scrollView.indicators(at: lift).isEmpty)
        let end = h.settle()
        #expect(end == lift, "frames ticked after the drag ended, at \(end)")
        h.call(at: lift + 1000) { $0.flashScrollIndicators() }
        #expect(!h.scrollView.isAnimating && h.scrollView.nextWakeTime == nil)
        // One bar shown is enough for the fade to run.
        let g = Harness { $0.showsHorizontalScrollIndicator = false }
        let gLift = g.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -200), at: 1000, pause: 60)
        #expect(g.scrollView.nextWakeTime == gLift + 500)
    }

    @Test("flashScrollIndicators shows them for 600 ms, then fades; no effect while scrolling")
    func flash() {
        let h = Harness()
        h.call(at: 100) { $0.flashScrollIndicators() }
        #expect(h.scrollView.indicators(at: 100).first?.alpha == 1)
        #expect(h.scrollView.indicators(at: 700).first?.alpha == 1)
        #expect(h.scrollView.indicators(at: 850).first.map { close($0.alpha, 0.5, 1e-9) } == true)
        #expect(h.scrollView.indicators(at: 1000).isEmpty)
        #expect(h.recorder.lines.isEmpty)   // flashing scrolls nothing

        let g = Harness()
        g.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -200), at: 1000, lift: false)
        g.call(at: 1100) { $0.flashScrollIndicators() }
        #expect(g.scrollView.indicators(at: 5000).first?.alpha == 1)   // still dragging: stays
    }

    @Test("rubber-banding shrinks the bar by the overscroll, down to twice its thickness")
    func squash() throws {
        let h = Harness()
        h.scrollView.flashScrollIndicators()
        h.scrollView.contentOffset = CGPoint(x: 0, y: -50)
        var bar = try #require(h.scrollView.scrollIndicators.first)
        #expect(rectsClose(bar.frame, CGRect(x: 394, y: 3, width: 3, height: 68.8)))
        h.scrollView.contentOffset = CGPoint(x: 0, y: -500)
        bar = try #require(h.scrollView.scrollIndicators.first)
        #expect(rectsClose(bar.frame, CGRect(x: 394, y: 3, width: 3, height: 6)))
        h.scrollView.contentOffset = CGPoint(x: 0, y: 2450)
        bar = try #require(h.scrollView.scrollIndicators.first)
        #expect(rectsClose(bar.frame, CGRect(x: 394, y: 597 - 68.8, width: 3, height: 68.8)))
    }

    @Test("long content keeps a 36 pt minimum; both bars leave each other the corner")
    func minimumAndCorner() throws {
        let long = Harness(content: CGSize(width: 400, height: 100_000))
        long.scrollView.flashScrollIndicators()
        #expect(long.scrollView.scrollIndicators.first?.frame.height == 36)

        let both = Harness(content: CGSize(width: 2000, height: 3000))
        both.scrollView.flashScrollIndicators()
        let bars = both.scrollView.scrollIndicators
        let vertical = try #require(bars.first { $0.axis == .vertical })
        let horizontal = try #require(bars.first { $0.axis == .horizontal })
        #expect(rectsClose(vertical.frame, CGRect(x: 394, y: 3, width: 3, height: 588 * 0.2)))
        #expect(rectsClose(horizontal.frame, CGRect(x: 3, y: 594, width: 388 * 0.2, height: 3)))
        #expect(!vertical.frame.intersects(horizontal.frame))
    }

    @Test("shows… flags, indicator insets and styles")
    func options() throws {
        let hidden = Harness { $0.showsVerticalScrollIndicator = false }
        hidden.scrollView.flashScrollIndicators()
        #expect(hidden.scrollView.scrollIndicators.isEmpty)

        let inset = Harness {
            $0.scrollIndicatorInsets = EdgeInsets(top: 20, left: 0, bottom: 0, right: 5)
            $0.indicatorStyle = .black
        }
        inset.scrollView.flashScrollIndicators()
        let bar = try #require(inset.scrollView.scrollIndicators.first)
        #expect(rectsClose(bar.frame, CGRect(x: 400 - 5 - 3 - 2.5, y: 23, width: 2.5, height: 574 * 0.2)))
        #expect(bar.style == .black && bar.borderColor == nil && bar.fillColor.red == 0)

        let white = Harness { $0.indicatorStyle = .white }
        white.scrollView.flashScrollIndicators()
        #expect(white.scrollView.scrollIndicators.first?.fillColor.red == 1)
    }

    @Test("small content shows a full-length bar only when it always bounces")
    func smallContent() {
        let plain = Harness(content: CGSize(width: 400, height: 300))
        plain.scrollView.flashScrollIndicators()
        #expect(plain.scrollView.scrollIndicators.isEmpty)
        let bouncy = Harness(content: CGSize(width: 400, height: 300)) { $0.alwaysBounceVertical = true }
        bouncy.scrollView.flashScrollIndicators()
        #expect(bouncy.scrollView.scrollIndicators.first?.frame.height == 594)
    }
}
