// Prints replay records as the JSON Lines of spec/trace-format.md, deterministically.
//
// Numbers are rounded to 3 decimals (micro-points and microseconds are below anything a
// person or a test can see) and printed without exponent, trailing zeros or "-0", so the
// same replay always prints the same bytes on every machine. Keys come in a fixed order:
// `t` and `call` (or `kind`) first, then the call's own arguments, then the state snapshot.
import Foundation

/// Formats `ReplayRecord`s as single JSON lines (no trailing newline).
public enum ReplayOutput {
    /// The JSON line for `record`.
    public static func line(for record: ReplayRecord) -> String {
        var out = JSONLineWriter()
        switch record {
        case .delegate(let time, let call, let state):
            out.number("t", time)
            out.string("call", call.name)
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
        }
        return out.finish()
    }

    /// `value` as printed in output lines: rounded half away from zero to 3 decimals, integers
    /// without ".0", no exponent, never "-0"; non-finite values print as `null`.
    public static func number(_ value: Double) -> String { formatNumber(value) }
}

/// Formats a number for output and messages: rounded half away from zero to 3 decimals,
/// integers without ".0", no exponent, never "-0"; non-finite values print as JSON `null`.
func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    let thousandths = (value * 1000).rounded(.toNearestOrAwayFromZero)
    // Beyond 2^53 thousandths Double has no fractional digits left to print anyway; beyond
    // Int64 only absurd values remain (in error messages), shown in Swift's shortest form.
    guard abs(thousandths) < 9.0e15 else {
        return abs(value) < 9.0e18 ? String(Int64(value.rounded())) : String(value)
    }
    let scaled = Int64(thousandths)
    if scaled == 0 { return "0" }
    let magnitude = scaled.magnitude
    var text = scaled < 0 ? "-" : ""
    text += String(magnitude / 1000)
    var fraction = magnitude % 1000
    if fraction != 0 {
        var digits = 3
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let raw = String(fraction)
        text += "." + String(repeating: "0", count: digits - raw.count) + raw
    }
    return text
}

/// Builds one JSON object left to right.
private struct JSONLineWriter {
    private var text = "{"
    private var first = true

    private mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        text += "\""
        text += name
        text += "\":"
    }

    mutating func number(_ name: String, _ value: Double) {
        key(name)
        text += formatNumber(value)
    }

    mutating func integer(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    mutating func bool(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    mutating func string(_ name: String, _ value: String) {
        key(name)
        text += jsonQuoted(value)
    }

    mutating func point(_ name: String, _ p: CGPoint) {
        key(name)
        text += "{\"x\":" + formatNumber(Double(p.x)) + ",\"y\":" + formatNumber(Double(p.y)) + "}"
    }

    mutating func state(_ s: ScrollStateSnapshot) {
        point("offset", s.offset)
        bool("tracking", s.tracking)
        bool("dragging", s.dragging)
        bool("decelerating", s.decelerating)
        bool("zooming", s.zooming)
        bool("zoomBouncing", s.zoomBouncing)
        number("zoomScale", s.zoomScale)
    }

    mutating func finish() -> String {
        text + "}"
    }
}

/// `value` as a JSON string literal (quotes, backslashes and control characters escaped).
func jsonQuoted(_ value: String) -> String {
    var out = "\""
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
