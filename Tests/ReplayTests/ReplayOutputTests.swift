// Output lines: exact keys and order of the spec, stable number formatting.
import Foundation
import Testing
@testable import Replay
@testable import TraceFormat

@Suite("Replay output lines")
struct ReplayOutputTests {
    private let resting = ScrollStateSnapshot(offset: CGPoint(x: 0, y: 20), tracking: true, dragging: true, decelerating: false)

    @Test("numbers: 3 decimals, no trailing zeros, no -0, no exponent", arguments: [
        (0.0, "0"), (-0.0, "0"), (1, "1"), (-3, "-3"), (16.666666, "16.667"), (1000.0 / 60 * 2, "33.333"),
        (0.1, "0.1"), (0.25, "0.25"), (918.2, "918.2"), (-0.0004, "0"), (-0.0005, "-0.001"),
        (0.001, "0.001"), (1_000_000, "1000000"), (123456789.125, "123456789.125"), (1e20, "1e+20"),
        (Double.nan, "null"), (Double.infinity, "null"),
    ] as [(Double, String)])
    func numbers(_ value: Double, _ text: String) {
        #expect(ReplayOutput.number(value) == text)
    }

    @Test("a DidScroll line carries the whole state snapshot, t and call first")
    func didScroll() {
        let line = ReplayOutput.line(for: .delegate(time: 1000.0 / 60, call: .didScroll, state: resting))
        #expect(line == #"{"t":16.667,"call":"scrollViewDidScroll","offset":{"x":0,"y":20},"tracking":true,"dragging":true,"decelerating":false,"zooming":false,"zoomBouncing":false,"zoomScale":1}"#)
    }

    @Test("call-specific keys come before the state")
    func callArguments() {
        let end = ReplayOutput.line(for: .delegate(time: 120, call: .willEndDragging(velocity: CGPoint(x: 0, y: 1.8),
                                                                                     targetContentOffset: CGPoint(x: 0, y: 918.2)),
                                                   state: resting))
        #expect(end.hasPrefix(#"{"t":120,"call":"scrollViewWillEndDragging","velocity":{"x":0,"y":1.8},"targetContentOffset":{"x":0,"y":918.2},"offset":"#))
        let didEnd = ReplayOutput.line(for: .delegate(time: 120, call: .didEndDragging(willDecelerate: true), state: resting))
        #expect(didEnd.hasPrefix(#"{"t":120,"call":"scrollViewDidEndDragging","willDecelerate":true,"offset":"#))
        let zoom = ReplayOutput.line(for: .delegate(time: 5, call: .didEndZooming(atScale: 2.5), state: resting))
        #expect(zoom.hasPrefix(#"{"t":5,"call":"scrollViewDidEndZooming","atScale":2.5,"offset":"#))
    }

    @Test("control, frame, end and timeout lines")
    func otherLines() {
        #expect(ReplayOutput.line(for: .control(time: 150, id: "a\"b", event: .touchUpInside, state: resting))
            == #"{"t":150,"kind":"control","id":"a\"b","event":"touchUpInside","offset":{"x":0,"y":20},"tracking":true,"dragging":true,"decelerating":false,"zooming":false,"zoomBouncing":false,"zoomScale":1}"#)
        #expect(ReplayOutput.line(for: .frame(time: 50, offset: CGPoint(x: 0, y: -12.3456), zoomScale: 1))
            == #"{"kind":"frame","t":50,"offset":{"x":0,"y":-12.346},"zoomScale":1}"#)
        #expect(ReplayOutput.line(for: .end(time: 2000, offset: CGPoint(x: 0, y: 800), zoomScale: 1, frames: 96))
            == #"{"kind":"end","t":2000,"offset":{"x":0,"y":800},"zoomScale":1,"frames":96}"#)
        #expect(ReplayOutput.line(for: .timeout(time: 61000, offset: CGPoint(x: 1, y: 2), zoomScale: 1, frames: 3660))
            == #"{"kind":"timeout","t":61000,"offset":{"x":1,"y":2},"zoomScale":1,"frames":3660}"#)
    }

    @Test("every output line is valid JSON that reads back to the same values")
    func roundTrip() throws {
        let record = ReplayRecord.delegate(time: 33.3333, call: .willEndDragging(velocity: CGPoint(x: -0.25, y: 2),
                                                                                targetContentOffset: CGPoint(x: 0, y: 1e6)),
                                           state: resting)
        let value = try JSONReader.parse(Array(ReplayOutput.line(for: record).utf8))
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["t", "call", "velocity", "targetContentOffset", "offset", "tracking", "dragging",
                                "decelerating", "zooming", "zoomBouncing", "zoomScale"])
        #expect(object["t"] == .number(33.333))
        #expect(object["call"] == .string("scrollViewWillEndDragging"))
    }
}
