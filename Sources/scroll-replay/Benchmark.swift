// `scroll-replay --bench`: how much faster than real time a busy trace replays (a printed
// figure, never a pass/fail test; build with -c release for meaningful numbers).
import ArgumentParser
import Foundation
import Replay
import SafeOutput
import TraceFormat

/// Parses and replays one trace several times and prints the median timings.
struct Benchmark {
    /// A trace file to measure, or nil for the generated one.
    var tracePath: String?
    /// Simulated length of the generated trace, in seconds.
    var seconds: Double

    /// Runs per measurement; the median is reported so one slow run does not skew it.
    static let repetitions = 5

    func run() throws {
        let bytes: [UInt8]
        let name: String
        if let tracePath {
            guard let data = FileManager.default.contents(atPath: tracePath) else {
                Diagnostics.line("scroll-replay: \(tracePath): cannot be read")
                throw ExitCode(2)
            }
            bytes = Array(data)
            name = tracePath
        } else {
            bytes = Array(SyntheticTrace.continuousFlings(seconds: seconds).utf8)
            name = "generated: \(ReplayOutput.number(seconds)) s of continuous drags and flings"
        }

        var parseTimes: [Double] = []
        var replayTimes: [Double] = []
        var summary = (events: 0, simulated: 0.0, frames: 0, lines: 0, bytes: 0)
        for _ in 0..<Self.repetitions {
            let clock = ContinuousClock()
            let start = clock.now
            let trace: Trace
            let replayer: Replayer
            var lines = 0
            var outputBytes = 0
            do {
                trace = try TraceParser().parse(bytes: bytes, file: name)
                let parsed = clock.now
                parseTimes.append(milliseconds(parsed - start))
                // Format every line as the real run would, then drop it: printing is the
                // terminal's cost, not the replay's.
                replayer = try Replayer(trace: trace, file: name) { record in
                    lines += 1
                    outputBytes += ReplayOutput.line(for: record).utf8.count
                }
                let result = replayer.run()
                replayTimes.append(milliseconds(clock.now - parsed))
                summary = (trace.events.count, result.final.time, result.frames, lines, outputBytes)
            } catch {
                Diagnostics.line("scroll-replay: \(error)")
                throw ExitCode(2)
            }
        }
        // The lines the parser reads as JSON: comments and blank lines are skipped before.
        let json = compareJSONReaders(lines: bytes.split(separator: UInt8(ascii: "\n")).filter { $0.first != UInt8(ascii: "#") }.map(Array.init))
        let parse = median(parseTimes), replay = median(replayTimes)
        let total = parse + replay
        let simulated = max(summary.simulated, 1)
        let report = """
        scroll-replay benchmark (\(name))
          trace:     \(summary.events) events, \(bytes.count) bytes, \(ReplayOutput.number(simulated / 1000)) s simulated
          replay:    \(summary.frames) frames, \(summary.lines) output lines (\(summary.bytes) bytes, formatted and discarded)
          parse:     \(format(parse)) ms (median of \(Self.repetitions))
          replay:    \(format(replay)) ms (median of \(Self.repetitions))
          json:      \(format(json.ours)) ms CPU the trace's JSON reader, \(format(json.foundation)) ms CPU JSONSerialization, same \(json.lines) lines (ratio \(String(format: "%.2f", json.ours / max(json.foundation, 0.001))), median of \(Self.repetitions))
          total:     \(format(total)) ms for \(format(simulated)) ms of input = \(String(format: "%.5f", total / simulated)) of real time (\(String(format: "%.0f", simulated / max(total, 0.001)))× faster)
        """
        do {
            try Descriptor.writeAll(Array((report + "\n").utf8), to: STDOUT_FILENO)
        } catch {
            Diagnostics.line("scroll-replay: writing standard output failed: \(error)")
            throw ExitCode(outputFailureStatus)
        }
    }

    /// Reads every line with the trace's JSON reader and with Foundation's JSONSerialization;
    /// the medians of their totals in ms of this thread's CPU time, which time spent waiting
    /// for a core on a loaded machine does not inflate (wall-clock ratios of the same runs
    /// ranged 0.55–1.96 at load 15). The reference for keeping the hand-written reader (see
    /// JSONReader.swift).
    private func compareJSONReaders(lines: [[UInt8]]) -> (ours: Double, foundation: Double, lines: Int) {
        let data = lines.map { Data($0) }
        var ours: [Double] = [], foundation: [Double] = []
        var read = (ours: 0, foundation: 0)
        for _ in 0..<Self.repetitions {
            let start = threadCPUMilliseconds()
            read.ours = lines.count { (try? JSONReader.parse($0)) != nil }
            let middle = threadCPUMilliseconds()
            read.foundation = data.count { (try? JSONSerialization.jsonObject(with: $0)) != nil }
            ours.append(middle - start)
            foundation.append(threadCPUMilliseconds() - middle)
        }
        if read.ours != read.foundation {
            Diagnostics.line("scroll-replay: the readers disagree: \(read.ours) and \(read.foundation) of \(lines.count) lines are JSON")
        }
        return (median(ours), median(foundation), lines.count)
    }

    /// CPU time this thread has run, in ms (CLOCK_THREAD_CPUTIME_ID).
    private func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    private func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    private func format(_ ms: Double) -> String { String(format: "%.2f", ms) }
}
