// The kiosk under a systemd watchdog (issue 19.4), with the test in systemd's place: a datagram
// socket given as NOTIFY_SOCKET and WATCHDOG_USEC=600000 (WatchdogSec=0.6 s). The viewer says
// READY=1 once its first frame with content is committed, sends WATCHDOG=1 every 0.3 s while
// idle (and wakes for nothing else), and goes silent while its loop cannot run.
import CompositorHarness
import Foundation
import Glibc
import Testing

@Suite("Live systemd watchdog under sway", .timeLimit(.minutes(2)), .ownThreads)
struct WatchdogLiveTests {
    /// sway, the test's notification socket (systemd's end), and an environment for the viewer
    /// that names the socket and has no watchdog variables (WATCHDOG_PID unset: whoever reads
    /// the others is the one watched).
    private static func session() throws -> (SwayHeadless, NotifySocket, [String: String]) {
        let sway = try SwayHeadless(width: 800, height: 600)
        let notify = try NotifySocket()
        var environment = sway.clientEnvironment
        environment["NOTIFY_SOCKET"] = notify.path
        environment["WATCHDOG_USEC"] = nil
        environment["WATCHDOG_PID"] = nil
        return (sway, notify, environment)
    }

    @Test("READY=1 after the first frame; WATCHDOG=1 every half WatchdogSec from the loop, its only wake-up when idle; silence while the loop is stopped, pings again after")
    func watchdog() throws {
        var (sway, notify, environment) = try Self.session()
        defer { sway.stop(); notify.close() }
        environment["WATCHDOG_USEC"] = "600000"
        let viewer = try ClientProcess("image-viewer", ["--kiosk", "--stats", DecodedImage.assetPath(sunsetAsset),
                                                        DecodedImage.assetPath(bubblesAsset)], environment: environment)
        defer { viewer.terminate() }
        let pid = viewer.process.processIdentifier

        // READY=1 comes once, and only after the first frame with content: that frame's stats
        // line is written before it, on the same thread.
        let deadline = Date().addingTimeInterval(20)
        while notify.times(of: "READY=1").isEmpty && Date() < deadline { usleep(10_000) }
        #expect(notify.times(of: "READY=1").count == 1, "messages: \(notify.messages.map(\.message))")
        #expect(throws: Never.self, "READY=1 before the first frame") {
            try viewer.waitForStderr(timeout: 2) { isStats($0, "first-frame") }
        }

        // Idle: pings every 0.3 s, and nothing else wakes any thread of the viewer.
        try awaitQuiet(viewer)
        // The second picture's load, slow on a loaded machine, must be over first: it is work,
        // not a wake-up.
        try awaitOtherThreadsQuiet(pid)
        let start = Date()
        let before = contextSwitches(of: pid)
        usleep(3_000_000)
        let after = contextSwitches(of: pid)
        let pings = notify.times(of: "WATCHDOG=1").filter { $0 >= start && $0 <= Date() }
        let gaps = zip(pings, pings.dropFirst()).map { $1.timeIntervalSince($0) }.sorted()
        #expect(pings.count >= 8 && pings.count <= 11, "\(pings.count) pings in 3 s")
        if !gaps.isEmpty {
            let median = gaps[gaps.count / 2]
            #expect(median > 0.25 && median < 0.4, "median gap \(median) s, expected 0.3 s; gaps \(gaps)")
            // The timeout itself: a gap this long would have had the viewer killed.
            #expect(gaps.last! < 0.6, "longest gap \(gaps.last!) s")
        }
        var woken: [String] = []
        for (tid, now) in after {
            let delta = now.switches - (before[tid]?.switches ?? 0)
            guard delta > 0 else { continue }
            // The loop's thread (the process's own id) wakes once or twice per ping.
            if tid == "\(pid)" {
                if delta > 2 * pings.count + 2 { woken.append("main loop: \(delta) switches for \(pings.count) pings") }
            } else {
                woken.append("\(now.name) (\(tid)): \(delta)")
            }
        }
        #expect(woken.isEmpty, "woke beyond the watchdog's timer: \(woken)")

        // Stopped (a hung loop looks the same to systemd): no pings; continued: pings again.
        kill(pid, SIGSTOP)
        let stopped = Date()
        usleep(1_500_000)
        let resumed = Date()
        kill(pid, SIGCONT)
        usleep(1_000_000)
        let whileStopped = notify.times(of: "WATCHDOG=1").filter { $0 > stopped.addingTimeInterval(0.05) && $0 < resumed }
        #expect(whileStopped.isEmpty, "\(whileStopped.count) pings while the viewer was stopped")
        let afterwards = notify.times(of: "WATCHDOG=1").filter { $0 >= resumed }
        #expect(afterwards.count >= 2, "\(afterwards.count) pings in the second after SIGCONT")
        #expect(viewer.isRunning)
    }

    @Test("With a socket but no WATCHDOG_USEC, READY=1 only; a WATCHDOG_PID of another process, no pings; an unreadable WATCHDOG_USEC, one line naming it and the viewer goes on")
    func readinessOnly() throws {
        var (sway, notify, environment) = try Self.session()
        defer { sway.stop(); notify.close() }
        let viewer = try ClientProcess("image-viewer", ["--kiosk", "--stats", DecodedImage.assetPath(sunsetAsset)],
                                       environment: environment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        usleep(1_000_000)
        // MAINPID= names the viewer: under cage it, not cage, is the process systemd watches.
        #expect(notify.messages.map(\.message) == ["READY=1\nMAINPID=\(viewer.process.processIdentifier)"])
        // WATCHDOG_PID naming another process: that one is watched, not the viewer.
        environment["WATCHDOG_USEC"] = "600000"
        environment["WATCHDOG_PID"] = "1"
        let other = try ClientProcess("image-viewer", ["--kiosk", "--stats", DecodedImage.assetPath(sunsetAsset)],
                                      environment: environment)
        defer { other.terminate() }
        try other.waitForStderr { isStats($0, "first-frame") }
        usleep(1_000_000)
        #expect(notify.times(of: "WATCHDOG=1").isEmpty, "\(notify.messages.map(\.message))")
        environment["WATCHDOG_USEC"] = "12abc"
        environment.removeValue(forKey: "WATCHDOG_PID")
        let hostile = try ClientProcess("image-viewer", ["--kiosk", "--stats", DecodedImage.assetPath(sunsetAsset)],
                                        environment: environment)
        defer { hostile.terminate() }
        let warning = try hostile.waitForStderr { $0.contains("WATCHDOG_USEC=12abc") }
        #expect(warning.hasPrefix("image-viewer: ") && warning.hasSuffix("the watchdog is not fed"), "\(warning)")
        try hostile.waitForStderr { isStats($0, "first-frame") }
        #expect(hostile.isRunning)
    }
}
