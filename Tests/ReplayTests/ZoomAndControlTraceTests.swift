// The zoom and content-touch scenarios, replayed from the trace files in Traces/: whole
// sequences of delegate calls and control events with the zoom flags on every line, plus the
// scales and offsets a user would see, to stated tolerances.
import Foundation
import Testing
import Replay
import TraceFormat

private func isIncreasing(_ values: [Double]) -> Bool { zip(values, values.dropFirst()).allSatisfy { $0 < $1 } }
private func isDecreasing(_ values: [Double]) -> Bool { zip(values, values.dropFirst()).allSatisfy { $0 > $1 } }

@Suite("Zoom traces")
struct ZoomTraceTests {
    @Test("pinch out around an off-centre point: 2x, the content under the fingers kept, calls in order")
    func pinchZoom() throws {
        let r = try Replayed("pinch-zoom.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming", tracking: true, zooming: true, zoomBouncing: false),
            .zoomFrames(atLeast: 20, tracking: true, zooming: true, zoomBouncing: false),
            .zoom("DidEndZooming", tracking: true, zooming: false, zoomBouncing: false),
        ], zoom: true))
        #expect(groups[0][0].time == 108 && groups[0][0].state.zoomScale == 1)
        #expect(groups[2][0].time == 188 && groups[2][0].call == .didEndZooming(atScale: 2))
        #expect(isIncreasing(r.lines("DidZoom").map(\.state.zoomScale)))
        // Spread 100 → 200 around (150, 300) from offset (100, 200): the point under the
        // midpoint, (250, 500) of the image, is still under it at 2x.
        #expect(r.end.zoomScale == 2 && r.end.offset == CGPoint(x: 350, y: 700))
    }

    @Test("past the maximum: rubber-banded to ≈5.12x, then zoomBouncing back to 4x before DidEndZooming")
    func bounceMax() throws {
        let r = try Replayed("pinch-bounce-max.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming", tracking: true, zooming: true, zoomBouncing: false),
            .zoomFrames(atLeast: 20, tracking: true, zooming: true, zoomBouncing: false),
            .zoomFrames(atLeast: 10, tracking: false, zooming: false, zoomBouncing: true),
            .zoom("DidEndZooming", tracking: false, zooming: false, zoomBouncing: false),
        ], zoom: true))
        let peak = try #require(groups[1].last).state.zoomScale
        #expect(abs(peak - 5.116) < 0.001, "peak \(peak)")
        let bounce = groups[2].filter { $0.name == "scrollViewDidZoom" }.map(\.state.zoomScale)
        #expect(isDecreasing(bounce) && bounce.last == 4)
        #expect(groups[2].allSatisfy { $0.time >= 200 })
        #expect(groups[3][0].call == .didEndZooming(atScale: 4) && groups[3][0].time >= 450 && groups[3][0].time <= 550)
        #expect(r.end.zoomScale == 4 && r.end.offset == CGPoint(x: 600, y: 900))
    }

    @Test("below the minimum: rubber-banded to ≈0.69x at the top-left, back to 1x; no DidScroll at all")
    func bounceMin() throws {
        let r = try Replayed("pinch-bounce-min.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming", tracking: true, zooming: true, zoomBouncing: false),
            // Both fingers move in each of the trace's 10 frames (one t each): one pinch step,
            // one DidZoom, per frame, as one wl_touch.frame is one step live.
            Step(call: "scrollViewDidZoom", count: 10...10, zooming: true, zoomBouncing: false),
            Step(call: "scrollViewDidZoom", count: 10...Int.max, tracking: false, zooming: false, zoomBouncing: true),
            .zoom("DidEndZooming", tracking: false, zooming: false, zoomBouncing: false),
        ], zoom: true))
        #expect(Set(groups[1].map(\.time)).count == 10, "one step per frame: \(groups[1].map(\.time))")
        let low = try #require(groups[1].last).state.zoomScale
        #expect(abs(low - 0.695) < 0.001, "lowest \(low)")
        #expect(isIncreasing(groups[2].map(\.state.zoomScale)))
        #expect(r.lines.allSatisfy { $0.state.offset == .zero })
        #expect(groups[3][0].call == .didEndZooming(atScale: 1) && r.end.zoomScale == 1)
    }

    @Test("bouncesZoom false: the scale stops at 4x and DidEndZooming comes at the first lift")
    func noBounce() throws {
        let r = try Replayed("pinch-no-bounce.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming", tracking: true, zooming: true),
            .zoomFrames(atLeast: 10, tracking: true, zooming: true, zoomBouncing: false),
            .zoom("DidEndZooming", tracking: true, zooming: false, zoomBouncing: false),
        ], zoom: true))
        #expect(r.lines.allSatisfy { $0.state.zoomScale <= 4 })
        #expect(groups[2][0].time == 190 && groups[2][0].call == .didEndZooming(atScale: 4))
        #expect(r.end.zoomScale == 4 && r.end.offset == CGPoint(x: 600, y: 900))
    }

    @Test("one finger lifts: the other drags on from where the pinch left the content, without a jump")
    func pinchThenDrag() throws {
        let r = try Replayed("pinch-then-drag.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming", tracking: true, zooming: true),
            .zoomFrames(atLeast: 20, tracking: true, zooming: true),
            .zoom("DidEndZooming", tracking: true, zooming: false, zoomBouncing: false),
            .one("WillBeginDragging", tracking: true, dragging: true, decelerating: false),
            .scrolls(atLeast: 6, tracking: true, dragging: true, decelerating: false),
            .one("WillEndDragging", tracking: false, dragging: true),
            .didEndDragging(willDecelerate: false),
        ], zoom: true))
        #expect(groups[2][0].state.offset == CGPoint(x: 600, y: 900))
        // The first movement of the remaining finger (4 pt up) moves the content by exactly 4 pt.
        #expect(groups[3][0].time == 196 && groups[4][0].state.offset == CGPoint(x: 600, y: 904))
        #expect(groups[4].allSatisfy { $0.state.zoomScale == 2 })
        #expect(groups[5][0].endDragging?.velocity == .zero)
        #expect(r.end.offset == CGPoint(x: 650, y: 1004) && r.end.zoomScale == 2)
    }

    @Test("touchpad pinch: anchored at the pointer, panned by the fingers, 2.5x")
    func touchpadPinch() throws {
        let r = try Replayed("touchpad-pinch.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming", tracking: true, zooming: true),
            .zoomFrames(atLeast: 7, tracking: true, zooming: true),
            .zoom("DidEndZooming", tracking: false, zooming: false, zoomBouncing: false),
        ], zoom: true))
        #expect(groups[0][0].time == 100 && groups[2][0].time == 180)
        #expect(groups[2][0].call == .didEndZooming(atScale: 2.5))
        #expect(r.end.offset == CGPoint(x: 400, y: 945) && r.end.zoomScale == 2.5)
    }

    @Test("Ctrl+wheel: animated zoom steps around the pointer, then plain scrolling once Ctrl is up")
    func ctrlWheel() throws {
        let r = try Replayed("ctrl-wheel-zoom.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming", tracking: false, zooming: false, zoomBouncing: false),
            .zoomFrames(atLeast: 10, tracking: false, zooming: false, zoomBouncing: false),
            .zoom("DidEndZooming", tracking: false, zooming: false, zoomBouncing: false),
            .scrolls(atLeast: 5, tracking: false, dragging: false, decelerating: false),
            .one("DidEndScrollingAnimation"),
        ], zoom: true))
        let scale = 2.0.squareRoot()
        #expect(groups[0][0].time == 100 && groups[2][0].time == 350)
        #expect(abs(groups[2][0].state.zoomScale - scale) < 0.001)
        // The image point under the pointer, (400, 250), stays at (300, 150).
        let zoomed = groups[2][0].state.offset
        #expect(abs(Double(zoomed.x) - (400 * scale - 300)) < 0.001 && abs(Double(zoomed.y) - (250 * scale - 150)) < 0.001)
        #expect(abs(Double(r.end.offset.y - zoomed.y) - 57) < 0.001 && r.end.offset.x == zoomed.x)
    }

    @Test("setZoomScale: one DidScroll + DidZoom without animation; a DidZoom series then DidEndZooming with")
    func setZoomScale() throws {
        let r = try Replayed("set-zoom-scale.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .one("DidScroll", tracking: false),
            .zoom("DidZoom", tracking: false, zooming: false, zoomBouncing: false),
            .zoom("WillBeginZooming", tracking: false, zooming: false, zoomBouncing: false),
            .zoomFrames(atLeast: 15, tracking: false, zooming: false, zoomBouncing: false),
            .zoom("DidEndZooming", tracking: false, zooming: false, zoomBouncing: false),
        ], zoom: true))
        #expect(groups[1][0].time == 100 && groups[1][0].state.zoomScale == 2)
        #expect(groups[1][0].state.offset == CGPoint(x: 200, y: 300))
        // The animated change is announced at the call, before its first frame.
        #expect(groups[2][0].time == 500 && groups[2][0].state.zoomScale == 2)
        #expect(isIncreasing(groups[3].filter { $0.name == "scrollViewDidZoom" }.map(\.state.zoomScale)))
        #expect(groups[3].allSatisfy { $0.time > 500 })
        #expect(groups[4][0].call == .didEndZooming(atScale: 3) && groups[4][0].time >= 790 && groups[4][0].time <= 820)
        #expect(r.end.zoomScale == 3 && r.end.offset == CGPoint(x: 400, y: 600))
    }

    @Test("zoomToRect: exactly the rect at 2x (animated), then the whole image at 1x at once")
    func zoomToRect() throws {
        let r = try Replayed("zoom-to-rect.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming"),
            .zoomFrames(atLeast: 15, tracking: false, zooming: false, zoomBouncing: false),
            .zoom("DidEndZooming"),
            .one("DidScroll"),
            .zoom("DidZoom"),
        ], zoom: true))
        // At 2x the view shows 200 × 300 image points from (200, 300) / 2 = (100, 150).
        #expect(groups[2][0].call == .didEndZooming(atScale: 2) && groups[2][0].state.offset == CGPoint(x: 200, y: 300))
        #expect(groups[4][0].time == 1000 && groups[4][0].state.zoomScale == 1)
        #expect(r.end.offset == .zero && r.end.zoomScale == 1)
    }

    @Test("the zoomScale option is applied silently; a drag on zoomed content reports 2x throughout")
    func zoomScaleOption() throws {
        let r = try Replayed("zoom-scale-option.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .one("WillBeginDragging", dragging: true),
            .scrolls(tracking: true, dragging: true),
            .one("WillEndDragging"),
            .didEndDragging(willDecelerate: false),
        ], zoom: true))
        #expect(r.lines.allSatisfy { $0.state.zoomScale == 2 && !$0.state.zooming })
        #expect(groups[0][0].state.offset == CGPoint(x: 400, y: 600))
        #expect(r.end.offset == CGPoint(x: 400, y: 690) && r.end.zoomScale == 2)
    }
}

