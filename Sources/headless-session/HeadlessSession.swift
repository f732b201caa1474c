// headless-session: a private headless sway (nested in a virtual KWin with --touch) for a shell
// script, started by the same harness as the live tests': prints the environment a client needs,
// then keeps the compositors until it is told to end (SIGTERM, SIGINT) or its parent
// goes, and ends them before it exits.
import ArgumentParser
import CompositorHarness
import Foundation
import Glibc
import SafeOutput

@main
struct HeadlessSession: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headless-session",
        abstract: "A private headless sway for a script, alone or nested in a virtual KWin for touch.",
        discussion: """
            Once the compositors run, prints one NAME=value line for each of WAYLAND_DISPLAY, \
            XDG_RUNTIME_DIR and SWAYSOCK (sway's), with --touch also KWIN_DISPLAY (KWin's socket, \
            for `wl-inject --backend kwin`: KWin's fake touch becomes sway's touchscreen), then \
            `ready`. It keeps them until SIGTERM or SIGINT, or until the process that \
            started it ends, then ends them (and everything they started) and removes their \
            folders. Run as root, sway runs as uid 4242 (sway refuses root). Scripts/headless-sway.sh \
            is its shell side.
            """)

    @Option(help: ArgumentHelp("The output's size in pixels.", valueName: "WxH"))
    var size: String

    @Option(help: ArgumentHelp("The output's background colour (hexadecimal).", valueName: "RRGGBB"))
    var background = String(format: "%06x", SwayHeadless.defaultBackground)

    @Flag(help: "Nest sway in a virtual KWin, whose fake touch input becomes sway's touchscreen.")
    var touch = false

    /// 16 384 pixels: the longest side accepted (decision, as pictures-bench's: larger is a typo).
    static let sideLimit = 16384
    /// 500 ms: how often it looks whether its parent is still there (decision: the compositors
    /// outlive a killed script by at most that).
    static let parentCheckNanoseconds = 500_000_000

    /// The output's width and height, nil when `size` is not WxH within 64…`sideLimit`.
    var outputSize: (width: Int, height: Int)? {
        let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1],
              (64...Self.sideLimit).contains(width), (64...Self.sideLimit).contains(height) else { return nil }
        return (width, height)
    }

    /// The background as 0xRRGGBB, nil unless `background` is six hexadecimal digits.
    var backgroundColour: UInt32? {
        background.count == 6 ? UInt32(background, radix: 16) : nil
    }

    func validate() throws {
        guard outputSize != nil else {
            throw ValidationError("--size must be WIDTHxHEIGHT, each 64…\(Self.sideLimit), not '\(size)'")
        }
        guard backgroundColour != nil else {
            throw ValidationError("--background must be six hexadecimal digits (RRGGBB), not '\(background)'")
        }
    }

    func run() throws {
        // Blocked before any thread starts, so every thread inherits the mask and the signals
        // wait for sigtimedwait below instead of ending the program with its compositors running.
        var ending = sigset_t()
        sigemptyset(&ending)
        sigaddset(&ending, SIGTERM)
        sigaddset(&ending, SIGINT)
        pthread_sigmask(SIG_BLOCK, &ending, nil)
        let parent = getppid()

        let size = outputSize!, colour = backgroundColour!
        let sway: SwayHeadless
        var nested: SwayNestedInKWin?
        do {
            if touch {
                let both = try SwayNestedInKWin(width: size.width, height: size.height, background: colour)
                nested = both
                sway = both.sway
            } else {
                sway = try SwayHeadless(width: size.width, height: size.height, background: colour)
            }
        } catch {
            Diagnostics.lines("headless-session: \(error)")
            throw ExitCode.failure
        }
        var lines = ["WAYLAND_DISPLAY=\(sway.socket)", "XDG_RUNTIME_DIR=\(sway.runtimeDir.path)", "SWAYSOCK=\(sway.ipcSocket)"]
        if let nested { lines.append("KWIN_DISPLAY=\(nested.kwinSocket)") }
        // A reader gone is EPIPE here, not SIGPIPE ending this program with the compositors
        // running (ignored only now: the compositors would inherit it).
        Diagnostics.ignoreOutputSignals()
        do {
            try Descriptor.writeAll(Array((lines + ["ready", ""]).joined(separator: "\n").utf8), to: STDOUT_FILENO)
        } catch {
            // Nobody reads what it would need: end everything at once.
            nested?.stop()
            sway.stop()
            Diagnostics.line("headless-session: cannot write the environment: \(error)")
            throw ExitCode.failure
        }

        var wait = timespec(tv_sec: 0, tv_nsec: Self.parentCheckNanoseconds)
        while sigtimedwait(&ending, nil, &wait) < 0 && getppid() == parent {}
        nested?.stop()
        sway.stop()
    }
}
