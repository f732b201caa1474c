// Friction until an edge, then a spring back to it (or a dead stop when bounces is off).
import Foundation

/// One axis of a scroll view's motion after the finger lifts, composed from friction and a
/// spring the way UIScrollView moves:
///
/// - inside the range, friction decelerates; if its resting point lies past an edge, the
///   spring takes over at the moment the edge is crossed, with the velocity friction had
///   there (with `bounces`), or the motion stops dead at the edge (without);
/// - released past an edge, the spring pulls back to it, unless the content was flung back
///   toward the range hard enough for friction to carry it inside.
public struct BouncingScrollSimulation: Simulation {
    private enum Segment: Sendable {
        case friction(FrictionSimulation)
        case spring(SpringSimulation)
        case rest(Double)

        func position(at t: Double) -> Double {
            switch self {
            case .friction(let f): f.position(at: t)
            case .spring(let s): s.position(at: t)
            case .rest(let x): x
            }
        }

        func velocity(at t: Double) -> Double {
            switch self {
            case .friction(let f): f.velocity(at: t)
            case .spring(let s): s.velocity(at: t)
            case .rest: 0
            }
        }

        func isDone(at t: Double) -> Bool {
            switch self {
            case .friction(let f): f.isDone(at: t)
            case .spring(let s): s.isDone(at: t)
            case .rest: true
            }
        }

        var finalPosition: Double {
            switch self {
            case .friction(let f): f.finalPosition
            case .spring(let s): s.target
            case .rest(let x): x
            }
        }
    }

    private let first: Segment
    /// Milliseconds after the start at which `second` takes over.
    private let handoffTime: Double
    private let second: Segment?
    /// What "settled" means for every segment.
    public let tolerance: Tolerance

    /// Creates the motion of content at `position` (points) moving at `velocity` (points per
    /// millisecond) within the scrollable `range` (points), decelerating by `rate` per
    /// millisecond. Without `bounces` a start outside the range is first clamped into it.
    public init(position: Double, velocity: Double, range: ClosedRange<Double>, rate: Double,
                bounces: Bool, spring: SpringSimulation.Parameters = .bounce,
                tolerance: Tolerance = .default) {
        self.tolerance = tolerance
        let lo = range.lowerBound
        let hi = range.upperBound
        let start = bounces ? position : min(max(position, lo), hi)
        let friction = FrictionSimulation(position: start, velocity: velocity, rate: rate, tolerance: tolerance)
        let final = friction.finalPosition

        if start < lo || start > hi {
            let nearEdge = start < lo ? lo : hi
            let farEdge = start < lo ? hi : lo
            let reachesRange = start < lo ? final >= lo : final <= hi
            guard reachesRange else {
                // Not flung back hard enough: the spring alone returns it to the edge.
                first = .spring(SpringSimulation(from: start, velocity: velocity, to: nearEdge,
                                                 parameters: spring, tolerance: tolerance))
                handoffTime = .infinity
                second = nil
                return
            }
            let overshootsFar = start < lo ? final > farEdge : final < farEdge
            first = .friction(friction)
            if overshootsFar, let t = friction.time(at: farEdge) {
                handoffTime = t
                second = .spring(SpringSimulation(from: farEdge, velocity: friction.velocity(at: t), to: farEdge,
                                                  parameters: spring, tolerance: tolerance))
            } else {
                handoffTime = .infinity
                second = nil
            }
            return
        }

        first = .friction(friction)
        guard final < lo || final > hi else {
            handoffTime = .infinity
            second = nil
            return
        }
        let edge = final < lo ? lo : hi
        let t = friction.time(at: edge) ?? 0
        handoffTime = t
        if bounces {
            second = .spring(SpringSimulation(from: edge, velocity: friction.velocity(at: t), to: edge,
                                              parameters: spring, tolerance: tolerance))
        } else {
            second = .rest(edge)
        }
    }

    /// Milliseconds after the start at which the content reaches an edge and the spring (or
    /// the dead stop) takes over; nil when friction alone finishes the motion.
    public var edgeTime: Double? { second == nil ? nil : handoffTime }

    /// Position in points after `time` milliseconds.
    public func position(at time: Double) -> Double {
        if let second, time >= handoffTime { return second.position(at: time - handoffTime) }
        return first.position(at: time)
    }

    /// Velocity in points per millisecond after `time` milliseconds.
    public func velocity(at time: Double) -> Double {
        if let second, time >= handoffTime { return second.velocity(at: time - handoffTime) }
        return first.velocity(at: time)
    }

    /// Whether the last segment has settled after `time` milliseconds.
    public func isDone(at time: Double) -> Bool {
        if let second { return time >= handoffTime && second.isDone(at: time - handoffTime) }
        return first.isDone(at: time)
    }

    /// Where the content comes to rest, in points: the friction's resting point when it stays
    /// inside the range, otherwise the edge it ran into.
    public var finalPosition: Double { (second ?? first).finalPosition }
}
