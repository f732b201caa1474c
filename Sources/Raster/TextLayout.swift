// Text laid out in lines: each paragraph split into runs of one direction, script and font,
// shaped by HarfBuzz, broken at line-break opportunities, cut with an ellipsis where a line
// limit says so, and ordered for display. Positions are in points, so one layout serves
// every output scale.
import Foundation
import ScrollKit

/// How lines sit between the layout's edges (UIKit's `NSTextAlignment`).
public enum TextAlignment: Sendable, Hashable {
    /// Left for left-to-right paragraphs, right for right-to-left ones.
    case natural
    /// Against the left edge.
    case left
    /// Centred.
    case center
    /// Against the right edge.
    case right
}

/// How text that does not fit is wrapped or cut (UIKit's `NSLineBreakMode`). Every mode
/// wraps at word boundaries while lines remain; they differ on the last line allowed.
public enum LineBreakMode: Sendable, Hashable {
    /// Lines end at word boundaries (a word longer than a line is broken between characters);
    /// text beyond the last line is not shown.
    case byWordWrapping
    /// Lines end between any two characters.
    case byCharWrapping
    /// The last line holds the rest of its paragraph and is cut at the edge.
    case byClipping
    /// The last line ends with the end of the text, "…" in place of what comes before.
    case byTruncatingHead
    /// The last line ends with "…" in place of the rest.
    case byTruncatingTail
    /// The last line keeps its start and the text's end, "…" between (file names keep their
    /// extension).
    case byTruncatingMiddle
}

/// Text set in one font, broken into lines at most `maxWidth` points wide.
public struct TextLayout: Sendable {
    /// One line, ready to draw.
    public struct Line: Sendable {
        /// The characters shown, in logical order, with "…" where text was left out.
        public let text: String
        /// Left edge of the line's first glyph advance, points from the layout's left edge
        /// (from the alignment).
        public let x: Double
        /// Top of the line box, points from the layout's top.
        public let top: Double
        /// The baseline, points from the layout's top.
        public let baseline: Double
        /// The line box's height, in points.
        public let height: Double
        /// The sum of the glyph advances, in points.
        public let width: Double
        /// Whether the paragraph the line belongs to runs right to left.
        public let isRightToLeft: Bool
        /// The glyphs, run by run, left to right.
        let runs: [GlyphRun]
    }

    /// Glyphs of one face, positioned along their line.
    struct GlyphRun: Sendable {
        let face: FontFace
        /// Points per em.
        let size: Double
        let glyphs: [PlacedGlyph]
    }

    /// A glyph's position: x from the line's left edge, y below the baseline, in points.
    struct PlacedGlyph: Sendable, Equatable {
        let id: UInt32
        let x: Double
        let y: Double
    }

    /// The font the text is set in (fallback fonts fill in scripts it lacks).
    public let font: Font
    /// The width lines were broken at, in points (infinity: only at newlines).
    public let maxWidth: Double
    /// The lines, top to bottom.
    public let lines: [Line]
    /// Whether text was left out or cut to respect the line limit.
    public let isTruncated: Bool

    /// How many glyphs no installed font has (each drawn as its font's missing-glyph box): 0
    /// when every character found a font.
    public var missingGlyphs: Int {
        lines.reduce(0) { n, line in n + line.runs.reduce(0) { $0 + $1.glyphs.filter { $0.id == 0 }.count } }
    }

    /// The size the lines take: the widest line's advance (at most `maxWidth` unless a line
    /// is clipped) and the sum of the line heights, in points.
    public var size: CGSize {
        CGSize(width: lines.map(\.width).max() ?? 0, height: lines.last.map { $0.top + $0.height } ?? 0)
    }

