// Scroll indicators as the renderer draws them: ScrollKit's indicator model, or any view's own.
import Foundation
import ScrollKit

/// One scroll indicator to draw in a frame: where, how opaque, with which paint.
public struct IndicatorAppearance: Sendable, Hashable {
    /// The bar's full extent, border included, in the bounds coordinates of the view that
    /// shows it (points; it moves with `bounds.origin` like UIKit's indicator subviews).
    public var rect: CGRect
    /// Fade opacity, 0 (invisible) ... 1, multiplied into both colours.
    public var alpha: Double
    /// The bar's fill.
    public var fill: Color
    /// The ring drawn inside the bar's edge; nil for none.
    public var border: Color?
    /// Width of the ring, in points.
    public var borderWidth: Double
    /// Corner radius, in points (half the thickness draws a pill).
    public var cornerRadius: Double

    /// Creates an indicator description from explicit paint.
    public init(rect: CGRect, alpha: Double, fill: Color, border: Color? = nil, borderWidth: Double = 0,
                cornerRadius: Double) {
        self.rect = rect
        self.alpha = alpha
        self.fill = fill
        self.border = border
        self.borderWidth = borderWidth
        self.cornerRadius = cornerRadius
    }

    /// The indicator ScrollKit's model describes, drawn exactly as it says.
    public init(_ indicator: ScrollIndicator) {
        self.init(rect: indicator.rectInBounds, alpha: indicator.alpha, fill: indicator.fillColor,
                  border: indicator.borderColor, borderWidth: Double(indicator.borderWidth),
                  cornerRadius: Double(indicator.cornerRadius))
    }

    /// Draws the indicator, already mapped to device pixels as `rect`, with `pointScale`
    /// device pixels per point, clipped to `clip`.
    func draw(in rect: DeviceRect, pointScale: Double, clip: PixelRect, into target: Framebuffer) {
        let border = border.map { $0.premultipliedARGB } ?? 0
        target.fillRoundedRect(rect, radius: cornerRadius * pointScale, fill: fill.premultipliedARGB, border: border,
                               borderWidth: self.border == nil ? 0 : borderWidth * pointScale, opacity: alpha, clip: clip)
    }
}

/// A view that shows scroll indicators above its subviews. `ScrollView` adopts it through its
/// indicator model; other views may adopt it to show bars of their own.
public protocol ScrollIndicatorSource: View {
    /// The indicators to draw now; empty when none is visible.
    var indicatorsForDisplay: [IndicatorAppearance] { get }
}

extension ScrollView: ScrollIndicatorSource {
    /// The scroll view's indicators at its current time, as its model describes them.
    public var indicatorsForDisplay: [IndicatorAppearance] { scrollIndicators.map(IndicatorAppearance.init) }
}
