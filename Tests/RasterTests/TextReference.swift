// The reference the text tests compare against: one font found by fontconfig's own match,
// shaped by HarfBuzz with its own guesses of direction and script, and drawn glyph by glyph
// from FreeType bitmaps, apart from the text layer (the only raw pointers of the tests).
import CFontconfig
import CFreeType
import CHarfBuzz
import Foundation

/// A glyph as HarfBuzz shaped it, in font units.
struct ReferenceGlyph {
    var id: UInt32
    var cluster: Int
    var advance: Int32
    var offsetX: Int32
    var offsetY: Int32
}

/// One font file opened directly with fontconfig, FreeType and HarfBuzz.
final class ReferenceFont {
    /// The file fontconfig matched.
    let path: String
    let unitsPerEm: Double
    private var library: FT_Library?
    private var face: FT_Face?
    private let blob: OpaquePointer
    private let hbFace: OpaquePointer
    private let hbFont: OpaquePointer

    /// The font fontconfig matches best for `family`; nil when none can be opened.
    init?(family: String) {
        guard FcInit() != 0, let pattern = FcNameParse(family) else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file else { return nil }
        _ = FcPatternGetInteger(match, "index", 0, &index)
        path = String(cString: file)
        guard FT_Init_FreeType(&library) == 0, FT_New_Face(library, path, FT_Long(index), &face) == 0,
              let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
        self.blob = blob
        hbFace = hb_face_create(blob, UInt32(index))
        hbFont = hb_font_create(hbFace)
        unitsPerEm = Double(hb_face_get_upem(hbFace))
        hb_font_set_scale(hbFont, Int32(unitsPerEm), Int32(unitsPerEm))
    }

    deinit {
        hb_font_destroy(hbFont)
        hb_face_destroy(hbFace)
        hb_blob_destroy(blob)
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// HarfBuzz's glyphs for `text`, direction and script guessed by HarfBuzz from the text.
    func shape(_ text: String) -> [ReferenceGlyph] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let scalars = text.unicodeScalars.map(\.value)
        hb_buffer_add_utf32(buffer, scalars, Int32(scalars.count), 0, Int32(scalars.count))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(hbFont, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        return (0..<Int(count)).map { i in
            ReferenceGlyph(id: infos[i].codepoint, cluster: Int(infos[i].cluster), advance: positions[i].x_advance,
                           offsetX: positions[i].x_offset, offsetY: positions[i].y_offset)
        }
    }

    /// The glyph HarfBuzz gives `scalar` on its own (its isolated or nominal form).
    func nominalGlyph(_ scalar: UInt32) -> UInt32 {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar, &glyph) != 0 ? glyph : 0
    }

    /// Coverage (0…255) of `text` drawn at `pixelSize` pixels per em into a `width`×`height`
    /// image, the pen starting at x = `left` (pixels) on the baseline row `baseline`: each
    /// glyph rasterised by FreeType at its quarter-pixel phase with light hinting, blended
    /// over the glyphs before it.
    func render(_ text: String, pixelSize: Double, left: Double, baseline: Int, width: Int, height: Int) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: width * height)
        let k = pixelSize / unitsPerEm
        var pen = 0.0
        FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72)
        for g in shape(text) {
            // The pen to the nearest quarter pixel (halves up): a whole pixel and a phase.
            let x = left + (pen + Double(g.offsetX)) * k
            let quarters = (x * 4 + 0.5).rounded(.down)
            let px = (quarters / 4).rounded(.down), phase = quarters - 4 * px
            let y = baseline + Int((-Double(g.offsetY) * k + 0.5).rounded(.down))
            pen += Double(g.advance)
            guard FT_Load_Glyph(face, g.id, Int32(FT_LOAD_NO_BITMAP) | scrollkit_ft_load_target_light()) == 0,
                  let slot = face!.pointee.glyph else { continue }
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos(phase * 16), 0)
            guard FT_Render_Glyph(slot, FT_RENDER_MODE_LIGHT) == 0 else { continue }
            let bitmap = slot.pointee.bitmap
            guard let buffer = bitmap.buffer else { continue }
            let x0 = Int(px) + Int(slot.pointee.bitmap_left), y0 = y - Int(slot.pointee.bitmap_top)
            for row in 0..<Int(bitmap.rows) {
                for col in 0..<Int(bitmap.width) {
                    let ix = x0 + col, iy = y0 + row
                    guard ix >= 0, ix < width, iy >= 0, iy < height else { continue }
                    let src = Int(buffer[row * Int(bitmap.pitch) + col]), dst = Int(image[iy * width + ix])
                    // Source over, coverage only: a + b(255 − a)/255, rounded.
                    image[iy * width + ix] = UInt8(src + (dst * (255 - src) + 127) / 255)
                }
            }
        }
        return image
    }
}
