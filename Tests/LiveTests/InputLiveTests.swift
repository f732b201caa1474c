// Seat input under sway headless through wl-inject's virtual pointer and keyboard: paging
// keys, key repeat, a wheel notch, touchpad scrolling with momentum after axis_stop, and an
// input device vanishing mid-drag. The injector connects after the viewer, so every test
// also proves the seat picks up devices that appear at runtime.
import CompositorHarness
import Foundation
import Raster
import TestCardContent
import Testing
import TestSupport

/// Points of the test card checked in every comparison: corners, grid lines and labels,
/// away from the right and bottom edges where scroll indicators show while scrolling.
private let checkPoints = [(5, 5), (150, 150), (420, 333), (780, 580), (61, 507), (400, 20)]

/// Every pixel of two columns of an 800 × 600 screen: a grid line crosses them every 100 pt,
/// which pins the offset to the pixel (the sparse points alone match a few neighbouring
/// offsets). The bottom rows are left out: the horizontal scroll indicator shows there while
/// scrolling.
let densePoints = (0..<585).flatMap { [(150, $0), (61, $0)] }

/// Screen rows where column 150 shows a grid line: where the content's 100 pt lines are.
private func gridRows(_ shot: Screenshot) -> [Int] {
    (0..<shot.height).filter { shot.pixel(150, $0) == TestCard.gridColor }
}

/// The vertical offsets in `ys` (x = 0) at which the screenshot shows the test card.
private func verticalOffsets(_ shot: Screenshot, _ ys: [Int]) -> [Int] {
    ys.filter { cardProblems(shot, size: (800, 600), offset: (0, $0), points: checkPoints).isEmpty }
        .filter { cardProblems(shot, size: (800, 600), offset: (0, $0), points: densePoints).isEmpty }
}

