// The viewer as a kiosk under the kiosk compositors: cage (wlroots) shows it fullscreen, nested in
// a sway that plays its screen so its pixels can be seen (see CageHeadless); weston's kiosk-shell shows only black to its screenshooter and
// answers no frame callback after a client's first commit (NOTES.md, measured again here with
// weston-simple-shm: 2 callbacks, against 80 in 2 s under desktop-shell), so there the test
// asserts what the protocol shows: the fullscreen request, the configure at the output's size,
// a first buffer of that size committed, and a clean end on SIGTERM.
import CompositorHarness
import Foundation
import Glibc
import Testing

@Suite("Live kiosk under cage and weston", .timeLimit(.minutes(2)), .ownThreads)
struct KioskLiveTests {
    @Test("Under cage, image-viewer --kiosk fills the output with the first picture, fitted and centred")
    func cage() throws {
        // A portrait kiosk: cage turns the 1280×720 screen (see CageHeadless for why nested).
        let screen = try SwayHeadless(width: 1280, height: 720)
        defer { screen.stop() }
        let cage = try CageHeadless(rotated: true, nestedIn: screen)
        defer { cage.stop() }
        let viewer = try ClientProcess("image-viewer", ["--kiosk", "--stats", DecodedImage.assetPath(sunsetAsset),
                                                        DecodedImage.assetPath(bubblesAsset)],
                                       environment: cage.clientEnvironment)
        defer { viewer.terminate() }
        let first = statsFields(try viewer.waitForStderr { isStats($0, "first-frame") })
        let output = try cage.screenshot()
        // The first frame is as large as the whole output: fullscreen.
        #expect(first["width"] == Double(output.width) && first["height"] == Double(output.height),
                "first frame \(first), output \(output.width)×\(output.height)")
        let sunset = try DecodedImage.asset(sunsetAsset)
        let fit = Placement.fit(sunset, width: output.width, height: output.height)
        let grid = gridPoints(width: output.width, height: output.height, step: 7)
        let (problems, shot) = try awaitShot(timeout: 5, cage.screenshot) { placementProblems($0, sunset, fit, points: grid) }
        #expect(problems.isEmpty, "\(fit) on \(output.width)×\(output.height): \(problems)")
        #expect(!placementProblems(shot, sunset, fit.shifted(3, 3), points: grid).isEmpty, "the comparison cannot tell 3 px")
        #expect(viewer.isRunning && cage.isRunning)
        #expect(viewer.stderr.lines.filter { !$0.hasPrefix("{") }.isEmpty, "stderr: \(viewer.stderr.lines.suffix(5))")
    }

    @Test("Under weston's kiosk-shell, image-viewer --kiosk asks for fullscreen, is configured at the output's size, commits a buffer of that size and ends cleanly on SIGTERM")
    func westonKioskShell() throws {
        // 1000×700: a size no default of the viewer's has, so a buffer that size follows weston's configure.
        let weston = try WestonHeadless(width: 1000, height: 700, shell: .kiosk)
        defer { weston.stop() }
        var environment = weston.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"  // libwayland logs every request and event on stderr
        let viewer = try ClientProcess("image-viewer", ["--kiosk", "--stats", DecodedImage.assetPath(sunsetAsset),
                                                        DecodedImage.assetPath(bubblesAsset)],
                                       environment: environment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { $0.contains("xdg_toplevel@") && $0.contains(".set_fullscreen(") }
        try viewer.waitForStderr { $0.contains("xdg_toplevel@") && $0.contains(".configure(1000, 700, array[") }
        // A 1000×700 buffer (stride 4000 bytes: 4 bytes a pixel) attached, then committed.
        let created = try viewer.waitForStderr { $0.contains(".create_buffer(new id wl_buffer@") && $0.contains(", 1000, 700, 4000, ") }
        let buffer = try #require(created.components(separatedBy: "new id ").last?.components(separatedBy: ",").first)
        try waitForCommit(of: buffer, viewer)
        kill(viewer.process.processIdentifier, SIGTERM)
        let status = viewer.waitForExit(timeout: 5)
        // The viewer's --stats handler prints the summary and exits with 128 + SIGTERM.
        #expect(status == 128 + SIGTERM, "status \(String(describing: status))")
        let stderr = viewer.stderr.lines
        let errors = stderr.filter { $0.hasPrefix("image-viewer:") }
        #expect(errors.isEmpty, "stderr: \(errors)")
        let summary = try #require(stderr.last { isStats($0, "summary") }, "no summary line; last lines: \(stderr.suffix(5))")
        #expect((statsFields(summary)["frames"] ?? 0) >= 1, "summary: \(summary)")
        #expect(weston.isRunning, "weston ended with its client; its log:\n\(weston.log.suffix(2000))")
    }

    /// Waits until the viewer's debug log shows `buffer` (as `wl_buffer@N`) attached to a
    /// surface and a commit of that surface after it.
    private func waitForCommit(of buffer: String, _ viewer: ClientProcess, timeout: Double = 15) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let lines = viewer.stderr.lines
            if let attach = lines.firstIndex(where: { $0.contains("-> wl_surface@") && $0.contains(".attach(\(buffer), ") }),
               lines[attach...].contains(where: { $0.contains("-> wl_surface@") && $0.hasSuffix(".commit()") }) {
                return
            }
            usleep(20_000)
        }
        throw HarnessError(description: "the viewer did not attach and commit \(buffer) within \(timeout) s; stderr:\n\(viewer.stderr.lines.suffix(20).joined(separator: "\n"))")
    }
}
