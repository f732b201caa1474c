// Zooming as a user sees it: what stays under the fingers, where the scale ends, and the
// delegate calls (with tracking T, dragging D, decelerating E, zooming Z, bouncing B flags)
// compared whole.
import Foundation
import Testing
@testable import ScrollKit

/// A scroll view of `viewport` showing an image-like zoom view of `image` (its content at
/// scale 1), zoomable between `minimum` and `maximum`.
func zoomHarness(viewport: CGSize = CGSize(width: 400, height: 600), image: CGSize = CGSize(width: 800, height: 1200),
                 minimum: CGFloat = 0.5, maximum: CGFloat = 4, configure: (ScrollView) -> Void = { _ in }) -> (Harness, View) {
    let zoomView = View(frame: CGRect(origin: .zero, size: image))
    let h = Harness(viewport: viewport, content: image) { s in
        s.addSubview(zoomView)
        s.minimumZoomScale = minimum
        s.maximumZoomScale = maximum
        configure(s)
    }
    h.recorder.zoomView = zoomView
    return (h, zoomView)
}

/// Two fingers (ids 0 and 1) touch down at `a` and `b` at `time`, then move in `steps`
/// steps every 8 ms to `a2` and `b2` (both fingers each step). Returns the last move's time.
@discardableResult
func pinch(_ h: Harness, from a: CGPoint, _ b: CGPoint, to a2: CGPoint, _ b2: CGPoint, at time: Double,
           steps: Int = 10) -> Double {
    h.send(.touchDown(id: 0, location: a), at: time)
    h.send(.touchDown(id: 1, location: b), at: time)
    var t = time
    for i in 1...steps {
        t = time + Double(i) * 8
        let f = CGFloat(i) / CGFloat(steps)
        h.send(.touchMotion(id: 0, location: CGPoint(x: a.x + (a2.x - a.x) * f, y: a.y + (a2.y - a.y) * f)), at: t)
        h.send(.touchMotion(id: 1, location: CGPoint(x: b.x + (b2.x - b.x) * f, y: b.y + (b2.y - b.y) * f)), at: t)
    }
    return t
}

/// The zoom view's own point shown at `viewportPoint` of the scroll view (which sits at the
/// root's origin).
func zoomPoint(_ h: Harness, _ zoomView: View, at viewportPoint: CGPoint) -> CGPoint {
    zoomView.convert(viewportPoint, from: h.root)
}

