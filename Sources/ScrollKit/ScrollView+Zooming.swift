// Zooming: the zoom view scaled by a transform with contentSize following it, pinches that keep
// the content under the fingers, rubber-banded scales that bounce back, and the programmatic
// and Ctrl+wheel zooms, all reported to the delegate in UIKit's order.
import Foundation

extension ScrollView {
    /// 300 ms: how long the scale takes to return to its limit after a pinch went past it
    /// (decision: iOS's zoom bounce settles in about a third of a second; an ease-out curve).
    public static let zoomBounceDuration = 300.0

    /// 2^(1/4) ≈ 1.19 per wheel notch: Ctrl+wheel zoom, four notches double or halve the scale
    /// (decision: between browsers' 1.1–1.25 steps, and doubling in whole notches reads well
    /// in an image viewer).
    public static let wheelZoomFactorPerNotch = CGFloat(pow(2.0, 0.25))

    /// 1e-9 (scale factor): scales this close to a limit are at it, so floating-point dust
    /// left by the pinch arithmetic never starts a bounce (decision).
    static let zoomScaleTolerance: CGFloat = 1e-9

    // MARK: Configuration

    /// The view zooming scales: what the delegate's `viewForZooming(in:)` returns, when it is
    /// a descendant of the scroll view (UIKit requires a subview); nil otherwise.
    public var zoomingView: View? {
        guard let view = viewForZooming(), view !== self, view.isDescendant(of: self) else { return nil }
        return view
    }

    /// Ends a zoom: `zoomDidSettle(atScale:)`, then `scrollViewDidEndZooming`. Returns false when
    /// a delegate started something new meanwhile.
    @discardableResult
    func endZooming(_ zoomView: View, atScale scale: CGFloat) -> Bool {
        stillOwnsMotion {
            zoomDidSettle(atScale: scale)
            delegate?.scrollViewDidEndZooming(self, with: zoomView, atScale: scale)
        }
    }

    /// The allowed zoom scales after sanitising the two properties: non-finite or
    /// non-positive limits count as 1, and a maximum below the minimum as the minimum.
    public var zoomScaleLimits: ClosedRange<CGFloat> {
        func usable(_ v: CGFloat) -> CGFloat { v.isFinite && v > 0 ? v : 1 }
        let low = usable(minimumZoomScale)
        return low...Swift.max(low, usable(maximumZoomScale))
    }

    /// Whether zooming is possible: the delegate names a zoom view and the limits differ.
    public var canZoom: Bool {
        let limits = zoomScaleLimits
        return limits.lowerBound < limits.upperBound && zoomingView != nil
    }

    /// A snapshot of the pinch recognizer: the running pinch, an idle recognizer when zooming
    /// is possible but nobody pinches, and nil while zooming is impossible (UIKit's
    /// `pinchGestureRecognizer`).
    public var pinchGestureRecognizer: PinchGestureRecognizer? {
        guard canZoom else { return nil }
        switch motion {
        case .tracking(let session), .dragging(let session):
            return session.pinch?.recognizer ?? PinchGestureRecognizer()
        default:
            return PinchGestureRecognizer()
        }
    }

    // MARK: Programmatic zooming

    /// Zooms to `scale` (clamped to the limits) around the centre of the visible area, the
    /// offset kept within its range. Without animation: `scrollViewDidScroll` if the offset
    /// moves, then `scrollViewDidZoom`; nothing when the scale is already there. With
    /// animation: `scrollViewWillBeginZooming(_:with:)`, a 300 ms ease-out with those calls on
    /// every frame, then `scrollViewDidEndZooming(_:with:atScale:)` (also when a touch or
    /// another change stops it early, at the scale reached). Ignored without a zoom view and
    /// during a pinch (the fingers own the scale); while a finger is down the change is made
    /// without animation.
    public func setZoomScale(_ scale: CGFloat, animated: Bool) {
        guard scale.isFinite, scale > 0, let zoomView = zoomingView else { return }
        let limits = zoomScaleLimits
        let target = Swift.min(Swift.max(scale, limits.lowerBound), limits.upperBound)
        let center = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        zoomProgrammatically(zoomView, animated: animated, kind: .programmatic) { [unowned self] in
            // Taken once whatever was running has stopped or finished.
            let anchor = self.zoomPoint(under: center, in: zoomView)
            return (target, self.zoomedOffset(keeping: anchor, at: center, in: zoomView, scale: target))
        }
    }

