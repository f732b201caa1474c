// Routes every finger and the pointer button: the first touch to its drag session and content
// control, a second finger into a pinch, and taps into the double-tap recognizer.
import Foundation

extension ScrollView {
    /// Who owns touch input now: the running session's finger, pointer or touchpad, or the
    /// finger or pointer a control holds while scrolling is off.
    var touchOwner: DragSession.Source? {
        if let session = currentSession { return session.source }
        return contentTouch?.source
    }

    /// A finger or the pointer button went down at `location` (superview coordinates).
    /// The first touch starts a session (catching momentum if there is some) and may be
    /// meant for a control; a second finger may start a pinch; anything else is ignored.
    func touchBegan(_ source: DragSession.Source, at location: CGPoint, time: Double, event: InputEvent) {
        if let owner = touchOwner {
            if case .touch(let id) = source, case .touch = owner, owner != source {
                secondFingerDown(id: id, at: location, time: time)
            }
            return
        }
        guard acceptsTouch(at: location) else { return }
        var caught = false
        if isScrollEnabled {
            if case .decelerating = motion { caught = true }
            beginTouch(source, at: location, time: time)
        }
        // Tap-to-stop is for the scroll view alone: no control, no tap count.
        guard !caught else {
            doubleTap.reset()
            tapSource = nil
            return
        }
        tapSource = source
        doubleTap.touchBegan(at: convertFromSuperview(location), time: time)
        beginContentTouch(source, at: location, time: time, event: event)
    }

    /// The touch of `source` moved to `location` (superview coordinates).
    func touchMoved(_ source: DragSession.Source, to location: CGPoint, time: Double) {
        if source == tapSource { doubleTap.touchMoved(to: convertFromSuperview(location)) }
        if case .touch(let id) = source, var session = currentSession, session.secondFinger?.id == id {
            session.secondFinger?.location = location
            currentSession = session
            pendingPinchStep = time
            return
        }
        guard source == touchOwner else { return }
        let held = moveContentTouch(source, to: location)
        guard var session = currentSession else { return }
        if held || session.secondFinger != nil {
            session.location = location
            currentSession = session
            if !held { pendingPinchStep = time }
        } else {
            moveTouch(source, to: location, time: time)
        }
    }

    /// The touch of `source` lifted: a control that has it gets its tap, a drag ends, a
    /// second tap in time and place calls `onDoubleTap`; one of two fingers ends the pinch.
    func touchEnded(_ source: DragSession.Source, time: Double, event: InputEvent) {
        if case .touch(let id) = source, let session = currentSession, let second = session.secondFinger,
           second.id == id || session.source == source {
            pinchFingerLifted(id: id, time: time)
            return
        }
        let owned = source == touchOwner
        let consumed = owned && endContentTouch(source, event: event)
        if owned { endTouch(source, time: time) }
        guard source == tapSource else { return }
        tapSource = nil
        if consumed {
            doubleTap.reset()
        } else if let location = doubleTap.touchEnded(at: time) {
            onDoubleTap?(location)
        }
    }

    /// The compositor cancelled the touch sequence: controls get `touchCancel`, a pinch ends
    /// (bouncing back if it went past a limit), a drag ends without a fling.
    func touchesCancelled() {
        tapSource = nil
        doubleTap.reset()
        cancelContentTouch()
        if let session = currentSession, let second = session.secondFinger {
            pinchFingerLifted(id: second.id, time: currentTime)
        }
        cancelTouch()
    }

    /// Applies the two-finger movement of the frame so far, once for all its fingers.
    func flushPinchStep() {
        guard let time = pendingPinchStep else { return }
        pendingPinchStep = nil
        pinchFingersMoved(time: time)
    }
}