func closePoint(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

@Suite("Pinch zoom")
struct PinchZoomTests {
    @Test("pinching out around an off-centre point keeps the content under each finger within 1 pt")
    func pinchOut() {
        let (h, zoomView) = zoomHarness()
        h.scrollView.contentOffset = CGPoint(x: 100, y: 200)
        h.recorder.reset()
        let a = CGPoint(x: 100, y: 300), b = CGPoint(x: 200, y: 300)
        let underA = zoomPoint(h, zoomView, at: a), underB = zoomPoint(h, zoomView, at: b)
        let underCentroid = zoomPoint(h, zoomView, at: CGPoint(x: 150, y: 300))
        let a2 = CGPoint(x: 50, y: 300), b2 = CGPoint(x: 250, y: 300)
        let t = pinch(h, from: a, b, to: a2, b2, at: 1000)
        #expect(close(h.scrollView.zoomScale, 2, 1e-9))   // spread 100 → 200
        #expect(closePoint(zoomPoint(h, zoomView, at: a2), underA, 1))
        #expect(closePoint(zoomPoint(h, zoomView, at: b2), underB, 1))
        #expect(closePoint(zoomPoint(h, zoomView, at: CGPoint(x: 150, y: 300)), underCentroid, 1))
        #expect(h.offset == CGPoint(x: 350, y: 700))
        #expect(h.scrollView.contentSize == CGSize(width: 1600, height: 2400))   // follows the zoom view's frame
        #expect(zoomView.frame == CGRect(x: 0, y: 0, width: 1600, height: 2400))
        #expect(h.scrollView.isZooming && h.scrollView.isTracking && !h.scrollView.isDragging)
        h.send(.touchUp(id: 0), at: t + 8)
        #expect(!h.scrollView.isZooming && h.scrollView.isTracking)
        // The indicators, shown while zooming, fade 500 ms after the zoom ended.
        #expect(h.scrollView.nextWakeTime == t + 8 + ScrollIndicator.hideDelay)
        h.send(.touchUp(id: 1), at: t + 16)
        h.settle()
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(2.0)"])
        #expect(h.recorder.calls.first?.zoomLine == "willBeginZooming T--Z-")
        #expect(h.recorder.calls.filter { $0.name == "didZoom" || $0.name == "didScroll" }.allSatisfy { $0.zoomLine.hasSuffix(" T--Z-") })
        #expect(h.recorder.calls.last?.zoomLine == "didEndZooming(2.0) T----")
        #expect(h.recorder.calls.last?.time == t + 8)
        // Nothing else moves after the lift.
        #expect(h.offset == CGPoint(x: 350, y: 700) && !h.scrollView.isAnimating)
    }

    @Test("pinching in around another off-centre point keeps the content under each finger too")
    func pinchIn() {
        let (h, zoomView) = zoomHarness()
        h.call(at: 500) { $0.setZoomScale(2, animated: false) }
        h.scrollView.contentOffset = CGPoint(x: 350, y: 700)
        h.recorder.reset()
        let a = CGPoint(x: 200, y: 200), b = CGPoint(x: 300, y: 400)
        let a2 = CGPoint(x: 225, y: 250), b2 = CGPoint(x: 275, y: 350)
        let underA = zoomPoint(h, zoomView, at: a), underB = zoomPoint(h, zoomView, at: b)
        let t = pinch(h, from: a, b, to: a2, b2, at: 1000, steps: 8)
        #expect(close(h.scrollView.zoomScale, 1, 1e-9))   // spread halves
        #expect(closePoint(zoomPoint(h, zoomView, at: a2), underA, 1))
        #expect(closePoint(zoomPoint(h, zoomView, at: b2), underB, 1))
        #expect(closePoint(h.offset, CGPoint(x: 50, y: 200), 1e-6))
        h.send(.touchUp(id: 1), at: t + 8)
        h.send(.touchUp(id: 0), at: t + 8)
        h.settle()
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(1.0)"])
        // The scale shrank on every step and never left the limits.
        // Each finger's move is a step of its own: 8 steps of two fingers.
        let scales = h.recorder.calls("didZoom").map(\.zoomScale)
        #expect(scales.count == 16 && zip(scales, scales.dropFirst()).allSatisfy { $0 > $1 })
    }

    @Test("fingers that move together pan the content with them while they pinch")
    func panWhilePinching() {
        let (h, zoomView) = zoomHarness()
        h.scrollView.contentOffset = CGPoint(x: 200, y: 300)
        let a = CGPoint(x: 150, y: 250), b = CGPoint(x: 250, y: 350)
        let underCentroid = zoomPoint(h, zoomView, at: CGPoint(x: 200, y: 300))
        // Spread ×1.5 while the midpoint travels 60 pt right and 40 pt down.
        let a2 = CGPoint(x: 185, y: 265), b2 = CGPoint(x: 335, y: 415)
        pinch(h, from: a, b, to: a2, b2, at: 1000)
        #expect(close(h.scrollView.zoomScale, 1.5, 1e-9))
        #expect(closePoint(zoomPoint(h, zoomView, at: CGPoint(x: 260, y: 340)), underCentroid, 1))
    }

    @Test("two fingers that keep their spread are a two-finger drag, not a zoom")
    func twoFingerPan() {
        let (h, _) = zoomHarness()
        h.scrollView.contentOffset = CGPoint(x: 200, y: 300)
        h.recorder.reset()
        let t = pinch(h, from: CGPoint(x: 150, y: 300), CGPoint(x: 250, y: 300),
                      to: CGPoint(x: 150, y: 200), CGPoint(x: 250, y: 200), at: 1000)
        h.send(.touchUp(id: 0), at: t + 50)
        h.send(.touchUp(id: 1), at: t + 60)
        h.settle()
        #expect(h.scrollView.zoomScale == 1)
        // The midpoint moved 100 pt up; the content follows it past the 10 pt slop.
        #expect(h.offset == CGPoint(x: 200, y: 390))
        #expect(h.recorder.folded == ["willBeginDragging TD-", "didScroll… TD-", "willEndDragging -D-",
                                      "didEndDragging(false) -D-"])
    }

    @Test("past the maximum with bouncesZoom: rubber-banded, then animated back, DidEndZooming after the bounce")
    func bounceAboveMaximum() throws {
        let (h, zoomView) = zoomHarness()
        h.scrollView.contentOffset = CGPoint(x: 200, y: 300)
        h.recorder.reset()
        // Spread 50 → 400: the fingers ask for 8× on a 4× maximum.
        let t = pinch(h, from: CGPoint(x: 175, y: 300), CGPoint(x: 225, y: 300),
                      to: CGPoint(x: 0, y: 300), CGPoint(x: 400, y: 300), at: 1000)
        let peak = h.scrollView.zoomScale
        #expect(close(Double(peak), ZoomRubberBand.displayed(scale: 8, limits: 0.5...4), 1e-9))
        #expect(peak > 4.5 && peak < 6)
        let underCentroid = zoomPoint(h, zoomView, at: CGPoint(x: 200, y: 300))
        h.send(.touchUp(id: 0), at: t + 10)
        h.send(.touchUp(id: 1), at: t + 12)
        #expect(h.scrollView.isZoomBouncing && !h.scrollView.isZooming)
        let end = h.settle()
        #expect(h.scrollView.zoomScale == 4)
        #expect(!h.scrollView.isZoomBouncing)
        #expect(end > t + 200 && end < t + 400, "a 300 ms bounce")
        // The bounce zooms around the midpoint of the lift.
        #expect(closePoint(zoomPoint(h, zoomView, at: CGPoint(x: 200, y: 300)), underCentroid, 1))
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(4.0)"])
        let bounce = h.recorder.calls.filter { $0.time > t + 12 && $0.name == "didZoom" }
        #expect(bounce.count >= 10)
        #expect(bounce.allSatisfy { $0.zoomLine == "didZoom ----B" })
        #expect(zip(bounce, bounce.dropFirst()).allSatisfy { $0.zoomScale > $1.zoomScale })
        #expect(h.recorder.calls.last?.zoomLine == "didEndZooming(4.0) -----")
        #expect(h.recorder.calls.filter { $0.time <= t }.allSatisfy { !$0.isZoomBouncing && $0.isZooming })
    }

    @Test("below the minimum with bouncesZoom: rubber-banded, pinned top-left, back to the minimum")
    func bounceBelowMinimum() {
        let (h, _) = zoomHarness(image: CGSize(width: 400, height: 600), minimum: 1, maximum: 4)
        let t = pinch(h, from: CGPoint(x: 100, y: 300), CGPoint(x: 300, y: 300),
                      to: CGPoint(x: 175, y: 300), CGPoint(x: 225, y: 300), at: 1000)
        let low = h.scrollView.zoomScale
        #expect(close(Double(low), ZoomRubberBand.displayed(scale: 0.25, limits: 1...4), 1e-9))
        #expect(low > 0.6 && low < 0.8)
        // Content smaller than the view rests top-left, as UIKit leaves it.
        #expect(h.offset == .zero)
        h.send(.touchUp(id: 0), at: t + 8)
        h.send(.touchUp(id: 1), at: t + 8)
        h.settle()
        #expect(h.scrollView.zoomScale == 1 && h.offset == .zero)
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(1.0)"])
        let bounce = h.recorder.calls.filter { $0.isZoomBouncing }
        #expect(!bounce.isEmpty && zip(bounce, bounce.dropFirst()).allSatisfy { $0.zoomScale < $1.zoomScale })
    }

    @Test("without bouncesZoom the scale stops at the limits and DidEndZooming comes at the lift", arguments: [true, false])
    func noBounce(zoomIn: Bool) {
        let (h, _) = zoomHarness(image: CGSize(width: 400, height: 600), minimum: 1, maximum: 4) { $0.bouncesZoom = false }
        let t = zoomIn
            ? pinch(h, from: CGPoint(x: 175, y: 300), CGPoint(x: 225, y: 300), to: CGPoint(x: 0, y: 300), CGPoint(x: 400, y: 300), at: 1000)
            : pinch(h, from: CGPoint(x: 100, y: 300), CGPoint(x: 300, y: 300), to: CGPoint(x: 175, y: 300), CGPoint(x: 225, y: 300), at: 1000)
        let limit: CGFloat = zoomIn ? 4 : 1
        #expect(h.scrollView.zoomScale == limit)
        #expect(h.recorder.calls("didZoom").allSatisfy { zoomIn ? $0.zoomScale <= 4 : $0.zoomScale >= 1 })
        h.send(.touchUp(id: 0), at: t + 8)
        #expect(!h.scrollView.isAnimating)
        h.send(.touchUp(id: 1), at: t + 16)
        h.settle()
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(\(limit))"]
                || h.recorder.zoomNames == ["willBeginZooming", "didEndZooming(\(limit))"])
        #expect(h.recorder.calls.last?.time == t + 8)
        #expect(h.recorder.calls.allSatisfy { !$0.isZoomBouncing })
    }

    @Test("lifting one finger continues as a one-finger drag without a jump")
    func oneFingerContinuation() throws {
        let (h, zoomView) = zoomHarness()
        h.scrollView.contentOffset = CGPoint(x: 200, y: 300)
        h.recorder.reset()
        let t = pinch(h, from: CGPoint(x: 150, y: 300), CGPoint(x: 250, y: 300),
                      to: CGPoint(x: 100, y: 300), CGPoint(x: 300, y: 300), at: 1000)
        h.send(.touchUp(id: 0), at: t + 8)
        let afterPinch = h.offset
        let under = zoomPoint(h, zoomView, at: CGPoint(x: 300, y: 300))
        // The remaining finger moves 4 pt, then on: the content follows from the first point.
        h.send(.touchMotion(id: 1, location: CGPoint(x: 300, y: 296)), at: t + 16)
        #expect(h.offset == CGPoint(x: afterPinch.x, y: afterPinch.y + 4))
        for i in 1...5 {
            h.send(.touchMotion(id: 1, location: CGPoint(x: 300 - CGFloat(i) * 10, y: 296 - CGFloat(i) * 20)), at: t + 16 + Double(i) * 8)
        }
        #expect(closePoint(zoomPoint(h, zoomView, at: CGPoint(x: 250, y: 196)), under, 1e-6))
        #expect(h.scrollView.zoomScale == 2)
        h.send(.touchUp(id: 1), at: t + 140)
        h.settle()
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(2.0)", "willBeginDragging",
                                         "scroll/zoom…", "willEndDragging", "didEndDragging(false)"])
        let begin = try #require(h.recorder.calls("willBeginDragging").first)
        #expect(begin.time == t + 16 && begin.zoomLine == "willBeginDragging TD---")
        // The drag after the pinch scrolls only: no DidZoom.
        #expect(h.recorder.calls.filter { $0.time > t + 8 }.allSatisfy { $0.name != "didZoom" })
    }

    @Test("a pinch that joins a running drag: drag calls around the zoom calls, in order")
    func pinchDuringDrag() {
        let (h, _) = zoomHarness()
        h.scrollView.contentOffset = CGPoint(x: 200, y: 300)
        h.recorder.reset()
        h.send(.touchDown(id: 0, location: CGPoint(x: 150, y: 400)), at: 1000)
        h.send(.touchMotion(id: 0, location: CGPoint(x: 150, y: 370)), at: 1016)
        h.send(.touchDown(id: 1, location: CGPoint(x: 250, y: 370)), at: 1030)
        for i in 1...5 {
            let d = CGFloat(i) * 10
            h.send(.touchMotion(id: 0, location: CGPoint(x: 150 - d, y: 370)), at: 1030 + Double(i) * 8)
            h.send(.touchMotion(id: 1, location: CGPoint(x: 250 + d, y: 370)), at: 1030 + Double(i) * 8)
        }
        h.send(.touchUp(id: 1), at: 1100)
        h.send(.touchMotion(id: 0, location: CGPoint(x: 100, y: 340)), at: 1116)
        h.send(.touchUp(id: 0), at: 1200)
        h.settle()
        #expect(close(h.scrollView.zoomScale, 2, 1e-9))
        let names = h.recorder.zoomNames
        #expect(names == ["willBeginDragging", "scroll/zoom…", "willBeginZooming", "scroll/zoom…", "didEndZooming(2.0)",
                          "scroll/zoom…", "willEndDragging", "didEndDragging(false)"])
        #expect(h.recorder.calls.filter { $0.name == "willBeginZooming" }.map(\.zoomLine) == ["willBeginZooming TD-Z-"])
    }

    @Test("the pinch recognizer exists only while zooming is possible")
    func recognizerAvailability() {
        let (h, zoomView) = zoomHarness()
        #expect(h.scrollView.pinchGestureRecognizer?.state == .possible)
        h.scrollView.maximumZoomScale = 0.5   // min == max
        #expect(h.scrollView.pinchGestureRecognizer == nil && !h.scrollView.canZoom)
        h.scrollView.maximumZoomScale = 4
        h.recorder.zoomView = nil
        #expect(h.scrollView.pinchGestureRecognizer == nil)
        h.recorder.zoomView = h.scrollView   // not a subview: refused, as in UIKit
        #expect(h.scrollView.pinchGestureRecognizer == nil)
        h.recorder.zoomView = zoomView
        pinch(h, from: CGPoint(x: 150, y: 300), CGPoint(x: 250, y: 300), to: CGPoint(x: 140, y: 300), CGPoint(x: 260, y: 300), at: 100)
        #expect(h.scrollView.pinchGestureRecognizer?.state == .changed)
        #expect(h.scrollView.pinchGestureRecognizer.map { close($0.scale, 1.2, 1e-9) } == true)
    }

    @Test("without zooming, a second finger is ignored and the first keeps dragging")
    func secondFingerWithoutZoom() {
        let h = Harness()
        h.send(.touchDown(id: 0, location: CGPoint(x: 200, y: 400)), at: 100)
        h.send(.touchDown(id: 1, location: CGPoint(x: 300, y: 400)), at: 110)
        h.send(.touchMotion(id: 1, location: CGPoint(x: 300, y: 200)), at: 120)
        #expect(h.offset == .zero)
        h.send(.touchMotion(id: 0, location: CGPoint(x: 200, y: 300)), at: 130)
        h.send(.touchUp(id: 1), at: 140)
        h.send(.touchUp(id: 0), at: 200)
        h.settle()
        #expect(h.offset == CGPoint(x: 0, y: 90))
        #expect(h.recorder.foldedNames == ["willBeginDragging", "didScroll…", "willEndDragging", "didEndDragging(false)"])
    }

    @Test("touch cancel during a pinch past the maximum: DidEndZooming after the bounce, no fling")
    func cancelDuringPinch() {
        let (h, _) = zoomHarness()
        let t = pinch(h, from: CGPoint(x: 175, y: 300), CGPoint(x: 225, y: 300), to: CGPoint(x: 0, y: 300), CGPoint(x: 400, y: 300), at: 1000)
        h.send(.touchCancel, at: t + 5)
        #expect(h.scrollView.isZoomBouncing && !h.scrollView.isTracking)
        h.settle()
        #expect(h.scrollView.zoomScale == 4)
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(4.0)"])
    }
}