    /// Zooms so that `rect` (in the zoom view's own coordinates) fills the view as far as its
    /// aspect allows, centred, at a scale within the limits, the offset within its range: a
    /// rect of the view's aspect is then exactly what is shown. A rect without width or height
    /// zooms to the maximum scale around its centre. Calls and animation as
    /// `setZoomScale(_:animated:)`.
    public func zoom(to rect: CGRect, animated: Bool) {
        guard rect.origin.x.isFinite, rect.origin.y.isFinite, rect.width.isFinite, rect.height.isFinite,
              let zoomView = zoomingView else { return }
        let area = rect.standardized
        let limits = zoomScaleLimits
        let fitX = area.width > 0 ? bounds.width / area.width : .infinity
        let fitY = area.height > 0 ? bounds.height / area.height : .infinity
        var scale = Swift.min(fitX, fitY)
        if !scale.isFinite { scale = limits.upperBound }
        let target = Swift.min(Swift.max(scale, limits.lowerBound), limits.upperBound)
        let middle = CGPoint(x: area.midX, y: area.midY)
        let center = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        zoomProgrammatically(zoomView, animated: animated, kind: .programmatic) { [unowned self] in
            (target, self.zoomedOffset(keeping: middle, at: center, in: zoomView, scale: target))
        }
    }

    /// Ctrl+wheel: `notches` wheel notches (positive scrolls toward the end, which zooms out,
    /// as in browsers) zoom by `wheelZoomFactorPerNotch` each around the pointer (the centre
    /// when it is unknown), within the limits. Wheels animate (consecutive notches extend the
    /// running step); continuous sources zoom at once.
    func wheelZoom(notches: CGFloat, animated: Bool) {
        guard notches.isFinite, notches != 0, isScrollEnabled, !isTracking, canZoom,
              let zoomView = zoomingView else { return }
        var base = storedZoomScale
        if case .zoomAnimating(let running) = motion, running.kind == .step { base = running.toScale }
        let limits = zoomScaleLimits
        let wanted = base * CGFloat(pow(Double(Self.wheelZoomFactorPerNotch), Double(-notches)))
        let target = Swift.min(Swift.max(wanted, limits.lowerBound), limits.upperBound)
        guard abs(target - base) > Self.zoomScaleTolerance else { return }
        let at = pointerLocation.map(viewportPoint(forSuperviewPoint:))
            ?? CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        zoomProgrammatically(zoomView, animated: animated, kind: .step) { [unowned self] in
            let anchor = self.zoomPoint(under: at, in: zoomView)
            return (target, self.zoomedOffset(keeping: anchor, at: at, in: zoomView, scale: target))
        }
    }

