// The trace format's lines (docs/trace-format.md) written from live input: the setup line
// describing the scroll view and one line per InputEvent; pure, so every line is testable.
import Foundation
import ScrollKit

/// What a recording's setup line says about the scroll view that received the input: a
/// `TraceSetup`, the very value `TraceParser` reads back from that line, and where the
/// scroll view sits in the window.
///
/// The setup's values and options read and write through this value, as
/// `description.content` or `description.contentOffset`. Options left nil are not written
/// (the replay keeps UIKit's defaults for them).
@dynamicMemberLookup
public struct TraceSetupDescription: Equatable, Sendable {
    /// What the setup line says. Its viewport counts only when `viewport` is not nil.
    public var setup: TraceSetup
    /// The scroll view's frame origin in window points: subtracted from every position so
    /// the trace's coordinates are relative to the scroll view, as the format requires.
    public var origin: CGPoint
    /// Whether the viewport is the window's size, which is known only when input starts.
    private var viewportIsWindow: Bool

    /// The scroll view's frame size in points; nil uses the window's size.
    public var viewport: CGSize? {
        get { viewportIsWindow ? nil : setup.viewport }
        set {
            viewportIsWindow = newValue == nil
            setup.viewport = newValue ?? .zero
        }
    }

    /// A description with only sizes; every option at UIKit's default. `content` is the
    /// `contentSize` in points; for a zoomable view, the zooming view's unscaled size.
    public init(content: CGSize, viewport: CGSize? = nil, origin: CGPoint = .zero, frameRate: Double = 60,
                zoomable: Bool = false) {
        setup = TraceSetup(viewport: viewport ?? .zero, content: content, frameRate: frameRate, zoomable: zoomable)
        self.origin = origin
        viewportIsWindow = viewport == nil
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
        setup.options = Self.options(of: scrollView, zoomable: zoomView != nil)
        setup.nested = Self.nestedScrollViews(in: scrollView, enclosing: scrollView)
    }

    /// Every option of `scrollView` that differs from UIKit's default (zoom limits and scale
    /// only when it zooms).
    static func options(of scrollView: ScrollView, zoomable: Bool) -> ScrollOptions {
        let defaults = ScrollView()
        func differs<T: Equatable>(_ value: T, _ standard: T) -> T? { value == standard ? nil : value }
        var options = ScrollOptions()
        options.contentOffset = differs(scrollView.contentOffset, .zero)
        options.contentInset = differs(scrollView.contentInset, .zero)
        options.bounces = differs(scrollView.bounces, defaults.bounces)
        options.alwaysBounceVertical = differs(scrollView.alwaysBounceVertical, defaults.alwaysBounceVertical)
        options.alwaysBounceHorizontal = differs(scrollView.alwaysBounceHorizontal, defaults.alwaysBounceHorizontal)
        options.pagingEnabled = differs(scrollView.isPagingEnabled, defaults.isPagingEnabled)
        options.scrollEnabled = differs(scrollView.isScrollEnabled, defaults.isScrollEnabled)
        options.directionalLockEnabled = differs(scrollView.isDirectionalLockEnabled, defaults.isDirectionalLockEnabled)
        options.decelerationRate = differs(scrollView.decelerationRate, defaults.decelerationRate).map(DecelerationRateSetting.init)
        options.delaysContentTouches = differs(scrollView.delaysContentTouches, defaults.delaysContentTouches)
        options.canCancelContentTouches = differs(scrollView.canCancelContentTouches, defaults.canCancelContentTouches)
        options.scrollsToTop = differs(scrollView.scrollsToTop, defaults.scrollsToTop)
        options.showsVerticalScrollIndicator = differs(scrollView.showsVerticalScrollIndicator,
                                                       defaults.showsVerticalScrollIndicator)
        options.showsHorizontalScrollIndicator = differs(scrollView.showsHorizontalScrollIndicator,
                                                         defaults.showsHorizontalScrollIndicator)
        if zoomable {
            options.minimumZoomScale = differs(Double(scrollView.minimumZoomScale), 1)
            options.maximumZoomScale = differs(Double(scrollView.maximumZoomScale), 1)
            options.zoomScale = differs(Double(scrollView.zoomScale), 1)
            options.bouncesZoom = differs(scrollView.bouncesZoom, defaults.bouncesZoom)
        }
        return options
    }

