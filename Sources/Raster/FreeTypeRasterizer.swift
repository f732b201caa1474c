// FreeType: glyph outlines rasterised at the device pixel size, anti-aliased and hinted for it,
// and colour emoji bitmaps (the only file that touches FreeType's objects).
import CFreeType
import Foundation

/// FreeType's library and the faces opened so far. Neither is thread-safe: one caller at a
/// time (the glyph cache holds its lock around every call).
final class FreeTypeRasterizer {
    /// The largest glyph bitmap side made, in pixels: 4096, far above any text a screen shows
    /// (a 2160-pixel-high window); bigger requests get no glyph instead of a huge allocation.
    static let maximumPixelSize = 4096.0

    private var library: FT_Library?
    private var faces: [FaceSource: FT_Face?] = [:]

    /// Starts FreeType; nil when it cannot (out of memory).
    init?() {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, library != nil else { return nil }
        self.library = library
    }

    deinit {
        for case let face? in faces.values { FT_Done_Face(face) }
        FT_Done_FreeType(library)
    }

    /// The face of `source`, opened on first use (nil, and not retried, when FreeType cannot).
    private func face(_ source: FaceSource) -> FT_Face? {
        if let known = faces[source] { return known }
        var face: FT_Face?
        if FT_New_Face(library, source.path, FT_Long(source.index), &face) != 0 { face = nil }
        faces[source] = face
        return face
    }

    /// Rasterises glyph `glyph` of `source` at `pixelSize` pixels per em with the pen
    /// `subpixelX` pixels (0 ≤ x < 1) right of a pixel boundary; nil for glyphs with no pixels
    /// (a space) or that FreeType cannot load. `strikeSize` is the pixel size of a fixed-size
    /// colour bitmap, which the caller scales; nil when the glyph is at `pixelSize` already.
    ///
    /// Outlines are hinted lightly (vertically only, FT_LOAD_TARGET_LIGHT), which keeps their
    /// shapes where HarfBuzz's unhinted advances put them while stems and the x-height sit on
    /// whole pixels, then anti-aliased to 8-bit coverage. Colour fonts with bitmap strikes
    /// (Noto Color Emoji, CBDT) give their nearest strike, to be scaled by the caller.
    func rasterize(_ source: FaceSource, glyph: UInt32, pixelSize: Double,
                   subpixelX: Double) -> (image: GlyphImage, strikeSize: Double?)? {
        guard pixelSize > 0, pixelSize <= Self.maximumPixelSize, let face = face(source) else { return nil }
        let colorFont = scrollkit_ft_has_color(face) != 0
        var strikeSize: Double?
        var flags = Int32(FT_LOAD_DEFAULT)
        if scrollkit_ft_is_scalable(face) != 0 {
            guard FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72) == 0 else { return nil }
            flags |= scrollkit_ft_load_target_light()
            // Embedded bitmaps (some CJK fonts carry 1-bit ones for small sizes) would not be
            // anti-aliased; colour fonts keep theirs.
            flags |= colorFont ? Int32(FT_LOAD_COLOR) : Int32(FT_LOAD_NO_BITMAP)
        } else {
            guard let strike = bestStrike(face, for: pixelSize) else { return nil }
            guard FT_Select_Size(face, Int32(strike.index)) == 0 else { return nil }
            strikeSize = strike.size
            flags |= Int32(FT_LOAD_COLOR)
        }
        guard FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph else { return nil }
        if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            // 26.6 fixed point: 64 units per pixel.
            let shift = FT_Pos((subpixelX * 64).rounded())
            if shift != 0 { FT_Outline_Translate(&slot.pointee.outline, shift, 0) }
            guard FT_Render_Glyph(slot, FT_RENDER_MODE_LIGHT) == 0 else { return nil }
        }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, let buffer = bitmap.buffer else { return nil }
        var coverage: [UInt8] = [], color: [UInt32] = []
        // A negative pitch means rows run bottom-up.
        let firstRow = pitch >= 0 ? buffer : buffer + (height - 1) * -pitch
        switch UInt32(bitmap.pixel_mode) {
        case UInt32(FT_PIXEL_MODE_GRAY.rawValue):
            coverage = [UInt8](unsafeUninitializedCapacity: width * height) { out, n in
                for y in 0..<height {
                    let row = firstRow + y * pitch
                    for x in 0..<width { out[y * width + x] = row[x] }
                }
                n = width * height
            }
        case UInt32(FT_PIXEL_MODE_MONO.rawValue):
            coverage = [UInt8](unsafeUninitializedCapacity: width * height) { out, n in
                for y in 0..<height {
                    let row = firstRow + y * pitch
                    for x in 0..<width { out[y * width + x] = row[x >> 3] & (0x80 >> UInt8(x & 7)) != 0 ? 255 : 0 }
                }
                n = width * height
            }
        case UInt32(FT_PIXEL_MODE_BGRA.rawValue):
            // Premultiplied blue, green, red, alpha bytes: our ARGB8888 read byte by byte.
            color = [UInt32](unsafeUninitializedCapacity: width * height) { out, n in
                for y in 0..<height {
                    let row = firstRow + y * pitch
                    for x in 0..<width {
                        let p = row + 4 * x
                        out[y * width + x] = UInt32(p[3]) << 24 | UInt32(p[2]) << 16 | UInt32(p[1]) << 8 | UInt32(p[0])
                    }
                }
                n = width * height
            }
        default:
            return nil
        }
        let image = GlyphImage(left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), width: width,
                               height: height, coverage: coverage, color: color)
        return (image, strikeSize)
    }

    /// The fixed size to scale from: the smallest strike at least `pixelSize` high (scaling
    /// down keeps detail), else the largest.
    private func bestStrike(_ face: FT_Face, for pixelSize: Double) -> (index: Int, size: Double)? {
        let count = Int(face.pointee.num_fixed_sizes)
        guard count > 0, let sizes = face.pointee.available_sizes else { return nil }
        let strikes = (0..<count).map { (index: $0, size: Double(sizes[$0].y_ppem) / 64) }.filter { $0.size > 0 }
        return strikes.filter { $0.size >= pixelSize }.min { $0.size < $1.size } ?? strikes.max { $0.size < $1.size }
    }
}
