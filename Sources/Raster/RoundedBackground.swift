// A rounded panel a view draws under its own content: a label's translucent plate on an
// overlay, an error card's bordered panel.
import Foundation
import ScrollKit

/// A rounded rectangle filling a view's bounds, with an optional border.
///
/// A view's `backgroundColor` is filled square by the renderer; a view that wants round
/// corners leaves it nil and draws one of these in its tiles instead.
public struct RoundedBackground: Hashable, Sendable {
    /// The fill; translucent colours show what lies beneath.
    public var color: Color
    /// Corner radius, in points.
    public var cornerRadius: CGFloat
    /// The border's colour; nil draws none.
    public var borderColor: Color?
    /// The border's width inside the outline, in points.
    public var borderWidth: CGFloat

    /// A panel of `color` with corners of `cornerRadius` points and, if `borderColor` is
    /// given, a border `borderWidth` points wide.
    public init(color: Color, cornerRadius: CGFloat, borderColor: Color? = nil, borderWidth: CGFloat = 0) {
        self.color = color
        self.cornerRadius = cornerRadius
        self.borderColor = borderColor
        self.borderWidth = borderWidth
    }

    /// Draws the panel over a view of `size` points: content pixels `rect` at `scale` into
    /// `target` (`TiledContent.draw`'s contract).
    public func draw(size: CGSize, rect: PixelRect, scale: Double, into target: Framebuffer) {
        guard scale.isFinite, scale > 0 else { return }
        let panel = DeviceRect(x: Double(-rect.x), y: Double(-rect.y), width: Double(size.width) * scale,
                               height: Double(size.height) * scale)
        let border = borderColor.map { $0.premultipliedARGB } ?? 0
        target.fillRoundedRect(panel, radius: Double(cornerRadius) * scale, fill: color.premultipliedARGB, border: border,
                               borderWidth: border == 0 ? 0 : Double(borderWidth) * scale)
    }
}
