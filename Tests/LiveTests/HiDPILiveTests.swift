// HiDPI under real compositors: sway with output scale 2 (a picture's single device pixels
// reach the screen, which only a buffer drawn at 2× can hold, and a drag moves content by
// points), sway at 1.5 (no fractional protocol: drawn at 2 and downscaled by sway), and KWin
// at 1.5, which offers wp_fractional_scale_v1 (a buffer of round(points × 1.5) pixels shown
// through a viewport; KWin cannot be screenshotted here, so the client's figures are read).
import CompositorHarness
import Foundation
import Glibc
import Raster
import TestCardContent
import Testing
import TestSupport

/// The picture of the single-pixel test: a checkerboard of black and white pixels, which
/// reaches the screen only from a buffer with one pixel per device pixel (a 1× buffer holds
/// half the pixels per side, and any scaling turns the board into grey).
private func checker(_ x: Int, _ y: Int) -> UInt32 { (x + y) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 }


/// Pixels of a screenshot at output scale 2 that differ from the test card scrolled by
/// `offset` device pixels (half points: the renderer places content on whole device pixels):
/// device pixel (x, y) shows the card's point ((x + dx)/2, (y + dy)/2), rounded down.
private func cardProblemsAt2(_ shot: Screenshot, offset: (Int, Int) = (0, 0), pixels: [(Int, Int)]) -> [String] {
    guard shot.width == 1280, shot.height == 720 else { return ["screenshot is \(shot.width)×\(shot.height), expected 1280×720"] }
    var problems: [String] = []
    for (x, y) in pixels {
        let expected = TestCard.color(x: (x + offset.0) / 2, y: (y + offset.1) / 2)
        let got = shot.pixel(x, y)
        if got != expected {
            problems.append("pixel (\(x), \(y)) is \(hex(got)), expected \(hex(expected))")
            if problems.count >= 5 { break }
        }
    }
    return problems
}

/// Every pixel of a band across the top (grid line at y 0, the labels' 2-point dots) and of a
/// band across the grid line at x = 100 pt: one-point lines must be exactly two device pixels,
/// where the buffer's layout puts them.
private let sharpnessPixels: [(Int, Int)] = (0..<40).flatMap { y in (0..<1280).map { ($0, y) } }
    + (40..<720).flatMap { y in (190..<215).map { ($0, y) } }

/// Lines of a `WAYLAND_DEBUG=client` log that contain all of `words`.
private func protocolLines(_ viewer: ClientProcess, _ words: String...) -> [String] {
    viewer.stderr.lines.filter { line in words.allSatisfy { line.contains($0) } }
}

@Suite("HiDPI: output scales under sway and KWin", .timeLimit(.minutes(3)), .ownThreads)
struct HiDPILiveTests {
    /// sway with one 1280×720 output at scale 2 (640×360 points), and the viewer in it with
    /// `arguments`, logging its protocol traffic.
    private func startAtScale2(_ arguments: [String]) throws -> (SwayHeadless, ClientProcess) {
        let sway = try SwayHeadless(width: 1280, height: 720)
        try sway.swaymsg(["output", "HEADLESS-1", "scale", "2"])
        var env = sway.clientEnvironment
        env["WAYLAND_DEBUG"] = "client"  // libwayland logs every request and event on stderr
        let viewer = try ClientProcess("image-viewer", arguments + ["--stats"], environment: env)
        return (sway, viewer)
    }

