// The trace reader: well-formed lines become the right events, and every kind of malformed
// trace is refused with a message naming the line and the problem.
import Foundation
import ScrollKit
import Testing
import TraceFormat
@testable import Replay

private let setupLine = #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000}}"#

private func parse(_ text: String, limits: TraceLimits = .standard) throws(TraceError) -> Trace {
    try TraceParser(limits: limits).parse(text, file: "test.jsonl")
}

/// The error the parser throws for `text`, or nil when it accepts it.
private func rejection(_ text: String, limits: TraceLimits = .standard) -> TraceError? {
    do {
        _ = try parse(text, limits: limits)
        return nil
    } catch {
        return error
    }
}

@Suite("Trace parsing")
struct TraceParserTests {
    @Test("the spec's setup line with defaults")
    func setupDefaults() throws {
        let trace = try parse(setupLine + "\n")
        #expect(trace.setup == TraceSetup(viewport: CGSize(width: 400, height: 600),
                                          content: CGSize(width: 400, height: 3000), frameRate: 60, line: 1))
        #expect(trace.events.isEmpty)
        #expect(abs(trace.setup.frameInterval - 16.6667) < 0.001)
    }

    @Test("every option, buttons, zoomable and delegate config are read")
    func setupEverything() throws {
        let text = """
        # a comment before the setup

        {"kind":"setup","viewport":{"width":320,"height":480},"content":{"width":640,"height":960},"frameRate":120,\
        "options":{"contentOffset":{"x":10,"y":20},"contentInset":{"top":1,"left":2,"bottom":3,"right":4},"bounces":false,\
        "alwaysBounceVertical":true,"alwaysBounceHorizontal":true,"pagingEnabled":true,"scrollEnabled":false,\
        "directionalLockEnabled":true,"decelerationRate":"fast","minimumZoomScale":0.5,"maximumZoomScale":4,\
        "zoomScale":2,"bouncesZoom":false,"delaysContentTouches":false,"canCancelContentTouches":false,\
        "scrollsToTop":false,"showsVerticalScrollIndicator":false,"showsHorizontalScrollIndicator":false},\
        "buttons":[{"id":"a","x":20,"y":40,"width":200,"height":80}],"zoomable":true,\
        "delegate":{"targetContentOffset":{"x":0,"y":800},"shouldScrollToTop":false}}
        """
        let setup = try parse(text).setup
        #expect(setup.line == 3)
        #expect(setup.viewport == CGSize(width: 320, height: 480))
        #expect(setup.content == CGSize(width: 640, height: 960))
        #expect(setup.frameRate == 120)
        var options = ScrollOptions()
        options.contentOffset = CGPoint(x: 10, y: 20)
        options.contentInset = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        options.bounces = false
        options.alwaysBounceVertical = true
        options.alwaysBounceHorizontal = true
        options.pagingEnabled = true
        options.scrollEnabled = false
        options.directionalLockEnabled = true
        options.decelerationRate = .fast
        options.minimumZoomScale = 0.5
        options.maximumZoomScale = 4
        options.zoomScale = 2
        options.bouncesZoom = false
        options.delaysContentTouches = false
        options.canCancelContentTouches = false
        options.scrollsToTop = false
        options.showsVerticalScrollIndicator = false
        options.showsHorizontalScrollIndicator = false
        #expect(setup.options == options)
        #expect(setup.buttons == [ButtonSpec(id: "a", frame: CGRect(x: 20, y: 40, width: 200, height: 80))])
        #expect(setup.zoomable)
        #expect(setup.delegate == DelegateConfig(targetContentOffset: CGPoint(x: 0, y: 800), shouldScrollToTop: false))
    }

    @Test("decelerationRate accepts normal, fast and a number")
    func decelerationRates() throws {
        func rate(_ json: String) throws -> DecelerationRateSetting? {
            try parse(#"{"kind":"setup","viewport":{"width":1,"height":1},"content":{"width":1,"height":1},"options":{"decelerationRate":"# + json + "}}").setup.options.decelerationRate
        }
        #expect(try rate(#""normal""#) == .normal)
        #expect(try rate(#""fast""#) == .fast)
        #expect(try rate("0.995") == .custom(0.995))
    }

    @Test("every event kind of the spec becomes the matching input or call")
    func allEventKinds() throws {
        let text = setupLine + """

        {"t":0,   "kind":"touch.down",   "id":0, "x":200, "y":400}
        {"t":8,   "kind":"touch.motion", "id":0, "x":200, "y":380.5}
        {"t":120, "kind":"touch.up",     "id":0}
        {"t":130, "kind":"touch.cancel"}
        {"t":130, "kind":"pointer.motion", "x":10, "y":10}
        {"t":135, "kind":"pointer.button", "button":"left", "state":"pressed"}
        {"t":139, "kind":"pointer.axis", "source":"finger", "dx":0, "dy":12.5}
        {"t":139, "kind":"pointer.axis", "source":"wheel", "dx":0, "dy":15, "value120y":120}
        {"t":139, "kind":"pointer.axis", "source":"wheel_tilt", "dx":-15, "value120x":-120}
        {"t":140, "kind":"pointer.axis_stop", "axis":"vertical"}
        {"t":140, "kind":"pointer.pinch", "phase":"begin", "scale":1, "dx":0, "dy":0}
        {"t":141, "kind":"pointer.pinch", "phase":"update", "scale":1.2, "dx":1, "dy":-1}
        {"t":142, "kind":"pointer.pinch", "phase":"end"}
        {"t":150, "kind":"key", "key":"Page_Down", "state":"pressed", "modifiers":["ctrl","shift"]}
        {"t":151, "kind":"key", "key":"Page_Down", "state":"released"}
        {"t":160, "kind":"call", "method":"setContentOffset", "x":0, "y":500, "animated":true}
        {"t":160, "kind":"call", "method":"scrollRectToVisible", "x":0, "y":900, "width":10, "height":10, "animated":false}
        {"t":160, "kind":"call", "method":"setZoomScale", "scale":2, "animated":true}
        {"t":160, "kind":"call", "method":"zoomToRect", "x":0, "y":0, "width":100, "height":100, "animated":true}
        {"t":160, "kind":"call", "method":"flashScrollIndicators"}
        {"t":160.5, "kind":"call", "method":"scrollToTop"}
        """
        let trace = try parse(text)
        let expected: [TraceEvent] = [
            TraceEvent(time: 0, action: .input(.touchDown(id: 0, location: CGPoint(x: 200, y: 400))), line: 2),
            TraceEvent(time: 8, action: .input(.touchMotion(id: 0, location: CGPoint(x: 200, y: 380.5))), line: 3),
            TraceEvent(time: 120, action: .input(.touchUp(id: 0)), line: 4),
            TraceEvent(time: 130, action: .input(.touchCancel), line: 5),
            TraceEvent(time: 130, action: .input(.pointerMotion(location: CGPoint(x: 10, y: 10))), line: 6),
            TraceEvent(time: 135, action: .input(.pointerButton(button: .left, pressed: true)), line: 7),
            TraceEvent(time: 139, action: .input(.pointerAxis(source: .finger, dx: 0, dy: 12.5, value120X: nil, value120Y: nil)), line: 8),
            TraceEvent(time: 139, action: .input(.pointerAxis(source: .wheel, dx: 0, dy: 15, value120X: nil, value120Y: 120)), line: 9),
            TraceEvent(time: 139, action: .input(.pointerAxis(source: .wheelTilt, dx: -15, dy: 0, value120X: -120, value120Y: nil)), line: 10),
            TraceEvent(time: 140, action: .input(.axisStop(axis: .vertical)), line: 11),
            TraceEvent(time: 140, action: .input(.pinch(phase: .begin, scale: 1, dx: 0, dy: 0)), line: 12),
            TraceEvent(time: 141, action: .input(.pinch(phase: .update, scale: 1.2, dx: 1, dy: -1)), line: 13),
            // An end without `scale` keeps the last cumulative scale.
            TraceEvent(time: 142, action: .input(.pinch(phase: .end, scale: 1.2, dx: 0, dy: 0)), line: 14),
            TraceEvent(time: 150, action: .input(.key(.pageDown, pressed: true), modifiers: [.ctrl, .shift]), line: 15),
            TraceEvent(time: 151, action: .input(.key(.pageDown, pressed: false)), line: 16),
            TraceEvent(time: 160, action: .call(.setContentOffset(CGPoint(x: 0, y: 500), animated: true)), line: 17),
            TraceEvent(time: 160, action: .call(.scrollRectToVisible(CGRect(x: 0, y: 900, width: 10, height: 10), animated: false)), line: 18),
            TraceEvent(time: 160, action: .call(.setZoomScale(2, animated: true)), line: 19),
            TraceEvent(time: 160, action: .call(.zoomToRect(CGRect(x: 0, y: 0, width: 100, height: 100), animated: true)), line: 20),
            TraceEvent(time: 160, action: .call(.flashScrollIndicators), line: 21),
            TraceEvent(time: 160.5, action: .call(.scrollToTop), line: 22),
        ]
        #expect(trace.events == expected)
        #expect(trace.duration == 160.5)
    }

    @Test("pointer.hold, the project's added kind: begin, end and cancel become hold input; other phases are refused")
    func hold() throws {
        let trace = try parse(setupLine + """

        {"t":10, "kind":"pointer.hold", "phase":"begin"}
        {"t":20, "kind":"pointer.hold", "phase":"end"}
        {"t":30, "kind":"pointer.hold", "phase":"cancel"}
        """)
        #expect(trace.events.map(\.action) == [.input(.hold(phase: .begin)), .input(.hold(phase: .end)),
                                                .input(.hold(phase: .cancel))])
        let error = rejection(setupLine + "\n" + #"{"t":10, "kind":"pointer.hold", "phase":"update"}"#)
        #expect(error?.line == 2 && error?.message.contains("phase") == true, "\(String(describing: error))")
    }

    @Test("a replayed pointer.hold begin stops a touchpad glide where it is, as the live one does")
    func holdStopsMomentum() throws {
        var swipe = setupLine
        for i in 0..<8 { swipe += "\n" + #"{"t":\#(10 * i),"kind":"pointer.axis","source":"finger","dx":0,"dy":25}"# }
        swipe += "\n" + #"{"t":80,"kind":"pointer.axis_stop","axis":"vertical"}"#
        let held = swipe + "\n" + #"{"t":300,"kind":"pointer.hold","phase":"begin"}"#
            + "\n" + #"{"t":400,"kind":"pointer.hold","phase":"end"}"#
        func replay(_ text: String) throws -> [Call] { timeline(try Replayer.records(of: try parse(text))) }
        let glide = try replay(swipe), stopped = try replay(held)
        let glideEnd = try #require(glide.last), stoppedEnd = try #require(stopped.last)
        #expect(glideEnd.name == "scrollViewDidEndDecelerating" && glideEnd.time > 1000)
        // Resting fingers catch the glide as a touch does (tap-to-stop): WillBeginDragging at the
        // hold's begin, the content still from then on, and at its end the leftover
        // DidEndDecelerating after a release without velocity.
        let caught = try #require(stopped.first { $0.time == 300 })
        #expect(caught.name == "scrollViewWillBeginDragging" && caught.state.decelerating)
        #expect(stopped.filter { $0.time >= 300 }.map(\.name) == ["scrollViewWillBeginDragging", "scrollViewWillEndDragging",
                                                                "scrollViewDidEndDragging", "scrollViewDidEndDecelerating"])
        #expect(stoppedEnd.name == "scrollViewDidEndDecelerating" && stoppedEnd.time == 400)
        #expect(stoppedEnd.state.offset == caught.state.offset)
        #expect(stoppedEnd.state.offset.y > 200 && stoppedEnd.state.offset.y < glideEnd.state.offset.y - 100)
    }

    @Test("blank lines, comments, CRLF endings and extra event keys are tolerated")
    func tolerated() throws {
        let text = "# recorded on a kiosk\r\n" + setupLine + "\r\n\r\n   \r\n  # indented comment\r\n"
            + #"{"t":5,"kind":"touch.up","id":3,"x":1,"y":2,"note":"extra keys are ignored"}"# + "\r\n"
        let trace = try parse(text)
        #expect(trace.events == [TraceEvent(time: 5, action: .input(.touchUp(id: 3)), line: 6)])
    }

    @Test("unknown touch ids are runtime input, not a parse error")
    func unknownTouchIDs() throws {
        let trace = try parse(setupLine + "\n" + #"{"t":1,"kind":"touch.motion","id":42,"x":1,"y":1}"# + "\n"
                              + #"{"t":2,"kind":"touch.up","id":7}"#)
        #expect(trace.events.count == 2)
    }

    /// A malformed trace, the line the error must name and words the message must contain.
    struct Malformed: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var line: Int?
        var words: [String]
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "bad JSON", text: setupLine + "\n" + #"{"t":1,"kind":"touch.up" "id":0}"#, line: 2,
                  words: ["bad JSON", "column 26", "expected ',' or '}'"]),
        Malformed(name: "truncated JSON", text: setupLine + "\n" + #"{"t":1,"kind":"touch.up","id":"#, line: 2,
                  words: ["bad JSON", "end of line"]),
        Malformed(name: "not an object", text: setupLine + "\n[1,2]", line: 2, words: ["expected a JSON object", "an array"]),
        Malformed(name: "duplicate key", text: setupLine + "\n" + #"{"t":1,"t":2,"kind":"touch.cancel"}"#, line: 2,
                  words: ["duplicate key \"t\""]),
        Malformed(name: "empty trace", text: "\n# only a comment\n", line: nil, words: ["no setup line"]),
        Malformed(name: "missing setup", text: #"{"t":0,"kind":"touch.down","id":0,"x":1,"y":1}"#, line: 1,
                  words: ["expected the setup line", "found kind \"touch.down\""]),
        Malformed(name: "setup not first", text: "# c\n" + #"{"t":0,"kind":"touch.cancel"}"# + "\n" + setupLine, line: 2,
                  words: ["expected the setup line"]),
        Malformed(name: "second setup", text: setupLine + "\n" + setupLine, line: 2, words: ["second setup line", "line 1"]),
        Malformed(name: "missing kind", text: setupLine + "\n" + #"{"t":3}"#, line: 2, words: ["missing field 'kind'"]),
        Malformed(name: "kind not a string", text: setupLine + "\n" + #"{"t":3,"kind":7}"#, line: 2,
                  words: ["'kind' must be a string", "the number 7"]),
        Malformed(name: "unknown kind", text: setupLine + "\n" + #"{"t":3,"kind":"touch.press"}"#, line: 2,
                  words: ["unknown kind \"touch.press\"", "known kinds"]),
        Malformed(name: "decreasing time", text: setupLine + "\n" + #"{"t":100,"kind":"touch.cancel"}"# + "\n"
                  + #"{"t":99.5,"kind":"touch.cancel"}"#, line: 3, words: ["decreases from 100 ms (line 2) to 99.5 ms"]),
        Malformed(name: "negative time", text: setupLine + "\n" + #"{"t":-1,"kind":"touch.cancel"}"#, line: 2,
                  words: ["'t' must not be negative"]),
        Malformed(name: "missing time", text: setupLine + "\n" + #"{"kind":"touch.cancel"}"#, line: 2,
                  words: ["touch.cancel", "missing field 't'"]),
        Malformed(name: "time as a string", text: setupLine + "\n" + #"{"t":"5","kind":"touch.cancel"}"#, line: 2,
                  words: ["'t' must be a number", "the string \"5\""]),
        Malformed(name: "missing coordinate", text: setupLine + "\n" + #"{"t":0,"kind":"touch.down","id":0,"x":1}"#, line: 2,
                  words: ["touch.down", "missing field 'y'"]),
        Malformed(name: "coordinate as a string", text: setupLine + "\n" + #"{"t":0,"kind":"touch.down","id":0,"x":"200","y":1}"#,
                  line: 2, words: ["'x' must be a number", "the string \"200\""]),
        Malformed(name: "boolean for a number", text: setupLine + "\n" + #"{"t":0,"kind":"touch.down","id":0,"x":true,"y":1}"#,
                  line: 2, words: ["'x' must be a number", "the boolean true"]),
        Malformed(name: "fractional touch id", text: setupLine + "\n" + #"{"t":0,"kind":"touch.up","id":0.5}"#, line: 2,
                  words: ["'id' must be an integer"]),
        Malformed(name: "missing touch id", text: setupLine + "\n" + #"{"t":0,"kind":"touch.up"}"#, line: 2,
                  words: ["missing field 'id'"]),
        Malformed(name: "bad button state", text: setupLine + "\n" + #"{"t":0,"kind":"pointer.button","button":"left","state":"down"}"#,
                  line: 2, words: ["'state' must be one of \"pressed\", \"released\""]),
        Malformed(name: "bad axis source", text: setupLine + "\n" + #"{"t":0,"kind":"pointer.axis","source":"trackball","dy":1}"#,
                  line: 2, words: ["'source' must be one of"]),
        Malformed(name: "axis without amounts", text: setupLine + "\n" + #"{"t":0,"kind":"pointer.axis","source":"wheel"}"#,
                  line: 2, words: ["missing field 'dx' or 'dy'"]),
        Malformed(name: "fractional value120", text: setupLine + "\n" + #"{"t":0,"kind":"pointer.axis","source":"wheel","dy":1,"value120y":1.5}"#,
                  line: 2, words: ["'value120y' must be an integer"]),
        Malformed(name: "bad modifier", text: setupLine + "\n" + #"{"t":0,"kind":"key","key":"a","state":"pressed","modifiers":["super"]}"#,
                  line: 2, words: ["'modifiers[0]'", "\"super\""]),
        Malformed(name: "empty key name", text: setupLine + "\n" + #"{"t":0,"kind":"key","key":"","state":"pressed"}"#,
                  line: 2, words: ["keysym name"]),
        Malformed(name: "unknown call method", text: setupLine + "\n" + #"{"t":0,"kind":"call","method":"setContentOfset","x":0,"y":0,"animated":true}"#,
                  line: 2, words: ["unknown method \"setContentOfset\"", "did you mean 'setContentOffset'"]),
        Malformed(name: "call without animated", text: setupLine + "\n" + #"{"t":0,"kind":"call","method":"setContentOffset","x":0,"y":0}"#,
                  line: 2, words: ["missing field 'animated'"]),
        Malformed(name: "negative rect size", text: setupLine + "\n" + #"{"t":0,"kind":"call","method":"scrollRectToVisible","x":0,"y":0,"width":-1,"height":1,"animated":false}"#,
                  line: 2, words: ["'width' must not be negative"]),
        Malformed(name: "missing viewport", text: #"{"kind":"setup","content":{"width":400,"height":3000}}"#, line: 1,
                  words: ["setup", "missing field 'viewport'"]),
        Malformed(name: "zero viewport", text: #"{"kind":"setup","viewport":{"width":0,"height":600},"content":{"width":400,"height":3000}}"#,
                  line: 1, words: ["'viewport.width' must be greater than 0 and at most 16384 points, found 0"]),
        Malformed(name: "negative content", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":-3}}"#,
                  line: 1, words: ["'content.height' must be greater than 0"]),
        Malformed(name: "huge viewport", text: #"{"kind":"setup","viewport":{"width":100000,"height":600},"content":{"width":400,"height":3000}}"#,
                  line: 1, words: ["'viewport.width'", "at most 16384 points", "found 100000"]),
        Malformed(name: "huge content", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":1e300}}"#,
                  line: 1, words: ["'content.height'", "at most 1000000 points"]),
        Malformed(name: "number overflow", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":1e999}}"#,
                  line: 1, words: ["bad JSON", "out of range"]),
        Malformed(name: "NaN", text: #"{"kind":"setup","viewport":{"width":NaN,"height":600},"content":{"width":400,"height":3000}}"#,
                  line: 1, words: ["bad JSON", "column 37"]),
        Malformed(name: "viewport as an array", text: #"{"kind":"setup","viewport":[400,600],"content":{"width":400,"height":3000}}"#,
                  line: 1, words: ["'viewport' must be an object", "an array"]),
        Malformed(name: "frame rate zero", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"frameRate":0}"#,
                  line: 1, words: ["'frameRate' must be in 1...1000 frames per second, found 0"]),
        Malformed(name: "frame rate huge", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"frameRate":5000}"#,
                  line: 1, words: ["'frameRate'", "found 5000"]),
        Malformed(name: "unknown option", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"options":{"pagingEnable":true}}"#,
                  line: 1, words: ["unknown option 'pagingEnable' in 'options'", "did you mean 'pagingEnabled'"]),
        Malformed(name: "option with the is prefix", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"options":{"isPagingEnabled":true}}"#,
                  line: 1, words: ["unknown option 'isPagingEnabled'"]),
        Malformed(name: "option of the wrong type", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"options":{"bounces":"no"}}"#,
                  line: 1, words: ["'options.bounces' must be true or false", "the string \"no\""]),
        Malformed(name: "deceleration rate out of range", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"options":{"decelerationRate":1.5}}"#,
                  line: 1, words: ["'options.decelerationRate' must be between 0 and 1"]),
        Malformed(name: "deceleration rate name", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"options":{"decelerationRate":"slow"}}"#,
                  line: 1, words: ["'options.decelerationRate' must be \"normal\", \"fast\" or a number"]),
        Malformed(name: "inset missing an edge", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"options":{"contentInset":{"top":1,"left":0,"bottom":0}}}"#,
                  line: 1, words: ["missing field 'options.contentInset.right'"]),
        Malformed(name: "zoom range inverted", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"options":{"minimumZoomScale":4,"maximumZoomScale":2}}"#,
                  line: 1, words: ["'options.minimumZoomScale' (4) is greater than 'options.maximumZoomScale' (2)"]),
        Malformed(name: "unknown setup key", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"framerate":30}"#,
                  line: 1, words: ["unknown key 'framerate'", "did you mean 'frameRate'"]),
        Malformed(name: "unknown delegate key", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"delegate":{"shouldScrollTop":false}}"#,
                  line: 1, words: ["unknown key 'shouldScrollTop' in 'delegate'"]),
        Malformed(name: "duplicate button id", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"buttons":[{"id":"a","x":0,"y":0,"width":10,"height":10},{"id":"a","x":0,"y":20,"width":10,"height":10}]}"#,
                  line: 1, words: ["'buttons[1].id' \"a\" is used by an earlier button"]),
        Malformed(name: "zero-sized button", text: #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"buttons":[{"id":"a","x":0,"y":0,"width":0,"height":10}]}"#,
                  line: 1, words: ["'buttons[0].width' must be greater than 0"]),
        Malformed(name: "coordinate beyond the limit", text: setupLine + "\n" + #"{"t":0,"kind":"touch.down","id":0,"x":5e6,"y":1}"#,
                  line: 2, words: ["'x' is 5000000, beyond the limit of ±1000000 points"]),
        Malformed(name: "time beyond a day", text: setupLine + "\n" + #"{"t":86400001,"kind":"touch.cancel"}"#, line: 2,
                  words: ["beyond the limit of 86400000 ms"]),
        Malformed(name: "pinch scale zero", text: setupLine + "\n" + #"{"t":0,"kind":"pointer.pinch","phase":"begin","scale":0}"#,
                  line: 2, words: ["'scale' must be in 0.001...1000"]),
        Malformed(name: "deep nesting", text: setupLine + "\n{\"t\":0,\"kind\":\"touch.cancel\",\"x\":" + String(repeating: "[", count: 100)
                  + String(repeating: "]", count: 100) + "}", line: 2, words: ["nesting deeper than 32"]),
    ]

    @Test("malformed traces are refused, naming the line and the problem", arguments: malformed)
    func refused(_ case_: Malformed) throws {
        var text = case_.text
        text += "\n"
        let error = try #require(rejection(text))
        #expect(error.file == "test.jsonl")
        #expect(error.line == case_.line)
        for word in case_.words {
            #expect(error.message.contains(word), "message \"\(error.message)\" lacks \"\(word)\"")
        }
        if let line = case_.line {
            #expect(error.description.hasPrefix("test.jsonl:\(line): "))
        }
    }

    @Test("a line that is not UTF-8 is refused")
    func invalidUTF8() {
        // Swift strings cannot hold invalid UTF-8: build the bytes with a stray 0xFF line.
        let bytes = Array(setupLine.utf8) + [0x0A, 0xFF, 0x0A]
        #expect(throws: TraceError(file: "test.jsonl", line: 2, message: "line is not valid UTF-8")) {
            try TraceParser().parse(bytes: bytes, file: "test.jsonl")
        }
    }

    @Test("size limits refuse long traces before replaying anything")
    func sizeLimits() throws {
        var limits = TraceLimits.standard
        limits.maxEvents = 2
        let threeEvents = setupLine + "\n" + String(repeating: #"{"t":1,"kind":"touch.cancel"}"# + "\n", count: 3)
        let tooMany = try #require(rejection(threeEvents, limits: limits))
        #expect(tooMany.line == 4)
        #expect(tooMany.message.contains("more than 2 events"))

        limits = .standard
        limits.maxLineBytes = 100
        let longLine = try #require(rejection(setupLine + "\n{\"t\":1,\"kind\":\"touch.cancel\",\"pad\":\"" + String(repeating: "x", count: 200) + "\"}", limits: limits))
        #expect(longLine.line == 2)
        #expect(longLine.message.contains("more than the limit of 100"))

        limits = .standard
        limits.maxFileBytes = 50
        let bigFile = try #require(rejection(setupLine, limits: limits))
        #expect(bigFile.line == nil)
        #expect(bigFile.message.contains("more than the limit of 50 bytes"))
    }

    @Test("a file is refused by its size before it is read, and missing files are named")
    func files() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replay-parser-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("big.jsonl").path
        try Data(setupLine.utf8).write(to: URL(fileURLWithPath: path))
        var limits = TraceLimits.standard
        limits.maxFileBytes = 10
        #expect(throws: TraceError(file: path, line: nil, message: "the file is \(setupLine.utf8.count) bytes, more than the limit of 10 bytes")) {
            try TraceParser(limits: limits).parse(fileAt: path)
        }
        let trace = try TraceParser().parse(fileAt: path)
        #expect(trace.setup.viewport == CGSize(width: 400, height: 600))
        let missing = folder.appendingPathComponent("missing.jsonl").path
        #expect(throws: TraceError(file: missing, line: nil, message: "no such file")) {
            try TraceParser().parse(fileAt: missing)
        }
    }
}
