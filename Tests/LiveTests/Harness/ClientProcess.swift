// Runs a project program (the viewer, the injector) as a Wayland client of the test's
// compositor, collecting its output lines as they arrive so a test can wait for them, and
// counts which of its threads wake.
import CompositorHarness
import Foundation
import Glibc
import TestSupport

/// A project executable running against a compositor.
final class ClientProcess {
    let process = Process()
    let stdout = LineCollector()
    let stderr = LineCollector()
    private let stdinPipe = Pipe()
    let name: String

    /// Starts the built executable `name` (from this test build), or the program at `name`
    /// when it is an absolute path, with `arguments`. Standard error goes to `standardError`
    /// when given (then `stderr` collects nothing), else it is collected.
    init(_ name: String, _ arguments: [String], environment: [String: String], standardError: FileHandle? = nil) throws {
        let url: URL
        if name.hasPrefix("/") {
            url = URL(fileURLWithPath: name)
        } else if let built = PackagePaths.builtExecutable(name) {
            url = built
        } else {
            throw HarnessError(description: "\(name) was not built next to the tests (run `swift build` first)")
        }
        self.name = name
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = standardError ?? err
        process.standardInput = stdinPipe
        try runWithTerminationSignals(process)
        stdout.drain(out.fileHandleForReading)
        // An unused pipe ends at once, so `stderr` finishes empty.
        if standardError != nil { try? err.fileHandleForWriting.close() }
        stderr.drain(err.fileHandleForReading)
    }

    deinit { terminate() }

    /// Writes one line to the process's standard input.
    func send(_ line: String) {
        stdinPipe.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits until a stderr line satisfies `predicate`; throws after `timeout` seconds with
    /// what the process printed.
    @discardableResult
    func waitForStderr(timeout: Double = 15, where predicate: (String) -> Bool) throws -> String {
        try waitForLine(in: stderr, timeout: timeout, where: predicate)
    }

    /// Waits until a stdout line satisfies `predicate`.
    @discardableResult
    func waitForStdout(timeout: Double = 15, where predicate: (String) -> Bool) throws -> String {
        try waitForLine(in: stdout, timeout: timeout, where: predicate)
    }

    private func waitForLine(in collector: LineCollector, timeout: Double, where predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = collector.lines.first(where: predicate) { return line }
            if let status = process.exitStatus {
                _ = waitForExit(timeout: 0)  // let the last output arrive
                if let line = collector.lines.first(where: predicate) { return line }
                throw HarnessError(description: "\(name) exited (status \(status)) before the expected line; stderr:\n\(stderr.lines.suffix(30).joined(separator: "\n"))")
            }
            usleep(20_000)
        }
        throw HarnessError(description: "\(name): expected line did not appear within \(timeout) s; stderr:\n\(stderr.lines.suffix(30).joined(separator: "\n"))")
    }

    /// Waits up to `timeout` seconds for the process to exit; returns its status, nil if still running.
    func waitForExit(timeout: Double) -> Int32? {
        guard let status = process.awaitExit(timeout: timeout) else { return nil }
        // Children it started may hold the pipes open a little longer; give them 2 s.
        let drainDeadline = Date().addingTimeInterval(2)
        while !(stdout.isFinished && stderr.isFinished) && Date() < drainDeadline { usleep(10_000) }
        return status
    }

    /// Whether the process still runs (see `Process.exitStatus`).
    var isRunning: Bool { process.hasNotExited }

    /// Ends the process if it still runs.
    func terminate() {
        if isRunning {
            process.terminate()
            if waitForExit(timeout: 2) == nil { kill(process.processIdentifier, SIGKILL) }
        }
        _ = process.awaitExit()
    }
}

/// Parses a `{"event":…}` stats line into its numeric fields (the viewer writes flat JSON).
func statsFields(_ line: String) -> [String: Double] {
    guard let data = line.data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
    var fields: [String: Double] = [:]
    for (key, value) in object {
        if let number = value as? NSNumber { fields[key] = number.doubleValue }
    }
    return fields
}

/// Whether `line` is a viewer stats line of kind `event`.
func isStats(_ line: String, _ event: String) -> Bool {
    line.hasPrefix("{\"event\":\"\(event)\"")
}

/// The kiosk on the sunset and the bubbles, playing a slideshow that never turns a page in a
/// test (600 s between slides), with its protocol trace on stderr (WAYLAND_DEBUG=client), at its
/// first frame: it holds an idle inhibitor for as long as the show plays.
func startTracedSlideshowKiosk(_ environment: [String: String]) throws -> ClientProcess {
    var environment = environment
    environment["WAYLAND_DEBUG"] = "client"
    let viewer = try ClientProcess("image-viewer", ["--kiosk", "--slideshow", "600", "--stats", DecodedImage.assetPath(sunsetAsset),
                                                    DecodedImage.assetPath(bubblesAsset)], environment: environment)
    try viewer.waitForStderr { isStats($0, "first-frame") }
    return viewer
}
