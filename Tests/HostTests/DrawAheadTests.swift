// Drawing ahead in the frame scheduler: a live window draws the frame for its next callback as
// soon as it has committed one, while the scene moves by itself, and commits it on arrival.
import Host
import Testing

@Suite("Frame scheduler: drawing ahead")
struct DrawAheadTests {
    /// 16 ms refreshes keep the expected times exact.
    static let refresh = 16.0

    /// A scheduler whose window committed a frame answering a callback at `time` while the
    /// scene animates: the state right after the commit.
    static func animatingAfterCommit(at time: Double) -> FrameScheduler {
        var s = FrameScheduler()
        s.refreshInterval = refresh
        s.invalidate()
        s.frameStarts()
        s.sceneRequests(.nextFrame)
        s.committed(at: time)
        return s
    }

    @Test("After a commit at t, an animation that runs by itself is drawn ahead for t + one refresh, once")
    func drawsAheadOnce() {
        var s = Self.animatingAfterCommit(at: 1000)
        #expect(s.expectedCallbackTime == 1016)
        #expect(s.drawAheadTime(predictable: false) == nil, "a finger on the content: drawn when the callback comes")
        #expect(s.drawAheadTime(predictable: true) == 1016)
        s.frameStarts()
        s.invalidate()  // the tick moved the content
        s.sceneRequests(.nextFrame)
        s.drewAhead(for: 1016)
        #expect(s.heldFrameTime == 1016 && !s.dirty, "the tick's own changes are in the held frame")
        #expect(s.drawAheadTime(predictable: true) == nil, "one frame is held at a time")
        #expect(!s.shouldRenderAfterDispatch() && !s.heldFrameIsStale)
    }

    @Test("The callback commits the held frame, and the next one is drawn ahead from its arrival")
    func callbackCommitsHeld() {
        var s = Self.animatingAfterCommit(at: 1000)
        s.drawAhead(for: 1016)
        #expect(s.callbackArrived(predictable: true) == .commitHeld)
        #expect(s.heldFrameTime == nil && !s.callbackPending)
        s.committed(at: 1017.5)
        #expect(s.drawAheadTime(predictable: true) == 1033.5, "last callback time + one refresh")
    }

    @Test("The last frame of a motion is held and committed too; then the loop sleeps")
    func lastFrame() {
        var s = Self.animatingAfterCommit(at: 1000)
        s.drawAhead(for: 1016, request: .idle)  // the deceleration ends at the frame's time
        #expect(s.callbackArrived(predictable: true) == .commitHeld)
        s.committed(at: 1016)
        #expect(s.drawAheadTime(predictable: true) == nil, "nothing animates")
        #expect(s.callbackArrived(predictable: true) == .sleep)
    }

    /// A window in the steady state of drawing ahead: the callback at `time` committed the frame
    /// held for it and the next one is held for `time` + one refresh.
    static func steady(at time: Double) -> FrameScheduler {
        var s = animatingAfterCommit(at: time - refresh)
        s.drawAhead(for: time)
        _ = s.callbackArrived(predictable: true)
        s.committed(at: time)
        s.drawAhead(for: time + refresh)
        return s
    }

    @Test("A change after the frame was drawn (a new wheel notch) has it drawn again at once, for the same time")
    func redrawnAfterInput() {
        var s = Self.steady(at: 984)
        #expect(s.heldFrameTime == 1000)
        s.invalidate()  // the notch
        #expect(s.heldFrameIsStale)
        #expect(!s.shouldRenderAfterDispatch(), "a callback is outstanding")
        #expect(s.drawAheadTime(predictable: true) == 1000, "the motion still runs by itself")
        s.drawAhead(for: 1000)
        #expect(s.callbackArrived(predictable: true) == .commitHeld)
    }

    @Test("A finger catching the motion throws the held frame away; the callback draws as now")
    func fingerCatches() {
        var s = Self.steady(at: 1000)
        s.invalidate()
        #expect(s.drawAheadTime(predictable: false) == nil)
        #expect(s.heldFrameIsStale)
        s.discardHeldFrame()
        #expect(s.heldFrameTime == nil && !s.heldFrameIsStale)
        #expect(s.callbackArrived(predictable: true) == .draw)
    }

    @Test("A change read with the callback, the motion still running by itself (a wheel notch), has the held frame committed and the change drawn ahead for the next callback")
    func changeWithCallback() {
        var s = Self.steady(at: 1000)
        s.invalidate()  // a wheel notch read in the same dispatch as the callback
        #expect(s.callbackArrived(predictable: true) == .commitHeldThenChange)
        #expect(s.heldFrameTime == nil && s.framesSinceCallback == 0)
        s.committed(at: 1016)
        #expect(s.dirty, "the held frame does not show the notch")
        #expect(s.drawAheadTime(predictable: true) == 1032, "the notch's frame is drawn ahead for the next callback")
        s.drawAhead(for: 1032)
        #expect(!s.dirty && s.framesSinceCallback == 1)
        #expect(s.callbackArrived(predictable: true) == .commitHeld)
        s.committed(at: 1032)
        #expect(!s.dirty, "only the commit of the held frame keeps a change for later")
    }

