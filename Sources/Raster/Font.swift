// Fonts as views ask for them (family, size, weight), and the font files that serve them:
// fontconfig's candidates, opened on first use, chosen per character cluster so that text in
// any script finds a font that has it.
import Foundation
import Synchronization

/// A font: a family, a size in points and a weight (UIKit's `UIFont`).
public struct Font: Hashable, Sendable {
    /// A family name ("Noto Sans", "DejaVu Serif") or a generic family fontconfig resolves
    /// ("sans-serif", "serif", "monospace").
    public var family: String
    /// The em size in points: at output scale s, glyphs are rasterised at `size × s` pixels
    /// per em.
    public var size: Double
    /// How heavy the strokes are.
    public var weight: Weight

    /// A font of `family` at `size` points and `weight`.
    public init(family: String, size: Double, weight: Weight = .regular) {
        self.family = family
        self.size = size
        self.weight = weight
    }

    /// The generic family the system fonts come from: fontconfig's "sans-serif".
    public static let systemFamily = "sans-serif"

    /// The system's sans-serif font at `size` points and `weight`.
    public static func systemFont(ofSize size: Double, weight: Weight = .regular) -> Font {
        Font(family: systemFamily, size: size, weight: weight)
    }

    /// The system font in bold at `size` points.
    public static func boldSystemFont(ofSize size: Double) -> Font {
        systemFont(ofSize: size, weight: .bold)
    }

    /// This font at another size, in points.
    public func withSize(_ size: Double) -> Font {
        Font(family: family, size: size, weight: weight)
    }

    /// 17 pt: UIKit's default label size.
    public static let labelFontSize = 17.0

    /// Distance from the baseline up to the top of the tallest letters of the first font
    /// serving this one, in points (0 when no font is installed).
    public var ascender: Double { metrics.ascender }
    /// Distance from the baseline down to the bottom of the descenders, in points: positive,
    /// unlike UIKit's `UIFont.descender`, so a line's extent is `ascender + descender`.
    public var descender: Double { metrics.descender }
    /// The distance between the baselines of two lines set in this font, in points.
    public var lineHeight: Double { metrics.ascender + metrics.descender + metrics.lineGap }

    private var metrics: (ascender: Double, descender: Double, lineGap: Double) {
        guard let face = FontFaces.faces(for: self).primary else { return (0, 0, 0) }
        return face.lineMetrics(size: size)
    }

    /// A font weight on the OpenType scale (`usWeightClass`, 1…1000; regular 400, bold 700).
    public struct Weight: Hashable, Sendable, Comparable {
        /// The OpenType weight class.
        public var rawValue: Double

        /// A weight of `rawValue` on the OpenType scale (1…1000).
        public init(_ rawValue: Double) { self.rawValue = rawValue }

        public static func < (a: Weight, b: Weight) -> Bool { a.rawValue < b.rawValue }

        /// 100.
        public static let ultraLight = Weight(100)
        /// 200.
        public static let thin = Weight(200)
        /// 300.
        public static let light = Weight(300)
        /// 400.
        public static let regular = Weight(400)
        /// 500.
        public static let medium = Weight(500)
        /// 600.
        public static let semibold = Weight(600)
        /// 700.
        public static let bold = Weight(700)
        /// 800.
        public static let heavy = Weight(800)
        /// 900.
        public static let black = Weight(900)
    }
}

/// One font file opened for shaping, shared by every font that uses it; its id keys the
/// glyph cache.
final class FontFace: Sendable {
    /// A process-wide number for the face, from 0.
    let id: Int
    /// Where fontconfig found it.
    let source: FaceSource
    /// HarfBuzz's view of the file.
    let shaping: ShapingFont
    /// Whether it draws in colour (emoji): its glyphs ignore the text colour.
    let isColor: Bool

    init(id: Int, source: FaceSource, shaping: ShapingFont, isColor: Bool) {
        self.id = id
        self.source = source
        self.shaping = shaping
        self.isColor = isColor
    }

    /// Ascender, descender (positive) and line gap at `size` points, in points.
    func lineMetrics(size: Double) -> (ascender: Double, descender: Double, lineGap: Double) {
        let k = size / Double(shaping.unitsPerEm)
        return (Double(shaping.ascender) * k, Double(shaping.descender) * k, Double(shaping.lineGap) * k)
    }
}

extension Font {
    /// Loads fontconfig's configuration and opens the faces of `fonts` now, on the calling
    /// thread, so that the first text drawn with them does not: fontconfig parses its 40-odd
    /// configuration files on first use, which held the frame loop's thread for 22–55 ms in the
    /// gallery's first page change (the frame showing the page overlay, under headless sway).
    /// Safe on any thread; what it makes is kept for the process, as drawing would keep it.
    public static func prepare(_ fonts: [Font]) {
        for font in fonts { _ = FontFaces.faces(for: font).primary }
    }
}

/// The faces serving one family and weight: fontconfig's sorted candidates, opened as needed.
final class FontFaces: Sendable {
    private let candidates: FontCandidates
    private let emoji: FontCandidates?
    /// Candidates opened so far: family candidate i under i, emoji candidate i under -1 - i.
    private let opened = Mutex<[Int: FontFace?]>([:])

    /// The best candidate that opens, and its index: most characters are found there.
    private let first: (face: FontFace, index: Int)?

    private init(candidates: FontCandidates, emoji: FontCandidates?) {
        self.candidates = candidates
        self.emoji = emoji
        first = candidates.sources.indices.lazy.compactMap { i in
            Self.face(candidates.sources[i], isColor: candidates.isColor[i]).map { (face: $0, index: i) }
        }.first
    }

