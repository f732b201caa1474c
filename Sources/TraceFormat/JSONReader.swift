// A small strict JSON reader for one trace line, so errors can name the column, key and type.
//
// Foundation's JSONSerialization hides whether a value was `true` or `1` on Linux and reports
// syntax errors without a usable position; trace validation needs both, so lines are read here.
// Hand-written and kept so, since it costs nothing against the library: `scroll-replay --bench`
// reads the same lines with both, and on its generated trace (2437 lines, 134 KB) this reader
// took 5.6–5.8 ms of CPU to JSONSerialization's 5.8–6.1 ms (ratio 0.95–0.97 over four release
// runs, here at load 15 on two cores).

/// A parsed JSON value. Objects keep their keys in file order for messages.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// How the value is described in "must be a number, found …" messages.
    var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "the boolean \(b)"
        case .number(let n): return "the number \(formatNumber(n))"
        case .string(let s): return "the string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object's members in file order; keys are unique (duplicates are a syntax error).
package struct JSONObject: Equatable, Sendable {
    /// Keys in the order they appeared.
    private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    /// The member named `key`, if present.
    subscript(key: String) -> JSONValue? { values[key] }

    /// Appends a member; false when the key was already present.
    mutating func append(_ key: String, _ value: JSONValue) -> Bool {
        guard values[key] == nil else { return false }
        keys.append(key)
        values[key] = value
        return true
    }
}

/// A JSON syntax error at a 1-based byte column of the line.
package struct JSONSyntaxError: Error, Equatable {
    /// 1-based byte column where the problem was found.
    var column: Int
    /// What was expected or found.
    var message: String
}

/// Recursive-descent reader over the bytes of one line.
package struct JSONReader {
    /// Deepest nesting accepted: traces nest three levels; the bound keeps hostile input from
    /// exhausting the stack.
    static let maxDepth = 32

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses exactly one JSON value (surrounded by optional whitespace) from `bytes`.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var reader = JSONReader(bytes)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        if reader.index < reader.bytes.count {
            throw reader.error("unexpected \(reader.describeCurrent()) after the end of the value")
        }
        return value
    }

    // MARK: Values

    private mutating func readValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of line, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try readObject(depth: depth))
        case UInt8(ascii: "["): return .array(try readArray(depth: depth))
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func readObject(depth: Int) throws(JSONSyntaxError) -> JSONObject {
        index += 1  // "{"
        var object = JSONObject()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return object }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a quoted key, found \(describeCurrent())") }
            let keyColumn = index + 1
            let key = try readString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after key \"\(key)\", found \(describeCurrent())") }
            index += 1
            skipWhitespace()
            let value = try readValue(depth: depth + 1)
            guard object.append(key, value) else {
                throw JSONSyntaxError(column: keyColumn, message: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; return object }
            throw error("expected ',' or '}' in object, found \(describeCurrent())")
        }
    }

    private mutating func readArray(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
        index += 1  // "["
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return items }
        while true {
            skipWhitespace()
            items.append(try readValue(depth: depth + 1))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; return items }
            throw error("expected ',' or ']' in array, found \(describeCurrent())")
        }
    }

    private mutating func readLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let start = index
        let expected = word.withUTF8Buffer { Array($0) }
        guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            index = start
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        index += expected.count
    }

    /// JSON number grammar checked byte by byte, then converted by the standard library.
    private mutating func readNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            var n = 0
            while reader.index < reader.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index]) {
                reader.index += 1
                n += 1
            }
            return n
        }
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw error("numbers must not have leading zeros")
            }
        } else if digits(&self) == 0 {
            throw error("expected digits in number, found \(describeCurrent())")
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard digits(&self) > 0 else { throw error("expected digits after '.', found \(describeCurrent())") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in exponent, found \(describeCurrent())") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(column: start + 1, message: "number \(text) is out of range")
        }
        return value
    }

    private mutating func readString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ reader: JSONReader, upTo end: Int, into scalars: inout String.UnicodeScalarView) {
            if end > runStart {
                scalars.append(contentsOf: String(decoding: reader.bytes[runStart..<end], as: UTF8.self).unicodeScalars)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flushRun(self, upTo: index, into: &scalars)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRun(self, upTo: index, into: &scalars)
                index += 1
                scalars.append(try readEscape())
                runStart = index
            case 0..<0x20:
                throw error("control character 0x\(String(byte, radix: 16)) inside a string (escape it)")
            default:
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func readEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated escape") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try readHex4()
            if (0xD800..<0xDC00).contains(high) {
                // A UTF-16 surrogate pair spelled as two escapes.
                guard peek(UInt8(ascii: "\\")), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("lone high surrogate \\u\(String(high, radix: 16))")
                }
                index += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate \\u\(String(low, radix: 16))") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("lone low surrogate \\u\(String(high, radix: 16))") }
            return scalar
        default:
            index -= 1
            throw error("invalid escape '\\\(describeByte(c))'")
        }
    }

    private mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unterminated \\u escape") }
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("expected 4 hex digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: Helpers

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): index += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        index < bytes.count ? "'\(describeByte(bytes[index]))'" : "end of line"
    }

    private func describeByte(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(column: index + 1, message: message)
    }
}
