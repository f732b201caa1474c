// The setup options' effects, replayed from the trace files in Traces/: each option changes
// what a user sees (where the content can go, what a gesture moves, which calls come), so each
// trace is checked whole against the spec, and where it helps, against the same input replayed
// without the option, to show the input does exercise it.
import Foundation
import Testing
import Replay
import ScrollKit
import TraceFormat

/// The spec's rubber band (docs/scroll-view.md, Physics): a finger `x` pt past an edge shows
/// `(1 − 1 / (x · 0.55 / dim + 1)) · dim` pt, dim the viewport's length on that axis (pt).
private func rubberBand(_ x: Double, dimension: Double) -> Double { (1 - 1 / (x * 0.55 / dimension + 1)) * dimension }

private func y(_ call: Call) -> Double { Double(call.state.offset.y) }
private func x(_ call: Call) -> Double { Double(call.state.offset.x) }
private func isNonDecreasing(_ values: [Double]) -> Bool { zip(values, values.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 } }

/// The release that hands content past an edge to the spring: zero velocity, yet it decelerates.
private let springBack: [Step] = [
    .one("WillEndDragging", dragging: true),
    .didEndDragging(willDecelerate: true, dragging: true),
    .one("WillBeginDecelerating", tracking: false, dragging: true),
    Step.momentum,
    .one("DidEndDecelerating", tracking: false, dragging: false, decelerating: false),
]

/// A drag that ends with the finger at rest inside the range: no deceleration.
private func restingDrag(scrolls: ClosedRange<Int>) -> [Step] {
    [.one("WillBeginDragging", tracking: true, dragging: true, decelerating: false),
     Step(call: "scrollViewDidScroll", count: scrolls, tracking: true, dragging: true, decelerating: false),
     .one("WillEndDragging", tracking: false, dragging: true, decelerating: false),
     .didEndDragging(willDecelerate: false, decelerating: false)]
}

