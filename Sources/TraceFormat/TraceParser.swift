// Reads and validates a whole trace before anything is replayed: every problem is reported
// with the file, the line and the field at fault.
import Foundation
import ScrollKit

/// Turns trace text (JSON Lines, docs/trace-format.md) into a validated `Trace`.
///
/// Blank lines and lines whose first non-blank character is `#` are ignored. The first
/// remaining line must be the setup line. Unknown keys in event lines are ignored so that
/// traces written by newer tools (the contract only ever adds keys) still replay; the setup
/// line, its `options` and its `delegate` are strict, because a misspelt option would
/// otherwise silently replay a different scroll view.
public struct TraceParser: Sendable {
    /// The bounds enforced while parsing.
    public var limits: TraceLimits

    /// Creates a parser enforcing `limits`.
    public init(limits: TraceLimits = .standard) {
        self.limits = limits
    }

    /// Every event kind the format defines, in the spec's order, then the project's additions
    /// (new kinds only, as the format allows: `pointer.hold`, a touchpad hold gesture).
    public static let eventKinds = [
        "touch.down", "touch.motion", "touch.up", "touch.cancel", "pointer.motion", "pointer.button",
        "pointer.axis", "pointer.axis_stop", "pointer.pinch", "key", "call", "pointer.hold", "layout",
    ]

    /// Every name the setup's `options` object accepts, in the spec's order.
    public static let optionNames = ScrollOptions.all.map(\.name)

    /// Every method a `call` event may name.
    public static let callMethods = [
        "setContentOffset", "scrollRectToVisible", "setZoomScale", "zoomToRect", "flashScrollIndicators",
        "scrollToTop",
    ]

    private static let setupKeys = ["kind", "t", "viewport", "content", "frameRate", "options", "buttons", "zoomable",
                                    "delegate", "nested"]
    /// The keys of one entry of the setup's `nested` list (the project's addition).
    private static let nestedKeys = ["frame", "content", "zoomable", "fitsContent", "detailScale", "upscalesToFit", "options",
                                      "nested"]

    // MARK: Entry points

    /// Reads the file at `path` ("-" reads standard input), refusing it before reading when it
    /// is larger than `limits.maxFileBytes`.
    public func parse(fileAt path: String) throws(TraceError) -> Trace {
        let bytes = try readFile(path)
        return try parse(bytes: bytes, file: path)
    }

    /// Parses trace text; `file` names the source in error messages.
    public func parse(_ text: String, file: String? = nil) throws(TraceError) -> Trace {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Parses trace bytes (UTF-8); `file` names the source in error messages.
    public func parse(bytes: [UInt8], file: String? = nil) throws(TraceError) -> Trace {
        guard bytes.count <= limits.maxFileBytes else {
            throw TraceError(file: file, line: nil,
                             message: "the trace is \(bytes.count) bytes, more than the limit of \(limits.maxFileBytes) bytes")
        }
        var setup: TraceSetup?
        var events: [TraceEvent] = []
        var state = EventState()
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let next = end + 1
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            defer { start = next }
            let context = LineContext(file: file, line: lineNumber)
            // The setup line lists every nested scroll view: it may be longer than an event line.
            let lineLimit = setup == nil ? limits.maxSetupLineBytes : limits.maxLineBytes
            guard end - start <= lineLimit else {
                throw context.error("line is \(end - start) bytes long, more than the limit of \(lineLimit)")
            }
            var first = start
            while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
            if first == end || bytes[first] == UInt8(ascii: "#") { continue }
            let lineBytes = Array(bytes[start..<end])
            guard String(validating: lineBytes, as: UTF8.self) != nil else {
                throw context.error("line is not valid UTF-8")
            }
            let object = try parseObject(lineBytes, context)
            let kind = try Fields(object, owner: "line", context: context).requireString("kind")
            if let existing = setup {
                if kind == "setup" {
                    throw context.error("a second setup line (the setup is line \(existing.line)); only the first line may be setup")
                }
                guard events.count < limits.maxEvents else {
                    throw context.error("more than \(limits.maxEvents) events, the limit for one trace")
                }
                events.append(try parseEvent(kind: kind, object, context, &state))
            } else {
                guard kind == "setup" else {
                    throw context.error("expected the setup line (kind \"setup\") first, found kind \"\(kind)\"")
                }
                let parsed = try parseSetup(object, context)
                state.viewCount = parsed.viewCount
                setup = parsed
            }
        }
        guard let setup else {
            throw TraceError(file: file, line: nil, message: "no setup line: the trace is empty")
        }
        return Trace(setup: setup, events: events)
    }