    /// Lays `text` out in `font`: paragraphs end at newlines, lines wrap to `maxWidth` points
    /// according to `lineBreakMode`, at most `numberOfLines` lines (0: no limit), aligned by
    /// `alignment` within `maxWidth` (within the widest line when `maxWidth` is infinite).
    public init(text: String, font: Font, maxWidth: Double = .infinity, numberOfLines: Int = 0,
                lineBreakMode: LineBreakMode = .byWordWrapping, alignment: TextAlignment = .natural) {
        self.font = font
        let width = maxWidth.isNaN ? .infinity : max(maxWidth, 0)
        self.maxWidth = width
        // No text takes no room (as an empty UILabel); a font without a size shows nothing.
        guard !text.isEmpty, font.size.isFinite, font.size > 0 else {
            lines = []
            isTruncated = !text.isEmpty
            return
        }
        var setter = LineSetter(font: font, maxWidth: width, limit: max(numberOfLines, 0), mode: lineBreakMode)
        let paragraphs = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (k, paragraph) in paragraphs.enumerated() where !setter.isFull {
            setter.set(ShapedParagraph(paragraph, font: font, faces: setter.faces), isLast: k == paragraphs.count - 1)
        }
        isTruncated = setter.truncated
        // Alignment needs the widest line when there is no width to align in.
        let alignWidth = width.isFinite ? width : setter.lines.map(\.width).max() ?? 0
        var top = 0.0
        lines = setter.lines.map { line in
            let x: Double
            switch alignment {
            case .left: x = 0
            case .right: x = alignWidth - line.width
            case .center: x = (alignWidth - line.width) / 2
            case .natural: x = line.isRightToLeft ? alignWidth - line.width : 0
            }
            defer { top += line.height }
            return Line(text: line.text, x: x, top: top, baseline: top + line.ascent, height: line.height,
                        width: line.width, isRightToLeft: line.isRightToLeft, runs: line.runs)
        }
    }
}

/// One paragraph itemised and shaped: its scalars, bidi levels, break opportunities, runs of
/// one level, script and face with their glyphs, and each scalar's share of the advances.
struct ShapedParagraph {
    /// A run of scalars shaped together.
    struct Run {
        let range: Range<Int>
        let face: FontFace
        let rightToLeft: Bool
        let script: UInt32
        let glyphs: [ShapedGlyph]
        /// Points per font unit at the layout's size.
        let scale: Double
    }

    let scalars: [UInt32]
    let bidi: BidiParagraph
    /// Element i: a line may end after scalar i (UAX #14).
    let breaks: [Bool]
    /// Element i: a grapheme cluster ends after scalar i.
    let clusterEnds: [Bool]
    let runs: [Run]
    /// The run holding each scalar.
    let runOf: [Int]
    /// Element i: the advances of scalars 0..<i, in points.
    let prefix: [Double]
    /// Element i: scalar i is whitespace (trimmed at line ends).
    let spaces: [Bool]

