// The validated contents of a trace file (docs/trace-format.md), independent of JSON.
import Foundation
import ScrollKit

/// A whole input session for one scroll view: the setup line and the events, in file order.
public struct Trace: Equatable, Sendable {
    /// How the scroll view is configured before input starts.
    public var setup: TraceSetup
    /// Input and programmatic calls with non-decreasing times.
    public var events: [TraceEvent]

    /// Creates a trace; `events` must already be in time order (the parser guarantees it).
    public init(setup: TraceSetup, events: [TraceEvent]) {
        self.setup = setup
        self.events = events
    }

    /// Time of the last event in milliseconds (0 for a trace without events).
    public var duration: Double { events.last?.time ?? 0 }
}

/// The trace's first line: the scroll view's size, content and properties.
public struct TraceSetup: Equatable, Sendable {
    /// The scroll view's frame size (its origin is 0,0 in the root view), in points.
    public var viewport: CGSize
    /// `contentSize`, in points.
    public var content: CGSize
    /// Display refresh rate in frames per second; frames tick every `1000 / frameRate` ms.
    public var frameRate: Double
    /// Scroll-view properties set before input starts.
    public var options: ScrollOptions
    /// Button-like controls placed in the content (content coordinates).
    public var buttons: [ButtonSpec]
    /// Whether the scroll view gets a zooming content view filling the content size.
    public var zoomable: Bool
    /// How the recording delegate answers.
    public var delegate: DelegateConfig
    /// Scroll views inside the content (a pager's zoomable pages): the project's addition to
    /// the format. Views are numbered depth first from 1; the setup's own scroll view is 0.
    public var nested: [NestedScrollSetup] = []
    /// 1-based line number of the setup line in the file (for messages).
    public var line: Int

    /// Creates a setup with the spec's defaults for everything but the sizes.
    public init(viewport: CGSize, content: CGSize, frameRate: Double = 60, options: ScrollOptions = ScrollOptions(),
                buttons: [ButtonSpec] = [], zoomable: Bool = false, delegate: DelegateConfig = DelegateConfig(),
                line: Int = 1) {
        self.viewport = viewport
        self.content = content
        self.frameRate = frameRate
        self.options = options
        self.buttons = buttons
        self.zoomable = zoomable
        self.delegate = delegate
        self.line = line
    }

    /// Milliseconds between frame ticks.
    public var frameInterval: Double { 1000 / frameRate }

    /// How many scroll views the setup describes, its own included (1 + every nested one).
    public var viewCount: Int { 1 + nested.reduce(0) { $0 + $1.viewCount } }
}

/// A scroll view inside another's content, as a trace's setup describes it (`nested`).
public struct NestedScrollSetup: Equatable, Sendable {
    /// Frame in the enclosing scroll view's content coordinates, in points.
    public var frame: CGRect
    /// `contentSize`, in points; for a zoomable view, its zooming view's unscaled size. Zero:
    /// no content yet (a page whose picture has not loaded).
    public var content: CGSize
    /// Whether the view zooms a content view of `content`'s size.
    public var zoomable: Bool
    /// Whether it is a `ZoomingScrollView`: the content fitted and centred, zooming from the
    /// fit, double-tap zoom, back to the fit once scrolled out of sight (implies zoomable).
    public var fitsContent: Bool
    /// For `fitsContent`: the scale of full detail (`ZoomingScrollView.detailScale`; one image
    /// pixel per device pixel is 1 / the output scale); nil keeps the default, 1.
    public var detailScale: Double?
    /// For `fitsContent`: whether content smaller than the view is enlarged to fill it
    /// (`ZoomingScrollView.upscalesToFit`; the key `upscalesToFit`, default true).
    public var upscalesToFit: Bool
    /// Properties set before input starts, as the setup's own `options`.
    public var options: ScrollOptions
    /// Scroll views inside this one's content.
    public var nested: [NestedScrollSetup]

    /// A nested view at `frame` with `content`; everything else at its default.
    public init(frame: CGRect, content: CGSize, zoomable: Bool = false, fitsContent: Bool = false, detailScale: Double? = nil,
                upscalesToFit: Bool = true, options: ScrollOptions = ScrollOptions(), nested: [NestedScrollSetup] = []) {
        self.frame = frame
        self.content = content
        self.zoomable = zoomable
        self.fitsContent = fitsContent
        self.detailScale = detailScale
        self.upscalesToFit = upscalesToFit
        self.options = options
        self.nested = nested
    }

    /// This view and every one inside it.
    public var viewCount: Int { 1 + nested.reduce(0) { $0 + $1.viewCount } }
}

