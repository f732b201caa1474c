// KWin on a virtual output, and sway nested in it: the one way here to inject touch (KWin's fake
// input becomes the nested sway's touchscreen) and to get wp_fractional_scale_v1.
import Foundation
import Glibc

/// KWin 5.27 on a virtual output of `width`×`height` pixels (at KWin's own `scale`, if
/// given), with fake input allowed: what only KWin offers here is touch injection and
/// wp_fractional_scale_v1. It cannot be screenshotted (no wlr-screencopy).
package final class KWinVirtual: HeadlessCompositor {
    package let compositor: CompositorProcess

    /// Starts KWin; throws with its log when its socket does not appear within `timeout` seconds.
    package init(width: Int, height: Int, scale: String? = nil, timeout: Double = 20) throws {
        try requireInstalled(["/usr/bin/kwin_wayland"], package: "kwin-wayland")
        let folders = try PrivateFolders(prefix: "scrollkit-kwin", owner: nil)
        let bin = folders.folder.appendingPathComponent("bin")
        // /usr/bin/kwin_wayland carries a file capability this container refuses; a plain copy
        // runs, and it must keep the name kwin_wayland for KWin's built-in platform plugin.
        let kwinBinary = bin.appendingPathComponent("kwin_wayland")
        // Copied by cp(1), not in this process: a child another thread spawns meanwhile would
        // inherit the copy's open write descriptor and keep it, and starting the copy then
        // fails with ETXTBSY ("Text file busy", seen with live suites running in parallel).
        do {
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let copy = try runProcess(URL(fileURLWithPath: "/bin/cp"), ["/usr/bin/kwin_wayland", kwinBinary.path])
            guard copy.status == 0 else { throw HarnessError(description: "cannot copy /usr/bin/kwin_wayland: \(copy.stderr)") }
        } catch {
            try? FileManager.default.removeItem(at: folders.folder)
            throw error
        }
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": folders.home.path, "XDG_RUNTIME_DIR": folders.runtimeDir.path,
            "KWIN_COMPOSE": "Q", "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1",  // without it no fake input
        ]
        var arguments = ["--virtual", "--width", "\(width)", "--height", "\(height)", "--socket", "kwin-0",
                         "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"]
        if let scale { arguments += ["--scale", scale] }
        let socket = folders.runtimeDir.appendingPathComponent("kwin-0").path
        compositor = try CompositorProcess("KWin", in: folders, command: [kwinBinary.path] + arguments, environment: environment,
                                           output: "kwin.log", timeout: timeout, grace: 4) {
            FileManager.default.fileExists(atPath: socket) ? socket : nil
        }
    }
}

/// sway nested in a virtual KWin: KWin's fake touch becomes sway's touch.
package final class SwayNestedInKWin {
    /// KWin's socket (absolute), for the touch injector.
    package var kwinSocket: String { kwin.socket }
    /// The nested sway, for clients, screenshots and pointer/keyboard injection.
    package let sway: SwayHeadless
    private let kwin: KWinVirtual
    private var stopped = false

    /// Starts KWin with a `width`×`height` output and sway as a window filling it, in
    /// `background` (0xRRGGBB); each may take `timeout` seconds to start.
    package init(width: Int = 800, height: Int = 600, background: UInt32 = SwayHeadless.defaultBackground,
                 timeout: Double = 20) throws {
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
            sway = try SwayHeadless(width: width, height: height, background: background, parentSocket: kwin.socket,
                                    timeout: timeout)
        } catch {
            kwin.stop()
            throw HarnessError(description: "\(error)\nKWin's log:\n\(kwin.log.suffix(2000))")
        }
    }

    deinit { stop() }

    /// Ends sway, then KWin (which removes its folder).
    package func stop() {
        guard !stopped else { return }
        stopped = true
        sway.stop()
        kwin.stop()
    }

    /// The environment for a client of KWin itself (the touch injector).
    package var kwinClientEnvironment: [String: String] { kwin.clientEnvironment }

    /// Waits until sway has made KWin's touch into a touch device of its own (it appears once a
    /// touch injector has connected to KWin).
    package func waitForTouchDevice(timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try sway.inputs().contains("\"touch\"") { return }
            usleep(50_000)
        }
        throw HarnessError(description: "sway nested in KWin got no touch device within \(timeout) s; inputs: \(try sway.inputs())")
    }
}
