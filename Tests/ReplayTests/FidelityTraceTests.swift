// Behaviour checked against iOS measurements and Apple's documentation: momentum that builds on
// repeated flings, paging that owns its target, two-finger flicks, the velocity cap and its
// glitch filter, and motions that always end inside the content's range.
import Foundation
import Testing
import Replay
import ScrollKit
import TraceFormat

@Suite("Fidelity traces")
struct FidelityTraceTests {
    /// -ln(0.998) per ms: a fling of v pt/ms rests v / 0.0020020 pt further on.
    private let decay = -log(0.998)

    @Test("A second fling the same way 300 ms into a deceleration carries momentum: about 970 pt, not 749")
    func carriedMomentum() throws {
        let (calls, _, end) = try Traces.replay("carried-momentum.jsonl")
        let releases = calls.compactMap { call in call.endDragging.map { (call.state.offset, $0) } }
        try #require(releases.count == 2)
        #expect(abs(releases[0].1.velocity.y - 1.5) < 0.01)
        // Caught at 400 ms, 300 ms after the first release: still moving at 1.5 · 0.998^300.
        let carried = ScrollPhysics().carriedMomentum(1.5 * pow(0.998, 300))
        #expect(abs(carried - 0.442) < 0.005, "Flutter's fit gives 0.442 pt/ms here, not \(carried)")
        let (offset, second) = releases[1]
        #expect(abs(Double(second.velocity.y) - (1.5 + carried)) < 0.01, "velocity \(second.velocity.y)")
        // The target the delegate sees includes the carried part, and the content rests there.
        let travel = Double(second.target.y - offset.y)
        #expect(abs(travel - 970) < 5, "travels \(travel) pt")
        #expect(abs(travel - (1.5 + carried) / decay) < 0.01)
        #expect(abs(end.offset.y - second.target.y) <= 0.5)
    }

    @Test("A fling back against the moving content carries nothing")
    func noCarryAgainstTheMotion() throws {
        let (calls, _, end) = try Traces.replay("carried-momentum-reverse.jsonl")
        let releases = calls.compactMap { call in call.endDragging.map { (call.state.offset, $0) } }
        try #require(releases.count == 2)
        let (offset, second) = releases[1]
        #expect(abs(second.velocity.y + 1.5) < 0.01, "velocity \(second.velocity.y)")
        #expect(abs(Double(offset.y - second.target.y) - 1.5 / decay) < 0.5)
        #expect(abs(end.offset.y - second.target.y) <= 0.5)
    }

    @Test("Paging ignores the delegate's targetContentOffset: the flick rests on the next page")
    func pagingOwnsItsTarget() throws {
        let (calls, _, end) = try Traces.replay("paging-target-override.jsonl")
        let release = try #require(calls.compactMap(\.endDragging).first)
        // What the delegate wrote is reported as it wrote it (trace format: after its say)…
        #expect(release.target == CGPoint(x: 0, y: 1000))
        // …but the content comes to rest on a page, and passes no point beyond it.
        #expect(end.offset == CGPoint(x: 0, y: 600))
        #expect(calls.filter { $0.name == "scrollViewDidScroll" }.allSatisfy { $0.state.offset.y <= 600.5 })
    }

    @Test("Two fingers flicked and lifted in the same frame keep the gesture's velocity")
    func twoFingerFlick() throws {
        let (calls, _, end) = try Traces.replay("two-finger-flick.jsonl")
        let release = try #require(calls.compactMap(\.endDragging).first)
        #expect(abs(release.velocity.y - 1.5) < 0.05, "velocity \(release.velocity)")
        #expect(calls.contains { $0.call == .didEndDragging(willDecelerate: true) })
        #expect(calls.filter { $0.name == "scrollViewDidZoom" }.isEmpty, "the fingers never pinched")
        #expect(end.offset.y > 800, "rested at \(end.offset.y)")
    }

    @Test("A glitchy sample 2000 pt away 1 ms before the lift is left out of the velocity")
    func glitchySample() throws {
        let (calls, _, end) = try Traces.replay("velocity-glitch.jsonl")
        let release = try #require(calls.compactMap(\.endDragging).first)
        #expect(abs(release.velocity.y - 1.5) < 0.05, "velocity \(release.velocity)")
        let (offset, _) = try #require(calls.compactMap { c in c.endDragging.map { (c.state.offset, $0) } }.first)
        #expect(abs(Double(end.offset.y - offset.y) - 1.5 / decay) < 1, "flung \(end.offset.y - offset.y) pt")
    }

    @Test("Release velocity is capped at 8 pt/ms (Flutter's kMaxFlingVelocity)")
    func velocityCap() throws {
        let (calls, _, end) = try Traces.replay("velocity-cap.jsonl")
        let (offset, release) = try #require(calls.compactMap { c in c.endDragging.map { (c.state.offset, $0) } }.first)
        #expect(release.velocity.y == CGFloat(ScrollPhysics.maximumFlingVelocity))
        #expect(abs(Double(end.offset.y - offset.y) - 8 / decay) < 1)
    }

    @Test("A sideways wheel notch or arrow key during an edge bounce ends inside the range", arguments: [
        ("overscroll-wheel.jsonl", CGFloat(57)), ("overscroll-key.jsonl", CGFloat(40)),
    ])
    func nothingStaysOverscrolled(trace: String, step: CGFloat) throws {
        let (calls, _, end) = try Traces.replay(trace)
        let release = try #require(calls.first { $0.name == "scrollViewWillEndDragging" })
        #expect(release.state.offset.y < -50, "the drag left the content past the top: \(release.state.offset)")
        #expect(end.offset == CGPoint(x: step, y: 0), "rested at \(end.offset)")
    }
}
