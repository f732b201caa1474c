// Starts cage, the wlroots kiosk compositor, headless for one live test: as an unprivileged
// user with a private runtime dir, screenshots with grim, teardown by process group.
import Foundation
import Glibc

/// cage 0.1.4 headless (wlroots, pixman renderer) in a private folder.
///
/// cage runs one application and quits when it exits; the harness gives it a long `sleep` as
/// that application and connects the program under test as a further client, whose toplevel
/// cage shows fullscreen like any other. The output has wlroots' headless default size
/// (1280×720); a test learns it from a screenshot.
///
/// Screenshots need `rotated`: cage 0.1.4 hands a focused surface's buffer that fills the
/// output straight to the output (direct scan-out), skipping composition, and on the headless
/// backend grim then gets the last composed frame, not the client's newest buffer (measured:
/// a viewer's slideshow never changed the screenshot). cage scans out only when the surface's
/// transform equals the output's, so a rotated output (`cage -r`, portrait 720×1280) is
/// always composed and screenshots show what the client drew.
final class CageHeadless {
    let folder: URL
    let runtimeDir: URL
    /// Absolute socket path, usable as WAYLAND_DISPLAY.
    let socket: String
    private let process: GroupProcess

    /// 600 s: how long cage's placeholder application lives; every test ends well before (decision).
    static let placeholderSeconds = 600

    /// Starts cage, its output turned 90° when `rotated`; throws with its log when it does
    /// not create its socket within `timeout` seconds.
    init(rotated: Bool = false, timeout: Double = 15) throws {
        let fm = FileManager.default
        guard fm.isExecutableFile(atPath: "/usr/bin/cage") else {
            throw HarnessError(description: "cage is not installed (Scripts/install-deps.sh installs it)")
        }
        // cage refuses root, like sway: run it as the same unprivileged uid.
        let folders = try PrivateFolders(prefix: "scrollkit-cage", owner: SwayHeadless.swayUID)
        folder = folders.folder
        runtimeDir = folders.runtimeDir
        let home = folders.home
        let asRoot = getuid() == 0
        if asRoot {
            // wlroots sets up Xwayland's socket folder at start and aborts when /tmp/.X11-unix is
            // owned by someone else. Made by root, sticky and world-writable, it is what every
            // X-capable system has, and any uid may use it.
            if !fm.fileExists(atPath: "/tmp/.X11-unix") {
                mkdir("/tmp/.X11-unix", 0o1777)
                chmod("/tmp/.X11-unix", 0o1777)
            }
        }
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_RUNTIME_DIR": runtimeDir.path,
            "WLR_RENDERER": "pixman", "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1",
        ]
        let cage = ["/usr/bin/cage", "-d"] + (rotated ? ["-r"] : []) + ["--", "/bin/sleep", "\(Self.placeholderSeconds)"]
        let command = asRoot
            ? ["/usr/bin/setpriv", "--reuid=\(SwayHeadless.swayUID)", "--regid=\(SwayHeadless.swayUID)", "--clear-groups"] + cage
            : cage
        process = try GroupProcess(executable: command[0], arguments: Array(command.dropFirst()),
                                   environment: environment, log: folder.appendingPathComponent("cage.log"))
        let deadline = Date().addingTimeInterval(timeout)
        let dir = runtimeDir
        while SwayHeadless.socket(in: dir, prefix: "wayland-") == nil {
            guard process.isRunning, Date() < deadline else {
                let log = process.log
                process.stop()
                throw HarnessError(description: "cage did not start (no socket within \(timeout) s); its log:\n\(log.suffix(4000))")
            }
            usleep(50_000)
        }
        socket = SwayHeadless.socket(in: dir, prefix: "wayland-")!
    }

    deinit { stop() }

    private var stopped = false

    /// Ends cage and its placeholder application, then removes the folder.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Whether cage still runs.
    var isRunning: Bool { process.isRunning }

    /// cage's log so far.
    var log: String { process.log }

    /// The environment a client needs to reach this compositor.
    var clientEnvironment: [String: String] {
        waylandClientEnvironment(socket: socket, runtimeDir: runtimeDir)
    }

    /// A screenshot of the whole output, taken by grim.
    func screenshot() throws -> Screenshot { try grimScreenshot(environment: clientEnvironment) }
}
