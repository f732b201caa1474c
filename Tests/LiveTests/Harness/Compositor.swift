// Starts a real headless compositor for one live test: sway headless as an unprivileged
// user with a private runtime dir, screenshots with grim, teardown by process group.
import Foundation
import Glibc
import SafeOutput
import TestSupport

/// This process's environment for a client of the compositor at `socket` (absolute, so the
/// client's own XDG_RUNTIME_DIR does not matter), with `runtimeDir` as XDG_RUNTIME_DIR when given,
/// and without a WAYLAND_SOCKET inherited from whoever runs the tests.
func waylandClientEnvironment(socket: String, runtimeDir: URL?) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["WAYLAND_DISPLAY"] = socket
    if let runtimeDir { env["XDG_RUNTIME_DIR"] = runtimeDir.path }
    env.removeValue(forKey: "WAYLAND_SOCKET")
    return env
}

/// Why the harness could not do its job; the message carries the compositor's log.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
}

/// A process in its own process group, so that it and every child it spawns (sway starts
/// swaybg) can be ended together. Foundation's `Process` already makes the child a group
/// leader (pgid = pid); wrapping it in setsid(1) would fork and lose the group.
final class GroupProcess {
    let process = Process()
    let logURL: URL

    init(executable: String, arguments: [String], environment: [String: String], log: URL) throws {
        logURL = log
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw HarnessError(description: "cannot create the log file \(log.path)")
        }
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try runWithTerminationSignals(process)
        guard getpgid(process.processIdentifier) == process.processIdentifier || !process.isRunning else {
            process.terminate()
            throw HarnessError(description: "\(executable) did not start in a process group of its own")
        }
    }

    var pid: pid_t { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the whole group.
    func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// Ends the group: SIGTERM, then SIGKILL after `grace` seconds.
    func stop(grace: Double = 2) {
        signalGroup(SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        signalGroup(SIGKILL)
        process.waitUntilExit()
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }
}

/// Starts `process` so that it can be ended with SIGTERM or SIGINT. The child inherits the
/// signal mask of the thread that starts it, and a test's thread blocks SIGTERM (measured in
/// /proc/PID/status of children: SigBlk bit 15 set, SIGTERM pending), so a compositor or the
/// viewer could only ever be ended by SIGKILL after a grace period. Unblocked around the
/// spawn, they get SIGTERM and shut down as they mean to.
func runWithTerminationSignals(_ process: Process) throws {
    var termination = sigset_t(), previous = sigset_t()
    sigemptyset(&termination)
    sigaddset(&termination, SIGTERM)
    sigaddset(&termination, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &termination, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    try process.run()
}

/// A compositor's private folder under the temporary directory: a runtime dir (mode 0700)
/// and a home, both owned by `owner` when the tests run as root (sway and cage refuse root).
struct PrivateFolders {
    let folder: URL
    let runtimeDir: URL
    let home: URL

    init(prefix: String, owner: UInt32?) throws {
        // mkdtemp's unguessable name (a folder made by name could be planted beforehand), then
        // 0711: the compositor's uid may pass through to its runtime dir, nobody may list it.
        folder = URL(fileURLWithPath: try PrivateFolder(prefix: prefix).keep())
        runtimeDir = folder.appendingPathComponent("runtime")
        home = folder.appendingPathComponent("home")
        let fm = FileManager.default
        try fm.createDirectory(at: runtimeDir, withIntermediateDirectories: true)
        try fm.createDirectory(at: home, withIntermediateDirectories: true)
        chmod(folder.path, 0o711)
        chmod(runtimeDir.path, 0o700)
        if let owner, getuid() == 0 {
            chown(runtimeDir.path, owner, owner)
            chown(home.path, owner, owner)
        }
    }
}

/// sway 1.7 headless (wlroots, pixman renderer) in a private folder.
final class SwayHeadless {
    /// Unprivileged uid sway runs as when the tests run as root (sway refuses root).
    static let swayUID: UInt32 = 4242
    let folder: URL
    let runtimeDir: URL
    /// Absolute socket path, usable as WAYLAND_DISPLAY.
    let socket: String
    let width: Int, height: Int
    private let process: GroupProcess

    /// Starts sway with one headless output of `width`×`height` or, with `parentSocket`, nested
    /// as a window of that compositor (its touch becomes sway's touch); throws with sway's log
    /// when it does not create its socket within `timeout` seconds.
    init(width: Int = 800, height: Int = 600, parentSocket: String? = nil, timeout: Double = 15) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sway") else {
            throw HarnessError(description: "sway is not installed (Scripts/install-deps.sh installs it)")
        }
        self.width = width
        self.height = height
        let folders = try PrivateFolders(prefix: "scrollkit-live", owner: SwayHeadless.swayUID)
        folder = folders.folder
        runtimeDir = folders.runtimeDir
        let home = folders.home
        let asRoot = getuid() == 0
        let config = folder.appendingPathComponent("sway.config")
        let output = parentSocket == nil ? "HEADLESS-1" : "WL-1"
        try """
        output \(output) mode \(width)x\(height) bg #336699 solid_color
        default_border none
        default_floating_border none
        seat seat0 fallback true
        xwayland disable
        focus_follows_mouse no

        """.write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o644)
        var environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_RUNTIME_DIR": runtimeDir.path,
            "WLR_RENDERER": "pixman", "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1",
        ]
        if let parentSocket {
            environment["WLR_BACKENDS"] = "wayland"
            environment["WAYLAND_DISPLAY"] = parentSocket
            environment["WLR_LIBINPUT_NO_DEVICES"] = nil
        }
        let command = asRoot
            ? ["/usr/bin/setpriv", "--reuid=\(SwayHeadless.swayUID)", "--regid=\(SwayHeadless.swayUID)", "--clear-groups",
               "/usr/bin/sway", "-c", config.path]
            : ["/usr/bin/sway", "-c", config.path]
        process = try GroupProcess(executable: command[0], arguments: Array(command.dropFirst()),
                                   environment: environment, log: folder.appendingPathComponent("sway.log"))
        let deadline = Date().addingTimeInterval(timeout)
        // sway picks the first free wayland-N in its private runtime dir.
        let dir = runtimeDir
        func waylandSocket() -> String? { SwayHeadless.socket(in: dir, prefix: "wayland-") }
        while waylandSocket() == nil || SwayHeadless.socket(in: dir, prefix: "sway-ipc.") == nil {
            guard process.isRunning, Date() < deadline else {
                let log = process.log
                process.stop()
                throw HarnessError(description: "sway did not start (no socket within \(timeout) s); its log:\n\(log.suffix(4000))")
            }
            usleep(50_000)
        }
        socket = waylandSocket()!
    }

    deinit { stop() }

    private var stopped = false

    /// Ends sway and its children, then removes the folder.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Kills sway at once (SIGKILL), as a crash would.
    func kill() {
        process.signalGroup(SIGKILL)
        process.process.waitUntilExit()
    }

    /// sway's log so far.
    var log: String { process.log }

    /// The environment a client needs to reach this compositor.
    var clientEnvironment: [String: String] {
        waylandClientEnvironment(socket: socket, runtimeDir: runtimeDir)
    }

    private func swayIPCSocket() -> String? { SwayHeadless.socket(in: runtimeDir, prefix: "sway-ipc.") }

    /// The first socket in `dir` whose name starts with `prefix` (lock files excluded).
    static func socket(in dir: URL, prefix: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && !$0.hasSuffix(".lock") }.sorted().first
            .map { dir.appendingPathComponent($0).path }
    }

    /// Runs `swaymsg` with `arguments` against this sway; throws with its output on failure.
    @discardableResult
    func swaymsg(_ arguments: [String]) throws -> String {
        guard let ipc = swayIPCSocket() else { throw HarnessError(description: "sway has no IPC socket") }
        let result = try run("/usr/bin/swaymsg", ["-s", ipc] + arguments, environment: clientEnvironment)
        guard result.status == 0 else {
            throw HarnessError(description: "swaymsg \(arguments.joined(separator: " ")) failed: \(result.output)")
        }
        return result.output
    }

    /// The input devices sway knows (`swaymsg -t get_inputs`, raw JSON).
    func inputs() throws -> String { try swaymsg(["-t", "get_inputs", "--raw"]) }

    /// A screenshot of the whole output, taken by grim.
    func screenshot() throws -> Screenshot {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/grim"), ["-t", "ppm", "-"], environment: clientEnvironment)
        guard result.status == 0 else {
            throw HarnessError(description: "grim failed (status \(result.status)): \(result.stderr)")
        }
        return try Screenshot(ppm: result.stdoutData)
    }
}

