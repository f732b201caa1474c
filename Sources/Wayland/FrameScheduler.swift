// When to draw: at once after a dispatch if no frame callback is outstanding, otherwise
// when the callback comes; never a callback while nothing changes (idle costs nothing).
import Foundation

/// The frame-loop decisions, as a pure state machine (the window carries them out).
///
/// Every commit asks for one frame callback, so the compositor paces us; when the callback
/// arrives and nothing is dirty or animating, no new one is requested and the loop sleeps.
public struct FrameScheduler: Equatable, Sendable {
    /// Whether a `wl_surface.frame` callback is outstanding (at most one ever is).
    public private(set) var callbackPending = false
    /// Whether something changed that is not on screen yet.
    public private(set) var dirty = false
    /// Whether the scene asked to be ticked on the next frame.
    public private(set) var animating = false

    /// Creates an idle scheduler.
    public init() {}

    /// Something changed (input, code, configure): a frame is needed.
    public mutating func invalidate() { dirty = true }

    /// The scene's answer after a tick: keep ticking or not.
    public mutating func setAnimating(_ value: Bool) { animating = value }

    /// After dispatching events: should the window render now? True only when dirty and no
    /// callback is outstanding (the callback path renders otherwise).
    public func shouldRenderAfterDispatch() -> Bool { dirty && !callbackPending }

    /// The frame callback fired: should the window tick and render now?
    public mutating func callbackDone() -> Bool {
        callbackPending = false
        return dirty || animating
    }

    /// A frame was committed: a callback was requested with it and the changes are on screen.
    public mutating func committed() {
        dirty = false
        callbackPending = true
    }

    /// Nothing could be drawn (all buffers busy): stay dirty and try after the next release.
    public mutating func deferred() { dirty = true }
}
