// A gallery session, recorded as image-viewer --record writes it (the whole gallery as a nested
// setup, input lines, and what the gallery did: its key commands, its pages' new content), replays
// in scroll-replay to where the gallery itself came to rest.
import Foundation
import Gallery
import Replay
import ScrollKit
import Testing
import TestSupport
import TraceFormat

/// Runs a gallery offscreen and writes the trace a live recording would: the setup the gallery
/// describes when the first line is due, a line per input event and per gallery action.
private final class RecordedGallery: DisplayClient {
    let harness: Harness
    private(set) var lines: [String] = []
    private var formatter = TraceLineFormatter()
    private var input = InputFrameBuilder()

    init(files: [String], options: GalleryScene.Options = .synchronous) {
        harness = Harness(files: files, width: 800, height: 600, options: options)
        harness.scene.onTraceAction = { [unowned self] action, time in
            self.setupIfNeeded()
            self.lines.append(self.formatter.line(for: action, at: time))
        }
    }

    private func setupIfNeeded() {
        guard lines.isEmpty else { return }
        let setup = harness.scene.traceSetup()
        formatter.origin = setup.origin
        lines.append(TraceLineFormatter.setupLine(setup, viewport: setup.viewport ?? .zero))
    }

    // The gallery's keys are reported by the gallery (as the viewer sets `sceneReportsKeys`).
    private var frameCount = 0

    func perform(_ frame: [InputEvent], at time: Double) {
        frameCount += 1
        for event in frame {
            if case .key = event.kind { continue }
            setupIfNeeded()
            lines.append(formatter.line(for: event, frame: frameCount))
        }
        harness.window.perform(frame, at: time)
    }
    var wantsFrame: Bool { harness.window.wantsFrame }
    var nextWakeTime: Double? { harness.window.nextWakeTime }
    func wake(at time: Double) { harness.window.wake(at: time) }
    func tick(frameTime time: Double) { harness.window.tick(frameTime: time) }

    func run(_ steps: [Step]) {
        for step in steps.sorted(by: { $0.time < $1.time }) { input.append(step.kind, at: step.time, modifiers: step.modifiers) }
        _ = harness.display.run(input.takeFrames(), on: self)
    }
}

