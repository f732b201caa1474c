// The viewer without a compositor: a trace's input drives the same scene on the simulated
// display, and the last frame is written as a picture.
import Foundation
import Raster
import Testing

@Suite("Viewer offscreen")
struct OffscreenViewerTests {
    private func temporaryFile(_ name: String) -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("scrollkit-\(getpid())-\(UUID().uuidString.prefix(6))-\(name)")
    }

    @Test("A pointer drag in a trace moves the test card by the drag, pixel for pixel")
    func dragOffscreen() throws {
        let trace = temporaryFile("drag.jsonl"), shot = temporaryFile("drag.ppm")
        defer { try? FileManager.default.removeItem(at: trace); try? FileManager.default.removeItem(at: shot) }
        try """
        {"kind":"setup","viewport":{"width":640,"height":480},"content":{"width":10000,"height":10000}}
        {"t":0,"kind":"pointer.motion","x":500,"y":400}
        {"t":10,"kind":"pointer.button","button":"left","state":"pressed"}
        {"t":30,"kind":"pointer.motion","x":400,"y":300}
        {"t":50,"kind":"pointer.motion","x":250,"y":170}
        {"t":70,"kind":"pointer.button","button":"left","state":"released"}
        """.write(to: trace, atomically: true, encoding: .utf8)
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--offscreen", trace.path, "--screenshot", shot.path],
                                       environment: [:])
        #expect(viewer.waitForExit(timeout: 30) == 0, "stderr: \(viewer.stderr.lines)")
        let picture = try Screenshot(ppm: try Data(contentsOf: shot))
        // The drag went from (500,400) to (250,170): the content moved by (250,230).
        let problems = cardProblems(picture, size: (640, 480), offset: (250, 230),
                                    points: [(0, 0), (49, 69), (100, 100), (639, 479), (320, 240), (56, 76)])
        #expect(problems.isEmpty, "\(problems)")
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
