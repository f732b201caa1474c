// Scroll indicators as the renderer draws them: where, how opaque, in which style.
import Foundation
import ScrollKit

/// The look of a scroll indicator (`UIScrollView.IndicatorStyle`).
public enum IndicatorStyle: Sendable, Hashable {
    /// Black with a white border: good against any background.
    case `default`
    /// Black only, smaller: good against a white background.
    case black
    /// White only, smaller: good against a black background.
    case white
}

/// One scroll indicator to draw in a frame.
public struct IndicatorAppearance: Sendable, Hashable {
    /// The indicator's full extent, border included, in the bounds coordinates of the view
    /// that shows it (points; it moves with `bounds.origin` like UIKit's indicator subviews).
    public var rect: CGRect
    /// Fade opacity, 0 (invisible) ... 1.
    public var alpha: Double
    /// The indicator's style.
    public var style: IndicatorStyle

    /// Creates an indicator description.
    public init(rect: CGRect, alpha: Double, style: IndicatorStyle) {
        self.rect = rect
        self.alpha = alpha
        self.style = style
    }
}

/// A view that shows scroll indicators above its subviews (a scroll view).
public protocol ScrollIndicatorSource: View {
    /// The indicators to draw now; empty when none is visible.
    var indicatorsForDisplay: [IndicatorAppearance] { get }
}

/// How each style is painted (design decision after iOS 7–12 screenshots: a dark bar at about
/// half opacity, the default style ringed in white so it shows on dark content too).
enum IndicatorPaint {
    /// Width of the default style's white ring, in points.
    static let borderWidth = 1.0
    /// Bar colour for the dark bar: black at 50 % (premultiplied ARGB).
    static let dark: UInt32 = 0x8000_0000
    /// Bar colour for the white style: white at 50 % (premultiplied ARGB).
    static let light: UInt32 = 0x8080_8080
    /// The default style's ring: white at 50 % (premultiplied ARGB).
    static let ring: UInt32 = 0x8080_8080

    /// Draws `indicator`, already mapped to device pixels as `rect`, with `pointScale`
    /// device pixels per point, clipped to `clip`.
    static func draw(_ style: IndicatorStyle, rect: DeviceRect, alpha: Double, pointScale: Double,
                     clip: PixelRect, into target: Framebuffer) {
        let border = borderWidth * pointScale
        switch style {
        case .default:
            target.fillRoundedRect(rect, radius: min(rect.width, rect.height) / 2, fill: dark, border: ring,
                                   borderWidth: border, opacity: alpha, clip: clip)
        case .black, .white:
            // "Smaller": the bar without the ring, inside the same extent.
            let bar = rect.insetBy(border)
            target.fillRoundedRect(bar, radius: min(bar.width, bar.height) / 2, fill: style == .black ? dark : light,
                                   opacity: alpha, clip: clip)
        }
    }
}
