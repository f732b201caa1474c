// The window's frame path: a frame callback answered after the dispatch, the scene ticked and
// drawn into a free buffer, frames drawn ahead or kept back, and the commit with its damage,
// scale state and presentation feedback. The protocol objects and the configure and scale
// handling are in Window.swift.
import Foundation
import Host
import Raster

extension Window {
    /// A frame drawn into a buffer that is not attached yet.
    struct DrawnFrame {
        let id: Int
        let buffer: ShmBuffer
        /// The changed rects, in buffer pixels.
        let damage: [PixelRect]
        let renderMilliseconds: Double
        /// Whether its buffer's memory was made for it (its pages faulted in while drawing).
        let newBuffer: Bool
        /// Drawn at half the scale into a buffer of half the size, for the compositor to enlarge
        /// (`Scene.prefersHalfResolution`).
        var halved = false
    }

    /// A frame drawn ahead for the outstanding callback: its pixels, or none when its tick
    /// changed nothing visible; `animating` when the scene asked for the frame after it.
    struct HeldFrame {
        let drawn: DrawnFrame?
        let animating: Bool
    }

    /// The frame callback fired. The frame is drawn after the dispatch (`afterDispatch`),
    /// once everything the compositor sent with it has been read: drawing inside the dispatch
    /// would leave later events in the socket for as long as the frame takes.
    func frameDone(time: UInt32) {
        // When the compositor sent it: the loop may have been drawing a frame ahead meanwhile.
        // Local time is the frame clock, the one input times are mapped onto.
        callbackArrival = CallbackClock.arrival(stamp: time, requested: callbackRequested, now: monotonicMilliseconds())
    }

    /// Answers the callback that arrived at `arrival` (ms): with the frame held for it, with a
    /// frame drawn now for its time, or not at all when nothing changed or animates (no new
    /// callback, no wakeups). `callbackArrival` is cleared by the commit, or here when none is made.
    func answerCallback(arrivedAt arrival: Double) throws {
        defer { callbackArrival = nil }
        let answer = scheduler.callbackArrived(predictable: heldFrameOutlivesChange)
        switch answer {
        case .sleep:
            break
        case .commitHeld, .commitHeldThenChange:
            guard let held = heldFrame else { return try renderFrame(at: arrival) }
            heldFrame = nil
            if let drawn = held.drawn {
                present(drawn, drawnAhead: true)
            } else if answer == .commitHeldThenChange {
                // Nothing held to show before the change: the change is drawn now.
                try renderFrame(at: arrival)
            } else if held.animating {
                timeStepWithoutPixels(after: arrival)
            }
        case .draw:
            if heldFrame != nil { statistics.heldFramesDiscarded += 1 }
            releaseHeldFrame()
            try renderFrame(at: arrival)
        }
    }

    /// Ticks the scene for `time` (ms) and sets the timer it asks for.
    func tick(at time: Double) -> FrameRequest {
        scheduler.frameStarts()
        lastTickTime = time
        let request = scene.advance(to: time)
        scheduler.sceneRequests(request)
        armWakeTimer()
        return request
    }

    /// The frame's size in buffer pixels (turned as the buffers are).
    var turnedBufferSize: (width: Int, height: Int) { transform.bufferSize(width: bufferWidth, height: bufferHeight) }

    /// Whether the next frame is drawn at half resolution: the scene prefers it, a viewport can
    /// show the smaller buffer at the window's size, and the frame is not turned.
    var drawsHalved: Bool { viewport != nil && preRotated == nil && scene.prefersHalfResolution }

    /// The buffer the next frame is drawn into: the frame's size, or half of it (rounded up)
    /// when `drawsHalved`.
    var nextBuffer: (width: Int, height: Int, halved: Bool) {
        let size = turnedBufferSize, halved = drawsHalved
        let drawn = halved ? Self.halved(size) : size
        return (drawn.width, drawn.height, halved)
    }

    /// Half of a frame of `size` pixels, rounded up so that no edge is lost.
    static func halved(_ size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        ((size.width + 1) / 2, (size.height + 1) / 2)
    }

    /// Whether a tick needs drawing: something visible changed, or no buffer of the window's
    /// size holds a drawn frame (a window must draw even if the scene reports no change).
    var tickNeedsDrawing: Bool {
        let size = nextBuffer
        return scene.needsRender || unshownDrawing || !buffers.holdsDrawnFrame(width: size.width, height: size.height)
    }