@Suite("Touchpad pinch and Ctrl+wheel")
struct PointerZoomTests {
    @Test("a touchpad pinch zooms around the pointer; its pan moves the content with the fingers")
    func touchpadPinch() {
        let (h, zoomView) = zoomHarness()
        h.scrollView.contentOffset = CGPoint(x: 100, y: 100)
        h.send(.pointerMotion(location: CGPoint(x: 120, y: 450)), at: 900)
        h.recorder.reset()
        let under = zoomPoint(h, zoomView, at: CGPoint(x: 120, y: 450))
        h.send(.pinch(phase: .begin, scale: 1, dx: 0, dy: 0), at: 1000)
        #expect(h.scrollView.isZooming && h.scrollView.isTracking)
        for i in 1...6 {
            h.send(.pinch(phase: .update, scale: 1 + CGFloat(i) * 0.25, dx: 0, dy: 0), at: 1000 + Double(i) * 10)
        }
        #expect(close(h.scrollView.zoomScale, 2.5, 1e-9))
        #expect(closePoint(zoomPoint(h, zoomView, at: CGPoint(x: 120, y: 450)), under, 1e-6))
        h.send(.pinch(phase: .update, scale: 2.5, dx: 30, dy: -20), at: 1070)
        #expect(closePoint(zoomPoint(h, zoomView, at: CGPoint(x: 150, y: 430)), under, 1e-6))
        h.send(.pinch(phase: .end, scale: 2.5, dx: 0, dy: 0), at: 1080)
        h.settle()
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(2.5)"])
        #expect(h.recorder.calls.first?.zoomLine == "willBeginZooming T--Z-")
    }

