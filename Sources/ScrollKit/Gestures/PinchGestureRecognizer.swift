// Turns two fingers (or a touchpad's pinch) into a scale and a centroid: the pinch half of
// UIScrollView's zooming, a value fed by events beside the pan recognizer.
import Foundation

/// Recognises a pinch (UIKit's `UIPinchGestureRecognizer`) from the spread of two fingers.
///
/// `scale` is the spread now divided by the spread when the second finger touched down, so
/// content scaled by it stays under both fingers. The pinch is recognised once the spread has
/// changed by `minimumSpreadChange`; the scale is still measured from the touch-down spread,
/// so nothing of the finger movement is lost to the threshold. A touchpad reports its scale
/// directly: it is fed as a "spread" that starts at 1, and it is recognised at once because the
/// compositor already decided it is a pinch.
public struct PinchGestureRecognizer: Sendable {
    /// Where the recognizer is in its life.
    public typealias State = GestureRecognizerState

    /// What one movement did.
    public enum Update: Hashable, Sendable {
        /// Not (yet) a pinch.
        case none
        /// The pinch was recognised now.
        case began
        /// The pinch changed.
        case changed
    }

    /// 4 pt: how much the distance between two fingers must change before they pinch
    /// (decision: a two-finger pan whose fingers wobble a little stays a pan, while a real
    /// pinch passes it within a frame or two; UIKit's own threshold is not published).
    public static let minimumSpreadChange: CGFloat = 4

    /// 1 pt: the smallest starting spread; two contacts closer than this (impossible for real
    /// fingers, possible in a hand-written trace) are treated as this far apart so the scale
    /// stays finite.
    public static let minimumStartSpread: CGFloat = 1

    /// Current state.
    public private(set) var state: State = .possible
    /// The spread when the gesture started: points between the fingers, or 1 for a touchpad.
    public private(set) var startSpread: CGFloat = 1
    /// The latest spread, in the same unit as `startSpread`.
    public private(set) var spread: CGFloat = 1
    /// The fingers' midpoint when the gesture started (superview coordinates, points).
    public private(set) var startCentroid: CGPoint = .zero
    /// The latest midpoint of the fingers (superview coordinates, points).
    public private(set) var centroid: CGPoint = .zero
    /// The spread change needed before the pinch is recognised, in `spread` units.
    public var minimumChange: CGFloat

    /// Creates an idle recognizer needing `minimumChange` points of spread change.
    public init(minimumChange: CGFloat = PinchGestureRecognizer.minimumSpreadChange) {
        self.minimumChange = minimumChange
    }

    /// The scale the fingers ask for since the gesture started (1 = unchanged).
    public var scale: CGFloat { spread / startSpread }

    /// Whether the pinch has been recognised and is still going.
    public var isActive: Bool { state == .began || state == .changed }

    /// Two fingers are down at `a` and `b` (superview coordinates).
    public mutating func touchesBegan(_ a: CGPoint, _ b: CGPoint) {
        begin(spread: Self.distance(a, b), centroid: Self.midpoint(a, b), recognized: false)
    }

    /// One of the two fingers moved; `a` and `b` are both fingers' latest positions.
    public mutating func touchesMoved(_ a: CGPoint, _ b: CGPoint) -> Update {
        move(spread: Self.distance(a, b), centroid: Self.midpoint(a, b))
    }

    /// A touchpad pinch began with the pointer at `centroid` (superview coordinates).
    public mutating func touchpadBegan(at centroid: CGPoint) {
        begin(spread: 1, centroid: centroid, recognized: true)
    }

    /// A touchpad pinch update: `scale` is cumulative since begin, `pan` is the movement of the
    /// fingers since the previous update, in points.
    public mutating func touchpadChanged(scale: CGFloat, pan: CGPoint) -> Update {
        move(spread: scale, centroid: centroid + pan)
    }

    /// A finger lifted, or the touchpad gesture ended.
    public mutating func end() {
        state = isActive ? .ended : .failed
    }

    /// The touch sequence was taken away.
    public mutating func cancel() {
        state = isActive ? .cancelled : .failed
    }

    private mutating func begin(spread: CGFloat, centroid: CGPoint, recognized: Bool) {
        startSpread = spread.isFinite ? Swift.max(spread, Self.minimumStartSpread) : Self.minimumStartSpread
        self.spread = startSpread
        startCentroid = centroid
        self.centroid = centroid
        state = recognized ? .began : .possible
    }

    private mutating func move(spread newSpread: CGFloat, centroid newCentroid: CGPoint) -> Update {
        guard state == .possible || isActive, newSpread.isFinite, newSpread > 0,
              newCentroid.x.isFinite, newCentroid.y.isFinite else { return .none }
        spread = newSpread
        centroid = newCentroid
        if state == .possible {
            guard abs(newSpread - startSpread) >= minimumChange else { return .none }
            state = .began
            return .began
        }
        state = .changed
        return .changed
    }

    static func distance(_ a: CGPoint, _ b: CGPoint) -> CGFloat { hypot(b.x - a.x, b.y - a.y) }
    static func midpoint(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
}