    /// A new `width`×`height` buffer for slot `id`, which reports its release to the pool.
    func makeBuffer(id: Int, width: Int, height: Int) throws -> ShmBuffer {
        let buffer = try ShmBuffer(shm: display.globals.shm!, id: id, width: width, height: height, opaque: opaque)
        buffer.onRelease = { [unowned self] id in self.buffers.released(id) }
        return buffer
    }

    /// Draws the scene into a buffer; nil when every buffer is busy.
    func draw() throws -> DrawnFrame? {
        let (width, height, halved) = nextBuffer
        let size = (width: width, height: height)
        // Buffers of the other size are not drawn into again soon: before a full frame, the
        // half-size ones; before a half-resolution frame, the full-size ones (a placeholder
        // kept back while the picture loaded, 8 MiB at 1920×1080), since the compositor holds
        // the half-size buffer until the full frame replaces it, which is drawn into a new one.
        // The free ones go before this frame's is made, the compositor's when it gives them back
        // (not at the rest two seconds on).
        if buffers.holdsOtherSizes(width: size.width, height: size.height) {
            buffers.resize(width: size.width, height: size.height)
        }
        let acquisition = try buffers.acquire(width: size.width, height: size.height) {
            try makeBuffer(id: $0, width: size.width, height: size.height)
        }
        guard case .draw(let id, let buffer, let age, let created) = acquisition else { return nil }
        if created { statistics.buffersCreated += 1 }
        let start = monotonicMilliseconds()
        // On a turned screen the scene draws upright and the changed pixels are copied turned.
        let damage = halved ? scene.renderHalfResolution(into: buffer.framebuffer)
            : preRotated?.render(scene, into: buffer.framebuffer, bufferAge: age)
            ?? scene.render(into: buffer.framebuffer, bufferAge: age)
        return DrawnFrame(id: id, buffer: buffer, damage: damage, renderMilliseconds: monotonicMilliseconds() - start,
                          newBuffer: created, halved: halved)
    }

    /// Ticks for `time` (ms), draws and commits.
    func renderFrame(at time: Double) throws {
        let request = tick(at: time)
        // A still frame is shown as one. Shown already and unchanged, nothing is sent: whatever
        // the scene changed does not show (a neighbour page that loaded off screen).
        if request != .nextFrame, let still = showableStill {
            if needsCommit || stillDiffers(still) {
                if showStill(still) { return }
            } else {
                scene.didShowStillFrame()
                return
            }
        }
        guard tickNeedsDrawing else {
            if request == .nextFrame { timeStepWithoutPixels(after: time) }
            return
        }
        if request == .nextFrame { prepareToDrawAhead() }
        guard let frame = try draw() else {
            scheduler.deferred()  // all busy: drawn after the next release arrives
            return
        }
        if contentWait.holds(at: monotonicMilliseconds(), awaitsContent: scene.awaitsContent,
                             sizeChosenByCompositor: sizeChosenByCompositor) {
            keepBack(frame)
            if request == .nextFrame { timeStepWithoutPixels(after: time) }
            return
        }
        present(frame, drawnAhead: false)
    }

    /// Before a frame of a motion that runs by itself is drawn as now (its first from rest, or one
    /// whose callback came with nothing held): the next frame is drawn ahead right after this
    /// one's commit, when the compositor still holds the two buffers before it, so unless two are
    /// free the spare it will need is made now and its pages fault in on another thread while
    /// this frame draws. Made only after the commit, it came too late: at 3840×2160 a zoom's
    /// second frame from rest waited for its callback, 6 ms after the first, then took 10–20 ms
    /// to draw, and answered it late in 2 of 6 `bench-fling` runs.
    func prepareToDrawAhead() {
        let size = turnedBufferSize
        guard drawsAhead, isConfigured, !scene.awaitsContent, scheduler.needsSpareBuffer, scene.isMotionPredictable,
              buffers.freeCount(width: size.width, height: size.height) < 2 else { return }
        makeSpareBuffer(width: size.width, height: size.height)
    }

