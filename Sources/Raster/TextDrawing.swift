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
                for glyph in run.glyphs {
                    // Whole pixel and quarter-pixel phase from the absolute position, so every
                    // tile rounds the same way.
                    let gx = left + glyph.x * scale
                    var px = gx.rounded(.down)
                    var phase = Int(((gx - px) * steps).rounded())
                    if phase == GlyphCache.subpixelSteps {
                        px += 1
                        phase = 0
                    }
                    guard px.isFinite, abs(px) < 1e12 else { continue }
                    let x = Int(px) - rect.x
                    let y = baseline + Int((glyph.y * scale).rounded()) - rect.y
                    guard x + extent > 0, x - extent < target.width, y + extent > 0, y - extent < target.height,
                          let image = cache.image(run.face, glyph: glyph.id, pixelSize: pixelSize, subpixel: phase)
                    else { continue }
                    target.blendGlyph(image, x: x + image.left, y: y - image.top, pixel: pixel, opacity: opacity)
                }
            }
        }
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
        glyph.coverage.withUnsafeBufferPointer { src in
            for row in y0..<y1 {
                let dst = pointer(x: x, y: y + row)
                for col in x0..<x1 {
                    let c = UInt32(src[row * w + col])
                    if c == 0 { continue }
                    let s = c == 255 ? pixel : scalePixel(pixel, by: c)
                    dst[col] = blendPixel(s, over: dst[col])
                }
            }
        }
    }
}
