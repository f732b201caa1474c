// Damage regions: sets of device pixels kept as a few non-overlapping rectangles.
import Foundation

extension PixelRect {
    /// The empty rectangle at the origin.
    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// One past the last column, in pixels.
    public var maxX: Int { x + width }
    /// One past the last row, in pixels.
    public var maxY: Int { y + height }

    /// Whether every pixel of `other` lies inside this rectangle (an empty `other` always does).
    public func contains(_ other: PixelRect) -> Bool {
        other.isEmpty || (!isEmpty && other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }

    /// Whether the two rectangles share at least one pixel.
    public func intersects(_ other: PixelRect) -> Bool { !intersection(other).isEmpty }

    /// The smallest rectangle holding both (an empty operand is ignored).
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The rectangle moved by (dx, dy) pixels.
    public func offsetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The rectangle grown by `d` pixels on every side (shrunk when negative).
    public func insetBy(_ d: Int) -> PixelRect {
        PixelRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d)
    }

    /// The parts of this rectangle outside `cut`: at most four disjoint bands (top, bottom,
    /// left, right), empty when `cut` covers it.
    public func subtracting(_ cut: PixelRect) -> [PixelRect] {
        let c = intersection(cut)
        if c.isEmpty { return isEmpty ? [] : [self] }
        var parts: [PixelRect] = []
        if c.y > y { parts.append(PixelRect(x: x, y: y, width: width, height: c.y - y)) }
        if c.maxY < maxY { parts.append(PixelRect(x: x, y: c.maxY, width: width, height: maxY - c.maxY)) }
        if c.x > x { parts.append(PixelRect(x: x, y: c.y, width: c.x - x, height: c.height)) }
        if c.maxX < maxX { parts.append(PixelRect(x: c.maxX, y: c.y, width: maxX - c.maxX, height: c.height)) }
        return parts
    }
}

/// A set of pixels stored as disjoint rectangles, for damage tracking.
///
/// Exact while small; past `maxRects` pieces it collapses to its bounding box, which only
/// ever repaints more than needed, never less.
public struct PixelRegion: Equatable, Sendable {
    /// The disjoint rectangles making up the region, in insertion order.
    public private(set) var rects: [PixelRect] = []

    /// Most pieces kept exactly: damage in a frame is a few views and indicators, and each
    /// piece costs one pass over the display list when repainting (design decision).
    public static let maxRects = 32

    /// An empty region.
    public init() {}

    /// A region holding `rects` (overlaps are merged).
    public init(_ rects: [PixelRect]) {
        for r in rects { add(r) }
    }

    /// True when the region covers no pixel.
    public var isEmpty: Bool { rects.isEmpty }

    /// Number of pixels covered.
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    /// The smallest rectangle covering the region.
    public var bounds: PixelRect { rects.reduce(PixelRect.zero) { $0.union($1) } }

    /// Adds the pixels of `rect`.
    public mutating func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        // Pieces of the new rect not yet covered; existing rects stay untouched.
        var pieces = [rect]
        for existing in rects where existing.intersects(rect) {
            pieces = pieces.flatMap { $0.subtracting(existing) }
            if pieces.isEmpty { return }
        }
        rects.append(contentsOf: pieces)
        if rects.count > Self.maxRects { rects = [bounds] }
    }

    /// Adds every pixel of `other`.
    public mutating func formUnion(_ other: PixelRegion) {
        for r in other.rects { add(r) }
    }

    /// Keeps only the pixels inside `clip`.
    public mutating func clip(to clip: PixelRect) {
        rects = rects.map { $0.intersection(clip) }.filter { !$0.isEmpty }
    }

    /// Whether pixel (x, y) belongs to the region.
    public func contains(x: Int, y: Int) -> Bool {
        rects.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
    }
}
