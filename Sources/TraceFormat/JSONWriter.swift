// The one JSON writer of the trace tools: replay output, recorded input lines and the numbers
// in error messages are all spelled here, so a trace written by one reads the same in the other.
import Foundation

/// How a writer spells numbers. Two tools need two spellings: replay output must print the
/// same bytes on every machine, a recording must keep the compositor's values exactly.
public enum JSONNumberStyle: Sendable {
    /// Rounded half away from zero to 3 decimals, integers without ".0", no exponent, never
    /// "-0"; non-finite values print as `null`. Micro-points and microseconds are below
    /// anything a person or a test can see, so replay output and messages use this.
    case thousandths
    /// Integers without a fraction, others in Swift's shortest round-trip form (which JSON
    /// accepts, exponent included), so that wl_fixed fractions such as 1/256 are kept exactly;
    /// non-finite values, which JSON cannot hold, become 0. Recorded input uses this.
    case exact

    /// `value` spelled in this style.
    public func text(_ value: Double) -> String {
        switch self {
        case .thousandths: return formatNumber(value)
        case .exact:
            guard value.isFinite else { return "0" }
            // Below 1e15 every integral Double fits Int64 and prints without an exponent.
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        }
    }
}

/// `value` in the `thousandths` style: how replay output and error messages print numbers.
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

/// Builds one JSON object left to right, members in the order they are added, on one line.
public struct JSONObjectWriter: Sendable {
    /// How numbers are spelled.
    public let numbers: JSONNumberStyle
    private var text = "{"
    /// Whether no member has been added.
    public private(set) var isEmpty = true

    /// Creates an empty object whose numbers are spelled in `numbers` style.
    public init(numbers: JSONNumberStyle) {
        self.numbers = numbers
    }

    /// The object's text, `{…}`, without a newline.
    public var json: String { text + "}" }

    /// `value` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func quoted(_ value: String) -> String {
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

    /// Adds `key` with `json`, text that is already one JSON value.
    public mutating func raw(_ key: String, _ json: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        text += Self.quoted(key) + ":" + json
    }

    /// Adds a number in the writer's style.
    public mutating func number(_ key: String, _ value: Double) { raw(key, numbers.text(value)) }

    /// Adds an integer, all its digits.
    public mutating func integer(_ key: String, _ value: Int) { raw(key, String(value)) }

    /// Adds `true` or `false`.
    public mutating func bool(_ key: String, _ value: Bool) { raw(key, value ? "true" : "false") }

    /// Adds a string.
    public mutating func string(_ key: String, _ value: String) { raw(key, Self.quoted(value)) }

    /// Adds an array of strings.
    public mutating func strings(_ key: String, _ values: [String]) {
        raw(key, "[" + values.map(Self.quoted).joined(separator: ",") + "]")
    }

    /// Adds a nested object.
    public mutating func object(_ key: String, _ value: JSONObjectWriter) { raw(key, value.json) }

    /// Adds `{"x":…,"y":…}`, in points.
    public mutating func point(_ key: String, _ p: CGPoint) {
        var inner = JSONObjectWriter(numbers: numbers)
        inner.number("x", Double(p.x))
        inner.number("y", Double(p.y))
        object(key, inner)
    }

    /// Adds `{"width":…,"height":…}`, in points.
    public mutating func size(_ key: String, _ size: CGSize) {
        var inner = JSONObjectWriter(numbers: numbers)
        inner.number("width", Double(size.width))
        inner.number("height", Double(size.height))
        object(key, inner)
    }
}
