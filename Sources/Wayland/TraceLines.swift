// The trace format's lines (spec/trace-format.md) written from live input: the setup line
// describing the scroll view and one line per InputEvent; pure, so every line is testable.
import Foundation
import ScrollKit

/// What a recording's setup line says about the scroll view that received the input.
///
/// Values follow the trace format: sizes and coordinates in points, option names as UIKit's
/// Swift properties without `is`. Options left nil are not written (the replay keeps UIKit's
/// defaults for them).
public struct TraceSetupDescription: Equatable, Sendable {
    /// The scroll view's frame size in points; nil uses the window's size.
    public var viewport: CGSize?
    /// `contentSize` in points; for a zoomable view, the zooming view's unscaled size.
    public var content: CGSize
    /// The scroll view's frame origin in window points: subtracted from every position so
    /// the trace's coordinates are relative to the scroll view, as the format requires.
    public var origin: CGPoint
    /// The display's refresh rate for the replay, in frames per second.
    public var frameRate: Double
    /// Whether the replay gives the scroll view a zooming content view filling `content`.
    public var zoomable: Bool
    /// `contentOffset` at the start, in points.
    public var contentOffset: CGPoint?
    /// `contentInset`, in points.
    public var contentInset: EdgeInsets?
    /// `bounces`.
    public var bounces: Bool?
    /// `alwaysBounceVertical`.
    public var alwaysBounceVertical: Bool?
    /// `alwaysBounceHorizontal`.
    public var alwaysBounceHorizontal: Bool?
    /// `isPagingEnabled`.
    public var pagingEnabled: Bool?
    /// `isScrollEnabled`.
    public var scrollEnabled: Bool?
    /// `isDirectionalLockEnabled`.
    public var directionalLockEnabled: Bool?
    /// `decelerationRate`, fraction of velocity kept per millisecond.
    public var decelerationRate: Double?
    /// `minimumZoomScale` (scale factor).
    public var minimumZoomScale: Double?
    /// `maximumZoomScale` (scale factor).
    public var maximumZoomScale: Double?
    /// `zoomScale` at the start (scale factor).
    public var zoomScale: Double?
    /// `bouncesZoom`.
    public var bouncesZoom: Bool?
    /// `delaysContentTouches`.
    public var delaysContentTouches: Bool?
    /// `canCancelContentTouches`.
    public var canCancelContentTouches: Bool?
    /// `scrollsToTop`.
    public var scrollsToTop: Bool?
    /// `showsVerticalScrollIndicator`.
    public var showsVerticalScrollIndicator: Bool?
    /// `showsHorizontalScrollIndicator`.
    public var showsHorizontalScrollIndicator: Bool?

    /// A description with only sizes; every option at UIKit's default.
    public init(content: CGSize, viewport: CGSize? = nil, origin: CGPoint = .zero, frameRate: Double = 60,
                zoomable: Bool = false) {
        self.content = content
        self.viewport = viewport
        self.origin = origin
        self.frameRate = frameRate
        self.zoomable = zoomable
    }

    /// Describes `scrollView` as it is now: its frame, content, offset and every option that
    /// differs from UIKit's default. The origin is the frame's, in the superview's space:
    /// `ViewScene` hands window positions to the scroll view as superview positions, so that
    /// is what the scroll view saw.
    public init(describing scrollView: ScrollView, frameRate: Double = 60) {
        let zoomView = scrollView.canZoom ? scrollView.zoomingView : nil
        self.init(content: zoomView?.bounds.size ?? scrollView.contentSize, viewport: scrollView.frame.size,
                  origin: scrollView.frame.origin,
                  frameRate: frameRate, zoomable: zoomView != nil)
        let defaults = ScrollView()
        func differs<T: Equatable>(_ value: T, _ standard: T) -> T? { value == standard ? nil : value }
        contentOffset = differs(scrollView.contentOffset, .zero)
        contentInset = differs(scrollView.contentInset, .zero)
        bounces = differs(scrollView.bounces, defaults.bounces)
        alwaysBounceVertical = differs(scrollView.alwaysBounceVertical, defaults.alwaysBounceVertical)
        alwaysBounceHorizontal = differs(scrollView.alwaysBounceHorizontal, defaults.alwaysBounceHorizontal)
        pagingEnabled = differs(scrollView.isPagingEnabled, defaults.isPagingEnabled)
        scrollEnabled = differs(scrollView.isScrollEnabled, defaults.isScrollEnabled)
        directionalLockEnabled = differs(scrollView.isDirectionalLockEnabled, defaults.isDirectionalLockEnabled)
        decelerationRate = differs(Double(scrollView.decelerationRate.rawValue), Double(defaults.decelerationRate.rawValue))
        delaysContentTouches = differs(scrollView.delaysContentTouches, defaults.delaysContentTouches)
        canCancelContentTouches = differs(scrollView.canCancelContentTouches, defaults.canCancelContentTouches)
        scrollsToTop = differs(scrollView.scrollsToTop, defaults.scrollsToTop)
        showsVerticalScrollIndicator = differs(scrollView.showsVerticalScrollIndicator, defaults.showsVerticalScrollIndicator)
        showsHorizontalScrollIndicator = differs(scrollView.showsHorizontalScrollIndicator,
                                                 defaults.showsHorizontalScrollIndicator)
        if zoomView != nil {
            minimumZoomScale = differs(Double(scrollView.minimumZoomScale), 1)
            maximumZoomScale = differs(Double(scrollView.maximumZoomScale), 1)
            zoomScale = differs(Double(scrollView.zoomScale), 1)
            bouncesZoom = differs(scrollView.bouncesZoom, defaults.bouncesZoom)
        }
    }
}

