// A compositor started in a private folder, from its start to its teardown: the one
// implementation behind sway, KWin, cage and weston, which differ only in their command line,
// environment and socket.
import Foundation
import Glibc

/// Throws naming the first of `programs` (absolute paths) that is not installed, and the Debian
/// package that brings it (the program's own name unless given).
package func requireInstalled(_ programs: [String], package: String? = nil) throws {
    for program in programs where !FileManager.default.isExecutableFile(atPath: program) {
        let name = package ?? (program as NSString).lastPathComponent
        throw HarnessError(description: "\(program) is not installed (Scripts/install-deps.sh installs \(name))")
    }
}

/// A compositor's process group, its private folders and its socket. Ended by `stop()` or when
/// it goes; either removes the folders.
package final class CompositorProcess {
    /// Its private folders.
    package let folders: PrivateFolders
    /// Its Wayland socket (absolute path, usable as WAYLAND_DISPLAY).
    package let socket: String
    /// Its process (the group's leader).
    package let process: GroupProcess
    /// The file the compositor writes its log to itself (weston's --log), read before its output.
    private let logFile: URL?
    /// Seconds between SIGTERM and SIGKILL when it is ended.
    private let grace: Double
    private var stopped = false

    /// Starts `command` (the executable, then its arguments) in `environment`, its output going
    /// to `output` in the folder, and waits up to `timeout` seconds for `findSocket` to find its
    /// socket. When it exits or the time passes first, ends it, removes `folders` and throws
    /// "`name` did not start" with the end of its log.
    package init(_ name: String, in folders: PrivateFolders, command: [String], environment: [String: String],
                 output: String, logFile: URL? = nil, timeout: Double, grace: Double = 2,
                 findSocket: () -> String?) throws {
        self.folders = folders
        self.logFile = logFile
        self.grace = grace
        do {
            process = try GroupProcess(executable: command[0], arguments: Array(command.dropFirst()), environment: environment,
                                       log: folders.folder.appendingPathComponent(output))
        } catch {
            try? FileManager.default.removeItem(at: folders.folder)
            throw error
        }
        let started = process
        try process.awaitStart(name, waitingFor: "no socket", timeout: timeout, removing: folders.folder,
                               log: { Self.read(logFile) + started.log }) { findSocket() != nil }
        socket = findSocket()!
    }

    deinit { stop() }

    /// Ends the compositor and everything it started, then removes its folders (once).
    package func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop(grace: grace)
        try? FileManager.default.removeItem(at: folders.folder)
    }

    /// Whether it still runs.
    package var isRunning: Bool { process.isRunning }

    /// Its log so far (its log file, if it keeps one, then what it wrote on stdout and stderr).
    package var log: String { Self.read(logFile) + process.log }

    private static func read(_ url: URL?) -> String {
        url.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
    }
}

/// A compositor the harness started, through its `CompositorProcess`.
package protocol HeadlessCompositor: AnyObject {
    /// Its process, folders and socket.
    var compositor: CompositorProcess { get }
}

extension HeadlessCompositor {
    /// The folder holding its runtime dir and home, removed by `stop`.
    package var folder: URL { compositor.folders.folder }
    /// XDG_RUNTIME_DIR, holding its sockets.
    package var runtimeDir: URL { compositor.folders.runtimeDir }
    /// Its Wayland socket (absolute path, usable as WAYLAND_DISPLAY).
    package var socket: String { compositor.socket }
    /// Whether it still runs.
    package var isRunning: Bool { compositor.isRunning }
    /// Its log so far.
    package var log: String { compositor.log }

    /// The environment a client needs to reach this compositor.
    package var clientEnvironment: [String: String] {
        waylandClientEnvironment(socket: socket, runtimeDir: runtimeDir)
    }

    /// Ends it and everything it started, then removes its folder.
    package func stop() { compositor.stop() }
}
