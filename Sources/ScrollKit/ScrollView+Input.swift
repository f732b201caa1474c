// Linux input mapped onto the scroll view: touch and pointer drags, touchpad scrolling with
// momentum, animated wheel notches and keyboard scrolling.
import Foundation

extension ScrollView {
    /// 57 pt per notch: three 19 pt lines, as desktop browsers scroll (decision); capped at
    /// `wheelNotchViewportFraction` of the viewport so one notch never skips content in a
    /// small view.
    public static let wheelNotchDistance: CGFloat = 57
    /// 0.5 (of the viewport): the largest share of the view one wheel notch scrolls (decision).
    public static let wheelNotchViewportFraction: CGFloat = 0.5
    /// 200 ms per wheel or key step: long enough to see the motion, short enough to keep up
    /// with a spun wheel (decision; browsers' smooth scrolling uses 150–250 ms).
    public static let stepAnimationDuration = 200.0
    /// 40 pt per arrow key press: a couple of lines (decision, like browsers).
    public static let arrowKeyDistance: CGFloat = 40
    /// Page keys keep up to 40 pt of the previous page visible so the reader keeps their place
    /// (decision; browsers keep 10–15 %).
    public static let pageOverlap: CGFloat = 40
    /// 0.125 (of the viewport): the overlap never exceeds this share of a small view
    /// (decision, Chrome's 87.5 % page step).
    public static let pageOverlapViewportFraction: CGFloat = 0.125

    /// Delivers one input event; `event.time` (ms) is "now". See `handle(frame:)`.
    public func handle(_ event: InputEvent) {
        handle(frame: [event])
    }

    /// Delivers the events of one input frame (`wl_touch.frame`, `wl_pointer.frame`: what
    /// happened at once), in order; each event's `time` (ms) is "now" for it. Coordinates are
    /// the window's (the root view's); the scroll view converts them into its superview's
    /// space, where `frame` is. Touches and button presses must start inside the frame;
    /// wheel, touchpad (scroll and pinch) and key events are taken as addressed to this view,
    /// and Ctrl held (`event.modifiers`) turns the wheel into zoom around the pointer
    /// (`event.pointerLocation`). Two fingers that move in one frame make one pinch step.
    /// Nothing animates here: momentum and steps start at the event's time and move in
    /// `advance(to:)`; only direct manipulation (a drag, a pinch) moves content at once.
    public func handle(frame events: [InputEvent]) {
        for event in events { receive(event) }
        finishFrame()
    }

    /// One event of a frame that `finishFrame()` ends: how an `InputRouter` hands a scroll view
    /// the events routed to it.
    func receive(_ event: InputEvent) {
        let time = event.time.isFinite ? event.time : currentTime
        currentTime = Swift.max(currentTime, time)
        if case .touchMotion = event.kind {} else { flushPinchStep() }
        dispatch(event, at: time)
    }

    /// The frame's events have all been received: the fingers' movement takes effect.
    func finishFrame() { flushPinchStep() }

    private func dispatch(_ event: InputEvent, at time: Double) {
        if let location = event.pointerLocation, isUsable(location) { pointerLocation = local(location) }
        switch event.kind {
        case .touchDown(let id, let location):
            guard isUsable(location) else { return }
            touchBegan(.touch(id: id), at: local(location), time: time, event: event)
        case .touchMotion(let id, let location):
            guard isUsable(location) else { return }
            touchMoved(.touch(id: id), to: local(location), time: time)
        case .touchUp(let id):
            touchEnded(.touch(id: id), time: time, event: event)
        case .touchCancel:
            touchesCancelled()
        case .pointerEnter(let location), .pointerMotion(let location):
            guard isUsable(location) else { return }
            let point = local(location)
            pointerLocation = point
            if pointerPressPending {
                pointerPressPending = false
                touchBegan(.pointer, at: point, time: time, event: event)
            } else {
                touchMoved(.pointer, to: point, time: time)
            }
        case .pointerLeave:
            // The compositor keeps sending motion to the pressed surface (implicit grab), so a
            // drag survives leaving; only the hover position is forgotten.
            if !isTracking && touchOwner != .pointer { pointerLocation = nil }
        case .pointerButton(let button, let pressed):
            guard button == .left else { return }
            if pressed {
                if let location = pointerLocation {
                    touchBegan(.pointer, at: location, time: time, event: event)
                } else {
                    pointerPressPending = true
                }
            } else {
                pointerPressPending = false
                touchEnded(.pointer, time: time, event: event)
            }
        case .pointerAxis(let source, let dx, let dy, _, _):
            guard dx.isFinite, dy.isFinite, let notches = event.wheelNotches else { return }
            if event.modifiers.contains(.ctrl), canZoom {
                // Ctrl+wheel zooms around the pointer, as in browsers and image viewers.
                wheelZoom(notches: notches.y, animated: source == .wheel || source == .wheelTilt)
                return
            }
            switch source {
            case .finger:
                touchpadScroll(dx: dx, dy: dy, time: time)
            case .wheel, .wheelTilt:
                wheelScroll(notches: notches)
            case .continuous:
                scrollDirectly(by: CGPoint(x: dx, y: dy))
            }
        case .axisStop:
            endTouch(.touchpad, time: time)
        case .hold(let phase):
            holdGesture(phase, time: time)
        case .pinch(let phase, let scale, let dx, let dy):
            switch phase {
            case .begin: touchpadPinchBegan(time: time)
            case .update:
                guard scale.isFinite, scale > 0, dx.isFinite, dy.isFinite else { return }
                touchpadPinchChanged(scale: scale, pan: CGPoint(x: dx, y: dy))
            case .end, .cancel: touchpadPinchEnded()
            }
        case .key(let key, let pressed):
            guard pressed else { return }
            keyPressed(key, modifiers: event.modifiers)
        }
    }

