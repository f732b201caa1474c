// The processes the live tests and the benchmarks start: compositors in process groups of their
// own that end together, programs run to completion, and the lines a running program writes.
import Foundation
import Glibc
import Synchronization

/// Why a compositor or a program could not be started or driven; the message carries its log.
package struct HarnessError: Error, CustomStringConvertible {
    /// One line, then the log excerpt that explains it.
    package let description: String

    /// An error saying `description`.
    package init(description: String) {
        self.description = description
    }
}

/// A program started in a process group of its own, its output going to a log file or a pipe,
/// so that it and every child it spawns (sway starts swaybg) end together. Foundation's
/// `Process` already makes the child a group leader (pgid = pid); wrapping it in setsid(1)
/// would fork and lose the group.
package final class GroupProcess: Sendable {
    /// Every group still running, so that a program ended by a signal leaves nothing behind.
    private static let running = Mutex<Set<pid_t>>([])

    /// The process itself.
    package let process: Process
    /// The file its output goes to, when it is a file.
    package let logURL: URL?

    /// Starts `executable` with `arguments` in `environment` (nothing else of this process's),
    /// its standard output and error written to a new file at `log`.
    package convenience init(executable: String, arguments: [String], environment: [String: String], log: URL) throws {
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw HarnessError(description: "cannot create the log file \(log.path)")
        }
        try self.init(executable: executable, arguments: arguments, environment: environment,
                      output: try FileHandle(forWritingTo: log), logURL: log)
    }

    /// Starts `executable` with `arguments` in `environment`, its standard output and error
    /// written to `output` (`logURL` names the file when it is one, for `log`).
    package init(executable: String, arguments: [String], environment: [String: String], output: FileHandle,
                 logURL: URL? = nil) throws {
        self.logURL = logURL
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try runWithTerminationSignals(process)
        } catch {
            throw HarnessError(description: "cannot start \(executable): \(error.localizedDescription)")
        }
        self.process = process
        let pid = process.processIdentifier
        guard getpgid(pid) == pid || !process.isRunning else {
            process.terminate()
            throw HarnessError(description: "\(executable) did not start in a process group of its own")
        }
        Self.running.withLock { _ = $0.insert(pid) }
    }

    /// Its process id, which is also its group's.
    package var pid: pid_t { process.processIdentifier }
    /// Whether it still runs.
    package var isRunning: Bool { process.hasNotExited }

    /// Sends `signal` to the whole group.
    package func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// Ends the group: `signal` first, SIGKILL after `grace` seconds (to whatever of the group
    /// is left, children included); returns once the process is gone.
    package func stop(signal: Int32 = SIGTERM, grace: Double = 2) {
        // Once only: after the first stop the group is gone and its id may be another's.
        guard Self.running.withLock({ $0.remove(pid) }) != nil else {
            _ = process.awaitExit()
            return
        }
        signalGroup(signal)
        _ = process.awaitExit(timeout: grace)
        // Whatever of the group is left, children included.
        signalGroup(SIGKILL)
        _ = process.awaitExit()
    }

    /// Its log so far (empty when its output goes to a pipe).
    package var log: String { logURL.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? "" }

    /// Polls every 50 ms until `ready` holds. When the process exits or `timeout` seconds pass
    /// first, ends it, removes `folder` (its private one) and throws "`name` did not start
    /// (`waitingFor` within `timeout` s)" with the end of `log` (its own log unless given).
    package func awaitStart(_ name: String, waitingFor: String, timeout: Double, removing folder: URL?,
                            log: (() -> String)? = nil, until ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !ready() {
            guard isRunning, Date() < deadline else {
                let text = log?() ?? self.log
                stop()
                if let folder { try? FileManager.default.removeItem(at: folder) }
                throw HarnessError(description: "\(name) did not start (\(waitingFor) within \(timeout) s); its log:\n\(text.suffix(4000))")
            }
            usleep(50_000)
        }
    }

    /// Kills every group still running (SIGKILL), for a program that is being interrupted.
    package static func killAll() {
        let groups = running.withLock { all in
            defer { all.removeAll() }
            return all
        }
        for pid in groups { kill(-pid, SIGKILL) }
    }

    /// Makes SIGINT and SIGTERM kill every group before this program exits (status 128 + the
    /// signal's number); keep the returned sources alive for as long as that should hold.
    package static func killAllOnSignals() -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                killAll()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}