    @Test("a touchpad pinch past the maximum bounces back like a touch pinch")
    func touchpadBounce() {
        let (h, _) = zoomHarness()
        h.send(.pinch(phase: .begin, scale: 1, dx: 0, dy: 0), at: 1000)
        h.send(.pinch(phase: .update, scale: 6, dx: 0, dy: 0), at: 1010)
        #expect(h.scrollView.zoomScale > 4)
        h.send(.pinch(phase: .end, scale: 6, dx: 0, dy: 0), at: 1020)
        #expect(h.scrollView.isZoomBouncing)
        h.settle()
        #expect(h.scrollView.zoomScale == 4)
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(4.0)"])
    }

    @Test("Ctrl+wheel zooms around the pointer in animated steps; without Ctrl the wheel scrolls")
    func ctrlWheel() {
        let (h, zoomView) = zoomHarness()
        h.scrollView.contentOffset = CGPoint(x: 100, y: 100)
        h.send(.pointerMotion(location: CGPoint(x: 300, y: 150)), at: 900)
        h.recorder.reset()
        let under = zoomPoint(h, zoomView, at: CGPoint(x: 300, y: 150))
        h.send(.key(Key(keysymName: "Control_L"), pressed: true), at: 950, modifiers: [])
        // Two notches up (toward the start): zoom in by 2^(2/4).
        h.send(.pointerAxis(source: .wheel, dx: 0, dy: -15, value120X: nil, value120Y: -120), at: 1000)
        h.send(.pointerAxis(source: .wheel, dx: 0, dy: -15, value120X: nil, value120Y: -120), at: 1050)
        h.settle()
        #expect(close(h.scrollView.zoomScale, sqrt(2), 1e-9))
        #expect(closePoint(zoomPoint(h, zoomView, at: CGPoint(x: 300, y: 150)), under, 1e-6))
        // One animated zoom: the second notch extends the running step.
        #expect(h.recorder.zoomNames.count == 3 && h.recorder.zoomNames.prefix(2) == ["willBeginZooming", "scroll/zoom…"])
        #expect(h.recorder.calls.last.map { $0.name.hasPrefix("didEndZooming(1.41421356") } == true)
        h.recorder.reset()
        h.send(.key(Key(keysymName: "Control_L"), pressed: false), at: 2000, modifiers: [.ctrl])
        h.send(.pointerAxis(source: .wheel, dx: 0, dy: 15, value120X: nil, value120Y: 120), at: 2100)
        h.settle()
        #expect(close(h.scrollView.zoomScale, sqrt(2), 1e-9))
        #expect(h.recorder.foldedNames == ["didScroll…", "didEndScrollingAnimation"])
    }