    /// The scroll views inside `view`'s subtree (not inside another nested one), described in
    /// `enclosing`'s content coordinates, each with those inside it.
    static func nestedScrollViews(in view: View, enclosing: ScrollView) -> [NestedScrollSetup] {
        var found: [NestedScrollSetup] = []
        for child in view.subviews {
            guard let nested = child as? ScrollView else {
                found += nestedScrollViews(in: child, enclosing: enclosing)
                continue
            }
            let origin = child.superview?.convert(child.frame.origin, to: enclosing) ?? child.frame.origin
            var entry = nestedSetup(describing: nested, frame: CGRect(origin: origin, size: child.frame.size))
            entry.nested = nestedScrollViews(in: nested, enclosing: nested)
            found.append(entry)
        }
        return found
    }

    /// The `nested` entry for `scrollView` at `frame` (its enclosing scroll view's content
    /// coordinates), without the views inside it. A `ZoomingScrollView` is described by its
    /// content, detail scale and, when it does not rest at its fit, its scale and offset; the
    /// rest of its zoom settings follow from those in a replay.
    public static func nestedSetup(describing scrollView: ScrollView, frame: CGRect) -> NestedScrollSetup {
        guard let zooming = scrollView as? ZoomingScrollView else {
            let zoomView = scrollView.canZoom ? scrollView.zoomingView : nil
            return NestedScrollSetup(frame: frame, content: zoomView?.bounds.size ?? scrollView.contentSize,
                                     zoomable: zoomView != nil, options: options(of: scrollView, zoomable: zoomView != nil))
        }
        var options = options(of: zooming, zoomable: false)
        // Offsets and insets follow from the fit; only a page away from its rest says where it is.
        options.contentOffset = nil
        options.contentInset = nil
        if zooming.zoomedContentSize != nil, !zooming.isAtRest {
            options.zoomScale = Double(zooming.zoomScale)
            options.contentOffset = zooming.contentOffset
        }
        return NestedScrollSetup(frame: frame, content: zooming.zoomedContentSize ?? .zero, zoomable: true, fitsContent: true,
                                 detailScale: zooming.detailScale == 1 ? nil : Double(zooming.detailScale),
                                 upscalesToFit: zooming.upscalesToFit, options: options)
    }

    /// The setup's own values: `content` (points), `frameRate` (frames per second),
    /// `zoomable`, `options`.
    public subscript<Value>(dynamicMember path: WritableKeyPath<TraceSetup, Value>) -> Value {
        get { setup[keyPath: path] }
        set { setup[keyPath: path] = newValue }
    }

    /// The setup's options, by their names in the format: `contentOffset`, `zoomScale`, …
    public subscript<Value>(dynamicMember path: WritableKeyPath<ScrollOptions, Value>) -> Value {
        get { setup.options[keyPath: path] }
        set { setup.options[keyPath: path] = newValue }
    }
}

/// Formats trace lines for a live session: times relative to the first event, positions
/// relative to the scroll view, numbers exact (`JSONNumberStyle.exact`).
public struct TraceLineFormatter: Sendable {
    /// The scroll view's origin in window points, subtracted from positions.
    public var origin: CGPoint
    /// Whether touchpad hold gestures are written as `pointer.hold` lines (a kind the project
    /// added to the format; `scroll-replay` replays it) or kept as comments, for readers that
    /// know only the format's original kinds.
    public var writesHoldEvents: Bool
    /// The time of the first event, in the events' clock (ms); trace time 0.
    public private(set) var startTime: Double?
    /// The trace time of the last line, in ms: later lines never go back in time.
    public private(set) var lastTime: Double = 0

    /// Creates a formatter for a scroll view at `origin` in the window.
    public init(origin: CGPoint = .zero, writesHoldEvents: Bool = true) {
        self.origin = origin
        self.writesHoldEvents = writesHoldEvents
    }