    /// Ends what is running in the way UIKit's programmatic methods do, then zooms to the
    /// scale and offset `destination` computes from the state at that moment.
    private func zoomProgrammatically(_ zoomView: View, animated: Bool, kind: ZoomAnimation.Kind,
                                      destination: () -> (scale: CGFloat, offset: CGPoint)) {
        switch motion {
        case .tracking(let session), .dragging(let session):
            guard session.pinch == nil, !session.isReleased else { return }
            // A finger is down: change at once and let the finger carry on from there.
            let (scale, offset) = destination()
            guard applyZoom(zoomView, scale: scale, offset: offset) else { return }
            refreshSessionAfterZoom()
            return
        case .zoomAnimating(let running) where running.kind != .bounce && animated:
            break  // retargeted below
        default:
            guard makeWay() else { return }
        }
        let (scale, offset) = destination()
        guard animated else {
            applyZoom(zoomView, scale: scale, offset: offset)
            return
        }
        if case .zoomAnimating = motion {
            // Retargeted from wherever the running animation has got to (its WillBeginZooming
            // was sent when it started).
        } else if abs(scale - storedZoomScale) <= Self.zoomScaleTolerance && offset == contentOffset {
            return
        } else {
            // UIKit sends it "in cases where a change in zoom level is to be animated" too
            // (UIScrollViewDelegate's documentation), not only for gestures.
            guard notifyDelegate({ $0.scrollViewWillBeginZooming(self, with: zoomView) }) else { return }
        }
        let duration = kind == .step ? Self.stepAnimationDuration : Self.programmaticAnimationDuration
        motion = .zoomAnimating(ZoomAnimation(kind: kind, fromScale: storedZoomScale, toScale: scale,
                                              fromOffset: contentOffset, toOffset: offset, duration: duration,
                                              startTime: currentTime))
        showIndicators()
        setNeedsComposite()
    }

    /// After a zoom made while a finger is down, the finger continues from the new offset.
    func refreshSessionAfterZoom() {
        switch motion {
        case .tracking(var session):
            if session.pinch != nil { reanchorPinch(&session) }
            motion = .tracking(session)
        case .dragging(var session) where !session.isReleased:
            session.virtualOffset = currentVirtualOffset()
            if session.pinch != nil { reanchorPinch(&session) }
            motion = .dragging(session)
        default:
            break
        }
    }

    // MARK: Geometry

    /// `location` (superview coordinates) relative to the visible top-left corner, in points.
    func viewportPoint(forSuperviewPoint location: CGPoint) -> CGPoint {
        convertFromSuperview(location) - bounds.origin
    }

    /// The zoom view's own point shown at `viewportPoint` (relative to the visible top-left).
    func zoomPoint(under viewportPoint: CGPoint, in zoomView: View) -> CGPoint {
        zoomView.convert(bounds.origin + viewportPoint, from: self)
    }

    /// Where the zoom view's point `point` lies in the scroll view's content (bounds)
    /// coordinates once the zoom view is scaled by `scale`: the transform is anchored at the
    /// zoom view's frame origin.
    func contentPoint(ofZoomPoint point: CGPoint, in zoomView: View, scale: CGFloat) -> CGPoint {
        let origin = zoomView.frame.origin
        let inParent = CGPoint(x: origin.x + (point.x - zoomView.bounds.minX) * scale,
                               y: origin.y + (point.y - zoomView.bounds.minY) * scale)
        guard let parent = zoomView.superview, parent !== self else { return inParent }
        return parent.convert(inParent, to: self)
    }

    /// The content size at `scale`: the zoom view's frame size, as UIKit sets it.
    func contentSize(of zoomView: View, scale: CGFloat) -> CGSize {
        CGSize(width: zoomView.bounds.width * scale, height: zoomView.bounds.height * scale)
    }

    /// The offset, within the range the offsets will have at `scale`, that shows the zoom
    /// view's point `anchor` at `viewportPoint`, or as near as the range allows.
    func zoomedOffset(keeping anchor: CGPoint, at viewportPoint: CGPoint, in zoomView: View, scale: CGFloat) -> CGPoint {
        clamped(contentPoint(ofZoomPoint: anchor, in: zoomView, scale: scale) - viewportPoint,
                contentSize: contentSize(of: zoomView, scale: scale))
    }

    /// Scales the zoom view (its transform), sets `contentSize` to its frame size and the
    /// offset to `offset`: `scrollViewDidScroll` when the offset moved, then
    /// `scrollViewDidZoom` when the scale changed. Returns false when a delegate started
    /// another motion from inside those calls (the caller must then stop).
    @discardableResult
    func applyZoom(_ zoomView: View, scale: CGFloat, offset: CGPoint) -> Bool {
        guard scale.isFinite, scale > 0 else { return true }
        let old = storedZoomScale
        zoomView.transformScale = scale
        storedZoomScale = scale
        contentSize = contentSize(of: zoomView, scale: scale)
        return stillOwnsMotion {
            guard stillOwnsMotion(after: { applyOffset(offset) }) else { return }
            guard scale != old else { return }
            zoomDidChange()
            delegate?.scrollViewDidZoom(self)
        }
    }

