// The scroll-replay command: replays an input trace offscreen and prints the delegate calls.
import ArgumentParser
import Foundation
import Replay
import TraceFormat

@main
struct ScrollReplay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll-replay",
        abstract: "Replay an input trace on a simulated display and print what the scroll view's delegate saw.",
        discussion: """
        The trace is JSON Lines (see spec/trace-format.md): a setup line, then timed touch, \
        pointer, key and call events. The whole file is validated before anything runs. \
        Output is JSON Lines on standard output: one line per delegate call with the scroll \
        view's state, with {"kind":"control",...} lines for the setup's buttons (touchDown, \
        touchUpInside, touchCancel, and touchUpOutside when a control that kept its touch \
        sees it lift outside) in the order things happened, then a final \
        {"kind":"end",...} line. Numbers are rounded to 3 decimals \
        (half away from zero), integers print without ".0".

        Timing: frames fall every 1000/frameRate ms from t = 0 and tick while something \
        moves, as frame callbacks would; an event stamped with a frame's time is delivered \
        before that frame's tick. Limits: viewport sides up to 16384 pt, content sides and \
        coordinates up to 1000000 pt, frameRate 1...1000, t up to 24 h, 1000000 events, \
        64 MiB per file.

        Buttons: with canCancelContentTouches on, a drag that starts on a button takes its \
        touch away (touchCancel) and scrolls, even once the button has it: the replay's scroll \
        view answers YES to touchesShouldCancel(in:), as apps with buttons in scrolling \
        content do (UIKit's default answers NO for controls).

        Exit status: 0 replayed and came to rest; 1 still animating 60 s of simulated time \
        after the last event (the last line is {"kind":"timeout",...}); 2 the trace is \
        malformed (message on standard error as FILE:LINE: problem, nothing replayed).

        Examples:
          scroll-replay fling.jsonl
          scroll-replay --frames fling.jsonl | grep '"frame"'
          scroll-replay --bench
        """)

    @Argument(help: ArgumentHelp("The trace file; - reads standard input.", valueName: "trace"))
    var trace: String?

    @Flag(help: "Also print one {\"kind\":\"frame\",...} line per frame tick.")
    var frames = false

    @Flag(help: "Benchmark instead of printing: replay a generated trace of continuous drags and flings (or <trace> when given) and print the timings.")
    var bench = false

    @Option(help: "Simulated length of the generated benchmark trace, in seconds.")
    var benchSeconds: Double = 60

    func validate() throws {
        if !bench && trace == nil { throw ValidationError("Missing the trace file to replay.") }
        if bench && !(benchSeconds > 0 && benchSeconds <= 3600) {
            throw ValidationError("--bench-seconds must be in (0, 3600].")
        }
    }

    func run() throws {
        if bench {
            try Benchmark(tracePath: trace, seconds: benchSeconds).run()
            return
        }
        let path = trace ?? "-"
        let output = LineWriter()
        do {
            let parsed = try TraceParser().parse(fileAt: path)
            let replayer = try Replayer(trace: parsed, file: path, reportsFrames: frames) { record in
                output.write(ReplayOutput.line(for: record))
            }
            let result = replayer.run()
            output.flush()
            if result.timedOut { throw ExitCode(1) }
        } catch let error as TraceError {
            output.flush()
            FileHandle.standardError.write(Data("scroll-replay: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}

/// Buffers standard output so that a long replay is not one write call per line.
final class LineWriter {
    private var buffer: [UInt8] = []
    private let flushThreshold = 1 << 16

    init() { buffer.reserveCapacity(flushThreshold + 512) }

    func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= flushThreshold { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