    /// The setup line for `setup` with the given viewport size in points.
    public static func setupLine(_ setup: TraceSetupDescription, viewport: CGSize) -> String {
        var written = setup.setup
        written.viewport = viewport
        return setupLine(written)
    }

    /// The setup line for `setup`, which `TraceParser` reads back as `setup` (its `line`
    /// aside): sizes and frame rate, then only what differs from the format's defaults.
    public static func setupLine(_ setup: TraceSetup) -> String {
        var out = JSONObjectWriter(numbers: .exact)
        out.string("kind", "setup")
        out.size("viewport", setup.viewport)
        out.size("content", setup.content)
        out.number("frameRate", setup.frameRate)
        let options = optionsObject(setup.options)
        if !options.isEmpty { out.object("options", options) }
        if !setup.buttons.isEmpty {
            let buttons = setup.buttons.map { button in
                var object = JSONObjectWriter(numbers: .exact)
                object.string("id", button.id)
                object.number("x", Double(button.frame.origin.x))
                object.number("y", Double(button.frame.origin.y))
                object.number("width", Double(button.frame.size.width))
                object.number("height", Double(button.frame.size.height))
                return object.json
            }
            out.raw("buttons", "[" + buttons.joined(separator: ",") + "]")
        }
        if setup.zoomable { out.bool("zoomable", true) }
        if !setup.nested.isEmpty { out.raw("nested", nestedList(setup.nested)) }
        var delegate = JSONObjectWriter(numbers: .exact)
        if let target = setup.delegate.targetContentOffset { delegate.point("targetContentOffset", target) }
        if !setup.delegate.shouldScrollToTop { delegate.bool("shouldScrollToTop", false) }
        if !delegate.isEmpty { out.object("delegate", delegate) }
        return out.json
    }

    /// The `nested` list: each view's frame and content, then only what differs from the defaults.
    private static func nestedList(_ views: [NestedScrollSetup]) -> String {
        let entries = views.map { view in
            var out = JSONObjectWriter(numbers: .exact)
            var frame = JSONObjectWriter(numbers: .exact)
            frame.number("x", Double(view.frame.origin.x))
            frame.number("y", Double(view.frame.origin.y))
            frame.number("width", Double(view.frame.size.width))
            frame.number("height", Double(view.frame.size.height))
            out.object("frame", frame)
            out.size("content", view.content)
            if view.zoomable { out.bool("zoomable", true) }
            if view.fitsContent { out.bool("fitsContent", true) }
            if let detail = view.detailScale { out.number("detailScale", detail) }
            if !view.upscalesToFit { out.bool("upscalesToFit", false) }
            let options = optionsObject(view.options)
            if !options.isEmpty { out.object("options", options) }
            if !view.nested.isEmpty { out.raw("nested", nestedList(view.nested)) }
            return out.json
        }
        return "[" + entries.joined(separator: ",") + "]"
    }

    /// The `options` object: every option that is set, in the spec's order.
    private static func optionsObject(_ options: ScrollOptions) -> JSONObjectWriter {
        var out = JSONObjectWriter(numbers: .exact)
        for (name, value) in ScrollOptions.all {
            switch value {
            case .point(let path):
                if let point = options[keyPath: path] { out.point(name, point) }
            case .insets(let path):
                if let inset = options[keyPath: path] {
                    var object = JSONObjectWriter(numbers: .exact)
                    object.number("top", Double(inset.top))
                    object.number("left", Double(inset.left))
                    object.number("bottom", Double(inset.bottom))
                    object.number("right", Double(inset.right))
                    out.object(name, object)
                }
            case .flag(let path):
                if let flag = options[keyPath: path] { out.bool(name, flag) }
            case .rate(let path):
                switch options[keyPath: path] {
                case .normal?: out.string(name, "normal")
                case .fast?: out.string(name, "fast")
                case .custom(let rate)?: out.number(name, rate)
                case nil: break
                }
            case .scale(let path):
                if let scale = options[keyPath: path] { out.number(name, scale) }
            }
        }
        return out
    }