    // MARK: Pinch

    /// The scale shown for a pinch asking for `asked`: rubber-banded past the limits with
    /// `bouncesZoom`, stopped at them without.
    func pinchScale(asked: CGFloat) -> CGFloat {
        let limits = zoomScaleLimits
        guard bouncesZoom else { return Swift.min(Swift.max(asked, limits.lowerBound), limits.upperBound) }
        return CGFloat(ZoomRubberBand.displayed(scale: Double(asked),
                                                limits: Double(limits.lowerBound)...Double(limits.upperBound)))
    }

    /// The scale a pinch must ask for to show the current one (past a limit the rubber band
    /// hides part of it).
    private var askedForCurrentScale: CGFloat {
        guard bouncesZoom else { return storedZoomScale }
        let limits = zoomScaleLimits
        return CGFloat(ZoomRubberBand.asked(forDisplayed: Double(storedZoomScale),
                                            limits: Double(limits.lowerBound)...Double(limits.upperBound)))
    }

    /// The pinch keeps the zoom view's point under the centroid from where the content is now,
    /// without a jump: used when code moved the content or changed the scale under the fingers.
    func reanchorPinch(_ session: inout DragSession) {
        guard var pinch = session.pinch, let zoomView = zoomingView else { return }
        let at = viewportPoint(forSuperviewPoint: pinch.recognizer.centroid)
        pinch.anchor = zoomPoint(under: at, in: zoomView)
        // The fingers' scale so far is part of what they ask: divide it out.
        pinch.startAskedScale = askedForCurrentScale / pinch.recognizer.scale
        session.pinch = pinch
    }

    /// The pinch was recognised: it scales from the spread at the second finger's touch-down
    /// and, if the content has not moved since, around the point that was under the fingers'
    /// midpoint then, so the content under each finger is exactly where it would be had it
    /// followed the fingers from the start. Content a two-finger drag moved meanwhile keeps the
    /// point now under the midpoint instead, so it does not jump back.
    private func anchorRecognizedPinch(_ session: inout DragSession) {
        guard var pinch = session.pinch, let zoomView = zoomingView else { return }
        let unmoved = contentOffset == pinch.startOffset
        let centroid = unmoved ? pinch.recognizer.startCentroid : pinch.recognizer.centroid
        pinch.anchor = zoomPoint(under: viewportPoint(forSuperviewPoint: centroid), in: zoomView)
        pinch.startAskedScale = askedForCurrentScale
        session.pinch = pinch
    }

    /// A second finger touched down at `location` while the session's finger is down: the
    /// pan now follows the midpoint of both, and a pinch is possible. Ignored when zooming is
    /// impossible or a control keeps the first finger's touch. A zoom bounce still running from
    /// an earlier pinch is finished first, so its `scrollViewDidEndZooming` comes before the
    /// new pinch's calls.
    func secondFingerDown(id: Int, at location: CGPoint, time: Double) {
        guard isScrollEnabled, canZoom, acceptsTouch(at: location), let first = currentSession,
              first.secondFinger == nil, first.pinch == nil, case .touch = first.source,
              contentTouchYieldsToPinch() else { return }
        doubleTap.reset()
        guard snapSessionZoomBounce(), var session = currentSession, session.secondFinger == nil,
              session.pinch == nil, case .touch = session.source else { return }
        session.secondFinger = Finger(id: id, location: location)
        var recognizer = PinchGestureRecognizer()
        recognizer.touchesBegan(session.location, location)
        session.pinch = PinchSession(recognizer: recognizer, anchor: .zero, startAskedScale: storedZoomScale,
                                     startOffset: contentOffset)
        session.pan.reanchor(to: session.panPoint, time: time)
        currentSession = session
    }