    /// `location` (window points) in the superview's coordinates, where `frame` is.
    func local(_ location: CGPoint) -> CGPoint {
        superview?.convert(location, from: nil) ?? location
    }

    private func isUsable(_ point: CGPoint) -> Bool { point.x.isFinite && point.y.isFinite }

    func acceptsTouch(at location: CGPoint) -> Bool {
        !isHidden && isUserInteractionEnabled && frame.contains(location)
    }

    // MARK: Touchpad

    /// Touchpad scrolling moves the content like a finger: the first event begins a drag
    /// (catching momentum if there is some), each event scrolls, `axisStop` is the lift.
    private func touchpadScroll(dx: CGFloat, dy: CGFloat, time: Double) {
        guard isScrollEnabled, dx != 0 || dy != 0 else { return }
        if case .dragging(let session) = motion, session.source == .touchpad, !session.isReleased {
            // Already scrolling.
        } else {
            guard canDrag(.horizontal) || canDrag(.vertical) else { return }
            beginTouchpadDrag(time: time)
        }
        guard case .dragging(let session) = motion, session.source == .touchpad, !session.isReleased else { return }
        // Axis values are scroll distances; the equivalent finger moves the other way.
        let location = CGPoint(x: session.pan.location.x - dx, y: session.pan.location.y - dy)
        moveTouch(.touchpad, to: location, time: time)
    }

    /// Fingers resting on the touchpad stop momentum, like a finger on a flung list; lifting
    /// them again without scrolling ends that catch.
    private func holdGesture(_ phase: InputEvent.Phase, time: Double) {
        switch phase {
        case .begin:
            guard isScrollEnabled, case .decelerating = motion else { return }
            beginTouchpadDrag(time: time)
        case .end, .cancel:
            guard case .dragging(let session) = motion, session.source == .touchpad, !session.isReleased,
                  session.pan.translation == .zero else { return }
            endTouch(.touchpad, time: time)
        case .update:
            break
        }
    }

    // MARK: Wheel

    private func wheelScroll(notches wheel: CGPoint) {
        guard isScrollEnabled, !isTracking else { return }
        var notches = wheel
        // A plain wheel on content that only scrolls sideways scrolls it sideways.
        if notches.x == 0, !hasScrollableRange(.vertical), hasScrollableRange(.horizontal) {
            notches = CGPoint(x: notches.y, y: 0)
        }
        if isPagingEnabled {
            wheelTurnPages(notches: notches)
            return
        }
        var distance = CGPoint.zero
        for axis in ScrollAxis.allCases {
            guard hasScrollableRange(axis), notches[axis] != 0 else {
                wheelRemainder[axis] = 0
                continue
            }
            let step = Swift.min(Self.wheelNotchDistance, bounds.size[axis] * Self.wheelNotchViewportFraction)
            let exact = notches[axis] * step + wheelRemainder[axis]
            let whole = exact.rounded(.towardZero)
            wheelRemainder[axis] = exact - whole
            distance[axis] = whole
        }
        guard distance != .zero else { return }
        scrollStep { base in base + distance }
    }

