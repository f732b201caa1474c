// The drag state machine: touch-down, slop, catching moving content, rubber band, and the
// release that hands over to momentum, bounce or paging with UIKit's delegate order.
import Foundation

extension ScrollView {
    /// 0.05 pt/ms (50 pt/s): slower releases count as "no velocity", so a drag that ends
    /// slowly does not drift (Flutter's kMinFlingVelocity, 50 logical px/s).
    public static let minimumFlingVelocity: CGFloat = 0.05

    /// 0.001 pt: targets (and positions) closer than this are the same point; the delegate's
    /// `targetContentOffset` comes back through floating-point arithmetic (decision).
    static let samePointTolerance: CGFloat = 0.001

    // MARK: Starting

    /// A finger, the pointer button or the touchpad starts touching at `location` (superview
    /// coordinates; ignored for the touchpad) at `time`. Catches a running deceleration (the
    /// drag begins at once, `scrollViewWillBeginDragging` at touch-down, seed 002) and stops a
    /// running animation silently.
    func beginTouch(_ source: DragSession.Source, at location: CGPoint, time: Double) {
        switch motion {
        case .decelerating:
            var pan = PanGestureRecognizer(minimumDistance: source == .touchpad ? 0 : PanGestureRecognizer.defaultMinimumDistance,
                                           isDirectionalLockEnabled: isDirectionalLockEnabled)
            pan.touchBegan(at: location, time: time, recognizeImmediately: true)
            let session = DragSession(source: source, pan: pan, virtualOffset: currentVirtualOffset(),
                                      interruptedDeceleration: true, location: location)
            startDragging(session)
            return
        case .animating:
            motion = .idle
            scheduleIndicatorFade(at: currentTime)
        case .zoomAnimating:
            // A bounce is finished first (its DidEndZooming is owed); other zooms stop.
            guard interruptZoomAnimation(), case .idle = motion else { return }
        case .idle:
            break
        case .tracking, .dragging:
            return
        }
        var pan = PanGestureRecognizer(isDirectionalLockEnabled: isDirectionalLockEnabled)
        pan.touchBegan(at: location, time: time)
        motion = .tracking(DragSession(source: source, pan: pan, virtualOffset: currentVirtualOffset(),
                                       interruptedDeceleration: false, location: location))
    }

    /// Starts a touchpad drag (the compositor already decided it is a scroll: no slop).
    func beginTouchpadDrag(time: Double) {
        if case .animating = motion {
            motion = .idle
            scheduleIndicatorFade(at: currentTime)
        }
        guard interruptZoomAnimation() else { return }
        let caught: Bool
        switch motion {
        case .decelerating: caught = true
        case .idle: caught = false
        case .tracking, .dragging, .animating, .zoomAnimating: return
        }
        var pan = PanGestureRecognizer(minimumDistance: 0, isDirectionalLockEnabled: isDirectionalLockEnabled)
        pan.touchBegan(at: .zero, time: time, recognizeImmediately: true, recordsStart: false)
        startDragging(DragSession(source: .touchpad, pan: pan, virtualOffset: currentVirtualOffset(),
                                  interruptedDeceleration: caught))
    }

    func startDragging(_ session: DragSession) {
        motion = .dragging(session)
        showIndicators()
        if keyboardDismissMode != .none { keyboardDismissHandler?() }
        delegate?.scrollViewWillBeginDragging(self)
    }

    func currentVirtualOffset() -> CGPoint {
        var virtual = contentOffset
        for axis in ScrollAxis.allCases where canDrag(axis) {
            virtual[axis] = virtualOffset(forDisplayed: contentOffset[axis], axis: axis)
        }
        return virtual
    }

    // MARK: Moving

    /// The touch of `source` moved to `location` at `time`.
    func moveTouch(_ source: DragSession.Source, to location: CGPoint, time: Double) {
        guard var session = currentSession, session.source == source else { return }
        session.location = location
        currentSession = session
        followPanPoint(time: time)
    }