    /// One of two fingers moved: before the pinch is recognised the pan follows their
    /// midpoint (a two-finger drag); from recognition on, the scale follows their spread and
    /// the content under their midpoint stays under it.
    func pinchFingersMoved(time: Double) {
        guard var session = currentSession, var pinch = session.pinch, let second = session.secondFinger,
              let zoomView = zoomingView else { return }
        let update = pinch.recognizer.touchesMoved(session.location, second.location)
        session.pinch = pinch
        switch update {
        case .none:
            currentSession = session
            if !pinch.recognizer.isActive { followPanPoint(time: time) }
        case .began:
            anchorRecognizedPinch(&session)
            currentSession = session
            showIndicators()
            guard notifyDelegate({ $0.scrollViewWillBeginZooming(self, with: zoomView) }) else { return }
            applyPinchStep()
        case .changed:
            currentSession = session
            applyPinchStep()
        }
    }

    /// Shows the running pinch: the asked scale (rubber-banded or clamped) with the anchor
    /// under the centroid, the offset kept within its range.
    func applyPinchStep() {
        guard let session = currentSession, let pinch = session.pinch, pinch.recognizer.isActive,
              let zoomView = zoomingView else { return }
        let scale = pinchScale(asked: pinch.startAskedScale * pinch.recognizer.scale)
        let at = viewportPoint(forSuperviewPoint: pinch.recognizer.centroid)
        let offset = zoomedOffset(keeping: pinch.anchor, at: at, in: zoomView, scale: scale)
        applyZoom(zoomView, scale: scale, offset: offset)
    }

    /// One of two fingers (`id`) lifted: the pinch ends (bouncing back around the remaining
    /// finger if it went past a limit) and the remaining finger carries on as a one-finger
    /// drag from where it is, without a jump.
    func pinchFingerLifted(id: Int, time: Double) {
        guard var session = currentSession, let second = session.secondFinger else { return }
        if second.id != id {
            // The session's own finger lifted: the second one takes its place.
            session.source = .touch(id: second.id)
            session.location = second.location
        }
        session.secondFinger = nil
        let pinch = session.pinch
        session.pinch = nil
        let pinched = pinch?.recognizer.isActive ?? false
        if pinched, case .tracking = motion {
            // No drag yet: the remaining finger moves the content from its first movement,
            // as it was already doing under the pinch.
            var pan = PanGestureRecognizer(minimumDistance: 0, isDirectionalLockEnabled: isDirectionalLockEnabled)
            pan.touchBegan(at: session.location, time: time)
            session.pan = pan
        } else {
            session.pan.reanchor(to: session.location, time: time)
        }
        session.virtualOffset = currentVirtualOffset()
        currentSession = session
        guard pinched, let pinch else { return }
        endPinch(centroid: pinch.recognizer.centroid, fingerRemains: true)
    }

    /// The pinch is over: `scrollViewDidEndZooming` now when the scale is within its limits,
    /// otherwise after a bounce back to the nearer limit around the fingers' last midpoint
    /// (`centroid`, superview coordinates), while a remaining finger may drag on.
    func endPinch(centroid: CGPoint, fingerRemains: Bool) {
        guard let zoomView = zoomingView else { return }
        let limits = zoomScaleLimits
        let scale = storedZoomScale
        let target = Swift.min(Swift.max(scale, limits.lowerBound), limits.upperBound)
        guard abs(target - scale) > Self.zoomScaleTolerance else {
            zoomGestureSettled()
            endZooming(zoomView, atScale: scale)
            return
        }
        if fingerRemains, var session = currentSession {
            session.zoomBounce = ZoomBounce(from: scale, to: target, around: centroid, startTime: currentTime)
            currentSession = session
        } else {
            let at = viewportPoint(forSuperviewPoint: centroid)
            let anchor = zoomPoint(under: at, in: zoomView)
            motion = .zoomAnimating(ZoomAnimation(kind: .bounce, fromScale: scale, toScale: target,
                                                  fromOffset: contentOffset,
                                                  toOffset: zoomedOffset(keeping: anchor, at: at, in: zoomView, scale: target),
                                                  duration: Self.zoomBounceDuration, startTime: currentTime))
        }
        setNeedsComposite()
    }