/// A nested view's content changed while the trace ran (a page's picture loaded): the
/// project's `layout` line.
public struct NestedLayout: Equatable, Sendable {
    /// The view, numbered as `TraceSetup.nested` numbers them (1 and up).
    public var view: Int
    /// Its new content size (for a zoomable view, the zooming view's unscaled size), in points.
    public var content: CGSize
    /// For a `fitsContent` view, its new detail scale; nil keeps it.
    public var detailScale: Double?

    /// Creates a layout change.
    public init(view: Int, content: CGSize, detailScale: Double? = nil) {
        self.view = view
        self.content = content
        self.detailScale = detailScale
    }
}

/// Scroll-view properties a trace may set, named after UIKit's Swift properties without
/// `is`. Nil leaves the scroll view's default.
public struct ScrollOptions: Equatable, Sendable {
    /// `contentOffset`, in points.
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
    /// `decelerationRate`, per millisecond.
    public var decelerationRate: DecelerationRateSetting?
    /// `minimumZoomScale` (scale factor, 1 = 100 %).
    public var minimumZoomScale: Double?
    /// `maximumZoomScale` (scale factor).
    public var maximumZoomScale: Double?
    /// `zoomScale` (scale factor).
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

    /// Creates options that change nothing.
    public init() {}

    /// Whether any of the zoom options is set (they need the zooming API).
    public var setsZoom: Bool {
        minimumZoomScale != nil || maximumZoomScale != nil || zoomScale != nil || bouncesZoom != nil
    }
}

extension ScrollOptions {
    /// How an option's value is spelled in a trace, and which property of `ScrollOptions`
    /// keeps it.
    enum Value: Sendable {
        /// `{"x":…,"y":…}`, in points.
        case point(WritableKeyPath<ScrollOptions, CGPoint?> & Sendable)
        /// `{"top":…,"left":…,"bottom":…,"right":…}`, in points.
        case insets(WritableKeyPath<ScrollOptions, EdgeInsets?> & Sendable)
        /// `true` or `false`.
        case flag(WritableKeyPath<ScrollOptions, Bool?> & Sendable)
        /// `"normal"`, `"fast"` or a number per millisecond.
        case rate(WritableKeyPath<ScrollOptions, DecelerationRateSetting?> & Sendable)
        /// A scale factor.
        case scale(WritableKeyPath<ScrollOptions, Double?> & Sendable)
    }

    /// Every option of the setup's `options` object, by its name in the format, in the
    /// spec's order. The parser reads and the setup line writes exactly these.
    static let all: [(name: String, value: Value)] = [
        ("contentOffset", .point(\.contentOffset)),
        ("contentInset", .insets(\.contentInset)),
        ("bounces", .flag(\.bounces)),
        ("alwaysBounceVertical", .flag(\.alwaysBounceVertical)),
        ("alwaysBounceHorizontal", .flag(\.alwaysBounceHorizontal)),
        ("pagingEnabled", .flag(\.pagingEnabled)),
        ("scrollEnabled", .flag(\.scrollEnabled)),
        ("directionalLockEnabled", .flag(\.directionalLockEnabled)),
        ("decelerationRate", .rate(\.decelerationRate)),
        ("minimumZoomScale", .scale(\.minimumZoomScale)),
        ("maximumZoomScale", .scale(\.maximumZoomScale)),
        ("zoomScale", .scale(\.zoomScale)),
        ("bouncesZoom", .flag(\.bouncesZoom)),
        ("delaysContentTouches", .flag(\.delaysContentTouches)),
        ("canCancelContentTouches", .flag(\.canCancelContentTouches)),
        ("scrollsToTop", .flag(\.scrollsToTop)),
        ("showsVerticalScrollIndicator", .flag(\.showsVerticalScrollIndicator)),
        ("showsHorizontalScrollIndicator", .flag(\.showsHorizontalScrollIndicator)),
    ]
}

/// A `decelerationRate` as a trace spells it.
public enum DecelerationRateSetting: Equatable, Sendable {
    /// `.normal` (0.998 per ms).
    case normal
    /// `.fast` (0.99 per ms).
    case fast
    /// Any other rate, per millisecond, in (0, 1).
    case custom(Double)

    /// How a trace spells `rate`: by UIKit's name when it is one of UIKit's two rates, so the
    /// file reads as the code does.
    public init(_ rate: ScrollView.DecelerationRate) {
        switch rate {
        case .normal: self = .normal
        case .fast: self = .fast
        default: self = .custom(Double(rate.rawValue))
        }
    }
}

/// A button-like control in the content, for content-touch delivery tests.
public struct ButtonSpec: Equatable, Sendable {
    /// The name reported in `control` output lines.
    public var id: String
    /// Frame in content coordinates, in points.
    public var frame: CGRect

    /// Creates a control description.
    public init(id: String, frame: CGRect) {
        self.id = id
        self.frame = frame
    }
}

