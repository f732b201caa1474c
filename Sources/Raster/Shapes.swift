// Antialiased rounded rectangles (scroll indicators, progress bars), optionally with a border.
import Foundation

/// A rectangle in device pixels with fractional edges, for antialiased shapes.
public struct DeviceRect: Equatable, Sendable {
    /// Left edge, in device pixels.
    public var x: Double
    /// Top edge, in device pixels.
    public var y: Double
    /// Width, in device pixels.
    public var width: Double
    /// Height, in device pixels.
    public var height: Double

    /// Creates a rectangle from its top-left corner and size, in device pixels.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle has a positive, finite area.
    public var isDrawable: Bool {
        x.isFinite && y.isFinite && width.isFinite && height.isFinite && width > 0 && height > 0
    }

    /// The rectangle shrunk by `d` device pixels on every side.
    public func insetBy(_ d: Double) -> DeviceRect {
        DeviceRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d)
    }

    /// The whole pixels the rectangle touches (nothing for a rectangle that cannot be drawn).
    public var enclosingPixels: PixelRect {
        guard isDrawable else { return .zero }
        let x0 = clampToPixel(x.rounded(.down)), y0 = clampToPixel(y.rounded(.down))
        let x1 = clampToPixel((x + width).rounded(.up)), y1 = clampToPixel((y + height).rounded(.up))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// Converts a whole-numbered device coordinate to Int, clamped to ±2^40 so that absurd
/// geometry (views of 10^12 points, infinities) cannot trap; NaN becomes 0.
@inline(__always)
func clampToPixel(_ v: Double) -> Int {
    // 2^40 pixels: far beyond any framebuffer (`OwnedFramebuffer.maxPixels`), far inside Int.
    let limit = 1_099_511_627_776.0
    guard !v.isNaN else { return 0 }
    return Int(min(max(v, -limit), limit))
}

/// Coverage (0...1) of the pixel whose centre is (px, py) by a rounded rectangle, from the
/// signed distance of the centre to the outline: exact for straight edges, a close
/// approximation on the corner arcs.
@inline(__always)
func roundedRectCoverage(_ r: DeviceRect, radius: Double, px: Double, py: Double) -> Double {
    guard r.width > 0, r.height > 0 else { return 0 }
    let rad = min(max(radius, 0), min(r.width, r.height) / 2)
    let hx = r.width / 2, hy = r.height / 2
    let qx = abs(px - (r.x + hx)) - (hx - rad), qy = abs(py - (r.y + hy)) - (hy - rad)
    let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
    let distance = outside + min(max(qx, qy), 0) - rad
    // A straight edge crossing the pixel at distance d from its centre covers ½ − d of it.
    var c = min(max(0.5 - distance, 0), 1)
    // Shapes thinner than a pixel cover at most their own extent of it.
    c = min(c, r.width, r.height)
    return c
}

extension Framebuffer {
    /// Draws a rounded rectangle over the framebuffer with antialiased edges: `fill` inside
    /// and, when `borderWidth` > 0, a `border` ring of that width (device pixels) along the
    /// outline. Colours are premultiplied; `opacity` (0...1) scales both; drawing is clipped
    /// to `clip` and the framebuffer.
    public func fillRoundedRect(_ rect: DeviceRect, radius: Double, fill: UInt32, border: UInt32 = 0,
                                borderWidth: Double = 0, opacity: Double = 1, clip: PixelRect? = nil) {
        guard rect.isDrawable, opacity > 0 else { return }
        let area = rect.enclosingPixels.intersection(clip ?? bounds).intersection(bounds)
        guard !area.isEmpty else { return }
        let alpha = UInt32((min(opacity, 1) * 255).rounded())
        let fillColor = scalePixel(fill, by: alpha), borderColor = scalePixel(border, by: alpha)
        let inner = borderWidth > 0 ? rect.insetBy(borderWidth) : rect
        let innerRadius = max(radius - max(borderWidth, 0), 0)
        var row = [UInt32](repeating: 0, count: area.width)
        for y in area.y..<area.maxY {
            let py = Double(y) + 0.5
            for i in 0..<area.width {
                let px = Double(area.x + i) + 0.5
                let outer = roundedRectCoverage(rect, radius: radius, px: px, py: py)
                if outer <= 0 { row[i] = 0; continue }
                let core = borderWidth > 0 ? roundedRectCoverage(inner, radius: innerRadius, px: px, py: py) : outer
                // The ring is what the outline covers beyond the inner shape.
                let coreCov = UInt32((core * 255).rounded())
                let ringCov = min(UInt32((max(outer - core, 0) * 255).rounded()), 255 - coreCov)
                row[i] = scalePixel(fillColor, by: coreCov) &+ scalePixel(borderColor, by: ringCov)
            }
            blendRow(x: area.x, y: y, pixels: row)
        }
    }
}
