// FriBiDi: the Unicode bidirectional algorithm (UAX #9), which gives each character of a
// paragraph its embedding level and each line its visual order (the only file that touches
// FriBiDi).
import CFriBiDi
import Foundation

/// The bidirectional structure of one paragraph.
struct BidiParagraph: Sendable {
    /// Embedding level per scalar: even left to right, odd right to left.
    let levels: [UInt8]
    /// Whether the paragraph runs right to left (its base level is 1).
    let isRightToLeft: Bool
    /// FriBiDi's character types, which reordering a line needs again.
    private let types: [FriBidiCharType]

    /// Resolves `scalars` (one paragraph, no paragraph separators inside) with its direction
    /// taken from its first strong character (left to right when it has none), or forced.
    init(_ scalars: [UInt32], forcedRightToLeft: Bool? = nil) {
        let n = scalars.count
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        var direction: FriBidiParType = switch forcedRightToLeft {
        case .some(true): scrollkit_fribidi_par_rtl()
        case .some(false): scrollkit_fribidi_par_ltr()
        case nil: scrollkit_fribidi_par_on()
        }
        var resolved = false
        if n > 0, n <= Int(Int32.max) {
            scalars.withUnsafeBufferPointer { text in
                fribidi_get_bidi_types(text.baseAddress, FriBidiStrIndex(n), &types)
                fribidi_get_bracket_types(text.baseAddress, FriBidiStrIndex(n), types, &brackets)
            }
            resolved = fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &direction, &levels) != 0
        }
        if !resolved {
            // Out of memory inside FriBiDi, or nothing to resolve: every character at the base level.
            let base: FriBidiLevel = forcedRightToLeft == true ? 1 : 0
            levels = [FriBidiLevel](repeating: base, count: n)
            direction = base == 1 ? scrollkit_fribidi_par_rtl() : scrollkit_fribidi_par_ltr()
        }
        self.types = types
        self.levels = levels.map { UInt8(bitPattern: $0) }
        isRightToLeft = direction == scrollkit_fribidi_par_rtl()
    }

    /// The visual order of scalars `range` laid out as one line: element k is the index (in the
    /// paragraph) of the scalar shown k-th from the left. Trailing whitespace takes the
    /// paragraph's direction (rule L1), then levels reverse in turn (rule L2).
    func visualOrder(_ range: Range<Int>) -> [Int] {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= levels.count else { return [] }
        var map = (0..<levels.count).map { FriBidiStrIndex($0) }
        var lineLevels = levels.map { FriBidiLevel(bitPattern: $0) }
        let base = isRightToLeft ? scrollkit_fribidi_par_rtl() : scrollkit_fribidi_par_ltr()
        let ok = fribidi_reorder_line(0, types, FriBidiStrIndex(range.count), FriBidiStrIndex(range.lowerBound), base,
                                      &lineLevels, nil, &map) != 0
        return ok ? map[range].map { Int($0) } : Array(range)
    }
}