    // MARK: Lines

    private func readFile(_ path: String) throws(TraceError) -> [UInt8] {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw TraceError(file: path, line: nil, message: "no such file")
            }
            guard !isDirectory.boolValue else { throw TraceError(file: path, line: nil, message: "is a directory, not a trace file") }
            // Refuse an oversized file from its size alone, before reading a byte of it.
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
               size.int64Value > Int64(limits.maxFileBytes) {
                throw TraceError(file: path, line: nil,
                                 message: "the file is \(size.int64Value) bytes, more than the limit of \(limits.maxFileBytes) bytes")
            }
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw TraceError(file: path, line: nil, message: "cannot be opened for reading")
            }
            handle = opened
        }
        // Pipes and growing files have no trustworthy size: read at most one byte past the limit.
        var bytes: [UInt8] = []
        while bytes.count <= limits.maxFileBytes {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: min(1 << 20, limits.maxFileBytes + 1 - bytes.count))
            } catch {
                throw TraceError(file: path, line: nil, message: "read failed: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { break }
            bytes.append(contentsOf: chunk)
        }
        if path != "-" { try? handle.close() }
        return bytes
    }

    private func parseObject(_ bytes: [UInt8], _ context: LineContext) throws(TraceError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes)
        } catch {
            throw context.error("bad JSON at column \(error.column): \(error.message)")
        }
        guard case .object(let object) = value else {
            throw context.error("expected a JSON object on the line, found \(value.typeDescription)")
        }
        return object
    }

    // MARK: Setup

    private func parseSetup(_ object: JSONObject, _ context: LineContext) throws(TraceError) -> TraceSetup {
        let fields = Fields(object, owner: "setup", context: context)
        try fields.rejectUnknownKeys(Self.setupKeys, what: "key")
        if fields.has("t") {
            let t = try fields.requireNumber("t")
            guard t == 0 else { throw fields.error("'t' on the setup line must be 0, found \(formatNumber(t))") }
        }
        let viewport = try size(fields, "viewport", max: limits.maxViewportSide)
        let content = try size(fields, "content", max: limits.maxContentSide)
        var setup = TraceSetup(viewport: viewport, content: content, line: context.line)
        if let rate = try fields.optionalNumber("frameRate") {
            guard limits.frameRate.contains(rate) else {
                throw fields.error("'frameRate' must be in \(formatNumber(limits.frameRate.lowerBound))...\(formatNumber(limits.frameRate.upperBound)) frames per second, found \(formatNumber(rate))")
            }
            setup.frameRate = rate
        }
        if let options = try fields.optionalObject("options") {
            setup.options = try parseOptions(options)
        }
        if let zoomable = try fields.optionalBool("zoomable") { setup.zoomable = zoomable }
        if let delegate = try fields.optionalObject("delegate") {
            try delegate.rejectUnknownKeys(["targetContentOffset", "shouldScrollToTop"], what: "key")
            if let target = try delegate.optionalObject("targetContentOffset") {
                setup.delegate.targetContentOffset = try point(target)
            }
            if let answer = try delegate.optionalBool("shouldScrollToTop") { setup.delegate.shouldScrollToTop = answer }
        }
        if let list = try fields.optionalArray("nested") {
            var count = 0
            setup.nested = try nestedViews(list, in: fields, name: "nested", depth: 1, count: &count)
        }
        if let buttons = try fields.optionalArray("buttons") {
            guard buttons.count <= limits.maxButtons else {
                throw fields.error("'buttons' has \(buttons.count) entries, more than the limit of \(limits.maxButtons)")
            }
            var seen = Set<String>()
            for (index, entry) in buttons.enumerated() {
                let name = "buttons[\(index)]"
                guard case .object(let object) = entry else {
                    throw fields.error("'\(name)' must be an object {id,x,y,width,height}, found \(entry.typeDescription)")
                }
                let button = fields.nested(object, name: name)
                try button.rejectUnknownKeys(["id", "x", "y", "width", "height"], what: "key")
                let id = try button.requireString("id")
                guard !id.isEmpty else { throw button.error("'\(name).id' must not be empty") }
                guard seen.insert(id).inserted else { throw button.error("'\(name).id' \"\(id)\" is used by an earlier button") }
                let frame = try rect(button, minSide: .positive)
                setup.buttons.append(ButtonSpec(id: id, frame: frame))
            }
        }
        return setup
    }

    /// The `nested` list (project addition): scroll views inside a scroll view's content, each
    /// with its frame there, its content, and optionally options and views of its own.
    private func nestedViews(_ list: [JSONValue], in fields: Fields, name: String, depth: Int,
                             count: inout Int) throws(TraceError) -> [NestedScrollSetup] {
        guard depth <= limits.maxNestingDepth else {
            throw fields.error("'\(fields.path(name))' nests scroll views deeper than the limit of \(limits.maxNestingDepth)")
        }
        var views: [NestedScrollSetup] = []
        for (index, entry) in list.enumerated() {
            let entryName = "\(name)[\(index)]"
            count += 1
            guard count <= limits.maxNestedViews else {
                throw fields.error("more than \(limits.maxNestedViews) nested scroll views, the limit for one setup")
            }
            guard case .object(let object) = entry else {
                throw fields.error("'\(fields.path(entryName))' must be an object {frame, content, …}, found \(entry.typeDescription)")
            }
            let view = fields.nested(object, name: entryName)
            try view.rejectUnknownKeys(Self.nestedKeys, what: "key")
            guard let frameObject = try view.optionalObject("frame") else {
                throw view.error("missing field '\(view.path("frame"))' (an object {x, y, width, height} in points)")
            }
            try frameObject.rejectUnknownKeys(["x", "y", "width", "height"], what: "key")
            let frame = try rect(frameObject, minSide: .positive)
            var nested = NestedScrollSetup(frame: frame, content: try size(view, "content", max: limits.maxContentSide, allowZero: true))
            nested.zoomable = try view.optionalBool("zoomable") ?? false
            nested.fitsContent = try view.optionalBool("fitsContent") ?? false
            nested.detailScale = try zoomScale(view, "detailScale")
            nested.upscalesToFit = try view.optionalBool("upscalesToFit") ?? true
            if let options = try view.optionalObject("options") { nested.options = try parseOptions(options) }
            if let inner = try view.optionalArray("nested") {
                nested.nested = try nestedViews(inner, in: view, name: "nested", depth: depth + 1, count: &count)
            }
            views.append(nested)
        }
        return views
    }

    private func parseOptions(_ fields: Fields) throws(TraceError) -> ScrollOptions {
        try fields.rejectUnknownKeys(Self.optionNames, what: "option")
        var options = ScrollOptions()
        // Read by kind of value (points, insets, flags, the rate, then scales), each kind in
        // the spec's order, so that of several bad options the same one is always reported.
        for case let (name, .point(path)) in ScrollOptions.all {
            if let offset = try fields.optionalObject(name) { options[keyPath: path] = try point(offset) }
        }
        for case let (name, .insets(path)) in ScrollOptions.all {
            if let inset = try fields.optionalObject(name) { options[keyPath: path] = try insets(inset) }
        }
        for case let (name, .flag(path)) in ScrollOptions.all {
            options[keyPath: path] = try fields.optionalBool(name)
        }
        for case let (name, .rate(path)) in ScrollOptions.all {
            options[keyPath: path] = try decelerationRate(fields, name)
        }
        for case let (name, .scale(path)) in ScrollOptions.all {
            options[keyPath: path] = try zoomScale(fields, name)
        }
        if let low = options.minimumZoomScale, let high = options.maximumZoomScale, low > high {
            throw fields.error("'options.minimumZoomScale' (\(formatNumber(low))) is greater than 'options.maximumZoomScale' (\(formatNumber(high)))")
        }
        return options
    }

    private func insets(_ fields: Fields) throws(TraceError) -> EdgeInsets {
        try fields.rejectUnknownKeys(["top", "left", "bottom", "right"], what: "key")
        return EdgeInsets(top: try coordinate(fields, "top"), left: try coordinate(fields, "left"),
                          bottom: try coordinate(fields, "bottom"), right: try coordinate(fields, "right"))
    }

    private func decelerationRate(_ fields: Fields, _ key: String) throws(TraceError) -> DecelerationRateSetting? {
        switch fields.value(key) {
        case nil: return nil
        case .string("normal"): return .normal
        case .string("fast"): return .fast
        case .number(let rate):
            // d^t must shrink for the content to stop: 0 < d < 1 per millisecond.
            guard rate > 0, rate < 1 else {
                throw fields.error("'\(fields.path(key))' must be between 0 and 1 (exclusive) per millisecond, found \(formatNumber(rate))")
            }
            return .custom(rate)
        case .some(let other):
            throw fields.error("'\(fields.path(key))' must be \"normal\", \"fast\" or a number, found \(other.typeDescription)")
        }
    }

    // MARK: Events

    /// What earlier lines established that later lines are checked against.
    private struct EventState {
        var lastTime = 0.0
        var lastTimeLine: Int?
        var pinchScale = 1.0
        /// Scroll views the setup describes: `view` keys must name one of them.
        var viewCount = 1
    }

    private func parseEvent(kind: String, _ object: JSONObject, _ context: LineContext,
                            _ state: inout EventState) throws(TraceError) -> TraceEvent {
        guard Self.eventKinds.contains(kind) else {
            throw context.error("unknown kind \"\(kind)\"\(suggestion(kind, Self.eventKinds + ["setup"])); known kinds: \(Self.eventKinds.joined(separator: ", "))")
        }
        let fields = Fields(object, owner: kind, context: context)
        let time = try fields.requireNumber("t")
        guard time >= 0 else { throw fields.error("'t' must not be negative, found \(formatNumber(time)) ms") }
        guard time <= limits.maxTime else {
            throw fields.error("'t' is \(formatNumber(time)) ms, beyond the limit of \(formatNumber(limits.maxTime)) ms for one trace")
        }
        if time < state.lastTime {
            throw fields.error("'t' decreases from \(formatNumber(state.lastTime)) ms (line \(state.lastTimeLine ?? 0)) to \(formatNumber(time)) ms; times must never decrease")
        }
        state.lastTime = time
        state.lastTimeLine = context.line
        let action: TraceAction
        switch kind {
        case "touch.down":
            action = .input(.touchDown(id: try touchID(fields), location: try location(fields)))
        case "touch.motion":
            action = .input(.touchMotion(id: try touchID(fields), location: try location(fields)))
        case "touch.up":
            action = .input(.touchUp(id: try touchID(fields)))
        case "touch.cancel":
            action = .input(.touchCancel)
        case "pointer.motion":
            action = .input(.pointerMotion(location: try location(fields)))
        case "pointer.button":
            let button = try fields.requireEnum("button", [("left", InputEvent.Button.left), ("right", .right), ("middle", .middle)])
            action = .input(.pointerButton(button: button, pressed: try pressed(fields)))
        case "pointer.axis":
            action = .input(try axis(fields))
        case "pointer.axis_stop":
            let axis = try fields.requireEnum("axis", [("vertical", InputEvent.Axis.vertical), ("horizontal", .horizontal)])
            action = .input(.axisStop(axis: axis))
        case "pointer.pinch":
            let phase = try fields.requireEnum("phase", [("begin", InputEvent.Phase.begin), ("update", .update), ("end", .end),
                                                         ("cancel", .cancel)])
            // `scale` is cumulative since begin: when omitted it is 1 on begin, unchanged later.
            let scale = try fields.optionalNumber("scale") ?? (phase == .begin ? 1 : state.pinchScale)
            guard limits.zoomScale.contains(scale) else {
                throw fields.error("'scale' must be in \(formatNumber(limits.zoomScale.lowerBound))...\(formatNumber(limits.zoomScale.upperBound)), found \(formatNumber(scale))")
            }
            state.pinchScale = scale
            let dx = try optionalCoordinate(fields, "dx") ?? 0
            let dy = try optionalCoordinate(fields, "dy") ?? 0
            action = .input(.pinch(phase: phase, scale: CGFloat(scale), dx: CGFloat(dx), dy: CGFloat(dy)))
        case "pointer.hold":
            // zwp_pointer_gestures_v1 hold: fingers resting on the touchpad; begin stops momentum.
            let phase = try fields.requireEnum("phase", [("begin", InputEvent.Phase.begin), ("end", .end), ("cancel", .cancel)])
            action = .input(.hold(phase: phase))
        case "key":
            action = try key(fields, view: try view(fields, state, nestedOnly: false))
        case "layout":
            guard fields.has("view") else { throw fields.error("missing field 'view' (the nested scroll view, 1 and up)") }
            let view = try view(fields, state, nestedOnly: true) ?? 1
            action = .layout(NestedLayout(view: view, content: try size(fields, "content", max: limits.maxContentSide, allowZero: true),
                                          detailScale: try zoomScale(fields, "detailScale")))
        default:  // "call"
            action = .call(try call(fields), view: try view(fields, state, nestedOnly: false) ?? 0)
        }
        var frame: Int?
        if case .input = action, fields.has("frame") {
            let number = try fields.requireInteger("frame")
            guard number >= 0 else { throw fields.error("'frame' must not be negative, found \(number)") }
            frame = number
        }
        return TraceEvent(time: time, action: action, line: context.line, frame: frame)
    }

    private func touchID(_ fields: Fields) throws(TraceError) -> Int {
        let id = try fields.requireInteger("id")
        // wl_touch ids are int32.
        guard id >= Int(Int32.min), id <= Int(Int32.max) else {
            throw fields.error("'id' must fit in a 32-bit signed integer (wl_touch), found \(id)")
        }
        return id
    }

    private func pressed(_ fields: Fields) throws(TraceError) -> Bool {
        try fields.requireEnum("state", TraceNames.pressed)
    }

    private func axis(_ fields: Fields) throws(TraceError) -> InputEvent.Kind {
        let source = try fields.requireEnum("source", TraceNames.axisSources)
        // wl_pointer.axis arrives one axis at a time: an omitted axis did not move.
        let dx = try optionalCoordinate(fields, "dx")
        let dy = try optionalCoordinate(fields, "dy")
        let value120X = try value120(fields, "value120x")
        let value120Y = try value120(fields, "value120y")
        guard dx != nil || dy != nil || value120X != nil || value120Y != nil else {
            throw fields.error("missing field 'dx' or 'dy' (a number, points)")
        }
        return .pointerAxis(source: source, dx: CGFloat(dx ?? 0), dy: CGFloat(dy ?? 0),
                            value120X: value120X, value120Y: value120Y)
    }

    private func value120(_ fields: Fields, _ key: String) throws(TraceError) -> Int? {
        guard fields.has(key) else { return nil }
        let value = try fields.requireInteger(key)
        guard abs(value) <= limits.maxValue120 else {
            throw fields.error("'\(key)' is \(value), beyond the limit of ±\(limits.maxValue120) (120 per wheel notch)")
        }
        return value
    }

    /// The optional `view` key (project addition): a scroll view the setup describes, 0 being
    /// its own (or, for `nestedOnly`, 1 and up).
    private func view(_ fields: Fields, _ state: EventState, nestedOnly: Bool) throws(TraceError) -> Int? {
        guard fields.has("view") else { return nil }
        let view = try fields.requireInteger("view")
        let lowest = nestedOnly ? 1 : 0
        guard view >= lowest, view < state.viewCount else {
            let range = state.viewCount > lowest ? "\(lowest)...\(state.viewCount - 1)" : "none"
            throw fields.error("'view' must name a scroll view of the setup (\(range)), found \(view)")
        }
        return view
    }

    private func key(_ fields: Fields, view: Int?) throws(TraceError) -> TraceAction {
        let name = try fields.requireString("key")
        guard TraceNames.isKeysymName(name) else {
            throw fields.error("'key' must be an xkbcommon keysym name such as \"Page_Down\", found \(JSONValue.string(name).typeDescription)")
        }
        let pressed = try pressed(fields)
        var modifiers: InputEvent.Modifiers = []
        if let list = try fields.optionalArray("modifiers") {
            let names = TraceNames.modifiers.map { "\"\($0.0)\"" }.joined(separator: ", ")
            for (index, item) in list.enumerated() {
                guard case .string(let text) = item, let modifier = TraceNames.modifiers.first(where: { $0.0 == text })?.1 else {
                    throw fields.error("'modifiers[\(index)]' must be one of \(names), found \(item.typeDescription)")
                }
                modifiers.insert(modifier)
            }
        }
        return .input(.key(Key(keysymName: name), pressed: pressed), modifiers: modifiers, view: view)
    }

    private func call(_ fields: Fields) throws(TraceError) -> ScrollCall {
        let method = try fields.requireString("method")
        switch method {
        case "setContentOffset":
            return .setContentOffset(try point(fields), animated: try fields.requireBool("animated"))
        case "scrollRectToVisible":
            return .scrollRectToVisible(try rect(fields, minSide: .zero), animated: try fields.requireBool("animated"))
        case "setZoomScale":
            guard let scale = try zoomScale(fields, "scale") else { throw fields.error("missing field 'scale' (a number, scale factor)") }
            return .setZoomScale(scale, animated: try fields.requireBool("animated"))
        case "zoomToRect":
            return .zoomToRect(try rect(fields, minSide: .zero), animated: try fields.requireBool("animated"))
        case "flashScrollIndicators":
            return .flashScrollIndicators
        case "scrollToTop":
            return .scrollToTop
        default:
            throw fields.error("unknown method \"\(method)\"\(suggestion(method, Self.callMethods)); known methods: \(Self.callMethods.joined(separator: ", "))")
        }
    }

    // MARK: Values with limits

    private func coordinate(_ fields: Fields, _ key: String) throws(TraceError) -> Double {
        guard let value = try optionalCoordinate(fields, key) else {
            throw fields.error("missing field '\(fields.path(key))' (a number, points)")
        }
        return value
    }

    private func optionalCoordinate(_ fields: Fields, _ key: String) throws(TraceError) -> Double? {
        guard let value = try fields.optionalNumber(key) else { return nil }
        guard abs(value) <= limits.maxCoordinate else {
            throw fields.error("'\(fields.path(key))' is \(formatNumber(value)), beyond the limit of ±\(formatNumber(limits.maxCoordinate)) points")
        }
        return value
    }

    private func location(_ fields: Fields) throws(TraceError) -> CGPoint {
        CGPoint(x: try coordinate(fields, "x"), y: try coordinate(fields, "y"))
    }

    private func point(_ fields: Fields) throws(TraceError) -> CGPoint {
        if fields.isNested { try fields.rejectUnknownKeys(["x", "y"], what: "key") }
        return try location(fields)
    }

    private enum MinimumSide { case zero, positive }

    private func rect(_ fields: Fields, minSide: MinimumSide) throws(TraceError) -> CGRect {
        let origin = try location(fields)
        var sides: [Double] = []
        for key in ["width", "height"] {
            let side = try coordinate(fields, key)
            switch minSide {
            case .zero where side < 0:
                throw fields.error("'\(fields.path(key))' must not be negative, found \(formatNumber(side))")
            case .positive where side <= 0:
                throw fields.error("'\(fields.path(key))' must be greater than 0, found \(formatNumber(side))")
            default: break
            }
            sides.append(side)
        }
        return CGRect(x: origin.x, y: origin.y, width: sides[0], height: sides[1])
    }

    private func size(_ fields: Fields, _ key: String, max: Double, allowZero: Bool = false) throws(TraceError) -> CGSize {
        guard let object = try fields.optionalObject(key) else {
            throw fields.error("missing field '\(key)' (an object {\"width\":…, \"height\":…} in points)")
        }
        try object.rejectUnknownKeys(["width", "height"], what: "key")
        var sides: [Double] = []
        for side in ["width", "height"] {
            let value = try object.requireNumber(side)
            guard allowZero ? value >= 0 : value > 0, value <= max else {
                let lowest = allowZero ? "at least 0" : "greater than 0"
                throw object.error("'\(object.path(side))' must be \(lowest) and at most \(formatNumber(max)) points, found \(formatNumber(value))")
            }
            sides.append(value)
        }
        return CGSize(width: sides[0], height: sides[1])
    }

    private func zoomScale(_ fields: Fields, _ key: String) throws(TraceError) -> Double? {
        guard let value = try fields.optionalNumber(key) else { return nil }
        guard limits.zoomScale.contains(value) else {
            throw fields.error("'\(fields.path(key))' must be in \(formatNumber(limits.zoomScale.lowerBound))...\(formatNumber(limits.zoomScale.upperBound)), found \(formatNumber(value))")
        }
        return value
    }
}

