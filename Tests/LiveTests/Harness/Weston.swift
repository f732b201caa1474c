// Starts weston for one live test, headless or nested in a headless sway (which gives it a seat
// the tests can inject into), with the shell a test names (kiosk-shell for the viewer's kiosk
// runs): a private runtime dir and socket, screenshots with weston-screenshooter, teardown by
// process group.
import CompositorHarness
import Foundation
import Glibc
import TestSupport

/// weston 10 on its headless backend in a private folder.
///
/// weston runs as root too, so it runs as whoever runs the tests. Without input devices
/// nothing resets its idle timer, so the output is never allowed to sleep (`--idle-time=0`);
/// otherwise frame callbacks stop after 300 s (NOTES.md).
final class WestonHeadless: HeadlessCompositor {
    /// A weston shell plugin.
    enum Shell: String {
        case kiosk = "kiosk-shell.so"
        case desktop = "desktop-shell.so"
    }

    let compositor: CompositorProcess
    let width: Int, height: Int

    /// Starts weston with one headless output of `width`×`height` and `shell`; with `pixman`,
    /// the pixman renderer and `--debug` (weston-screenshooter needs both). With `parent` it
    /// runs as a window of that compositor instead (its Wayland backend, framed by weston's own
    /// title bar and borders), whose seat becomes weston's: the only way to give weston a
    /// pointer here (it has no seat headless). (`--fullscreen` fails under sway: weston reads
    /// the fullscreen size before its first commit, and sway configures only after it.)
    /// Throws with weston's log when it does not create its socket within `timeout` seconds.
    init(width: Int = 800, height: Int = 600, shell: Shell = .kiosk, pixman: Bool = false, parent: SwayHeadless? = nil,
         timeout: Double = 15) throws {
        try requireInstalled(["/usr/bin/weston"])
        self.width = width
        self.height = height
        let folders = try PrivateFolders(prefix: "scrollkit-weston", owner: nil)
        let logFile = folders.folder.appendingPathComponent("weston.log")
        let socketName = "wayland-weston"
        let backend = parent == nil ? "headless-backend.so" : "wayland-backend.so"
        var arguments = ["--backend=\(backend)", "--shell=\(shell.rawValue)", "--width=\(width)", "--height=\(height)",
                         "--socket=\(socketName)", "--idle-time=0", "--no-config", "--log=\(logFile.path)"]
        if pixman { arguments += ["--use-pixman", "--debug"] }
        var environment = ["PATH": "/usr/bin:/bin", "HOME": folders.home.path, "XDG_RUNTIME_DIR": folders.runtimeDir.path]
        // An absolute WAYLAND_DISPLAY: the parent's socket sits in its own runtime dir.
        if let parent { environment["WAYLAND_DISPLAY"] = parent.socket }
        let socket = folders.runtimeDir.appendingPathComponent(socketName).path
        compositor = try CompositorProcess("weston", in: folders, command: ["/usr/bin/weston"] + arguments,
                                           environment: environment, output: "weston.out", logFile: logFile, timeout: timeout) {
            FileManager.default.fileExists(atPath: socket) ? socket : nil
        }
        if shell == .desktop && pixman { try awaitPanel(timeout: timeout) }
    }

    /// weston-desktop-shell's panel along the top of the output, in pixels (measured: a window
    /// leaving fullscreen is placed with its content just below it).
    static let panelHeight = 32

    /// Waits until weston-desktop-shell, a client weston starts, has drawn its panel: darker
    /// than the background below it. Until then weston's work area is the whole output, and a
    /// window it places (a new one, one leaving fullscreen at the work area's top left) can
    /// have its title bar above the screen. Stops weston and throws after `timeout` seconds.
    private func awaitPanel(timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            // A screenshot may fail while weston starts its clients; the deadline still holds.
            let shot = try? screenshot()
            let panel = shot?.pixel(width / 2, Self.panelHeight / 2), background = shot?.pixel(width / 2, height / 2)
            if let panel, let background, luma(panel) + 0x0C < luma(background) { return }
            guard Date() < deadline else {
                stop()
                throw HarnessError(description: "weston-desktop-shell drew no panel within \(timeout) s: "
                                   + "\(panel.map(hex) ?? "no screenshot") at the top, \(background.map(hex) ?? "none") below\n\(log)")
            }
            usleep(100_000)
        }
    }

    /// A screenshot of the output, taken by weston-screenshooter (needs `pixman`, which brings
    /// `--debug`); it writes a PNG named by the date into its current folder.
    func screenshot() throws -> Screenshot {
        let shots = folder.appendingPathComponent("shots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: shots) }
        // timeout(1): weston-screenshooter waits for ever when weston does not answer (NOTES.md).
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["-C", shots.path, "/usr/bin/timeout", "10", "/usr/bin/weston-screenshooter"],
                                    environment: clientEnvironment)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shots.path)) ?? []
        guard result.status == 0, let name = names.first(where: { $0.hasSuffix(".png") }) else {
            throw HarnessError(description: "weston-screenshooter failed (status \(result.status)): \(result.stderr)")
        }
        return try Screenshot(pngFile: shots.appendingPathComponent(name).path)
    }
}