    /// The comment a recording ends with: where the live scroll view came to rest, as
    /// `# live end: {"offset":{"x":…,"y":…},"zoomScale":…}`, for comparing with the `end`
    /// line `scroll-replay` prints for the same file. A comment, so replays ignore it.
    public static func endComment(_ state: TraceSetupDescription) -> String {
        var out = JSONObjectWriter(numbers: .exact)
        out.point("offset", state.contentOffset ?? .zero)
        out.number("zoomScale", state.zoomScale ?? 1)
        // Nested views away from where they start (a page left zoomed in), numbered as the
        // setup numbers them, as `scroll-replay` prints its `nestedEnd` lines.
        var moved: [String] = []
        var number = 0
        func visit(_ views: [NestedScrollSetup]) {
            for view in views {
                number += 1
                if let offset = view.options.contentOffset {
                    var entry = JSONObjectWriter(numbers: .exact)
                    entry.integer("view", number)
                    entry.point("offset", offset)
                    entry.number("zoomScale", view.options.zoomScale ?? 1)
                    moved.append(entry.json)
                }
                visit(view.nested)
            }
        }
        visit(state.setup.nested)
        if !moved.isEmpty { out.raw("nested", "[" + moved.joined(separator: ",") + "]") }
        return "# live end: " + out.json
    }

    /// The line for `event`: a trace event line, or a `#` comment for input the format
    /// cannot express (pointer leave, holds unless `writesHoldEvents`, odd key names).
    public mutating func line(for event: InputEvent) -> String {
        line(for: event, frame: nil)
    }

    /// The line for `event`, which arrived in input frame `frame` (a recording's counter; the
    /// line carries it as `"frame"`, so a replay delivers the frame's events together).
    public mutating func line(for event: InputEvent, frame: Int?) -> String {
        var t = lastTime
        switch event.kind {
        case .pointerEnter, .pointerLeave:
            // These carry no timestamp: the seat stamps them on arrival, which under load is
            // tens of ms after the device-stamped events handled around them (a touch swipe
            // while the pointer enters). At that time they would push every later event of
            // the swipe to it too (times never go back), and the replay would see the swipe's
            // samples squeezed together: a faster fling than the live one. Their time changes
            // nothing in the scroll view, so they take the previous event's, and they never
            // start the trace's clock.
            break
        default:
            t = traceTime(of: event.time)
        }
        lastTime = t
        let origin = self.origin
        func line(_ kind: String, _ fields: (inout JSONObjectWriter) -> Void = { _ in }) -> String {
            var out = JSONObjectWriter(numbers: .exact)
            out.string("kind", kind)
            out.number("t", t)
            fields(&out)
            if let frame { out.integer("frame", frame) }
            return out.json
        }
        func position(_ location: CGPoint, _ out: inout JSONObjectWriter) {
            out.number("x", Double(location.x - origin.x))
            out.number("y", Double(location.y - origin.y))
        }
        switch event.kind {
        case .touchDown(let id, let location):
            return line("touch.down") { $0.integer("id", id); position(location, &$0) }
        case .touchMotion(let id, let location):
            return line("touch.motion") { $0.integer("id", id); position(location, &$0) }
        case .touchUp(let id):
            return line("touch.up") { $0.integer("id", id) }
        case .touchCancel:
            return line("touch.cancel")
        case .pointerEnter(let location), .pointerMotion(let location):
            // Entering tells the scroll view where the pointer is, exactly as a motion does.
            return line("pointer.motion") { position(location, &$0) }
        case .pointerLeave:
            // Leaving only forgets the hover position, which the next enter replaces before
            // any press: nothing a replay would do differently.
            return "# t=\(Self.number(t)) pointer.leave"
        case .pointerButton(let button, let pressed):
            return line("pointer.button") {
                $0.string("button", button.rawValue)
                $0.string("state", TraceNames.state(pressed))
            }
        case .pointerAxis(let source, let dx, let dy, let value120X, let value120Y):
            return line("pointer.axis") {
                $0.string("source", TraceNames.name(of: source))
                $0.number("dx", Double(dx))
                $0.number("dy", Double(dy))
                if let value120X { $0.integer("value120x", value120X) }
                if let value120Y { $0.integer("value120y", value120Y) }
            }
        case .axisStop(let axis):
            return line("pointer.axis_stop") { $0.string("axis", axis.rawValue) }
        case .pinch(let phase, let scale, let dx, let dy):
            return line("pointer.pinch") {
                $0.string("phase", phase.rawValue)
                $0.number("scale", Double(scale))
                $0.number("dx", Double(dx))
                $0.number("dy", Double(dy))
            }
        case .hold(let phase):
            let hold = line("pointer.hold") { $0.string("phase", phase.rawValue) }
            return writesHoldEvents ? hold : "# " + hold
        case .key(let key, let pressed):
            let name = key.keysymName
            guard TraceNames.isKeysymName(name) else {
                return "# t=\(Self.number(t)) key with a name the trace format does not accept: \(Self.string(name))"
            }
            return line("key") {
                $0.string("key", name)
                $0.string("state", TraceNames.state(pressed))
                let held = TraceNames.modifiers.filter { event.modifiers.contains($0.1) }.map(\.0)
                if !held.isEmpty { $0.strings("modifiers", held) }
            }
        }
    }

