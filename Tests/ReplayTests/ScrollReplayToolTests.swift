// The real scroll-replay binary: exit statuses, standard error for malformed traces, and
// output identical to the in-process replay.
import CompositorHarness
import Foundation
import Testing
import TestSupport
import Replay
import TraceFormat

/// The built tool; the tests fail (not skip) when it is missing, since `swift test` builds it.
private func tool() throws -> URL {
    try #require(PackagePaths.builtExecutable("scroll-replay"),
                 "scroll-replay was not built beside the tests (\(PackagePaths.testBinaryFolder.path))")
}

/// A scratch file holding `text`, removed by the caller.
private func temporaryTrace(_ text: String, name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scroll-replay-tests-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
}

private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

@Suite("scroll-replay executable")
struct ScrollReplayToolTests {
    @Test("a seed trace prints exactly the in-process records, ends with the end line, exits 0")
    func replaysTrace() throws {
        let path = Traces.path("redrag-fling.jsonl")
        let result = try runProcess(try tool(), [path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty)
        let expected = try Replayer.records(of: TraceParser().parse(fileAt: path)).map(ReplayOutput.line(for:))
        #expect(lines(result.stdout) == expected)
        #expect(lines(result.stdout).last?.hasPrefix(#"{"kind":"end","t":"#) == true)
    }

    @Test("--frames adds one frame line per tick and changes nothing else")
    func frames() throws {
        let path = Traces.path("set-offset-animated.jsonl")
        let plain = try runProcess(try tool(), [path])
        let framed = try runProcess(try tool(), ["--frames", path])
        #expect(plain.status == 0 && framed.status == 0)
        let frameLines = lines(framed.stdout).filter { $0.hasPrefix(#"{"kind":"frame","#) }
        #expect(lines(framed.stdout).filter { !$0.hasPrefix(#"{"kind":"frame","#) } == lines(plain.stdout))
        let end = try #require(lines(plain.stdout).last)
        #expect(end.hasSuffix(",\"frames\":\(frameLines.count)}"), "\(frameLines.count) frame lines, end: \(end)")
        // A 300 ms animation at 60 Hz needs about 18 frames.
        #expect(frameLines.count >= 10)
        #expect(frameLines.first?.hasPrefix(#"{"kind":"frame","t":100"#) == true)
    }

    @Test("standard input is read with -")
    func standardInput() throws {
        let process = Process()
        process.executableURL = try tool()
        process.arguments = ["-"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: Traces.path("set-offset.jsonl")))
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // One DidScroll for the jump, one frame (the 60 Hz vsync at 100 ms) to show it.
        #expect(lines(String(decoding: data, as: UTF8.self)) == [
            #"{"t":100,"call":"scrollViewDidScroll","offset":{"x":0,"y":500},"tracking":false,"dragging":false,"decelerating":false,"zooming":false,"zoomBouncing":false,"zoomScale":1}"#,
            #"{"kind":"end","t":100,"offset":{"x":0,"y":500},"zoomScale":1,"frames":1}"#,
        ])
    }

