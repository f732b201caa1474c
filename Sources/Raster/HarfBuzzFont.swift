// HarfBuzz: a font file opened for shaping, and the shaping of a run of text into positioned
// glyphs (the only file that touches HarfBuzz's objects).
import CHarfBuzz
import Foundation

/// One glyph HarfBuzz placed, in font units (y up, as HarfBuzz gives them).
struct ShapedGlyph: Sendable, Equatable {
    /// Glyph index in the font (0: the font has no glyph, ".notdef").
    var id: UInt32
    /// Index in the paragraph's scalars of the first character this glyph stands for.
    var cluster: Int
    /// Pen advance after the glyph, in font units.
    var advance: Int32
    /// Offset of the glyph from the pen, in font units (y up).
    var offsetX: Int32
    var offsetY: Int32
    /// HarfBuzz's `UNSAFE_TO_BREAK`: cutting the text at this glyph's cluster changes the shaping
    /// on both sides, so each side must be shaped again.
    var unsafeToBreak: Bool
}

/// A font file opened with HarfBuzz's own OpenType functions at the font's units (scale =
/// units per em), so positions are exact and scale linearly to any size: one shaping serves
/// every output scale.
///
/// Immutable after init: HarfBuzz allows shaping with one font from several threads.
final class ShapingFont: @unchecked Sendable {
    /// Font units per em (1000, 2048…).
    let unitsPerEm: Int
    /// Typographic ascender, descender (positive downwards) and line gap, in font units.
    let ascender: Int
    let descender: Int
    let lineGap: Int

    private let blob: OpaquePointer
    private let face: OpaquePointer
    private let font: OpaquePointer

    /// Opens face `source.index` of `source.path`; nil when the file is unreadable or holds no
    /// glyphs (HarfBuzz maps the file; nothing is copied).
    init?(_ source: FaceSource) {
        guard let blob = hb_blob_create_from_file_or_fail(source.path) else { return nil }
        guard let face = hb_face_create(blob, UInt32(source.index & 0xFFFF)) else {
            hb_blob_destroy(blob)
            return nil
        }
        guard hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else {
            hb_face_destroy(face)
            hb_blob_destroy(blob)
            return nil
        }
        // The upper bits of fontconfig's index name a variable font's instance, counting from 1.
        let instance = source.index >> 16
        if instance > 0 { hb_font_set_var_named_instance(font, UInt32(instance - 1)) }
        let upem = Int(hb_face_get_upem(face))
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        hb_font_make_immutable(font)
        var extents = hb_font_extents_t()
        _ = hb_font_get_h_extents(font, &extents)
        self.blob = blob
        self.face = face
        self.font = font
        unitsPerEm = max(upem, 1)
        ascender = Int(extents.ascender)
        descender = Int(-extents.descender)
        lineGap = Int(max(extents.line_gap, 0))
    }

    deinit {
        hb_font_destroy(font)
        hb_face_destroy(face)
        hb_blob_destroy(blob)
    }

    /// Shapes `text[range]` in one direction and script, with the rest of `text` as context (so
    /// Arabic letters join across the edges of the range). Glyphs come in visual order: left
    /// to right, clusters descending for right-to-left text.
    func shape(_ text: [UInt32], range: Range<Int>, rightToLeft: Bool, script: UInt32) -> [ShapedGlyph] {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= text.count,
              text.count <= Int(Int32.max), let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        text.withUnsafeBufferPointer { p in
            hb_buffer_add_utf32(buffer, p.baseAddress, Int32(p.count), UInt32(range.lowerBound), Int32(range.count))
        }
        var flags = HB_BUFFER_FLAG_DEFAULT.rawValue
        if range.lowerBound == 0 { flags |= HB_BUFFER_FLAG_BOT.rawValue }
        if range.upperBound == text.count { flags |= HB_BUFFER_FLAG_EOT.rawValue }
        hb_buffer_set_flags(buffer, hb_buffer_flags_t(flags))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, hb_script_t(script))
        hb_buffer_set_language(buffer, hb_language_get_default())
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let info = infos[i], position = positions[i]
            var infoCopy = info
            let unsafe = scrollkit_hb_glyph_flags(&infoCopy) & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0
            glyphs.append(ShapedGlyph(id: info.codepoint, cluster: Int(info.cluster), advance: position.x_advance,
                                      offsetX: position.x_offset, offsetY: position.y_offset, unsafeToBreak: unsafe))
        }
        return glyphs
    }

    /// The glyph for `scalar` without shaping (0 when the font has none).
    func nominalGlyph(_ scalar: UInt32) -> UInt32 {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 ? glyph : 0
    }

    /// The Unicode script of `scalar` as HarfBuzz's tag ("Latn", "Arab"…, "Zyyy" common,
    /// "Zinh" inherited).
    static func script(of scalar: UInt32) -> UInt32 {
        hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue
    }

    /// HarfBuzz's tags for characters that take the script of their neighbours.
    static let commonScript = HB_SCRIPT_COMMON.rawValue
    static let inheritedScript = HB_SCRIPT_INHERITED.rawValue
    static let unknownScript = HB_SCRIPT_UNKNOWN.rawValue
}
