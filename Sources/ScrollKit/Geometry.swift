// Geometry helpers on Foundation's CG types, plus EdgeInsets (UIEdgeInsets' counterpart).
import Foundation

/// Insets from each edge of a rectangle, in points (UIKit's `UIEdgeInsets`).
public struct EdgeInsets: Hashable, Sendable {
    /// Inset from the top edge, in points.
    public var top: CGFloat
    /// Inset from the left edge, in points.
    public var left: CGFloat
    /// Inset from the bottom edge, in points.
    public var bottom: CGFloat
    /// Inset from the right edge, in points.
    public var right: CGFloat

    /// Creates insets from the four edges, in points.
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No inset on any edge.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

extension CGRect {
    /// The rectangle shrunk by `insets` (grown where an inset is negative).
    public func inset(by insets: EdgeInsets) -> CGRect {
        CGRect(x: origin.x + insets.left, y: origin.y + insets.top,
               width: size.width - insets.left - insets.right,
               height: size.height - insets.top - insets.bottom)
    }
}

extension CGPoint {
    /// Component-wise sum.
    public static func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
    /// Component-wise difference.
    public static func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
}

extension CGPoint {
    /// The component along `axis`.
    subscript(axis: ScrollAxis) -> CGFloat {
        get { axis == .horizontal ? x : y }
        set { if axis == .horizontal { x = newValue } else { y = newValue } }
    }
}

extension CGSize {
    /// The extent along `axis`.
    subscript(axis: ScrollAxis) -> CGFloat {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }
}