    /// On a paging scroll view each whole wheel notch turns one page, toward the end for
    /// notches down or right (decision: as desktop image viewers turn pictures); fractions of a
    /// notch add up (two half notches turn one page).
    private func wheelTurnPages(notches: CGPoint) {
        var pages = CGPoint.zero
        for axis in ScrollAxis.allCases {
            guard hasScrollableRange(axis), notches[axis] != 0 else {
                wheelPageRemainder[axis] = 0
                continue
            }
            let exact = notches[axis] + wheelPageRemainder[axis]
            let whole = exact.rounded(.towardZero)
            wheelPageRemainder[axis] = exact - whole
            pages[axis] = whole
        }
        guard pages != .zero else { return }
        let size = bounds.size
        scrollStep { base in
            // From the page the content rests on (or a running step heads for).
            var target = base
            for axis in ScrollAxis.allCases where size[axis] > 0 {
                target[axis] = ((base[axis] / size[axis]).rounded() + pages[axis]) * size[axis]
            }
            return target
        }
    }

    /// Sources without a lift (trackpoint, button scrolling) move the content at once,
    /// within the range, like a series of tiny programmatic scrolls.
    private func scrollDirectly(by delta: CGPoint) {
        guard isScrollEnabled, !isTracking, makeWay() else { return }
        // Every axis lands inside its range, also one the content was pulled past and whose
        // bounce this stopped: nothing may stay overscrolled once the motion ends.
        let target = clamped(contentOffset + delta)
        guard target != contentOffset else { return }
        showIndicators()
        applyOffset(target)
        scheduleIndicatorFade(at: currentTime)
    }

    // MARK: Keyboard

    /// Arrow keys step 40 pt; Page_Up/Page_Down (Prior/Next) and space / Shift+space step a
    /// page less a small overlap; End goes to the bottom; Home and Ctrl+Home are the
    /// scroll-to-top trigger (`scrollToTop()`, with `scrollViewShouldScrollToTop` and
    /// `scrollViewDidScrollToTop`): on a desktop there is no status bar to tap, and both keys
    /// mean "go to the top" to a desktop user (decision). Key repeat arrives as more presses,
    /// each extending the running step.
    private func keyPressed(_ key: Key, modifiers: InputEvent.Modifiers) {
        guard isScrollEnabled, !isTracking else { return }
        let page = pageStep(.vertical)
        switch key {
        case .up:
            scrollStep { base in base + CGPoint(x: 0, y: -Self.arrowKeyDistance) }
        case .down:
            scrollStep { base in base + CGPoint(x: 0, y: Self.arrowKeyDistance) }
        case .left:
            scrollStep { base in base + CGPoint(x: -Self.arrowKeyDistance, y: 0) }
        case .right:
            scrollStep { base in base + CGPoint(x: Self.arrowKeyDistance, y: 0) }
        case .pageUp:
            scrollStep { base in base + CGPoint(x: 0, y: -page) }
        case .pageDown:
            scrollStep { base in base + CGPoint(x: 0, y: page) }
        case .space:
            let sign: CGFloat = modifiers.contains(.shift) ? -1 : 1
            scrollStep { base in base + CGPoint(x: 0, y: sign * page) }
        case .home:
            scrollToTop()
        case .end:
            let bottom = scrollRange(.vertical).upperBound
            scrollStep { base in CGPoint(x: base.x, y: bottom) }
        default:
            break
        }
    }

    private func pageStep(_ axis: ScrollAxis) -> CGFloat {
        let viewport = bounds.size[axis]
        return viewport - Swift.min(Self.pageOverlap, viewport * Self.pageOverlapViewportFraction)
    }

    /// Starts or extends a wheel/key step animation. Consecutive steps add to the target of
    /// the running step, not to where the content happens to be, so fast notches or key
    /// repeat never lose distance. Targets stay within the range; nothing happens when the
    /// target is where things already are.
    func scrollStep(_ destination: (CGPoint) -> CGPoint) {
        guard makeWay(keeping: .scrollAnimation) else { return }
        let base: CGPoint
        if case .animating(let running) = motion, running.kind == .step {
            base = running.target
        } else {
            base = contentOffset
        }
        let wanted = destination(base)
        // Axes without a range keep their offset; every axis ends inside its range, also one the
        // content was pulled past and whose bounce this step stopped (nothing stays overscrolled).
        var target = base
        for axis in ScrollAxis.allCases where hasScrollableRange(axis) { target[axis] = wanted[axis] }
        target = clamped(target)
        if case .animating(let running) = motion {
            guard running.target != target else { return }
        } else {
            guard target != contentOffset else { return }
        }
        startAnimation(to: target, kind: .step, duration: Self.stepAnimationDuration)
    }
}