    init(_ text: Substring, font: Font, faces: FontFaces) {
        let scalars = text.unicodeScalars.map { Self.shown($0.value) }
        self.scalars = scalars
        bidi = BidiParagraph(scalars)
        breaks = LineBreaks.opportunities(scalars)
        let n = scalars.count
        spaces = scalars.map(Self.isWhitespace)
        var scripts = scalars.map { ShapingFont.script(of: $0) }
        func isNeutral(_ s: UInt32) -> Bool {
            s == ShapingFont.commonScript || s == ShapingFont.inheritedScript || s == ShapingFont.unknownScript
        }
        // Grapheme clusters (Swift's characters) and the face for each.
        var clusterEnds = [Bool](repeating: false, count: n)
        var faceOf = [FontFace?](repeating: nil, count: n)
        var at = 0
        var previous: FontFace?
        for character in text {
            let count = character.unicodeScalars.count
            let face = faces.face(for: scalars[at..<(at + count)], isCommon: scripts[at..<(at + count)].allSatisfy(isNeutral),
                                  previous: previous)
            for i in at..<(at + count) { faceOf[i] = face }
            previous = face
            at += count
            clusterEnds[at - 1] = true
        }
        // Scripts: characters common to scripts (spaces, digits, punctuation) and marks take
        // the script of the text before them, or after them at the start.
        if let first = scripts.firstIndex(where: { !isNeutral($0) }) {
            var current = scripts[first]
            for i in 0..<n {
                if isNeutral(scripts[i]) { scripts[i] = current } else { current = scripts[i] }
            }
        }
        // Runs: split wherever the level, the script or the face changes.
        var runs: [Run] = []
        var runOf = [Int](repeating: 0, count: n)
        var advances = [Double](repeating: 0, count: n)
        var start = 0
        let levels = bidi.levels
        for i in stride(from: 1, through: n, by: 1) where i == n || levels[i] != levels[start] || scripts[i] != scripts[start]
            || faceOf[i] !== faceOf[start] {
            if let face = faceOf[start] {
                let scale = font.size / Double(face.shaping.unitsPerEm)
                let rtl = levels[start] & 1 == 1
                let glyphs = face.shaping.shape(scalars, range: start..<i, rightToLeft: rtl, script: scripts[start])
                for g in glyphs where g.cluster >= start && g.cluster < i {
                    advances[g.cluster] += Double(g.advance) * scale
                }
                for k in start..<i { runOf[k] = runs.count }
                runs.append(Run(range: start..<i, face: face, rightToLeft: rtl, script: scripts[start], glyphs: glyphs,
                                scale: scale))
            } else {
                for k in start..<i { runOf[k] = -1 }
            }
            start = i
        }
        // A line may end only where HarfBuzz's clusters end too: a glyph standing for
        // characters on both sides of a cut (marks after a control character, which Swift
        // counts as clusters of their own) would be measured on one side and drawn on the other.
        for run in runs {
            var starts = Set(run.glyphs.map(\.cluster))
            starts.insert(run.range.lowerBound)
            for i in run.range.dropFirst() where !starts.contains(i) { clusterEnds[i - 1] = false }
        }
        self.clusterEnds = clusterEnds
        self.runs = runs
        self.runOf = runOf
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + advances[i] }
        self.prefix = prefix
    }

    var count: Int { scalars.count }

    /// What a character is shown as: a tab as a space (labels have no tab stops), other
    /// control characters (C0, DEL, C1; a file name may hold them) as U+FFFD, so they show
    /// and measure like any character instead of as whatever box a font has for them.
    static func shown(_ v: UInt32) -> UInt32 {
        switch v {
        case 0x09: return 0x20
        case 0x00...0x1F, 0x7F...0x9F: return 0xFFFD
        default: return v
        }
    }

    /// Unicode's White_Space characters (PropList.txt: a fixed set of 25, unchanged since
    /// Unicode 4.1), without a property lookup per character.
    static func isWhitespace(_ v: UInt32) -> Bool {
        switch v {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// The advance of scalars `a..<b`, in points.
    func width(_ a: Int, _ b: Int) -> Double { b > a ? prefix[b] - prefix[a] : 0 }

    func isSpace(_ i: Int) -> Bool { spaces[i] }

    /// `end` moved back over trailing whitespace, not before `start`.
    func trimmedEnd(_ start: Int, _ end: Int) -> Int {
        var e = end
        while e > start && isSpace(e - 1) { e -= 1 }
        return e
    }

    /// `start` moved forward over leading whitespace, not past `end`.
    func trimmedStart(_ start: Int, _ end: Int) -> Int {
        var s = start
        while s < end && isSpace(s) { s += 1 }
        return s
    }

    /// The end of the grapheme cluster that starts at or contains scalar `i`.
    func clusterEnd(after i: Int) -> Int {
        var e = i
        while e < count && !clusterEnds[e] { e += 1 }
        return min(e + 1, count)
    }

    /// The text of scalars `range`.
    func string(_ range: Range<Int>) -> String {
        var s = String.UnicodeScalarView()
        for v in scalars[range] { if let u = Unicode.Scalar(v) { s.append(u) } }
        return String(s)
    }

    /// The cluster boundary before `end` (exclusive), not before `start`.
    func clusterStart(before end: Int, from start: Int) -> Int {
        var e = end - 1
        while e > start && !clusterEnds[e - 1] { e -= 1 }
        return max(e, start)
    }

    /// The advance of scalars `a..<b` as a line shows them, in points: the glyphs of
    /// `glyphs(a..<b)`, shaped again where the cuts are unsafe (Arabic letters take their
    /// initial or final forms at a cut).
    func shownWidth(_ a: Int, _ b: Int) -> Double {
        glyphs(a..<b).reduce(0) { sum, piece in sum + Double(piece.glyphs.reduce(0) { $0 + Int($1.advance) }) * piece.run.scale }
    }

    /// The glyphs showing scalars `range`, left to right: taken from the paragraph's shaping
    /// where HarfBuzz says the cut is safe, shaped again (with the rest as context) where not.
    func glyphs(_ range: Range<Int>) -> [(run: Run, glyphs: [ShapedGlyph])] {
        guard !range.isEmpty else { return [] }
        // Runs in logical order, then in the order the line shows them.
        var pieces: [(run: Run, glyphs: [ShapedGlyph])] = []
        let firstRun = runOf[range.lowerBound], lastRun = runOf[range.upperBound - 1]
        guard firstRun >= 0, lastRun >= 0 else { return [] }
        for r in firstRun...lastRun {
            let run = runs[r]
            let a = max(run.range.lowerBound, range.lowerBound), b = min(run.range.upperBound, range.upperBound)
            guard a < b else { continue }
            if a == run.range.lowerBound && b == run.range.upperBound {
                pieces.append((run, run.glyphs))
                continue
            }
            let unsafeCut = run.glyphs.contains { g in
                (g.cluster == a && a != run.range.lowerBound || g.cluster == b && b != run.range.upperBound) && g.unsafeToBreak
            }
            if unsafeCut {
                pieces.append((run, run.face.shaping.shape(scalars, range: a..<b, rightToLeft: run.rightToLeft,
                                                           script: run.script)))
            } else {
                pieces.append((run, run.glyphs.filter { $0.cluster >= a && $0.cluster < b }))
            }
        }
        return pieces
    }
}

/// Breaks shaped paragraphs into lines, one after another, up to a line limit.
struct LineSetter {
    /// A line as set, before alignment.
    struct SetLine {
        var text: String
        var width: Double
        var ascent: Double
        var height: Double
        var isRightToLeft: Bool
        var runs: [TextLayout.GlyphRun]
    }

    /// What a line shows: stretches of the paragraph and the ellipsis, in logical order.
    enum Piece {
        case text(Range<Int>)
        case ellipsis
    }

    let font: Font
    let faces: FontFaces
    let maxWidth: Double
    let limit: Int
    let mode: LineBreakMode
    private(set) var lines: [SetLine] = []
    private(set) var truncated = false
    /// The face and metrics of the first font: every line is at least this tall.
    private let primary: (ascent: Double, descent: Double, gap: Double)

    init(font: Font, maxWidth: Double, limit: Int, mode: LineBreakMode) {
        self.font = font
        faces = FontFaces.faces(for: font)
        self.maxWidth = maxWidth
        self.limit = limit
        self.mode = mode
        if let face = faces.primary {
            let m = face.lineMetrics(size: font.size)
            primary = (m.ascender, m.descender, m.lineGap)
        } else {
            // No font: lines keep a plausible height (1.2 em, CSS's `normal`) so views still lay out.
            primary = (font.size * 0.95, font.size * 0.25, 0)
        }
    }

    /// Whether the line limit is reached.
    var isFull: Bool { limit > 0 && lines.count >= limit }

    /// Sets the lines of `paragraph`; `isLast` says no paragraph follows.
    mutating func set(_ p: ShapedParagraph, isLast: Bool) {
        let n = p.count
        if n == 0 {
            append([], of: p)
            return
        }
        var start = 0
        while start < n && !isFull {
            let end = lineEnd(p, from: start)
            let isLastAllowed = limit > 0 && lines.count == limit - 1
            if isLastAllowed && (end < n || !isLast) {
                truncated = true
                append(lastLine(p, from: start, wrappedEnd: end), of: p)
                return
            }
            append([.text(start..<p.trimmedEnd(start, end))], of: p)
            start = end
        }
    }

    /// Where the line starting at `start` ends (exclusive): after the last break opportunity
    /// (any cluster end for character wrapping) whose text, less trailing spaces, fits; when
    /// not even the first fits, after as many whole clusters as fit (at least one).
    private func lineEnd(_ p: ShapedParagraph, from start: Int) -> Int {
        let n = p.count
        guard maxWidth.isFinite else { return n }
        var fitting: [Int] = []
        var e = start + 1
        while e <= n {
            // Never inside a grapheme cluster, whatever the break tables say (a flag, a ZWJ emoji).
            let allowed = p.clusterEnds[e - 1] && (mode == .byCharWrapping || p.breaks[e - 1])
            if allowed {
                if p.width(start, p.trimmedEnd(start, e)) <= maxWidth + Self.slack { fitting.append(e) } else { break }
            }
            e += 1
        }
        // The sums of the paragraph's advances are exact where the cuts are safe; where they are
        // not, the line as shown decides.
        while let best = fitting.last {
            if p.shownWidth(start, p.trimmedEnd(start, best)) <= maxWidth + Self.slack { return best }
            fitting.removeLast()
        }
        // A word wider than the line: break it between clusters.
        var end = p.clusterEnd(after: start)
        while end < n {
            let next = p.clusterEnd(after: end)
            guard p.width(start, p.trimmedEnd(start, next)) <= maxWidth + Self.slack,
                  p.shownWidth(start, p.trimmedEnd(start, next)) <= maxWidth + Self.slack else { break }
            end = next
        }
        // Spaces after the cut end this line rather than start the next.
        while end < n && p.isSpace(end) { end += 1 }
        return end
    }

    /// 1/1000 pt: rounding in the sums of advances must not push a fitting line over.
    private static let slack = 0.001

    /// The last line the limit allows, when more text follows: the wrapped line as it is for
    /// the wrapping modes, the rest of the paragraph for clipping, an ellipsis for truncation.
    private func lastLine(_ p: ShapedParagraph, from start: Int, wrappedEnd: Int) -> [Piece] {
        let n = p.trimmedEnd(start, p.count)
        let room = maxWidth - ellipsisWidth(rightToLeft: p.bidi.isRightToLeft)
        switch mode {
        case .byWordWrapping, .byCharWrapping:
            return [.text(start..<p.trimmedEnd(start, wrappedEnd))]
        case .byClipping:
            return [.text(start..<n)]
        case .byTruncatingTail:
            let e = longestFit(p, from: start, upTo: n, width: room)
            return [.text(start..<p.trimmedEnd(start, e)), .ellipsis]
        case .byTruncatingHead:
            let s = shortestFit(p, from: start, upTo: n, width: room)
            return [.ellipsis, .text(p.trimmedStart(s, n)..<n)]
        case .byTruncatingMiddle:
            let e = longestFit(p, from: start, upTo: n, width: room / 2)
            let used = p.shownWidth(start, p.trimmedEnd(start, e))
            let s = shortestFit(p, from: e, upTo: n, width: room - used)
            return [.text(start..<p.trimmedEnd(start, e)), .ellipsis, .text(p.trimmedStart(s, n)..<n)]
        }
    }

    /// The furthest cluster end `e` in `start...end` whose text from `start` fits `width`.
    private func longestFit(_ p: ShapedParagraph, from start: Int, upTo end: Int, width: Double) -> Int {
        var e = start
        while e < end {
            let next = p.clusterEnd(after: e)
            guard next <= end, p.width(start, p.trimmedEnd(start, next)) <= width + Self.slack else { break }
            e = next
        }
        while e > start && p.shownWidth(start, p.trimmedEnd(start, e)) > width + Self.slack {
            e = p.clusterStart(before: e, from: start)
        }
        return e
    }

    /// The earliest cluster start `s` in `start...end` whose text up to `end` fits `width`.
    private func shortestFit(_ p: ShapedParagraph, from start: Int, upTo end: Int, width: Double) -> Int {
        var s = start
        while s < end && p.width(p.trimmedStart(s, end), end) > width + Self.slack { s = p.clusterEnd(after: s) }
        while s < end && p.shownWidth(p.trimmedStart(s, end), end) > width + Self.slack { s = p.clusterEnd(after: s) }
        return min(s, end)
    }

    /// The ellipsis, shaped in the paragraph's direction with the face that has it.
    private func ellipsis(rightToLeft: Bool) -> (run: TextLayout.GlyphRun, width: Double)? {
        let text: [UInt32] = [0x2026]
        guard let face = faces.face(for: text[...]) else { return nil }
        var glyphs = face.shaping.shape(text, range: 0..<1, rightToLeft: rightToLeft, script: ShapingFont.commonScript)
        if glyphs.allSatisfy({ $0.id == 0 }) {
            // No "…" in any font: three full stops.
            let dots: [UInt32] = [0x2E, 0x2E, 0x2E]
            glyphs = face.shaping.shape(dots, range: 0..<3, rightToLeft: false, script: ShapingFont.commonScript)
        }
        let scale = font.size / Double(face.shaping.unitsPerEm)
        var x = 0.0
        var placed: [TextLayout.PlacedGlyph] = []
        for g in glyphs {
            placed.append(TextLayout.PlacedGlyph(id: g.id, x: x + Double(g.offsetX) * scale, y: -Double(g.offsetY) * scale))
            x += Double(g.advance) * scale
        }
        return (TextLayout.GlyphRun(face: face, size: font.size, glyphs: placed), x)
    }

    private func ellipsisWidth(rightToLeft: Bool) -> Double { ellipsis(rightToLeft: rightToLeft)?.width ?? 0 }

    /// Places `pieces` of `p` as one line: each stretch in its visual order (UAX #9 rules L1
    /// and L2), the stretches and the ellipsis in the paragraph's direction.
    private mutating func append(_ pieces: [Piece], of p: ShapedParagraph) {
        let rtl = p.bidi.isRightToLeft
        var ascent = primary.ascent, descent = primary.descent
        var runs: [TextLayout.GlyphRun] = []
        var text = ""
        var x = 0.0
        for piece in rtl ? pieces.reversed() : pieces {
            switch piece {
            case .ellipsis:
                guard let e = ellipsis(rightToLeft: rtl) else { continue }
                runs.append(TextLayout.GlyphRun(face: e.run.face, size: e.run.size,
                                                glyphs: e.run.glyphs.map { .init(id: $0.id, x: $0.x + x, y: $0.y) }))
                x += e.width
            case .text(let range):
                guard !range.isEmpty else { continue }
                for segment in visualSegments(p, range) {
                    let metrics = segment.run.face.lineMetrics(size: font.size)
                    ascent = max(ascent, metrics.ascender)
                    descent = max(descent, metrics.descender)
                    let k = segment.run.scale
                    var placed: [TextLayout.PlacedGlyph] = []
                    placed.reserveCapacity(segment.glyphs.count)
                    for g in segment.glyphs {
                        placed.append(.init(id: g.id, x: x + Double(g.offsetX) * k, y: -Double(g.offsetY) * k))
                        x += Double(g.advance) * k
                    }
                    runs.append(TextLayout.GlyphRun(face: segment.run.face, size: font.size, glyphs: placed))
                }
            }
        }
        for piece in pieces {
            switch piece {
            case .ellipsis: text += "…"
            case .text(let range): text += p.string(range)
            }
        }
        lines.append(SetLine(text: text, width: x, ascent: ascent, height: ascent + descent + primary.gap,
                             isRightToLeft: rtl, runs: runs))
    }

    /// The runs of `range` in display order, each with its glyphs: FriBiDi gives the visual
    /// order of the characters; a run's characters stay together in it.
    private func visualSegments(_ p: ShapedParagraph, _ range: Range<Int>) -> [(run: ShapedParagraph.Run, glyphs: [ShapedGlyph])] {
        let logical = p.glyphs(range)
        guard logical.count > 1 else { return logical }
        let order = p.bidi.visualOrder(range)
        var firstShown = [Int](repeating: Int.max, count: p.runs.count)
        for (position, index) in order.enumerated() {
            let run = p.runOf[index]
            if run >= 0 && firstShown[run] == Int.max { firstShown[run] = position }
        }
        return logical.sorted { firstShown[p.runOf[$0.run.range.lowerBound]] < firstShown[p.runOf[$1.run.range.lowerBound]] }
    }
}
