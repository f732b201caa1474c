// Starts GNOME's compositor, mutter, headless for one live test: a private D-Bus session bus,
// PipeWire and WirePlumber on it (for screen casts), mutter with one virtual monitor, and a
// python3-gi helper that holds the D-Bus connection its screenshots and injected input need.
import CompositorHarness
import Foundation
import Glibc
import TestSupport

/// mutter 43 headless, with screenshots through org.gnome.Mutter.ScreenCast and pointer and keys
/// through org.gnome.Mutter.RemoteDesktop (Harness/mutter-session.py).
///
/// It runs as whoever runs the tests (mutter, PipeWire and D-Bus accept root). mutter needs a
/// session bus (without one it aborts), picks Mesa's software renderer by itself, and ends a
/// screen cast or remote-desktop session when the connection that made it closes: so one helper
/// process keeps a connection for the whole test and takes commands on its standard input.
final class MutterHeadless {
    let folder: URL
    let runtimeDir: URL
    /// Absolute socket path, usable as WAYLAND_DISPLAY.
    let socket: String
    let width: Int, height: Int
    /// D-Bus, PipeWire, WirePlumber and mutter, in the order started.
    private var processes: [(name: String, process: GroupProcess)] = []
    private var session: ClientProcess?
    private var shots = 0

    /// Starts everything with one virtual monitor of `width`×`height`; throws with the logs of
    /// what did not start within `timeout` seconds.
    init(width: Int = 1024, height: Int = 768, timeout: Double = 30) throws {
        try requireInstalled(["mutter", "dbus-daemon", "pipewire", "wireplumber", "gst-launch-1.0", "python3"].map { "/usr/bin/" + $0 })
        self.width = width
        self.height = height
        let folders = try PrivateFolders(prefix: "scrollkit-mutter", owner: nil)
        folder = folders.folder
        runtimeDir = folders.runtimeDir
        let bus = runtimeDir.appendingPathComponent("bus")
        socket = runtimeDir.appendingPathComponent("wayland-mutter").path
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folders.home.path, "XDG_RUNTIME_DIR": runtimeDir.path,
                           "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(bus.path)"]
        do {
            try start("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(bus.path)"], environment,
                      until: bus.path, timeout: timeout)
            try start("pipewire", [], environment, until: runtimeDir.appendingPathComponent("pipewire-0").path, timeout: timeout)
            // Without WirePlumber on the same bus and runtime dir, PipeWire never links a stream.
            try start("wireplumber", [], environment, until: nil, timeout: timeout)
            try start("mutter", ["--headless", "--virtual-monitor", "\(width)x\(height)", "--wayland", "--no-x11",
                                 "--wayland-display=wayland-mutter"], environment, until: socket, timeout: timeout)
            let script = PackagePaths.packageRoot().appendingPathComponent("Tests/LiveTests/Harness/mutter-session.py").path
            let helper = try ClientProcess("/usr/bin/python3", [script], environment: environment)
            session = helper
            // The helper gives up by itself first: 30 s for mutter's D-Bus names, 30 s for the stream.
            let first = try helper.waitForStdout(timeout: 90) { $0 == "ready" || $0.hasPrefix("error") }
            guard first == "ready" else { throw HarnessError(description: "mutter-session.py: \(first)") }
            // mutter adds its virtual pointer and keyboard at their first use, and a client
            // gets a device that appears later only after the event that made it: use both now.
            try command("motion 1 1")
            try command("key 0xffe1 1")  // Shift_L
            try command("key 0xffe1 0")
        } catch {
            let logs = processes.map { "\($0.name):\n\($0.process.log.suffix(1500))" }.joined(separator: "\n")
            stop()
            throw HarnessError(description: "\(error)\n\(logs)\nhelper: \(session?.stderr.lines.suffix(10) ?? [])")
        }
    }

    deinit { stop() }

    private var stopped = false

    /// Ends the helper, then the processes in the reverse order of their start, then removes
    /// the folder.
    func stop() {
        guard !stopped else { return }
        stopped = true
        session?.terminate()
        for entry in processes.reversed() { entry.process.stop() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts `/usr/bin/name` and waits until `path` exists (when given).
    private func start(_ name: String, _ arguments: [String], _ environment: [String: String], until path: String?,
                       timeout: Double) throws {
        let process = try GroupProcess(executable: "/usr/bin/" + name, arguments: arguments, environment: environment,
                                       log: folder.appendingPathComponent("\(name).log"))
        processes.append((name, process))
        guard let path else { return }
        try process.awaitStart(name, waitingFor: "no \(path)", timeout: timeout, removing: nil) {
            FileManager.default.fileExists(atPath: path)
        }
    }

    /// mutter's log so far.
    var log: String { processes.first { $0.name == "mutter" }?.process.log ?? "" }

    /// The environment a client needs to reach this compositor.
    var clientEnvironment: [String: String] {
        waylandClientEnvironment(socket: socket, runtimeDir: runtimeDir)
    }

    /// Sends one command to the helper and waits for its answer; throws unless it is "ok".
    func command(_ line: String, timeout: Double = 30) throws {
        guard let session else { throw HarnessError(description: "mutter's helper is not running") }
        let answered = session.stdout.lines.count
        session.send(line)
        let deadline = Date().addingTimeInterval(timeout)
        while session.stdout.lines.count <= answered {
            guard Date() < deadline, session.isRunning else {
                throw HarnessError(description: "mutter-session.py did not answer '\(line)'; stderr: \(session.stderr.lines.suffix(10))")
            }
            usleep(10_000)
        }
        let answer = session.stdout.lines[answered]
        guard answer == "ok" else { throw HarnessError(description: "mutter-session.py, '\(line)': \(answer)") }
    }

    /// One frame of the monitor, through the screen cast.
    func screenshot() throws -> Screenshot {
        shots += 1
        let path = folder.appendingPathComponent("shot-\(shots).png").path
        try command("screenshot \(path)", timeout: 90)  // the helper gives up after 60 s (SHOT_TIMEOUT)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try Screenshot(pngFile: path)
    }
}
