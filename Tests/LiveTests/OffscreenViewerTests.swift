// The viewer without a compositor: a trace's input drives the same scene on the simulated
// display, and the last frame is written as a picture.
import CompositorHarness
import Foundation
import Raster
import Testing

@Suite("Viewer offscreen", .ownThreads)
struct OffscreenViewerTests {
    private func temporaryFile(_ name: String) -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("scrollkit-\(getpid())-\(UUID().uuidString.prefix(6))-\(name)")
    }

    /// Where `scroll-replay` says a bare scroll view comes to rest for `trace`: the `end` line's offset.
    private func replayedRestingOffset(_ trace: URL) throws -> (x: Double, y: Double) {
        let replay = try ClientProcess("scroll-replay", [trace.path], environment: [:])
        #expect(replay.waitForExit(timeout: 30) == 0, "scroll-replay: \(replay.stderr.lines)")
        let end = try #require(replay.stdout.lines.last { $0.contains(#""kind":"end""#) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(end.utf8)) as? [String: Any])
        let offset = try #require(object["offset"] as? [String: Double])
        return (try #require(offset["x"]), try #require(offset["y"]))
    }

    @Test("A drag and fling offscreen shows the card exactly where scroll-replay says it rests",
          arguments: [
            // A fling: released while moving.
            [(0.0, "motion", 500.0, 400.0), (10, "press", 0, 0), (26, "motion", 420, 330), (42, "motion", 300, 240), (58, "motion", 180, 150), (60, "release", 0, 0)],
            // A drag that stops before the release: no fling.
            [(0.0, "motion", 500.0, 400.0), (10, "press", 0, 0), (30, "motion", 400, 300), (50, "motion", 250, 170), (200, "release", 0, 0)],
          ])
    func dragMatchesReplay(steps: [(Double, String, Double, Double)]) throws {
        let trace = temporaryFile("drag.jsonl"), shot = temporaryFile("drag.ppm")
        defer { try? FileManager.default.removeItem(at: trace); try? FileManager.default.removeItem(at: shot) }
        var lines = [#"{"kind":"setup","viewport":{"width":640,"height":480},"content":{"width":10000,"height":10000}}"#]
        for (t, kind, x, y) in steps {
            switch kind {
            case "motion": lines.append(#"{"t":\#(t),"kind":"pointer.motion","x":\#(x),"y":\#(y)}"#)
            default: lines.append(#"{"t":\#(t),"kind":"pointer.button","button":"left","state":"\#(kind == "press" ? "pressed" : "released")"}"#)
            }
        }
        try lines.joined(separator: "\n").write(to: trace, atomically: true, encoding: .utf8)
        let rest = try replayedRestingOffset(trace)
        #expect(rest.x > 100 && rest.y > 100, "the drag must have scrolled: \(rest)")
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--offscreen", trace.path, "--screenshot", shot.path],
                                       environment: [:])
        #expect(viewer.waitForExit(timeout: 60) == 0, "stderr: \(viewer.stderr.lines)")
        let picture = try Screenshot(ppm: try Data(contentsOf: shot))
        // The renderer snaps a fractional offset to a device pixel; either neighbour is right.
        let points = [(0, 0), (49, 69), (100, 100), (639, 479), (320, 240), (56, 76), (7, 301)]
        let candidates = Set([rest.x.rounded(.down), rest.x.rounded(.up)].flatMap { x in
            [rest.y.rounded(.down), rest.y.rounded(.up)].map { y in "\(Int(x)),\(Int(y))" } })
        let matching = candidates.filter { key in
            let parts = key.split(separator: ",").map { Int($0)! }
            return cardProblems(picture, size: (640, 480), offset: (parts[0], parts[1]), points: points).isEmpty
        }
        #expect(!matching.isEmpty, "replay rests at \(rest); screenshot: \(cardProblems(picture, size: (640, 480), offset: (Int(rest.x.rounded()), Int(rest.y.rounded())), points: points))")
    }

    @Test("A malformed trace is refused with the file, the line and exit status 2")
    func badTrace() throws {
        let trace = temporaryFile("bad.jsonl")
        defer { try? FileManager.default.removeItem(at: trace) }
        try """
        {"kind":"setup","viewport":{"width":640,"height":480},"content":{"width":10000,"height":10000}}
        {"t":0,"kind":"pointer.teleport","x":1,"y":2}
        """.write(to: trace, atomically: true, encoding: .utf8)
        let viewer = try ClientProcess("image-viewer", ["--offscreen", trace.path], environment: [:])
        #expect(viewer.waitForExit(timeout: 30) == 2)
        let lines = viewer.stderr.lines
        #expect(lines.count == 1 && lines[0].hasPrefix("image-viewer: \(trace.path):2:"), "stderr: \(lines)")
    }
}
