// Screens that go away and come back (issue 19.6): the kiosk survives its output being powered
// off and on, disabled, given a new mode and enabled again, and unplugged outright with another
// screen plugged in at another size and scale; it keeps its page and draws it fitted to the new
// screen. sway headless disables and re-modes its output; an unplug (the wl_output global
// removed) needs a nested sway, whose output window the parent closes (`create_output` plugs in
// a new one).
import CompositorHarness
import Foundation
import Glibc
import Testing

/// Waits until `shot` shows `image` fitted to a `width`×`height` screen of output scale `scale`.
private func awaitFitted(_ image: DecodedImage, width: Int, height: Int, scale: Double = 1, _ shot: () throws -> Screenshot,
                         timeout: Double = 10) throws -> [String] {
    let fit = Placement.fit(image, width: width, height: height)
    let grid = gridPoints(width: width, height: height, step: 13)
    let (problems, last) = try awaitShot(timeout: timeout, shot) {
        placementProblems($0, image, fit, points: grid, outputScale: scale)
    }
    if last.width != width || last.height != height { return ["the screen is \(last.width)×\(last.height), not \(width)×\(height)"] }
    return problems
}

@Suite("Live hot-plug and power under sway", .timeLimit(.minutes(3)), .ownThreads)
struct HotplugLiveTests {
    @Test("Powered off and on, disabled, re-moded to 1280×720 and enabled: the kiosk runs on, keeps its page and shows it fitted at the new size")
    func powerAndModes() throws {
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let inject = try Injector(environment: sway.clientEnvironment, options: ["--extent", "800x600"])
        defer { inject.stop() }
        let viewer = try ClientProcess("image-viewer", ["--kiosk", "--stats", DecodedImage.assetPath(sunsetAsset),
                                                        DecodedImage.assetPath(bubblesAsset)], environment: sway.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        let bubbles = try DecodedImage.asset(bubblesAsset)
        try inject.run(["abs 400 300", "drag 700 300 150 300 150 10"])
        #expect(try awaitFitted(bubbles, width: 800, height: 600, sway.screenshot).isEmpty, "the swipe did not reach the bubbles")
        try sway.swaymsg(["output", "HEADLESS-1", "dpms", "off"])
        usleep(1_000_000)
        try sway.swaymsg(["output", "HEADLESS-1", "dpms", "on"])
        #expect(try awaitFitted(bubbles, width: 800, height: 600, sway.screenshot).isEmpty, "after power off and on")
        try sway.swaymsg(["output", "HEADLESS-1", "disable"])
        usleep(1_000_000)
        try sway.swaymsg(["output", "HEADLESS-1", "mode", "1280x720"])
        try sway.swaymsg(["output", "HEADLESS-1", "enable"])
        try viewer.waitForStderr { isStats($0, "frame") && statsFields($0)["width"] == 1280 && statsFields($0)["height"] == 720 }
        // sway shows its own cursor on the re-enabled output until the pointer moves over the
        // kiosk, which hides it.
        try inject.run(["abs 500 400", "abs 400 300"])
        let problems = try awaitFitted(bubbles, width: 1280, height: 720, sway.screenshot)
        #expect(problems.isEmpty, "after disable, a new mode and enable: \(problems)")
        #expect(viewer.isRunning)
        #expect(viewer.stderr.lines.filter { !$0.hasPrefix("{") }.isEmpty, "stderr: \(viewer.stderr.lines.suffix(5))")
    }

    @Test("Unplugged (the wl_output goes), then another screen plugged in at scale 2: the kiosk runs on, lets the screen blank while on none, keeps its page and draws it at the new screen's size and scale")
    func unplugAndReplug() throws {
        // The parent plays the room the screens are in; the kiosk's sway shows its outputs as
        // windows of it, which can be closed (unplugged) and made (plugged in).
        let room = try SwayHeadless(width: 1600, height: 900)
        defer { room.stop() }
        let sway = try SwayHeadless(width: 800, height: 600, parentSocket: room.socket)
        defer { sway.stop() }
        let inject = try Injector(environment: sway.clientEnvironment, options: ["--extent", "800x600"])
        defer { inject.stop() }
        let viewer = try startTracedSlideshowKiosk(sway.clientEnvironment)
        defer { viewer.terminate() }
        let bubbles = try DecodedImage.asset(bubblesAsset)
        // The room gives the screen's window all its space: the screen is the room's size.
        let first = try #require(Self.currentMode(try sway.swaymsg(["-t", "get_outputs", "--raw"])))
        try inject.run(["abs 400 300", "drag 700 300 150 300 150 10"])
        #expect(try awaitFitted(bubbles, width: first.width, height: first.height, sway.screenshot).isEmpty,
                "the swipe did not reach the bubbles")
        func count(_ words: String...) -> Int { viewer.stderr.lines.filter { l in words.allSatisfy { l.contains($0) } }.count }
        #expect(count(".create_inhibitor(") == 1)
        // Unplugged: the room closes the screen's window; its wl_output global goes.
        try room.swaymsg(["[title=\"wlroots - WL-1\"]", "kill"])
        try viewer.waitForStderr { $0.contains("wl_registry@") && $0.contains(".global_remove(") }
        // On no screen, the kiosk asks nothing of it: the inhibitor goes.
        try viewer.waitForStderr { $0.contains("-> zwp_idle_inhibitor_v1@") && $0.hasSuffix(".destroy()") }
        // Another screen, then drawn at twice the density.
        let enters = count("wl_surface@", ".enter(wl_output@")
        try sway.swaymsg(["create_output"])
        let deadline = Date().addingTimeInterval(10)
        while count("wl_surface@", ".enter(wl_output@") == enters && Date() < deadline { usleep(20_000) }
        #expect(count("wl_surface@", ".enter(wl_output@") > enters, "the surface did not enter the new screen")
        try sway.swaymsg(["output", "WL-2", "scale", "2"])
        try viewer.waitForStderr { $0.contains(".set_buffer_scale(2)") }
        let outputs = try sway.swaymsg(["-t", "get_outputs", "--raw"])
        let mode = try #require(Self.currentMode(outputs), "no current mode in \(outputs)")
        let problems = try awaitFitted(bubbles, width: mode.width, height: mode.height, scale: 2, sway.screenshot)
        #expect(problems.isEmpty, "on the new \(mode.width)×\(mode.height) screen at scale 2: \(problems)")
        #expect(count(".create_inhibitor(") == 2, "the inhibitor is taken again on the new screen")
        #expect(viewer.isRunning)
    }

    /// The pixel size of the first output in `swaymsg -t get_outputs --raw`.
    private static func currentMode(_ json: String) -> (width: Int, height: Int)? {
        guard let data = json.data(using: .utf8),
              let outputs = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]],
              let mode = outputs.first?["current_mode"] as? [String: Any],
              let width = mode["width"] as? Int, let height = mode["height"] as? Int else { return nil }
        return (width, height)
    }
}