    /// The zoom is over: the indicators fade unless a drag carries on.
    private func zoomGestureSettled() {
        if !isDragging { scheduleIndicatorFade(at: currentTime) }
    }

    // MARK: Touchpad pinch

    /// A touchpad pinch (`zwp_pointer_gestures_v1`) began: it zooms around the pointer (the
    /// centre when unknown). Running momentum ends (`scrollViewDidEndDecelerating`), running
    /// animations stop; ignored while a finger, the pointer button or a touchpad scroll owns
    /// the view.
    func touchpadPinchBegan(time: Double) {
        guard isScrollEnabled, canZoom else { return }
        if case .tracking = motion { return }
        if case .dragging = motion { return }
        guard makeWay(), case .idle = motion, let zoomView = zoomingView else { return }
        let centre = convertToSuperview(CGPoint(x: bounds.midX, y: bounds.midY))
        let location = pointerLocation ?? centre
        var pan = PanGestureRecognizer(minimumDistance: 0, isDirectionalLockEnabled: false)
        pan.touchBegan(at: location, time: time, recordsStart: false)
        var session = DragSession(source: .touchpadPinch, pan: pan, virtualOffset: contentOffset,
                                  interruptedDeceleration: false, location: location)
        var recognizer = PinchGestureRecognizer()
        recognizer.touchpadBegan(at: location)
        session.pinch = PinchSession(recognizer: recognizer, anchor: .zero, startAskedScale: storedZoomScale,
                                     startOffset: contentOffset)
        reanchorPinch(&session)
        motion = .tracking(session)
        showIndicators()
        delegate?.scrollViewWillBeginZooming(self, with: zoomView)
    }

    /// A touchpad pinch update: `scale` is cumulative since begin, `pan` the fingers' movement
    /// since the previous update, in points.
    func touchpadPinchChanged(scale: CGFloat, pan: CGPoint) {
        guard var session = currentSession, session.source == .touchpadPinch, var pinch = session.pinch else { return }
        guard pinch.recognizer.touchpadChanged(scale: scale, pan: pan) != .none else { return }
        session.location = pinch.recognizer.centroid
        session.pinch = pinch
        currentSession = session
        applyPinchStep()
    }

    /// The touchpad pinch ended (or was cancelled): as when fingers lift from a pinch.
    func touchpadPinchEnded() {
        guard let session = currentSession, session.source == .touchpadPinch, let pinch = session.pinch else { return }
        becomeIdle(at: currentTime)
        endPinch(centroid: pinch.recognizer.centroid, fingerRemains: false)
    }

    // MARK: Zoom animations

    /// A frame of a zoom animation: scale and offset move together; at the end, exactly the
    /// target, then `scrollViewDidEndZooming`.
    func stepZoomAnimation(_ animation: ZoomAnimation, at now: Double) {
        guard let zoomView = zoomingView else {
            motion = .idle
            return
        }
        let t = now - animation.startTime
        let done = animation.isDone(at: t)
        guard applyZoom(zoomView, scale: done ? animation.toScale : animation.scale(at: t),
                        offset: done ? animation.toOffset : animation.offset(at: t)) else { return }
        guard done else { setNeedsComposite(); return }
        becomeIdle(at: now)
        endZooming(zoomView, atScale: animation.toScale)
    }

    /// A frame of the bounce that runs while a finger is still down after a pinch: the scale
    /// returns to its limit around the pinch's last midpoint while the finger may drag.
    func stepSessionZoomBounce(at now: Double) {
        guard var session = currentSession, let bounce = session.zoomBounce, let zoomView = zoomingView else { return }
        let t = now - bounce.startTime
        let done = bounce.curve.isDone(at: t)
        let scale = done ? bounce.to : CGFloat(bounce.curve.position(at: t))
        if done { session.zoomBounce = nil }
        currentSession = session
        guard zoom(around: bounce.around, zoomView: zoomView, scale: scale) else { return }
        if done {
            zoomGestureSettled()
            endZooming(zoomView, atScale: scale)
        } else {
            setNeedsComposite()
        }
    }

