// A kiosk's content updated by copying files into its folder, under sway headless: the viewer
// started on an empty folder shows a picture copied in, and a rewritten picture on screen, with
// no input and no restart (the folder watcher wakes the real event loop).
import CompositorHarness
import Foundation
import Glibc
import SafeOutput
import Testing
import TestSupport

@Suite("Live folder watch under sway headless", .timeLimit(.minutes(2)), .ownThreads)
struct FolderLiveTests {
    /// Problems with the middle of the screen: it should be `rgb`.
    private func middle(_ shot: Screenshot, is rgb: UInt32) -> [String] {
        let p = shot.pixel(shot.width / 2, shot.height / 2) & 0xFF_FFFF
        return p == rgb ? [] : ["the middle is \(String(p, radix: 16)), expected \(String(rgb, radix: 16))"]
    }

    @Test("A kiosk on an empty folder shows a picture copied in, then the same picture rewritten")
    func copiedIn() throws {
        let folder = try PrivateFolder(prefix: "folder-live")
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let viewer = try ClientProcess("image-viewer", ["--kiosk", "--stats", folder.path], environment: sway.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") }
        // Copied in the way cp does: created, written, closed.
        try pngData(width: 80, height: 60) { _, _ in 0xFF0000 }.write(to: URL(fileURLWithPath: folder.appending("1.png")))
        let (shown, _) = try awaitShot(timeout: 10, sway.screenshot) { middle($0, is: 0xFF0000) }
        #expect(shown.isEmpty, "\(shown)")
        // Saved over by an editor: a temporary file renamed onto it.
        try pngData(width: 80, height: 60) { _, _ in 0x0000FF }.write(to: URL(fileURLWithPath: folder.appending(".1.png.tmp")))
        #expect(rename(folder.appending(".1.png.tmp"), folder.appending("1.png")) == 0)
        let (reloaded, _) = try awaitShot(timeout: 10, sway.screenshot) { middle($0, is: 0x0000FF) }
        #expect(reloaded.isEmpty, "\(reloaded)")
        #expect(viewer.isRunning)
        #expect(viewer.stderr.lines.filter { !$0.hasPrefix("{") } == ["image-viewer: no pictures in \(folder.path)"],
                "\(viewer.stderr.lines.filter { !$0.hasPrefix("{") })")
    }
}
