// The seed scenarios, replayed from the trace files in Traces/: each delegate sequence is
// compared whole against the order the spec and seeds give (what iOS does), with offsets,
// velocities and targets checked to stated tolerances.
import Foundation
import Testing
import Replay
import ScrollKit
import TraceFormat

/// The trace files beside this test, found through #filePath (no bundled resources).
enum Traces {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Traces")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Replays `name` and returns its delegate calls and the final line.
    static func replay(_ name: String) throws -> (calls: [Call], records: [ReplayRecord], end: (time: Double, offset: CGPoint)) {
        let trace = try TraceParser().parse(fileAt: path(name))
        let records = try Replayer.records(of: trace)
        guard case .end(let time, let offset, let zoomScale, _)? = records.last else {
            Issue.record("\(name) did not end with an end line: \(String(describing: records.last))")
            return (delegateCalls(records), records, (0, .zero))
        }
        #expect(zoomScale == 1)
        return (delegateCalls(records), records, (time, offset))
    }
}

/// -ln(0.998) per ms: the decay constant of UIScrollView.DecelerationRate.normal, so a fling
/// of v pt/ms rests v / 0.0020020 pt further on (spec: x∞ = x0 − v0 / ln d).
private let normalDecay = -log(0.998)

/// Points a DidScroll run moves through, in order.
private func offsets(_ calls: [Call]) -> [Double] { calls.map { Double($0.state.offset.y) } }

private func isNonDecreasing(_ values: [Double]) -> Bool { zip(values, values.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 } }

