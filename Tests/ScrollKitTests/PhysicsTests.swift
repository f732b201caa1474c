// Physics as tables of expected values with tolerances, plus round trips.
import Foundation
import Testing
@testable import ScrollKit

@Suite("Friction deceleration")
struct FrictionTests {
    // (start pt, velocity pt/ms, rate per ms, closed-form resting point pt)
    static let restingPoints: [(Double, Double, Double, Double)] = [
        (0, 1, 0.998, 499.5),       // spec: 1 pt/ms at .normal
        (0, 1, 0.99, 99.5),         // spec: 1 pt/ms at .fast
        (110, 1.5, 0.998, 859.25),  // the 1.5 pt/ms fling of the scroll-view tests
        (1000, -2, 0.99, 801.0),
        (300, 0, 0.998, 300),
    ]

    @Test("resting point is x0 − v0 / ln d", arguments: restingPoints)
    func restingPoint(start: Double, velocity: Double, rate: Double, expected: Double) {
        let f = FrictionSimulation(position: start, velocity: velocity, rate: rate)
        #expect(abs(f.finalPosition - expected) < 0.01)
        // The motion really gets there: within the tolerance once it is done.
        #expect(abs(f.position(at: f.duration) - f.finalPosition) <= f.tolerance.distance + 1e-9)
        #expect(f.isDone(at: f.duration))
    }

    @Test("velocity decays by the rate every millisecond")
    func velocityDecay() {
        let f = FrictionSimulation(position: 0, velocity: 2, rate: 0.998)
        #expect(abs(f.velocity(at: 0) - 2) < 1e-12)
        #expect(abs(f.velocity(at: 1) - 2 * 0.998) < 1e-12)
        #expect(abs(f.velocity(at: 500) - 2 * pow(0.998, 500)) < 1e-12)
        // Velocity is the derivative of position.
        let t = 250.0
        let numeric = (f.position(at: t + 0.01) - f.position(at: t - 0.01)) / 0.02
        #expect(abs(numeric - f.velocity(at: t)) < 1e-6)
    }

    @Test("time(at: position(at: t)) == t", arguments: [0.0, 1, 16.7, 100, 500, 1000, 2500])
    func roundTrip(t: Double) {
        for rate in [0.998, 0.99] {
            for v0 in [1.5, -0.8] {
                let f = FrictionSimulation(position: 200, velocity: v0, rate: rate)
                let x = f.position(at: t)
                let back = f.time(at: x)
                #expect(back != nil)
                #expect(abs((back ?? -1) - t) < 1e-6 * max(1, t))
            }
        }
    }

    @Test("positions behind the start or past the resting point are never reached")
    func unreachable() {
        let f = FrictionSimulation(position: 0, velocity: 1, rate: 0.998)
        #expect(f.time(at: -1) == nil)
        #expect(f.time(at: 500) == nil)
        #expect(f.time(at: 499) != nil)
    }

    @Test("the velocity solved for a distance travels exactly that distance")
    func solvedVelocity() {
        for (distance, rate) in [(300.0, 0.998), (-120, 0.99), (0.75, 0.998)] {
            let v = FrictionSimulation.velocity(toTravel: distance, rate: rate)
            let f = FrictionSimulation(position: 50, velocity: v, rate: rate)
            #expect(abs(f.finalPosition - (50 + distance)) < 1e-9)
        }
    }

    @Test("invalid rates are clamped so the motion still ends")
    func invalidRates() {
        for rate in [1.0, 1.5, 0, -3, .nan, .infinity] {
            let f = FrictionSimulation(position: 0, velocity: 1, rate: rate)
            #expect(f.finalPosition.isFinite)
            #expect(f.duration.isFinite)
        }
        #expect(!ScrollView.DecelerationRate(rawValue: 1).isValid)
        #expect(!ScrollView.DecelerationRate(rawValue: .nan).isValid)
        #expect(ScrollView.DecelerationRate.normal.isValid)
        #expect(ScrollView.DecelerationRate.fast.rawValue == 0.99)
    }
}

@Suite("Rubber band")
struct RubberBandTests {
    // Published values for d = 960 (squareb, "Analysis of Apple's rubber band scrolling").
    static let table: [(Double, Double)] = [(5, 2.74), (10, 5.47), (100, 52.02), (400, 178.98), (960, 340.65)]

    @Test("b = (1 − 1/(x·0.55/d + 1))·d", arguments: table)
    func values(x: Double, expected: Double) {
        #expect(abs(RubberBand.displayed(overshoot: x, dimension: 960) - expected) < 0.01)
        #expect(abs(RubberBand.displayed(overshoot: -x, dimension: 960) + expected) < 0.01)
    }

