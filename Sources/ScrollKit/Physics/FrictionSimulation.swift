// UIScrollView's deceleration: velocity decays by a constant factor every millisecond.
import Foundation

/// Exponential friction, `v(t) = v0 · d^t` with `t` in milliseconds.
///
/// Integrating gives `x(t) = x0 + v0 · (d^t − 1) / ln d`, so the resting point has the closed
/// form `x∞ = x0 − v0 / ln d` (1 pt/ms at 0.998 travels 499.5 pt; at 0.99, 99.5 pt), and the
/// time to reach any position on the way has one too.
public struct FrictionSimulation: Simulation {
    /// Position at time 0, in points.
    public let initialPosition: Double
    /// Velocity at time 0, in points per millisecond.
    public let initialVelocity: Double
    /// Fraction of the velocity kept after each millisecond, strictly between 0 and 1.
    public let rate: Double
    /// What "settled" means; only `distance` is used, measured to `finalPosition`.
    public let tolerance: Tolerance
    private let logRate: Double

    /// Creates friction starting at `position` (points) with `velocity` (points per
    /// millisecond), keeping `rate` of the velocity per millisecond. A rate outside (0, 1)
    /// is clamped into [0.5, 0.99999] so the motion always ends; callers validate user input
    /// (see `ScrollView.DecelerationRate.isValid`) before it gets here.
    public init(position: Double, velocity: Double, rate: Double, tolerance: Tolerance = .default) {
        initialPosition = position
        initialVelocity = velocity
        self.rate = Self.usableRate(rate)
        logRate = Foundation.log(self.rate)
        self.tolerance = tolerance
    }

    /// The initial velocity (points per millisecond) that makes friction with `rate` come to
    /// rest exactly `distance` points away: the inverse of the closed-form resting point.
    public static func velocity(toTravel distance: Double, rate: Double) -> Double {
        -distance * Foundation.log(usableRate(rate))
    }

    /// Keeps the rate where the motion still ends and still moves: [0.5, 0.99999] per ms
    /// (decision; UIKit's own rates are 0.99 and 0.998). Non-finite rates fall back to
    /// 0.998 per ms, UIScrollView.DecelerationRate.normal.
    static func usableRate(_ rate: Double) -> Double {
        rate.isFinite ? min(max(rate, 0.5), 0.99999) : 0.998
    }

    /// Position in points after `time` milliseconds (time 0 before the start).
    public func position(at time: Double) -> Double {
        let t = max(time, 0)
        return initialPosition + initialVelocity * (Foundation.pow(rate, t) - 1) / logRate
    }

    /// Velocity in points per millisecond after `time` milliseconds.
    public func velocity(at time: Double) -> Double {
        initialVelocity * Foundation.pow(rate, max(time, 0))
    }

    /// The resting point `x0 − v0 / ln d`, in points.
    public var finalPosition: Double { initialPosition - initialVelocity / logRate }

    /// When the motion passes `position`, in milliseconds; nil when it never gets there
    /// (behind the start, or at or beyond the resting point).
    public func time(at position: Double) -> Double? {
        if position == initialPosition { return 0 }
        guard initialVelocity != 0 else { return nil }
        // d^t = 1 + (x − x0)·ln d / v0, which must lie in (0, 1].
        let decay = 1 + (position - initialPosition) * logRate / initialVelocity
        guard decay > 0, decay <= 1 else { return nil }
        return Foundation.log(decay) / logRate
    }

    /// Milliseconds until the remaining distance to `finalPosition` drops below
    /// `tolerance.distance`.
    public var duration: Double {
        // Remaining distance is |v(t) / ln d| = |v0| · d^t / |ln d|.
        let remainingAtStart = abs(initialVelocity / logRate)
        guard remainingAtStart > tolerance.distance else { return 0 }
        return Foundation.log(tolerance.distance / remainingAtStart) / logRate
    }

    /// Whether less than `tolerance.distance` is left to travel after `time` milliseconds.
    public func isDone(at time: Double) -> Bool { time >= duration }
}