@Suite("Seed scenarios from trace files")
struct SeedScenarioTests {
    @Test("drag and fling: drag calls, then momentum to the announced target")
    func dragFling() throws {
        let (calls, _, end) = try Traces.replay("drag-fling.jsonl")
        let groups = try #require(expectSequence(calls, Step.flingingDrag() + [Step.momentum,
                                                                                .one("DidEndDecelerating", tracking: false)]))
        // The drag starts on the first motion past the touch slop (20 pt at 8 ms).
        #expect(groups[0][0].time == 8)
        #expect(groups[2][0].time == 100 && groups[3][0].time == 100 && groups[4][0].time == 100)
        let release = try #require(groups[2][0].endDragging)
        // The finger moved 20 pt every 8 ms: 2.5 pt/ms toward the end of the content.
        #expect(abs(release.velocity.y - 2.5) <= 0.3, "velocity \(release.velocity)")
        #expect(release.velocity.x == 0)
        let releaseOffset = Double(groups[2][0].state.offset.y)
        let natural = releaseOffset + Double(release.velocity.y) / normalDecay
        #expect(abs(Double(release.target.y) - natural) <= 1, "target \(release.target.y), x∞ = \(natural)")
        #expect(abs(end.offset.y - release.target.y) <= 0.5 && end.offset.x == 0)
        let momentum = offsets(groups[5])
        #expect(isNonDecreasing(momentum) && momentum.allSatisfy { $0 <= Double(release.target.y) + 0.5 })
        #expect(groups[6][0].state.offset == end.offset)
    }

    @Test("drag and release without velocity: zero velocity, no deceleration")
    func dragRelease() throws {
        let (calls, _, end) = try Traces.replay("drag-release.jsonl")
        let groups = try #require(expectSequence(calls, [
            .one("WillBeginDragging", dragging: true, decelerating: false),
            .scrolls(tracking: true, dragging: true, decelerating: false),
            .one("WillEndDragging", decelerating: false),
            .didEndDragging(willDecelerate: false, decelerating: false),
        ]))
        let release = try #require(groups[2][0].endDragging)
        #expect(release.velocity == .zero)
        #expect(release.target == groups[2][0].state.offset)
        #expect(groups[2][0].time == 400)
        // The finger moved 200 pt; the content follows it minus the touch slop (0–15 pt).
        #expect(end.offset.y >= 185 && end.offset.y <= 200, "offset \(end.offset)")
        #expect(end.offset == release.target)
    }

    @Test("tap-to-stop: the content stops at touch-down, the leftover DidEndDecelerating comes last")
    func tapToStop() throws {
        let (calls, _, end) = try Traces.replay("tap-to-stop.jsonl")
        let groups = try #require(expectSequence(calls, Step.flingingDrag() + [
            Step.momentum,
            .one("WillBeginDragging", dragging: true, decelerating: true),
            Step(call: "scrollViewDidScroll", count: 0...Int.max),
            .one("WillEndDragging", dragging: true, decelerating: true),
            .didEndDragging(willDecelerate: false),
            .one("DidEndDecelerating", tracking: false),
        ]))
        #expect(groups[6][0].time == 400)
        // "Stops at once": nothing moves after the touch that caught it.
        #expect(groups[7].allSatisfy { $0.time == 400 })
        let stop = try #require(groups[8][0].endDragging)
        #expect(stop.velocity == .zero)
        #expect(groups[8][0].time == 480 && groups[10][0].time == 480)
        let fling = try #require(groups[2][0].endDragging)
        #expect(end.offset.y < fling.target.y - 100, "stopped at \(end.offset.y), the fling aimed at \(fling.target.y)")
        #expect(end.offset == (groups[7].last ?? groups[6][0]).state.offset)
    }

    @Test("re-drag with a new fling: no DidEndDecelerating for the interrupted run, one at the end")
    func redragFling() throws {
        let (calls, _, end) = try Traces.replay("redrag-fling.jsonl")
        let groups = try #require(expectSequence(calls, Step.flingingDrag() + [Step.momentum]
            + Step.flingingDrag(caught: true) + [Step.momentum, .one("DidEndDecelerating", tracking: false)]))
        #expect(groups[6][0].time == 400)
        let second = try #require(groups[8][0].endDragging)
        // The finger's 1.5 pt/ms plus the momentum carried from the first fling, still moving at
        // v1 · 0.998^300 when caught at 400 ms (its deceleration began at the 100 ms lift).
        let first = try #require(groups[2][0].endDragging)
        let carried = ScrollPhysics().carriedMomentum(Double(first.velocity.y) * pow(0.998, 300))
        #expect(carried > 1, "a 2.5 pt/ms fling caught 300 ms later carries \(carried) pt/ms")
        #expect(abs(Double(second.velocity.y) - (1.5 + carried)) <= 0.3, "velocity \(second.velocity)")
        #expect(abs(end.offset.y - second.target.y) <= 0.5)
    }

    @Test("repeated quick flings: seed 002's sequence with one DidEndDecelerating")
    func repeatedFlings() throws {
        let (calls, _, end) = try Traces.replay("repeated-flings.jsonl")
        let groups = try #require(expectSequence(calls, Step.flingingDrag() + [Step.momentum]
            + Step.flingingDrag(caught: true) + [Step.momentum]
            + Step.flingingDrag(caught: true) + [Step.momentum, .one("DidEndDecelerating", tracking: false)]))
        #expect(groups[0][0].time < 100 && groups[6][0].time == 400 && groups[12][0].time == 800)
        let last = try #require(groups[14][0].endDragging)
        #expect(abs(end.offset.y - last.target.y) <= 0.5)
        #expect(end.offset.y > 800 && end.offset.y < 2400, "three 1.5 pt/ms flings rest mid-content, at \(end.offset.y)")
    }

    @Test("setContentOffset without animation: exactly one DidScroll")
    func setOffset() throws {
        let (calls, _, end) = try Traces.replay("set-offset.jsonl")
        let groups = try #require(expectSequence(calls, [.one("DidScroll", tracking: false, dragging: false, decelerating: false)]))
        #expect(groups[0][0].time == 100 && groups[0][0].state.offset == CGPoint(x: 0, y: 500))
        #expect(end.offset == CGPoint(x: 0, y: 500))
    }

    @Test("setContentOffset with animation: DidScroll per frame, then DidEndScrollingAnimation on target")
    func setOffsetAnimated() throws {
        let (calls, _, end) = try Traces.replay("set-offset-animated.jsonl")
        let groups = try #require(expectSequence(calls, [
            .scrolls(atLeast: 3, tracking: false, dragging: false, decelerating: false),
            .one("DidEndScrollingAnimation", tracking: false, dragging: false, decelerating: false),
        ]))
        let path = offsets(groups[0])
        #expect(isNonDecreasing(path) && path.allSatisfy { $0 >= 0 && $0 <= 800 })
        #expect(abs(path.last! - 800) <= 0.001)
        #expect(groups[0].allSatisfy { $0.time >= 100 })
        #expect(groups[1][0].time > 100 && groups[1][0].time <= 1100, "an animation, not a jump or a crawl")
        #expect(end.offset == CGPoint(x: 0, y: 800))
    }

    @Test("scrollRectToVisible on a visible rect: nothing at all")
    func scrollRectVisible() throws {
        let (calls, _, end) = try Traces.replay("scroll-rect-visible.jsonl")
        expectSequence(calls, [])
        #expect(end.offset == .zero)
    }

    @Test("scrollRectToVisible on hidden rects: nearest edge, one DidScroll or an animation")
    func scrollRectHidden() throws {
        let (calls, _, end) = try Traces.replay("scroll-rect-hidden.jsonl")
        let groups = try #require(expectSequence(calls, [
            .one("DidScroll", tracking: false, dragging: false, decelerating: false),
            .scrolls(atLeast: 2, tracking: false, dragging: false, decelerating: false),
            .one("DidEndScrollingAnimation"),
        ]))
        #expect(groups[0][0].time == 100 && groups[0][0].state.offset == CGPoint(x: 0, y: 310))
        #expect(groups[1].allSatisfy { $0.time >= 500 })
        #expect(end.offset == CGPoint(x: 0, y: 100))
    }

    @Test("targetContentOffset set by the delegate decides where the content rests")
    func targetOverride() throws {
        let (calls, _, end) = try Traces.replay("target-override.jsonl")
        let groups = try #require(expectSequence(calls, Step.flingingDrag() + [Step.momentum,
                                                                                .one("DidEndDecelerating", tracking: false)]))
        let release = try #require(groups[2][0].endDragging)
        #expect(release.target == CGPoint(x: 0, y: 800))
        #expect(abs(end.offset.y - 800) <= 0.5 && end.offset.x == 0, "rested at \(end.offset)")
        #expect(offsets(groups[5]).allSatisfy { $0 <= 800.5 })
    }

    @Test("shouldScrollToTop answered NO: asked once per trigger, nothing moves")
    func scrollToTopRefused() throws {
        let (calls, _, end) = try Traces.replay("scroll-to-top-refused.jsonl")
        let groups = try #require(expectSequence(calls, [.one("ShouldScrollToTop"), .one("ShouldScrollToTop")]))
        #expect(groups[0][0].time == 100 && groups[1][0].time == 500)
        #expect(end.offset == CGPoint(x: 0, y: 1000))
    }

    @Test("scroll to top allowed: ShouldScrollToTop, animation, DidScrollToTop")
    func scrollToTop() throws {
        let (calls, _, end) = try Traces.replay("scroll-to-top.jsonl")
        let groups = try #require(expectSequence(calls, [
            .one("ShouldScrollToTop"),
            .scrolls(atLeast: 2, tracking: false, dragging: false, decelerating: false),
            .one("DidScrollToTop"),
        ]))
        #expect(isNonDecreasing(offsets(groups[1]).reversed()) && offsets(groups[1]).last == 0)
        #expect(end.offset == .zero)
    }

    @Test("paging: each fling rests on the next page, never further")
    func paging() throws {
        let (calls, _, end) = try Traces.replay("paging.jsonl")
        let pageRun = Step.flingingDrag() + [Step.momentum, .one("DidEndDecelerating", tracking: false)]
        let groups = try #require(expectSequence(calls, pageRun + pageRun))
        #expect(groups[2][0].endDragging?.target == CGPoint(x: 0, y: 600))
        #expect(groups[6][0].state.offset == CGPoint(x: 0, y: 600))
        let fast = try #require(groups[9][0].endDragging)
        #expect(fast.velocity.y > 2, "the second fling is fast (\(fast.velocity.y) pt/ms) yet moves one page")
        #expect(fast.target == CGPoint(x: 0, y: 1200))
        #expect(end.offset == CGPoint(x: 0, y: 1200))
    }

    @Test("wheel notches: animated steps, equal in size, no drag calls")
    func wheel() throws {
        let (calls, _, end) = try Traces.replay("wheel.jsonl")
        let step = [Step.scrolls(tracking: false, dragging: false, decelerating: false),
                    .one("DidEndScrollingAnimation", tracking: false, dragging: false, decelerating: false)]
        let groups = try #require(expectSequence(calls, step + step + step))
        let first = groups[1][0].state.offset.y, second = groups[3][0].state.offset.y
        #expect(first > 0, "a notch down scrolls toward the end")
        #expect(abs(second - 2 * first) <= 1, "two notches: \(second), one: \(first)")
        #expect(abs(end.offset.y - first) <= 1)
        #expect(groups[0].allSatisfy { $0.time >= 100 } && groups[2].allSatisfy { $0.time >= 1000 })
    }

    @Test("touchpad scrolling drags the content; axis_stop lifts and starts momentum")
    func touchpad() throws {
        let (calls, _, end) = try Traces.replay("touchpad.jsonl")
        let groups = try #require(expectSequence(calls, [
            .one("WillBeginDragging", dragging: true, decelerating: false),
            .scrolls(dragging: true, decelerating: false),
            .one("WillEndDragging", dragging: true),
            .didEndDragging(willDecelerate: true, dragging: true),
            .one("WillBeginDecelerating", tracking: false, dragging: true),
            Step.momentum,
            .one("DidEndDecelerating", tracking: false),
        ]))
        #expect(groups[0][0].time == 100)
        let release = try #require(groups[2][0].endDragging)
        #expect(groups[2][0].time == 192)
        #expect(abs(release.velocity.y - 1.5) <= 0.3, "12 pt per 8 ms; got \(release.velocity)")
        #expect(abs(end.offset.y - release.target.y) <= 0.5 && end.offset.y > 144)
    }

    @Test("Page_Down scrolls about a page with an animation; Page_Up comes back")
    func keyboard() throws {
        let (calls, _, end) = try Traces.replay("keyboard.jsonl")
        let step = [Step.scrolls(tracking: false, dragging: false, decelerating: false),
                    .one("DidEndScrollingAnimation", tracking: false, dragging: false, decelerating: false)]
        let groups = try #require(expectSequence(calls, step + step))
        let page = groups[1][0].state.offset.y
        #expect(page >= 300 && page <= 600, "a page on a 600 pt view, with some overlap kept: \(page)")
        #expect(groups[0].allSatisfy { $0.time >= 100 } && groups[2].allSatisfy { $0.time >= 1000 })
        #expect(end.offset == .zero)
    }

    @Test("a tap at rest, unknown touches and a stray cancel call nothing")
    func tap() throws {
        let (calls, _, end) = try Traces.replay("tap.jsonl")
        expectSequence(calls, [])
        #expect(end.offset == .zero)
    }

    @Test("the benchmark's generated trace is valid and is a chain of caught flings")
    func syntheticTrace() throws {
        let trace = try TraceParser().parse(SyntheticTrace.continuousFlings(seconds: 1.2), file: "synthetic")
        // 96 ms swipes every 346 ms: four gestures fit in 1.2 s, each 14 events.
        #expect(trace.events.count == 4 * 14)
        let calls = delegateCalls(try Replayer.records(of: trace))
        let steps = Step.flingingDrag() + [Step.momentum]
            + [Step.flingingDrag(caught: true), [Step.momentum], Step.flingingDrag(caught: true), [Step.momentum],
               Step.flingingDrag(caught: true), [Step.momentum, .one("DidEndDecelerating", tracking: false)]].flatMap { $0 }
        expectSequence(calls, steps)
    }
}