@Suite("Gallery recordings")
struct GalleryRecordingTests {
    @Test("Swipes, wheel turns, a pinch, a pan and keys replay to the gallery's rest: pager and every page")
    func sessionReplaysToTheSameRest() throws {
        let files = [Assets.sunset, Assets.bubbles, Assets.mosaic, Assets.city]
        let session = RecordedGallery(files: files)
        let wheel = { (t: Double, notches: Int) in
            Step(time: t, kind: .pointerAxis(source: .wheel, dx: 0, dy: CGFloat(15 * notches), value120X: nil, value120Y: 120 * notches))
        }
        var steps = Step.drag(0, from: CGPoint(x: 600, y: 300), to: CGPoint(x: 250, y: 300), steps: 10)
        steps += [Step(time: 1500, kind: .pointerMotion(location: CGPoint(x: 400, y: 300))), wheel(1510, 1), wheel(2500, -1)]
        // Two fingers pinch the second picture open around (400, 300).
        steps += [Step.down(4000, 1, 350, 300), Step.down(4000, 2, 450, 300)]
        for i in 1...10 {
            steps += [Step.move(4000 + 8 * Double(i), 1, 350 - 10 * Double(i), 300),
                      Step.move(4000 + 8 * Double(i), 2, 450 + 10 * Double(i), 300)]
        }
        steps += [Step.up(4100, 1), Step.up(4100, 2)]
        // A slow pan of the zoomed picture, then keys: Right pans it, + zooms it, Next turns the page.
        steps += Step.drag(5500, id: 3, from: CGPoint(x: 400, y: 400), to: CGPoint(x: 350, y: 320), steps: 10, hold: 300)
        // Next turns to the third picture (the second, out of sight, returns to its fit); a pinch
        // there, then Prior back: the third stays zoomed in, out of sight but not far enough to go.
        steps += Step.key(7000, "Right") + Step.key(8000, "plus") + Step.key(9000, "Next")
        steps += [Step.down(11_000, 4, 350, 300), Step.down(11_000, 5, 450, 300)]
        for i in 1...6 {
            steps += [Step.move(11_000 + 8 * Double(i), 4, 350 - 10 * Double(i), 300),
                      Step.move(11_000 + 8 * Double(i), 5, 450 + 10 * Double(i), 300)]
        }
        steps += [Step.up(11_100, 4), Step.up(11_100, 5)]
        session.run(steps)

        let scene = session.harness.scene
        #expect(scene.currentIndex == 2)
        let page = try #require(scene.page(at: 2))
        #expect(page.isZoomedIn, "the third picture is zoomed in")
        #expect(scene.page(at: 1).map(\.isAtRest) ?? true, "the second returned to its fit once paged away")
        let trace = try TraceParser().parse(session.lines.joined(separator: "\n"), file: "recording")
        #expect(trace.setup.viewCount == files.count + 1)
        #expect(trace.events.contains { if case .layout = $0.action { true } else { false } }, "pages' sizes arrive as layout lines")
        #expect(trace.events.contains { if case .call(.zoomToRect, 2) = $0.action { true } else { false } }, "+ is a zoom call on page 2")
        #expect(trace.events.contains { if case .input(.key, _, 2?) = $0.action { true } else { false } }, "Right went to page 2")

        let records = try Replayer.records(of: trace)
        guard case .end(_, let offset, _, _)? = records.last else { Issue.record("no end line: \(String(describing: records.last))"); return }
        #expect(abs(offset.x - scene.pager.contentOffset.x) < 0.5 && abs(offset.y - scene.pager.contentOffset.y) < 0.5,
                "replayed pager \(offset), live \(scene.pager.contentOffset)")
        var replayedPages: [Int: (CGPoint, Double)] = [:]
        for record in records { if case .nestedEnd(_, let view, let offset, let scale) = record { replayedPages[view - 1] = (offset, scale) } }
        for index in files.indices {
            guard let live = scene.page(at: index), !live.isAtRest else {
                #expect(replayedPages[index] == nil, "page \(index) rests in the gallery but not in the replay")
                continue
            }
            let replayed = try #require(replayedPages[index], "page \(index) moved live but not in the replay")
            #expect(abs(replayed.1 - Double(live.zoomScale)) < 1e-6, "page \(index): scale \(replayed.1), live \(live.zoomScale)")
            #expect(abs(replayed.0.x - live.contentOffset.x) < 0.5 && abs(replayed.0.y - live.contentOffset.y) < 0.5,
                    "page \(index): offset \(replayed.0), live \(live.contentOffset)")
        }
    }

    @Test("With --wrap, a swipe past the last page and a turned picture replay to the gallery's rest")
    func wrapAndTurnReplay() throws {
        var options = GalleryScene.Options.synchronous
        options.wraps = true
        let files = [Assets.sunset, Assets.bubbles, Assets.mosaic]
        let session = RecordedGallery(files: files, options: options)
        // End, then a swipe past the last page onto the first; ] turns it, a double tap zooms it.
        var steps = Step.key(0, "End")
        steps += Step.drag(1000, from: CGPoint(x: 600, y: 300), to: CGPoint(x: 250, y: 300), steps: 10)
        steps += Step.key(3000, "bracketright") + Step.doubleTap(4000, 300, 200)
        session.run(steps)

        let scene = session.harness.scene
        #expect(scene.currentIndex == 0 && scene.pager.contentOffset.x == 820)
        let page = try #require(scene.currentPage)
        #expect(page.isZoomedIn && page.imageSize == CGSize(width: 800, height: 1200))
        let trace = try TraceParser().parse(session.lines.joined(separator: "\n"), file: "recording")
        // The pager's slots: a copy of the last page, the three pages, a copy of the first.
        #expect(trace.setup.viewCount == files.count + 3)
        let records = try Replayer.records(of: trace)
        guard case .end(_, let offset, _, _)? = records.last else { Issue.record("no end line: \(String(describing: records.last))"); return }
        #expect(abs(offset.x - 820) < 0.5, "replayed pager \(offset)")
        var replayed: (CGPoint, Double)?
        for record in records { if case .nestedEnd(_, 2, let offset, let scale) = record { replayed = (offset, scale) } }
        let first = try #require(replayed, "the first page moved live but not in the replay")
        #expect(abs(first.1 - Double(page.zoomScale)) < 1e-6, "scale \(first.1), live \(page.zoomScale)")
        #expect(abs(first.0.x - page.contentOffset.x) < 0.5 && abs(first.0.y - page.contentOffset.y) < 0.5,
                "offset \(first.0), live \(page.contentOffset)")
    }

    @Test("A picture smaller than the window, shown at 1:1, zoomed by a double tap and panned, replays to the same rest")
    func smallPictureReplays() throws {
        let folder = try TemporaryFolder()
        try PillowPictures.make("""
            im = Image.new("RGB", (600, 400))
            im.putdata([((x * 7) % 256, (y * 5) % 256, 90) for y in range(400) for x in range(600)])
            im.save(os.path.join(out, "small.png"))
            """, in: folder.path)
        let session = RecordedGallery(files: [folder.path + "/small.png", Assets.sunset])
        var steps = Step.doubleTap(500, 500, 300)
        steps += Step.drag(2000, id: 1, from: CGPoint(x: 400, y: 300), to: CGPoint(x: 250, y: 200), steps: 10, hold: 300)
        session.run(steps)
        let page = try #require(session.harness.scene.page(at: 0))
        // 1:1 was the fit (the window is larger), so the double tap went to twice that.
        #expect(page.fitScale == 1 && page.zoomScale == 2 && !page.isAtRest)
        #expect(session.lines.first?.contains(#""upscalesToFit":false"#) == true, "\(session.lines.first ?? "")")
        let trace = try TraceParser().parse(session.lines.joined(separator: "\n"), file: "recording")
        #expect(trace.setup.nested.first?.upscalesToFit == false)
        let records = try Replayer.records(of: trace)
        var replayed: (CGPoint, Double)?
        for record in records { if case .nestedEnd(_, 1, let offset, let scale) = record { replayed = (offset, scale) } }
        let end = try #require(replayed, "the page moved live but not in the replay")
        #expect(abs(end.1 - 2) < 1e-6, "replayed scale \(end.1)")
        #expect(abs(end.0.x - page.contentOffset.x) < 0.5 && abs(end.0.y - page.contentOffset.y) < 0.5,
                "replayed offset \(end.0), live \(page.contentOffset)")
    }
}
