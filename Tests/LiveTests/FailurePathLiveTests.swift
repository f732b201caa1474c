// The viewer under sway headless when things around it fail or stop: idle with no thread
// waking, standard error that cannot be written, a recording that cannot be written, and
// SIGTERM or SIGINT in the middle of a recorded session.
import CompositorHarness
import Foundation
import Glibc
import SafeOutput
import Testing
import TestSupport

@Suite("Live failure paths under sway headless", .timeLimit(.minutes(3)), .ownThreads)
struct FailurePathLiveTests {
    /// sway, an injector kept connected, and the test card viewer with --stats recording into a
    /// fresh trace path, at its first frame.
    private func recordingViewer() throws -> (SwayHeadless, Injector, String, ClientProcess) {
        let sway = try SwayHeadless(width: 800, height: 600)
        let inject = try Injector(environment: sway.clientEnvironment, options: ["--extent", "800x600"])
        let trace = temporaryTracePath()
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats", "--record", trace],
                                       environment: sway.clientEnvironment)
        try viewer.waitForStderr { isStats($0, "first-frame") }
        return (sway, inject, trace, viewer)
    }

    @Test("Idle, with the bundled pictures loaded and no slideshow, no thread of the viewer wakes for 10 s")
    func idleWakesNoThread() throws {
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let viewer = try ClientProcess("image-viewer", ["--stats", DecodedImage.assetPath("")],
                                       environment: sway.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") }
        // The neighbours' loads and the first picture's full resolution: then nothing moves.
        try awaitQuiet(viewer, quiet: 3, timeout: 30)
        let (woke, threads) = threadsWaking(in: viewer.process.processIdentifier, during: 10)
        #expect(viewer.isRunning)
        #expect(woke.isEmpty, "threads that woke during 10 s of idle: \(woke); all threads: \(threads)")
    }

    @Test("With standard error on a full disk, the viewer drops its --stats lines and goes on showing pictures")
    func fullStandardError() throws {
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let viewer = try ClientProcess("image-viewer", ["--stats", DecodedImage.assetPath(sunsetAsset)],
                                       environment: sway.clientEnvironment, standardError: full)
        defer { viewer.terminate() }
        let sunset = try DecodedImage.asset(sunsetAsset)
        let fit = Placement.fit(sunset, width: 800, height: 600)
        let grid = gridPoints(width: 800, height: 600, step: 9)
        let (problems, _) = try awaitShot(timeout: 15, sway.screenshot) { placementProblems($0, sunset, fit, points: grid) }
        #expect(problems.isEmpty, "the picture is not shown: \(problems.prefix(5))")
        #expect(viewer.isRunning, "ended: \(String(describing: viewer.process.termination))")
        kill(viewer.process.processIdentifier, SIGTERM)
        let status = viewer.waitForExit(timeout: 5)
        #expect(viewer.process.termination?.bySignal == false && status == 128 + SIGTERM,
                "ended: \(String(describing: viewer.process.termination))")
    }

    @Test("SIGTERM or SIGINT during a --stats --record session still ends the recording with its end comment",
          arguments: [SIGTERM, SIGINT])
    func signalEndsRecording(signal: Int32) throws {
        let (sway, inject, trace, viewer) = try recordingViewer()
        defer { viewer.terminate(); inject.stop(); sway.stop(); unlink(trace) }
        try inject.run(["abs 400 300", "wheel vertical 2"])
        try awaitQuiet(viewer)
        kill(viewer.process.processIdentifier, signal)
        let status = viewer.waitForExit(timeout: 5)
        #expect(status == 128 + signal, "ended: \(String(describing: viewer.process.termination))")
        #expect(viewer.stderr.lines.contains { isStats($0, "summary") }, "stderr: \(viewer.stderr.lines.suffix(3))")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains(#""kind":"pointer.axis""#) }, "the wheel was recorded: \(lines.suffix(3))")
        #expect(lines.last?.hasPrefix("# live end: ") == true, "last line: \(String(describing: lines.last))")
    }

    @Test("A recording that stops fitting its file is reported when it fails and again at exit, and the viewer goes on")
    func recordingWriteFails() throws {
        let (sway, inject, trace, viewer) = try recordingViewer()
        defer { viewer.terminate(); inject.stop(); sway.stop(); unlink(trace) }
        try inject.run(["abs 100 100"])
        // From now on the viewer may write files of 2 KiB at most (its window's buffers exist
        // already; they are files too): the first lines fit, a hundred more pointer motions
        // do not, and a write past the limit fails with EFBIG.
        let limited = try runProcess(URL(fileURLWithPath: "/usr/bin/prlimit"),
                                     ["--pid", "\(viewer.process.processIdentifier)", "--fsize=2048"])
        try #require(limited.status == 0, "prlimit (util-linux): \(limited.stderr)")
        // One motion per round trip: motions the viewer reads in one go merge into one recorded
        // line (the seat coalesces them), and 150 at once could then stay under the limit.
        for step in 0..<150 { try inject.run(["abs \(100 + step * 3) \(100 + step * 2)"]) }
        let warning = try viewer.waitForStderr { $0.contains("--record: writing the trace file") }
        #expect(warning.contains("File too large"), "\(warning)")
        // More input, not recorded now (nothing that draws: a new buffer could not be made
        // under the limit either).
        try inject.run(["abs 400 300", "abs 410 300"])
        try awaitQuiet(viewer)
        #expect(viewer.isRunning, "the viewer goes on without its recording; stderr: \(viewer.stderr.lines.filter { !$0.hasPrefix("{") })")
        kill(viewer.process.processIdentifier, SIGTERM)
        _ = viewer.waitForExit(timeout: 5)
        let atExit = viewer.stderr.lines.filter { $0.contains("is incomplete") }
        #expect(atExit.count == 1 && atExit[0].contains(trace), "stderr: \(viewer.stderr.lines.filter { !$0.hasPrefix("{") })")
        #expect(viewer.stderr.lines.filter { $0.contains("--record: writing the trace file") }.count == 2,
                "one warning when it failed, one at exit")
    }
}

@Suite("Live compositors' sockets", .timeLimit(.minutes(2)), .ownThreads)
struct CompositorSocketTests {
    @Test("The nested KWin's socket, which takes fake input, is reachable by sway's uid and by no other user")
    func kwinSocketIsPrivate() throws {
        try #require(getuid() == 0, "the test runs as root, as CI does: it tries the socket as two other uids")
        let nested = try SwayNestedInKWin(width: 640, height: 480)
        defer { nested.stop() }
        func connects(asUID uid: UInt32) throws -> Bool {
            let result = try runProcess(URL(fileURLWithPath: "/usr/bin/setpriv"), [
                "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", "-c",
                "import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])", nested.kwinSocket,
            ])
            return result.status == 0
        }
        #expect(try connects(asUID: SwayHeadless.swayUID), "sway's uid reaches KWin")
        #expect(try !connects(asUID: 4343), "another user must not reach KWin's fake input")
    }
}