    /// Whether the last configure named the window's size (a tiled or fullscreen window, a
    /// kiosk), rather than leaving it to the window (0×0).
    var sizeChosenByCompositor: Bool {
        guard let size = configuration?.requestedSize else { return false }
        return size.width > 0 && size.height > 0
    }

    /// Keeps a frame drawn while the scene awaits its content uncommitted (see `ContentWait`):
    /// its buffer is free again holding it, so the frame with the content is drawn into the same
    /// memory and repaints only what changed; the compositor hears of this frame's damage with
    /// that one. A timer commits whatever shows when the wait runs out.
    func keepBack(_ frame: DrawnFrame) {
        buffers.unused(frame.id)
        unshownDrawing = true
        unshownDamage.formUnion(PixelRegion(frame.damage))
        armContentWaitTimer()
    }

    /// Sets the timer that commits whatever shows when the wait for content runs out (once).
    func armContentWaitTimer() {
        guard contentWaitTimer == nil, let deadline = contentWait.deadline else { return }
        contentWaitTimer = display.schedule(at: deadline) { [unowned self] in
            self.contentWaitTimer = nil
            self.scheduler.invalidate()
        }
    }

    /// A frame was committed: the wait's timer is not needed any more.
    func cancelContentWaitTimer() {
        if let contentWaitTimer {
            display.cancelTimer(contentWaitTimer)
            self.contentWaitTimer = nil
        }
    }

    /// Attaches a drawn frame with its damage and commits it.
    func present(_ frame: DrawnFrame, drawnAhead: Bool) {
        var damage = frame.damage
        if !unshownDamage.isEmpty {
            unshownDamage.formUnion(PixelRegion(frame.damage))
            damage = unshownDamage.rects
        }
        // After a still frame all of it is new to the compositor, whatever the scene changed.
        if shownStill != nil { damage = [frame.buffer.framebuffer.bounds] }
        unshownDrawing = false
        unshownDamage = PixelRegion()
        leaveStill()
        surface.attach(frame.buffer.proxy)
        commitScaleState(halved: frame.halved)
        // Damage is in buffer pixels, whatever the scale: the renderer's rects as they are.
        for rect in damage where !rect.isEmpty {
            surface.damageBuffer((rect.x, rect.y, rect.width, rect.height))
        }
        // A new buffer always comes with some damage: wlroots' scene graph (cage) repaints, and
        // so answers frame callbacks, only for damage, and a buffer committed without any left
        // the window waiting for a callback that never came (a kiosk under cage drew its first
        // picture and never its slideshow's next). One pixel, unchanged, costs nothing.
        if !damage.contains(where: { !$0.isEmpty }) { surface.damageBuffer((0, 0, 1, 1)) }
        let shown = preRotated?.frame ?? frame.buffer.framebuffer
        commitFrame(CommittedFrame(width: shown.width, height: shown.height, isStill: false),
                    renderMilliseconds: frame.renderMilliseconds, drawnAhead: drawnAhead, newBuffer: frame.newBuffer,
                    halved: frame.halved)
    }

    /// Commits the frame attached (drawn or still) with a frame callback, notes it in the
    /// statistics and the content wait, and reports it (`onFrameCommitted`).
    func commitFrame(_ committed: CommittedFrame, renderMilliseconds: Double, drawnAhead: Bool, newBuffer: Bool, halved: Bool) {
        statistics.lastRenderMilliseconds = renderMilliseconds
        statistics.lastFrameDrawnAhead = drawnAhead
        statistics.lastFrameNewBuffer = newBuffer
        statistics.lastFrameHalved = halved
        statistics.lastFrameStill = committed.isStill
        statistics.framesCommitted += 1
        contentWait.committed(sizeChosenByCompositor: sizeChosenByCompositor)
        cancelContentWaitTimer()
        let time = monotonicMilliseconds()
        if statistics.firstCommitTime == nil { statistics.firstCommitTime = time }
        requestCallbackAndCommit()
        onFrameCommitted?(committed, time)
    }