/// Formats trace lines for a live session: times relative to the first event, positions
/// relative to the scroll view, numbers in plain JSON.
public struct TraceLineFormatter: Sendable {
    /// The scroll view's origin in window points, subtracted from positions.
    public var origin: CGPoint
    /// Whether touchpad hold gestures are written as `pointer.hold` lines. The trace format
    /// has no such kind yet, and `scroll-replay` refuses unknown kinds, so by default they
    /// are kept as comments: the file still replays, and a reader sees where they were.
    public var writesHoldEvents: Bool
    /// The time of the first event, in the events' clock (ms); trace time 0.
    public private(set) var startTime: Double?
    /// The trace time of the last line, in ms: later lines never go back in time.
    public private(set) var lastTime: Double = 0

    /// Creates a formatter for a scroll view at `origin` in the window.
    public init(origin: CGPoint = .zero, writesHoldEvents: Bool = false) {
        self.origin = origin
        self.writesHoldEvents = writesHoldEvents
    }

    /// The setup line for `setup` with the given viewport size in points.
    public static func setupLine(_ setup: TraceSetupDescription, viewport: CGSize) -> String {
        var fields: [(String, String)] = [
            ("kind", #""setup""#),
            ("viewport", object([("width", number(Double(viewport.width))), ("height", number(Double(viewport.height)))])),
            ("content", object([("width", number(Double(setup.content.width))), ("height", number(Double(setup.content.height)))])),
            ("frameRate", number(setup.frameRate)),
        ]
        var options: [(String, String)] = []
        func add(_ name: String, _ value: Bool?) { if let value { options.append((name, value ? "true" : "false")) } }
        func add(_ name: String, _ value: Double?) { if let value { options.append((name, number(value))) } }
        if let offset = setup.contentOffset { options.append(("contentOffset", point(offset))) }
        if let inset = setup.contentInset {
            options.append(("contentInset", object([("top", number(Double(inset.top))), ("left", number(Double(inset.left))),
                                                    ("bottom", number(Double(inset.bottom))), ("right", number(Double(inset.right)))])))
        }
        add("bounces", setup.bounces)
        add("alwaysBounceVertical", setup.alwaysBounceVertical)
        add("alwaysBounceHorizontal", setup.alwaysBounceHorizontal)
        add("pagingEnabled", setup.pagingEnabled)
        add("scrollEnabled", setup.scrollEnabled)
        add("directionalLockEnabled", setup.directionalLockEnabled)
        if let rate = setup.decelerationRate {
            // The format's names for UIKit's two rates, so the file reads as the code does.
            switch rate {
            case Double(ScrollView.DecelerationRate.normal.rawValue): options.append(("decelerationRate", #""normal""#))
            case Double(ScrollView.DecelerationRate.fast.rawValue): options.append(("decelerationRate", #""fast""#))
            default: add("decelerationRate", rate)
            }
        }
        add("minimumZoomScale", setup.minimumZoomScale)
        add("maximumZoomScale", setup.maximumZoomScale)
        add("zoomScale", setup.zoomScale)
        add("bouncesZoom", setup.bouncesZoom)
        add("delaysContentTouches", setup.delaysContentTouches)
        add("canCancelContentTouches", setup.canCancelContentTouches)
        add("scrollsToTop", setup.scrollsToTop)
        add("showsVerticalScrollIndicator", setup.showsVerticalScrollIndicator)
        add("showsHorizontalScrollIndicator", setup.showsHorizontalScrollIndicator)
        if !options.isEmpty { fields.append(("options", object(options))) }
        if setup.zoomable { fields.append(("zoomable", "true")) }
        return object(fields)
    }

    /// The comment a recording ends with: where the live scroll view came to rest, as
    /// `# live end: {"offset":{"x":…,"y":…},"zoomScale":…}`, for comparing with the `end`
    /// line `scroll-replay` prints for the same file. A comment, so replays ignore it.
    public static func endComment(_ state: TraceSetupDescription) -> String {
        "# live end: " + object([("offset", point(state.contentOffset ?? .zero)),
                                 ("zoomScale", number(state.zoomScale ?? 1))])
    }

    /// The line for `event`: a trace event line, or a `#` comment for input the format
    /// cannot express (pointer leave, holds unless `writesHoldEvents`, odd key names).
    public mutating func line(for event: InputEvent) -> String {
        let start = startTime ?? event.time
        if startTime == nil, event.time.isFinite { startTime = start }
        var t = event.time.isFinite && start.isFinite ? event.time - start : lastTime
        // Microsecond steps keep the subtraction's float dust out of the file; times never
        // go back (enter/leave carry no timestamp and are stamped on arrival).
        t = max((t * 1000).rounded() / 1000, lastTime)
        lastTime = t
        let time = ("t", Self.number(t))
        func line(_ kind: String, _ rest: [(String, String)] = []) -> String {
            Self.object([("kind", Self.string(kind)), time] + rest)
        }
        switch event.kind {
        case .touchDown(let id, let location):
            return line("touch.down", [("id", String(id))] + position(location))
        case .touchMotion(let id, let location):
            return line("touch.motion", [("id", String(id))] + position(location))
        case .touchUp(let id):
            return line("touch.up", [("id", String(id))])
        case .touchCancel:
            return line("touch.cancel")
        case .pointerEnter(let location), .pointerMotion(let location):
            // Entering tells the scroll view where the pointer is, exactly as a motion does.
            return line("pointer.motion", position(location))
        case .pointerLeave:
            // Leaving only forgets the hover position, which the next enter replaces before
            // any press: nothing a replay would do differently.
            return "# t=\(Self.number(t)) pointer.leave"
        case .pointerButton(let button, let pressed):
            return line("pointer.button", [("button", Self.string(button.rawValue)), ("state", Self.pressed(pressed))])
        case .pointerAxis(let source, let dx, let dy, let value120X, let value120Y):
            let sourceName = source == .wheelTilt ? "wheel_tilt" : source.rawValue
            var rest = [("source", Self.string(sourceName)), ("dx", Self.number(Double(dx))), ("dy", Self.number(Double(dy)))]
            if let value120X { rest.append(("value120x", String(value120X))) }
            if let value120Y { rest.append(("value120y", String(value120Y))) }
            return line("pointer.axis", rest)
        case .axisStop(let axis):
            return line("pointer.axis_stop", [("axis", Self.string(axis.rawValue))])
        case .pinch(let phase, let scale, let dx, let dy):
            return line("pointer.pinch", [("phase", Self.string(phase.rawValue)), ("scale", Self.number(Double(scale))),
                                           ("dx", Self.number(Double(dx))), ("dy", Self.number(Double(dy)))])
        case .hold(let phase):
            let hold = line("pointer.hold", [("phase", Self.string(phase.rawValue))])
            return writesHoldEvents ? hold : "# " + hold
        case .key(let name, let pressed, let modifiers):
            guard Self.isKeysymName(name) else {
                return "# t=\(Self.number(t)) key with a name the trace format does not accept: \(Self.string(name))"
            }
            var rest = [("key", Self.string(name)), ("state", Self.pressed(pressed))]
            let names: [(InputEvent.Modifiers, String)] = [(.shift, "shift"), (.ctrl, "ctrl"), (.alt, "alt"), (.logo, "logo")]
            let held = names.filter { modifiers.contains($0.0) }.map { Self.string($0.1) }
            if !held.isEmpty { rest.append(("modifiers", "[" + held.joined(separator: ",") + "]")) }
            return line("key", rest)
        }
    }

    private func position(_ location: CGPoint) -> [(String, String)] {
        [("x", Self.number(Double(location.x - origin.x))), ("y", Self.number(Double(location.y - origin.y)))]
    }

    /// Whether `name` passes the trace format's keysym check: 1–64 ASCII letters, digits, `_`.
    public static func isKeysymName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    /// A JSON number: integers without a fraction, others in Swift's shortest round-trip
    /// form (which JSON accepts, exponent included); non-finite values, which JSON cannot
    /// hold, become 0.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A JSON string with the characters JSON requires escaped.
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func pressed(_ pressed: Bool) -> String { pressed ? #""pressed""# : #""released""# }

    private static func point(_ p: CGPoint) -> String { object([("x", number(Double(p.x))), ("y", number(Double(p.y)))]) }

    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