// MARK: - Field access with precise messages

/// Where a line came from, for messages.
private struct LineContext {
    var file: String?
    var line: Int

    func error(_ message: String) -> TraceError { TraceError(file: file, line: line, message: message) }
}

/// A JSON object being read, with the dotted path that names its fields in messages.
private struct Fields {
    let object: JSONObject
    /// The line's kind ("setup", "touch.down"), the first word of every message.
    let owner: String
    /// Dotted prefix of this object's fields ("viewport." for the viewport object).
    let prefix: String
    let context: LineContext

    init(_ object: JSONObject, owner: String, prefix: String = "", context: LineContext) {
        self.object = object
        self.owner = owner
        self.prefix = prefix
        self.context = context
    }

    var isNested: Bool { !prefix.isEmpty }

    func nested(_ object: JSONObject, name: String) -> Fields {
        Fields(object, owner: owner, prefix: prefix + name + ".", context: context)
    }

    func path(_ key: String) -> String { prefix + key }

    func error(_ message: String) -> TraceError { context.error("\(owner): \(message)") }

    func has(_ key: String) -> Bool { object[key] != nil }

    func value(_ key: String) -> JSONValue? { object[key] }

    func rejectUnknownKeys(_ known: [String], what: String) throws(TraceError) {
        for key in object.keys where !known.contains(key) {
            let place = prefix.isEmpty ? "" : " in '\(prefix.dropLast())'"
            throw error("unknown \(what) '\(key)'\(place)\(suggestion(key, known)); known: \(known.joined(separator: ", "))")
        }
    }

