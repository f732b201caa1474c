// scroll-replay when its output fails or a trace asks for too much: a full disk, a closed pipe,
// a trace whose motion would run for hours, and input that carries terminal escape codes.
import CompositorHarness
import Foundation
import SafeOutput
import Testing
import TestSupport

private func tool() throws -> URL {
    try #require(PackagePaths.builtExecutable("scroll-replay"),
                 "scroll-replay was not built beside the tests (\(PackagePaths.testBinaryFolder.path))")
}

/// 40 flings spread over 24 h at 1000 frames per second, with a deceleration rate that keeps each
/// one moving until the next: what the trace limits allow, and 86 million frames of motion.
private func dayOfEndlessFlings() -> String {
    var lines = [#"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":1000000},"frameRate":1000,"options":{"decelerationRate":0.99999}}"#]
    for k in 0..<40 {
        let t0 = k * 2_160_000
        lines.append(#"{"t":\#(t0),"kind":"touch.down","id":0,"x":200,"y":500}"#)
        for i in 1...12 { lines.append(#"{"t":\#(t0 + 8 * i),"kind":"touch.motion","id":0,"x":200,"y":\#(500 - 8 * i)}"#) }
        lines.append(#"{"t":\#(t0 + 100),"kind":"touch.up","id":0}"#)
    }
    return lines.joined(separator: "\n") + "\n"
}

@Suite("scroll-replay failure paths")
struct ReplayFailurePathTests {
    @Test("standard output on a full disk: the replay stops with status 74 and says why")
    func fullDisk() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try runProcess(try tool(), [Traces.path("drag-fling.jsonl")], standardOutput: full)
        #expect(result.status == outputFailureStatus, "status \(result.status), stderr: \(result.stderr)")
        #expect(result.stderr == "scroll-replay: writing standard output failed, the replay stopped: No space left on device\n")
    }

    @Test("standard output a pipe closed early, with SIGPIPE ignored as services run: status 74, at once")
    func closedPipe() throws {
        let path = try tool().path
        // `head -c 1` reads one byte and exits; the shell has SIGPIPE ignored, and exec keeps it so.
        let result = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", """
            trap '' PIPE
            "$0" --frames "$1" | head -c 1 >/dev/null
            echo "${PIPESTATUS[0]}"
            """, path, Traces.path("timeout.jsonl")])
        #expect(result.stdout == "\(outputFailureStatus)\n", "stderr: \(result.stderr)")
        #expect(result.stderr.contains("writing standard output failed, the replay stopped: Broken pipe"))
    }

    @Test("a day of endless flings at 1000 Hz stops at the frame limit: a stopped line, status 3, bounded output")
    func frameLimit() throws {
        let folder = try PrivateFolder(prefix: "replay-limits")
        let trace = folder.appending("day.jsonl"), output = folder.appending("out.jsonl")
        try dayOfEndlessFlings().write(toFile: trace, atomically: false, encoding: .utf8)
        #expect(FileManager.default.createFile(atPath: output, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: output))
        let result = try runProcess(try tool(), [trace], standardOutput: handle)
        try handle.close()
        #expect(result.status == 3, "stderr: \(result.stderr)")
        #expect(result.stderr.hasPrefix("scroll-replay: \(trace): stopped at t = "), "\(result.stderr)")
        #expect(result.stderr.contains("a replay is limited to 500000 frame ticks"))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
        #expect(size < 200_000_000, "\(size) bytes of output")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let last = try #require(text.split(separator: "\n").last)
        #expect(last.hasPrefix(#"{"kind":"stopped","t":"#) && last.hasSuffix(#","frames":500000,"limit":"frames"}"#), "\(last)")
    }

    @Test("control characters from a trace's contents and its file name are escaped in the message")
    func escapedMessage() throws {
        let folder = try PrivateFolder(prefix: "replay-escapes")
        let trace = folder.appending("bad\u{1B}]0;title\u{07}.jsonl")
        try #"{"kind":"\u001b[2J\u001b[31mred"}"#.write(toFile: trace, atomically: false, encoding: .utf8)
        let result = try runProcess(try tool(), [trace])
        #expect(result.status == 2)
        #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "raw control characters: \(result.stderr.debugDescription)")
        #expect(result.stderr == #"scroll-replay: \#(folder.path)/bad\x1B]0;title\x07.jsonl:1: expected the setup line (kind "setup") first, found kind "\x1B[2J\x1B[31mred""# + "\n")
    }
}