    @Test("Ctrl+wheel stops at the limits; a key event's modifiers alone also count")
    func ctrlWheelLimits() {
        let (h, _) = zoomHarness(minimum: 1, maximum: 1.5)
        h.send(.key(Key(keysymName: "a"), pressed: true), at: 10, modifiers: [.ctrl])
        for i in 0..<6 {
            h.send(.pointerAxis(source: .wheel, dx: 0, dy: -15, value120X: nil, value120Y: -120), at: 100 + Double(i) * 20)
        }
        h.settle()
        #expect(h.scrollView.zoomScale == 1.5)
        #expect(h.recorder.count("didEndZooming(1.5)") == 1)
    }
}

@Suite("Programmatic zoom")
struct ProgrammaticZoomTests {
    @Test("setZoomScale without animation: DidScroll then DidZoom once, around the centre, clamped to the limits")
    func immediate() {
        let (h, zoomView) = zoomHarness(image: CGSize(width: 400, height: 600), minimum: 1, maximum: 4)
        let centre = zoomPoint(h, zoomView, at: CGPoint(x: 200, y: 300))
        h.scrollView.setZoomScale(2, animated: false)
        #expect(h.recorder.calls.map(\.zoomLine) == ["didScroll -----", "didZoom -----"])
        #expect(h.offset == CGPoint(x: 200, y: 300) && h.scrollView.zoomScale == 2)
        #expect(zoomPoint(h, zoomView, at: CGPoint(x: 200, y: 300)) == centre)
        h.recorder.reset()
        h.scrollView.setZoomScale(2, animated: false)
        h.scrollView.setZoomScale(2, animated: true)
        h.settle()
        #expect(h.recorder.calls.isEmpty)
        h.scrollView.zoomScale = 10
        #expect(h.scrollView.zoomScale == 4)
        #expect(h.scrollView.contentSize == CGSize(width: 1600, height: 2400))
        h.scrollView.zoomScale = 0.1
        #expect(h.scrollView.zoomScale == 1 && h.offset == .zero)
    }

