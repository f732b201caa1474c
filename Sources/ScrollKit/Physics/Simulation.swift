// The contract every motion curve follows: a pure value of elapsed time, never a clock.
import Foundation

/// How close a simulation must get to its end before it counts as finished.
public struct Tolerance: Hashable, Sendable {
    /// Largest distance from the resting point that counts as "there", in points.
    public var distance: Double
    /// Largest speed that counts as "stopped", in points per millisecond.
    public var velocity: Double

    /// Creates a tolerance from a distance (points) and a speed (points per millisecond).
    public init(distance: Double, velocity: Double) {
        self.distance = distance
        self.velocity = velocity
    }

    /// The scroll view's default.
    ///
    /// 0.5 pt: half a point is one device pixel at 2× scale, so snapping the last half point
    /// is invisible, while a smaller value only lengthens an exponential tail nobody sees
    /// (decision). 0.01 pt/ms (10 pt/s, a sixth of a point per 60 Hz frame): slower than that
    /// reads as stopped (decision, the same order as Flutter's default scroll tolerance).
    public static let `default` = Tolerance(distance: 0.5, velocity: 0.01)
}

/// A one-dimensional motion: position and velocity as functions of the time elapsed since it
/// started. Implementations are values; they never read a clock, so the same inputs always
/// give the same frames (the replay and the live program must agree).
public protocol Simulation: Sendable {
    /// Position in points after `time` milliseconds.
    func position(at time: Double) -> Double
    /// Velocity in points per millisecond after `time` milliseconds.
    func velocity(at time: Double) -> Double
    /// Whether the motion has settled (within `tolerance`) after `time` milliseconds.
    func isDone(at time: Double) -> Bool
    /// Where the motion comes to rest, in points.
    var finalPosition: Double { get }
    /// What "settled" means for this simulation.
    var tolerance: Tolerance { get }
}
