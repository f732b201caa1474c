// The kiosk service as Scripts/kiosk/install.sh installs it (issue 19.1), into a folder standing
// for the system's root: systemd-analyze verify accepts the unit, the operator's settings survive
// a new install, an uninstall leaves them, and the launcher names the file, line and setting of
// every wrong setting (mutated settings included) instead of starting anything.
import CompositorHarness
import Foundation
import Glibc
import Testing
import TestSupport

@Suite("Kiosk service install and launcher", .serialized, .timeLimit(.minutes(3)))
struct KioskServiceTests {
    /// systemd-analyze, from the systemd package (Scripts/install-deps.sh installs it).
    private static let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")

    /// Runs `systemd-analyze verify` on `unit`: silent and 0 when systemd finds nothing wrong
    /// (it reports an unknown key or value on its output but still exits 0).
    private func verify(_ unit: String) throws -> ProcessResult {
        try runProcess(Self.analyze, ["verify", unit])
    }

    @Test("Installs the unit, launcher, PAM file, settings and pictures folder; systemd-analyze verify passes on the unit, and fails once its launcher is gone")
    func verifiedUnit() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.analyze.path), "systemd-analyze is missing: Scripts/install-deps.sh installs systemd")
        let folder = try TemporaryFolder()
        // A root with a space: the unit's ExecStart must keep the launcher's path one word.
        let root = folder.path + "/kiosk root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        let kiosk = try KioskInstall(root: root)
        #expect(kiosk.output.contains("systemctl enable --now scrollkit-kiosk"), "\(kiosk.output)")
        for (path, mode) in [(kiosk.unit, 0o644), (kiosk.pam, 0o644), (kiosk.settings, 0o644), (kiosk.launcher, 0o755),
                             (root + "/usr/local/bin/image-viewer", 0o755), (kiosk.pictures, 0o755)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path): \(String(describing: attributes[.posixPermissions]))")
        }

        let check = try verify(kiosk.unit)
        #expect(check.status == 0 && check.stdout.isEmpty && check.stderr.isEmpty, "\(check.status): \(check.stdout)\(check.stderr)")
        #expect(try kiosk.execStart() == [kiosk.launcher, "/etc/scrollkit/kiosk.conf"])
        let unit = try String(contentsOfFile: kiosk.unit, encoding: .utf8).split(separator: "\n").map(String.init)
        for line in ["Type=notify", "NotifyAccess=all", "WatchdogSec=30", "Restart=on-failure", "RestartPreventExitStatus=69 78",
                     "User=scrollkit-kiosk", "PAMName=scrollkit-kiosk", "TTYPath=/dev/tty1", "Conflicts=getty@tty1.service",
                     "KillMode=mixed", "SuccessExitStatus=143", "WantedBy=graphical.target"] {
            #expect(unit.contains(line), "the unit lacks \(line)")
        }
        let pam = try String(contentsOfFile: kiosk.pam, encoding: .utf8)
        #expect(pam.contains("session  required pam_systemd.so"))

        // The check can fail: without its launcher the unit cannot start, and systemd says so.
        try FileManager.default.removeItem(atPath: kiosk.launcher)
        let broken = try verify(kiosk.unit)
        #expect(broken.status != 0 && broken.stderr.contains("scrollkit-kiosk is not executable"), "\(broken.status): \(broken.stderr)")
    }

    @Test("Installing again keeps the operator's settings (the shipped ones beside them); --uninstall removes the service, launcher and programs, and keeps the settings and pictures")
    func reinstallAndUninstall() throws {
        let folder = try TemporaryFolder()
        let root = folder.path + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        let kiosk = try KioskInstall(root: root)
        try kiosk.set("SCROLLKIT_SLIDESHOW", "3")
        try Data([1]).write(to: URL(fileURLWithPath: kiosk.pictures + "/a.png"))
        let again = try KioskInstall(root: root)
        #expect(again.output.contains("kept your \(kiosk.settings)"), "\(again.output)")
        let settings = try String(contentsOfFile: kiosk.settings, encoding: .utf8)
        #expect(settings.contains("\nSCROLLKIT_SLIDESHOW=3\n"))
        #expect(FileManager.default.fileExists(atPath: kiosk.settings + ".shipped"))

        let uninstall = try runProcess(KioskInstall.script, ["--root", root, "--uninstall"])
        #expect(uninstall.status == 0, "\(uninstall.stdout)\(uninstall.stderr)")
        for path in [kiosk.unit, kiosk.pam, kiosk.launcher, root + "/usr/local/bin/image-viewer"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) is still there")
        }
        #expect(try String(contentsOfFile: kiosk.settings, encoding: .utf8) == settings)
        #expect(FileManager.default.fileExists(atPath: kiosk.pictures + "/a.png"))
    }

    /// Runs the installed launcher on `settings` in `environment` (this process's without the
    /// login session's runtime dir when nil).
    private func launch(_ kiosk: KioskInstall, _ settings: String, environment: [String: String]? = nil) throws -> ProcessResult {
        var base = ProcessInfo.processInfo.environment
        base["XDG_RUNTIME_DIR"] = nil
        return try runProcess(URL(fileURLWithPath: kiosk.launcher), [settings], environment: environment ?? base)
    }

    @Test("A wrong setting stops the launcher with status 78 and one line naming the file, the line and the setting")
    func wrongSettings() throws {
        let folder = try TemporaryFolder()
        let kiosk = try KioskInstall(root: folder.path)
        let known = "(known: SCROLLKIT_PICTURES, SCROLLKIT_SLIDESHOW, SCROLLKIT_IDLE_RESET, SCROLLKIT_ROTATE, SCROLLKIT_WRAP)"
        let cases: [(String, String)] = [
            ("SCROLLKIT_ROTATE=45", "line 1: SCROLLKIT_ROTATE must be 0, 90, 180 or 270 (degrees clockwise), not 45"),
            ("# the show\n\nSCROLLKIT_SLIDESHOW=-1", "line 3: SCROLLKIT_SLIDESHOW must be a number of seconds (0 for none), not -1"),
            ("SCROLLKIT_IDLE_RESET=1e3", "line 1: SCROLLKIT_IDLE_RESET must be a number of seconds (0 for none), not 1e3"),
            ("SCROLLKIT_IDLE_RESET=86400.5", "line 1: SCROLLKIT_IDLE_RESET must be at most 86400 seconds (a day), not 86400.5"),
            ("SCROLLKIT_SLIDESHOW=123456789012345678901234567890",
             "line 1: SCROLLKIT_SLIDESHOW must be at most 86400 seconds (a day), not 123456789012345678901234567890"),
            ("SCROLLKIT_SLIDESHOWS=8", "line 1: unknown setting SCROLLKIT_SLIDESHOWS \(known)"),
            ("=8", "line 1: unknown setting '' \(known)"),
            ("SCROLLKIT_WRAP=yes\nSCROLLKIT_WRAP=no", "line 2: SCROLLKIT_WRAP is set again (first on line 1)"),
            ("SCROLLKIT_WRAP=true", "line 1: SCROLLKIT_WRAP must be yes or no, not true"),
            ("slideshow 8", "line 1: expected NAME=VALUE, not slideshow\\ 8"),
            ("SCROLLKIT_PICTURES=pictures", "line 1: SCROLLKIT_PICTURES must be an absolute folder path, not pictures"),
            // A control character in a value is escaped in the message, not written to the journal.
            ("SCROLLKIT_ROTATE=9\u{1B}[0", "line 1: SCROLLKIT_ROTATE must be 0, 90, 180 or 270 (degrees clockwise), not $'9\\E[0'"),
        ]
        let settings = folder.path + "/kiosk.conf"
        for (text, message) in cases {
            try text.write(toFile: settings, atomically: true, encoding: .utf8)
            let run = try launch(kiosk, settings)
            #expect(run.status == 78 && run.stderr == "scrollkit-kiosk: \(settings) \(message)\n", "\(text): \(run.status) \(run.stderr)")
        }

        // Not a settings file at all: missing, a FIFO (reading it would block the start), a folder.
        mkfifo(folder.path + "/fifo", 0o600)
        for path in [folder.path + "/missing.conf", folder.path + "/fifo", folder.path] {
            let run = try launch(kiosk, path)
            #expect(run.status == 78 && run.stderr == "scrollkit-kiosk: the settings file \(path) does not exist or is not a regular file\n",
                    "\(run.status) \(run.stderr)")
        }
    }

    @Test("Good settings but no login session, no viewer or no pictures folder: each named, with the status that tells the service whether to retry")
    func missingPieces() throws {
        let folder = try TemporaryFolder()
        let kiosk = try KioskInstall(root: folder.path)
        // The shipped settings parse; without the runtime dir pam_systemd makes, cage cannot run.
        let noSession = try launch(kiosk, kiosk.settings)
        #expect(noSession.status == 78 && noSession.stderr.hasPrefix("scrollkit-kiosk: XDG_RUNTIME_DIR is not set: cage needs the login session"),
                "\(noSession.status) \(noSession.stderr)")
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = folder.path
        // The pictures folder is missing (a disk not mounted yet): 1, which the service retries.
        try kiosk.set("SCROLLKIT_PICTURES", folder.path + "/nowhere")
        let noFolder = try launch(kiosk, kiosk.settings, environment: environment)
        #expect(noFolder.status == 1 && noFolder.stderr == "scrollkit-kiosk: the pictures folder \(folder.path)/nowhere (SCROLLKIT_PICTURES in \(kiosk.settings)) does not exist: create it and copy pictures into it\n",
                "\(noFolder.status) \(noFolder.stderr)")
        // A launcher without its viewer: 69, not retried.
        let alone = folder.path + "/alone/scrollkit-kiosk"
        try FileManager.default.createDirectory(atPath: folder.path + "/alone", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: kiosk.launcher, toPath: alone)
        let noViewer = try runProcess(URL(fileURLWithPath: alone), [kiosk.settings], environment: environment)
        #expect(noViewer.status == 69 && noViewer.stderr.hasPrefix("scrollkit-kiosk: \(folder.path)/alone/image-viewer is missing"),
                "\(noViewer.status) \(noViewer.stderr)")
    }

    @Test("Mutated settings files: the launcher always ends with 78 and one escaped line, naming a line of the file or, when they parse, the missing session")
    func mutatedSettings() throws {
        let folder = try TemporaryFolder()
        let kiosk = try KioskInstall(root: folder.path)
        let shipped = [UInt8](try Data(contentsOf: URL(fileURLWithPath: kiosk.settings)))
        let settings = folder.path + "/kiosk.conf"
        var random = SeededRandom(seed: 19_1)
        let pieces: [[UInt8]] = [Array("=".utf8), Array("\n".utf8), Array("\"".utf8), Array("'".utf8), [0], [0x1B], [0xFF, 0xFE],
                                 Array("SCROLLKIT_ROTATE=90\n".utf8), Array("\r\n".utf8), Array("#".utf8), Array(" ".utf8)]
        var parsed = 0
        for round in 0..<150 {
            var bytes = shipped
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where at < bytes.count: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.insert(contentsOf: pieces[Int.random(in: 0..<pieces.count, using: &random)], at: at)
                case 2 where at < bytes.count: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &random)))
                default: bytes = Array(bytes.prefix(at))
                }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: settings))
            let run = try launch(kiosk, settings)
            let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            let named = run.stderr.hasPrefix("scrollkit-kiosk: \(settings) line ")
            let session = run.stderr.hasPrefix("scrollkit-kiosk: XDG_RUNTIME_DIR is not set")
            if session { parsed += 1 }
            #expect(run.status == 78 && lines.count == 2 && lines[1].isEmpty && (named || session),
                    "round \(round): \(run.status) \(run.stderr.debugDescription)")
            #expect(!run.stderr.utf8.dropLast().contains { $0 < 0x20 }, "round \(round): control characters in \(run.stderr.debugDescription)")
        }
        // Both ways out were taken: the mutations are neither all fatal nor all harmless.
        #expect(parsed > 10 && parsed < 140, "\(parsed) of 150 mutated files parsed")
    }
}