    @Test("continuous, monotonic, always less than the finger overshoot")
    func shape() {
        var previous = 0.0
        for i in 1...2000 {
            let x = Double(i) * 2.5
            let b = RubberBand.displayed(overshoot: x, dimension: 600)
            #expect(b > previous)
            #expect(b < x)
            #expect(b < 600)
            #expect(b - previous < 2.5)   // no jumps: slope ≤ 0.55 < 1
            previous = b
        }
        #expect(RubberBand.displayed(overshoot: 0, dimension: 600) == 0)
    }

    @Test("the inverse recovers the finger overshoot", arguments: [0.5, 10, 123.4, 800, 3000])
    func inverse(x: Double) {
        let b = RubberBand.displayed(overshoot: x, dimension: 600)
        #expect(abs(RubberBand.overshoot(forDisplayed: b, dimension: 600) - x) < 1e-6 * max(1, x))
        #expect(abs(RubberBand.overshoot(forDisplayed: -b, dimension: 600) + x) < 1e-6 * max(1, x))
    }

    @Test("degenerate dimensions give no overshoot and no crash")
    func degenerate() {
        #expect(RubberBand.displayed(overshoot: 50, dimension: 0) == 0)
        #expect(RubberBand.overshoot(forDisplayed: 50, dimension: 0) == 0)
        #expect(RubberBand.overshoot(forDisplayed: 700, dimension: 600).isFinite)
    }
}

@Suite("Spring back to the edge")
struct SpringTests {
    @Test("critically damped from an overscroll: returns without crossing and settles exactly")
    func fromOverscroll() {
        let s = SpringSimulation(from: -120, velocity: 0, to: 0)
        var settled: Double?
        for step in 0...3000 {
            let t = Double(step)
            #expect(s.position(at: t) <= 0)   // never overshoots into the content
            if settled == nil, s.isDone(at: t) { settled = t }
        }
        // Settles within a second, like UIScrollView's bounce.
        #expect((settled ?? .infinity) < 1000)
        #expect(abs(s.position(at: settled ?? 0)) < s.tolerance.distance)
        #expect(s.finalPosition == 0)
    }

    @Test("hit at the edge with velocity v: peaks at v/(ω·e) and comes back")
    func fromEdge() {
        let v = 2.0
        let s = SpringSimulation(from: 1000, velocity: v, to: 1000)
        let omega = SpringSimulation.Parameters.bounce.angularFrequency
        let peakTime = 1 / omega
        #expect(abs(s.position(at: peakTime) - (1000 + v / (omega * M_E))) < 1e-6)
        #expect(abs(s.velocity(at: peakTime)) < 1e-9)
        #expect(abs(s.velocity(at: 0) - v) < 1e-12)
        #expect(s.position(at: 5 * peakTime) > 1000)   // approaches from outside, no ringing
        #expect(s.isDone(at: 1500))
    }

