// A spring that pulls content back to an edge (or onto a page) without visible oscillation.
import Foundation

/// A damped spring toward `target`, critically damped or overdamped, in closed form.
///
/// With natural angular frequency ω and damping ratio ζ ≥ 1 the displacement never changes
/// sign more than once and never rings, which is how UIScrollView's bounce looks: the content
/// returns to the edge and stops there.
public struct SpringSimulation: Simulation {
    /// Stiffness and damping of a spring with unit mass.
    public struct Parameters: Hashable, Sendable {
        /// Natural angular frequency √(k/m), in radians per millisecond.
        public var angularFrequency: Double
        /// Damping ratio ζ; values below 1 are raised to 1 (the scroll view never rings).
        public var dampingRatio: Double

        /// Creates parameters from ω (radians per millisecond) and ζ.
        public init(angularFrequency: Double, dampingRatio: Double) {
            self.angularFrequency = angularFrequency
            self.dampingRatio = dampingRatio
        }

        /// The edge bounce: critically damped, ω = 0.01 rad/ms (stiffness 100 s⁻² at unit mass).
        /// Decision, matched by eye to UIScrollView: a 100 pt overscroll is mostly back within
        /// 0.4 s and settled within 0.9 s, and an edge hit at v gives a peak overshoot of
        /// v / (ω·e) (2 pt/ms → 74 pt), in the range iOS shows.
        public static let bounce = Parameters(angularFrequency: 0.01, dampingRatio: 1)

        /// Paging: critically damped, ω = 0.02 rad/ms (decision). Twice as stiff as the
        /// bounce so a page lands in about 0.35 s, like UIScrollView's paging.
        public static let paging = Parameters(angularFrequency: 0.02, dampingRatio: 1)
    }

    /// Where the spring comes to rest, in points.
    public let target: Double
    /// The spring's constants.
    public let parameters: Parameters
    /// What "settled" means: within `distance` of the target and slower than `velocity`.
    public let tolerance: Tolerance
    private let omega: Double
    private let zeta: Double
    // Critical: x − T = (a + b·t)·e^(−ω t). Overdamped: x − T = a·e^(r1 t) + b·e^(r2 t).
    private let a: Double
    private let b: Double
    private let r1: Double
    private let r2: Double

    /// Creates a spring starting at `position` (points) with `velocity` (points per
    /// millisecond), pulling toward `target` (points).
    public init(from position: Double, velocity: Double, to target: Double,
                parameters: Parameters = .bounce, tolerance: Tolerance = .default) {
        self.target = target
        self.parameters = parameters
        self.tolerance = tolerance
        omega = parameters.angularFrequency > 0 ? parameters.angularFrequency : Parameters.bounce.angularFrequency
        zeta = max(parameters.dampingRatio, 1)
        let displacement = position - target
        if zeta == 1 {
            r1 = -omega
            r2 = -omega
            a = displacement
            b = velocity + omega * displacement
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            r1 = -omega * (zeta - root)
            r2 = -omega * (zeta + root)
            b = (velocity - r1 * displacement) / (r2 - r1)
            a = displacement - b
        }
    }

    /// Position in points after `time` milliseconds.
    public func position(at time: Double) -> Double {
        let t = max(time, 0)
        if zeta == 1 { return target + (a + b * t) * Foundation.exp(-omega * t) }
        return target + a * Foundation.exp(r1 * t) + b * Foundation.exp(r2 * t)
    }

    /// Velocity in points per millisecond after `time` milliseconds.
    public func velocity(at time: Double) -> Double {
        let t = max(time, 0)
        if zeta == 1 { return (b - omega * (a + b * t)) * Foundation.exp(-omega * t) }
        return a * r1 * Foundation.exp(r1 * t) + b * r2 * Foundation.exp(r2 * t)
    }

    /// The spring always rests on its target.
    public var finalPosition: Double { target }

    /// Whether the spring is within tolerance of the target and nearly still.
    public func isDone(at time: Double) -> Bool {
        abs(position(at: time) - target) < tolerance.distance && abs(velocity(at: time)) < tolerance.velocity
    }
}
