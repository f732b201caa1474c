// The screen stays on while the show runs (issue 19.2): under sway a playing slideshow holds a
// zwp_idle_inhibitor_v1 (the protocol trace, and sway's own `inhibit_idle` in its tree), P lets
// it go and takes it again; under sway nested in KWin a finger held on a viewer without a
// slideshow holds one until it lifts; weston 10, which lacks the protocol, gets one warning.
import CompositorHarness
import Foundation
import Glibc
import Testing

/// Protocol trace lines (`WAYLAND_DEBUG=client`) about idle inhibitors.
private func inhibitorLines(_ viewer: ClientProcess) -> (created: Int, destroyed: Int) {
    let lines = viewer.stderr.lines
    return (lines.filter { $0.contains(".create_inhibitor(new id zwp_idle_inhibitor_v1@") }.count,
            lines.filter { $0.contains("-> zwp_idle_inhibitor_v1@") && $0.hasSuffix(".destroy()") }.count)
}

/// Waits until the trace shows `created` inhibitors made and `destroyed` destroyed.
private func awaitInhibitors(_ viewer: ClientProcess, created: Int, destroyed: Int, timeout: Double = 10) throws {
    guard !awaitTrue(timeout: timeout, { inhibitorLines(viewer) == (created, destroyed) }) else { return }
    throw HarnessError(description: "expected \(created) inhibitors made and \(destroyed) destroyed, saw \(inhibitorLines(viewer))")
}

/// Whether sway's tree says a view inhibits idleness now (sway counts an inhibitor only while
/// its surface is visible).
private func swayInhibitsIdle(_ sway: SwayHeadless) throws -> Bool {
    try sway.swaymsg(["-t", "get_tree", "--raw"]).replacingOccurrences(of: " ", with: "").contains("\"inhibit_idle\":true")
}

/// Polls `condition` until it holds or `timeout` seconds pass.
private func eventually(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}

@Suite("Live idle inhibition under sway, KWin and weston", .timeLimit(.minutes(3)), .ownThreads)
struct IdleInhibitLiveTests {
    @Test("sway: a playing slideshow keeps the screen on (inhibitor made, sway's inhibit_idle true); P pauses and lets it go, P again takes it back")
    func slideshowUnderSway() throws {
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let inject = try Injector(environment: sway.clientEnvironment, options: ["--extent", "800x600"])
        defer { inject.stop() }
        let viewer = try startTracedSlideshowKiosk(sway.clientEnvironment)
        defer { viewer.terminate() }
        try awaitInhibitors(viewer, created: 1, destroyed: 0)
        #expect(try eventually { try swayInhibitsIdle(sway) }, "sway's tree shows no idle inhibition")
        try inject.run(["abs 400 300", "tap p"])
        try awaitInhibitors(viewer, created: 1, destroyed: 1)
        #expect(try eventually { try !swayInhibitsIdle(sway) }, "sway still inhibits idleness with the show paused")
        try inject.run(["tap P"])
        try awaitInhibitors(viewer, created: 2, destroyed: 1)
        #expect(try eventually { try swayInhibitsIdle(sway) })
        #expect(!viewer.stderr.lines.contains { $0.contains("idle-inhibit") }, "no warning where the protocol exists")
    }

    @Test("KWin touch through sway: a finger held on a viewer without a slideshow keeps the screen on until it lifts")
    func fingerDownUnderKWin() throws {
        let session = try SwayNestedInKWin(width: 800, height: 600)
        defer { session.stop() }
        let touch = try Injector(environment: session.kwinClientEnvironment, options: ["--backend", "kwin"])
        defer { touch.stop() }
        try session.waitForTouchDevice()
        try touch.run(["sleep 200"])  // touch right after sway binds KWin's wl_touch can be lost
        var environment = session.sway.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"
        let viewer = try ClientProcess("image-viewer", ["--stats", DecodedImage.assetPath(sunsetAsset),
                                                        DecodedImage.assetPath(bubblesAsset)], environment: environment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        #expect(inhibitorLines(viewer).created == 0, "no slideshow, no finger: the screen may blank")
        try touch.run(["touch down 0 400 300", "touch frame"])
        try awaitInhibitors(viewer, created: 1, destroyed: 0)
        #expect(try eventually { try swayInhibitsIdle(session.sway) })
        try touch.run(["sleep 300", "touch up 0", "touch frame"])
        try awaitInhibitors(viewer, created: 1, destroyed: 1)
    }

    @Test("weston 10 lacks idle-inhibit: a slideshow says so once on stderr and plays on")
    func westonLacksIt() throws {
        let weston = try WestonHeadless(width: 800, height: 600, shell: .desktop, pixman: true)
        defer { weston.stop() }
        let viewer = try ClientProcess("image-viewer", ["--slideshow", "1", "--stats", DecodedImage.assetPath(sunsetAsset),
                                                        DecodedImage.assetPath(bubblesAsset)], environment: weston.clientEnvironment)
        defer { viewer.terminate() }
        let warning = try viewer.waitForStderr { $0.contains("zwp_idle_inhibit_manager_v1") }
        #expect(warning.hasPrefix("warning: ") && warning.contains("blank the screen"), "\(warning)")
        // Slides keep coming (each a frame), and the warning is not repeated. The warning comes
        // as the globals are bound, before the first frame, which a loaded machine can delay.
        try viewer.waitForStderr(timeout: 20) { isStats($0, "first-frame") }
        let frames = viewer.stderr.lines.filter { isStats($0, "frame") }.count
        usleep(2_500_000)
        #expect(viewer.stderr.lines.filter { isStats($0, "frame") }.count > frames, "the show stopped")
        #expect(viewer.stderr.lines.filter { $0.contains("zwp_idle_inhibit_manager_v1") }.count == 1)
        #expect(viewer.isRunning)
    }
}
