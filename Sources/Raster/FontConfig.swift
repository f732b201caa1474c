// fontconfig: which installed font files serve a family and weight, best first, and which
// characters each covers (the only file that touches fontconfig's objects).
import CFontconfig
import Foundation
import Synchronization

/// A font file as fontconfig names it: its path and the face index inside it (a collection
/// such as Noto Sans CJK holds several faces; the upper 16 bits name a variable font's instance).
struct FaceSource: Hashable, Sendable {
    /// The font file's path.
    let path: String
    /// Face index in the file (fontconfig's `index`).
    let index: Int
}

/// The fonts fontconfig sorts for one request, best first, trimmed to those that add
/// coverage, with the character set of each.
final class FontCandidates: @unchecked Sendable {
    /// The font files, best first.
    let sources: [FaceSource]
    /// Whether each font draws in colour (fontconfig's `color`: emoji fonts).
    let isColor: [Bool]
    // The sorted set owns the patterns whose character sets `charsets` points into; both are
    // read-only after init, which fontconfig allows from any thread.
    private let set: UnsafeMutablePointer<FcFontSet>?
    private let charsets: [OpaquePointer?]

    fileprivate init(set: UnsafeMutablePointer<FcFontSet>?) {
        self.set = set
        var sources: [FaceSource] = [], charsets: [OpaquePointer?] = [], colors: [Bool] = []
        if let set, let fonts = set.pointee.fonts {
            for i in 0..<Int(set.pointee.nfont) {
                guard let pattern = fonts[i] else { continue }
                var file: UnsafeMutablePointer<FcChar8>?
                guard FcPatternGetString(pattern, "file", 0, &file) == FcResultMatch, let file else { continue }
                var index: Int32 = 0
                if FcPatternGetInteger(pattern, "index", 0, &index) != FcResultMatch { index = 0 }
                var charset: OpaquePointer?
                if FcPatternGetCharSet(pattern, "charset", 0, &charset) != FcResultMatch { charset = nil }
                var color: FcBool = FcFalse
                if FcPatternGetBool(pattern, "color", 0, &color) != FcResultMatch { color = FcFalse }
                sources.append(FaceSource(path: String(cString: file), index: Int(index)))
                charsets.append(charset)
                colors.append(color != FcFalse)
            }
        }
        self.sources = sources
        self.charsets = charsets
        isColor = colors
    }

    deinit { if let set { FcFontSetDestroy(set) } }

    /// Whether font `i` has a glyph for `scalar` (false without a character set).
    func covers(_ i: Int, _ scalar: UInt32) -> Bool {
        guard let charset = charsets[i] else { return false }
        return FcCharSetHasChar(charset, scalar) != FcFalse
    }
}

/// The fontconfig configuration, loaded once per process (the system's fonts.conf).
final class FontConfig: Sendable {
    /// The process's configuration; nil when fontconfig could not load one (no fonts.conf).
    static let shared: FontConfig? = FontConfig()

    // FcConfig is safe to query from several threads, but sorting allocates and caches inside
    // the config: the mutex keeps those calls one at a time.
    private let config: Mutex<OpaquePointer>

    /// No fonts: what a family gets when fontconfig could not load its configuration.
    static let emptyCandidates = FontCandidates(set: nil)

    private init?() {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        self.config = Mutex(config)
    }

    /// The fonts for `family` (a name or a generic family such as "sans-serif", "emoji") at
    /// `weight` (OpenType weight class, 1…1000), best first; `color` asks for colour fonts first.
    func candidates(family: String, weight: Double, color: Bool = false) -> FontCandidates {
        config.withLock { config in
            guard let pattern = FcPatternCreate() else { return FontCandidates(set: nil) }
            defer { FcPatternDestroy(pattern) }
            _ = family.withCString { name in
                name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                    FcPatternAddString(pattern, "family", $0)
                }
            }
            _ = FcPatternAddDouble(pattern, "weight", FcWeightFromOpenTypeDouble(min(max(weight, 1), 1000)))
            if color { _ = FcPatternAddBool(pattern, "color", FcTrue) }
            _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultMatch
            // Trimmed: fonts that add no characters to those before them are left out.
            return FontCandidates(set: FcFontSort(config, pattern, FcTrue, nil, &result))
        }
    }
}
