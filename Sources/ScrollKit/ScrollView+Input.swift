// Linux input mapped onto the scroll view: touch and pointer drags, touchpad scrolling with
// momentum, animated wheel notches and keyboard scrolling.
import Foundation

extension ScrollView {
    /// 15 axis units per wheel notch: libinput's (and so wlroots', GNOME's, KDE's) 15° click
    /// angle, used when a wheel event carries no value120 (weston sends 10, which then scrolls
    /// two thirds of a notch).
    public static let wheelAxisUnitsPerNotch: CGFloat = 15
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

    /// Delivers one input event; `event.time` (ms) is "now". Coordinates are in the scroll
    /// view's superview space (the space of `frame`). Touches and button presses must start
    /// inside the frame; wheel, touchpad (scroll and pinch) and key events are taken as
    /// addressed to this view. Key events also tell it whether Ctrl is held (Ctrl+wheel zooms).
    /// Nothing animates here: momentum and steps start at `event.time` and move in
    /// `advance(to:)`; only direct manipulation (a drag) moves content at once.
    public func handle(_ event: InputEvent) {
        let time = event.time.isFinite ? event.time : currentTime
        currentTime = Swift.max(currentTime, time)
        switch event.kind {
        case .touchDown(let id, let location):
            guard isUsable(location) else { return }
            touchBegan(.touch(id: id), at: location, time: time, event: event)
        case .touchMotion(let id, let location):
            guard isUsable(location) else { return }
            touchMoved(.touch(id: id), to: location, time: time)
        case .touchUp(let id):
            touchEnded(.touch(id: id), time: time, event: event)
        case .touchCancel:
            touchesCancelled()
        case .pointerEnter(let location), .pointerMotion(let location):
            guard isUsable(location) else { return }
            pointerLocation = location
            if pointerPressPending {
                pointerPressPending = false
                touchBegan(.pointer, at: location, time: time, event: event)
            } else {
                touchMoved(.pointer, to: location, time: time)
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
        case .pointerAxis(let source, let dx, let dy, let value120X, let value120Y):
            guard dx.isFinite, dy.isFinite else { return }
            if modifierState.contains(.ctrl), canZoom {
                // Ctrl+wheel zooms around the pointer, as in browsers and image viewers.
                let notches = value120Y.map { CGFloat($0) / 120 } ?? dy / Self.wheelAxisUnitsPerNotch
                wheelZoom(notches: notches, animated: source == .wheel || source == .wheelTilt)
                return
            }
            switch source {
            case .finger:
                touchpadScroll(dx: dx, dy: dy, time: time)
            case .wheel, .wheelTilt:
                wheelScroll(dx: dx, dy: dy, value120X: value120X, value120Y: value120Y)
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
        case .key(let name, let pressed, let modifiers):
            trackModifiers(key: name, pressed: pressed, modifiers: modifiers)
            guard pressed else { return }
            keyPressed(name, modifiers: modifiers)
        }
    }

    /// Ctrl state for Ctrl+wheel zoom, from key events: each carries the modifiers held, and
    /// the Control keys themselves count at once (an event's modifiers may be those from just
    /// before the key changed them). A host sends the Control_L/Control_R presses and
    /// releases it sees, as the keyboard's other keys.
    private func trackModifiers(key name: String, pressed: Bool, modifiers: InputEvent.Modifiers) {
        modifierState = modifiers
        if name == "Control_L" || name == "Control_R" {
            if pressed { modifierState.insert(.ctrl) } else { modifierState.remove(.ctrl) }
        }
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

    private func wheelScroll(dx: CGFloat, dy: CGFloat, value120X: Int?, value120Y: Int?) {
        guard isScrollEnabled, !isTracking else { return }
        var notches = CGPoint(x: value120X.map { CGFloat($0) / 120 } ?? dx / Self.wheelAxisUnitsPerNotch,
                              y: value120Y.map { CGFloat($0) / 120 } ?? dy / Self.wheelAxisUnitsPerNotch)
        // A plain wheel on content that only scrolls sideways scrolls it sideways.
        if notches.x == 0, !hasScrollableRange(.vertical), hasScrollableRange(.horizontal) {
            notches = CGPoint(x: notches.y, y: 0)
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
    private func keyPressed(_ name: String, modifiers: InputEvent.Modifiers) {
        guard isScrollEnabled, !isTracking else { return }
        let page = pageStep(.vertical)
        switch name {
        case "Up", "KP_Up":
            scrollStep { base in base + CGPoint(x: 0, y: -Self.arrowKeyDistance) }
        case "Down", "KP_Down":
            scrollStep { base in base + CGPoint(x: 0, y: Self.arrowKeyDistance) }
        case "Left", "KP_Left":
            scrollStep { base in base + CGPoint(x: -Self.arrowKeyDistance, y: 0) }
        case "Right", "KP_Right":
            scrollStep { base in base + CGPoint(x: Self.arrowKeyDistance, y: 0) }
        case "Page_Up", "Prior", "KP_Page_Up", "KP_Prior":
            scrollStep { base in base + CGPoint(x: 0, y: -page) }
        case "Page_Down", "Next", "KP_Page_Down", "KP_Next":
            scrollStep { base in base + CGPoint(x: 0, y: page) }
        case "space", "KP_Space":
            let sign: CGFloat = modifiers.contains(.shift) ? -1 : 1
            scrollStep { base in base + CGPoint(x: 0, y: sign * page) }
        case "Home", "KP_Home":
            scrollToTop()
        case "End", "KP_End":
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
