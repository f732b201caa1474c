// sway headless (wlroots, pixman renderer) in a private folder, for one live test, one benchmark
// run or one script's session: started as an unprivileged user when run as root, screenshots
// with grim, IPC with swaymsg, teardown by process group.
import Foundation
import Glibc
import SafeOutput

/// A compositor's private folder under the temporary directory: a runtime dir (mode 0700)
/// and a home, both owned by `owner` when run as root (sway and cage refuse root).
package struct PrivateFolders: Sendable {
    /// The folder holding the others (mode 0711); removing it removes everything.
    package let folder: URL
    /// XDG_RUNTIME_DIR, where the compositor makes its sockets.
    package let runtimeDir: URL
    /// HOME, so that no user configuration changes what the compositor does.
    package let home: URL

    /// Makes `<tmp>/<prefix>.XXXXXX` with `runtime` and `home` inside.
    package init(prefix: String, owner: UInt32?) throws {
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

    /// The first socket in `dir` whose name starts with `prefix` (lock files excluded).
    package static func socket(in dir: URL, prefix: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && !$0.hasSuffix(".lock") }.sorted().first
            .map { dir.appendingPathComponent($0).path }
    }
}

/// This process's environment for a client of the compositor at `socket` (absolute, so the
/// client's own XDG_RUNTIME_DIR does not matter), with `runtimeDir` as XDG_RUNTIME_DIR when given,
/// and without a WAYLAND_SOCKET inherited from whoever runs the tests.
package func waylandClientEnvironment(socket: String, runtimeDir: URL?) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["WAYLAND_DISPLAY"] = socket
    if let runtimeDir { env["XDG_RUNTIME_DIR"] = runtimeDir.path }
    env.removeValue(forKey: "WAYLAND_SOCKET")
    return env
}

/// The environment a wlroots compositor (sway, cage) starts in: nothing of this process's but
/// PATH, its private HOME and runtime dir, the pixman renderer, and the headless backend with no
/// input devices or, with `parentSocket`, the Wayland backend as a window of that compositor
/// (whose seat becomes its own).
package func wlrootsEnvironment(_ folders: PrivateFolders, parentSocket: String?) -> [String: String] {
    var environment = [
        "PATH": "/usr/bin:/bin", "HOME": folders.home.path, "XDG_RUNTIME_DIR": folders.runtimeDir.path,
        "WLR_RENDERER": "pixman", "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1",
    ]
    if let parentSocket {
        environment["WLR_BACKENDS"] = "wayland"
        environment["WAYLAND_DISPLAY"] = parentSocket
        environment["WLR_LIBINPUT_NO_DEVICES"] = nil
    }
    return environment
}

/// sway 1.7 headless (wlroots, pixman renderer) in a private folder.
package final class SwayHeadless: HeadlessCompositor {
    /// Unprivileged uid sway (and cage) run as when run as root: both refuse root.
    package static let swayUID: UInt32 = 4242
    /// The output's background, #336699 when not told otherwise (decision: a colour neither the
    /// test card nor the benchmark's photo has).
    package static let defaultBackground: UInt32 = 0x33_66_99

    package let compositor: CompositorProcess
    /// sway's IPC socket (absolute path, for swaymsg and SWAYSOCK).
    package let ipcSocket: String
    /// The output's size in pixels.
    package let width: Int, height: Int

    /// `command` as run by whoever runs this: itself, or as uid `swayUID` through setpriv(1)
    /// when that is root.
    package static func unprivileged(_ command: [String]) throws -> [String] {
        guard getuid() == 0 else { return command }
        guard let setpriv = findExecutable("setpriv") else {
            throw HarnessError(description: "setpriv is missing (util-linux): needed to run \(command[0]) as uid \(swayUID) as root")
        }
        return [setpriv, "--reuid=\(swayUID)", "--regid=\(swayUID)", "--clear-groups"] + command
    }

    /// Starts `executable` with one headless output of `width`×`height` in `background`
    /// (0xRRGGBB) or, with `parentSocket`, nested as a window of that compositor (its touch
    /// becomes sway's touch); throws with sway's log when its sockets do not appear within
    /// `timeout` seconds.
    package init(width: Int = 800, height: Int = 600, background: UInt32 = defaultBackground, parentSocket: String? = nil,
                 executable: String = tool("sway"), timeout: Double = 15) throws {
        try requireInstalled([executable], package: "sway")
        self.width = width
        self.height = height
        let folders = try PrivateFolders(prefix: "scrollkit-sway", owner: Self.swayUID)
        let config = folders.folder.appendingPathComponent("sway.config")
        let output = parentSocket == nil ? "HEADLESS-1" : "WL-1"
        let colour = String(format: "#%06x", background & 0xFF_FFFF)
        try """
        output \(output) mode \(width)x\(height) bg \(colour) solid_color
        default_border none
        default_floating_border none
        seat seat0 fallback true
        xwayland disable
        focus_follows_mouse no

        """.write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o644)
        // sway picks the first free wayland-N in its private runtime dir; it is ready once its
        // IPC socket is there too.
        let dir = folders.runtimeDir
        compositor = try CompositorProcess(
            "sway", in: folders, command: try Self.unprivileged([executable, "-c", config.path]),
            environment: wlrootsEnvironment(folders, parentSocket: parentSocket), output: "sway.log", timeout: timeout) {
            PrivateFolders.socket(in: dir, prefix: "sway-ipc.") == nil ? nil : PrivateFolders.socket(in: dir, prefix: "wayland-")
        }
        ipcSocket = PrivateFolders.socket(in: dir, prefix: "sway-ipc.")!
    }

    /// Kills sway at once (SIGKILL), as a crash would.
    package func kill() {
        compositor.process.signalGroup(SIGKILL)
        _ = compositor.process.process.awaitExit()
    }

    /// Runs `swaymsg` with `arguments` against this sway; throws with its output on failure.
    @discardableResult
    package func swaymsg(_ arguments: [String]) throws -> String {
        let result = try runProcess(URL(fileURLWithPath: tool("swaymsg")), ["-s", ipcSocket] + arguments,
                                    environment: clientEnvironment)
        guard result.status == 0 else {
            throw HarnessError(description: "swaymsg \(arguments.joined(separator: " ")) failed: \(result.stdout)\(result.stderr)")
        }
        return result.stdout + result.stderr
    }

    /// The input devices sway knows (`swaymsg -t get_inputs`, raw JSON).
    package func inputs() throws -> String { try swaymsg(["-t", "get_inputs", "--raw"]) }

    /// A screenshot of the whole output, taken by grim.
    package func screenshot() throws -> Screenshot { try grimScreenshot(environment: clientEnvironment) }
}
