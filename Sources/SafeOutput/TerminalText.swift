// Text from input (trace contents, file names, arguments) made safe to print on a terminal:
// control characters become visible escapes, so a crafted name cannot move the cursor, recolour
// the screen or forge lines.

/// Escapes for text that quotes input in a message.
public enum TerminalText {
    /// `text` with every control character (C0, DEL and C1: Unicode's general category Cc)
    /// replaced by a visible escape: `\n`, `\r`, `\t`, otherwise `\x1B` for C0 and DEL and
    /// `\u{9B}` for C1. Everything else, backslashes included, is kept.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) { result += escape(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// `bytes` (a file name as the kernel holds it, not necessarily UTF-8) as printable text:
    /// valid UTF-8 is kept, each byte of an invalid sequence becomes `\xE9`, and control
    /// characters are escaped as `escaped(_:)` does.
    public static func escaped(bytes: some Collection<UInt8>) -> String {
        let all = Array(bytes)
        var result = ""
        var i = 0
        while i < all.count {
            let lead = all[i]
            // The sequence length a lead byte announces (RFC 3629); 0 for bytes that never lead.
            let length = switch lead {
            case 0..<0x80: 1
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
            if length > 0, i + length <= all.count, let text = String(validating: all[i..<(i + length)], as: UTF8.self) {
                result += escaped(text)
                i += length
            } else {
                result += "\\x" + hex(lead)
                i += 1
            }
        }
        return result
    }

    /// Whether `scalar` is a control character (general category Cc).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default: return scalar.value <= 0x7F ? "\\x" + hex(UInt8(scalar.value)) : "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
