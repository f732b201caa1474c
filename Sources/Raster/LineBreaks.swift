// libunibreak: where a line may break (UAX #14): after spaces, between ideographs, after
// hyphens, never inside a word (the only file that calls libunibreak).
import CUnibreak
import Foundation

/// Line-break opportunities of a paragraph, from libunibreak.
enum LineBreaks {
    /// libunibreak's tables are built once per process, before the first query.
    private static let initialized: Bool = {
        init_linebreak()
        return true
    }()

    /// What libunibreak 1.1 (Debian 12's) is handed in place of scalars it cannot take: it
    /// stops the process with a failed assertion on regional indicators (U+1F1E6…U+1F1FF, the
    /// letters of flag emoji; its pair table ends before their class), and takes U+FFFF for
    /// the end of the text. Indicators become an ideograph, U+4E00, which breaks as an emoji
    /// does (a flag's two indicators are one grapheme cluster, which callers never split);
    /// U+FFFF, a noncharacter, becomes U+FFFD, which breaks as unknown characters do.
    private static func substitute(_ scalar: UInt32) -> UInt32 {
        switch scalar {
        case 0x1F1E6...0x1F1FF: return 0x4E00
        case 0xFFFF: return 0xFFFD
        default: return scalar
        }
    }

    /// Whether a line may end after each scalar of `scalars`: element i is true when a break
    /// is allowed (or required) between scalar i and scalar i + 1. The last element is always
    /// true (the paragraph ends there).
    static func opportunities(_ scalars: [UInt32]) -> [Bool] {
        guard !scalars.isEmpty else { return [] }
        _ = initialized
        var breaks = [CChar](repeating: CChar(LINEBREAK_NOBREAK), count: scalars.count)
        let safe = scalars.contains(where: { substitute($0) != $0 }) ? scalars.map(substitute) : scalars
        safe.withUnsafeBufferPointer { text in
            breaks.withUnsafeMutableBufferPointer { out in
                set_linebreaks_utf32(text.baseAddress, text.count, nil, out.baseAddress)
            }
        }
        var result = breaks.map { $0 == CChar(LINEBREAK_ALLOWBREAK) || $0 == CChar(LINEBREAK_MUSTBREAK) }
        result[result.count - 1] = true
        return result
    }
}