    @Test("overdamped and too-low damping ratios never oscillate", arguments: [0.3, 1.0, 1.6])
    func noOscillation(zeta: Double) {
        let p = SpringSimulation.Parameters(angularFrequency: 0.012, dampingRatio: zeta)
        let s = SpringSimulation(from: 80, velocity: 0, to: 0, parameters: p)
        for step in 0...4000 { #expect(s.position(at: Double(step)) >= -1e-9) }
        // Velocity matches the derivative.
        let numeric = (s.position(at: 100.01) - s.position(at: 99.99)) / 0.02
        #expect(abs(numeric - s.velocity(at: 100)) < 1e-6)
    }
}

@Suite("Friction running into an edge")
struct BouncingScrollSimulationTests {
    @Test("inside the range it is plain friction")
    func inside() {
        let b = BouncingScrollSimulation(position: 100, velocity: 1, range: 0...2000, rate: 0.998, bounces: true)
        let f = FrictionSimulation(position: 100, velocity: 1, rate: 0.998)
        #expect(b.edgeTime == nil)
        #expect(abs(b.finalPosition - 599.5) < 0.01)
        for t in stride(from: 0.0, through: 3000, by: 250) { #expect(b.position(at: t) == f.position(at: t)) }
    }

    @Test("with bounces the spring takes over at the edge with the velocity friction had")
    func handover() throws {
        let b = BouncingScrollSimulation(position: 900, velocity: 1, range: 0...1000, rate: 0.998, bounces: true)
        let edge = try #require(b.edgeTime)
        let f = FrictionSimulation(position: 900, velocity: 1, rate: 0.998)
        #expect(abs(edge - (f.time(at: 1000) ?? -1)) < 1e-9)
        #expect(abs(b.position(at: edge) - 1000) < 1e-9)
        #expect(abs(b.velocity(at: edge - 1e-6) - b.velocity(at: edge)) < 1e-6)   // continuous
        var peak = 0.0
        var doneAt: Double?
        for step in 0...6000 {
            let t = Double(step)
            peak = max(peak, b.position(at: t))
            if doneAt == nil, b.isDone(at: t) { doneAt = t }
        }
        #expect(peak > 1010)               // it visibly overshoots…
        #expect(b.finalPosition == 1000)   // …and rests on the edge
        let settled = try #require(doneAt)
        #expect(abs(b.position(at: settled) - 1000) < 0.5)
    }

    @Test("without bounces the motion stops dead at the edge")
    func deadStop() throws {
        let b = BouncingScrollSimulation(position: 900, velocity: 1, range: 0...1000, rate: 0.998, bounces: false)
        let edge = try #require(b.edgeTime)
        for step in 0...3000 { #expect(b.position(at: Double(step)) <= 1000 + 1e-9) }
        #expect(b.position(at: edge + 1) == 1000)
        #expect(b.velocity(at: edge + 1) == 0)
        #expect(b.isDone(at: edge))
        #expect(!b.isDone(at: edge - 1))
    }

    @Test("released past an edge: the spring brings it back unless flung well inside")
    func releasedOutside() {
        let back = BouncingScrollSimulation(position: -50, velocity: 0, range: 0...1000, rate: 0.998, bounces: true)
        #expect(back.finalPosition == 0)
        #expect(back.isDone(at: 2000))
        #expect(abs(back.position(at: 2000)) < 0.5)

        let flungIn = BouncingScrollSimulation(position: -50, velocity: 2, range: 0...1000, rate: 0.998, bounces: true)
        #expect(abs(flungIn.finalPosition - (-50 + 2 / 0.0020020027)) < 0.01)
        #expect(flungIn.edgeTime == nil)
    }
}

@Suite("Timed scroll animation curve")
struct AnimationCurveTests {
    @Test("constant velocity: (to − from) / duration throughout, exactly `to` once the time is up")
    func constantVelocity() {
        let c = ScrollAnimationCurve(constantVelocityFrom: 100, to: -500, duration: 300)
        #expect(c.isConstantVelocity && c.initialVelocity == -2)
        for t in stride(from: 0.0, to: 300, by: 7.5) {
            #expect(abs(c.position(at: t) - (100 - 2 * t)) < 1e-9)
            #expect(c.velocity(at: t) == -2)
        }
        #expect(c.position(at: 300) == -500 && c.position(at: 5000) == -500 && c.position(at: -10) == 100)
        #expect(c.velocity(at: 300) == 0 && c.isDone(at: 300) && !c.isDone(at: 299.9))
        let degenerate = ScrollAnimationCurve(constantVelocityFrom: 0, to: 10, duration: .nan)
        #expect(degenerate.duration == 1 && degenerate.position(at: 1) == 10)
    }

    @Test("fresh start: quadratic ease-out from `from` to `to`, monotonic, at rest at the end")
    func easeOut() {
        let c = ScrollAnimationCurve(from: 100, to: 500, duration: 300)
        #expect(c.position(at: 0) == 100)
        #expect(c.position(at: 300) == 500)
        #expect(c.position(at: 1000) == 500)
        #expect(abs(c.initialVelocity - 2 * 400 / 300) < 1e-12)
        #expect(abs(c.position(at: 150) - (100 + 400 * 0.75)) < 1e-9)   // 1 − (1 − ½)² = ¾
        var previous = 100.0
        for t in stride(from: 0.0, through: 300, by: 1) {
            let x = c.position(at: t)
            #expect(x >= previous)
            previous = x
        }
        #expect(c.velocity(at: 300) == 0)
        #expect(c.isDone(at: 300))
        #expect(!c.isDone(at: 299))
    }

    @Test("retargeting keeps the start velocity but never overshoots")
    func retarget() {
        let kept = ScrollAnimationCurve(from: 0, to: 100, duration: 200, initialVelocity: 0.9)
        #expect(abs(kept.velocity(at: 0) - 0.9) < 1e-9)
        let capped = ScrollAnimationCurve(from: 0, to: 100, duration: 200, initialVelocity: 50)
        #expect(abs(capped.initialVelocity - 1.5) < 1e-12)   // 3 × average
        let reversed = ScrollAnimationCurve(from: 0, to: 100, duration: 200, initialVelocity: -3)
        #expect(reversed.initialVelocity == 0)
        for c in [kept, capped, reversed] {
            for t in stride(from: 0.0, through: 200, by: 2) {
                #expect(c.position(at: t) >= -1e-9)
                #expect(c.position(at: t) <= 100 + 1e-9)
            }
        }
    }
}

@Suite("Scroll physics policy")
struct ScrollPhysicsTests {
    @Test("Carried momentum follows Flutter's fit 0.000816·|v|^1.967 (pt/s), with the sign of v")
    func carriedMomentumTable() {
        let physics = ScrollPhysics()
        // (content velocity pt/ms, carried pt/ms), the fit evaluated in pt/s.
        for (v, carried) in [(0.5, 0.16617), (0.8225, 0.44235), (1.0, 0.64967), (2.0, 2.5399), (-1.0, -0.64967)] {
            #expect(abs(physics.carriedMomentum(v) - carried) < 1e-4, "v \(v): \(physics.carriedMomentum(v))")
        }
        // Its own cap, 40 000 pt/s, is far beyond a capped fling…
        #expect(physics.carriedMomentum(1000) == ScrollPhysics.maximumCarriedMomentum)
        #expect(physics.carriedMomentum(.nan) == 0 && physics.carriedMomentum(0) == 0)
        // …and paging carries nothing: a fling there moves one page.
        #expect(ScrollPhysics(isPagingEnabled: true).carriedMomentum(2) == 0)
    }

    @Test("Release velocity: below 0.05 pt/ms nothing, above 8 pt/ms the cap, carried only the same way")
    func releaseVelocity() {
        let physics = ScrollPhysics()
        #expect(physics.releaseVelocity(0.049) == 0)
        #expect(physics.releaseVelocity(0.05) == 0.05)
        #expect(physics.releaseVelocity(20) == 8 && physics.releaseVelocity(-2000) == -8)
        #expect(physics.releaseVelocity(.infinity) == 0 && physics.releaseVelocity(.nan) == 0)
        #expect(physics.releaseVelocity(1.5, carrying: 0.44) == 1.94)
        #expect(physics.releaseVelocity(-1.5, carrying: 0.44) == -1.5)
        // A slow release stays a release without velocity, whatever was carried.
        #expect(physics.releaseVelocity(0.01, carrying: 0.44) == 0)
        // The cap applies to the finger; the carried part comes on top (Flutter adds it after).
        #expect(physics.releaseVelocity(9, carrying: 1) == 9)
    }

    @Test("The issue's case: 1.5 pt/ms again 300 ms into a 1.5 pt/ms deceleration rests about 970 pt on")
    func repeatedFlingTravel() {
        let physics = ScrollPhysics()
        let caught = 1.5 * pow(0.998, 300)
        let v = physics.releaseVelocity(1.5, carrying: physics.carriedMomentum(caught))
        let rest = physics.restingPoint(from: 0, velocity: v, range: 0...100_000, pageSize: 600)
        #expect(abs(rest - 970) < 2, "rests \(rest) pt on")
        #expect(abs(physics.restingPoint(from: 0, velocity: 1.5, range: 0...100_000, pageSize: 600) - 749.25) < 0.01)
    }
}

@Suite("Velocity tracker glitches and re-anchoring")
struct VelocityGlitchTests {
    @Test("A sample jumping faster than 40 pt/ms from the previous one is left out")
    func absurdSampleRejected() {
        var tracker = VelocityTracker()
        for i in 0...10 { tracker.addPosition(CGPoint(x: 0, y: Double(i) * 12), at: Double(i) * 8) }
        tracker.addPosition(CGPoint(x: 0, y: 2120), at: 81)
        #expect(tracker.rejectedSamples == 1)
        #expect(abs(tracker.velocity(at: 82).y - 1.5) < 1e-6)
        // Fast but possible: 30 pt in 1 ms is kept.
        tracker.addPosition(CGPoint(x: 0, y: 150), at: 82)
        #expect(tracker.rejectedSamples == 1)
    }

    @Test("Shifting the samples keeps the velocity: the followed point jumped, the hand did not")
    func shiftKeepsVelocity() {
        var pan = PanGestureRecognizer(minimumDistance: 0, isDirectionalLockEnabled: false)
        pan.touchBegan(at: CGPoint(x: 100, y: 500), time: 0, recognizeImmediately: true)
        for i in 1...12 { _ = pan.touchMoved(to: CGPoint(x: 100, y: 500 - 12 * Double(i)), time: 8 * Double(i)) }
        // One of two fingers lifts: the followed point jumps 50 pt sideways at 96 ms.
        pan.reanchor(to: CGPoint(x: 150, y: 356), time: 96)
        let velocity = pan.touchEnded(at: 100)
        #expect(abs(velocity.y + 1.5) < 1e-6 && abs(velocity.x) < 1e-6, "\(velocity)")
    }
}
