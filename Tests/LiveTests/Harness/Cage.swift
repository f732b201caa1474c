// Starts cage, the wlroots kiosk compositor, headless for one live test: as an unprivileged
// user with a private runtime dir, screenshots with grim, teardown by process group.
import CompositorHarness
import Foundation
import Glibc
import Raster

/// cage 0.1.4 (wlroots, pixman renderer) in a private folder, on a headless output of its own
/// or nested in a sway that plays its screen.
///
/// cage runs one application and quits when it exits; the harness gives it a long `sleep` as
/// that application and connects the program under test as a further client, whose toplevel
/// cage shows fullscreen like any other. A headless output has wlroots' default size
/// (1280×720); a test learns it from a screenshot.
///
/// Headless, grim sees only what cage composed: cage 0.1.4 hands a focused surface's buffer
/// that fills the output straight to the output (direct scan-out) whenever the surface's scale
/// and transform equal the output's, skipping composition, and the headless backend then
/// keeps showing grim the last composed frame (measured: a viewer's slideshow never changed the
/// screenshot). The viewer declares the output's transform on its buffers (issue 19.3), so
/// it is scanned out on any headless cage, turned or not. Nested (`parent`), cage's output is a
/// window of that sway, and scan-out hands the client's buffer to the parent, which shows it:
/// the parent's screenshot is what a real screen would be sent, the buffer as it is, and
/// `screenshot()` turns it back as the screen is mounted. The parent's seat is cage's, so
/// pointer input injected into the parent reaches the client, in the screen's coordinates.
final class CageHeadless: HeadlessCompositor {
    let compositor: CompositorProcess
    /// The sway whose window is cage's output, when nested.
    let parent: SwayHeadless?
    /// How cage turns its output (`-r`: a quarter turn, wl_output.transform 90).
    let transform: FrameTransform

    /// 600 s: how long cage's placeholder application lives; every test ends well before (decision).
    static let placeholderSeconds = 600

    /// Starts cage, its output turned 90° when `rotated`, headless or as a window of `parent`;
    /// throws with its log when it does not create its socket within `timeout` seconds.
    /// `launcher`, when given, is run instead of the harness's own cage command line: a program
    /// that becomes cage (the kiosk service's launcher), turning it as `rotated` says, with
    /// `environment` added to cage's.
    init(rotated: Bool = false, nestedIn parent: SwayHeadless? = nil, launcher: [String]? = nil,
         environment extra: [String: String] = [:], timeout: Double = 15) throws {
        try requireInstalled(["/usr/bin/cage"])
        // cage refuses root, like sway: run it as the same unprivileged uid.
        let folders = try PrivateFolders(prefix: "scrollkit-cage", owner: SwayHeadless.swayUID)
        if getuid() == 0 && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix") {
            // wlroots sets up Xwayland's socket folder at start and aborts when /tmp/.X11-unix is
            // owned by someone else. Made by root, sticky and world-writable, it is what every
            // X-capable system has, and any uid may use it.
            mkdir("/tmp/.X11-unix", 0o1777)
            chmod("/tmp/.X11-unix", 0o1777)
        }
        self.parent = parent
        transform = rotated ? .rotated90 : .normal
        // Nested, sway and cage run as the same unprivileged uid: cage reaches sway's socket.
        var environment = wlrootsEnvironment(folders, parentSocket: parent?.socket)
        environment.merge(extra) { $1 }
        let cage = launcher ?? ["/usr/bin/cage", "-d"] + (rotated ? ["-r"] : []) + ["--", "/bin/sleep", "\(Self.placeholderSeconds)"]
        let dir = folders.runtimeDir
        compositor = try CompositorProcess("cage", in: folders, command: try SwayHeadless.unprivileged(cage),
                                           environment: environment, output: "cage.log", timeout: timeout) {
            PrivateFolders.socket(in: dir, prefix: "wayland-")
        }
    }

    /// cage's process id (the launcher's, which became cage).
    var pid: pid_t { compositor.process.pid }

    /// A screenshot of the whole output as its client sees it (upright, in surface
    /// coordinates): taken by grim headless, or of the parent turned back when nested.
    func screenshot() throws -> Screenshot {
        guard let parent else { return try grimScreenshot(environment: clientEnvironment) }
        return try parent.screenshot().turnedBack(transform)
    }

    /// The parent's coordinates of point (x, y) of the output as its client sees it: where to
    /// inject pointer input. Nested cages only.
    func screenPoint(_ x: Int, _ y: Int, output: (width: Int, height: Int)) -> (x: Int, y: Int) {
        transform.map(x: x, y: y, width: output.width, height: output.height)
    }
}
