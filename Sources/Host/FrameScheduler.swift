// When a host ticks and draws its scene: after a change, while the scene animates, and when a
// timer the scene asked for is due; never while nothing changes (an idle window costs nothing).
// One state machine for every host: the Wayland window, the offscreen window and the replay.
// A live window may also draw a frame ahead of its callback while the scene's motion runs on
// its own (see "Drawing ahead" below).
import Foundation

/// The frame-loop decisions, as a pure state machine: hosts report what happened (a change,
/// the scene's answer, a commit, a callback, a timer) and carry out what it says.
///
/// A live window asks for one frame callback with every commit, so the compositor paces it;
/// when the callback arrives and nothing changed or animates, it asks for no other and sleeps.
/// Hosts on a simulated clock (the offscreen window, the replay) have no callbacks: they ask
/// `wantsFrame` at each vsync instead, and take their frame then.
///
/// ## Drawing ahead
///
/// Momentum, bounces, paging and timed zooms are functions of time alone, so while nothing
/// follows a finger a live window can draw the frame for its next callback as soon as it has
/// committed one, into a spare buffer, and commit it the moment the callback arrives: the frame
/// then has the whole refresh before the callback and the one after it to be drawn in, where it
/// had only the one after. Its time is the callback's predicted arrival (the arrival of the
/// callback the last commit answered, or the time a frame drawn after a dispatch was ticked for,
/// plus one refresh), the time it would have been drawn for on arrival.
///
/// A change the frame did not draw (input, a timer, a configure) makes it stale. While
/// the motion still runs on its own (a new wheel notch) it is drawn again at once for the same
/// time, or, when the change is read with the callback (or two frames were drawn already), it
/// is committed as it is and the change drawn ahead for the next callback: it shows the moment
/// before the change, as if the change had come just after the callback. When a finger now
/// leads it is thrown away and the callback draws as before. Hosts on a simulated clock never
/// draw ahead: nothing they do changes.
///
/// The scene itself is advanced to the frame's time when the frame is drawn, one refresh before
/// it is committed: delegates hear of an offset, a zoom or the end of a motion when its frame is
/// drawn, and input arriving before the callback meets the state that frame shows. This is how
/// UIKit runs: the display link's handler moves the model to the frame's target time, the
/// transaction is committed, the render server draws it during the next refresh and it reaches
/// the screen after that; delegates and touches always see the model, never what is on the
/// glass. A scroll view's clock never goes back, so an event stamped before the frame's time is
/// handled at that time (`ScrollView.advance(to:)`, `receive(_:)`).
public struct FrameScheduler: Equatable, Sendable {
    /// Whether a `wl_surface.frame` callback is outstanding (at most one ever is).
    public private(set) var callbackPending = false
    /// Whether something changed that no frame has drawn yet.
    public private(set) var dirty = false
    /// Whether the scene asked to be ticked on the next frame.
    public private(set) var animating = false
    /// When the scene asked to be woken, in ms on the host's clock; nil when it did not.
    public private(set) var wakeTime: Double?
    /// The time (ms) of the frame drawn ahead and not committed yet; nil when none is held.
    public private(set) var heldFrameTime: Double?
    /// When the outstanding callback is expected (ms): one refresh after the time of the commit
    /// that asked for it (`committed(at:)`); nil when unknown.
    public private(set) var expectedCallbackTime: Double?
    /// Ticks since the last callback, or since the tick that began the frames after a dispatch
    /// or a timer (frames drawn as now or ahead); see `maxFramesPerCallback`.
    public private(set) var framesSinceCallback = 0
    /// The output's refresh interval in ms (`assumedRefreshInterval` until the host knows better).
    public var refreshInterval = FrameScheduler.assumedRefreshInterval
    /// Whether every change not drawn yet came from background work (`invalidateFromBackground`:
    /// a decoder's result) while nothing animated. Such a change is drawn when the callback
    /// comes, into the buffer the compositor gives back with it, not ahead into a buffer made
    /// for it (see `needsSpareBuffer`).
    public private(set) var changedInBackgroundOnly = false
    /// The held frame being committed does not show a change (`commitHeldThenChange`): the
    /// commit leaves the scheduler dirty, so the change is drawn next.
    private var changeOutlivesCommit = false

