// A live gallery session recorded with --record under sway nested in KWin (real touch and
// pointer), replayed with scroll-replay: the pager and every page rest where they did live.
import CompositorHarness
import Foundation
import Testing
import TestSupport

@Suite("Live gallery recording", .timeLimit(.minutes(4)), .ownThreads)
struct GalleryRecordingLiveTests {
    @Test("Swipes, a wheel page turn, a pinch and a pan of the zoomed page replay to the same rest, pager and pages")
    func recordedGalleryReplays() throws {
        let trace = temporaryTracePath()
        defer { unlink(trace) }
        let session = try SwayNestedInKWin(width: 800, height: 600)
        defer { session.stop() }
        let input = try Injector(environment: session.kwinClientEnvironment, options: ["--backend", "kwin"])
        defer { input.stop() }
        try session.waitForTouchDevice()
        try input.run(["sleep 200"])
        let files = [sunsetAsset, bubblesAsset, "03-mosaic-palette.png"].map(DecodedImage.assetPath)
        let viewer = try ClientProcess("image-viewer", files + ["--stats", "--record", trace],
                                       environment: session.sway.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        // A swipe left to the second picture; the pointer over the window, a wheel notch down
        // turns to the third and one up back to the second. The swipe crosses more than half the
        // 800 pt page in steps of 28 pt: should a stalled KWin hand its moves on in one burst
        // (one timestamp, no speed), they are still moves, not glitches, and still turn the page.
        try input.run(["swipe 0 650 300 200 300 80 16"])
        try awaitQuiet(viewer, quiet: 1.5, timeout: 20)
        try input.run(["abs 400 300", "wheel vertical 1"])
        try awaitQuiet(viewer, quiet: 1.5, timeout: 20)
        try input.run(["wheel vertical -1"])
        try awaitQuiet(viewer, quiet: 1.5, timeout: 20)
        // Two fingers pinch the second picture open, one pans it slowly and rests before lifting.
        try input.run(["pinch 400 300 40 120 400 20"])
        try awaitQuiet(viewer, quiet: 1.5, timeout: 20)
        try input.run(["touch down 0 400 400", "touch frame"]
                      + (1...10).flatMap { ["sleep 16", "touch move 0 \(400 - 5 * $0) \(400 - 8 * $0)", "touch frame"] }
                      + ["sleep 300", "touch up 0", "touch frame"])
        try awaitQuiet(viewer, quiet: 1.5, timeout: 20)
        quitWithQ(viewer, keyboard: input.process)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(#""kind":"layout""#) }, "the pages' sizes came as layout lines")
        #expect(lines.contains { $0.contains(#""nested":["#) && $0.contains(#""kind":"setup""#) }, "the setup lists the pages")
        let liveEnd = try #require(lines.last.flatMap { $0.hasPrefix("# live end: ") ? String($0.dropFirst(12)) : nil },
                                   "the recording ends with the live end comment: \(lines.suffix(2))")
        let live = try #require(try JSONSerialization.jsonObject(with: Data(liveEnd.utf8)) as? [String: Any])
        let replay = try runProcess(try #require(PackagePaths.builtExecutable("scroll-replay")), [trace])
        #expect(replay.status == 0, "scroll-replay: \(replay.stderr)")
        let out = replay.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let end = try #require(out.last { $0["kind"] as? String == "end" })
        func point(_ object: [String: Any]?) -> (Double, Double)? {
            guard let o = object, let x = (o["x"] as? NSNumber)?.doubleValue, let y = (o["y"] as? NSNumber)?.doubleValue else { return nil }
            return (x, y)
        }
        let livePager = try #require(point(live["offset"] as? [String: Any]))
        let replayedPager = try #require(point(end["offset"] as? [String: Any]))
        print("live \(liveEnd)\nreplayed \(out.filter { ["end", "nestedEnd"].contains($0["kind"] as? String ?? "") })")
        #expect(abs(livePager.0 - 820) < 0.5, "the session ends on the second picture: pager at \(livePager)")
        #expect(abs(replayedPager.0 - livePager.0) < 1 && abs(replayedPager.1 - livePager.1) < 1,
                "pager: live \(livePager), replayed \(replayedPager)")
        let liveNested = (live["nested"] as? [[String: Any]]) ?? []
        let replayedNested = out.filter { $0["kind"] as? String == "nestedEnd" }
        #expect(liveNested.count == 1 && (liveNested.first?["view"] as? Int) == 2, "live, only the second page is away from its fit: \(liveNested)")
        #expect(replayedNested.map { $0["view"] as? Int } == liveNested.map { $0["view"] as? Int }, "replayed \(replayedNested)")
        defer { if Test.current.map({ _ in true }) == true { _ = try? FileManager.default.copyItem(atPath: trace, toPath: trace + ".kept") } }
        for (l, r) in zip(liveNested, replayedNested) {
            let ls = (l["zoomScale"] as? NSNumber)?.doubleValue ?? 0, rs = (r["zoomScale"] as? NSNumber)?.doubleValue ?? -1
            #expect(abs(ls - rs) < 0.01, "page \(l["view"] ?? "?"): live scale \(ls), replayed \(rs)")
            let lo = try #require(point(l["offset"] as? [String: Any])), ro = try #require(point(r["offset"] as? [String: Any]))
            #expect(abs(lo.0 - ro.0) < 1 && abs(lo.1 - ro.1) < 1, "page \(l["view"] ?? "?"): live offset \(lo), replayed \(ro)")
        }
    }
}