    @Test("A change read with the callback while a finger leads gives the held frame up; the callback draws as now")
    func changeWithCallbackFinger() {
        var s = Self.steady(at: 1000)
        s.invalidate()  // a finger caught the motion
        #expect(s.callbackArrived(predictable: false) == .draw)
        #expect(s.heldFrameTime == nil)
        s.frameStarts()
        s.sceneRequests(.idle)
        s.committed(at: 1016)
        #expect(!s.dirty && s.drawAheadTime(predictable: true) == nil, "the frame drawn now showed the change")
    }

    @Test("At most two frames are drawn per callback: a third change waits for it, the held frame committed before it")
    func limitPerCallback() {
        var s = Self.animatingAfterCommit(at: 1000)
        #expect(s.framesSinceCallback == 1, "the frame committed")
        s.drawAhead(for: 1016)
        s.invalidate()
        #expect(s.drawAheadTime(predictable: true) == nil, "the shown frame and one ahead were drawn")
        #expect(s.heldFrameIsStale)
        #expect(s.callbackArrived(predictable: true) == .commitHeldThenChange, "the motion still runs by itself")
        #expect(s.framesSinceCallback == 0)
        s.committed(at: 1016)
        #expect(s.drawAheadTime(predictable: true) == 1032, "the third change is drawn ahead for the next callback")
        // Committing a held frame draws nothing: after it, one redraw is still allowed, not two.
        var t = Self.steady(at: 1016)
        #expect(t.framesSinceCallback == 1)
        t.invalidate()
        #expect(t.drawAheadTime(predictable: true) == 1032)
        t.drawAhead(for: 1032)
        t.invalidate()
        #expect(t.drawAheadTime(predictable: true) == nil)
        // A finger leads now: the host gives the stale frame up and the callback draws.
        t.discardHeldFrame()
        #expect(t.callbackArrived(predictable: false) == .draw)
    }

    @Test("A motion that begins while a callback is outstanding (a fling's release) is drawn ahead at once")
    func motionBegins() {
        var s = FrameScheduler()
        s.refreshInterval = Self.refresh
        s.invalidate()
        s.frameStarts()
        s.sceneRequests(.idle)  // a drag frame: nothing animates by itself
        s.committed(at: 500)
        #expect(s.drawAheadTime(predictable: false) == nil && s.drawAheadTime(predictable: true) == nil,
                "nothing changed and nothing animates")
        s.invalidate()  // the finger lifts
        #expect(s.drawAheadTime(predictable: true) == 516)
    }

    @Test("A held frame is committed however late its callback comes; what it drew is never lost to a sleep")
    func lateCallback() {
        // Frames slower than a refresh: the callback is read long after the frame's time.
        var s = Self.animatingAfterCommit(at: 1000)
        s.drawAhead(for: 1016)
        #expect(s.callbackArrived(predictable: true) == .commitHeld, "drawing it again would double the work")
        s.committed(at: 2600)
        #expect(s.drawAheadTime(predictable: true) == 2616, "the next frame catches up with the callback")
        // The last frame of a motion, held while the window was hidden and then changed.
        var t = Self.animatingAfterCommit(at: 1000)
        t.drawAhead(for: 1016, request: .idle)
        t.invalidate()
        #expect(t.callbackArrived(predictable: false) == .draw, "what the held frame drew was never shown")
        t.frameStarts()
        t.sceneRequests(.idle)
        t.committed(at: 6000)
        #expect(t.drawAheadTime(predictable: true) == nil)
        #expect(t.callbackArrived(predictable: true) == .sleep)
    }

    @Test("Without a known commit time (hosts on a simulated clock, old callers) nothing is drawn ahead")
    func noExpectedTime() {
        var s = FrameScheduler()
        s.invalidate()
        s.frameStarts()
        s.sceneRequests(.nextFrame)
        s.committed()
        #expect(s.expectedCallbackTime == nil && s.drawAheadTime(predictable: true) == nil)
        #expect(s.callbackArrived(predictable: true) == .draw)
        // Nor without a callback outstanding, where the frame is drawn after the dispatch.
        var t = FrameScheduler()
        t.invalidate()
        #expect(t.drawAheadTime(predictable: true) == nil && t.shouldRenderAfterDispatch())
    }

    @Test("The refresh interval sets the expected time; 60 Hz until the host says")
    func refreshInterval() {
        var s = FrameScheduler()
        #expect(s.refreshInterval == 1000.0 / 60)
        s.refreshInterval = 1000.0 / 144
        s.sceneRequests(.nextFrame)
        s.committed(at: 0)
        #expect(s.drawAheadTime(predictable: true) == 1000.0 / 144)
    }
}

extension FrameScheduler {
    /// What a window does to draw ahead: a tick for `time` whose scene answers `request`, held.
    mutating func drawAhead(for time: Double, request: FrameRequest = .nextFrame) {
        frameStarts()
        sceneRequests(request)
        drewAhead(for: time)
    }
}