    @Test("setZoomScale animated: WillBeginZooming at the call, a series of DidZoom, then DidEndZooming")
    func animated() {
        let (h, _) = zoomHarness(image: CGSize(width: 400, height: 600), minimum: 1, maximum: 4)
        h.call(at: 1000) { $0.setZoomScale(2, animated: true) }
        // UIKit: WillBeginZooming comes "in cases where a change in zoom level is to be animated".
        #expect(h.recorder.calls.map(\.name) == ["willBeginZooming"])
        #expect(!h.scrollView.isZooming && !h.scrollView.isZoomBouncing)
        let end = h.settle()
        #expect(h.scrollView.zoomScale == 2 && h.offset == CGPoint(x: 200, y: 300))
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(2.0)"])
        let zooms = h.recorder.calls("didZoom")
        #expect(zooms.count >= 15)
        #expect(zip(zooms, zooms.dropFirst()).allSatisfy { $0.zoomScale < $1.zoomScale })
        #expect(h.recorder.calls.allSatisfy { $0.zoomLine.hasSuffix(" -----") })
        #expect(end >= 1300 && end < 1320)
    }

    @Test("zoom(to:) shows exactly a rect of the view's aspect; other rects fit and centre", arguments: [false, true])
    func zoomToRect(animated: Bool) throws {
        let (h, zoomView) = zoomHarness(image: CGSize(width: 400, height: 600), minimum: 1, maximum: 4)
        h.call(at: 100) { $0.zoom(to: CGRect(x: 100, y: 150, width: 200, height: 300), animated: animated) }
        h.settle()
        #expect(h.scrollView.zoomScale == 2)
        let visible = CGRect(origin: zoomPoint(h, zoomView, at: .zero),
                             size: CGSize(width: 400 / h.scrollView.zoomScale, height: 600 / h.scrollView.zoomScale))
        #expect(visible == CGRect(x: 100, y: 150, width: 200, height: 300))
        #expect(h.recorder.zoomNames == (animated ? ["willBeginZooming", "scroll/zoom…", "didEndZooming(2.0)"] : ["scroll/zoom…"]))
        if !animated { #expect(h.recorder.calls.map(\.name) == ["didScroll", "didZoom"]) }

        // A wide rect: the width decides, the rect is centred vertically.
        h.call(at: 1000) { $0.zoom(to: CGRect(x: 50, y: 200, width: 160, height: 40), animated: false) }
        #expect(h.scrollView.zoomScale == 2.5)
        #expect(zoomPoint(h, zoomView, at: CGPoint(x: 200, y: 300)) == CGPoint(x: 130, y: 220))
        // Beyond the maximum: 4×, as near the centre as the range allows.
        h.call(at: 2000) { $0.zoom(to: CGRect(x: 10, y: 10, width: 20, height: 30), animated: false) }
        #expect(h.scrollView.zoomScale == 4 && h.offset == .zero)
    }

    @Test("a zoom animation and momentum never run at once: the deceleration ends first")
    func zoomDuringFling() {
        let (h, _) = zoomHarness(image: CGSize(width: 400, height: 3000), minimum: 1, maximum: 4)
        let lift = fling(h, at: 1000)
        h.tick(through: lift + 100)
        h.call(at: lift + 105) { $0.setZoomScale(2, animated: true) }
        h.settle()
        let names = h.recorder.zoomNames
        #expect(Array(names.suffix(4)) == ["didEndDecelerating", "willBeginZooming", "scroll/zoom…", "didEndZooming(2.0)"])
    }

    @Test("a touch during a zoom bounce finishes it first; a touch during a programmatic zoom stops it, ending its zoom")
    func touchInterruptsZoomAnimation() {
        let (h, _) = zoomHarness()
        h.call(at: 100) { $0.setZoomScale(3, animated: true) }
        h.tick(through: 200)
        let midway = h.scrollView.zoomScale
        h.send(.touchDown(id: 0, location: CGPoint(x: 200, y: 300)), at: 200)
        h.send(.touchUp(id: 0), at: 250)
        h.settle()
        #expect(h.scrollView.zoomScale == midway && midway > 1 && midway < 3)
        // The DidEndZooming owed to the WillBeginZooming comes at the scale it stopped at.
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(\(midway))"])

        h.recorder.reset()
        let t = pinch(h, from: CGPoint(x: 175, y: 300), CGPoint(x: 225, y: 300), to: CGPoint(x: 0, y: 300), CGPoint(x: 400, y: 300), at: 1000)
        h.send(.touchUp(id: 0), at: t + 5)
        h.send(.touchUp(id: 1), at: t + 5)
        h.tick(through: t + 40)
        h.send(.touchDown(id: 2, location: CGPoint(x: 200, y: 300)), at: t + 40)
        #expect(h.scrollView.zoomScale == 4 && !h.scrollView.isZoomBouncing)
        h.send(.touchUp(id: 2), at: t + 60)
        #expect(h.recorder.zoomNames == ["willBeginZooming", "scroll/zoom…", "didEndZooming(4.0)"])
    }
}

@Suite("Zoom rubber band and pinch recognizer")
struct ZoomPhysicsTests {
    /// RubberBand's curve on a log overshoot x with dimension ln 2.
    static func band(_ x: Double) -> Double {
        let d = log(2.0)
        let ratio: Double = x * 0.55 / d
        return (1 - 1 / (ratio + 1)) * d
    }