    /// Feeds the session's pan point (its finger, or the midpoint of two) to the pan: past the
    /// slop the drag begins, unless a control in the content keeps the touch; then the content
    /// follows.
    func followPanPoint(time: Double) {
        switch motion {
        case .tracking(var session):
            let update = session.pan.touchMoved(to: session.panPoint, time: time)
            motion = .tracking(session)
            guard case .began(let delta) = update, canDrag(.horizontal) || canDrag(.vertical) else { return }
            // Whatever a control's cancel handler did, the drag starts from the state now.
            guard contentTouchYields(), case .tracking(var current) = motion else { return }
            doubleTap.reset()
            current.virtualOffset = currentVirtualOffset()
            startDragging(current)
            dragMoved(by: delta)
        case .dragging(var session) where !session.isReleased:
            let update = session.pan.touchMoved(to: session.panPoint, time: time)
            motion = .dragging(session)
            switch update {
            case .began(let delta), .changed(let delta): dragMoved(by: delta)
            case .none: break
            }
        default:
            break
        }
    }

    /// Applies a finger movement of `delta` (superview coordinates) to the running drag:
    /// content follows the finger, rubber-banding past the edges (or stopping at them without
    /// `bounces`).
    func dragMoved(by delta: CGPoint) {
        guard case .dragging(var session) = motion, !session.isReleased else { return }
        var displayed = contentOffset
        for axis in ScrollAxis.allCases where canDrag(axis) && delta[axis] != 0 {
            var virtual = session.virtualOffset[axis] - delta[axis]
            if !bounces {
                let range = scrollRange(axis)
                virtual = Swift.min(Swift.max(virtual, range.lowerBound), range.upperBound)
            }
            session.virtualOffset[axis] = virtual
            displayed[axis] = displayedOffset(forVirtual: virtual, axis: axis)
        }
        motion = .dragging(session)
        applyOffset(displayed)
    }

    // MARK: Ending

    /// The touch of `source` lifted at `time` (ms): a tap ends silently; a drag ends with
    /// its release velocity.
    func endTouch(_ source: DragSession.Source, time: Double) {
        switch motion {
        case .tracking(let session) where session.source == source:
            motion = .idle
            // A zoom bounce under the finger goes on by itself.
            if let bounce = session.zoomBounce { continueZoomBounce(bounce) }
        case .dragging(let session) where session.source == source && !session.isReleased:
            // A zoom bounce under a dragging finger ends now, so the momentum that may follow
            // runs in the final geometry.
            guard snapSessionZoomBounce(), case .dragging(var current) = motion, current.source == source,
                  !current.isReleased else { return }
            let velocity = current.pan.touchEnded(at: time)
            endDrag(current, fingerVelocity: velocity, at: currentTime)
        default:
            break
        }
    }

    /// The touch sequence was cancelled: the drag ends without a fling (content past an edge
    /// still springs back).
    func cancelTouch() {
        switch motion {
        case .tracking(let session):
            motion = .idle
            if let bounce = session.zoomBounce { continueZoomBounce(bounce) }
        case .dragging(let session) where !session.isReleased:
            guard snapSessionZoomBounce(), case .dragging(var current) = motion, !current.isReleased else { return }
            current.pan.cancel()
            endDrag(current, fingerVelocity: .zero, at: currentTime)
        default:
            break
        }
    }

