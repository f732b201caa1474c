// A private headless sway for one program under measurement, and the child processes the
// benchmark starts: each in a process group of its own, ended by the benchmark alone.
import Foundation
import Glibc
import SafeOutput
import Synchronization

/// Why the benchmark cannot go on: one line, plus a log excerpt where that helps.
struct BenchError: Error, CustomStringConvertible {
    let description: String
}

/// A program the benchmark started, with its output going to a file or a pipe.
///
/// Foundation's `Process` makes the child the leader of a new process group, so signalling the
/// group also reaches whatever the child starts (sway starts swaybg).
final class Child: Sendable {
    /// Every child still running, so that an interrupted benchmark leaves nothing behind.
    private static let running = Mutex<[pid_t: Bool]>([:])

    let process: Process
    let name: String

    /// Starts `executable` with `arguments` and `environment`; stdout and stderr go to `output`.
    init(_ executable: String, _ arguments: [String], environment: [String: String], output: FileHandle) throws {
        name = (executable as NSString).lastPathComponent
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw BenchError(description: "cannot start \(executable): \(error.localizedDescription)")
        }
        self.process = process
        let pid = process.processIdentifier
        Self.running.withLock { $0[pid] = getpgid(pid) == pid }
    }

    var pid: pid_t { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Ends the child (and its group, when it leads one): `signal` first, SIGKILL after
    /// `grace` seconds.
    func stop(signal: Int32 = SIGTERM, grace: Double = 3) {
        let pid = self.pid
        let leadsGroup = Self.running.withLock { $0.removeValue(forKey: pid) } ?? false
        Self.send(signal, to: pid, group: leadsGroup)
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning || leadsGroup { Self.send(SIGKILL, to: pid, group: leadsGroup) }
        process.waitUntilExit()
    }

    private static func send(_ signal: Int32, to pid: pid_t, group: Bool) {
        _ = group ? kill(-pid, signal) : kill(pid, signal)
    }

    /// Kills every child still running (on Ctrl-C), groups included.
    static func killAll() {
        let children = running.withLock { all in
            defer { all.removeAll() }
            return all
        }
        for (pid, group) in children { send(SIGKILL, to: pid, group: group) }
    }

    /// Makes SIGINT and SIGTERM kill every child before the benchmark exits; keep the
    /// returned sources alive for as long as that should hold.
    static func cleanUpOnSignals() -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                killAll()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}

/// Creates (or empties) the file at `url` and opens it for a child's output.
func newLog(_ url: URL) throws -> FileHandle {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw BenchError(description: "cannot create \(url.path)")
    }
    return try FileHandle(forWritingTo: url)
}

/// The absolute path of `name` on PATH, or nil.
func findExecutable(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
    let folders = (path ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"]
    return folders.map { ($0 as NSString).appendingPathComponent(name) }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// sway (wlroots, pixman renderer) with one headless output, in a private folder that goes
/// away with it: the same arrangement as the live tests' harness and Scripts/demo.sh.
final class HeadlessSway {
    /// Unprivileged uid sway runs as when the benchmark runs as root (sway refuses root);
    /// the live tests' harness and the demo use the same one.
    static let swayUID: UInt32 = 4242
    /// The output's background, #336699 (decision: a colour the test photo never has).
    static let background = (r: 0x33, g: 0x66, b: 0x99)

    private static var backgroundHex: String {
        "#" + [background.r, background.g, background.b].map { String(format: "%02x", $0) }.joined()
    }

    let folder: URL
    private let privateFolder: PrivateFolder
    let runtimeDir: URL
    /// The Wayland socket (absolute path, usable as WAYLAND_DISPLAY).
    let socket: String
    /// sway's IPC socket (absolute path, for swaymsg and SWAYSOCK).
    let ipcSocket: String
    private let child: Child
    private var stopped = false

    /// Starts sway with a `width`×`height` output; throws with sway's log when its sockets do
    /// not appear within `timeout` seconds.
    init(sway: String, width: Int, height: Int, timeout: Double = 15) throws {
        let fm = FileManager.default
        // mkdtemp's unguessable name, then 0711: sway's uid may pass through, nobody may list it.
        let made = try PrivateFolder(prefix: "pictures-bench-sway")
        privateFolder = made
        folder = URL(fileURLWithPath: made.path)
        runtimeDir = folder.appendingPathComponent("runtime")
        let home = folder.appendingPathComponent("home")
        try fm.createDirectory(at: runtimeDir, withIntermediateDirectories: true)
        try fm.createDirectory(at: home, withIntermediateDirectories: true)
        chmod(folder.path, 0o711)
        // The runtime dir must belong to sway's uid with mode 0700, or sway refuses it.
        chmod(runtimeDir.path, 0o700)
        let asRoot = getuid() == 0
        if asRoot {
            chown(runtimeDir.path, Self.swayUID, Self.swayUID)
            chown(home.path, Self.swayUID, Self.swayUID)
        }
        let config = folder.appendingPathComponent("sway.config")
        try """
        output HEADLESS-1 mode \(width)x\(height) bg \(Self.backgroundHex) solid_color
        default_border none
        default_floating_border none
        seat seat0 fallback true
        xwayland disable

        """.write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o644)
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_RUNTIME_DIR": runtimeDir.path,
            "WLR_RENDERER": "pixman", "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1",
        ]
        var command = [sway, "-c", config.path]
        if asRoot {
            guard let setpriv = findExecutable("setpriv") else {
                throw BenchError(description: "setpriv is missing (util-linux): needed to run sway as uid \(Self.swayUID) when run as root")
            }
            command = [setpriv, "--reuid=\(Self.swayUID)", "--regid=\(Self.swayUID)", "--clear-groups"] + command
        }
        let logURL = folder.appendingPathComponent("sway.log")
        child = try Child(command[0], Array(command.dropFirst()), environment: environment, output: try newLog(logURL))
        let deadline = Date().addingTimeInterval(timeout)
        let dir = runtimeDir
        while Self.socket(in: dir, prefix: "wayland-") == nil || Self.socket(in: dir, prefix: "sway-ipc.") == nil {
            guard child.isRunning, Date() < deadline else {
                let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                child.stop()
                try? fm.removeItem(at: folder)
                throw BenchError(description: "headless sway did not start (no sockets within \(timeout) s); its log:\n\(log.suffix(3000))")
            }
            usleep(50_000)
        }
        socket = Self.socket(in: dir, prefix: "wayland-")!
        ipcSocket = Self.socket(in: dir, prefix: "sway-ipc.")!
    }

    deinit { stop() }

    /// Ends sway and everything it started, then removes the folder.
    func stop() {
        guard !stopped else { return }
        stopped = true
        child.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The environment of a client of this sway: its sockets and a private HOME (so no user
    /// configuration changes what is measured).
    func clientEnvironment(home: URL) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = socket
        env["XDG_RUNTIME_DIR"] = runtimeDir.path
        env["SWAYSOCK"] = ipcSocket
        env["HOME"] = home.path
        env.removeValue(forKey: "WAYLAND_SOCKET")
        env.removeValue(forKey: "XDG_CONFIG_HOME")
        return env
    }

    /// The first socket in `dir` whose name starts with `prefix` (lock files excluded).
    private static func socket(in dir: URL, prefix: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && !$0.hasSuffix(".lock") }.sorted().first
            .map { dir.appendingPathComponent($0).path }
    }
}
