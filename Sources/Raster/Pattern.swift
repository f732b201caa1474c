// Content painted straight into every frame that shows it, from a closed form, never cut into
// tiles: a checkerboard costs a few row copies to paint, while its tiles under a transparent
// picture fitted to 1620×1080 held 35 × 256 KiB (9 MB) of cache.
import ScrollKit

/// Two colours in squares, the first at the view's top-left: what image viewers show through
/// transparent pixels.
public struct CheckerPattern: Equatable, Sendable {
    /// Premultiplied ARGB of the square at the top-left, and of every other one.
    public var first: UInt32
    /// Premultiplied ARGB of the squares between them.
    public var second: UInt32
    /// Side of a square, in points.
    public var side: Double

    /// A pattern of `side`-point squares of `first` and `second` (premultiplied ARGB).
    public init(first: UInt32, second: UInt32, side: Double) {
        self.first = first
        self.second = second
        self.side = side
    }

    /// Side of a square in device pixels at `scale` device pixels per point: whole pixels, at
    /// least one.
    func side(atScale scale: Double) -> Int {
        let pixels = (side * scale).rounded()
        guard pixels.isFinite, pixels >= 1 else { return 1 }
        return Int(min(pixels, Double(Int32.max)))
    }
}

/// A view whose content is a pattern, painted into each frame that shows it over its bounds
/// (no tiles, nothing cached). Call `setNeedsDisplay` after changing `pattern`.
public protocol PatternContent: View {
    /// What fills the view's bounds, its first square at the bounds' top-left.
    var pattern: CheckerPattern { get }
}
