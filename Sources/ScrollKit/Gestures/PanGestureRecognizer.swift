// Turns one finger's (or pointer's) positions into drag deltas: touch slop, directional lock,
// release velocity. A value fed by events, so a pinch recognizer can sit beside it later.
import Foundation

/// An axis of scrolling.
public enum ScrollAxis: String, Hashable, Sendable, CaseIterable {
    /// Left–right (x).
    case horizontal
    /// Up–down (y).
    case vertical
}

/// Recognises a pan (UIKit's `UIPanGestureRecognizer` for one finger) from positions with
/// timestamps. Positions are in any fixed coordinate space (the scroll view uses its
/// superview's); deltas come out in the same space.
public struct PanGestureRecognizer: Sendable {
    /// Where the recognizer is in its life.
    public typealias State = GestureRecognizerState

    /// What one movement did.
    public enum Update: Hashable, Sendable {
        /// Still below the slop (or not touching): nothing to scroll.
        case none
        /// The pan was recognised now; `delta` is how far past the slop the finger already is.
        case began(delta: CGPoint)
        /// The pan moved by `delta` since the previous update.
        case changed(delta: CGPoint)
    }

    /// 10 pt: the distance a finger travels before a touch becomes a drag, like UIKit's pan
    /// hysteresis (decision, iOS is about 10 pt). Scrolling then starts from the point where
    /// the slop was crossed, so content never jumps by the slop.
    public static let defaultMinimumDistance: CGFloat = 10

    /// tan ≈ 26.6°: a start whose minor component is at most half its major one counts as
    /// "clearly" horizontal or vertical and is locked to that axis (decision); anything more
    /// diagonal stays free for the whole drag.
    public static let directionalLockRatio: CGFloat = 0.5

    /// Distance, in points, before a touch is a pan.
    public var minimumDistance: CGFloat
    /// Whether a clearly horizontal or vertical start locks the pan to that axis.
    public var isDirectionalLockEnabled: Bool
    /// Current state.
    public private(set) var state: State = .possible
    /// The axis the pan is locked to, once decided (nil: free, or not decided yet).
    public private(set) var lockedAxis: ScrollAxis?
    /// Where the touch went down.
    public private(set) var startLocation: CGPoint = .zero
    /// The latest position.
    public private(set) var location: CGPoint = .zero
    /// Movement applied since the pan began, after the directional lock, in points.
    public private(set) var translation: CGPoint = .zero

    private var anchor: CGPoint = .zero
    /// The finger has travelled past the slop since it touched down.
    private var hasPassedSlop = false
    private var tracker = VelocityTracker()

    /// Creates a recognizer with a slop of `minimumDistance` points.
    public init(minimumDistance: CGFloat = PanGestureRecognizer.defaultMinimumDistance,
                isDirectionalLockEnabled: Bool = false) {
        self.minimumDistance = minimumDistance
        self.isDirectionalLockEnabled = isDirectionalLockEnabled
    }

    /// Whether the pan has been recognised and is still going.
    public var isActive: Bool { state == .began || state == .changed }

    /// A touch went down at `location` at `time` (ms). With `recognizeImmediately` the pan
    /// begins at once (a finger catching moving content, a touchpad whose compositor already
    /// decided it is scrolling), but movement still counts only past `minimumDistance`, where
    /// the directional lock is decided: a finger that catches content and lifts without really
    /// moving neither jiggles nor flings it. `recordsStart: false` keeps the
    /// start out of the velocity estimate, for sources whose start position is made up (a
    /// touchpad reports movements, not where the fingers were).
    public mutating func touchBegan(at location: CGPoint, time: Double, recognizeImmediately: Bool = false,
                                    recordsStart: Bool = true) {
        startLocation = location
        self.location = location
        anchor = location
        translation = .zero
        lockedAxis = nil
        hasPassedSlop = false
        tracker.reset()
        if recordsStart { tracker.addPosition(location, at: time) }
        state = recognizeImmediately ? .began : .possible
    }

    /// The touch moved to `location` at `time` (ms).
    public mutating func touchMoved(to location: CGPoint, time: Double) -> Update {
        guard state == .possible || isActive else { return .none }
        self.location = location
        tracker.addPosition(location, at: time)
        let fromStart = location - startLocation
        let distance = hypot(fromStart.x, fromStart.y)

        if !hasPassedSlop {
            guard distance > minimumDistance else { return .none }
            hasPassedSlop = true
            decideLock(direction: fromStart)
            // Start from the point on the slop circle: the content follows from there on.
            let scale = minimumDistance / distance
            anchor = CGPoint(x: startLocation.x + fromStart.x * scale, y: startLocation.y + fromStart.y * scale)
            let delta = filtered(location - anchor)
            anchor = location
            translation = translation + delta
            if state == .possible {
                state = .began
                return .began(delta: delta)
            }
            state = .changed
            return .changed(delta: delta)
        }

        let delta = filtered(location - anchor)
        anchor = location
        translation = translation + delta
        state = .changed
        return .changed(delta: delta)
    }

    /// The point the recognizer follows jumped to `location` without the hand moving: a second
    /// finger touched down (the pan follows the fingers' midpoint) or one of two lifted. The
    /// pan carries on from there with no delta for the jump; the slop circle moves along, and
    /// so do the velocity samples: the hand's movement before the jump still counts, so two
    /// fingers flicked and lifted together keep the gesture's velocity (UIPanGestureRecognizer
    /// ends with the last finger and the gesture's velocity).
    public mutating func reanchor(to location: CGPoint, time: Double) {
        let jump = location - self.location
        startLocation = startLocation + jump
        anchor = anchor + jump
        self.location = location
        if tracker.lastSampleTime == nil {
            tracker.addPosition(location, at: time)
        } else {
            tracker.shift(by: jump)
        }
    }

    /// The finger lifted at `time` (ms). Returns the release velocity in points per
    /// millisecond (zero when there was no pan, the finger never passed the slop, or it had
    /// stopped), lock applied.
    public mutating func touchEnded(at time: Double) -> CGPoint {
        let wasActive = isActive
        state = wasActive ? .ended : .failed
        return wasActive && hasPassedSlop ? velocity(at: time) : .zero
    }

    /// The touch sequence was taken away: no velocity, no fling.
    public mutating func cancel() {
        state = isActive ? .cancelled : .failed
    }

    /// The velocity the finger has at `time` (ms), in points per millisecond, lock applied.
    public func velocity(at time: Double) -> CGPoint {
        filtered(tracker.velocity(at: time))
    }

    private mutating func decideLock(direction d: CGPoint) {
        guard isDirectionalLockEnabled else { return }
        let ax = abs(d.x)
        let ay = abs(d.y)
        if ay <= ax * Self.directionalLockRatio {
            lockedAxis = .horizontal
        } else if ax <= ay * Self.directionalLockRatio {
            lockedAxis = .vertical
        }
    }

    private func filtered(_ p: CGPoint) -> CGPoint {
        switch lockedAxis {
        case .horizontal: CGPoint(x: p.x, y: 0)
        case .vertical: CGPoint(x: 0, y: p.y)
        case nil: p
        }
    }
}