    /// Draws the frame for the outstanding callback now, when the scheduler says so (see
    /// `FrameScheduler.drawAheadTime`): the scene is ticked for the callback's expected time and
    /// the frame held until the callback comes. A held frame that something changed is drawn
    /// again, or given up when the scene no longer moves by itself.
    func drawAheadIfDue() throws {
        let size = turnedBufferSize
        // Not while a configure waits for its commit: that commit must carry a frame of its size.
        // Nor while the scene awaits its content: that frame would be a placeholder, drawn into
        // a spare buffer whose pages fault in beside the decoder (the loader's first wake did
        // it under sway: a second 800×600 frame, 4 ms, before the tile's configure).
        guard drawsAhead, isConfigured, !needsCommit, !scene.awaitsContent,
              let time = scheduler.drawAheadTime(predictable: scene.isMotionPredictable) else {
            // Kept for its callback when it may be committed before the change (see
            // `FrameScheduler.callbackArrived`).
            if scheduler.heldFrameIsStale && !heldFrameOutlivesChange { discardHeldFrame() }
            return
        }
        // Its buffer holds the newest pixels: free again, it is the one drawn into next.
        discardHeldFrame()
        guard buffers.hasFree(width: size.width, height: size.height) else {
            // Not into a buffer made now: its pages would fault in on this thread while it draws
            // (at 3840×2160 the first frame of a zoom drawn so took 17–30 ms and answered its
            // callback late). One is made for the callback's frame instead, its pages faulted in
            // on another thread meanwhile; unless the change is a still one from background work,
            // which the callback draws into the buffer it gives back (`needsSpareBuffer`).
            if scheduler.needsSpareBuffer { makeSpareBuffer(width: size.width, height: size.height) }
            return
        }
        // Nor into a spare whose pages are still faulting in: this thread would fault them while
        // it draws (21 ms against 10–15 for the callback's own frame at 3840×2160). The faulting's
        // end wakes the loop, which comes back here; a callback before it draws as usual.
        guard buffers.nextFreeIsReady(width: size.width, height: size.height, ready: \.pagesAreIn) else { return }
        // The frame just committed goes to the compositor now, not after this one is drawn.
        try display.flushRequests()
        let request = tick(at: time)
        var drawn: DrawnFrame?
        if tickNeedsDrawing {
            guard let frame = try draw() else {
                scheduler.deferred()
                return
            }
            drawn = frame
        }
        heldFrame = HeldFrame(drawn: drawn, animating: request == .nextFrame)
        scheduler.drewAhead(for: time)
        statistics.framesDrawnAhead += 1
    }

    /// Whether the held frame may still be committed after a change it does not show, the change
    /// being drawn after it: the motion still runs by itself, and the frame is of the window's
    /// size with no configure waiting for a frame (a configure or a new scale outdates it).
    var heldFrameOutlivesChange: Bool {
        let size = turnedBufferSize
        let fits = heldFrame?.drawn.map {
            $0.buffer.framebuffer.width == size.width && $0.buffer.framebuffer.height == size.height
        } ?? true
        return fits && !needsCommit && scene.isMotionPredictable
    }

    /// Makes a free buffer ahead of the frame that needs it and faults its pages in on another
    /// thread (`SharedMemory.prefaultInBackground`); nothing when the pool is full. A failure is
    /// left for that frame's `acquire`, which makes the buffer again and reports it.
    func makeSpareBuffer(width: Int, height: Int) {
        guard let spare = try? buffers.addSpare(width: width, height: height, make: {
            try makeBuffer(id: $0, width: width, height: height)
        }) else { return }
        // Its pages' arrival wakes the loop for `drawAheadIfDue`, which waits for them.
        let waker = display.waker
        spare.prefaultInBackground(then: { waker.wake() })
        statistics.buffersCreated += 1
    }

    /// 2000 ms: how long after its last commit the window counts as at rest and gives its spare
    /// buffers back (decision: longer than the pauses between the gestures of one interaction,
    /// up to 1.5 s in bench-fling's scenarios, so a gesture's frames find their buffers made).
    static let restDelay = 2000.0

