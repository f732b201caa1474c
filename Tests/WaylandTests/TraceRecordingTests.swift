// Recording live input as a trace: the setup line describing the scroll view, one line per
// event in the format's spelling, times relative to the first event, and the file itself.
import Foundation
import ScrollKit
import Testing
import TraceFormat
@testable import Wayland

/// Reads a trace event line back as the format defines it (docs/trace-format.md), so every
/// written line is checked against the spec's field names rather than against itself.
private func decode(_ line: String) throws -> (t: Double, kind: InputEvent.Kind, modifiers: InputEvent.Modifiers) {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let t = try #require(object["t"] as? Double)
    let kind = try #require(object["kind"] as? String)
    func number(_ key: String) -> CGFloat { CGFloat(object[key] as? Double ?? 0) }
    func point() -> CGPoint { CGPoint(x: number("x"), y: number("y")) }
    let pressed = (object["state"] as? String) == "pressed"
    switch kind {
    case "touch.down": return (t, .touchDown(id: object["id"] as! Int, location: point()), [])
    case "touch.motion": return (t, .touchMotion(id: object["id"] as! Int, location: point()), [])
    case "touch.up": return (t, .touchUp(id: object["id"] as! Int), [])
    case "touch.cancel": return (t, .touchCancel, [])
    case "pointer.motion": return (t, .pointerMotion(location: point()), [])
    case "pointer.button":
        return (t, .pointerButton(button: InputEvent.Button(rawValue: object["button"] as! String)!, pressed: pressed), [])
    case "pointer.axis":
        let sources: [String: InputEvent.AxisSource] = ["wheel": .wheel, "finger": .finger, "continuous": .continuous,
                                                        "wheel_tilt": .wheelTilt]
        return (t, .pointerAxis(source: sources[object["source"] as! String]!, dx: number("dx"), dy: number("dy"),
                                value120X: object["value120x"] as? Int, value120Y: object["value120y"] as? Int), [])
    case "pointer.axis_stop": return (t, .axisStop(axis: InputEvent.Axis(rawValue: object["axis"] as! String)!), [])
    case "pointer.pinch":
        return (t, .pinch(phase: InputEvent.Phase(rawValue: object["phase"] as! String)!, scale: number("scale"),
                          dx: number("dx"), dy: number("dy")), [])
    case "key":
        let names: [String: InputEvent.Modifiers] = ["shift": .shift, "ctrl": .ctrl, "alt": .alt, "logo": .logo]
        var modifiers: InputEvent.Modifiers = []
        for name in object["modifiers"] as? [String] ?? [] { modifiers.insert(try #require(names[name])) }
        return (t, .key(Key(keysymName: object["key"] as! String), pressed: pressed), modifiers)
    default:
        Issue.record("unknown kind \(kind)")
        return (t, .touchCancel, [])
    }
}

/// A zooming scroll view with every option the trace format sets changed from UIKit's default;
/// it is its own zoom delegate, so it keeps the zooming view alive.
private final class EveryOptionChanged: ScrollViewDelegate {
    let scrollView = ScrollView()
    let zoomingView = View(frame: CGRect(x: 0, y: 0, width: 1000, height: 700.5))

    init() {
        scrollView.delegate = self
        scrollView.addSubview(zoomingView)
        scrollView.contentSize = zoomingView.bounds.size
        scrollView.frame = CGRect(x: 10, y: 20, width: 400, height: 300)
        scrollView.maximumZoomScale = 4
        scrollView.minimumZoomScale = 0.25
        scrollView.zoomScale = 1.5
        scrollView.bouncesZoom.toggle()
        scrollView.contentInset = EdgeInsets(top: 10, left: 0, bottom: 20.5, right: 0)
        scrollView.contentOffset = CGPoint(x: 30.25, y: 40)
        scrollView.bounces.toggle()
        scrollView.alwaysBounceVertical.toggle()
        scrollView.alwaysBounceHorizontal.toggle()
        scrollView.isPagingEnabled.toggle()
        scrollView.isScrollEnabled.toggle()
        scrollView.isDirectionalLockEnabled.toggle()
        scrollView.decelerationRate = ScrollView.DecelerationRate(rawValue: 0.995)
        scrollView.delaysContentTouches.toggle()
        scrollView.canCancelContentTouches.toggle()
        scrollView.scrollsToTop.toggle()
        scrollView.showsVerticalScrollIndicator.toggle()
        scrollView.showsHorizontalScrollIndicator.toggle()
    }

    func viewForZooming(in scrollView: ScrollView) -> View? { zoomingView }
}

@Suite("Trace recording")
struct TraceRecordingTests {
    /// One event of every kind the format can express, at times from 5000 ms on.
    static let session: [InputEvent] = [
        InputEvent(time: 5000, kind: .pointerMotion(location: CGPoint(x: 10.25, y: 20.00390625))),
        InputEvent(time: 5004, kind: .pointerButton(button: .left, pressed: true)),
        InputEvent(time: 5010, kind: .pointerButton(button: .left, pressed: false)),
        InputEvent(time: 5016, kind: .pointerAxis(source: .wheel, dx: 0, dy: 15, value120X: nil, value120Y: 120)),
        InputEvent(time: 5020, kind: .pointerAxis(source: .wheelTilt, dx: -7.5, dy: 0, value120X: -60, value120Y: nil)),
        InputEvent(time: 5030, kind: .pointerAxis(source: .finger, dx: 0, dy: 12.5, value120X: nil, value120Y: nil)),
        InputEvent(time: 5031, kind: .pointerAxis(source: .continuous, dx: 1, dy: -1, value120X: nil, value120Y: nil)),
        InputEvent(time: 5040, kind: .axisStop(axis: .vertical)),
        InputEvent(time: 5050, kind: .pinch(phase: .begin, scale: 1, dx: 0, dy: 0)),
        InputEvent(time: 5060, kind: .pinch(phase: .update, scale: 1.5, dx: 2, dy: -3)),
        InputEvent(time: 5070, kind: .pinch(phase: .end, scale: 1.5, dx: 0, dy: 0)),
        InputEvent(time: 5080, kind: .touchDown(id: 0, location: CGPoint(x: 200, y: 400))),
        InputEvent(time: 5088, kind: .touchMotion(id: 0, location: CGPoint(x: 200, y: 380))),
        InputEvent(time: 5096, kind: .touchUp(id: 0)),
        InputEvent(time: 5100, kind: .touchCancel),
        InputEvent(time: 5110, kind: .key(Key(keysymName: "Next"), pressed: true), modifiers: [.ctrl, .shift]),
        InputEvent(time: 5143.333333, kind: .key(Key(keysymName: "Next"), pressed: true), modifiers: []),
        InputEvent(time: 5150, kind: .key(Key(keysymName: "Next"), pressed: false), modifiers: []),
    ]

    @Test("Every event line reads back, by the spec's field names, as the event it came from")
    func roundTrip() throws {
        var formatter = TraceLineFormatter()
        for event in Self.session {
            let line = formatter.line(for: event)
            #expect(line.hasPrefix(#"{"kind":""#), "kind first: \(line)")
            let (t, kind, modifiers) = try decode(line)
            #expect(abs(t - (event.time - 5000)) < 0.001)
            #expect(kind == event.kind, "\(line)")
            #expect(modifiers == event.modifiers, "\(line)")
        }
    }

    @Test("Lines are spelled as the trace format's examples")
    func exactLines() {
        var f = TraceLineFormatter()
        let lines = Self.session.map { f.line(for: $0) }
        #expect(lines[0] == #"{"kind":"pointer.motion","t":0,"x":10.25,"y":20.00390625}"#)
        #expect(lines[1] == #"{"kind":"pointer.button","t":4,"button":"left","state":"pressed"}"#)
        #expect(lines[3] == #"{"kind":"pointer.axis","t":16,"source":"wheel","dx":0,"dy":15,"value120y":120}"#)
        #expect(lines[4] == #"{"kind":"pointer.axis","t":20,"source":"wheel_tilt","dx":-7.5,"dy":0,"value120x":-60}"#)
        #expect(lines[7] == #"{"kind":"pointer.axis_stop","t":40,"axis":"vertical"}"#)
        #expect(lines[9] == #"{"kind":"pointer.pinch","t":60,"phase":"update","scale":1.5,"dx":2,"dy":-3}"#)
        #expect(lines[11] == #"{"kind":"touch.down","t":80,"id":0,"x":200,"y":400}"#)
        #expect(lines[13] == #"{"kind":"touch.up","t":96,"id":0}"#)
        #expect(lines[14] == #"{"kind":"touch.cancel","t":100}"#)
        #expect(lines[15] == #"{"kind":"key","t":110,"key":"Next","state":"pressed","modifiers":["shift","ctrl"]}"#)
        #expect(lines[16] == #"{"kind":"key","t":143.333,"key":"Next","state":"pressed"}"#)
    }

    @Test("Positions are relative to the scroll view's origin; enter is a motion")
    func origin() {
        var f = TraceLineFormatter(origin: CGPoint(x: 100, y: 50))
        #expect(f.line(for: InputEvent(time: 0, kind: .pointerEnter(location: CGPoint(x: 130, y: 60))))
            == #"{"kind":"pointer.motion","t":0,"x":30,"y":10}"#)
        // The enter (untimed) does not start the clock; the first timed event is t = 0.
        #expect(f.line(for: InputEvent(time: 1, kind: .touchDown(id: 3, location: CGPoint(x: 100, y: 50))))
            == #"{"kind":"touch.down","t":0,"id":3,"x":0,"y":0}"#)
    }

    @Test("Times never go back; untimed events (enter, leave) take the previous event's time, so a late arrival stamp cannot squeeze a swipe")
    func monotonicTimes() {
        var f = TraceLineFormatter()
        #expect(f.line(for: InputEvent(time: 1000, kind: .touchDown(id: 0, location: .zero))).contains(#""t":0,"#))
        #expect(f.line(for: InputEvent(time: 1010, kind: .touchMotion(id: 0, location: .zero))).contains(#""t":10,"#))
        // Stamped on arrival, 40 ms after the touch events handled around it (a loaded machine).
        #expect(f.line(for: InputEvent(time: 1050, kind: .pointerEnter(location: .zero)))
                == #"{"kind":"pointer.motion","t":10,"x":0,"y":0}"#)
        #expect(f.line(for: InputEvent(time: 1020, kind: .touchMotion(id: 0, location: .zero))).contains(#""t":20,"#))
        #expect(f.line(for: InputEvent(time: 1100, kind: .pointerLeave)) == "# t=20 pointer.leave")
        #expect(f.line(for: InputEvent(time: 1030, kind: .touchMotion(id: 0, location: .zero))).contains(#""t":30,"#))
        // Another device's clock a little behind: held at the last time, never earlier.
        let behind = f.line(for: InputEvent(time: 1025, kind: .pointerMotion(location: .zero)))
        #expect(behind == #"{"kind":"pointer.motion","t":30,"x":0,"y":0}"#)
        let nan = f.line(for: InputEvent(time: .nan, kind: .touchCancel))
        #expect(nan == #"{"kind":"touch.cancel","t":30}"#)

        // An enter first does not start the trace's clock: the device-timed events do.
        var g = TraceLineFormatter()
        #expect(g.line(for: InputEvent(time: 5000, kind: .pointerEnter(location: .zero))).contains(#""t":0,"#))
        #expect(g.line(for: InputEvent(time: 4990, kind: .touchDown(id: 0, location: .zero))).contains(#""t":0,"#))
        #expect(g.line(for: InputEvent(time: 5000, kind: .touchMotion(id: 0, location: .zero))).contains(#""t":10,"#))
    }

    @Test("What the format cannot express is kept as comments, which scroll-replay skips")
    func comments() {
        var f = TraceLineFormatter()
        #expect(f.line(for: InputEvent(time: 0, kind: .pointerLeave)) == "# t=0 pointer.leave")
        #expect(f.line(for: InputEvent(time: 5, kind: .hold(phase: .begin))) == #"{"kind":"pointer.hold","t":0,"phase":"begin"}"#)
        let odd = f.line(for: InputEvent(time: 6, kind: .key(Key(keysymName: "a\"b\nc"), pressed: true)))
        #expect(odd.hasPrefix("# ") && !odd.contains("\n"))
        // For readers that know only the format's original kinds, holds can stay comments.
        f.writesHoldEvents = false
        #expect(f.line(for: InputEvent(time: 7, kind: .hold(phase: .end))) == #"# {"kind":"pointer.hold","t":2,"phase":"end"}"#)
    }

    @Test("Numbers: integers plain, wl_fixed fractions exact, non-finite values never written")
    func numbers() {
        #expect(TraceLineFormatter.number(15) == "15")
        #expect(TraceLineFormatter.number(-0.0) == "0")
        #expect(TraceLineFormatter.number(1.0 / 256) == "0.00390625")
        #expect(TraceLineFormatter.number(.infinity) == "0")
        #expect(TraceLineFormatter.number(1e20) == "1e+20")
        #expect(TraceLineFormatter.string("a\"\\\u{1}") == #""a\"\\\u0001""#)
    }

    @Test("The setup line describes the scroll view: sizes, start offset and options that differ from UIKit's")
    func setupFromScrollView() {
        let scrollView = ScrollView()
        scrollView.frame = CGRect(x: 0, y: 0, width: 800, height: 600)
        scrollView.contentSize = CGSize(width: 10_000, height: 10_000)
        scrollView.contentOffset = CGPoint(x: 0, y: 300)
        scrollView.isPagingEnabled = true
        scrollView.decelerationRate = .fast
        scrollView.showsHorizontalScrollIndicator = false
        let setup = TraceSetupDescription(describing: scrollView)
        #expect(setup.viewport == CGSize(width: 800, height: 600))
        #expect(TraceLineFormatter.setupLine(setup, viewport: setup.viewport!) == """
            {"kind":"setup","viewport":{"width":800,"height":600},"content":{"width":10000,"height":10000},\
            "frameRate":60,"options":{"contentOffset":{"x":0,"y":300},"pagingEnabled":true,"decelerationRate":"fast",\
            "showsHorizontalScrollIndicator":false}}
            """)
    }

    @Test("A zooming scroll view is described as zoomable, with its unscaled content and zoom options")
    func setupZoomable() {
        final class Zoom: ScrollViewDelegate {
            let view = View(frame: CGRect(x: 0, y: 0, width: 1200, height: 900))
            func viewForZooming(in scrollView: ScrollView) -> View? { view }
        }
        let zoom = Zoom()
        let scrollView = ScrollView()
        scrollView.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        scrollView.addSubview(zoom.view)
        scrollView.contentSize = zoom.view.frame.size
        scrollView.delegate = zoom
        scrollView.minimumZoomScale = 0.25
        scrollView.maximumZoomScale = 4
        scrollView.zoomScale = 2
        let setup = TraceSetupDescription(describing: scrollView)
        #expect(setup.zoomable)
        #expect(setup.content == CGSize(width: 1200, height: 900), "the zoom view's own size, not the scaled content")
        let line = TraceLineFormatter.setupLine(setup, viewport: setup.viewport!)
        #expect(line.contains(#""minimumZoomScale":0.25,"maximumZoomScale":4,"zoomScale":2"#), "\(line)")
        #expect(line.hasSuffix(#","zoomable":true}"#), "\(line)")
    }

    @Test("A default scroll view writes no options at all")
    func setupDefaults() {
        let setup = TraceSetupDescription(content: CGSize(width: 400, height: 3000))
        #expect(TraceLineFormatter.setupLine(setup, viewport: CGSize(width: 400, height: 600))
            == #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"frameRate":60}"#)
    }

    /// One value per option the format defines, none of them UIKit's default, with fractions
    /// that only an exact spelling keeps (1/3, 0.1); the rate in each of its three spellings.
    static let optionValues: [(name: String, set: @Sendable (inout ScrollOptions) -> Void)] = [
        ("contentOffset", { $0.contentOffset = CGPoint(x: 0.1, y: 1.0 / 3) }),
        ("contentInset", { $0.contentInset = EdgeInsets(top: 1.5, left: -2, bottom: 1.0 / 3, right: 4) }),
        ("bounces", { $0.bounces = false }),
        ("alwaysBounceVertical", { $0.alwaysBounceVertical = true }),
        ("alwaysBounceHorizontal", { $0.alwaysBounceHorizontal = true }),
        ("pagingEnabled", { $0.pagingEnabled = true }),
        ("scrollEnabled", { $0.scrollEnabled = false }),
        ("directionalLockEnabled", { $0.directionalLockEnabled = true }),
        ("decelerationRate", { $0.decelerationRate = .fast }),
        ("decelerationRate", { $0.decelerationRate = .normal }),
        ("decelerationRate", { $0.decelerationRate = .custom(0.9953) }),
        ("minimumZoomScale", { $0.minimumZoomScale = 0.1 }),
        ("maximumZoomScale", { $0.maximumZoomScale = 7.0 / 3 }),
        ("zoomScale", { $0.zoomScale = 1.0 / 3 }),
        ("bouncesZoom", { $0.bouncesZoom = false }),
        ("delaysContentTouches", { $0.delaysContentTouches = false }),
        ("canCancelContentTouches", { $0.canCancelContentTouches = false }),
        ("scrollsToTop", { $0.scrollsToTop = false }),
        ("showsVerticalScrollIndicator", { $0.showsVerticalScrollIndicator = false }),
        ("showsHorizontalScrollIndicator", { $0.showsHorizontalScrollIndicator = false }),
    ]

    @Test("A recording's setup line parses back to the setup it describes, for every option alone and all together")
    func setupRoundTrip() throws {
        #expect(Set(Self.optionValues.map(\.name)) == Set(TraceParser.optionNames), "a value for every option the parser reads")
        var all = TraceSetupDescription(content: CGSize(width: 1200.5, height: 900), origin: CGPoint(x: 3, y: 4),
                                        frameRate: 144, zoomable: true)
        for (name, set) in Self.optionValues {
            var one = TraceSetupDescription(content: CGSize(width: 400, height: 3000))
            set(&one.options)
            set(&all.options)
            let line = TraceLineFormatter.setupLine(one, viewport: CGSize(width: 400, height: 600))
            #expect(line.contains(#"{"\#(name)":"#), "written: \(line)")
            var expected = one.setup
            expected.viewport = CGSize(width: 400, height: 600)
            #expect(try TraceParser().parse(line).setup == expected, "\(name): \(line)")
        }
        let line = TraceLineFormatter.setupLine(all, viewport: CGSize(width: 320.25, height: 480))
        var expected = all.setup
        expected.viewport = CGSize(width: 320.25, height: 480)
        #expect(try TraceParser().parse(line).setup == expected, "\(line)")
    }

    @Test("A scroll view with every option changed is described, written and read back unchanged")
    func describedRoundTrip() throws {
        let changed = EveryOptionChanged()
        let scrollView = changed.scrollView
        let described = TraceSetupDescription(describing: scrollView)
        let line = TraceLineFormatter.setupLine(described, viewport: described.viewport!)
        for name in TraceParser.optionNames {
            #expect(line.contains(#""\#(name)":"#), "\(name) differs from UIKit's default, so it is written: \(line)")
        }
        #expect(try TraceParser().parse(line).setup == described.setup, "\(line)")
    }

    @Test("Any setup line written, buttons and delegate answers included, parses back to the same setup")
    func wholeSetupRoundTrip() throws {
        var setup = TraceSetup(viewport: CGSize(width: 320, height: 480), content: CGSize(width: 640, height: 960.5),
                               frameRate: 120, zoomable: true,
                               delegate: DelegateConfig(targetContentOffset: CGPoint(x: 0, y: 800.125), shouldScrollToTop: false))
        setup.buttons = [ButtonSpec(id: "a \"quoted\" id", frame: CGRect(x: 20, y: 40.5, width: 200, height: 80)),
                         ButtonSpec(id: "b", frame: CGRect(x: 0, y: 0, width: 1, height: 1))]
        setup.options.pagingEnabled = true
        let line = TraceLineFormatter.setupLine(setup)
        #expect(line == """
            {"kind":"setup","viewport":{"width":320,"height":480},"content":{"width":640,"height":960.5},"frameRate":120,\
            "options":{"pagingEnabled":true},"buttons":[{"id":"a \\"quoted\\" id","x":20,"y":40.5,"width":200,"height":80},\
            {"id":"b","x":0,"y":0,"width":1,"height":1}],"zoomable":true,\
            "delegate":{"targetContentOffset":{"x":0,"y":800.125},"shouldScrollToTop":false}}
            """)
        #expect(try TraceParser().parse(line).setup == setup)
    }

    @Test("The recorder writes a comment, the setup when the first event comes, then one line per event")
    func recorderFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        var described = 0
        let recorder = try InputRecorder(path: path, setup: {
            described += 1
            return TraceSetupDescription(content: CGSize(width: 400, height: 3000))
        }, windowSize: { CGSize(width: 400, height: 600) })
        #expect(described == 0, "the scroll view is described when input starts, after layout")
        recorder.record(InputEvent(time: 100, kind: .touchDown(id: 0, location: CGPoint(x: 1, y: 2))))
        recorder.record(InputEvent(time: 108, kind: .touchUp(id: 0)))
        // Two fingers in one wl_touch.frame: one frame number, so a replay delivers them together.
        recorder.record(frame: [InputEvent(time: 116, kind: .touchDown(id: 1, location: CGPoint(x: 5, y: 6))),
                                InputEvent(time: 116, kind: .touchDown(id: 2, location: CGPoint(x: 7, y: 8)))])
        recorder.finish()
        #expect(described == 2, "described when input starts and again for the end comment")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines[0].hasPrefix("# ScrollKit input recording"))
        #expect(lines[1] == #"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":3000},"frameRate":60}"#)
        // Each line says which input frame it arrived in (the project's `frame` key).
        #expect(lines[2] == #"{"kind":"touch.down","t":0,"id":0,"x":1,"y":2,"frame":1}"#)
        #expect(lines[3] == #"{"kind":"touch.up","t":8,"id":0,"frame":2}"#)
        #expect(lines[4] == #"{"kind":"touch.down","t":16,"id":1,"x":5,"y":6,"frame":3}"#)
        #expect(lines[5] == #"{"kind":"touch.down","t":16,"id":2,"x":7,"y":8,"frame":3}"#)
        #expect(lines[6] == #"# live end: {"offset":{"x":0,"y":0},"zoomScale":1}"#)
        #expect(recorder.linesWritten == 7)
        let trace = try TraceParser().parse(lines.joined(separator: "\n"))
        #expect(trace.events.map(\.frame) == [1, 2, 3, 3])
    }

    @Test("A session without input still leaves a valid trace: the setup line")
    func emptySession() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        let recorder = try InputRecorder(path: path, setup: { TraceSetupDescription(content: CGSize(width: 10, height: 10)) },
                                         windowSize: { CGSize(width: 10, height: 10) })
        recorder.finish()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.dropFirst() == [#"{"kind":"setup","viewport":{"width":10,"height":10},"content":{"width":10,"height":10},"frameRate":60}"#,
                                      #"# live end: {"offset":{"x":0,"y":0},"zoomScale":1}"#])
    }

    @Test("The end comment says where the scroll view rests, and replays ignore it")
    func endComment() throws {
        var state = TraceSetupDescription(content: CGSize(width: 100, height: 100))
        state.contentOffset = CGPoint(x: 12.5, y: -3)
        state.zoomScale = 2.25
        #expect(TraceLineFormatter.endComment(state) == #"# live end: {"offset":{"x":12.5,"y":-3},"zoomScale":2.25}"#)
    }

    @Test("A file that cannot be created is an error naming the path and the reason")
    func unwritable() {
        let path = "/nonexistent-\(getpid())/session.trace"
        #expect(throws: RecordingError.cannotOpen(path: path, reason: "No such file or directory")) {
            try InputRecorder(path: path, setup: { TraceSetupDescription(content: .zero) }, windowSize: { .zero })
        }
        #expect(RecordingError.cannotOpen(path: path, reason: "No such file or directory").description
            == "--record: cannot create the trace file \(path): No such file or directory")
    }
}
