// Counts quick taps close together: the double tap an image viewer uses to toggle zoom.
import Foundation

/// Recognises a run of taps (UIKit's `UITapGestureRecognizer` with `numberOfTapsRequired`).
///
/// A tap is a touch that lifts without moving further than `maximumMovement`; the next tap
/// of the run must touch down within `maximumInterval` of the previous lift and within
/// `maximumDistance` of the first tap. The run is recognised when the last required tap
/// lifts. Times in milliseconds, positions in any fixed coordinate space, distances in points.
public struct TapGestureRecognizer: Sendable {
    /// 300 ms: the longest pause between one tap's lift and the next tap's touch-down
    /// (decision, the commonly quoted double-tap interval of iOS and desktop toolkits).
    public static let defaultMaximumInterval = 300.0
    /// 20 pt: how far the taps of one run may land from the first (decision: a thumb taps
    /// the same spot within about this).
    public static let defaultMaximumDistance: CGFloat = 20
    /// 10 pt: a touch that moves further is not a tap (the pan's slop: it would scroll).
    public static let defaultMaximumMovement: CGFloat = PanGestureRecognizer.defaultMinimumDistance

    /// Taps needed for recognition (2: a double tap).
    public var numberOfTapsRequired: Int
    /// See `defaultMaximumInterval`, in milliseconds.
    public var maximumInterval: Double
    /// See `defaultMaximumDistance`, in points.
    public var maximumDistance: CGFloat
    /// See `defaultMaximumMovement`, in points.
    public var maximumMovement: CGFloat

    /// Taps completed in the current run.
    public private(set) var tapCount = 0
    /// Where the run's first tap touched down.
    public private(set) var firstLocation: CGPoint = .zero
    private var lastLift: Double = -.infinity
    private var touchStart: CGPoint?
    private var touchLocation: CGPoint = .zero

    /// Creates a recognizer for `numberOfTapsRequired` taps with the default tolerances.
    public init(numberOfTapsRequired: Int = 2) {
        self.numberOfTapsRequired = Swift.max(1, numberOfTapsRequired)
        maximumInterval = Self.defaultMaximumInterval
        maximumDistance = Self.defaultMaximumDistance
        maximumMovement = Self.defaultMaximumMovement
    }

    /// Whether a touch is down and still counts as a tap.
    public var isTouching: Bool { touchStart != nil }

    /// A touch went down at `location` at `time` (ms); it continues the run when close enough
    /// in time and place, otherwise it starts a new one.
    public mutating func touchBegan(at location: CGPoint, time: Double) {
        let continues = tapCount > 0 && time - lastLift <= maximumInterval
            && hypot(location.x - firstLocation.x, location.y - firstLocation.y) <= maximumDistance
        if !continues {
            tapCount = 0
            firstLocation = location
        }
        touchStart = location
        touchLocation = location
    }

    /// The touch moved to `location`; moving past `maximumMovement` ends the run.
    public mutating func touchMoved(to location: CGPoint) {
        guard let start = touchStart else { return }
        touchLocation = location
        if hypot(location.x - start.x, location.y - start.y) > maximumMovement { reset() }
    }

    /// The touch lifted at `time` (ms). Returns where the run's first tap landed when this lift
    /// completes the required taps (and starts over), nil otherwise.
    public mutating func touchEnded(at time: Double) -> CGPoint? {
        guard touchStart != nil else { return nil }
        touchStart = nil
        tapCount += 1
        lastLift = time
        guard tapCount >= numberOfTapsRequired else { return nil }
        let location = firstLocation
        reset()
        return location
    }

    /// Forgets the run: the touch became something else (a drag, a pinch, a control's tap).
    public mutating func reset() {
        tapCount = 0
        touchStart = nil
        lastLift = -.infinity
    }
}