    private func typeError(_ key: String, _ expected: String, _ found: JSONValue) -> TraceError {
        error("'\(path(key))' must be \(expected), found \(found.typeDescription)")
    }

    func optionalNumber(_ key: String) throws(TraceError) -> Double? {
        guard let value = object[key] else { return nil }
        guard case .number(let number) = value else { throw typeError(key, "a number", value) }
        return number
    }

    func requireNumber(_ key: String) throws(TraceError) -> Double {
        guard let number = try optionalNumber(key) else { throw error("missing field '\(path(key))' (a number)") }
        return number
    }

    func requireInteger(_ key: String) throws(TraceError) -> Int {
        guard let value = object[key] else { throw error("missing field '\(path(key))' (an integer)") }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 9.0e15 else {
            throw typeError(key, "an integer", value)
        }
        return Int(number)
    }

    func optionalBool(_ key: String) throws(TraceError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else { throw typeError(key, "true or false", value) }
        return flag
    }

    func requireBool(_ key: String) throws(TraceError) -> Bool {
        guard let flag = try optionalBool(key) else { throw error("missing field '\(path(key))' (true or false)") }
        return flag
    }

    func requireString(_ key: String) throws(TraceError) -> String {
        guard let value = object[key] else { throw error("missing field '\(path(key))' (a string)") }
        guard case .string(let text) = value else { throw typeError(key, "a string", value) }
        return text
    }

