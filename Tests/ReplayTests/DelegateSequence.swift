// Whole-sequence matching of recorded delegate calls (and control events) against the order
// the spec and seeds give, with state flags checked on every call of each step.
import Foundation
import Testing
import Replay
import ScrollKit
import TraceFormat

/// One step of an expected delegate sequence: a call name repeated `count` times (a run of
/// `scrollViewDidScroll` varies with the frame rate), with the flags every call must show.
struct Step: CustomStringConvertible {
    var call: String
    var count: ClosedRange<Int>
    var tracking: Bool?
    var dragging: Bool?
    var decelerating: Bool?
    var willDecelerate: Bool?
    /// Other names the step also takes (a zoom frame sends DidScroll and DidZoom in turn).
    var alsoAccepts: [String] = []
    var zooming: Bool?
    var zoomBouncing: Bool?

    var description: String {
        let short = ([call] + alsoAccepts).map { $0.replacingOccurrences(of: "scrollView", with: "") }.joined(separator: "/")
        if count == 1...1 { return short }
        return count.upperBound == .max ? "\(short)×\(count.lowerBound)+" : "\(short)×\(count)"
    }

    /// Whether `line` belongs to this step: one of its names, and (for runs of the same names
    /// split by state, such as zooming then bouncing frames) the zoom flags it asks for.
    func accepts(_ line: Call) -> Bool {
        guard line.name == call || alsoAccepts.contains(line.name) else { return false }
        if let flag = zooming, line.state.zooming != flag { return false }
        if let flag = zoomBouncing, line.state.zoomBouncing != flag { return false }
        return true
    }

    /// A run of zoom frames: DidScroll and DidZoom in any mix, at least `minimum` DidZoom-or-
    /// DidScroll calls, with the given flags.
    static func zoomFrames(atLeast minimum: Int = 1, tracking: Bool? = nil, zooming: Bool? = nil,
                           zoomBouncing: Bool? = nil) -> Step {
        Step(call: "scrollViewDidZoom", count: minimum...Int.max, tracking: tracking, dragging: nil, decelerating: nil,
             willDecelerate: nil, alsoAccepts: ["scrollViewDidScroll"], zooming: zooming, zoomBouncing: zoomBouncing)
    }

    /// Exactly one zoom delegate call `name` (without the `scrollView` prefix) with zoom flags.
    static func zoom(_ name: String, tracking: Bool? = nil, zooming: Bool? = nil, zoomBouncing: Bool? = nil) -> Step {
        Step(call: "scrollView" + name, count: 1...1, tracking: tracking, dragging: nil, decelerating: nil,
             willDecelerate: nil, zooming: zooming, zoomBouncing: zoomBouncing)
    }

    /// One event of control `id`.
    static func control(_ id: String, _ event: ControlEvent, tracking: Bool? = nil) -> Step {
        Step(call: controlName(id, event), count: 1...1, tracking: tracking, dragging: nil, decelerating: nil,
             willDecelerate: nil)
    }

    private static func make(_ name: String, _ count: ClosedRange<Int>, _ tracking: Bool?, _ dragging: Bool?,
                             _ decelerating: Bool?, _ willDecelerate: Bool? = nil) -> Step {
        Step(call: "scrollView" + name, count: count, tracking: tracking, dragging: dragging, decelerating: decelerating,
             willDecelerate: willDecelerate)
    }

    /// A run of at least `minimum` `scrollViewDidScroll` calls.
    static func scrolls(atLeast minimum: Int = 1, tracking: Bool? = nil, dragging: Bool? = nil,
                        decelerating: Bool? = nil) -> Step {
        make("DidScroll", minimum...Int.max, tracking, dragging, decelerating)
    }

    /// Exactly one call of `name` (without the `scrollView` prefix).
    static func one(_ name: String, tracking: Bool? = nil, dragging: Bool? = nil, decelerating: Bool? = nil) -> Step {
        make(name, 1...1, tracking, dragging, decelerating)
    }

    /// `scrollViewDidEndDragging(_:willDecelerate:)` with the given flag.
    static func didEndDragging(willDecelerate: Bool, dragging: Bool? = nil, decelerating: Bool? = nil) -> Step {
        make("DidEndDragging", 1...1, nil, dragging, decelerating, willDecelerate)
    }

    /// The calls of one drag that ends in a fling: WillBeginDragging, DidScroll…,
    /// WillEndDragging, DidEndDragging(true), WillBeginDecelerating. `caught` says whether the
    /// drag caught a running deceleration (then `isDecelerating` stays YES during it, seed 002).
    static func flingingDrag(caught: Bool = false) -> [Step] {
        [.one("WillBeginDragging", dragging: true, decelerating: caught),
         .scrolls(tracking: true, dragging: true, decelerating: caught),
         .one("WillEndDragging", dragging: true, decelerating: caught),
         .didEndDragging(willDecelerate: true, dragging: true),
         .one("WillBeginDecelerating", tracking: false, dragging: true)]
    }

    /// The momentum after a fling: DidScroll… while decelerating, not tracking, still dragging.
    static let momentum = Step.scrolls(tracking: false, dragging: true, decelerating: true)
}

/// A delegate call or a control event as recorded.
struct Call {
    var time: Double
    /// The delegate method's name, or "control <id> <event>".
    var name: String
    /// The delegate call; nil for a control event.
    var call: DelegateCall?
    var state: ScrollStateSnapshot
}

