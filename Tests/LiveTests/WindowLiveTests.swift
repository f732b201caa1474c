// The viewer under a real compositor: the first frame, resizing, an idle window that stops
// asking for frames, and the errors a user sees when the compositor is missing or dies.
import CompositorHarness
import Foundation
import Raster
import TestCardContent
import Testing

/// Takes screenshots until `check` finds nothing wrong or `timeout` passes; returns the last
/// problems found (empty when the screen became right). The compositor composes a committed
/// buffer on its next output frame, so the first screenshot may predate it.
func awaitScreen(_ sway: SwayHeadless, timeout: Double = 20, _ check: (Screenshot) -> [String]) throws -> [String] {
    try awaitShot(timeout: timeout, sway.screenshot, check).problems
}

/// Compares the screenshot with the test card seen from `offset`, at `points`.
func cardProblems(_ shot: Screenshot, size: (Int, Int), offset: (Int, Int) = (0, 0), points: [(Int, Int)]) -> [String] {
    guard shot.width == size.0, shot.height == size.1 else {
        return ["screenshot is \(shot.width)×\(shot.height), expected \(size.0)×\(size.1)"]
    }
    return points.compactMap { p in
        let expected = TestCard.color(x: p.0 + offset.0, y: p.1 + offset.1)
        let got = shot.pixel(p.0, p.1)
        return got == expected ? nil : "pixel (\(p.0), \(p.1)) is \(hex(got)), expected \(hex(expected))"
    }
}

@Suite("Live window under sway headless", .timeLimit(.minutes(2)), .ownThreads)
struct WindowLiveTests {
    @Test("The first frame appears at the configured size with the test card's exact pixels")
    func firstFrame() throws {
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"], environment: sway.clientEnvironment)
        defer { viewer.terminate() }
        let first = statsFields(try viewer.waitForStderr { isStats($0, "first-frame") })
        #expect(first["width"] == 800 && first["height"] == 600, "first frame \(first)")
        // Known pixels: cell (1,1)'s background, a grid line, the label dot of "100,0"'s "1"
        // (white), the far corner, and cell (0,0).
        #expect(TestCard.color(x: 108, y: 6) == 0xFFFF_FFFF)
        #expect(TestCard.color(x: 150, y: 150) == TestCard.cellColor(column: 1, row: 1))
        let problems = try awaitScreen(sway) {
            cardProblems($0, size: (800, 600), points: [(150, 150), (100, 300), (108, 6), (799, 599), (50, 60), (420, 555)])
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("Resizing the window redraws it at the new size")
    func resize() throws {
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"], environment: sway.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        try sway.swaymsg(["output", "HEADLESS-1", "mode", "1024x768"])
        let frame = statsFields(try viewer.waitForStderr { isStats($0, "frame") && statsFields($0)["width"] == 1024 })
        #expect(frame["height"] == 768)
        let problems = try awaitScreen(sway) {
            cardProblems($0, size: (1024, 768), points: [(1000, 700), (850, 650), (1023, 767), (150, 150)])
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("An idle window stops requesting frame callbacks")
    func idleWindowSleeps() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        var env = sway.clientEnvironment
        env["WAYLAND_DEBUG"] = "client"  // libwayland logs every request, frame callbacks included
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"], environment: env)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        func frameRequests() -> Int {
            viewer.stderr.lines.filter { $0.contains(".frame(new id wl_callback@") }.count
        }
        try awaitQuiet(viewer)  // the startup frames are over once its output pauses
        let settled = frameRequests()
        #expect(settled >= 1, "the first frame must have asked for a callback")
        usleep(2_000_000)  // the idle window observed
        let later = frameRequests()
        #expect(later == settled, "an idle window asked for \(later - settled) more frame callbacks in 2 s")
        #expect(viewer.isRunning)
    }

    @Test("A pointer drag moves the content with the pointer, and a pause before release leaves it there")
    func pointerDrag() throws {
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"], environment: sway.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        // Drag from (600,450) to (300,250) in 10 steps, hold still 250 ms, release: no fling.
        var words = ["--extent", "800x600", "abs", "600", "450", "sleep", "50", "button", "left", "press"]
        for i in 1...10 {
            words += ["sleep", "16", "abs", "\(600 - 30 * i)", "\(450 - 20 * i)"]
        }
        words += ["sleep", "250", "button", "left", "release", "sync"]
        let inject = try ClientProcess("wl-inject", words, environment: sway.clientEnvironment)
        #expect(inject.waitForExit(timeout: 20) == 0, "wl-inject: \(inject.stderr.lines)")
        // The content follows the pointer by the drag (300, 200) less the touch slop the
        // scroll view consumes before it starts dragging: search that window of offsets.
        let points = [(5, 5), (150, 150), (420, 333), (799, 599), (61, 507)]
        var found: (Int, Int)?
        let problems = try awaitScreen(sway) { shot in
            for dx in 270...300 {
                for dy in 170...200 where cardProblems(shot, size: (800, 600), offset: (dx, dy), points: points).isEmpty {
                    found = (dx, dy)
                    return []
                }
            }
            return ["the screen matches no offset within the drag less the slop; at (300,200): \(cardProblems(shot, size: (800, 600), offset: (300, 200), points: points))"]
        }
        #expect(problems.isEmpty, "\(problems)")
        // Held still: nothing moves afterwards (no fling, no drift) in a window of 500 ms.
        usleep(500_000)
        if let (dx, dy) = found {
            let shot = try sway.screenshot()
            #expect(cardProblems(shot, size: (800, 600), offset: (dx, dy), points: points).isEmpty, "content moved after release")
        }
    }

    @Test("A compositor killed mid-run gives one line and exit status 1")
    func compositorKilled() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"], environment: sway.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        sway.kill()
        let status = viewer.waitForExit(timeout: 5)
        #expect(status == 1, "viewer status \(String(describing: status)) after the compositor died")
        let errors = viewer.stderr.lines.filter { !$0.hasPrefix("{") }
        #expect(errors == ["image-viewer: lost the connection to the Wayland compositor: Broken pipe"]
            || errors == ["image-viewer: lost the connection to the Wayland compositor: the compositor closed the connection"]
            || errors == ["image-viewer: lost the connection to the Wayland compositor: Connection reset by peer"],
            "stderr: \(errors)")
    }
}

@Suite("Viewer without a compositor", .ownThreads)
struct NoCompositorTests {
    @Test("No WAYLAND_DISPLAY: one line naming the variable, exit status 1")
    func noDisplay() throws {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "WAYLAND_SOCKET")
        let viewer = try ClientProcess("image-viewer", ["--test-card"], environment: env)
        #expect(viewer.waitForExit(timeout: 10) == 1)
        #expect(viewer.stderr.lines == [
            "image-viewer: WAYLAND_DISPLAY is not set: run inside a Wayland session or set WAYLAND_DISPLAY to a compositor socket",
        ])
    }

    @Test("A socket that does not exist: one line naming it, exit status 1")
    func missingSocket() throws {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = "/nonexistent/wayland-9"
        env.removeValue(forKey: "WAYLAND_SOCKET")
        let viewer = try ClientProcess("image-viewer", ["--test-card"], environment: env)
        #expect(viewer.waitForExit(timeout: 10) == 1)
        #expect(viewer.stderr.lines == [
            "image-viewer: cannot connect to the Wayland compositor at /nonexistent/wayland-9 (WAYLAND_DISPLAY): No such file or directory",
        ])
    }
}