/// How the recording delegate answers the scroll view.
public struct DelegateConfig: Equatable, Sendable {
    /// When set, `scrollViewWillEndDragging` replaces the target with this point (points).
    public var targetContentOffset: CGPoint?
    /// The answer to `scrollViewShouldScrollToTop` (UIKit's default is YES).
    public var shouldScrollToTop: Bool

    /// Creates a configuration; the defaults record without interfering.
    public init(targetContentOffset: CGPoint? = nil, shouldScrollToTop: Bool = true) {
        self.targetContentOffset = targetContentOffset
        self.shouldScrollToTop = shouldScrollToTop
    }
}

/// One timed line of a trace after the setup.
public struct TraceEvent: Equatable, Sendable {
    /// Milliseconds since the trace start.
    public var time: Double
    /// What happens at `time`.
    public var action: TraceAction
    /// 1-based line number in the file (for messages).
    public var line: Int
    /// The input frame the event arrived in (`wl_touch.frame`, `wl_pointer.frame`), as a
    /// recording numbers them: consecutive input lines with one number were delivered
    /// together (the project's addition). Nil for hand-written lines, which a replay groups
    /// by equal times instead.
    public var frame: Int?

    /// Creates an event.
    public init(time: Double, action: TraceAction, line: Int = 0, frame: Int? = nil) {
        self.time = time
        self.action = action
        self.line = line
        self.frame = frame
    }
}

/// What a trace event does: input from the seat, or a programmatic call on the scroll view.
public enum TraceAction: Equatable, Sendable {
    /// An input event, delivered as the Wayland seat would deliver it; `modifiers` are those a
    /// key line states (other lines take the seat's, see `SeatState`). `view` (a key line's,
    /// the project's addition): the app handed the key to that scroll view itself.
    case input(InputEvent.Kind, modifiers: InputEvent.Modifiers = [], view: Int? = nil)
    /// A method called by application code on scroll view `view` (0: the setup's own).
    case call(ScrollCall, view: Int = 0)
    /// A nested view's content changed (the project's `layout` line).
    case layout(NestedLayout)
}

/// Programmatic scroll-view methods a trace can call.
public enum ScrollCall: Equatable, Sendable {
    /// `setContentOffset(_:animated:)`, offset in points.
    case setContentOffset(CGPoint, animated: Bool)
    /// `scrollRectToVisible(_:animated:)`, rect in content coordinates (points).
    case scrollRectToVisible(CGRect, animated: Bool)
    /// `setZoomScale(_:animated:)`, scale factor.
    case setZoomScale(Double, animated: Bool)
    /// `zoom(to:animated:)`, rect in the zooming view's coordinates (points).
    case zoomToRect(CGRect, animated: Bool)
    /// `flashScrollIndicators()`.
    case flashScrollIndicators
    /// What a status-bar tap does on iOS: ask the delegate, then scroll to the top.
    case scrollToTop

    /// The method name as the trace spells it.
    public var methodName: String {
        switch self {
        case .setContentOffset: return "setContentOffset"
        case .scrollRectToVisible: return "scrollRectToVisible"
        case .setZoomScale: return "setZoomScale"
        case .zoomToRect: return "zoomToRect"
        case .flashScrollIndicators: return "flashScrollIndicators"
        case .scrollToTop: return "scrollToTop"
        }
    }
}

/// The words event lines spell values with where they are not the Swift case names, shared
/// by the parser and the line formatter so that what one writes the other reads.
enum TraceNames {
    /// `pointer.axis` `source` values, in the spec's order.
    static let axisSources: [(String, InputEvent.AxisSource)] = [
        ("wheel", .wheel), ("finger", .finger), ("continuous", .continuous), ("wheel_tilt", .wheelTilt),
    ]

    /// `key` `modifiers` entries, in the order a recorded line lists them.
    static let modifiers: [(String, InputEvent.Modifiers)] = [
        ("shift", .shift), ("ctrl", .ctrl), ("alt", .alt), ("logo", .logo),
    ]

    /// The `state` of buttons and keys.
    static let pressed: [(String, Bool)] = [("pressed", true), ("released", false)]

    /// How a line spells `source`.
    static func name(of source: InputEvent.AxisSource) -> String {
        axisSources.first { $0.1 == source }?.0 ?? source.rawValue
    }

    /// How a line spells a button's or key's state.
    static func state(_ pressed: Bool) -> String {
        TraceNames.pressed.first { $0.1 == pressed }?.0 ?? ""
    }

    /// Whether `name` can be an xkbcommon keysym name as the format accepts it: 1–64 ASCII
    /// letters, digits and `_` ("Page_Down", "space", "XF86Back").
    static func isKeysymName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }
}
