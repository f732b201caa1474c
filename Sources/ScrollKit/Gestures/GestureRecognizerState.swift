// The life of a gesture, shared by the pan and pinch recognizers as UIKit's recognizers
// share `UIGestureRecognizer.State`.

/// Where a gesture recognizer is in its life (UIKit's gesture recognizer states).
public enum GestureRecognizerState: Hashable, Sendable {
    /// Touching, but not (yet) this gesture: a pan below the slop, fingers whose spread has
    /// not changed enough to pinch.
    case possible
    /// The gesture was recognised by the latest event.
    case began
    /// The gesture changed again.
    case changed
    /// The fingers lifted (or the touchpad gesture ended) after the gesture.
    case ended
    /// The touch sequence was taken away (e.g. `touchCancel`).
    case cancelled
    /// The touches ended without ever becoming this gesture (a tap, fingers that never pinched).
    case failed
}