/// Starts `process` so that it can be ended with SIGTERM or SIGINT. The child inherits the
/// signal mask of the thread that starts it, and a test's thread blocks SIGTERM (measured in
/// /proc/PID/status of children: SigBlk bit 15 set, SIGTERM pending), so a compositor or the
/// viewer could only ever be ended by SIGKILL after a grace period. Unblocked around the
/// spawn, they get SIGTERM and shut down as they mean to.
package func runWithTerminationSignals(_ process: Process) throws {
    var termination = sigset_t(), previous = sigset_t()
    sigemptyset(&termination)
    sigaddset(&termination, SIGTERM)
    sigaddset(&termination, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &termination, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    try process.run()
}

/// The result of running a program to completion.
///
/// The output is kept as bytes and decoded only when asked for as text: decoding grim's
/// screenshots (binary PPM) as UTF-8 threw, inside the standard library, one error for each
/// invalid sequence, and swift-testing captures a backtrace for every error thrown in a test:
/// 80 000 backtraces a screenshot, most of the live tests' CPU time.
package struct ProcessResult: Sendable {
    /// Exit status (or the terminating signal number when killed by a signal).
    package var status: Int32
    /// Everything written to standard output, as bytes (screenshots, pictures).
    package var stdoutData: Data
    /// Everything written to standard error, as bytes.
    package var stderrData: Data

    /// Everything written to standard output, decoded as UTF-8.
    package var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    /// Everything written to standard error, decoded as UTF-8.
    package var stderr: String { String(decoding: stderrData, as: UTF8.self) }
}

/// Runs `executable` with `arguments` (in `environment`, or this process's when nil) and
/// waits for it, collecting both output streams; standard output goes to `standardOutput`
/// instead when given (a file, /dev/full), and is then collected empty.
package func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                        standardOutput: FileHandle? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = standardOutput ?? out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    if standardOutput != nil { try? out.fileHandleForWriting.close() }
    // Drain both pipes concurrently with the child so a full pipe cannot deadlock it.
    let errData = Mutex(Data())
    let errReader = err.fileHandleForReading
    let errDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        let data = errReader.readDataToEndOfFile()
        errData.withLock { $0 = data }
        errDone.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let status = process.awaitExit() ?? -1
    errDone.wait()
    return ProcessResult(status: status, stdoutData: outData, stderrData: errData.withLock { $0 })
}

extension Process {
    /// Its exit status (or the number of the signal that ended it) once it has exited, nil
    /// while it runs.
    ///
    /// Foundation's `isRunning` alone is not enough here: on Linux, Foundation learns of a
    /// child's end when a socket it gave the child closes (swift-corelibs-foundation issue
    /// 4795), and a program started at the same moment by another test can inherit that socket
    /// and hold it open. A viewer that had printed its error and exited was then reported
    /// running for the 10 s a test waited. So this also asks the kernel, with WNOWAIT, which
    /// leaves the child for Foundation to reap.
    package var exitStatus: Int32? { termination?.status }

    /// How it ended once it has (`status` as `exitStatus`; `bySignal` when a signal ended it),
    /// nil while it runs; see `exitStatus`.
    package var termination: (status: Int32, bySignal: Bool)? {
        var info = siginfo_t()
        let pid = processIdentifier
        if isRunning, waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
           info._sifields._sigchld.si_pid == pid {
            return (info._sifields._sigchld.si_status, info.si_code != Int32(CLD_EXITED))
        }
        // Foundation's answer: still running, or ended (perhaps reaped since `isRunning` was read).
        return isRunning ? nil : (terminationStatus, terminationReason == .uncaughtSignal)
    }

    /// Whether it has not exited yet, by `exitStatus`.
    package var hasNotExited: Bool { exitStatus == nil }

    /// Waits for it to exit, polling every 10 ms, for at most `timeout` seconds (for as long
    /// as it takes when nil); returns `exitStatus`.
    package func awaitExit(timeout: Double? = nil) -> Int32? {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            if let status = exitStatus { return status }
            if let deadline, Date() >= deadline { return nil }
            usleep(10_000)
        }
    }
}

/// The absolute path of `name` in a folder of `path` (colon-separated), /usr/bin or /usr/sbin;
/// nil when there is none.
package func findExecutable(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
    let folders = (path ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"]
    return folders.map { ($0 as NSString).appendingPathComponent(name) }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The program `name` as found on PATH, else /usr/bin's (where Debian puts every compositor and
/// tool the harness runs; a missing one fails when it is started, naming it).
package func tool(_ name: String) -> String {
    findExecutable(name) ?? "/usr/bin/" + name
}

/// The lines a running program writes to a pipe, each stamped with the monotonic time it
/// arrived, collected on a thread of their own so that a waiting caller sees them at once.
package final class LineCollector: Sendable {
    private struct State {
        var pending = Data()
        var lines: [String] = []
        /// When each of `lines` arrived (monotonic ms).
        var stamps: [Double] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// A collector that reads nothing until `drain` is called.
    package init() {}

    /// Reads `handle` to its end on a thread of its own, collecting lines as they come.
    package func drain(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData  // blocks; empty at end of file
                if data.isEmpty { break }
                append(data)
            }
            state.withLock { $0.finished = true }
        }
    }

    /// Adds `data` as if read: each complete line is stamped now.
    package func append(_ data: Data) {
        let now = monotonicMilliseconds()
        state.withLock { state in
            state.pending.append(data)
            while let newline = state.pending.firstIndex(of: 0x0A) {
                let text = String(decoding: state.pending[state.pending.startIndex..<newline], as: UTF8.self)
                state.pending.removeSubrange(state.pending.startIndex...newline)
                state.lines.append(text)
                state.stamps.append(now)
            }
        }
    }

    /// Whether the writer closed the pipe and every byte was collected.
    package var isFinished: Bool { state.withLock { $0.finished } }

    /// Every complete line so far (callers poll this: it is the stored array, not a copy made
    /// for the call).
    package var lines: [String] { state.withLock { $0.lines } }

    /// Every complete line so far with the monotonic time it arrived, in ms.
    package var stampedLines: [(ms: Double, text: String)] {
        state.withLock { state in zip(state.stamps, state.lines).map { ($0, $1) } }
    }
}

/// Monotonic time in ms (CLOCK_MONOTONIC through Dispatch).
package func monotonicMilliseconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }
