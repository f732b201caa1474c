// Laid-out text drawn into pixels at any scale: each glyph rasterised at the device pixel size
// (never a scaled bitmap, colour emoji strikes aside), placed by its absolute content pixel
// so that tiles drawn apart agree, and blended over what is there.
import Foundation
import ScrollKit

extension TextLayout {
    /// Draws the text in `color` with the layout's top-left at `origin` (points, in the
    /// coordinates of the content being drawn): content pixels `rect` at `scale` device pixels
    /// per point into `target`, whose pixel (0, 0) is `rect`'s top-left (`TiledContent.draw`'s
    /// contract). Colour glyphs (emoji) keep their colours, at `color`'s opacity.
    public func draw(at origin: CGPoint, color: Color, rect: PixelRect, scale: Double, into target: Framebuffer) {
        draw(at: origin, color: color, rect: rect, scale: scale, into: target, cache: .shared)
    }

    func draw(at origin: CGPoint, color: Color, rect: PixelRect, scale: Double, into target: Framebuffer, cache: GlyphCache) {
        guard scale.isFinite, scale > 0, !lines.isEmpty else { return }
        let pixel = color.premultipliedARGB
        guard pixel != 0 else { return }
        let opacity = pixel >> 24
        let steps = Double(GlyphCache.subpixelSteps)
        // Reused from run to run: the glyphs that may touch the target, where, and their pixels.
        var places: [(x: Int, y: Int)] = []
        var wanted: [(id: UInt32, subpixel: Int)] = []
        var images: [GlyphImage?] = []
        for line in lines {
            // Light hinting fits outlines to whole pixels vertically: the baseline sits on one.
            let baseline = Int(((Double(origin.y) + line.baseline) * scale).rounded())
            // Glyphs may reach a line's height beyond its box (stacked marks): lines further
            // from the tile are skipped.
            let reach = Int((line.height * scale).rounded(.up)) * 2 + 2
            guard baseline + reach > rect.y, baseline - reach < rect.y + target.height else { continue }
            let left = (Double(origin.x) + line.x) * scale
            for run in line.runs {
                let pixelSize = run.size * scale
                let extent = Int(pixelSize.rounded(.up)) * 2 + 2
                places.removeAll(keepingCapacity: true)
                wanted.removeAll(keepingCapacity: true)
                // Glyphs run left to right: start near the target's left edge (a tile of a
                // long line skips most of them).
                let from = Double(rect.x - extent) / scale - left / scale
                var k = Self.firstGlyph(in: run.glyphs, atOrRightOf: from)
                while k < run.glyphs.count {
                    let glyph = run.glyphs[k]
                    k += 1
                    // Whole pixel and quarter-pixel phase from the absolute position, so every
                    // tile rounds the same way.
                    let gx = left + glyph.x * scale
                    guard gx.isFinite, abs(gx) < 1e12 else { continue }
                    let quarters = Self.floor(gx * steps + 0.5)
                    let px = Self.floor(Double(quarters) / steps)
                    let x = px - rect.x
                    if x - extent >= target.width { break }
                    let y = baseline + Self.floor(glyph.y * scale + 0.5) - rect.y
                    guard x + extent > 0, y + extent > 0, y - extent < target.height else { continue }
                    places.append((x, y))
                    wanted.append((glyph.id, quarters - px * GlyphCache.subpixelSteps))
                }
                guard !wanted.isEmpty else { continue }
                cache.images(run.face, pixelSize: pixelSize, glyphs: wanted, into: &images)
                for (place, image) in zip(places, images) {
                    guard let image else { continue }
                    target.blendGlyph(image, x: place.x + image.left, y: place.y - image.top, pixel: pixel, opacity: opacity)
                }
            }
        }
    }

    /// The index of the first glyph whose position is at least `x` points (binary search:
    /// glyphs are in left-to-right order, marks within an em of their base).
    static func firstGlyph(in glyphs: [PlacedGlyph], atOrRightOf x: Double) -> Int {
        var low = 0, high = glyphs.count
        while low < high {
            let mid = (low + high) / 2
            if glyphs[mid].x < x { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// ⌊v⌋ for |v| < 2⁶³, without a library call per glyph.
    @inline(__always)
    static func floor(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) > v ? t - 1 : t
    }
}

extension Framebuffer {
    /// Blends `glyph` with its top-left at (x, y), clipped: coverage glyphs in `pixel`
    /// (premultiplied), colour glyphs in their own colours scaled by `opacity` (0…255).
    func blendGlyph(_ glyph: GlyphImage, x: Int, y: Int, pixel: UInt32, opacity: UInt32) {
        let x0 = max(0, -x), x1 = min(glyph.width, width - x)
        let y0 = max(0, -y), y1 = min(glyph.height, height - y)
        guard x0 < x1, y0 < y1 else { return }
        let w = glyph.width
        if glyph.isColor {
            glyph.color.withUnsafeBufferPointer { src in
                for row in y0..<y1 {
                    let dst = pointer(x: x, y: y + row)
                    for col in x0..<x1 {
                        var s = src[row * w + col]
                        if s == 0 { continue }
                        if opacity != 255 { s = scalePixel(s, by: opacity) }
                        dst[col] = blendPixel(s, over: dst[col])
                    }
                }
            }
            return
        }
        let color4 = SIMD4<UInt32>(repeating: pixel)
        glyph.coverage.withUnsafeBufferPointer { src in
            for row in y0..<y1 {
                let dst = pointer(x: x, y: y + row)
                let coverage = src.baseAddress! + row * w
                var col = x0
                // Four pixels at a time with the renderer's blend arithmetic (exactly the
                // scalar result): a 1080p screen of text blends about 1.4 million pixels.
                while col + 4 <= x1 {
                    let c0 = UInt16(coverage[col]), c1 = UInt16(coverage[col + 1])
                    let c2 = UInt16(coverage[col + 2]), c3 = UInt16(coverage[col + 3])
                    if c0 | c1 | c2 | c3 != 0 {
                        let s = scalePixels(color4, by: SIMD8(c0, c0, c1, c1, c2, c2, c3, c3))
                        let d = UnsafeRawPointer(dst + col).loadUnaligned(as: SIMD4<UInt32>.self)
                        UnsafeMutableRawPointer(dst + col).storeBytes(of: s &+ scalePixels(d, by: inverseAlphaLanes(s)),
                                                                      as: SIMD4<UInt32>.self)
                    }
                    col += 4
                }
                while col < x1 {
                    let c = UInt32(coverage[col])
                    if c != 0 { dst[col] = blendPixel(c == 255 ? pixel : scalePixel(pixel, by: c), over: dst[col]) }
                    col += 1
                }
            }
        }
    }
}