    /// The trace time of an event at `time` (the events' clock, ms): relative to the first
    /// timed line, in microsecond steps (the subtraction's float dust stays out of the file),
    /// never before the previous line's. The first call starts the clock.
    private mutating func traceTime(of time: Double) -> Double {
        if startTime == nil, time.isFinite { startTime = time }
        guard let start = startTime, time.isFinite else { return lastTime }
        return max(((time - start) * 1000).rounded() / 1000, lastTime)
    }

    /// The line for what the app did at `time` (the events' clock, ms): a method call on scroll
    /// view `view` (0 the setup's own), a nested view's new content (`layout`, the project's
    /// kind), or a key the app handed to a scroll view (a `key` line with `view`).
    public mutating func line(for action: TraceAction, at time: Double) -> String {
        let t = traceTime(of: time)
        lastTime = t
        var out = JSONObjectWriter(numbers: .exact)
        switch action {
        case .call(let call, let view):
            out.string("kind", "call")
            out.number("t", t)
            out.string("method", call.methodName)
            switch call {
            case .setContentOffset(let offset, let animated):
                out.number("x", Double(offset.x))
                out.number("y", Double(offset.y))
                out.bool("animated", animated)
            case .scrollRectToVisible(let rect, let animated), .zoomToRect(let rect, let animated):
                out.number("x", Double(rect.origin.x))
                out.number("y", Double(rect.origin.y))
                out.number("width", Double(rect.size.width))
                out.number("height", Double(rect.size.height))
                out.bool("animated", animated)
            case .setZoomScale(let scale, let animated):
                out.number("scale", scale)
                out.bool("animated", animated)
            case .flashScrollIndicators, .scrollToTop:
                break
            }
            if view != 0 { out.integer("view", view) }
        case .layout(let layout):
            out.string("kind", "layout")
            out.number("t", t)
            out.integer("view", layout.view)
            out.size("content", layout.content)
            if let detail = layout.detailScale { out.number("detailScale", detail) }
        case .input(let kind, let modifiers, let view):
            var formatter = self
            let line = formatter.line(for: InputEvent(time: time, kind: kind, modifiers: modifiers))
            guard let view, line.hasPrefix("{"), line.hasSuffix("}") else { return line }
            return String(line.dropLast()) + ",\"view\":\(view)}"
        }
        return out.json
    }

    /// Whether `name` passes the trace format's keysym check: 1–64 ASCII letters, digits, `_`.
    public static func isKeysymName(_ name: String) -> Bool { TraceNames.isKeysymName(name) }

    /// A JSON number as recorded lines spell it (`JSONNumberStyle.exact`): integers without
    /// a fraction, others in Swift's shortest round-trip form; non-finite values become 0.
    public static func number(_ value: Double) -> String { JSONNumberStyle.exact.text(value) }

    /// A JSON string with the characters JSON requires escaped.
    public static func string(_ text: String) -> String { JSONObjectWriter.quoted(text) }
}