/// Runs a program to completion and returns its status and combined output.
func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
    let r = try runProcess(URL(fileURLWithPath: executable), arguments, environment: environment)
    return (r.status, r.stdout + r.stderr)
}

/// KWin 5.27 on a virtual output of `width`×`height` pixels (at KWin's own `scale`, if
/// given), with fake input allowed: what only KWin offers here is touch injection and
/// wp_fractional_scale_v1. It cannot be screenshotted (no wlr-screencopy).
final class KWinVirtual {
    let folder: URL
    /// The runtime dir holding the socket.
    let runtimeDir: URL
    /// KWin's socket (absolute), usable as WAYLAND_DISPLAY.
    let socket: String
    private let process: GroupProcess

    init(width: Int, height: Int, scale: String? = nil, timeout: Double = 20) throws {
        let fm = FileManager.default
        guard fm.isExecutableFile(atPath: "/usr/bin/kwin_wayland") else {
            throw HarnessError(description: "kwin_wayland is not installed (Scripts/install-deps.sh installs kwin-wayland)")
        }
        let folders = try PrivateFolders(prefix: "scrollkit-kwin", owner: nil)
        folder = folders.folder
        runtimeDir = folders.runtimeDir
        let bin = folder.appendingPathComponent("bin")
        try fm.createDirectory(at: bin, withIntermediateDirectories: true)
        // /usr/bin/kwin_wayland carries a file capability this container refuses; a plain copy
        // runs, and it must keep the name kwin_wayland for KWin's built-in platform plugin.
        let kwinBinary = bin.appendingPathComponent("kwin_wayland")
        // Copied by cp(1), not in this process: a child another test spawns meanwhile would
        // inherit the copy's open write descriptor and keep it, and starting the copy then
        // fails with ETXTBSY ("Text file busy", seen with live suites running in parallel).
        let copy = try runProcess(URL(fileURLWithPath: "/bin/cp"), ["/usr/bin/kwin_wayland", kwinBinary.path])
        guard copy.status == 0 else {
            throw HarnessError(description: "cannot copy /usr/bin/kwin_wayland: \(copy.stderr)")
        }
        socket = runtimeDir.appendingPathComponent("kwin-0").path
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": folders.home.path, "XDG_RUNTIME_DIR": runtimeDir.path,
            "KWIN_COMPOSE": "Q", "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1",  // without it no fake input
        ]
        var arguments = ["--virtual", "--width", "\(width)", "--height", "\(height)", "--socket", "kwin-0",
                         "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"]
        if let scale { arguments += ["--scale", scale] }
        process = try GroupProcess(executable: kwinBinary.path, arguments: arguments, environment: environment,
                                   log: folder.appendingPathComponent("kwin.log"))
        let deadline = Date().addingTimeInterval(timeout)
        while !fm.fileExists(atPath: socket) {
            guard process.isRunning, Date() < deadline else {
                let log = process.log
                process.stop()
                try? fm.removeItem(at: folder)
                throw HarnessError(description: "KWin did not start (no socket within \(timeout) s); its log:\n\(log.suffix(4000))")
            }
            usleep(50_000)
        }
    }

    deinit { stop() }

    private var stopped = false

    /// Ends KWin, then removes the folder.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop(grace: 4)
        try? FileManager.default.removeItem(at: folder)
    }

    /// KWin's log so far.
    var log: String { process.log }

    /// The environment for a client of KWin itself.
    var clientEnvironment: [String: String] {
        waylandClientEnvironment(socket: socket, runtimeDir: nil)
    }
}