@Suite("Content-touch traces")
struct ControlTraceTests {
    @Test("a quick tap: touchDown and touchUpInside together at the lift, no delegate call")
    func tap() throws {
        let r = try Replayed("button-tap.jsonl")
        let groups = try #require(expectSequence(r.lines, [.control("a", .touchDown, tracking: true),
                                                           .control("a", .touchUpInside, tracking: true)]))
        #expect(groups.allSatisfy { $0[0].time == 180 })
        #expect(r.end.offset == .zero)
    }

    @Test("a held touch: touchDown when the 150 ms delay runs out, touchUpInside at the lift")
    func hold() throws {
        let r = try Replayed("button-hold.jsonl")
        let groups = try #require(expectSequence(r.lines, [.control("a", .touchDown, tracking: true),
                                                           .control("a", .touchUpInside, tracking: true)]))
        #expect(groups[0][0].time == 250 && groups[1][0].time == 400)
    }

    @Test("a flick that starts on a button: the fling sequence, nothing for the button")
    func flickFromButton() throws {
        let r = try Replayed("button-drag.jsonl")
        _ = try #require(expectSequence(r.lines, Step.flingingDrag() + [Step.momentum, .one("DidEndDecelerating", tracking: false)]))
        #expect(r.end.offset.y > 300)
    }

    @Test("canCancelContentTouches: touchDown, touchCancel at the slop, then the drag's calls")
    func dragCancels() throws {
        let r = try Replayed("button-cancel.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .control("a", .touchDown, tracking: true),
            .control("a", .touchCancel, tracking: true),
            .one("WillBeginDragging", tracking: true, dragging: true, decelerating: false),
            .scrolls(tracking: true, dragging: true, decelerating: false),
            .one("WillEndDragging", tracking: false, dragging: true),
            .didEndDragging(willDecelerate: false),
        ]))
        #expect(groups[0][0].time == 250 && groups[1][0].time == 316 && groups[2][0].time == 316)
        #expect(groups[1][0].state.offset == .zero)
        #expect(r.end.offset == CGPoint(x: 0, y: 90))
    }

    @Test("canCancelContentTouches false: the button keeps the touch, nothing scrolls")
    func noCancel() throws {
        let r = try Replayed("button-no-cancel.jsonl")
        let groups = try #require(expectSequence(r.lines, [.control("a", .touchDown, tracking: true),
                                                           .control("a", .touchUpInside, tracking: true)]))
        #expect(groups[0][0].time == 250 && groups[1][0].time == 400)
        #expect(r.end.offset == .zero)
    }

    @Test("delaysContentTouches false: touchDown at touch-down, touchCancel when the drag begins")
    func noDelay() throws {
        let r = try Replayed("button-no-delay.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .control("a", .touchDown, tracking: true),
            .control("a", .touchCancel, tracking: true),
            .one("WillBeginDragging", tracking: true, dragging: true),
            .scrolls(tracking: true, dragging: true),
            .one("WillEndDragging"),
            .didEndDragging(willDecelerate: false),
        ]))
        #expect(groups[0][0].time == 100 && groups[1][0].time == 116)
    }

    @Test("a pinch that starts on a button sends it nothing")
    func pinchOnButton() throws {
        let r = try Replayed("button-pinch.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming", tracking: true, zooming: true),
            .zoomFrames(atLeast: 10, tracking: true, zooming: true),
            .zoom("DidEndZooming", tracking: true, zooming: false),
        ], zoom: true))
        #expect(groups[2][0].time == 600 && groups[2][0].call == .didEndZooming(atScale: 2))
        #expect(r.end.offset == CGPoint(x: 200, y: 300))
    }
}