    /// 1000/60 ms: the refresh assumed while no output has said its own (60 Hz, what every
    /// compositor measured here runs its headless and nested outputs at).
    public static let assumedRefreshInterval = 1000.0 / 60
    /// 2: at most two frames are drawn per callback, the one shown and one ahead; a third
    /// change before the callback waits for it, so a burst of input cannot keep the loop
    /// drawing frames nobody sees (decision).
    public static let maxFramesPerCallback = 2

    /// Creates an idle scheduler.
    public init() {}

    /// Whether the next vsync should tick the scene: it changed or animates.
    public var wantsFrame: Bool { dirty || animating }

    /// Something changed (input, code, configure): a frame is needed.
    public mutating func invalidate() {
        dirty = true
        changedInBackgroundOnly = false
    }

    /// Background work changed the scene (a decoder's result woke the loop): a frame is needed.
    /// When nothing else is waiting to be drawn and nothing animates, it is a still change.
    public mutating func invalidateFromBackground() {
        if !dirty { changedInBackgroundOnly = !animating }
        dirty = true
    }

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
        invalidate()
    }

    /// A tick begins: it draws every change made so far. Changes the scene makes while it
    /// advances mark it dirty again, for the frame after (a replay counts that frame; a live
    /// window's commit clears it, see `committed`).
    public mutating func frameStarts() {
        dirty = false
        changedInBackgroundOnly = false
        changeOutlivesCommit = false
        // A tick with no callback outstanding (after a dispatch, a timer) starts the count anew.
        framesSinceCallback = callbackPending ? framesSinceCallback + 1 : 1
    }

    /// After dispatching events: should the window tick and render now? True only when dirty
    /// and no callback is outstanding (the callback path renders otherwise).
    public func shouldRenderAfterDispatch() -> Bool { dirty && !callbackPending }

    /// The frame callback fired: should the window tick and render now? For a host that never
    /// draws ahead (a held frame is given up: the callback draws as now).
    public mutating func callbackDone() -> Bool {
        callbackPending = false
        heldFrameTime = nil
        expectedCallbackTime = nil
        framesSinceCallback = 0
        return wantsFrame
    }

    /// A frame was committed with a callback requested: its changes are on screen (all but the
    /// one a held frame committed by `commitHeldThenChange` does not show).
    public mutating func committed() {
        dirty = changeOutlivesCommit
        changedInBackgroundOnly = false
        changeOutlivesCommit = false
        callbackPending = true
        heldFrameTime = nil
        expectedCallbackTime = nil
    }

    /// Nothing could be drawn (all buffers busy): stay dirty and try after the next release.
    public mutating func deferred() { dirty = true }

    // MARK: Drawing ahead (live windows)

    /// What a window that draws ahead does when its frame callback fires.
    public enum CallbackAnswer: Equatable, Sendable {
        /// Nothing changed or animates: ask for no other callback.
        case sleep
        /// Tick and draw now, for the callback's time (a held frame, if any, is given up).
        case draw
        /// Commit the frame drawn ahead as it is.
        case commitHeld
        /// Commit the frame drawn ahead, which shows the moment before a change that leaves the
        /// motion running by itself (a wheel notch read with the callback), then draw that
        /// change ahead for the next callback: the change shows a refresh later, as it would
        /// have had it come just after the callback, and no frame is drawn twice or late.
        case commitHeldThenChange
    }

    /// The frame callback fired, for a host that draws ahead: commit the frame held for it when
    /// nothing changed since it was drawn; when something did and the motion still runs by itself
    /// (`predictable`, asked only then), commit it and draw the change next
    /// (`commitHeldThenChange`); when a finger now leads, draw as now (what the held frame drew
    /// has not been shown). Without a held frame, draw or sleep as `callbackDone()` says. After
    /// `commitHeldThenChange` the commit leaves the scheduler dirty: `drawAheadTime` then gives
    /// the change's frame the next callback's time.
    ///
    /// A held frame is committed however late its callback comes. A compositor slower than its
    /// output is normal (sway's pixman renderer at 3840×2160 on two busy cores calls back every
    /// 23–38 ms, measured here), and when frames take longer than a refresh (a debug build on a
    /// loaded machine: 1.2–1.7 s at 800×600) every held frame is old by then: drawing it again
    /// would double the work exactly when the machine has least to spare. The next frame is
    /// drawn for the new callback's time, so the motion catches up at once.
    public mutating func callbackArrived(predictable: @autoclosure () -> Bool) -> CallbackAnswer {
        let held = heldFrameTime != nil
        let wanted = callbackDone()
        guard held else { return wanted ? .draw : .sleep }
        guard dirty else { return .commitHeld }
        guard predictable() else { return .draw }
        changeOutlivesCommit = true
        return .commitHeldThenChange
    }

    /// A frame answering a callback (or drawn after a dispatch) at `time` (ms) was committed
    /// with a callback requested: as `committed()`, and the callback is expected one refresh
    /// after `time`.
    public mutating func committed(at time: Double) {
        committed()
        expectedCallbackTime = time + refreshInterval
    }

    /// Right after a commit, or after a dispatch: the time (ms) to draw the frame for the
    /// outstanding callback ahead of it, or nil. `predictable` is the scene's word that its
    /// next frame depends on time alone (`Scene.isMotionPredictable`).
    ///
    /// After a commit the scene must animate with nothing changed since; after a dispatch
    /// that changed something (the held frame, if any, is stale) the motion must still run on
    /// its own. Either way a callback must be outstanding with a known expected time, and no
    /// more than `maxFramesPerCallback` frames drawn since the last callback.
    /// `predictable` is asked only when the rest allows drawing ahead.
    public func drawAheadTime(predictable: @autoclosure () -> Bool) -> Double? {
        guard callbackPending, let expected = expectedCallbackTime, framesSinceCallback < Self.maxFramesPerCallback,
              dirty || heldFrameTime == nil && animating else { return nil }
        // Dirty: the held frame (if any) is stale, or a motion just began.
        return predictable() ? expected : nil
    }

    /// Whether a window with no free buffer should make one for the frame it cannot draw ahead
    /// now (the callback's frame, and the ones drawn ahead after it): while a motion runs, or
    /// for a change that may start one (input, a timer, a configure). Not for a still change
    /// from background work (`changedInBackgroundOnly`): a compositor that holds the last
    /// frame's buffer gives the one before it back with the callback (sway does, just before
    /// the `done` event), and the callback draws the change into it. A picture's last
    /// rendition arriving just after the frame before it had a third buffer made under sway,
    /// 8.1 MiB at 1920×1080 that stayed for 2 s: the start-up's peak.
    public var needsSpareBuffer: Bool { animating || !changedInBackgroundOnly }

    /// The frame for `time` was drawn ahead and is held for the callback: the changes it drew
    /// (the tick's own included) are in it.
    public mutating func drewAhead(for time: Double) {
        dirty = false
        heldFrameTime = time
    }

    /// Whether the host holds a frame that does not show everything: something changed since it
    /// was drawn. The host draws ahead again, or keeps it for `callbackArrived` when the motion
    /// still runs by itself, or gives it up (`discardHeldFrame`).
    public var heldFrameIsStale: Bool { heldFrameTime != nil && dirty }

    /// The held frame was given up: the callback draws as now. What it drew was never shown, so
    /// the host must draw the next tick even if the scene reports no change since.
    public mutating func discardHeldFrame() { heldFrameTime = nil }
}
