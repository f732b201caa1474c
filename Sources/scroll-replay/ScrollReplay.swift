// The scroll-replay command: replays an input trace offscreen and prints the delegate calls.
import ArgumentParser
import Foundation
import Glibc
import Replay
import SafeOutput
import TraceFormat

@main
struct ScrollReplay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll-replay",
        abstract: "Replay an input trace on a simulated display and print what the scroll view's delegate saw.",
        discussion: """
        The trace is JSON Lines (see docs/trace-format.md): a setup line, then timed touch, \
        pointer, key and call events. The whole file is validated before anything runs. \
        Output is JSON Lines on standard output: one line per delegate call with the scroll \
        view's state, with {"kind":"control",...} lines for the setup's buttons (touchDown, \
        touchUpInside, touchCancel, and touchUpOutside when a control that kept its touch \
        sees it lift outside) in the order things happened, then a final \
        {"kind":"end",...} line. Numbers are rounded to 3 decimals \
        (half away from zero), integers print without ".0".

        Timing: frames fall every 1000/frameRate ms from t = 0 and tick while something \
        moves, as frame callbacks would (idle stretches cost nothing); an event stamped with a \
        frame's time is delivered before that frame's tick. Limits of a trace: viewport sides \
        up to 16384 pt, content sides and coordinates up to 1000000 pt, frameRate 1...1000, \
        t up to 24 h, 1000000 events, 64 MiB per file. Limits of a replay: \(Replayer.frameLimit) \
        frame ticks (2 h 19 min of motion at 60 Hz) and \(Self.outputLimit >> 20) MiB of output; \
        within them any trace replays in seconds. Past either the replay stops, the last line \
        is {"kind":"stopped",...,"limit":"frames"} (or "output") and the exit status is 3.

        Buttons: with canCancelContentTouches on, a drag that starts on a button takes its \
        touch away (touchCancel) and scrolls, even once the button has it: the replay's scroll \
        view answers YES to touchesShouldCancel(in:), as apps with buttons in scrolling \
        content do (UIKit's default answers NO for controls).

        Exit status: 0 replayed and came to rest; 1 still animating 60 s of simulated time \
        after the last event (the last line is {"kind":"timeout",...}); 2 the trace is \
        malformed (message on standard error as FILE:LINE: problem, nothing replayed); 3 \
        stopped at a limit of the replay (above); 74 standard output could not be written (a \
        full disk, a closed pipe): the replay stops at once.

        Examples (the traces are in a clone of the repository):
          scroll-replay Tests/ReplayTests/Traces/drag-fling.jsonl
          scroll-replay --frames Tests/ReplayTests/Traces/paging.jsonl | grep '"frame"'
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

    /// 150 MiB: the most output one replay writes. Every tick within `Replayer.frameLimit`
    /// fits (about 155 MB with `--frames`); this bounds the lines events add on top, keeping
    /// any replay under 200 MB of output (decision, issue 12).
    static let outputLimit = 150 << 20

    static func main() { safeMain() }

    func run() throws {
        if bench {
            try Benchmark(tracePath: trace, seconds: benchSeconds).run()
            return
        }
        let path = trace ?? "-"
        let output = BufferedOutput()
        let parsed: Trace
        let replayer: Replayer
        do {
            parsed = try TraceParser().parse(fileAt: path)
            var stop: (ReplayLimit) -> Void = { _ in }
            replayer = try Replayer(trace: parsed, file: path, reportsFrames: frames) { record in
                // A failed write stops the replay at once: there is no one to show the rest to.
                guard output.write(line: ReplayOutput.line(for: record)) else { return stop(.output) }
                if output.byteCount > Self.outputLimit { stop(.output) }
            }
            stop = { [unowned replayer] in replayer.stop(limit: $0) }
        } catch {
            Diagnostics.line("scroll-replay: \(error)")
            throw ExitCode(2)
        }
        let result = replayer.run()
        output.flush()
        if let failure = output.failure {
            Diagnostics.line("scroll-replay: writing standard output failed, the replay stopped: \(failure)")
            throw ExitCode(outputFailureStatus)
        }
        if let limit = result.stoppedBy {
            let what = limit == .frames ? "\(Replayer.frameLimit) frame ticks" : "\(Self.outputLimit >> 20) MiB of output"
            Diagnostics.line("scroll-replay: \(path): stopped at t = \(ReplayOutput.number(result.final.time)) ms: a replay "
                             + "is limited to \(what) (see --help)")
            throw ExitCode(3)
        }
        if result.timedOut { throw ExitCode(1) }
    }
}