    @Test("Scale 2: a 1280×720 buffer for 640×360 points, buffer scale 2, and one-point lines exactly two device pixels wide")
    func testCardAtTwo() throws {
        // The card's pixels alone cannot tell a 2× buffer from a 1× one: sway 1.7's pixman
        // renderer enlarges a 1× buffer by pixel repetition (measured: a 1× grid line came out
        // two sharp pixels too), which is what the card drawn at 2 looks like. The buffer size
        // and scale prove the 2×; the screenshot proves the compositor shows that buffer at
        // the window's size, with every line where the points put it (a missing buffer scale
        // would show it twice as large). The single-pixel test below is what only 2× can pass.
        let (sway, viewer) = try startAtScale2(["--test-card"])
        defer { viewer.terminate(); sway.stop() }
        let frame = try viewer.waitForStderr { isStats($0, "frame") && statsFields($0)["width"] == 1280 }
        #expect(statsFields(frame)["height"] == 720, "\(frame)")
        // Waited for, not looked up: the first 2× frame may come before the enter (until then
        // the window draws at the largest output scale), and under load the enter lags it.
        #expect(throws: Never.self, "sway said which output the surface is on") {
            try viewer.waitForStderr { $0.contains("wl_surface@") && $0.contains(".enter(wl_output@") }
        }
        #expect(!protocolLines(viewer, "-> wl_surface@", ".set_buffer_scale(2)").isEmpty, "the 2× buffer was declared")
        let problems = try awaitScreen(sway) { cardProblemsAt2($0, pixels: sharpnessPixels) }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("Scale 2: a picture's single-pixel checkerboard reaches the screen pixel for pixel")
    func singlePixelsAtTwo() throws {
        // 1280×720 image pixels in a 640×360-point window: the fit is 0.5, exactly one image
        // pixel per device pixel at scale 2 (at 1× it would be averaged to grey).
        let folder = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("scrollkit-hidpi-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = folder.appendingPathComponent("checker.png")
        try pngData(width: 1280, height: 720, rgb: checker).write(to: picture)
        let (sway, viewer) = try startAtScale2([picture.path])
        defer { viewer.terminate(); sway.stop() }
        try viewer.waitForStderr(timeout: 30) { isStats($0, "frame") && statsFields($0)["width"] == 1280 }
        let problems = try awaitScreen(sway) { shot in
            guard shot.width == 1280, shot.height == 720 else { return ["screenshot is \(shot.width)×\(shot.height)"] }
            var wrong: [String] = []
            for y in 0..<720 {
                for x in 0..<1280 where shot.pixel(x, y) != checker(x, y) {
                    wrong.append("pixel (\(x), \(y)) is \(hex(shot.pixel(x, y))), expected \(hex(checker(x, y)))")
                    if wrong.count >= 5 { return wrong }
                }
            }
            return wrong
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("Scale 2: a pointer drag moves the content by the drag in points, not in device pixels")
    func dragInPoints() throws {
        let (sway, viewer) = try startAtScale2(["--test-card"])
        defer { viewer.terminate(); sway.stop() }
        try viewer.waitForStderr { isStats($0, "frame") && statsFields($0)["width"] == 1280 }
        // In sway's layout (points): from (500,300) to (300,200) in 10 steps, hold 250 ms, release.
        var words = ["--extent", "640x360", "abs", "500", "300", "sleep", "50", "button", "left", "press"]
        for i in 1...10 {
            words += ["sleep", "16", "abs", "\(500 - 20 * i)", "\(300 - 10 * i)"]
        }
        words += ["sleep", "250", "button", "left", "release", "sync"]
        let inject = try ClientProcess("wl-inject", words, environment: sway.clientEnvironment)
        defer { inject.terminate() }
        #expect(inject.waitForExit(timeout: 20) == 0, "wl-inject: \(inject.stderr.lines)")
        // The drag is (200, 100) points less the touch slop the scroll view takes first: the
        // content offset lies in that window, 340…400 × 140…200 device pixels. Input scaled to
        // device pixels would have doubled it. Columns and rows crossing grid lines and
        // labels, away from the scroll indicators along the right and bottom edges.
        let sparse = [(100, 100), (411, 251), (1000, 600), (37, 33), (640, 21)]
        let band = (0..<690).map { (411, $0) } + (0..<1250).map { ($0, 251) } + (0..<1250).map { ($0, 31) }
        var found: (Int, Int)?
        let problems = try awaitScreen(sway) { shot in
            for dx in 340...400 {
                for dy in 140...200 where cardProblemsAt2(shot, offset: (dx, dy), pixels: sparse).isEmpty
                    && cardProblemsAt2(shot, offset: (dx, dy), pixels: band).isEmpty {
                    found = (dx, dy)
                    return []
                }
            }
            return ["the screen matches no offset within the drag less the slop; at (400,200) device pixels: "
                    + "\(cardProblemsAt2(shot, offset: (400, 200), pixels: band))"]
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(found != nil)
    }

    @Test("Scale 1.5 under sway (no fractional protocol): drawn at 2 for the 800×600 points, sway scales it down")
    func swayFractionalFallsBackToTwo() throws {
        let sway = try SwayHeadless(width: 1200, height: 900)
        defer { sway.stop() }
        try sway.swaymsg(["output", "HEADLESS-1", "scale", "1.5"])
        var env = sway.clientEnvironment
        env["WAYLAND_DEBUG"] = "client"
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"], environment: env)
        defer { viewer.terminate() }
        let frame = try viewer.waitForStderr { isStats($0, "frame") && statsFields($0)["width"] == 1600 }
        #expect(statsFields(frame)["height"] == 1200, "\(frame)")
        #expect(!protocolLines(viewer, "wl_output@", ".scale(2)").isEmpty, "sway 1.7 rounds 1.5 up for clients")
        #expect(protocolLines(viewer, "wp_fractional_scale").isEmpty, "sway 1.7 offers no fractional scale")
        // Inside cells, far from lines and labels, sway's downscale keeps the colour: points
        // (150, 150) and (450, 350) land on device pixels (225, 225) and (675, 525).
        let problems = try awaitScreen(sway) { shot in
            guard shot.width == 1200, shot.height == 900 else { return ["screenshot is \(shot.width)×\(shot.height)"] }
            return [((225, 225), (1, 1)), ((675, 525), (4, 3)), ((1125, 75), (7, 0))].compactMap { pixel, cell in
                let expected = TestCard.cellColor(column: cell.0, row: cell.1)
                let got = shot.pixel(pixel.0, pixel.1)
                return got == expected ? nil : "pixel \(pixel) is \(hex(got)), expected cell \(cell) \(hex(expected))"
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("Scale 1.5 under KWin: preferred_scale 180 arrives, the buffer is 1200×900 for 800×600 points, shown through a viewport")
    func kwinFractional() throws {
        let kwin = try KWinVirtual(width: 1600, height: 1200, scale: "1.5")
        defer { kwin.stop() }
        var env = kwin.clientEnvironment
        env["WAYLAND_DEBUG"] = "client"
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"], environment: env)
        defer { viewer.terminate() }
        // The viewer asks for 800×600 points; KWin places it at that size.
        let frame = try viewer.waitForStderr(timeout: 30) { isStats($0, "frame") && statsFields($0)["width"] == 1200 }
        #expect(statsFields(frame)["height"] == 900, "\(frame)")
        #expect(!protocolLines(viewer, "wp_fractional_scale_v1@", ".preferred_scale(180)").isEmpty)
        #expect(!protocolLines(viewer, "-> wp_viewport@", ".set_destination(800, 600)").isEmpty)
        // Fractional buffers keep buffer scale 1: the viewport alone maps them onto the surface.
        #expect(protocolLines(viewer, "-> wl_surface@", ".set_buffer_scale(").allSatisfy { $0.hasSuffix(".set_buffer_scale(1)") })
        // Every frame drawn after the preferred scale has round(points × 1.5) pixels.
        let sizes = Set(viewer.stderr.lines.filter { isStats($0, "frame") }.map { line -> [Double] in
            let f = statsFields(line)
            return [f["width"] ?? 0, f["height"] ?? 0]
        })
        #expect(sizes == [[1200, 900]], "frame sizes \(sizes)")
    }
}
