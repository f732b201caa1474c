// Release velocity from recent timestamped positions, robust to a finger that stops first.
import Foundation

/// Estimates the velocity of a finger (or touchpad scroll) from its recent samples.
///
/// Follows Flutter's `VelocityTracker`: a ring of the last 20 samples; only samples within
/// 100 ms of the newest count, and a gap of 40 ms or more between samples (or between the
/// newest sample and the moment of release) means the finger stopped, so nothing older counts.
/// The velocity is the slope at the newest sample of a least-squares quadratic through the
/// samples kept (a straight line when only two are left), so one noisy event does not decide
/// the fling, and an accelerating flick is not averaged down.
public struct VelocityTracker: Sendable {
    /// 20 samples: Flutter's `VelocityTracker._historySize`.
    public static let capacity = 20
    /// 100 ms: Flutter's `_horizonMilliseconds`; older samples say nothing about the release.
    public static let horizon = 100.0
    /// 40 ms: Flutter's `_assumePointerMoveStoppedMilliseconds`; a pause this long is a stop.
    public static let stopGap = 40.0

    private struct Sample: Sendable {
        var time: Double
        var position: CGPoint
    }

    private var samples: [Sample?] = Array(repeating: nil, count: VelocityTracker.capacity)
    private var newestIndex = -1

    /// Creates an empty tracker.
    public init() {}

    /// 40 pt/ms: a sample farther than this per millisecond (counting at least 1 ms, event
    /// times being whole milliseconds) from the one before it is a glitch of the device or
    /// the compositor, not a finger, and is left out of the estimate (decision: five times
    /// `ScrollPhysics.maximumFlingVelocity`; a finger would cross a phone screen in 4 ms).
    public static let maximumSampleSpeed = 40.0

    /// Samples left out as glitches (see `maximumSampleSpeed`).
    public private(set) var rejectedSamples = 0

    /// Records `position` (points) at `time` (milliseconds, event timestamps); a sample that
    /// jumps absurdly far from the previous one (`maximumSampleSpeed`) is left out.
    ///
    /// A sample at the newest one's time replaces it: the finger was at the later position at
    /// that instant. A compositor that stalls can hand on a whole stretch of a swipe at once with
    /// one timestamp; kept side by side, those positions at one time bent the fit so far that
    /// a fast swipe left came out as a slow drift right (decision; Android's VelocityTracker
    /// likewise keeps only the last of several movements with one event time).
    public mutating func addPosition(_ position: CGPoint, at time: Double) {
        guard time.isFinite, position.x.isFinite, position.y.isFinite else { return }
        if newestIndex >= 0, let previous = samples[newestIndex] {
            let distance = hypot(Double(position.x - previous.position.x), Double(position.y - previous.position.y))
            if distance > Self.maximumSampleSpeed * max(time - previous.time, 1) {
                rejectedSamples += 1
                return
            }
            if time == previous.time {
                samples[newestIndex] = Sample(time: time, position: position)
                return
            }
        }
        newestIndex = (newestIndex + 1) % Self.capacity
        samples[newestIndex] = Sample(time: time, position: position)
    }

    /// Moves every sample by `offset` (points): the point being followed jumped without the
    /// hand moving (a second finger went down or one of two lifted), so the samples are
    /// re-expressed for the new point and keep describing the hand's motion.
    public mutating func shift(by offset: CGPoint) {
        guard offset.x.isFinite, offset.y.isFinite else { return }
        for i in samples.indices {
            samples[i]?.position.x += offset.x
            samples[i]?.position.y += offset.y
        }
    }

    /// Forgets every sample.
    public mutating func reset() {
        samples = Array(repeating: nil, count: Self.capacity)
        newestIndex = -1
    }

    /// The newest sample's time, in milliseconds, if any.
    public var lastSampleTime: Double? { newestIndex < 0 ? nil : samples[newestIndex]?.time }

    /// The velocity in points per millisecond as of `time` (the release), zero when the
    /// samples are too few, too old, or the finger paused for `stopGap` before `time`.
    public func velocity(at time: Double) -> CGPoint {
        guard newestIndex >= 0, let newest = samples[newestIndex] else { return .zero }
        if time - newest.time >= Self.stopGap { return .zero }

        var kept: [Sample] = [newest]
        var previous = newest
        var index = newestIndex
        for _ in 1..<Self.capacity {
            index = (index - 1 + Self.capacity) % Self.capacity
            guard let sample = samples[index] else { break }
            let age = newest.time - sample.time
            let gap = previous.time - sample.time
            if age > Self.horizon || gap >= Self.stopGap || gap < 0 { break }
            kept.append(sample)
            previous = sample
        }
        guard kept.count >= 2 else { return .zero }

        let times = kept.map { $0.time - newest.time }
        let vx = Self.slopeAtZero(times: times, values: kept.map { Double($0.position.x) })
        let vy = Self.slopeAtZero(times: times, values: kept.map { Double($0.position.y) })
        return CGPoint(x: vx, y: vy)
    }

    /// Least-squares slope at τ = 0 (samples newest first): quadratic when the samples span
    /// three distinct times and its slope points the way the newest step went, otherwise a
    /// straight line; zero when all samples share one time.
    ///
    /// Fitted through a jump, a parabola can turn back at its end: a swipe left whose first
    /// 337 pt a stalled compositor handed on in one burst, 3 ms after the touch, then 28 pt
    /// steps every 5 ms, came out at +8 pt/ms, a fling right that kept the page (recorded in a
    /// live test under load; decision: the straight line through the same samples points left).
    static func slopeAtZero(times: [Double], values: [Double]) -> Double {
        let distinctTimes = Set(times).count
        if distinctTimes >= 3, let c = quadraticFit(times: times, values: values) {
            let newestStep = values[0] - values[1]
            if c * newestStep >= 0 { return c }
        }
        return linearSlope(times: times, values: values)
    }

    private static func linearSlope(times: [Double], values: [Double]) -> Double {
        let n = Double(times.count)
        let meanT = times.reduce(0, +) / n
        let meanX = values.reduce(0, +) / n
        var num = 0.0
        var den = 0.0
        for (t, x) in zip(times, values) {
            num += (t - meanT) * (x - meanX)
            den += (t - meanT) * (t - meanT)
        }
        return den > 0 ? num / den : 0
    }

    /// The linear coefficient of x(τ) ≈ c0 + c1·τ + c2·τ², from the normal equations;
    /// nil when they are too ill-conditioned to trust.
    private static func quadraticFit(times: [Double], values: [Double]) -> Double? {
        var s = [Double](repeating: 0, count: 5)   // Σ τ^k
        var r = [Double](repeating: 0, count: 3)   // Σ x·τ^k
        for (t, x) in zip(times, values) {
            var p = 1.0
            for k in 0..<5 {
                s[k] += p
                if k < 3 { r[k] += x * p }
                p *= t
            }
        }
        // Cramer's rule on the symmetric 3×3 system [[s0 s1 s2][s1 s2 s3][s2 s3 s4]]·c = r.
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        let d = det(m)
        // Relative singularity test (dimensionless, decision): a determinant below a
        // billionth of the diagonal product means the times barely spread (near-duplicate
        // timestamps), and the straight line is the safer estimate.
        let scale = s[0] * s[2] * s[4]
        guard d.isFinite, scale > 0, abs(d) > 1e-9 * scale else { return nil }
        let m1 = [[s[0], r[0], s[2]], [s[1], r[1], s[3]], [s[2], r[2], s[4]]]
        let c1 = det(m1) / d
        return c1.isFinite ? c1 : nil
    }
}
