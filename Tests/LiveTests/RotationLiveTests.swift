// Portrait screens (issue 19.3): the kiosk on a turned output draws its buffers turned as the
// output is (wl_surface.set_buffer_transform, seen in the protocol trace), the pictures reach the
// screen upright and fitted to the portrait window, and swipes turn pages the way the finger
// goes. Under sway (`output HEADLESS-1 transform 90`) and under cage turned (`cage -r`), nested
// in a sway that plays its screen, so the buffer cage hands to the screen can be seen.
import CompositorHarness
import Foundation
import Glibc
import Raster
import Testing

/// The `wl_output.transform` a `WAYLAND_DEBUG=client` log shows the compositor sent last.
private func outputTransform(in lines: [String]) -> Int? {
    guard let geometry = lines.last(where: { $0.contains("wl_output@") && $0.contains(".geometry(") }),
          let last = geometry.split(separator: ",").last else { return nil }
    return Int(last.trimmingCharacters(in: CharacterSet(charactersIn: " )")))
}

/// What the rotation tests check on a portrait output of `width`×`height` points showing the
/// sunset then the bubbles: the protocol, the picture upright and fitted, and the swipes.
private struct PortraitChecks {
    let viewer: ClientProcess
    let width: Int, height: Int
    /// The screen as the client sees it, upright.
    let shot: () throws -> Screenshot
    /// Drags the pointer from one point to another, in the window's points.
    let drag: (_ from: (Int, Int), _ to: (Int, Int)) throws -> Void

    func run() throws {
        // The window is portrait and its frames are drawn at its size…
        try viewer.waitForStderr(timeout: 30) {
            isStats($0, "frame") && statsFields($0)["width"] == Double(width) && statsFields($0)["height"] == Double(height)
        }
        // …into buffers turned as the output is: the same transform the compositor announced,
        // and buffers of the turned size (stride: 4 bytes a pixel of the turned width).
        let transform = try #require(outputTransform(in: viewer.stderr.lines), "no wl_output.geometry in the trace")
        #expect(transform == 1 || transform == 3, "a portrait output is turned a quarter: \(transform)")
        let declared = viewer.stderr.lines.filter { $0.contains("-> wl_surface@") && $0.contains(".set_buffer_transform(") }
        #expect(declared.last?.hasSuffix(".set_buffer_transform(\(transform))") == true, "declared: \(declared)")
        #expect(viewer.stderr.lines.contains { $0.contains(".create_buffer(new id wl_buffer@") && $0.contains(", \(height), \(width), \(height * 4), ") },
                "no \(height)×\(width) buffer for the \(width)×\(height) window")
        let sunset = try DecodedImage.asset(sunsetAsset), bubbles = try DecodedImage.asset(bubblesAsset)
        let grid = gridPoints(width: width, height: height, step: 11)
        func check(_ image: DecodedImage, _ what: String) throws {
            let fit = Placement.fit(image, width: width, height: height)
            let (problems, shot) = try awaitShot(timeout: 10, self.shot) { placementProblems($0, image, fit, points: grid) }
            #expect(shot.width == width && shot.height == height)
            #expect(problems.isEmpty, "\(what): \(image.name) \(fit) on \(width)×\(height): \(problems)")
        }
        try check(sunset, "first")
        // The sunset's own pixels upside down do not pass for it: the comparison sees a turn.
        let upright = try shot()
        #expect(!placementProblems(upright.turnedBack(.rotated180), sunset, .fit(sunset, width: width, height: height),
                                   points: grid).isEmpty, "the comparison cannot tell a picture from its half turn")
        // A leftward swipe brings the next picture, a rightward one the first again.
        try drag((width * 9 / 10, height / 2), (width / 10, height / 2))
        try check(bubbles, "after a leftward swipe")
        try drag((width / 10, height / 2), (width * 9 / 10, height / 2))
        try check(sunset, "after a rightward swipe")
    }
}

@Suite("Live portrait screens under sway and cage", .timeLimit(.minutes(3)), .ownThreads)
struct RotationLiveTests {
    @Test("sway, output turned 90: buffers declared turned as the output, pictures upright and fitted in 720×1280, swipes turn pages the way they go")
    func swayTurned() throws {
        let sway = try SwayHeadless(width: 1280, height: 720)
        defer { sway.stop() }
        try sway.swaymsg(["output", "HEADLESS-1", "transform", "90"])
        // Logical coordinates: the turned output is 720×1280 points.
        let inject = try Injector(environment: sway.clientEnvironment, options: ["--extent", "720x1280"])
        defer { inject.stop() }
        var environment = sway.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"  // libwayland logs every request and event on stderr
        let viewer = try ClientProcess("image-viewer", ["--kiosk", "--stats", DecodedImage.assetPath(sunsetAsset),
                                                        DecodedImage.assetPath(bubblesAsset)], environment: environment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        // The pointer over the window: the kiosk hides it, so it is not in the screenshots.
        try inject.run(["abs 360 640", "sleep 50"])
        try PortraitChecks(viewer: viewer, width: 720, height: 1280, shot: sway.screenshot, drag: { from, to in
            try inject.run(["drag \(from.0) \(from.1) \(to.0) \(to.1) 150 10", "sleep 50"])
        }).run()
        #expect(viewer.isRunning)
    }

    @Test("cage turned (-r), nested in the sway that plays its screen: buffers declared turned, the screen's pixels upright and fitted once turned back as the screen is mounted; swipes turn pages the way they go")
    func cageTurned() throws {
        // sway plays the screen: 1280×720 pixels, which cage turns into a 720×1280 output.
        let screen = try SwayHeadless(width: 1280, height: 720)
        defer { screen.stop() }
        // The pointer goes to the screen's sway, whose seat is cage's: physical coordinates.
        let inject = try Injector(environment: screen.clientEnvironment, options: ["--extent", "1280x720"])
        defer { inject.stop() }
        let cage = try CageHeadless(rotated: true, nestedIn: screen)
        defer { cage.stop() }
        var environment = cage.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"
        let viewer = try ClientProcess("image-viewer", ["--kiosk", "--stats", DecodedImage.assetPath(sunsetAsset),
                                                        DecodedImage.assetPath(bubblesAsset)], environment: environment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        try inject.run(["abs 640 360", "sleep 50"])
        try PortraitChecks(viewer: viewer, width: 720, height: 1280, shot: cage.screenshot, drag: { from, to in
            let a = cage.screenPoint(from.0, from.1, output: (720, 1280)), b = cage.screenPoint(to.0, to.1, output: (720, 1280))
            try inject.run(["drag \(a.x) \(a.y) \(b.x) \(b.y) 150 10", "sleep 50"])
        }).run()
        #expect(viewer.isRunning && cage.isRunning)
    }
}
