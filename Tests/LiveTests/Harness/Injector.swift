// One wl-inject kept connected for a whole test, and the waits of the viewer's live tests: on
// screenshots, on a condition, and on a client's output going quiet.
import CompositorHarness
import Foundation
import Glibc
import TestSupport

/// A `wl-inject --stdin` connected for a whole test: injected devices vanish when the
/// injector exits, and input sent while a client re-binds its seat can be lost, so a test
/// starts one before the viewer and keeps it.
final class Injector {
    let process: ClientProcess

    /// Starts the injector with `options` (`--extent`, `--backend`) and waits until it is connected.
    init(environment: [String: String], options: [String]) throws {
        process = try ClientProcess("wl-inject", ["--stdin"] + options, environment: environment)
        try sync()
    }

    deinit { stop() }

    /// Sends one command without waiting (see `sync`).
    func send(_ command: String) {
        process.send(command)
    }

    /// Sends `commands`, one line each, then waits until the compositor has handled them.
    func run(_ commands: [String], timeout: Double = 20) throws {
        for command in commands { process.send(command) }
        try sync(timeout: timeout)
    }

    /// Round-trips through the injector: returns once every command sent before has run.
    /// Each `sync` prints one more "ok", so this waits for a new one, not an earlier one.
    func sync(timeout: Double = 20) throws {
        let before = process.stdout.lines.filter { $0 == "ok" }.count
        process.send("sync")
        let deadline = Date().addingTimeInterval(timeout)
        while process.stdout.lines.filter({ $0 == "ok" }).count <= before {
            guard Date() < deadline, process.isRunning else {
                throw HarnessError(description: "wl-inject did not answer sync; stderr: \(process.stderr.lines.suffix(10))")
            }
            usleep(10_000)
        }
    }

    /// Ends the injector (its devices vanish when its connection drops).
    func stop() {
        process.terminate()
    }
}

/// Takes screenshots with `take` until `check` finds nothing wrong or `timeout` seconds pass;
/// returns the last problems (empty when the screen became right) and the last screenshot.
func awaitShot(timeout: Double = 5, interval: Double = 0.1, _ take: () throws -> Screenshot,
               _ check: (Screenshot) -> [String]) throws -> (problems: [String], shot: Screenshot) {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        let shot = try take()
        let problems = check(shot)
        if problems.isEmpty || Date() >= deadline { return (problems, shot) }
        usleep(useconds_t(interval * 1_000_000))
    }
}

/// Polls `condition` every `interval` seconds until it holds, for at most `timeout` seconds;
/// whether it held. For "within T seconds, this happens": it returns as soon as it has, where a
/// sleep of T would wait out the whole time.
func awaitTrue(timeout: Double, interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        guard Date() < deadline else { return false }
        usleep(useconds_t(interval * 1_000_000))
    }
    return true
}

/// Waits until `process` has written nothing for `quiet` seconds. A viewer run with --stats
/// writes a line per committed frame and commits nothing while idle, so this returns once
/// an animation has ended; throws after `timeout` seconds of steady output. The default,
/// 0.6 s, outlasts the 500 ms a scroll view waits before fading its indicators
/// (ScrollIndicator.hideDelay), so the fade's frames are waited for too.
func awaitQuiet(_ process: ClientProcess, quiet: Double = 0.6, timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    var count = process.stderr.lines.count + process.stdout.lines.count
    var changed = Date()
    while Date().timeIntervalSince(changed) < quiet {
        guard Date() < deadline else {
            throw HarnessError(description: "\(process.name) kept writing for \(timeout) s; last lines: \(process.stderr.lines.suffix(3))")
        }
        usleep(10_000)
        let now = process.stderr.lines.count + process.stdout.lines.count
        if now != count {
            count = now
            changed = Date()
        }
    }
}
