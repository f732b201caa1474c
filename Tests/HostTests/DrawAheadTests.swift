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
        #expect(s.callbackArrived() == .commitHeld)
        #expect(s.heldFrameTime == nil && !s.callbackPending)
        s.committed(at: 1017.5)
        #expect(s.drawAheadTime(predictable: true) == 1033.5, "last callback time + one refresh")
    }

    @Test("The last frame of a motion is held and committed too; then the loop sleeps")
    func lastFrame() {
        var s = Self.animatingAfterCommit(at: 1000)
        s.drawAhead(for: 1016, request: .idle)  // the deceleration ends at the frame's time
        #expect(s.callbackArrived() == .commitHeld)
        s.committed(at: 1016)
        #expect(s.drawAheadTime(predictable: true) == nil, "nothing animates")
        #expect(s.callbackArrived() == .sleep)
    }

    /// A window in the steady state of drawing ahead: the callback at `time` committed the frame
    /// held for it and the next one is held for `time` + one refresh.
    static func steady(at time: Double) -> FrameScheduler {
        var s = animatingAfterCommit(at: time - refresh)
        s.drawAhead(for: time)
        _ = s.callbackArrived()
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
        #expect(s.callbackArrived() == .commitHeld)
    }

    @Test("A finger catching the motion throws the held frame away; the callback draws as now")
    func fingerCatches() {
        var s = Self.steady(at: 1000)
        s.invalidate()
        #expect(s.drawAheadTime(predictable: false) == nil)
        #expect(s.heldFrameIsStale)
        s.discardHeldFrame()
        #expect(s.heldFrameTime == nil && !s.heldFrameIsStale)
        #expect(s.callbackArrived() == .draw)
    }

    @Test("A held frame something changed is drawn as now when the host keeps it to the callback")
    func staleAtCallback() {
        var s = Self.animatingAfterCommit(at: 1000)
        s.drawAhead(for: 1016)
        s.timerFired()
        #expect(s.callbackArrived() == .draw)
        #expect(s.heldFrameTime == nil)
    }

    @Test("At most two frames are drawn per callback: a third change waits for it")
    func limitPerCallback() {
        var s = Self.animatingAfterCommit(at: 1000)
        #expect(s.framesSinceCallback == 1, "the frame committed")
        s.drawAhead(for: 1016)
        s.invalidate()
        #expect(s.drawAheadTime(predictable: true) == nil, "the shown frame and one ahead were drawn")
        s.discardHeldFrame()
        #expect(s.callbackArrived() == .draw)
        #expect(s.framesSinceCallback == 0)
        // Committing a held frame draws nothing: after it, one redraw is still allowed, not two.
        var t = Self.steady(at: 1016)
        #expect(t.framesSinceCallback == 1)
        t.invalidate()
        #expect(t.drawAheadTime(predictable: true) == 1032)
        t.drawAhead(for: 1032)
        t.invalidate()
        #expect(t.drawAheadTime(predictable: true) == nil)
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
        #expect(s.callbackArrived() == .commitHeld, "drawing it again would double the work")
        s.committed(at: 2600)
        #expect(s.drawAheadTime(predictable: true) == 2616, "the next frame catches up with the callback")
        // The last frame of a motion, held while the window was hidden and then changed.
        var t = Self.animatingAfterCommit(at: 1000)
        t.drawAhead(for: 1016, request: .idle)
        t.invalidate()
        #expect(t.callbackArrived() == .draw, "what the held frame drew was never shown")
        t.frameStarts()
        t.sceneRequests(.idle)
        t.committed(at: 6000)
        #expect(t.drawAheadTime(predictable: true) == nil)
        #expect(t.callbackArrived() == .sleep)
    }

    @Test("Without a known commit time (hosts on a simulated clock, old callers) nothing is drawn ahead")
    func noExpectedTime() {
        var s = FrameScheduler()
        s.invalidate()
        s.frameStarts()
        s.sceneRequests(.nextFrame)
        s.committed()
        #expect(s.expectedCallbackTime == nil && s.drawAheadTime(predictable: true) == nil)
        #expect(s.callbackArrived() == .draw)
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