    /// Scales around `location` (superview coordinates) under a finger that is still down and
    /// lets its drag continue from the new offset. Axes that were within their range stay
    /// within it.
    private func zoom(around location: CGPoint, zoomView: View, scale: CGFloat) -> Bool {
        let at = viewportPoint(forSuperviewPoint: location)
        let anchor = zoomPoint(under: at, in: zoomView)
        var offset = contentPoint(ofZoomPoint: anchor, in: zoomView, scale: scale) - at
        let size = contentSize(of: zoomView, scale: scale)
        let inRange = clamped(offset, contentSize: size)
        for axis in ScrollAxis.allCases where scrollRange(axis).contains(contentOffset[axis]) {
            offset[axis] = inRange[axis]
        }
        guard applyZoom(zoomView, scale: scale, offset: offset) else { return false }
        refreshSessionAfterZoom()
        return true
    }

    /// Finishes a bounce that runs under a finger at once (scale at the limit,
    /// `scrollViewDidZoom`, `scrollViewDidEndZooming`): the drag is about to end with
    /// momentum of its own, or a new pinch starts. Returns false when a delegate started
    /// another motion meanwhile.
    @discardableResult
    func snapSessionZoomBounce() -> Bool {
        guard var session = currentSession, let bounce = session.zoomBounce, let zoomView = zoomingView else { return true }
        session.zoomBounce = nil
        currentSession = session
        guard zoom(around: bounce.around, zoomView: zoomView, scale: bounce.to) else { return false }
        zoomGestureSettled()
        return endZooming(zoomView, atScale: bounce.to)
    }

    /// The last finger lifted while its bounce was running: the bounce goes on by itself,
    /// around the same point, for the time it had left.
    func continueZoomBounce(_ bounce: ZoomBounce) {
        guard let zoomView = zoomingView else { return }
        let elapsed = currentTime - bounce.startTime
        let remaining = Swift.max(bounce.curve.duration - elapsed, 1)
        let at = viewportPoint(forSuperviewPoint: bounce.around)
        let anchor = zoomPoint(under: at, in: zoomView)
        motion = .zoomAnimating(ZoomAnimation(kind: .bounce, fromScale: storedZoomScale, toScale: bounce.to,
                                              fromOffset: contentOffset,
                                              toOffset: zoomedOffset(keeping: anchor, at: at, in: zoomView, scale: bounce.to),
                                              duration: remaining, startTime: currentTime))
        setNeedsComposite()
    }

    /// Something else takes over from a zoom animation. A bounce is finished at once (the
    /// scale must not stay past a limit); a programmatic or wheel zoom stops where it is. Either
    /// way the `scrollViewDidEndZooming` owed to its start is sent, at the scale it ended at.
    /// Returns false when a delegate started another motion meanwhile.
    @discardableResult
    func interruptZoomAnimation() -> Bool {
        guard case .zoomAnimating(let animation) = motion else { return true }
        becomeIdle(at: currentTime)
        guard let zoomView = zoomingView else { return true }
        if animation.kind == .bounce {
            guard applyZoom(zoomView, scale: animation.toScale, offset: animation.toOffset) else { return false }
        }
        return endZooming(zoomView, atScale: storedZoomScale)
    }

    // MARK: Session access

    /// The running finger, pointer or touchpad session (not once its release calls run);
    /// setting it keeps the motion's case (tracking or dragging).
    var currentSession: DragSession? {
        get {
            switch motion {
            case .tracking(let session): return session
            case .dragging(let session) where !session.isReleased: return session
            default: return nil
            }
        }
        set {
            guard let newValue else { return }
            switch motion {
            case .tracking: motion = .tracking(newValue)
            case .dragging(let session) where !session.isReleased: motion = .dragging(newValue)
            default: break
            }
        }
    }
}
