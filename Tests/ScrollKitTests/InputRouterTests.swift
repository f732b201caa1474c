// Nested scroll views with no app glue: the router gives each drag, pinch, wheel and key to the
// scroll view Apple's nesting rules give it, and hands a drag outward at an inner view's edge.
import Foundation
import Testing
@testable import ScrollKit

/// A window with a horizontal paging strip of `pages` pages, each a vertical scroll view of
/// `pageContent` (optionally zoomable), driven through an `InputRouter` on a 60 Hz clock.
private final class Nest {
    let root = View(frame: CGRect(x: 0, y: 0, width: 400, height: 600))
    let outer = ScrollView(frame: CGRect(x: 0, y: 0, width: 400, height: 600))
    var inner: [ScrollView] = []
    let outerLog = Recorder()
    var innerLogs: [Recorder] = []
    let router: InputRouter
    private var seat = SeatState()
    private(set) var now = 0.0
    private var frame = 0

    init(pages: Int = 3, pageContent: CGSize = CGSize(width: 400, height: 2000), paging: Bool = true,
         outerVertical: Bool = false, zoomable: Bool = false) {
        outer.isPagingEnabled = paging
        outer.contentSize = outerVertical ? CGSize(width: 400, height: 600 * CGFloat(pages))
                                          : CGSize(width: 400 * CGFloat(pages), height: 600)
        outer.delegate = outerLog.delegate
        root.addSubview(outer)
        for i in 0..<pages {
            let origin = outerVertical ? CGPoint(x: 0, y: 600 * CGFloat(i)) : CGPoint(x: 400 * CGFloat(i), y: 0)
            let page = ScrollView(frame: CGRect(origin: origin, size: CGSize(width: 400, height: 600)))
            page.contentSize = pageContent
            let log = Recorder()
            if zoomable {
                let content = View(frame: CGRect(origin: .zero, size: pageContent))
                page.addSubview(content)
                page.maximumZoomScale = 4
                log.zoomView = content
            }
            page.delegate = log.delegate
            outer.addSubview(page)
            inner.append(page)
            innerLogs.append(log)
        }
        router = InputRouter(root: root)
        for log in innerLogs + [outerLog] { log.now = { [unowned self] in self.now } }
    }

    func tick(through time: Double) {
        while Double(frame + 1) * 1000 / 60 <= time {
            frame += 1
            for view in [outer] + inner { view.advance(to: Double(frame) * 1000 / 60) }
        }
        now = max(now, time)
    }

    func send(_ events: [InputEvent.Kind], at time: Double, modifiers: InputEvent.Modifiers = []) {
        tick(through: time)
        router.handle(frame: events.map { seat.stamp(InputEvent(time: time, kind: $0, modifiers: modifiers)) })
    }

    func settle() { tick(through: now + 5000) }

    /// A one-finger drag by `delta` from `start`, 8 ms per step, lifted after `hold` ms.
    func drag(from start: CGPoint, by delta: CGPoint, at time: Double, steps: Int = 10, hold: Double = 0) {
        send([.touchDown(id: 0, location: start)], at: time)
        for i in 1...steps {
            let f = CGFloat(i) / CGFloat(steps)
            send([.touchMotion(id: 0, location: CGPoint(x: start.x + delta.x * f, y: start.y + delta.y * f))],
                 at: time + Double(i) * 8)
        }
        send([.touchUp(id: 0)], at: time + Double(steps) * 8 + 4 + hold)
    }
}

