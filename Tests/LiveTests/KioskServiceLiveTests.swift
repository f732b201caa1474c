// The kiosk service's command line run for real (issue 19.1), without systemd: the installed
// unit's ExecStart (the launcher, with the installed settings edited as an operator would) in
// the environment systemd gives it (NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID naming the
// process started), as an unprivileged user. The launcher becomes cage, here nested in a sway
// that plays a 1280×720 screen (see CageHeadless), turned for a portrait mounting.
import CompositorHarness
import Foundation
import Glibc
import SafeOutput
import Testing
import TestSupport

@Suite("Live kiosk service command line under cage", .timeLimit(.minutes(2)), .ownThreads)
struct KioskServiceLiveTests {
    @Test("The unit's ExecStart becomes cage turned as set, the viewer shows the folder's pictures as a slideshow, names itself the main process and feeds the watchdog; killed, it leaves nothing on screen")
    func serviceCommandLine() throws {
        // A root the compositors' user may read: the programs and pictures are run and read as it.
        let folder = try PrivateFolder(prefix: "scrollkit-kiosk-service")
        chmod(folder.path, 0o755)
        let root = folder.path + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        let kiosk = try KioskInstall(root: root)
        for (index, asset) in [sunsetAsset, bubblesAsset].enumerated() {
            try FileManager.default.copyItem(atPath: DecodedImage.assetPath(asset), toPath: kiosk.pictures + "/\(index + 1)-\(asset)")
        }
        try kiosk.set("SCROLLKIT_PICTURES", kiosk.pictures)
        // 5 s a picture: long enough for screenshots on a loaded machine to catch the first.
        try kiosk.set("SCROLLKIT_SLIDESHOW", "5")
        try kiosk.set("SCROLLKIT_IDLE_RESET", "0")
        try kiosk.set("SCROLLKIT_ROTATE", "90")
        let execStart = try kiosk.execStart()
        #expect(execStart == [kiosk.launcher, "/etc/scrollkit/kiosk.conf"])

        let notify = try NotifySocket(owner: SwayHeadless.swayUID)
        defer { notify.close() }
        let screen = try SwayHeadless(width: 1280, height: 720)
        defer { screen.stop() }
        // systemd names the process it starts in WATCHDOG_PID: the shell's, which execs the launcher.
        let cage = try CageHeadless(
            rotated: true, nestedIn: screen,
            launcher: ["/bin/sh", "-c", #"WATCHDOG_PID=$$; export WATCHDOG_PID; exec "$0" "$@""#, execStart[0], kiosk.settings],
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "1000000"])
        defer { cage.stop() }

        // READY=1 names the viewer, cage's child, as the main process.
        let deadline = Date().addingTimeInterval(20)
        while notify.times(of: "READY=1").isEmpty && Date() < deadline { usleep(20_000) }
        let ready = try #require(notify.messages.first { $0.message.hasPrefix("READY=1") }?.message,
                                 "no READY=1; messages \(notify.messages.map(\.message)); cage's log:\n\(cage.log.suffix(3000))")
        let mainPID = try #require(ready.split(separator: "\n").first { $0.hasPrefix("MAINPID=") }
            .flatMap { pid_t($0.dropFirst("MAINPID=".count)) }, "\(ready)")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(mainPID)/exe")
        #expect(executable == root + "/usr/local/bin/image-viewer")
        let stat = try String(contentsOfFile: "/proc/\(mainPID)/stat", encoding: .utf8)
        let parent = stat.split(separator: ")").last?.split(separator: " ").dropFirst().first.flatMap { pid_t($0) }
        #expect(parent == cage.pid, "the viewer's parent \(String(describing: parent)), cage \(cage.pid)")
        #expect((try? String(contentsOfFile: "/proc/\(cage.pid)/comm", encoding: .utf8)) == "cage\n")
        // The launcher said what it started (in the journal, under systemd).
        let started = cage.log.split(separator: "\n").first { $0.hasPrefix("scrollkit-kiosk: starting: ") }
        #expect(started == "scrollkit-kiosk: starting: /usr/bin/cage -d -r -- \(root)/usr/local/bin/image-viewer --kiosk --slideshow 5 -- \(kiosk.pictures)",
                "\(cage.log.suffix(2000))")

        // On the turned screen, upright and fitted: the first picture, then the slideshow's second.
        let (width, height) = (720, 1280)
        let grid = gridPoints(width: width, height: height, step: 11)
        for asset in [sunsetAsset, bubblesAsset] {
            let image = try DecodedImage.asset(asset)
            let fit = Placement.fit(image, width: width, height: height)
            let (problems, shot) = try awaitShot(timeout: 12, cage.screenshot) { placementProblems($0, image, fit, points: grid) }
            #expect(shot.width == width && shot.height == height)
            // cage's log holds the viewer's standard error: what it said when a picture never came.
            #expect(problems.isEmpty, "\(asset) \(fit): \(problems); cage's log:\n\(cage.log.suffix(3000))")
        }

        // The launcher cleared WATCHDOG_PID, so the viewer feeds the watchdog every 0.5 s.
        let start = Date()
        usleep(2_000_000)
        let pings = notify.times(of: "WATCHDOG=1").filter { $0 >= start }
        #expect(pings.count >= 3 && pings.count <= 5, "\(pings.count) pings in 2 s at WatchdogSec=1")

        // The viewer killed: cage goes with it, so systemd, watching the viewer, restarts both.
        kill(mainPID, SIGKILL)
        let gone = Date().addingTimeInterval(5)
        while cage.isRunning && Date() < gone { usleep(20_000) }
        #expect(!cage.isRunning, "cage still runs after its client was killed")
    }
}
