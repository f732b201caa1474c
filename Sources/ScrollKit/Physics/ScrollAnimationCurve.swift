// The timed curves behind animated programmatic scrolling, wheel notches and key presses.
import Foundation

/// A timed move from `from` to `to` over a fixed duration: a cubic Hermite ending at rest, or
/// a move at constant velocity.
///
/// The Hermite's start velocity is a parameter so an animation that is retargeted mid-flight
/// (another wheel notch, a repeated key) keeps moving smoothly instead of restarting from rest.
/// Start velocities are kept within [0, 3·distance/duration] in the direction of travel, where
/// the curve stays monotonic (no overshoot).
public struct ScrollAnimationCurve: Simulation {
    /// Start position, in points.
    public let from: Double
    /// End position, in points.
    public let to: Double
    /// Length of the animation, in milliseconds (at least 1).
    public let duration: Double
    /// Velocity at time 0, in points per millisecond, after the monotonic clamp.
    public let initialVelocity: Double
    /// Only `distance` matters: the curve is done when its time is up.
    public let tolerance: Tolerance
    /// Whether the move keeps one velocity, `initialVelocity`, from start to end.
    public let isConstantVelocity: Bool

    /// Creates a curve from `from` to `to` (points) lasting `duration` milliseconds and
    /// starting at `initialVelocity` points per millisecond. nil velocity means a fresh start:
    /// quadratic ease-out, `1 − (1 − u)²`, i.e. twice the average speed at the start.
    public init(from: Double, to: Double, duration: Double, initialVelocity: Double? = nil,
                tolerance: Tolerance = .default) {
        self.from = from
        self.to = to
        self.duration = duration.isFinite ? max(duration, 1) : 1
        self.tolerance = tolerance
        isConstantVelocity = false
        let average = (to - from) / self.duration
        let wanted = initialVelocity ?? 2 * average
        // Clamp into [0, 3·average] along the direction of travel (Fritsch–Carlson bound).
        let lowest = min(0, 3 * average)
        let highest = max(0, 3 * average)
        self.initialVelocity = wanted.isFinite ? min(max(wanted, lowest), highest) : 2 * average
    }

    /// A move at one velocity, (`to` − `from`) / `duration`, from start to end: what UIKit's
    /// header documents for `setContentOffset(_:animated:)` ("animate at constant velocity to
    /// new offset", UIScrollView.h).
    public init(constantVelocityFrom from: Double, to: Double, duration: Double, tolerance: Tolerance = .default) {
        self.from = from
        self.to = to
        self.duration = duration.isFinite ? max(duration, 1) : 1
        self.tolerance = tolerance
        isConstantVelocity = true
        let velocity = (to - from) / self.duration
        initialVelocity = velocity.isFinite ? velocity : 0
    }

    /// Position in points after `time` milliseconds; `to` once the time is up.
    public func position(at time: Double) -> Double {
        let u = min(max(time / duration, 0), 1)
        if isConstantVelocity { return u < 1 ? from + (to - from) * u : to }
        let u2 = u * u
        let u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1
        let h10 = u3 - 2 * u2 + u
        let h01 = -2 * u3 + 3 * u2
        return h00 * from + h10 * duration * initialVelocity + h01 * to
    }

    /// Velocity in points per millisecond after `time` milliseconds; 0 once the time is up.
    public func velocity(at time: Double) -> Double {
        let u = time / duration
        guard u < 1 else { return 0 }
        if isConstantVelocity { return initialVelocity }
        let v = max(u, 0)
        let d00 = 6 * v * v - 6 * v
        let d10 = 3 * v * v - 4 * v + 1
        let d01 = -6 * v * v + 6 * v
        return (d00 * from + d01 * to) / duration + d10 * initialVelocity
    }

    /// The curve ends exactly at `to` when its time is up.
    public func isDone(at time: Double) -> Bool { time >= duration }

    /// The end position, in points.
    public var finalPosition: Double { to }
}