    @Test("a malformed trace exits 2 with FILE:LINE: problem on stderr and replays nothing")
    func malformed() throws {
        let url = try temporaryTrace("""
            {"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000}}
            {"t":0,"kind":"touch.down","id":0,"x":200,"y":500}
            {"t":8,"kind":"touch.motion","id":0,"x":200,"y":"480"}
            """, name: "wrong-type.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try runProcess(try tool(), [url.path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "nothing is replayed: \(result.stdout)")
        #expect(result.stderr == "scroll-replay: \(url.path):3: touch.motion: 'y' must be a number, found the string \"480\"\n")
    }

    @Test("decreasing time and a missing setup line are refused the same way")
    func moreMalformed() throws {
        let decreasing = try temporaryTrace("""
            # comment
            {"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000}}
            {"t":50,"kind":"touch.cancel"}
            {"t":40,"kind":"touch.cancel"}
            """, name: "decreasing.jsonl")
        let noSetup = try temporaryTrace(#"{"t":0,"kind":"touch.cancel"}"#, name: "no-setup.jsonl")
        defer {
            try? FileManager.default.removeItem(at: decreasing)
            try? FileManager.default.removeItem(at: noSetup)
        }
        let first = try runProcess(try tool(), [decreasing.path])
        #expect(first.status == 2 && first.stdout.isEmpty)
        #expect(first.stderr.hasPrefix("scroll-replay: \(decreasing.path):4: touch.cancel: 't' decreases from 50 ms (line 3) to 40 ms"))
        let second = try runProcess(try tool(), [noSetup.path])
        #expect(second.status == 2 && second.stdout.isEmpty)
        #expect(second.stderr.hasPrefix("scroll-replay: \(noSetup.path):1: expected the setup line"))
        let missing = try runProcess(try tool(), ["/nonexistent/trace.jsonl"])
        #expect(missing.status == 2 && missing.stderr == "scroll-replay: /nonexistent/trace.jsonl: no such file\n")
    }

    @Test("zoom and control traces replay through the tool: zoom state and control lines, as in process")
    func zoomAndControls() throws {
        for name in ["pinch-bounce-max.jsonl", "button-cancel.jsonl"] {
            let path = Traces.path(name)
            let result = try runProcess(try tool(), [path])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(name): \(result.stderr)")
            let expected = try Replayer.records(of: TraceParser().parse(fileAt: path)).map(ReplayOutput.line(for:))
            #expect(lines(result.stdout) == expected)
        }
        let cancel = lines(try runProcess(try tool(), [Traces.path("button-cancel.jsonl")]).stdout)
        #expect(Array(cancel.prefix(3)) == [
            #"{"t":250,"kind":"control","id":"a","event":"touchDown","offset":{"x":0,"y":0},"tracking":true,"dragging":false,"decelerating":false,"zooming":false,"zoomBouncing":false,"zoomScale":1}"#,
            #"{"t":316,"kind":"control","id":"a","event":"touchCancel","offset":{"x":0,"y":0},"tracking":true,"dragging":false,"decelerating":false,"zooming":false,"zoomBouncing":false,"zoomScale":1}"#,
            #"{"t":316,"call":"scrollViewWillBeginDragging","offset":{"x":0,"y":0},"tracking":true,"dragging":true,"decelerating":false,"zooming":false,"zoomBouncing":false,"zoomScale":1}"#,
        ])
        let bounce = lines(try runProcess(try tool(), [Traces.path("pinch-bounce-max.jsonl")]).stdout)
        #expect(bounce.first == #"{"t":108,"call":"scrollViewWillBeginZooming","offset":{"x":0,"y":0},"tracking":true,"dragging":false,"decelerating":false,"zooming":true,"zoomBouncing":false,"zoomScale":1}"#)
        #expect(bounce.contains { $0.hasPrefix(#"{"t":500,"call":"scrollViewDidEndZooming","atScale":4,"offset":{"x":600,"y":900},"#) })
        #expect(bounce.last?.hasPrefix(#"{"kind":"end","#) == true && bounce.last?.contains(#""zoomScale":4,"#) == true)
    }

    @Test("still animating 60 s after the last event: a timeout line and exit 1")
    func timeout() throws {
        let result = try runProcess(try tool(), [Traces.path("timeout.jsonl")])
        #expect(result.status == 1)
        let last = try #require(lines(result.stdout).last)
        // Last event at 100 ms; the last frame within 60 s after it is frame 3606, at exactly 60100 ms.
        #expect(last.hasPrefix(#"{"kind":"timeout","t":60100,"offset":{"x":0,"y":"#), "\(last)")
        #expect(last.hasSuffix(#""frames":3606}"#))
    }

    @Test("--bench replays the generated trace and prints its figures (no timing is asserted)")
    func bench() throws {
        let result = try runProcess(try tool(), ["--bench", "--bench-seconds", "2"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        for words in ["scroll-replay benchmark", "events", "frames", "parse:", "replay:", "of real time"] {
            #expect(result.stdout.contains(words), "bench output lacks \(words):\n\(result.stdout)")
        }
    }

    @Test("--help explains the input, the output and the exit statuses")
    func help() throws {
        let result = try runProcess(try tool(), ["--help"])
        #expect(result.status == 0)
        for words in ["USAGE: scroll-replay", "--frames", "--bench", "Exit status", "malformed", "timeout"] {
            #expect(result.stdout.contains(words), "help lacks \(words)")
        }
        let usage = try runProcess(try tool(), [])
        #expect(usage.status != 0 && usage.stderr.contains("Missing the trace file"))
    }
}