    /// Gives the spare buffers back once the window has committed nothing for `restDelay`:
    /// while it animates two or three take turns (8.1 MiB each at 1920×1080, 32 MiB at 4K), at
    /// rest only the one holding the newest frame stays (`BufferPool.trim`). When that one is
    /// still the compositor's, the next frame makes a buffer again and draws all of it: a few
    /// ms of fresh pages on a frame that starts a motion, which answers no callback. One timer
    /// runs at a time, measured from the last commit (`callbackRequested`): a commit only arms
    /// it when none is waiting, and a timer that finds a later commit waits on from there.
    func armRestTimer() {
        guard restTimer == nil else { return }
        restTimer = display.schedule(at: callbackRequested + Self.restDelay) { [unowned self] in
            self.restTimer = nil
            if self.callbackRequested + Self.restDelay > monotonicMilliseconds() {
                self.armRestTimer()  // committed since it was set
            } else {
                self.buffers.trim()
                // A scene that rests on a still frame shows it so: the last buffer goes too.
                if self.shownStill == nil, self.showableStill != nil { self.scheduler.invalidate() }
            }
        }
    }

    /// Gives the held frame up: the callback draws as now.
    func discardHeldFrame() {
        if heldFrame != nil { statistics.heldFramesDiscarded += 1 }
        releaseHeldFrame()
        scheduler.discardHeldFrame()
    }

    /// Frees the held frame's buffer (never attached, so never released by the compositor).
    func releaseHeldFrame() {
        if let drawn = heldFrame?.drawn {
            buffers.unused(drawn.id)
            unshownDrawing = true
            unshownDamage.formUnion(PixelRegion(drawn.damage))
        }
        heldFrame = nil
    }

    /// 16.7 ms: one refresh at 60 Hz, the wait for a scene's next step when it moves without
    /// changing a pixel (no commit, so no frame callback, paces it).
    static let stepWithoutPixels = 1000.0 / 60

    /// The scene moves on without a pixel to show: nothing to commit, since a compositor that
    /// repaints only for damage (wlroots' scene graph, cage) never answers a callback asked for
    /// by an empty commit, and a kiosk under cage waited for one for good after its first
    /// picture. Its next step is timed instead, one refresh after `time` (ms).
    func timeStepWithoutPixels(after time: Double) {
        scheduler.sceneRequests(.at(max(time, monotonicMilliseconds()) + Self.stepWithoutPixels))
        armWakeTimer()
    }

    /// Sets the timer for the time the scene asked to be woken at (`FrameScheduler.wakeTime`),
    /// replacing the one set before.
    func armWakeTimer() {
        if let wakeTimer { display.cancelTimer(wakeTimer) }
        wakeTimer = nil
        if let deadline = scheduler.wakeTime {
            wakeTimer = display.schedule(at: deadline) { [unowned self] in
                self.wakeTimer = nil
                self.scheduler.timerFired()
            }
        }
    }

    /// Commits a new frame with a frame callback requested, and asks when it reaches the screen.
    /// (Every commit carries pixels: see `timeStepWithoutPixels`.)
    func requestCallbackAndCommit() {
        frameCallback = surface.frame { [unowned self] in self.frameDone(time: $0) }
        statistics.callbacksRequested += 1
        commits += 1
        if let presentation = display.presentation, statistics.presentation?.acceptsCommits == true {
            let commit = commits
            let requested = presentation.feedback(for: surface) { [unowned self] outcome in
                self.feedback[commit] = nil
                switch outcome {
                case .presented(let time, let refresh): self.statistics.presentation?.presented(commit, at: time, refresh: refresh)
                case .discarded: self.statistics.presentation?.discarded(commit)
                }
            }
            if let requested {
                feedback[commit] = requested
                statistics.presentation?.committed(commit, answersCallback: callbackArrival != nil)
            }
        }
        surface.commit()
        needsCommit = false  // carried by this commit
        let now = monotonicMilliseconds()
        callbackRequested = now
        armRestTimer()
        // The next callback is expected a refresh after this one's arrival, or after the time a
        // frame drawn after a dispatch was ticked for.
        scheduler.committed(at: callbackArrival ?? lastTickTime)
        // A commit made while a frame callback is handled answers it (at most once).
        statistics.lastAnswerMilliseconds = nil
        if let arrival = callbackArrival {
            callbackArrival = nil
            let answer = now - arrival
            statistics.lastAnswerMilliseconds = answer
            statistics.callbacksAnswered += 1
            statistics.maxCallbackAnswerMilliseconds = max(statistics.maxCallbackAnswerMilliseconds, answer)
            if answer > FrameStatistics.lateAnswerMilliseconds { statistics.lateCallbackAnswers += 1 }
        }
    }
}