    func requireEnum<T>(_ key: String, _ cases: [(String, T)]) throws(TraceError) -> T {
        let names = cases.map { "\"\($0.0)\"" }.joined(separator: ", ")
        guard let value = object[key] else { throw error("missing field '\(path(key))' (one of \(names))") }
        guard case .string(let text) = value, let match = cases.first(where: { $0.0 == text }) else {
            throw typeError(key, "one of \(names)", value)
        }
        return match.1
    }

    func optionalArray(_ key: String) throws(TraceError) -> [JSONValue]? {
        guard let value = object[key] else { return nil }
        guard case .array(let items) = value else { throw typeError(key, "an array", value) }
        return items
    }

    func optionalObject(_ key: String) throws(TraceError) -> Fields? {
        guard let value = object[key] else { return nil }
        guard case .object(let inner) = value else { throw typeError(key, "an object", value) }
        return nested(inner, name: key)
    }
}

/// " (did you mean 'x'?)" when a known name is one or two edits away from `name`.
private func suggestion(_ name: String, _ known: [String]) -> String {
    let lowered = Array(name.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in known {
        let d = editDistance(lowered, Array(candidate.lowercased()))
        if d <= 2, d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best.map { " (did you mean '\($0.name)'?)" } ?? ""
}

/// Levenshtein distance, for suggestions only (names are short).
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}
