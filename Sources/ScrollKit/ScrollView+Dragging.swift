// The drag state machine: touch-down, slop, catching moving content, rubber band, and the
// release that hands over to momentum, bounce or paging with UIKit's delegate order.
import Foundation

extension ScrollView {
    /// Slower releases count as "no velocity": `ScrollPhysics.minimumFlingVelocity`, in pt/ms.
    public static let minimumFlingVelocity = CGFloat(ScrollPhysics.minimumFlingVelocity)

    // MARK: Starting

    /// A finger, the pointer button or the touchpad starts touching at `location` (superview
    /// coordinates; ignored for the touchpad) at `time`. Catches a running deceleration (the
    /// drag begins at once, `scrollViewWillBeginDragging` at touch-down, as on iOS) and stops a
    /// running animation silently.
    func beginTouch(_ source: DragSession.Source, at location: CGPoint, time: Double) {
        switch motion {
        case .decelerating:
            var pan = PanGestureRecognizer(minimumDistance: source == .touchpad ? 0 : PanGestureRecognizer.defaultMinimumDistance,
                                           isDirectionalLockEnabled: isDirectionalLockEnabled)
            pan.touchBegan(at: location, time: time, recognizeImmediately: true)
            startDragging(caughtSession(source: source, pan: pan, location: location))
            return
        case .tracking, .dragging:
            return
        case .idle, .animating, .zoomAnimating:
            // A bounce is finished first (its DidEndZooming is owed); other zooms and animations stop.
            guard makeWay(), case .idle = motion else { return }
        }
        var pan = PanGestureRecognizer(isDirectionalLockEnabled: isDirectionalLockEnabled)
        pan.touchBegan(at: location, time: time)
        motion = .tracking(DragSession(source: source, pan: pan, virtualOffset: currentVirtualOffset(),
                                       interruptedDeceleration: false, location: location))
    }

    /// The session of a touch that caught the running deceleration: it owes the leftover
    /// `scrollViewDidEndDecelerating` (docs/scroll-view.md, delegate calls 3 and 4), and a fling it ends with in the same direction
    /// carries part of the velocity the content had when caught (`ScrollPhysics.carriedMomentum`).
    private func caughtSession(source: DragSession.Source, pan: PanGestureRecognizer, location: CGPoint) -> DragSession {
        var session = DragSession(source: source, pan: pan, virtualOffset: currentVirtualOffset(),
                                  interruptedDeceleration: true, location: location)
        if case .decelerating(let deceleration) = motion {
            let physics = physics
            for axis in ScrollAxis.allCases {
                guard let axisMotion = deceleration[axis] else { continue }
                let velocity = axisMotion.simulation.velocity(at: currentTime - axisMotion.startTime)
                session.carriedVelocity[axis] = CGFloat(physics.carriedMomentum(velocity))
            }
        }
        return session
    }