/// The name a control event's line is matched by.
func controlName(_ id: String, _ event: ControlEvent) -> String { "control \(id) \(event.rawValue)" }

/// The delegate calls of `records`, leaving out frame, control and end lines.
func delegateCalls(_ records: [ReplayRecord]) -> [Call] {
    records.compactMap { record in
        if case .delegate(let time, let call, let state) = record { return Call(time: time, name: call.name, call: call, state: state) }
        return nil
    }
}

/// Delegate calls and control events of `records`, in the order they happened.
func timeline(_ records: [ReplayRecord]) -> [Call] {
    records.compactMap { record in
        switch record {
        case .delegate(let time, let call, let state): return Call(time: time, name: call.name, call: call, state: state)
        case .control(let time, let id, let event, let state): return Call(time: time, name: controlName(id, event), state: state)
        default: return nil
        }
    }
}

/// A readable summary with runs collapsed: "WillBeginDragging, DidScroll×12, …".
func summary(_ calls: [Call]) -> String {
    var parts: [String] = []
    var index = 0
    while index < calls.count {
        var end = index
        while end < calls.count, calls[end].name == calls[index].name { end += 1 }
        let short = calls[index].name.replacingOccurrences(of: "scrollView", with: "")
        parts.append(end - index == 1 ? short : "\(short)×\(end - index)")
        index = end
    }
    return parts.isEmpty ? "(no calls)" : parts.joined(separator: ", ")
}

/// Matches the whole of `calls` against `steps` (every call consumed, in order) and checks
/// each step's flags on every call it covers. Unless `zoom` is set, every call must also show
/// no zoom state at all. Returns the calls of each step for further checks, or nil (with the
/// issue recorded) when the sequence differs.
@discardableResult
func expectSequence(_ calls: [Call], _ steps: [Step], zoom: Bool = false,
                    sourceLocation: SourceLocation = #_sourceLocation) -> [[Call]]? {
    var groups: [[Call]] = []
    var index = 0
    let expected = steps.map(\.description).joined(separator: ", ")
    for step in steps {
        var group: [Call] = []
        while index < calls.count, step.accepts(calls[index]), group.count < step.count.upperBound {
            group.append(calls[index])
            index += 1
        }
        guard step.count.contains(group.count) else {
            Issue.record("delegate sequence differs at step \(groups.count + 1) (\(step))\n  expected: \(expected)\n  actual:   \(summary(calls))",
                         sourceLocation: sourceLocation)
            return nil
        }
        groups.append(group)
    }
    guard index == calls.count else {
        Issue.record("unexpected calls after the expected sequence\n  expected: \(expected)\n  actual:   \(summary(calls))",
                     sourceLocation: sourceLocation)
        return nil
    }
    for (step, group) in zip(steps, groups) {
        for call in group {
            let at = "\(step) at t=\(ReplayOutput.number(call.time))"
            if let flag = step.tracking { #expect(call.state.tracking == flag, "isTracking in \(at)", sourceLocation: sourceLocation) }
            if let flag = step.dragging { #expect(call.state.dragging == flag, "isDragging in \(at)", sourceLocation: sourceLocation) }
            if let flag = step.decelerating {
                #expect(call.state.decelerating == flag, "isDecelerating in \(at)", sourceLocation: sourceLocation)
            }
            if let flag = step.willDecelerate {
                #expect(call.call == .didEndDragging(willDecelerate: flag), "willDecelerate in \(at)", sourceLocation: sourceLocation)
            }
            if let flag = step.zooming { #expect(call.state.zooming == flag, "isZooming in \(at)", sourceLocation: sourceLocation) }
            if let flag = step.zoomBouncing {
                #expect(call.state.zoomBouncing == flag, "isZoomBouncing in \(at)", sourceLocation: sourceLocation)
            }
            if !zoom {
                #expect(!call.state.zooming && !call.state.zoomBouncing && call.state.zoomScale == 1,
                        "no zoom state in \(at)", sourceLocation: sourceLocation)
            }
        }
    }
    return groups
}

extension Call {
    /// `velocity` and `targetContentOffset` of a `scrollViewWillEndDragging` call.
    var endDragging: (velocity: CGPoint, target: CGPoint)? {
        if case .willEndDragging(let velocity, let target)? = call { return (velocity, target) }
        return nil
    }
}

/// A replay of a trace file, optionally with its setup options changed first.
struct Replayed {
    var lines: [Call]
    var end: (time: Double, offset: CGPoint, zoomScale: Double, frames: Int)

    init(_ name: String, changing change: (inout ScrollOptions) -> Void = { _ in }) throws {
        var trace = try TraceParser().parse(fileAt: Traces.path(name))
        change(&trace.setup.options)
        let records = try Replayer.records(of: trace)
        lines = timeline(records)
        guard case .end(let time, let offset, let zoomScale, let frames)? = records.last else {
            Issue.record("\(name) did not end with an end line: \(String(describing: records.last))")
            end = (0, .zero, 0, 0)
            return
        }
        end = (time, offset, zoomScale, frames)
    }

    func lines(_ name: String) -> [Call] { lines.filter { $0.name == "scrollView" + name } }
}
