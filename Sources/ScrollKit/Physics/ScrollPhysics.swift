// The scroll policy in one value: release velocity (threshold, cap, carried momentum), where a
// release comes to rest (friction, paging) and the motion that gets it there (friction, springs).
import Foundation

/// How a scroll view turns a finger's release into motion, as Flutter's `ScrollPhysics` gathers
/// it: one value, pure, with every constant's source beside it. A `ScrollView` builds it from
/// its properties (`decelerationRate`, `bounces`, `isPagingEnabled`) and asks it at each
/// release; tests ask it directly.
///
/// Units: points, milliseconds, points per millisecond.
public struct ScrollPhysics: Hashable, Sendable {
    /// 0.05 pt/ms (50 pt/s): slower releases count as "no velocity", so a drag that ends
    /// slowly does not drift (Flutter's kMinFlingVelocity, 50 logical px/s).
    public static let minimumFlingVelocity = 0.05

    /// 8 pt/ms (8000 pt/s): the fastest release velocity on an axis; faster estimates (a glitchy
    /// sample) are cut to it. Flutter's kMaxFlingVelocity (8000 logical px/s,
    /// gestures/constants.dart), which its iOS `BouncingScrollPhysics` uses too; at 0.998 per ms
    /// it travels 4 000 pt, several screens, as the fastest iPhone flicks do.
    public static let maximumFlingVelocity = 8.0

    /// Carried momentum fit, Flutter's `BouncingScrollPhysics.carriedMomentum` (flutter/flutter
    /// issue 11066, PR 11685: fitted side by side against a real UIScrollView): a fling made
    /// while the content still moves adds `carriedMomentumFactor · |v|^carriedMomentumExponent`
    /// (v in pt/s, the content's velocity when the finger caught it) when both go the same way.
    public static let carriedMomentumFactor = 0.000816
    /// The exponent of the carried-momentum fit (dimensionless; see `carriedMomentumFactor`).
    public static let carriedMomentumExponent = 1.967
    /// 40 000 pt/s = 40 pt/ms: the fit's own cap on the carried velocity (Flutter's
    /// `carriedMomentum`), far above what it reaches from a capped fling.
    public static let maximumCarriedMomentum = 40.0

    /// Fraction of the velocity kept per millisecond, strictly between 0 and 1
    /// (`ScrollView.decelerationRate`); other values are clamped by `FrictionSimulation`.
    public var decelerationRate: Double
    /// Whether content may go past its edges and spring back (`ScrollView.bounces`).
    public var bounces: Bool
    /// Whether releases come to rest on page boundaries (`ScrollView.isPagingEnabled`).
    public var isPagingEnabled: Bool
    /// The spring that brings content back to an edge.
    public var bounceSpring: SpringSimulation.Parameters
    /// The spring that settles a paging scroll view on its page.
    public var pagingSpring: SpringSimulation.Parameters

    /// Physics with iOS's constants: 0.998 per ms (UIScrollView.DecelerationRate.normal),
    /// bounces, no paging.
    public init(decelerationRate: Double = 0.998, bounces: Bool = true, isPagingEnabled: Bool = false,
                bounceSpring: SpringSimulation.Parameters = .bounce, pagingSpring: SpringSimulation.Parameters = .paging) {
        self.decelerationRate = decelerationRate
        self.bounces = bounces
        self.isPagingEnabled = isPagingEnabled
        self.bounceSpring = bounceSpring
        self.pagingSpring = pagingSpring
    }

    // MARK: Release velocity

    /// The velocity content is released with on one axis, in pt/ms: the finger's `velocity`
    /// (content direction), cut to `maximumFlingVelocity`, plus `carried` (from
    /// `carriedMomentum`) when both go the same way; zero below `minimumFlingVelocity` or when
    /// not finite.
    public func releaseVelocity(_ velocity: Double, carrying carried: Double = 0) -> Double {
        guard velocity.isFinite, abs(velocity) >= Self.minimumFlingVelocity else { return 0 }
        var v = min(max(velocity, -Self.maximumFlingVelocity), Self.maximumFlingVelocity)
        if carried.isFinite, carried != 0, (carried > 0) == (v > 0), !isPagingEnabled { v += carried }
        return v
    }