    /// Starts a touchpad drag (the compositor already decided it is a scroll: no slop).
    func beginTouchpadDrag(time: Double) {
        switch motion {
        case .tracking, .dragging: return
        default: guard makeWay(keeping: .deceleration) else { return }
        }
        var pan = PanGestureRecognizer(minimumDistance: 0, isDirectionalLockEnabled: isDirectionalLockEnabled)
        pan.touchBegan(at: .zero, time: time, recognizeImmediately: true, recordsStart: false)
        if case .decelerating = motion {
            startDragging(caughtSession(source: .touchpad, pan: pan, location: .zero))
        } else {
            startDragging(DragSession(source: .touchpad, pan: pan, virtualOffset: currentVirtualOffset(),
                                      interruptedDeceleration: false))
        }
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
            if let bounce = session.zoomBounce { continueZoomBounce(bounce) } else { settleOnPage() }
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

    /// A paging scroll view that a touch left between pages (it stopped an animation there)
    /// slides to the nearest page, as an animated `setContentOffset` does: a paging scroll
    /// view rests only on pages.
    func settleOnPage() {
        guard isPagingEnabled, case .idle = motion else { return }
        let page = naturalTarget(from: contentOffset, velocity: .zero)
        guard abs(page.x - contentOffset.x) > CGFloat(ScrollPhysics.samePointTolerance)
                || abs(page.y - contentOffset.y) > CGFloat(ScrollPhysics.samePointTolerance) else { return }
        startAnimation(to: page, kind: .programmatic, duration: Self.programmaticAnimationDuration)
    }

    /// The touch sequence was cancelled: the drag ends without a fling (content past an edge
    /// still springs back).
    func cancelTouch() {
        switch motion {
        case .tracking(let session):
            motion = .idle
            if let bounce = session.zoomBounce { continueZoomBounce(bounce) } else { settleOnPage() }
        case .dragging(let session) where !session.isReleased:
            guard snapSessionZoomBounce(), case .dragging(var current) = motion, !current.isReleased else { return }
            current.pan.cancel()
            endDrag(current, fingerVelocity: .zero, at: currentTime)
        default:
            break
        }
    }

    /// The release: `scrollViewWillEndDragging` with the velocity and the resting point (which
    /// the delegate may move, except on a paging scroll view), `scrollViewDidEndDragging`, then
    /// either the deceleration toward exactly that point or, when nothing moves, the end (plus
    /// the leftover `scrollViewDidEndDecelerating` of a caught deceleration).
    func endDrag(_ endingSession: DragSession, fingerVelocity: CGPoint, at now: Double) {
        var session = endingSession
        session.isReleased = true
        motion = .dragging(session)

        let physics = physics
        var velocity = CGPoint.zero
        for axis in ScrollAxis.allCases where canDrag(axis) {
            velocity[axis] = CGFloat(physics.releaseVelocity(Double(-fingerVelocity[axis]),
                                                             carrying: Double(session.carriedVelocity[axis])))
        }
        let natural = naturalTarget(from: contentOffset, velocity: velocity)
        var target = natural
        guard notifyDelegate({ $0.scrollViewWillEndDragging(self, withVelocity: velocity, targetContentOffset: &target) })
        else { return }
        // UIKit ignores a new target on a paging scroll view ("Stop offset can not be modified
        // for paging scroll views"): the content rests on a page whatever the delegate wrote.
        if isPagingEnabled { target = natural }
        if !target.x.isFinite { target.x = natural.x }
        if !target.y.isFinite { target.y = natural.y }
        // The delegate may have moved the content too; the motion starts from where it is.
        let start = contentOffset

        var deceleration = Deceleration(horizontal: nil, vertical: nil, hasBegun: false,
                                        interruptedDeceleration: session.interruptedDeceleration)
        for axis in ScrollAxis.allCases where canDrag(axis) {
            let range = scrollRange(axis)
            // Content cannot rest outside the range: a target there lands on the nearest edge.
            let clampedTarget = Swift.min(Swift.max(target[axis], range.lowerBound), range.upperBound)
            guard let (simulation, rest) = physics.release(from: Double(start[axis]), velocity: Double(velocity[axis]),
                                                           range: physicsRange(axis), natural: Double(natural[axis]),
                                                           target: Double(clampedTarget)) else { continue }
            deceleration[axis] = AxisMotion(simulation: simulation, rest: CGFloat(rest), startTime: now)
        }

        guard deceleration.horizontal != nil || deceleration.vertical != nil else {
            guard notifyDelegate({ $0.scrollViewDidEndDragging(self, willDecelerate: false) }) else { return }
            becomeIdle(at: now)
            if session.interruptedDeceleration { delegate?.scrollViewDidEndDecelerating(self) }
            return
        }
        motion = .decelerating(deceleration)
        // Re-read after each call: a delegate that moved the content has restarted the simulations.
        guard notifyDelegate({ $0.scrollViewDidEndDragging(self, willDecelerate: true) }),
              case .decelerating(var running) = motion else { return }
        running.hasBegun = true
        motion = .decelerating(running)
        guard notifyDelegate({ $0.scrollViewWillBeginDecelerating(self) }) else { return }
        setNeedsComposite()
    }

    /// Where content released at `offset` with `velocity` (pt/ms) comes to rest: the paging
    /// choice, or the friction's closed-form resting point clamped to the range (past an
    /// edge it bounces back to the edge, or stops there without `bounces`).
    func naturalTarget(from offset: CGPoint, velocity: CGPoint) -> CGPoint {
        let physics = physics
        var target = offset
        for axis in ScrollAxis.allCases where canDrag(axis) {
            target[axis] = CGFloat(physics.restingPoint(from: Double(offset[axis]), velocity: Double(velocity[axis]),
                                                        range: physicsRange(axis), pageSize: Double(bounds.size[axis])))
        }
        return target
    }
}