    // (asked scale, limits, shown scale)
    static let table: [(Double, ClosedRange<Double>, Double)] = [
        (2, 0.5...4, 2),
        (4, 0.5...4, 4),
        (6, 1...4, 4 * exp(band(log(1.5)))),
        (0.25, 1...4, 1 / exp(band(log(4.0)))),
    ]

    @Test("inside the limits unchanged; outside, the edge rubber band on ln(scale)", arguments: table)
    func values(asked: Double, limits: ClosedRange<Double>, shown: Double) {
        #expect(abs(ZoomRubberBand.displayed(scale: asked, limits: limits) - shown) < 1e-12)
    }

    @Test("monotonic, continuous at the limits, bounded by 2× / ½×, and inverted exactly")
    func shape() {
        var previous = 0.0
        for step in 1...400 {
            let asked = Double(step) * 0.05
            let shown = ZoomRubberBand.displayed(scale: asked, limits: 1...4)
            #expect(shown > previous)
            #expect(shown > 0.5 && shown < 8)
            #expect(abs(ZoomRubberBand.asked(forDisplayed: shown, limits: 1...4) - asked) < 1e-9)
            previous = shown
        }
        #expect(abs(ZoomRubberBand.displayed(scale: 4.000001, limits: 1...4) - 4) < 1e-5)
    }

