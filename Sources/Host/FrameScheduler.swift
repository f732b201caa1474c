// When a host ticks and draws its scene: after a change, while the scene animates, and when a
// timer the scene asked for is due; never while nothing changes (an idle window costs nothing).
// One state machine for every host: the Wayland window, the offscreen window and the replay.
import Foundation

/// The frame-loop decisions, as a pure state machine: hosts report what happened (a change,
/// the scene's answer, a commit, a callback, a timer) and carry out what it says.
///
/// A live window asks for one frame callback with every commit, so the compositor paces it;
/// when the callback arrives and nothing changed or animates, it asks for no other and sleeps.
/// Hosts on a simulated clock (the offscreen window, the replay) have no callbacks: they ask
/// `wantsFrame` at each vsync instead, and take their frame then.
public struct FrameScheduler: Equatable, Sendable {
    /// Whether a `wl_surface.frame` callback is outstanding (at most one ever is).
    public private(set) var callbackPending = false
    /// Whether something changed that no frame has drawn yet.
    public private(set) var dirty = false
    /// Whether the scene asked to be ticked on the next frame.
    public private(set) var animating = false
    /// When the scene asked to be woken, in ms on the host's clock; nil when it did not.
    public private(set) var wakeTime: Double?

    /// Creates an idle scheduler.
    public init() {}

    /// Whether the next vsync should tick the scene: it changed or animates.
    public var wantsFrame: Bool { dirty || animating }

    /// Something changed (input, code, configure, a decoder's result): a frame is needed.
    public mutating func invalidate() { dirty = true }

    /// The scene's answer after a tick, or whenever the host asked it what it waits for.
    public mutating func sceneRequests(_ request: FrameRequest) {
        switch request {
        case .idle: sceneRequests(animating: false, wakeTime: nil)
        case .nextFrame: sceneRequests(animating: true, wakeTime: nil)
        case .at(let time): sceneRequests(animating: false, wakeTime: time)
        }
    }

    /// The same for a host that knows both at once: whether anything animates, and the
    /// earliest timer (which may fall between two frames of an animation).
    public mutating func sceneRequests(animating: Bool, wakeTime: Double?) {
        self.animating = animating
        self.wakeTime = wakeTime
    }

    /// The timer for `wakeTime` fired: the scene needs a tick now that it is due.
    public mutating func timerFired() {
        wakeTime = nil
        dirty = true
    }

    /// A tick begins: it draws every change made so far. Changes the scene makes while it
    /// advances mark it dirty again, for the frame after (a replay counts that frame; a live
    /// window's commit clears it, see `committed`).
    public mutating func frameStarts() { dirty = false }

    /// After dispatching events: should the window tick and render now? True only when dirty
    /// and no callback is outstanding (the callback path renders otherwise).
    public func shouldRenderAfterDispatch() -> Bool { dirty && !callbackPending }

    /// The frame callback fired: should the window tick and render now?
    public mutating func callbackDone() -> Bool {
        callbackPending = false
        return wantsFrame
    }

    /// A frame was committed with a callback requested: its changes are on screen.
    public mutating func committed() {
        dirty = false
        callbackPending = true
    }

    /// Nothing could be drawn (all buffers busy): stay dirty and try after the next release.
    public mutating func deferred() { dirty = true }
}
