// Rasterised glyphs kept between draws, bounded in bytes: text drawn again (a tile redrawn,
// the same letters on the next line) blends cached pixels instead of asking FreeType again.
import Foundation
import ScrollKit
import Synchronization

/// A glyph ready to blend: its pixels and where they sit relative to the pen on the baseline.
final class GlyphImage: Sendable {
    /// Pixels from the pen to the left edge, and from the baseline up to the top edge.
    let left: Int
    let top: Int
    /// Size in pixels.
    let width: Int
    let height: Int
    /// Coverage 0…255, row by row; empty for colour glyphs.
    let coverage: [UInt8]
    /// Premultiplied ARGB, row by row; empty for coverage glyphs.
    let color: [UInt32]

    /// Whether the glyph has its own colours (emoji), which the text colour does not tint.
    var isColor: Bool { !color.isEmpty }
    /// Memory the glyph holds, in bytes (pixels plus bookkeeping).
    var byteCount: Int { coverage.count + 4 * color.count + 64 }

    init(left: Int, top: Int, width: Int, height: Int, coverage: [UInt8], color: [UInt32]) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.coverage = coverage
        self.color = color
    }

    /// This colour bitmap, made at `strikeSize` pixels per em, scaled to `pixelSize` (box
    /// filter down, bilinear up: the resampler the renderer uses for pictures); nil when the
    /// sizes make no image.
    func scaled(from strikeSize: Double, to pixelSize: Double) -> GlyphImage? {
        guard strikeSize != pixelSize, !color.isEmpty else { return self }
        let f = pixelSize / strikeSize
        let w = max(Int((Double(width) * f).rounded()), 1), h = max(Int((Double(height) * f).rounded()), 1)
        guard let source = OwnedFramebuffer(width: width, height: height), let target = OwnedFramebuffer(width: w, height: h),
              let xAxis = ResampleAxis(step: Double(width) / Double(w), lower: 0, upper: width),
              let yAxis = ResampleAxis(step: Double(height) / Double(h), lower: 0, upper: height)
        else { return nil }
        for y in 0..<height {
            for x in 0..<width { source.framebuffer[x, y] = color[y * width + x] }
        }
        do {
            try Resampler.resample(f < 1 ? .box : .bilinear, source: source.framebuffer, sourceOrigin: (0, 0),
                                   xAxis: xAxis, yAxis: yAxis, output: PixelRect(x: 0, y: 0, width: w, height: h),
                                   into: target.framebuffer, at: (0, 0))
        } catch {
            return nil
        }
        return GlyphImage(left: Int((Double(left) * f).rounded()), top: Int((Double(top) * f).rounded()),
                          width: w, height: h, coverage: [], color: target.pixels)
    }
}

/// The process's rasterised glyphs, by face, glyph, pixel size and subpixel position, least
/// recently used dropped first once they exceed the budget. Any thread may draw: FreeType is
/// called under the cache's lock.
final class GlyphCache: Sendable {
    /// The cache every text drawing shares.
    static let shared = GlyphCache(budget: defaultBudget)

    /// 8 MiB: a screen of CJK text at 20 px holds about 2000 distinct glyphs of ~500 bytes, so
    /// several such screens in every subpixel phase stay cached (decision).
    static let defaultBudget = 8 << 20

    /// Horizontal pen positions per pixel a glyph is rasterised at: 4 (a quarter pixel, as
    /// Skia and FreeType's own demos use), so letters keep HarfBuzz's spacing without
    /// rasterising each glyph at every position.
    static let subpixelSteps = 4

    /// What identifies one rasterisation, packed in one word so that a lookup hashes once:
    /// the face id (16 bits), the pixels per em in 26.6 fixed point (19 bits: up to
    /// `maximumPixelSize`), the glyph index (16 bits, OpenType's limit) and the pen position
    /// in `subpixelSteps`ths of a pixel (2 bits).
    struct Key: Hashable {
        let bits: UInt64

        init(face: Int, glyph: UInt32, size64: Int, subpixel: Int) {
            bits = UInt64(face & 0xFFFF) << 37 | UInt64(size64 & 0x7FFFF) << 18 | UInt64(glyph & 0xFFFF) << 2
                | UInt64(subpixel & 3)
        }
    }

    private struct Entry {
        var image: GlyphImage?
        var lastUse: UInt64
    }

    private struct State {
        var rasterizer: FreeTypeRasterizer?
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// Most bytes the cached glyphs hold before the least recently used are dropped.
    let budget: Int
    private let state: Mutex<State>

    /// A cache holding up to `budget` bytes of glyphs.
    init(budget: Int) {
        self.budget = max(budget, 0)
        state = Mutex(State(rasterizer: FreeTypeRasterizer()))
    }

    /// The glyph `glyph` of `face` at `pixelSize` pixels per em, its pen `subpixel` steps
    /// right of a pixel boundary; nil when it has no pixels.
    func image(_ face: FontFace, glyph: UInt32, pixelSize: Double, subpixel: Int) -> GlyphImage? {
        var out: [GlyphImage?] = []
        images(face, pixelSize: pixelSize, glyphs: [(glyph, subpixel)], into: &out)
        return out[0]
    }

    /// `image` for each (glyph, subpixel) of `glyphs`, all of `face` at `pixelSize`, under one
    /// lock (a line's glyphs are looked up together), replacing the contents of `out`.
    func images(_ face: FontFace, pixelSize: Double, glyphs: [(id: UInt32, subpixel: Int)], into out: inout [GlyphImage?]) {
        out.removeAll(keepingCapacity: true)
        guard pixelSize.isFinite, pixelSize > 0, pixelSize <= FreeTypeRasterizer.maximumPixelSize else {
            out.append(contentsOf: repeatElement(nil, count: glyphs.count))
            return
        }
        let size64 = Int((pixelSize * 64).rounded()), size = Double(size64) / 64
        state.withLock { s in
            for glyph in glyphs {
                // Colour bitmaps are placed on whole pixels: one rasterisation serves every phase.
                let phase = face.isColor ? 0 : glyph.subpixel
                let key = Key(face: face.id, glyph: glyph.id, size64: size64, subpixel: phase)
                s.clock += 1
                if let i = s.entries.index(forKey: key) {
                    s.entries.values[i].lastUse = s.clock
                    s.hits += 1
                    out.append(s.entries.values[i].image)
                    continue
                }
                s.misses += 1
                let image = s.rasterizer?.rasterize(face.source, glyph: glyph.id, pixelSize: size,
                                                    subpixelX: Double(phase) / Double(Self.subpixelSteps))
                    .flatMap { made in made.strikeSize.map { made.image.scaled(from: $0, to: size) } ?? made.image }
                s.entries[key] = Entry(image: image, lastUse: s.clock)
                s.bytes += image?.byteCount ?? 64
                if s.bytes > budget { Self.evict(&s, to: budget * 3 / 4) }
                out.append(image)
            }
        }
    }

    /// Drops the least recently used glyphs until at most `target` bytes remain.
    private static func evict(_ s: inout State, to target: Int) {
        let oldestFirst = s.entries.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, entry) in oldestFirst where s.bytes > target {
            s.entries[key] = nil
            s.bytes -= entry.image?.byteCount ?? 64
        }
    }

    /// Glyphs held, their bytes, and lookups answered from the cache and by FreeType.
    var statistics: (count: Int, bytes: Int, hits: Int, misses: Int) {
        state.withLock { ($0.entries.count, $0.bytes, $0.hits, $0.misses) }
    }
}