@Suite("Live seat input under sway headless", .timeLimit(.minutes(3)), .ownThreads)
struct InputLiveTests {
    /// sway, the viewer's first frame, then one injector kept connected for the whole test
    /// (its devices vanish when it exits); `sync` proves the devices exist.
    private func start(_ extraArguments: [String] = []) throws -> (SwayHeadless, ClientProcess, Injector) {
        let sway = try SwayHeadless(width: 800, height: 600)
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"] + extraArguments,
                                       environment: sway.clientEnvironment)
        try viewer.waitForStderr { isStats($0, "first-frame") }
        let inject = try Injector(environment: sway.clientEnvironment, options: ["--extent", "800x600"])
        // The viewer gets its new wl_pointer/wl_keyboard on its next dispatch; a motion into
        // the window gives it pointer focus (and sway's keyboard focus is already ours).
        inject.send("sleep 100")
        inject.send("abs 400 300")
        inject.send("sleep 50")
        return (sway, viewer, inject)
    }

    @Test("Page_Down scrolls one page (the viewport less 40 pt); Home scrolls back to the top")
    func keyboardPaging() throws {
        let (sway, viewer, inject) = try start()
        defer { viewer.terminate(); inject.stop(); sway.stop() }
        inject.send("tap Page_Down")
        try inject.sync()
        var problems = try awaitScreen(sway) {
            cardProblems($0, size: (800, 600), offset: (0, 560), points: checkPoints)
        }
        #expect(problems.isEmpty, "after Page_Down: \(problems)")
        inject.send("tap Home")
        try inject.sync()
        problems = try awaitScreen(sway) { cardProblems($0, size: (800, 600), points: checkPoints) }
        #expect(problems.isEmpty, "after Home: \(problems)")
    }

    @Test("Holding Down repeats at the compositor's rate: several 40 pt steps, and nothing after the release")
    func keyRepeat() throws {
        let (sway, viewer, inject) = try start()
        defer { viewer.terminate(); inject.stop(); sway.stop() }
        // sway's default repeat: 25 per second after 600 ms; held 1 s that is about 11 steps.
        inject.send("key Down press")
        inject.send("sleep 1000")
        inject.send("key Down release")
        try inject.sync()
        try awaitMotionEnded(viewer)  // the last 200 ms step animation ends, the indicators fade
        let candidates = Array(stride(from: 40, through: 40 * 40, by: 40))
        let shot = try sway.screenshot()
        let offsets = verticalOffsets(shot, candidates)
        let steps = (offsets.first ?? 0) / 40
        #expect(steps >= 5, "the content is \(steps) arrow steps down (matches: \(offsets)); repeat should add several; grid rows \(gridRows(shot)), any offset: \(verticalOffsets(shot, Array(0...3000)))")
        usleep(500_000)  // a window in which nothing may move
        #expect(verticalOffsets(try sway.screenshot(), candidates) == offsets, "the content moved after the release")
    }

    @Test("One wheel notch scrolls 57 pt down, animated")
    func wheelNotch() throws {
        let (sway, viewer, inject) = try start()
        defer { viewer.terminate(); inject.stop(); sway.stop() }
        inject.send("wheel vertical 1")
        try inject.sync()
        let problems = try awaitScreen(sway) {
            cardProblems($0, size: (800, 600), offset: (0, 57), points: checkPoints)
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("A wheel step's frames are drawn ahead of their callbacks, the indicators fade after it, and its end is on screen; with --no-draw-ahead none is drawn ahead",
          arguments: [true, false])
    func wheelStepDrawnAhead(drawsAhead: Bool) throws {
        let (sway, viewer, inject) = try start(drawsAhead ? [] : ["--no-draw-ahead"])
        defer { viewer.terminate(); inject.stop(); sway.stop() }
        inject.send("wheel vertical 1")
        try inject.sync()
        // The step, then the indicators' pause and fade (a timer after frames drawn ahead).
        try awaitMotionEnded(viewer)
        let problems = cardProblems(try sway.screenshot(), size: (800, 600), offset: (0, 57), points: checkPoints)
        #expect(problems.isEmpty, "\(problems)")
        let frames = viewer.stderr.lines.filter { isStats($0, "frame") }
        let ahead = frames.filter { $0.contains(#""ahead":true"#) }.count
        if drawsAhead {
            // The first frame of the step is drawn when the notch arrives (no callback is
            // outstanding); those after it run by themselves.
            #expect(ahead >= 1, "no frame of the step was drawn ahead: \(frames.suffix(20))")
        } else {
            #expect(ahead == 0, "frames were drawn ahead with --no-draw-ahead: \(frames.suffix(20))")
        }
    }

    @Test("Touchpad finger scrolling moves the content, after axis_stop momentum carries it on, and the replay of the recorded input rests where it did (within 1 pt)")
    func touchpadMomentum() throws {
        let trace = temporaryTracePath()
        defer { unlink(trace) }
        let (sway, viewer, inject) = try start(["--record", trace])
        defer { viewer.terminate(); inject.stop(); sway.stop() }
        for _ in 1...10 {
            inject.send("finger vertical 20")
            inject.send("sleep 10")
        }
        inject.send("stop vertical")
        try inject.sync()
        // Successive screenshots after the stop differ while the content glides, then settle
        // well past the 200 pt the fingers moved.
        let first = try sway.screenshot()
        usleep(150_000)
        let second = try sway.screenshot()
        let changed = checkPoints.contains { first.pixel($0.0, $0.1) != second.pixel($0.0, $0.1) }
            || (0..<60).contains { i in first.pixel(i * 13, 300) != second.pixel(i * 13, 300) }
        #expect(changed, "the screen did not change 150 ms after axis_stop: no momentum")
        // The glide ends (about 3.8 s for the fingers' 2 pt/ms: see recordAndReplay) and the
        // indicators fade.
        try awaitMotionEnded(viewer)
        let settled = try sway.screenshot()
        let offsets = verticalOffsets(settled, Array(200...3000))
        #expect(offsets.count == 1 && (offsets.first ?? 0) > 300, "resting offsets matching the screen: \(offsets.prefix(5))")
        quitWithQ(viewer, keyboard: inject.process)
        let (_, live) = try expectReplayEndsAtLiveRest(trace)
        // The renderer places content at its translation rounded to whole pixels.
        #expect(offsets == [Int(live.y.rounded())], "the recording's live end \(live) is not where the screen shows the content: \(offsets)")
    }

    @Test("The pointer vanishing mid-drag leaves the content where the drag had it, and the viewer goes on")
    func deviceVanishesMidDrag() throws {
        let (sway, viewer, inject) = try start()
        defer { viewer.terminate(); sway.stop() }
        inject.send("abs 400 500")
        inject.send("button left press")
        for i in 1...10 {
            inject.send("sleep 16")
            inject.send("abs 400 \(500 - 25 * i)")
        }
        try inject.sync()
        inject.stop()  // its virtual pointer vanishes with the button still down
        let (_, shot) = try awaitShot(sway.screenshot) { verticalOffsets($0, Array(200...250)).count == 1 ? [] : ["no single offset"] }
        let offsets = verticalOffsets(shot, Array(200...250))
        #expect(offsets.count == 1, "the content should rest at the drag (250 pt) less the slop; matches: \(offsets)")
        usleep(500_000)  // a window in which nothing may move
        #expect(verticalOffsets(try sway.screenshot(), Array(200...250)) == offsets, "the content moved after the device vanished")
        #expect(viewer.isRunning)
        // A new device works at once.
        let again = try Injector(environment: sway.clientEnvironment, options: ["--extent", "800x600"])
        defer { again.stop() }
        try again.sync()
        again.send("sleep 100")
        again.send("abs 400 300")
        again.send("tap Home")
        try again.sync()
        let problems = try awaitScreen(sway) { cardProblems($0, size: (800, 600), points: checkPoints) }
        #expect(problems.isEmpty, "Home on the new keyboard: \(problems)")
    }

    @Test("A recorded live session, replayed by scroll-replay, ends at the offset the live one rested at (within 1 pt)")
    func recordAndReplay() throws {
        let trace = temporaryTracePath()
        defer { unlink(trace) }
        let (sway, viewer, inject) = try start(["--record", trace])
        defer { viewer.terminate(); inject.stop(); sway.stop() }
        // A pointer fling up and to the left; each gesture settles before the next, so the
        // frame phase (live frames are not at the replay's ticks) cannot change the result:
        // momentum caught mid-flight stops where the last frame drew it, which differs.
        // Settling takes ln(0.5 pt · |ln d| / v0) / ln d ms at d = 0.998/ms: 3.9 s for the
        // fling's 2.9 pt/ms, 3.5 s for the touchpad's 1.2 pt/ms; each is waited for until its
        // frames have stopped and the indicators faded.
        inject.send("abs 600 500")
        inject.send("button left press")
        for i in 1...8 {
            inject.send("sleep 12")
            inject.send("abs \(600 - 15 * i) \(500 - 35 * i)")
        }
        inject.send("button left release")
        try inject.sync()
        try awaitMotionEnded(viewer)
        // Touchpad fingers back down, with momentum after axis_stop; then two wheel notches.
        for _ in 1...8 {
            inject.send("finger vertical -12")
            inject.send("sleep 10")
        }
        inject.send("stop vertical")
        try inject.sync()
        try awaitMotionEnded(viewer)
        inject.send("wheel vertical 2")
        try inject.sync()
        try awaitMotionEnded(viewer)
        quitWithQ(viewer, keyboard: inject.process)

        let (lines, live) = try expectReplayEndsAtLiveRest(trace)
        let kinds = ["pointer.button", "pointer.axis", "pointer.axis_stop", "key"]
        for kind in kinds {
            #expect(lines.contains { $0.contains(#""kind":"\#(kind)""#) }, "the recording has no \(kind) line")
        }
        #expect(live.x > 100 && live.y > 300, "the fling should have moved the card well away from the origin: \(live)")
    }
}
