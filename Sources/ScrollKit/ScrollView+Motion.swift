// Every change of the scroll view's motion goes through the functions here: one helper for
// delegate re-entrancy, the hand-over from a running motion to a new one, the ends of motions
// with their delegate calls, and the frame ticks that advance them.
import Foundation

extension ScrollView {
    // MARK: Delegate re-entrancy

    /// Runs `body`, which may reach the delegate (directly, or through `scrollViewDidScroll` and
    /// `scrollViewDidZoom` when it moves the content or the scale), and tells whether the motion
    /// is still the one that was running. False means a delegate started something new from
    /// inside (a scroll, a zoom, a stop): the caller must not go on with its own sequence.
    @discardableResult
    func stillOwnsMotion(after body: () -> Void) -> Bool {
        let generation = motionGeneration
        body()
        return generation == motionGeneration
    }

    /// Calls the delegate, if any, and tells whether the motion survived the call (see
    /// `stillOwnsMotion(after:)`).
    @discardableResult
    func notifyDelegate(_ call: (ScrollViewDelegate) -> Void) -> Bool {
        stillOwnsMotion { if let delegate { call(delegate) } }
    }

    // MARK: Hand-over

    /// Running motions a new one may leave in place for itself to take over.
    struct KeptMotion: OptionSet {
        let rawValue: UInt8
        /// A scroll animation that the new step or animation retargets.
        static let scrollAnimation = KeptMotion(rawValue: 1 << 0)
        /// A programmatic or wheel zoom animation that the new zoom retargets.
        static let zoomAnimation = KeptMotion(rawValue: 1 << 1)
        /// A deceleration that a touch catches (tap-to-stop) instead of ending it.
        static let deceleration = KeptMotion(rawValue: 1 << 2)
    }

    /// Makes way for a new motion, as UIKit's programmatic methods do: a zoom animation ends
    /// with the `scrollViewDidEndZooming` owed to its start (a bounce lands on its limit first),
    /// a deceleration with `scrollViewDidEndDecelerating`, a scroll animation stops silently;
    /// what `kept` names is left running. Touch sessions are the caller's business. Returns
    /// false when a delegate started something new meanwhile.
    func makeWay(keeping kept: KeptMotion = []) -> Bool {
        switch motion {
        case .zoomAnimating where !kept.contains(.zoomAnimation):
            return interruptZoomAnimation()
        case .decelerating where !kept.contains(.deceleration):
            return endDeceleration(at: currentTime)
        case .animating where !kept.contains(.scrollAnimation):
            becomeIdle(at: currentTime)
            return true
        default:
            return true
        }
    }

    // MARK: Ends of motions

    /// The content comes to rest at `now` (ms): nothing moves and the indicators start their
    /// fade. Silent: the caller sends whatever delegate call ends its motion.
    func becomeIdle(at now: Double) {
        motion = .idle
        scheduleIndicatorFade(at: now)
    }

    /// Ends a deceleration where the content is now and tells the delegate (once per run).
    /// Returns false when the delegate started something new from inside the call.
    @discardableResult
    func endDeceleration(at now: Double) -> Bool {
        becomeIdle(at: now)
        return notifyDelegate { $0.scrollViewDidEndDecelerating(self) }
    }

    /// Starts (or retargets) a timed animation toward `target`, keeping the velocity of one
    /// already running so consecutive steps flow into each other.
    func startAnimation(to target: CGPoint, kind: ScrollAnimation.Kind, duration: Double) {
        let now = currentTime
        var velocity: CGPoint?
        if case .animating(let running) = motion { velocity = running.velocity(at: now - running.startTime) }
        motion = .animating(ScrollAnimation(kind: kind, from: contentOffset, to: target, initialVelocity: velocity,
                                            duration: duration, startTime: now))
        showIndicators()
        setNeedsComposite()
    }

    // MARK: Frame ticks

    /// A display frame (or a timer, see `nextWakeTime`) at `time` (ms): delivers a touch
    /// whose content-touch delay is over, advances momentum, bounces, animations, zoom
    /// animations and indicator fades to that time, calling `scrollViewDidScroll`,
    /// `scrollViewDidZoom` and the end-of-motion delegate methods as they happen. Times
    /// earlier than `currentTime` do not move anything back.
    public func advance(to time: Double) {
        guard time.isFinite else { return }
        currentTime = Swift.max(currentTime, time)
        let now = currentTime
        deliverDelayedContentTouch(at: now)
        switch motion {
        case .decelerating(let deceleration):
            stepDeceleration(deceleration, at: now)
        case .animating(let animation):
            stepAnimation(animation, at: now)
        case .zoomAnimating(let animation):
            stepZoomAnimation(animation, at: now)
        case .tracking(let session), .dragging(let session):
            if session.zoomBounce != nil { stepSessionZoomBounce(at: now) }
        case .idle:
            break
        }
        advanceIndicators(at: now)
    }

    private func stepDeceleration(_ deceleration: Deceleration, at now: Double) {
        var remaining = deceleration
        var offset = contentOffset
        for axis in ScrollAxis.allCases {
            guard let axisMotion = deceleration[axis] else { continue }
            let t = now - axisMotion.startTime
            if axisMotion.simulation.isDone(at: t) {
                // Settled: land exactly on the target and let go of the axis, so an offset a
                // delegate sets from now on stays where it put it.
                offset[axis] = axisMotion.rest
                remaining[axis] = nil
            } else {
                offset[axis] = CGFloat(axisMotion.simulation.position(at: t))
            }
        }
        let finished = remaining.horizontal == nil && remaining.vertical == nil
        motion = .decelerating(remaining)
        guard stillOwnsMotion(after: { applyOffset(offset) }) else { return }
        if finished { endDeceleration(at: now) } else { setNeedsComposite() }
    }

    private func stepAnimation(_ animation: ScrollAnimation, at now: Double) {
        let t = now - animation.startTime
        let done = animation.isDone(at: t)
        guard stillOwnsMotion(after: { applyOffset(done ? animation.target : animation.position(at: t)) }) else { return }
        guard done else { setNeedsComposite(); return }
        becomeIdle(at: now)
        switch animation.kind {
        case .programmatic, .step: delegate?.scrollViewDidEndScrollingAnimation(self)
        case .scrollToTop: delegate?.scrollViewDidScrollToTop(self)
        }
    }
}
