// Executes planned commands against the compositor in real time: sleeps to each step's
// deadline, sends it, flushes; and the --stdin loop that runs lines as they arrive.
import Glibc
import SafeOutput
import SystemPackage

/// Milliseconds on CLOCK_MONOTONIC, the clock wlroots and KWin stamp input events with.
func monotonicMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}

/// Sleeps until `deadline` (monotonic ms); absolute deadlines keep a gesture's steps from
/// drifting by the time spent sending each one.
func sleep(until deadline: Double) {
    var ts = timespec(tv_sec: Int(deadline / 1000), tv_nsec: Int((deadline.truncatingRemainder(dividingBy: 1000)) * 1_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}

/// Where a script error is: a command-line argument or a line of standard input.
enum ScriptPosition {
    case argument(Int)
    case line(Int)

    var label: String {
        switch self {
        case .argument(let n): "argument \(n)"
        case .line(let n): "line \(n)"
        }
    }
}

/// Why the injector stops: a script mistake (exit 2) or an unusable compositor (exit 1).
enum InjectFailure: Error {
    case script(ScriptPosition?, String)
    case compositor(String)

    var exitCode: Int32 {
        switch self {
        case .script: 2
        case .compositor: 1
        }
    }

    var message: String {
        switch self {
        case .script(let position?, let text): "\(position.label): \(text)"
        case .script(nil, let text): text
        case .compositor(let text): text
        }
    }

    init(_ error: PlanError, at position: ScriptPosition) {
        self = error.isScriptError ? .script(position, error.message) : .compositor(error.message)
    }
}

/// Sends commands through one injector and connection.
final class Runner {
    private let connection: Connection
    private let injector: Injector
    private(set) var planner: Planner

    init(connection: Connection, injector: Injector, initialState: InputState) {
        self.connection = connection
        self.injector = injector
        planner = Planner(capabilities: injector.capabilities, state: initialState)
    }

    /// Checks `command` against the current state, then runs it.
    func run(_ command: Command, at position: ScriptPosition) throws(InjectFailure) {
        let steps: [Step]
        do { steps = try planner.plan(command) } catch { throw InjectFailure(error, at: position) }
        try execute(command, steps)
    }

    /// Runs steps already planned (the argv path plans the whole script first).
    func execute(_ command: Command, _ steps: [Step]) throws(InjectFailure) {
        do {
            if command == .sync {
                try connection.roundtrip()
                writeLine("ok", to: .standardOutput)
                return
            }
            let start = monotonicMilliseconds()
            for step in steps {
                if step.offset > 0 { sleep(until: start + step.offset) }
                for action in step.actions {
                    injector.send(action, time: UInt32(truncatingIfNeeded: Int64(monotonicMilliseconds())))
                }
                // Each step leaves now, so the compositor stamps it at the time it was meant for.
                try connection.flush()
            }
        } catch {
            throw .compositor(error.message)
        }
    }

    /// Waits for everything sent to reach the compositor, so nothing is lost on exit.
    func finish() throws(InjectFailure) {
        do { try connection.roundtrip() } catch { throw .compositor(error.message) }
    }

    /// Runs one command per line from standard input as lines arrive, while reading the
    /// display so that a compositor going away ends the injector at once.
    func runStandardInput(parser: CommandParser) throws(InjectFailure) {
        var pending: [UInt8] = []
        var lineNumber = 0
        // 4096 bytes: far beyond any command; a longer line is garbage, not a command.
        let maxLine = 4096
        var atEnd = false
        while !atEnd {
            var requests = [SystemCalls.PollRequest(FileDescriptor.standardInput.rawValue, events: SystemCalls.readable),
                            SystemCalls.PollRequest(connection.fileDescriptor, events: SystemCalls.readable)]
            do {
                try SystemCalls.poll(&requests, timeout: -1)
            } catch .interrupted {
                continue
            } catch {
                throw .compositor("poll: \(error)")
            }
            if requests[1].returned != 0 {
                do { try connection.dispatchReadable() } catch { throw .compositor(error.message) }
            }
            guard requests[0].returned != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            do {
                let n = try SystemCalls.typed { try chunk.withUnsafeMutableBytes { try FileDescriptor.standardInput.read(into: $0) } }
                chunk.removeSubrange(n...)
            } catch .resourceTemporarilyUnavailable {
                continue
            } catch {
                throw .script(nil, "reading standard input: \(error)")
            }
            if chunk.isEmpty {
                atEnd = true
                if !pending.isEmpty { pending.append(0x0A) }
            } else {
                pending += chunk
            }
            while let newline = pending.firstIndex(of: 0x0A) {
                lineNumber += 1
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                try runLine(line, number: lineNumber, parser: parser)
            }
            if pending.count > maxLine {
                throw .script(.line(lineNumber + 1), "longer than \(maxLine) bytes")
            }
        }
    }

    private func runLine(_ line: String, number: Int, parser: CommandParser) throws(InjectFailure) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard let first = words.first, !first.hasPrefix("#") else { return }
        let parsed: (command: Command, next: Int)
        do { parsed = try parser.parse(words, at: 0) } catch { throw .script(.line(number), error.message) }
        guard parsed.next == words.count else {
            throw .script(.line(number), "unexpected '\(words[parsed.next])' after the command (one command per line)")
        }
        try run(parsed.command, at: .line(number))
    }
}