    @Test("a pinch is recognised after 4 pt of spread change, and its scale counts from touch-down")
    func recognizer() {
        var pinch = PinchGestureRecognizer()
        pinch.touchesBegan(CGPoint(x: 100, y: 100), CGPoint(x: 200, y: 100))
        #expect(pinch.touchesMoved(CGPoint(x: 98, y: 100), CGPoint(x: 200, y: 100)) == .none)
        #expect(pinch.touchesMoved(CGPoint(x: 120, y: 140), CGPoint(x: 220, y: 140)) == .none)   // parallel: no change
        #expect(pinch.touchesMoved(CGPoint(x: 96, y: 100), CGPoint(x: 200, y: 100)) == .began)
        #expect(close(pinch.scale, 1.04, 1e-12))
        #expect(pinch.touchesMoved(CGPoint(x: 50, y: 100), CGPoint(x: 250, y: 100)) == .changed)
        #expect(pinch.scale == 2 && pinch.centroid == CGPoint(x: 150, y: 100))
        pinch.end()
        #expect(pinch.state == .ended)

        var unmoved = PinchGestureRecognizer()
        unmoved.touchesBegan(.zero, .zero)   // coincident contacts: a finite scale all the same
        #expect(unmoved.touchesMoved(.zero, CGPoint(x: 10, y: 0)) == .began && unmoved.scale == 10)
        unmoved.cancel()
        #expect(unmoved.state == .cancelled)
    }
}