    /// Faces by family and weight, made once per process.
    private static let byFamily = Mutex<[String: FontFaces]>([:])
    /// Every face opened, by file: one HarfBuzz font and one glyph-cache id per file.
    private static let registry = Mutex<(faces: [FaceSource: FontFace?], nextID: Int)>(([:], 0))
    /// Colour fonts first, for clusters shown as emoji.
    private static let emojiCandidates: FontCandidates? = FontConfig.shared?.candidates(family: "emoji", weight: 400,
                                                                                          color: true)
    /// Said once on stderr when no font can be found at all.
    private static let reportedMissingFonts = Mutex(false)

    /// The faces for `font`'s family and weight.
    static func faces(for font: Font) -> FontFaces {
        let key = "\(font.family)\u{0}\(font.weight.rawValue)"
        if let known = byFamily.withLock({ $0[key] }) { return known }
        let candidates = FontConfig.shared?.candidates(family: font.family, weight: font.weight.rawValue)
        let faces = FontFaces(candidates: candidates ?? FontConfig.emptyCandidates, emoji: emojiCandidates)
        if faces.primary == nil {
            let first = reportedMissingFonts.withLock { reported in
                defer { reported = true }
                return !reported
            }
            if first {
                FileHandle.standardError.write(Data(
                    "text: fontconfig found no usable font for \"\(font.family)\" (install fonts-dejavu-core): text is not drawn\n".utf8))
            }
        }
        return byFamily.withLock { table in
            if let known = table[key] { return known }
            table[key] = faces
            return faces
        }
    }

    /// The face of `source`, opened once per process; nil when HarfBuzz cannot read it.
    static func face(_ source: FaceSource, isColor: Bool) -> FontFace? {
        if let known = registry.withLock({ $0.faces[source] }) { return known }
        // Opening maps the file: done outside the lock, the first one stored wins.
        let shaping = ShapingFont(source)
        return registry.withLock { state in
            if let known = state.faces[source] { return known }
            let face = shaping.map { FontFace(id: state.nextID, source: source, shaping: $0, isColor: isColor) }
            if face != nil { state.nextID += 1 }
            state.faces[source] = face
            return face
        }
    }

    /// Candidate `i` of the emoji list or of the family's, opened once.
    private func open(_ i: Int, emoji isEmoji: Bool) -> FontFace? {
        guard let list = isEmoji ? emoji : candidates else { return nil }
        let key = isEmoji ? -1 - i : i
        if let known = opened.withLock({ $0[key] }) { return known }
        let face = Self.face(list.sources[i], isColor: list.isColor[i])
        opened.withLock { $0[key] = face }
        return face
    }

    /// The best face that opens: the one used for line metrics and the ellipsis.
    var primary: FontFace? { first?.face }

    /// Scalars a font need not have for a cluster to show: joiners and variation selectors
    /// (shaping consumes them).
    private static func isIgnorable(_ s: UInt32) -> Bool {
        s == 0x200C || s == 0x200D || (0xFE00...0xFE0F).contains(s) || (0xE0100...0xE01EF).contains(s)
    }

    /// Whether a cluster is shown as emoji: an emoji-presentation base, or any base followed by
    /// VS16 (U+FE0F), unless VS15 (U+FE0E) asks for text.
    private static func wantsEmoji(_ cluster: ArraySlice<UInt32>) -> Bool {
        // Characters shown as emoji by default lie in these blocks (emoji-data.txt,
        // Emoji_Presentation=Yes): most text, CJK included, never asks for the property.
        func mayBeEmoji(_ v: UInt32) -> Bool {
            v >= 0x1F000 || (0x231A...0x2B55).contains(v) || v == 0x3030 || v == 0x303D || v == 0x3297 || v == 0x3299
                || v == 0xFE0F
        }
        guard cluster.contains(where: mayBeEmoji) else { return false }
        if cluster.contains(0xFE0E) { return false }
        if cluster.contains(0xFE0F) { return true }
        guard let first = cluster.first, let scalar = Unicode.Scalar(first) else { return false }
        return scalar.properties.isEmojiPresentation
    }

    /// The face to draw `cluster` (one grapheme cluster's scalars) with: the first candidate
    /// that has all of its characters (colour fonts first for emoji), else the first that has
    /// its base character, else the primary face (which shows its missing-glyph box).
    ///
    /// Characters common to all scripts (`isCommon`: spaces, digits, punctuation) stay in
    /// `previous`, the face of the cluster before, when it has them: a space between Arabic
    /// or Japanese words keeps that font's width, and the run, with its shaping context, goes on.
    func face(for cluster: ArraySlice<UInt32>, isCommon: Bool = false, previous: FontFace? = nil) -> FontFace? {
        func coversAll(_ list: FontCandidates, _ i: Int) -> Bool {
            cluster.allSatisfy { Self.isIgnorable($0) || list.covers(i, $0) }
        }
        if isCommon, let previous, !previous.isColor,
           cluster.allSatisfy({ Self.isIgnorable($0) || previous.shaping.nominalGlyph($0) != 0 }) {
            return previous
        }
        let emojiWanted = Self.wantsEmoji(cluster)
        if !emojiWanted, let first, coversAll(candidates, first.index) { return first.face }
        if emojiWanted, let emoji {
            for i in emoji.sources.indices where emoji.isColor[i] && coversAll(emoji, i) {
                if let face = open(i, emoji: true) { return face }
            }
        }
        for i in candidates.sources.indices where coversAll(candidates, i) {
            if let face = open(i, emoji: false) { return face }
        }
        if let base = cluster.first(where: { !Self.isIgnorable($0) }) {
            for i in candidates.sources.indices where candidates.covers(i, base) {
                if let face = open(i, emoji: false) { return face }
            }
        }
        return primary
    }
}