@Suite("Nested scroll views")
struct InputRouterTests {
    @Test("Cross-directional: a vertical drag scrolls the page, a horizontal one turns the pages")
    func crossDirectional() {
        let n = Nest()
        n.drag(from: CGPoint(x: 200, y: 400), by: CGPoint(x: 0, y: -200), at: 0, hold: 100)
        n.settle()
        #expect(n.inner[0].contentOffset.y > 150 && n.outer.contentOffset == .zero)
        #expect(n.outerLog.calls.isEmpty, "the strip heard nothing: \(n.outerLog.lines)")
        n.drag(from: CGPoint(x: 300, y: 300), by: CGPoint(x: -200, y: 0), at: 6000)
        n.settle()
        #expect(n.outer.contentOffset == CGPoint(x: 400, y: 0))
        #expect(n.innerLogs[0].calls.filter { $0.name != "didScroll" }.map(\.name) == ["willBeginDragging", "willEndDragging",
                                                                                        "didEndDragging(false)"],
                "only the first drag reached the page: \(n.innerLogs[0].lines)")
    }

    @Test("Same direction: the inner list scrolls until its end; a drag starting there moves the outer one")
    func sameDirection() {
        let n = Nest(pages: 2, pageContent: CGSize(width: 400, height: 1000), paging: false, outerVertical: true)
        // Inner list 0 can scroll 400 pt; drag it to its end and past.
        n.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -300), at: 0, hold: 100)
        n.settle()
        #expect(abs(n.inner[0].contentOffset.y - 290) < 1 && n.outer.contentOffset.y == 0)
        n.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -300), at: 6000, hold: 100)
        n.settle()
        // 110 pt more reach the list's end; the push on past it goes to the outer view.
        #expect(n.inner[0].contentOffset.y == 400, "\(n.inner[0].contentOffset)")
        #expect(n.outer.contentOffset.y > 100, "the outer view took the rest of the drag: \(n.outer.contentOffset)")
        // A new drag up on the list, resting at its end, goes straight to the outer view.
        let before = n.outer.contentOffset.y
        #expect(n.router.scrollViews(at: CGPoint(x: 200, y: 50)).first === n.inner[0])
        n.drag(from: CGPoint(x: 200, y: 50), by: CGPoint(x: 0, y: -100), at: 12000, hold: 100)
        n.settle()
        #expect(n.inner[0].contentOffset.y == 400 && n.outer.contentOffset.y > before + 50)
    }

    @Test("Pulled past the first page with nothing outside it can move, the strip rubber-bands and springs back")
    func outermostBounces() {
        let n = Nest()
        n.outer.alwaysBounceHorizontal = true
        n.send([.touchDown(id: 0, location: CGPoint(x: 100, y: 300))], at: 0)
        n.send([.touchMotion(id: 0, location: CGPoint(x: 200, y: 300))], at: 50)
        #expect(n.outer.contentOffset.x < -20 && n.outer.isDragging)
        n.send([.touchUp(id: 0)], at: 400)
        n.settle()
        #expect(n.outer.contentOffset == .zero)
    }

    @Test("Two fingers pinch the zooming page, even when the drag had not been decided")
    func pinchGoesToTheZoomingView() {
        let n = Nest(pageContent: CGSize(width: 400, height: 600), zoomable: true)
        n.send([.touchDown(id: 0, location: CGPoint(x: 150, y: 300))], at: 0)
        n.send([.touchDown(id: 1, location: CGPoint(x: 250, y: 300))], at: 10)
        for i in 1...5 {
            let d = CGFloat(i) * 10
            n.send([.touchMotion(id: 0, location: CGPoint(x: 150 - d, y: 300)),
                    .touchMotion(id: 1, location: CGPoint(x: 250 + d, y: 300))], at: 10 + Double(i) * 8)
        }
        n.send([.touchUp(id: 0), .touchUp(id: 1)], at: 100)
        n.settle()
        #expect(abs(n.inner[0].zoomScale - 2) < 1e-6)
        #expect(n.outer.contentOffset == .zero && n.outerLog.calls.isEmpty)
    }

    @Test("A touch on a strip that is still paging stops it and drags it, whatever is under the finger")
    func movingViewTakesTheTouch() {
        let n = Nest()
        n.drag(from: CGPoint(x: 300, y: 300), by: CGPoint(x: -150, y: 0), at: 0)
        #expect(n.outer.isDecelerating)
        n.tick(through: 150)
        n.send([.touchDown(id: 1, location: CGPoint(x: 200, y: 300))], at: 150)
        #expect(n.outer.isTracking && n.outer.isDragging)
        #expect(n.innerLogs[1].calls.isEmpty && n.innerLogs[0].calls.isEmpty)
        n.send([.touchUp(id: 1)], at: 200)
        n.settle()
        // A paging scroll view always comes to rest on a page.
        #expect(n.outer.contentOffset.x.truncatingRemainder(dividingBy: 400) == 0)
    }

    @Test("The wheel goes to the page under the pointer while it can scroll, and stays with it while it turns")
    func wheelLatches() {
        let n = Nest(pageContent: CGSize(width: 400, height: 700))
        n.send([.pointerMotion(location: CGPoint(x: 200, y: 300))], at: 0)
        let notch = InputEvent.Kind.pointerAxis(source: .wheel, dx: 0, dy: 15, value120X: nil, value120Y: 120)
        // The page can scroll 100 pt: two notches reach its end while the wheel keeps turning.
        for i in 0..<4 { n.send([notch], at: 100 + Double(i) * 100) }
        n.settle()
        #expect(n.inner[0].contentOffset.y == 100 && n.outer.contentOffset == .zero)
        // After a pause the next notch finds the page at its end and turns the strip.
        n.send([notch], at: 2000)
        n.settle()
        #expect(n.outer.contentOffset == CGPoint(x: 400, y: 0))
    }

    @Test("Ctrl+wheel zooms the innermost zooming view under the pointer; keys scroll the view that can move")
    func ctrlWheelAndKeys() {
        let n = Nest(pageContent: CGSize(width: 400, height: 600), zoomable: true)
        n.send([.pointerMotion(location: CGPoint(x: 200, y: 300))], at: 0)
        n.send([.key(.control, pressed: true)], at: 10)
        n.send([.pointerAxis(source: .wheel, dx: 0, dy: -60, value120X: nil, value120Y: -480)], at: 20)
        n.send([.key(.control, pressed: false)], at: 30)
        n.settle()
        #expect(abs(n.inner[0].zoomScale - 2) < 1e-6 && n.outer.contentOffset == .zero)
        // Zoomed, the page can move down: Down scrolls it. Right scrolls it too while it can.
        n.send([.key(.down, pressed: true)], at: 3000)
        n.settle()
        #expect(n.inner[0].contentOffset.y > 0 && n.outer.contentOffset == .zero)
    }

    @Test("The drag goes to the first view that can move that way, else the outermost that drags on that axis")
    func takerRules() {
        let n = Nest(pageContent: CGSize(width: 400, height: 2000))
        let chain = [n.inner[0], n.outer]
        #expect(InputRouter.taker(of: CGPoint(x: 0, y: -20), among: chain) === n.inner[0])
        #expect(InputRouter.taker(of: CGPoint(x: -20, y: 3), among: chain) === n.outer)
        // Nothing can move right of the first page: the outermost that drags sideways.
        #expect(InputRouter.taker(of: CGPoint(x: 20, y: 0), among: chain) === n.outer)
        // Pulled down at the top: the page, the only one that drags vertically.
        #expect(InputRouter.taker(of: CGPoint(x: 0, y: 20), among: chain) === n.inner[0])
    }
}