    /// The release: `scrollViewWillEndDragging` with the velocity and the resting point (which
    /// the delegate may move), `scrollViewDidEndDragging`, then either the deceleration toward
    /// exactly that point or, when nothing moves, the end (plus the leftover
    /// `scrollViewDidEndDecelerating` of a caught deceleration).
    func endDrag(_ endingSession: DragSession, fingerVelocity: CGPoint, at now: Double) {
        var session = endingSession
        session.isReleased = true
        motion = .dragging(session)

        let offset = contentOffset
        var velocity = CGPoint.zero
        for axis in ScrollAxis.allCases where canDrag(axis) {
            let v = -fingerVelocity[axis]
            if v.isFinite, abs(v) >= Self.minimumFlingVelocity { velocity[axis] = v }
        }
        let natural = naturalTarget(from: offset, velocity: velocity)
        var target = natural
        let generation = motionGeneration
        delegate?.scrollViewWillEndDragging(self, withVelocity: velocity, targetContentOffset: &target)
        guard generation == motionGeneration else { return }
        if !target.x.isFinite { target.x = natural.x }
        if !target.y.isFinite { target.y = natural.y }
        // The delegate may have moved the content too; the motion starts from where it is.
        let start = contentOffset

        var deceleration = Deceleration(horizontal: nil, vertical: nil, hasBegun: false,
                                        interruptedDeceleration: session.interruptedDeceleration)
        for axis in ScrollAxis.allCases {
            deceleration[axis] = axisMotion(axis, from: start[axis], velocity: velocity[axis],
                                            natural: natural[axis], target: target[axis], at: now)
        }

        guard deceleration.horizontal != nil || deceleration.vertical != nil else {
            delegate?.scrollViewDidEndDragging(self, willDecelerate: false)
            guard generation == motionGeneration else { return }
            motion = .idle
            scheduleIndicatorFade(at: now)
            if session.interruptedDeceleration { delegate?.scrollViewDidEndDecelerating(self) }
            return
        }
        motion = .decelerating(deceleration)
        var step = motionGeneration
        delegate?.scrollViewDidEndDragging(self, willDecelerate: true)
        // Re-read: a delegate that moved the content has restarted the simulations.
        guard step == motionGeneration, case .decelerating(var running) = motion else { return }
        running.hasBegun = true
        motion = .decelerating(running)
        step = motionGeneration
        delegate?.scrollViewWillBeginDecelerating(self)
        guard step == motionGeneration else { return }
        setNeedsComposite()
    }

    /// Where content released at `offset` with `velocity` (pt/ms) comes to rest: the paging
    /// choice, or the friction's closed-form resting point clamped to the range (past an
    /// edge it bounces back to the edge, or stops there without `bounces`).
    func naturalTarget(from offset: CGPoint, velocity: CGPoint) -> CGPoint {
        var target = offset
        for axis in ScrollAxis.allCases where canDrag(axis) {
            let range = scrollRange(axis)
            let doubleRange = Double(range.lowerBound)...Double(range.upperBound)
            if isPagingEnabled {
                target[axis] = CGFloat(Paging.target(offset: Double(offset[axis]), velocity: Double(velocity[axis]),
                                                     pageSize: Double(bounds.size[axis]), range: doubleRange))
            } else {
                let simulation = BouncingScrollSimulation(position: Double(offset[axis]), velocity: Double(velocity[axis]),
                                                          range: doubleRange, rate: Double(decelerationRate.rawValue),
                                                          bounces: bounces)
                target[axis] = CGFloat(simulation.finalPosition)
            }
        }
        return target
    }

    /// The motion of one axis after release, or nil when it has nothing to do.
    private func axisMotion(_ axis: ScrollAxis, from position: CGFloat, velocity: CGFloat, natural: CGFloat,
                            target requested: CGFloat, at now: Double) -> AxisMotion? {
        guard canDrag(axis) else { return nil }
        let range = scrollRange(axis)
        let doubleRange = Double(range.lowerBound)...Double(range.upperBound)
        // Content cannot rest outside the range: a target there lands on the nearest edge.
        let target = Swift.min(Swift.max(requested, range.lowerBound), range.upperBound)
        let p = Double(position)
        let v = Double(velocity)
        let simulation: any Simulation
        var rest = target
        if isPagingEnabled {
            simulation = SpringSimulation(from: p, velocity: v, to: Double(target), parameters: .paging)
        } else if abs(target - natural) < Self.samePointTolerance {
            simulation = BouncingScrollSimulation(position: p, velocity: v, range: doubleRange,
                                                  rate: Double(decelerationRate.rawValue), bounces: bounces)
            // Exactly `target` unless the delegate moved the content while it was asked.
            rest = CGFloat(simulation.finalPosition)
        } else {
            // The delegate moved the target: keep the deceleration rate and solve for the
            // velocity whose closed-form resting point is exactly the new target.
            let rate = Double(decelerationRate.rawValue)
            simulation = FrictionSimulation(position: p, velocity: FrictionSimulation.velocity(toTravel: Double(target) - p, rate: rate),
                                            rate: rate)
        }
        // Already resting on the target: nothing to animate. Anything else, however small,
        // runs (a nearly-done motion snaps onto the target on the next frame).
        if simulation.isDone(at: 0) && abs(rest - position) < Self.samePointTolerance { return nil }
        return AxisMotion(simulation: simulation, rest: rest, startTime: now)
    }
}
