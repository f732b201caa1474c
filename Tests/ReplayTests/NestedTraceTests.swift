// Nested scroll views in traces (the project's addition to the format): a setup describing a
// pager of zooming pages, layout lines, calls and keys addressed to a nested view, and the
// replay routing input between them as a live window does.
import Foundation
import Testing
import Replay
import ScrollKit
import TraceFormat

@Suite("Nested scroll views in traces")
struct NestedTraceTests {
    @Test("A pager of zooming pages: swipes and wheel notches turn pages, a pinch and a pan move only the page")
    func pagerOfPages() throws {
        let trace = try TraceParser().parse(fileAt: Traces.path("nested-gallery.jsonl"))
        #expect(trace.setup.viewCount == 4)
        let records = try Replayer.records(of: trace)
        let calls = delegateCalls(records)
        // The pager (view 0) turned pages: the swipe to 820, the wheel to 1640 and back.
        let pager = calls.filter { $0.state.view == 0 && $0.name != "scrollViewDidScroll" }.map(\.name)
        #expect(pager == ["scrollViewWillBeginDragging", "scrollViewWillEndDragging", "scrollViewDidEndDragging",
                          "scrollViewWillBeginDecelerating", "scrollViewDidEndDecelerating",
                          "scrollViewDidEndScrollingAnimation", "scrollViewDidEndScrollingAnimation"], "\(pager)")
        // The second page (view 2) zoomed under the fingers and was panned; no other page heard anything.
        let page = calls.filter { $0.state.view == 2 && $0.name != "scrollViewDidScroll" && $0.name != "scrollViewDidZoom" }
        #expect(page.map(\.name) == ["scrollViewWillBeginZooming", "scrollViewDidEndZooming", "scrollViewWillBeginDragging",
                                     "scrollViewWillEndDragging", "scrollViewDidEndDragging"], "\(page.map(\.name))")
        #expect(calls.allSatisfy { $0.state.view == 0 || $0.state.view == 2 })
        // Fit 2/3 (1200×800 in 800×600); the fingers spread from 100 to 300 pt: three times that.
        #expect(page[1].call == .didEndZooming(atScale: 2))
        guard case .end(_, let offset, _, _)? = records.last else { Issue.record("no end line"); return }
        #expect(offset == CGPoint(x: 820, y: 0))
        let nested = records.compactMap { record -> (Int, CGPoint, Double)? in
            if case .nestedEnd(_, let view, let offset, let scale) = record { return (view, offset, scale) }
            return nil
        }
        try #require(nested.count == 1)
        #expect(nested[0].0 == 2 && nested[0].2 == 2)
        // The pan moved the zoomed picture 50 pt left and 80 pt up, less the 10 pt slop along it.
        let slop = 10 / hypot(50.0, 80.0)
        #expect(abs(Double(nested[0].1.x) - (800 + 50 * (1 - slop))) < 0.01 && abs(Double(nested[0].1.y) - (500 + 80 * (1 - slop))) < 0.01,
                "\(nested[0].1)")
    }

    @Test("The nested setup, layout, call and key lines written by a recording read back as they were")
    func roundTrip() throws {
        var setup = TraceSetup(viewport: CGSize(width: 820, height: 600), content: CGSize(width: 1640, height: 600))
        setup.options.pagingEnabled = true
        var zoomed = ScrollOptions()
        zoomed.zoomScale = 1.5
        zoomed.contentOffset = CGPoint(x: 100, y: 40)
        setup.nested = [
            NestedScrollSetup(frame: CGRect(x: 10, y: 0, width: 800, height: 600), content: .zero, zoomable: true, fitsContent: true),
            NestedScrollSetup(frame: CGRect(x: 830, y: 0, width: 800, height: 600), content: CGSize(width: 1200, height: 800),
                              zoomable: true, fitsContent: true, detailScale: 0.5, options: zoomed,
                              nested: [NestedScrollSetup(frame: CGRect(x: 0, y: 0, width: 100, height: 100),
                                                         content: CGSize(width: 100, height: 400))]),
        ]
        var formatter = TraceLineFormatter()
        let lines = [
            TraceLineFormatter.setupLine(setup),
            formatter.line(for: .layout(NestedLayout(view: 1, content: CGSize(width: 640, height: 480), detailScale: 0.5)), at: 1000),
            formatter.line(for: .call(.zoomToRect(CGRect(x: 1, y: 2, width: 300, height: 225), animated: true), view: 2), at: 1010),
            formatter.line(for: .call(.setContentOffset(CGPoint(x: 820, y: 0), animated: true)), at: 1020),
            formatter.line(for: .input(.key(.right, pressed: true), modifiers: .shift, view: 2), at: 1030),
        ]
        let trace = try TraceParser().parse(lines.joined(separator: "\n"))
        var expected = setup
        expected.frameRate = 60
        #expect(trace.setup == expected)
        #expect(trace.setup.viewCount == 4)
        #expect(trace.events.map(\.action) == [
            .layout(NestedLayout(view: 1, content: CGSize(width: 640, height: 480), detailScale: 0.5)),
            .call(.zoomToRect(CGRect(x: 1, y: 2, width: 300, height: 225), animated: true), view: 2),
            .call(.setContentOffset(CGPoint(x: 820, y: 0), animated: true)),
            .input(.key(.right, pressed: true), modifiers: .shift, view: 2),
        ])
        #expect(trace.events.map(\.time) == [0, 10, 20, 30])
    }

    @Test("Bad nesting is refused with the line and the field", arguments: [
        (#"{"kind":"setup","viewport":{"width":100,"height":100},"content":{"width":100,"height":100},"nested":[{"content":{"width":1,"height":1}}]}"#,
         "missing field 'nested[0].frame'"),
        (#"{"kind":"setup","viewport":{"width":100,"height":100},"content":{"width":100,"height":100},"nested":[{"frame":{"x":0,"y":0,"width":0,"height":5},"content":{"width":1,"height":1}}]}"#,
         "'nested[0].frame.width' must be greater than 0"),
        (#"{"kind":"setup","viewport":{"width":100,"height":100},"content":{"width":100,"height":100},"nested":[{"frame":{"x":0,"y":0,"width":5,"height":5},"content":{"width":1,"height":1},"zoom":true}]}"#,
         "unknown key 'zoom' in 'nested[0]'"),
        (#"{"kind":"setup","viewport":{"width":100,"height":100},"content":{"width":100,"height":100}}"# + "\n" + #"{"kind":"layout","t":0,"view":1,"content":{"width":1,"height":1}}"#,
         "'view' must name a scroll view of the setup (none), found 1"),
        (#"{"kind":"setup","viewport":{"width":100,"height":100},"content":{"width":100,"height":100}}"# + "\n" + #"{"kind":"call","t":0,"method":"scrollToTop","view":3}"#,
         "'view' must name a scroll view of the setup (0...0), found 3"),
    ])
    func badNesting(text: String, message: String) {
        #expect {
            _ = try TraceParser().parse(text, file: "t.jsonl")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("Nesting deeper than the limit is refused before anything is built")
    func tooDeep() {
        var entry = #"{"frame":{"x":0,"y":0,"width":5,"height":5},"content":{"width":1,"height":1}}"#
        for _ in 0..<9 { entry = #"{"frame":{"x":0,"y":0,"width":5,"height":5},"content":{"width":1,"height":1},"nested":["# + entry + "]}" }
        let text = #"{"kind":"setup","viewport":{"width":100,"height":100},"content":{"width":100,"height":100},"nested":["# + entry + "]}"
        #expect {
            _ = try TraceParser().parse(text)
        } throws: { error in
            "\(error)".contains("deeper than the limit of 8")
        }
    }
}

@Suite("Recorded input frames")
struct RecordedFrameTests {
    @Test("Lines with a frame number are delivered in the frames the seat delivered; without one, same-time touch lines group")
    func framesFromNumbers() {
        var numbered = InputFrameBuilder()
        numbered.append(.touchMotion(id: 0, location: .zero), at: 10, frame: 4)
        numbered.append(.touchMotion(id: 1, location: .zero), at: 10, frame: 5)
        numbered.append(.touchMotion(id: 0, location: .zero), at: 10, frame: 6)
        numbered.append(.touchMotion(id: 1, location: .zero), at: 11, frame: 6)
        #expect(numbered.frames.map(\.action.count) == [1, 1, 2], "a burst stamped in one millisecond stays three frames")
        var legacy = InputFrameBuilder()
        legacy.append(.touchMotion(id: 0, location: .zero), at: 10)
        legacy.append(.touchMotion(id: 1, location: .zero), at: 10)
        legacy.append(.touchMotion(id: 0, location: .zero), at: 11)
        #expect(legacy.frames.map(\.action.count) == [2, 1])
    }
}
