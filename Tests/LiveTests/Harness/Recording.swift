// A live session recorded with `image-viewer --record`, and its replay: the live tests check
// that `scroll-replay` of the recorded input ends where the live content came to rest.
import CompositorHarness
import Foundation
import ScrollKit
import Testing
import TestSupport

/// A scroll offset in points.
typealias ScrollOffset = (x: Double, y: Double)

/// A path in the temporary folder for a `--record` trace; the test removes it.
func temporaryTracePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString).trace").path
}

/// Ends a recording viewer as its user would, with Q typed by `keyboard` (a `wl-inject --stdin`
/// whose keyboard the viewer has focus of), and expects a clean exit: the recorder writes the
/// trace's `# live end` comment only when the viewer's event loop returns.
func quitWithQ(_ viewer: ClientProcess, keyboard: ClientProcess, sourceLocation: SourceLocation = #_sourceLocation) {
    keyboard.send("tap q")
    let status = viewer.waitForExit(timeout: 10)
    #expect(status == 0, "Q ends the test card viewer; stderr: \(viewer.stderr.lines.suffix(5))",
            sourceLocation: sourceLocation)
}

/// Waits until a viewer run with `--stats` has ended its scroll motion and faded its scroll
/// indicators: its frame lines show the pause of `ScrollIndicator.hideDelay` that follows the
/// end of a motion, then the fade's frames, then nothing. Only a motion that has ended is
/// where the replay ends it: Q during a glide stops the content where the last frame drew it.
/// Screenshots that agree and a quiet viewer alone do not prove the end: a viewer (or
/// compositor) starved of the CPU draws nothing for a while in the middle of a glide. Throws
/// after `timeout` seconds with the frame times seen.
func awaitMotionEnded(_ viewer: ClientProcess, timeout: Double = 30) throws {
    let deadline = Date().addingTimeInterval(timeout)
    var frames: [Double] = []
    while Date() < deadline {
        try awaitQuiet(viewer, timeout: max(1, deadline.timeIntervalSinceNow))
        frames = viewer.stderr.lines.filter { isStats($0, "frame") }.compactMap { statsFields($0)["ms"] }
        // The last pause of nearly the hide delay (0.9 of it: frame times are whole ms and the
        // wake timer may fire early), then frames spanning at most the fade plus 100 ms (six
        // 60 Hz frames of slack for late callbacks; decision).
        if let pause = frames.indices.dropLast().last(where: { frames[$0 + 1] - frames[$0] >= 0.9 * ScrollIndicator.hideDelay }),
           let last = frames.last, last - frames[pause + 1] <= ScrollIndicator.fadeDuration + 100 {
            return
        }
        usleep(200_000)
    }
    throw HarnessError(description: "the viewer's motion did not end with the indicator fade within \(timeout) s; frame times (ms): \(frames.suffix(30))")
}

/// Reads the finished recording at `trace`, replays it with `scroll-replay`, and expects the
/// replay's `end` line within `tolerance` pt of the offset the recording's `# live end`
/// comment says the live content rested at. Returns the recording's lines and that live rest.
@discardableResult
func expectReplayEndsAtLiveRest(_ trace: String, tolerance: Double = 1,
                                sourceLocation: SourceLocation = #_sourceLocation) throws -> (lines: [String], live: ScrollOffset) {
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
    let liveEnd = try #require(lines.last.flatMap { $0.hasPrefix("# live end: ") ? String($0.dropFirst(12)) : nil },
                               "the recording ends with the live end comment; last lines: \(lines.suffix(2))",
                               sourceLocation: sourceLocation)
    let live = try offset(inJSON: liveEnd, sourceLocation: sourceLocation)
    let replay = try runProcess(try #require(PackagePaths.builtExecutable("scroll-replay"), sourceLocation: sourceLocation), [trace])
    #expect(replay.status == 0, "scroll-replay: \(replay.stderr)", sourceLocation: sourceLocation)
    let endLine = try #require(replay.stdout.split(separator: "\n").last.map(String.init), sourceLocation: sourceLocation)
    let replayed = try offset(inJSON: endLine, sourceLocation: sourceLocation)
    print("live rest \(live), replayed rest \(replayed) (\(trace.split(separator: "/").last ?? ""))")
    if abs(replayed.x - live.x) > tolerance || abs(replayed.y - live.y) > tolerance {
        // The test removes its trace: a copy is kept for `scroll-replay --frames`.
        let kept = trace + ".kept"
        _ = try? FileManager.default.copyItem(atPath: trace, toPath: kept)
        Issue.record("live rest \(live), replayed rest \(replayed) (tolerance \(tolerance) pt); end line \(endLine); trace kept at \(kept)",
                     sourceLocation: sourceLocation)
    }
    return (lines, live)
}

/// The `offset` of a JSON line (`scroll-replay`'s end line, or the recording's end comment).
private func offset(inJSON line: String, sourceLocation: SourceLocation) throws -> ScrollOffset {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)",
                              sourceLocation: sourceLocation)
    let offset = try #require(object["offset"] as? [String: Any], "\(line)", sourceLocation: sourceLocation)
    return (try #require((offset["x"] as? NSNumber)?.doubleValue, sourceLocation: sourceLocation),
            try #require((offset["y"] as? NSNumber)?.doubleValue, sourceLocation: sourceLocation))
}
