// Prints replay records as the JSON Lines of docs/trace-format.md, deterministically.
//
// Numbers are rounded to 3 decimals (micro-points and microseconds are below anything a
// person or a test can see) and printed without exponent, trailing zeros or "-0", so the
// same replay always prints the same bytes on every machine. Keys come in a fixed order:
// `t` and `call` (or `kind`) first, then the call's own arguments, then the state snapshot.
import Foundation
// Replay's public API speaks in the trace's types (Trace, TraceParser, TraceError), so code
// that imports Replay sees them without importing TraceFormat as well.
import TraceFormat

/// Formats `ReplayRecord`s as single JSON lines (no trailing newline).
public enum ReplayOutput {
    /// The JSON line for `record`.
    public static func line(for record: ReplayRecord) -> String {
        var out = JSONObjectWriter(numbers: .thousandths)
        switch record {
        case .delegate(let time, let call, let state):
            out.number("t", time)
            out.string("call", call.name)
            if state.view != 0 { out.integer("view", state.view) }
            switch call {
            case .willEndDragging(let velocity, let target):
                out.point("velocity", velocity)
                out.point("targetContentOffset", target)
            case .didEndDragging(let willDecelerate):
                out.bool("willDecelerate", willDecelerate)
            case .didEndZooming(let scale):
                out.number("atScale", scale)
            default:
                break
            }
            out.state(state)
        case .control(let time, let id, let event, let state):
            out.number("t", time)
            out.string("kind", "control")
            if state.view != 0 { out.integer("view", state.view) }
            out.string("id", id)
            out.string("event", event.rawValue)
            out.state(state)
        case .frame(let time, let offset, let zoomScale):
            out.string("kind", "frame")
            out.number("t", time)
            out.point("offset", offset)
            out.number("zoomScale", zoomScale)
        case .end(let time, let offset, let zoomScale, let frames), .timeout(let time, let offset, let zoomScale, let frames):
            if case .end = record { out.string("kind", "end") } else { out.string("kind", "timeout") }
            out.number("t", time)
            out.point("offset", offset)
            out.number("zoomScale", zoomScale)
            out.integer("frames", frames)
        case .nestedEnd(let time, let view, let offset, let zoomScale):
            out.string("kind", "nestedEnd")
            out.number("t", time)
            out.integer("view", view)
            out.point("offset", offset)
            out.number("zoomScale", zoomScale)
        case .stopped(let time, let offset, let zoomScale, let frames, let limit):
            out.string("kind", "stopped")
            out.number("t", time)
            out.point("offset", offset)
            out.number("zoomScale", zoomScale)
            out.integer("frames", frames)
            out.string("limit", limit.rawValue)
        }
        return out.json
    }

    /// `value` as printed in output lines: rounded half away from zero to 3 decimals, integers
    /// without ".0", no exponent, never "-0"; non-finite values print as `null`.
    public static func number(_ value: Double) -> String { JSONNumberStyle.thousandths.text(value) }
}

private extension JSONObjectWriter {
    /// The state snapshot every delegate and control line ends with, in the spec's order.
    mutating func state(_ s: ScrollStateSnapshot) {
        point("offset", s.offset)
        bool("tracking", s.tracking)
        bool("dragging", s.dragging)
        bool("decelerating", s.decelerating)
        bool("zooming", s.zooming)
        bool("zoomBouncing", s.zoomBouncing)
        number("zoomScale", s.zoomScale)
    }
}
