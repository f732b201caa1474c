// When frames reach the screen, as the compositor reports it (wp_presentation_feedback): weston
// answers every commit, so the --stats summary counts the slideshow's frames as presented and
// judges which came a refresh late. (sway 1.7's headless output advertises wp_presentation but
// answers no feedback, and KWin 5.27 does not offer it: there the figures stay out or at 0.)
import Foundation
import Glibc
import Testing

@Suite("Presentation feedback under weston headless", .timeLimit(.minutes(2)), .ownThreads)
struct PresentationLiveTests {
    @Test("A slideshow's frames are reported presented by weston, and the summary says so")
    func slideshowFramesPresented() throws {
        let weston = try WestonHeadless(width: 800, height: 600, shell: .desktop)
        defer { weston.stop() }
        let viewer = try ClientProcess("image-viewer", ["--slideshow", "1", "--stats", DecodedImage.assetPath(sunsetAsset),
                                                        DecodedImage.assetPath(bubblesAsset)],
                                       environment: weston.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") }
        // Each summary figure is as of the latest commit; feedback trails its commit by a
        // refresh or two, so wait for a few frames after the first.
        let deadline = Date().addingTimeInterval(60)
        while viewer.stderr.lines.filter({ isStats($0, "frame") }).count < 5, Date() < deadline { usleep(100_000) }
        kill(viewer.process.processIdentifier, SIGTERM)
        #expect(viewer.waitForExit(timeout: 10) == 128 + SIGTERM)
        let lines = viewer.stderr.lines
        let summary = try #require(lines.last { isStats($0, "summary") }, "no summary; last lines: \(lines.suffix(5))")
        let fields = statsFields(summary)
        let frames = fields["frames"] ?? 0
        let presented = try #require(fields["presented"], "weston offers wp_presentation: the summary must count it: \(summary)")
        let discarded = fields["discarded"] ?? -1
        let late = fields["latePresented"] ?? -1
        #expect(frames >= 5, "summary: \(summary)")
        #expect(presented >= 2, "weston presents every frame it composes: \(summary)")
        #expect(discarded >= 0 && presented + discarded <= frames, "feedback only for committed frames: \(summary)")
        #expect(late >= 0 && late <= presented, "summary: \(summary)")
        #expect(weston.isRunning, "weston ended with its client; its log:\n\(weston.log.suffix(2000))")
    }
}