    /// The part of a moving content's `velocity` (pt/ms) that a fling caught during it carries
    /// into its own, in pt/ms, with the sign of `velocity`: Flutter's fit, computed in pt/s.
    /// Paging scroll views carry nothing: a fling there moves one page, however fast.
    public func carriedMomentum(_ velocity: Double) -> Double {
        guard velocity.isFinite, velocity != 0, !isPagingEnabled else { return 0 }
        let perSecond = abs(velocity) * 1000
        let carried = min(Self.carriedMomentumFactor * pow(perSecond, Self.carriedMomentumExponent) / 1000,
                          Self.maximumCarriedMomentum)
        return velocity < 0 ? -carried : carried
    }

    // MARK: Resting point and motion

    /// Where content released at `position` with `velocity` comes to rest on an axis whose
    /// offsets may rest in `range` and whose page is `pageSize` long: the paging choice, or
    /// friction's closed-form resting point `x0 − v0 / ln d` (past an edge: the edge it bounces
    /// back to, or stops at without `bounces`).
    public func restingPoint(from position: Double, velocity: Double, range: ClosedRange<Double>,
                             pageSize: Double) -> Double {
        if isPagingEnabled {
            return Paging.target(offset: position, velocity: velocity, pageSize: pageSize, range: range)
        }
        return momentum(from: position, velocity: velocity, range: range).finalPosition
    }

    /// Friction until an edge, then the bounce spring (or a dead stop without `bounces`).
    public func momentum(from position: Double, velocity: Double, range: ClosedRange<Double>) -> BouncingScrollSimulation {
        BouncingScrollSimulation(position: position, velocity: velocity, range: range, rate: decelerationRate,
                                 bounces: bounces, spring: bounceSpring)
    }

    /// The motion after a release on one axis, toward `target` (already within `range`), which
    /// is `natural` (the resting point) unless a delegate moved it, and where the content comes
    /// to rest (`target`, except when the natural momentum from `position` ends elsewhere
    /// because the content moved meanwhile). Paging springs onto the page; momentum otherwise,
    /// with the velocity re-solved to land exactly on a moved target. nil when the content
    /// already rests there.
    public func release(from position: Double, velocity: Double, range: ClosedRange<Double>, natural: Double,
                        target: Double) -> (simulation: any Simulation, rest: Double)? {
        let simulation: any Simulation
        var rest = target
        if isPagingEnabled {
            simulation = SpringSimulation(from: position, velocity: velocity, to: target, parameters: pagingSpring)
        } else if abs(target - natural) < Self.samePointTolerance {
            let momentum = momentum(from: position, velocity: velocity, range: range)
            simulation = momentum
            // Exactly `target` unless the delegate moved the content while it was asked.
            rest = momentum.finalPosition
        } else {
            // The target was moved: keep the deceleration rate and solve for the velocity
            // whose closed-form resting point is exactly the new target.
            simulation = FrictionSimulation(position: position,
                                            velocity: FrictionSimulation.velocity(toTravel: target - position,
                                                                                  rate: decelerationRate),
                                            rate: decelerationRate)
        }
        // Already resting on the target: nothing to animate. Anything else, however small, runs
        // (a nearly-done motion snaps onto the target on the next frame).
        if simulation.isDone(at: 0) && abs(rest - position) < Self.samePointTolerance { return nil }
        return (simulation, rest)
    }

    /// 0.001 pt: targets (and positions) closer than this are the same point; a delegate's
    /// `targetContentOffset` comes back through floating-point arithmetic (decision).
    public static let samePointTolerance = 0.001

    // MARK: Rubber band

    /// The offset shown on an axis whose offsets may rest in `range`, for a finger that would
    /// put the content at `virtual` without edges, on a viewport `dimension` points long:
    /// inside the range unchanged, past an edge the rubber band (`RubberBand`).
    public static func displayed(virtual: Double, range: ClosedRange<Double>, dimension: Double) -> Double {
        mapPastEdges(virtual, range: range) { RubberBand.displayed(overshoot: $0, dimension: dimension) }
    }

    /// The inverse of `displayed(virtual:range:dimension:)`: where a finger must be for the
    /// content to show at `displayed`.
    public static func virtual(displayed: Double, range: ClosedRange<Double>, dimension: Double) -> Double {
        mapPastEdges(displayed, range: range) { RubberBand.overshoot(forDisplayed: $0, dimension: dimension) }
    }

    private static func mapPastEdges(_ value: Double, range: ClosedRange<Double>, _ map: (Double) -> Double) -> Double {
        if value < range.lowerBound { return range.lowerBound - map(range.lowerBound - value) }
        if value > range.upperBound { return range.upperBound + map(value - range.upperBound) }
        return value
    }
}
