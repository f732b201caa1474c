// The bounds a trace must respect, so hostile or corrupt files are refused before anything is allocated.

/// Sizes and values beyond these are rejected as malformed. The defaults are generous for
/// real sessions and small enough that replaying the largest accepted trace stays bounded.
public struct TraceLimits: Equatable, Sendable {
    /// Largest trace file read, in bytes (64 MiB: about a million event lines).
    public var maxFileBytes: Int
    /// Longest line, in bytes (64 KiB; a real line is under 200 bytes).
    public var maxLineBytes: Int
    /// Most events after the setup line.
    public var maxEvents: Int
    /// Latest event time, in milliseconds (24 h: a kiosk day).
    public var maxTime: Double
    /// Largest viewport width or height, in points (16384: `OwnedFramebuffer`'s side limit,
    /// so an offscreen frame of the viewport can always be allocated).
    public var maxViewportSide: Double
    /// Largest content width or height, in points (one million: far beyond any real document,
    /// far below where Double loses sub-point precision).
    public var maxContentSide: Double
    /// Largest magnitude of any coordinate, offset, inset, rect or axis delta, in points.
    public var maxCoordinate: Double
    /// Accepted frame rates, in frames per second.
    public var frameRate: ClosedRange<Double>
    /// Accepted zoom and pinch scales (scale factor).
    public var zoomScale: ClosedRange<Double>
    /// Most buttons in the setup.
    public var maxButtons: Int
    /// Largest magnitude of a `value120x`/`value120y` (120 per notch; 1000 notches in one event).
    public var maxValue120: Int
    /// Most nested scroll views a setup describes (100 000: a gallery of that many pictures).
    public var maxNestedViews = 100_000
    /// Deepest nesting of scroll views in a setup.
    public var maxNestingDepth = 8
    /// Longest setup line, in bytes (16 MiB: it lists every nested view; event lines keep
    /// `maxLineBytes`).
    public var maxSetupLineBytes = 16 << 20

    /// The limits `scroll-replay` enforces.
    public static let standard = TraceLimits(
        maxFileBytes: 64 << 20, maxLineBytes: 64 << 10, maxEvents: 1_000_000, maxTime: 86_400_000,
        maxViewportSide: 16384, maxContentSide: 1_000_000, maxCoordinate: 1_000_000,
        frameRate: 1...1000, zoomScale: 0.001...1000, maxButtons: 1000, maxValue120: 120_000)

    /// Creates custom limits (tests use small ones to exercise the checks cheaply).
    public init(maxFileBytes: Int, maxLineBytes: Int, maxEvents: Int, maxTime: Double, maxViewportSide: Double,
                maxContentSide: Double, maxCoordinate: Double, frameRate: ClosedRange<Double>,
                zoomScale: ClosedRange<Double>, maxButtons: Int, maxValue120: Int) {
        self.maxFileBytes = maxFileBytes
        self.maxLineBytes = maxLineBytes
        self.maxEvents = maxEvents
        self.maxTime = maxTime
        self.maxViewportSide = maxViewportSide
        self.maxContentSide = maxContentSide
        self.maxCoordinate = maxCoordinate
        self.frameRate = frameRate
        self.zoomScale = zoomScale
        self.maxButtons = maxButtons
        self.maxValue120 = maxValue120
    }
}