/// sway nested in a virtual KWin: KWin's fake touch becomes sway's touch.
final class SwayNestedInKWin {
    /// KWin's socket (absolute), for the touch injector.
    var kwinSocket: String { kwin.socket }
    /// The nested sway, for clients, screenshots and pointer/keyboard injection.
    let sway: SwayHeadless
    private let kwin: KWinVirtual

    init(width: Int = 800, height: Int = 600, timeout: Double = 20) throws {
        kwin = try KWinVirtual(width: width, height: height, timeout: timeout)
        // sway runs as an unprivileged uid and must reach KWin's socket, which takes fake input:
        // it and the folder holding it are opened to that uid's group alone, never to others.
        if getuid() == 0 {
            chown(kwin.runtimeDir.path, 0, SwayHeadless.swayUID)
            chmod(kwin.runtimeDir.path, 0o710)
            chown(kwin.socket, 0, SwayHeadless.swayUID)
            chmod(kwin.socket, 0o660)
        }
        do {
            sway = try SwayHeadless(width: width, height: height, parentSocket: kwin.socket, timeout: timeout)
        } catch {
            kwin.stop()
            throw HarnessError(description: "\(error)\nKWin's log:\n\(kwin.log.suffix(2000))")
        }
    }

    deinit { stop() }

    private var stopped = false

    /// Ends sway, then KWin (which removes its folder).
    func stop() {
        guard !stopped else { return }
        stopped = true
        sway.stop()
        kwin.stop()
    }

    /// The environment for a client of KWin itself (the touch injector).
    var kwinClientEnvironment: [String: String] { kwin.clientEnvironment }

    /// Waits until sway has made KWin's touch into a touch device of its own.
    func waitForTouchDevice(timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try sway.inputs().contains("\"touch\"") { return }
            usleep(50_000)
        }
        throw HarnessError(description: "sway nested in KWin got no touch device within \(timeout) s; inputs: \(try sway.inputs())")
    }
}
