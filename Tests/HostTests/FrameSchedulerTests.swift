// The one frame loop every host runs: when a window draws, waits for its callback, keeps
// ticking or sleeps, and when a scene's timer wakes it.
import Host
import Testing

@Suite("Frame scheduler")
struct FrameSchedulerTests {
    @Test("Renders at once when dirty and no callback is outstanding, then waits for the callback")
    func renderThenWait() {
        var s = FrameScheduler()
        #expect(!s.shouldRenderAfterDispatch())
        s.invalidate()
        #expect(s.shouldRenderAfterDispatch())
        s.committed()
        s.invalidate()
        #expect(!s.shouldRenderAfterDispatch(), "at most one callback outstanding")
        let changed = s.callbackDone()
        #expect(changed, "the callback renders the pending change")
        s.committed()
        let unchanged = s.callbackDone()
        #expect(!unchanged, "nothing changed: no further frame")
        #expect(!s.callbackPending)
    }

    @Test("Keeps ticking while animating, stops when the animation ends")
    func animation() {
        var s = FrameScheduler()
        s.invalidate()
        s.committed()
        s.sceneRequests(.nextFrame)
        let ticking = s.callbackDone()
        #expect(ticking)
        s.committed()
        s.sceneRequests(.idle)
        let stopped = s.callbackDone()
        #expect(!stopped)
    }

    @Test("A deferred frame (all buffers busy) renders after the next dispatch")
    func deferred() {
        var s = FrameScheduler()
        s.invalidate()
        let due = s.callbackDone()
        #expect(due)
        s.deferred()
        #expect(s.shouldRenderAfterDispatch())
    }

    @Test("A scene's timer is kept until it fires, and firing asks for a tick")
    func timer() {
        var s = FrameScheduler()
        s.sceneRequests(.at(500))
        #expect(s.wakeTime == 500)
        #expect(!s.wantsFrame, "a timer alone ticks nothing before it is due")
        s.timerFired()
        #expect(s.wakeTime == nil)
        #expect(s.wantsFrame)
        #expect(s.shouldRenderAfterDispatch(), "an idle window ticks as soon as the timer fires")
        s.frameStarts()
        s.sceneRequests(.idle)
        #expect(!s.wantsFrame)
    }

    @Test("A tick takes the changes so far; changes it makes itself ask for the frame after")
    func changesDuringATick() {
        var s = FrameScheduler()
        s.invalidate()
        s.frameStarts()
        #expect(!s.wantsFrame)
        s.invalidate()  // the scene moved while it advanced
        s.sceneRequests(.idle)
        #expect(s.wantsFrame, "a host without callbacks ticks once more")
        s.committed()
        let again = s.callbackDone()
        #expect(!again, "a live window's commit showed that change")
    }

    @Test("A host that knows both keeps a timer that falls between two frames of an animation")
    func animatingWithTimer() {
        var s = FrameScheduler()
        s.sceneRequests(animating: true, wakeTime: 1005)
        #expect(s.wantsFrame)
        #expect(s.wakeTime == 1005)
        s.sceneRequests(.nextFrame)
        #expect(s.wakeTime == nil, "a frame request alone carries no timer")
    }

    @Test("A decoder's result while nothing moves needs no spare buffer; input, a timer or a motion do")
    func spareBuffers() {
        // The state right after a still frame was committed: a callback outstanding, idle.
        func afterStillCommit() -> FrameScheduler {
            var s = FrameScheduler()
            s.invalidate()
            s.frameStarts()
            s.sceneRequests(.idle)
            s.committed(at: 100)
            return s
        }
        var s = afterStillCommit()
        #expect(s.needsSpareBuffer == true, "nothing changed yet: the default for what comes")
        s.invalidateFromBackground()
        #expect(s.dirty && s.changedInBackgroundOnly)
        #expect(s.needsSpareBuffer == false, "drawn with the callback, into the buffer it gives back")
        s.invalidateFromBackground()
        #expect(s.needsSpareBuffer == false, "a second result is still background work")
        s.invalidate()
        #expect(s.needsSpareBuffer == true, "input may start a motion")
        s.invalidateFromBackground()
        #expect(s.needsSpareBuffer == true, "input is still waiting to be drawn")

        s = afterStillCommit()
        s.invalidateFromBackground()
        s.timerFired()
        #expect(s.needsSpareBuffer == true, "a timer's change counts as any other")

        s = afterStillCommit()
        s.invalidateFromBackground()
        let drawn = s.callbackDone()
        #expect(drawn, "the callback draws the result")
        s.frameStarts()
        #expect(!s.changedInBackgroundOnly, "the frame drew it")
        s.sceneRequests(.nextFrame)
        s.committed(at: 116)
        s.invalidateFromBackground()
        #expect(s.needsSpareBuffer == true, "a result arriving during a motion: frames are drawn ahead")
    }
}

@Suite("Frame requests")
struct FrameRequestTests {
    @Test("Merging: the next frame wins, otherwise the earliest time, idle when none", arguments: [
        (FrameRequest.nextFrame, [Double?](arrayLiteral: 10, nil), FrameRequest.nextFrame),
        (.idle, [nil, nil], .idle),
        (.idle, [30, nil, 20], .at(20)),
        (.at(15), [30, 20], .at(15)),
        (.at(40), [30, nil], .at(30)),
    ])
    func merging(request: FrameRequest, times: [Double?], merged: FrameRequest) {
        #expect(request.merged(with: times) == merged)
    }
}