@Suite("Option traces")
struct OptionTraceTests {
    @Test("contentInset top 100 / bottom 50: a pull-down rests at −100, End reaches 2450, Home goes to −100")
    func contentInset() throws {
        let r = try Replayed("content-inset.jsonl")
        let step = [Step.scrolls(atLeast: 3, tracking: false, dragging: false, decelerating: false)]
        let groups = try #require(expectSequence(r.lines, [
            .one("WillBeginDragging", tracking: true, dragging: true, decelerating: false),
            Step(call: "scrollViewDidScroll", count: 12...12, tracking: true, dragging: true, decelerating: false),
        ] + springBack + step + [
            .one("DidEndScrollingAnimation", tracking: false, dragging: false, decelerating: false),
            .one("ShouldScrollToTop"),
        ] + step + [.one("DidScrollToTop", tracking: false, dragging: false, decelerating: false)]))
        // The finger is 10 pt further every 8 ms; the first 10 pt are the slop. Inside the
        // inset the content follows 1:1 down to −100, past it the rubber band counts from −100.
        for call in groups[1] {
            let pulled = call.time / 8 * 10 - 10
            let expected = pulled <= 100 ? -pulled : -100 - rubberBand(pulled - 100, dimension: 600)
            #expect(abs(y(call) - expected) < 0.001, "t=\(call.time): \(y(call)), expected \(expected)")
        }
        #expect(abs(y(groups[1][11]) - (-110.802)) < 0.001, "130 pt pulled: 20 pt past −100 show as 10.80 pt")
        #expect(groups[2][0].endDragging?.velocity == .zero && groups[2][0].endDragging?.target == CGPoint(x: 0, y: -100))
        let spring = groups[5].map(y)
        #expect(isNonDecreasing(spring) && spring.allSatisfy { $0 <= -100 }, "springs back to −100 without passing it: \(spring)")
        #expect(groups[6][0].state.offset == CGPoint(x: 0, y: -100))
        // End: the range ends at contentSize + bottom − viewport = 3000 + 50 − 600.
        #expect(groups[7].allSatisfy { y($0) > -100 && y($0) <= 2450 } && groups[8][0].state.offset == CGPoint(x: 0, y: 2450))
        #expect(groups[9][0].time == 3000)
        #expect(groups[11][0].state.offset == CGPoint(x: 0, y: -100) && r.end.offset == CGPoint(x: 0, y: -100))
    }

    @Test("bounces false: a fling into the end stops exactly at 2400, a push at the end moves nothing")
    func noBounces() throws {
        let r = try Replayed("no-bounces.jsonl")
        let groups = try #require(expectSequence(r.lines, Step.flingingDrag() + [
            Step.momentum, .one("DidEndDecelerating", tracking: false, dragging: false, decelerating: false),
            .one("WillBeginDragging", tracking: true, dragging: true, decelerating: false),
            .one("WillEndDragging", tracking: false, dragging: true),
            .didEndDragging(willDecelerate: false, decelerating: false),
        ]))
        #expect(r.lines.allSatisfy { $0.state.offset.x == 0 && y($0) >= 0 && y($0) <= 2400 },
                "offsets outside [0, 2400]: \(r.lines.filter { y($0) < 0 || y($0) > 2400 }.map(y))")
        let release = try #require(groups[2][0].endDragging)
        #expect(release.velocity.y > 2, "a fling that would travel past the end: \(release.velocity.y) pt/ms")
        #expect(release.target == CGPoint(x: 0, y: 2400))
        #expect(isNonDecreasing(groups[5].map(y)) && groups[5].last.map(y) == 2400)
        #expect(groups[6][0].state.offset == CGPoint(x: 0, y: 2400))
        #expect(groups[7][0].time == 2016 && groups[8][0].endDragging?.velocity == .zero)
        #expect(r.end.offset == CGPoint(x: 0, y: 2400))

        // The same input with bounces: the fling runs past the end and the push rubber-bands.
        let bouncing = try Replayed("no-bounces.jsonl") { $0.bounces = nil }
        #expect(bouncing.lines.contains { y($0) > 2410 }, "the input does reach past the end")
    }

    @Test("alwaysBounceVertical on short content: a pull rubber-bands and springs back; without it nothing")
    func alwaysBounceVertical() throws {
        try expectAlwaysBounce("always-bounce-vertical.jsonl", axis: .vertical, dimension: 600) {
            $0.alwaysBounceVertical = nil
        }
    }

    @Test("alwaysBounceHorizontal on narrow content: a sideways pull rubber-bands and springs back; without it nothing")
    func alwaysBounceHorizontal() throws {
        try expectAlwaysBounce("always-bounce-horizontal.jsonl", axis: .horizontal, dimension: 400) {
            $0.alwaysBounceHorizontal = nil
        }
    }

    /// A 120 pt pull at 10 pt per 8 ms on content with no range on `axis`: rubber-banded from
    /// 0, sprung back to 0 after a lift at rest; the other axis never moves. Without the
    /// option (`removing` it) the same input calls nothing at all.
    private func expectAlwaysBounce(_ name: String, axis: ScrollAxis, dimension: Double,
                                    removing: (inout ScrollOptions) -> Void,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try Replayed(name)
        let groups = try #require(expectSequence(r.lines, [
            .one("WillBeginDragging", tracking: true, dragging: true, decelerating: false),
            Step(call: "scrollViewDidScroll", count: 11...11, tracking: true, dragging: true, decelerating: false),
        ] + springBack, sourceLocation: sourceLocation), sourceLocation: sourceLocation)
        let along = axis == .vertical ? y : x
        let across = axis == .vertical ? x : y
        // Pulling down shows negative offsets; pulling left, positive ones.
        let sign: Double = axis == .vertical ? -1 : 1
        for call in groups[1] {
            let expected = sign * rubberBand(call.time / 8 * 10 - 10, dimension: dimension)
            #expect(abs(along(call) - expected) < 0.001, "t=\(call.time): \(along(call)), expected \(expected)",
                    sourceLocation: sourceLocation)
        }
        #expect(r.lines.allSatisfy { across($0) == 0 }, sourceLocation: sourceLocation)
        #expect(groups[2][0].endDragging?.velocity == .zero && groups[2][0].endDragging?.target == .zero,
                sourceLocation: sourceLocation)
        #expect(groups[5].last?.state.offset == .zero && groups[6][0].state.offset == .zero && r.end.offset == .zero,
                sourceLocation: sourceLocation)
        #expect(groups[6][0].time > 400 && groups[6][0].time < 1500, "a spring, not a jump or a crawl: \(groups[6][0].time)",
                sourceLocation: sourceLocation)

        let plain = try Replayed(name, changing: removing)
        expectSequence(plain.lines, [], sourceLocation: sourceLocation)
        #expect(plain.end.offset == .zero, sourceLocation: sourceLocation)
    }

    @Test("scrollEnabled false: a touch fling, a button drag, the wheel, the touchpad and keys call nothing")
    func scrollDisabled() throws {
        let r = try Replayed("scroll-disabled.jsonl")
        expectSequence(r.lines, [])
        #expect(r.end.offset == .zero && r.end.frames == 0)

        // Enabled, the same input scrolls: three drags and animated steps.
        let enabled = try Replayed("scroll-disabled.jsonl") { $0.scrollEnabled = nil }
        #expect(enabled.lines("WillBeginDragging").count == 3 && enabled.lines("DidEndScrollingAnimation").count >= 2,
                "\(summary(enabled.lines))")
    }

    @Test("directionalLockEnabled: a vertical drag that wobbles keeps x exactly; a diagonal one moves both")
    func directionalLock() throws {
        let r = try Replayed("directional-lock.jsonl")
        let groups = try #require(expectSequence(r.lines, restingDrag(scrolls: 8...8) + restingDrag(scrolls: 8...8)))
        // The slop (10 pt) is crossed along the first movement, (2, −20): the content follows
        // from the point where it crossed, on y only.
        let lockedY = 500 + 160 - 200 / 404.0.squareRoot()
        #expect(groups[0...3].joined().allSatisfy { x($0) == 500 }, "x moved: \(groups[1].map(x))")
        #expect(isNonDecreasing(groups[1].map(y)) && abs(y(groups[2][0]) - lockedY) < 0.001, "y \(y(groups[2][0]))")
        #expect(groups[2][0].endDragging?.velocity == .zero)
        // The diagonal drag: 120 pt on each axis less the slop's share, 10/√2.
        let diagonal = 120 - 10 / 2.0.squareRoot()
        for call in groups[5] {
            #expect(abs((x(call) - 500) - (y(call) - lockedY)) < 0.001, "not diagonal at t=\(call.time): \(call.state.offset)")
        }
        #expect(abs(x(groups[6][0]) - (500 + diagonal)) < 0.001 && abs(y(groups[6][0]) - (lockedY + diagonal)) < 0.001,
                "\(groups[6][0].state.offset)")
        #expect(r.end.offset == groups[6][0].state.offset)

        // Unlocked, the wobble's 10 pt drift to the right moves the content left.
        let free = try Replayed("directional-lock.jsonl") { $0.directionalLockEnabled = nil }
        let firstRelease = try #require(free.lines("WillEndDragging").first)
        #expect(x(firstRelease) < 495, "the unlocked drag moves x: \(firstRelease.state.offset)")
    }

    @Test("scrollsToTop false: scrollToTop, Ctrl+Home and Home do nothing; true: each asks and scrolls to the top")
    func scrollsToTopOff() throws {
        let r = try Replayed("scrolls-to-top-off.jsonl")
        expectSequence(r.lines, [])
        #expect(r.end.offset == CGPoint(x: 0, y: 1000))

        let on = try Replayed("scrolls-to-top-off.jsonl") { $0.scrollsToTop = true }
        let groups = try #require(expectSequence(on.lines, [
            .one("ShouldScrollToTop"),
            .scrolls(atLeast: 3, tracking: false, dragging: false, decelerating: false),
            .one("DidScrollToTop"),
            // Already at the top: asked, and told at once.
            .one("ShouldScrollToTop"), .one("DidScrollToTop"),
            .one("ShouldScrollToTop"), .one("DidScrollToTop"),
        ]))
        #expect(groups[0][0].time == 100 && groups[3][0].time == 520 && groups[5][0].time == 900)
        #expect(groups[2][0].state.offset == .zero && on.end.offset == .zero)
    }

    @Test("decelerationRate: a 2.5 pt/ms fling rests at x0 − v0 / ln d and follows v0 · d^t on the way",
          arguments: [("deceleration-fast.jsonl", 0.99), ("deceleration-custom.jsonl", 0.995), ("drag-fling.jsonl", 0.998)])
    func decelerationRate(name: String, rate: Double) throws {
        let r = try Replayed(name)
        let groups = try #require(expectSequence(r.lines, Step.flingingDrag() + [
            Step.momentum, .one("DidEndDecelerating", tracking: false, dragging: false, decelerating: false),
        ]))
        let release = try #require(groups[2][0].endDragging)
        let v0 = Double(release.velocity.y), x0 = y(groups[2][0]), t0 = groups[2][0].time
        #expect(abs(v0 - 2.5) <= 0.3, "velocity \(v0)")
        let rest = x0 - v0 / log(rate)
        #expect(abs(Double(release.target.y) - rest) < 0.01, "target \(release.target.y), x∞ = \(rest)")
        #expect(abs(Double(r.end.offset.y) - rest) <= 0.5, "rested at \(r.end.offset.y), x∞ = \(rest)")
        // On the way: x(t) = x0 + v0 · (d^t − 1) / ln d (spec: v(t) = v0 · d^t).
        for call in groups[5] {
            let expected = x0 + v0 * (pow(rate, call.time - t0) - 1) / log(rate)
            #expect(abs(y(call) - expected) <= 0.5, "t=\(call.time): \(y(call)), expected \(expected)")
        }
    }

    @Test("decelerationRate fast travels a fifth of normal's distance (ln 0.998 / ln 0.99) for the same fling")
    func fastAgainstNormal() throws {
        func travel(_ name: String) throws -> Double {
            let r = try Replayed(name)
            let release = try #require(r.lines("WillEndDragging").first)
            return Double(r.end.offset.y) - y(release)
        }
        let ratio = try travel("deceleration-fast.jsonl") / travel("drag-fling.jsonl")
        #expect(abs(ratio - log(0.998) / log(0.99)) < 0.005, "ratio \(ratio)")
    }

    @Test("minimumZoomScale 0.5: a pinch to 0.5x stays there, no bounce")
    func minimumZoomScale() throws {
        let r = try Replayed("zoom-minimum.jsonl")
        let groups = try #require(expectSequence(r.lines, [
            .zoom("WillBeginZooming", tracking: true, zooming: true, zoomBouncing: false),
            .zoomFrames(atLeast: 10, tracking: true, zooming: true, zoomBouncing: false),
            .zoom("DidEndZooming", tracking: true, zooming: false, zoomBouncing: false),
        ], zoom: true))
        let scales = groups[1].filter { $0.name == "scrollViewDidZoom" }.map(\.state.zoomScale)
        #expect(isNonDecreasing(scales.reversed()) && scales.last == 0.5, "\(scales)")
        #expect(groups[2][0].time == 190 && groups[2][0].call == .didEndZooming(atScale: 0.5))
        #expect(r.end.zoomScale == 0.5 && r.end.offset == .zero)

        let defaultMinimum = try Replayed("zoom-minimum.jsonl") { $0.minimumZoomScale = nil }
        #expect(defaultMinimum.lines("DidEndZooming").last?.call == .didEndZooming(atScale: 1) && defaultMinimum.end.zoomScale == 1)
    }

    @Test("indicators hidden on both axes: nothing fades after the lift, so the display is idle at once")
    func indicatorsHidden() throws {
        let r = try Replayed("indicators-hidden.jsonl")
        _ = try #require(expectSequence(r.lines, restingDrag(scrolls: 10...10)))
        #expect(r.end.time == 400, "the replay rests at the lift, t=400; ended at \(r.end.time)")

        // Shown, they stay 500 ms after the lift and fade over 300 ms, a frame at a time.
        let shown = try Replayed("indicators-hidden.jsonl") { $0.showsVerticalScrollIndicator = nil; $0.showsHorizontalScrollIndicator = nil }
        #expect(shown.end.time >= 1200 && shown.end.frames >= r.end.frames + 17, "\(shown.end) against \(r.end)")
    }
}
