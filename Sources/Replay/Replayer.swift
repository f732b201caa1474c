// Runs a validated trace against a real ScrollView on the simulated display and reports what
// the delegate saw: the offscreen twin of the live window's event loop.
import Foundation
import Host
import ScrollKit
import TraceFormat

/// How a replay ended.
public struct ReplayResult: Equatable, Sendable {
    /// True when the scroll view was still animating 60 s after the last event.
    public var timedOut: Bool
    /// The limit that stopped the replay before its end, nil when it ran to the end.
    public var stoppedBy: ReplayLimit?
    /// Frame ticks delivered.
    public var frames: Int
    /// The final `end` (or `timeout`, or `stopped`) record, also handed to the sink.
    public var final: ReplayRecord
}

/// Replays one trace on a fresh scroll view. Use once: create, `run`, read the result.
public final class Replayer: DisplayClient {
    /// How long the replay keeps ticking after the last event before giving up, in ms
    /// (docs/trace-format.md: 60 s of simulated time).
    public static let settleLimit: Double = 60_000
    /// The most frame ticks one replay delivers: 500 000, 2 h 19 min of motion at 60 Hz or
    /// 8 min 20 s at the largest frame rate (1000 Hz). With every tick a `scrollViewDidScroll`
    /// and a `--frames` line (about 310 bytes together), that is at most 155 MB of output, and
    /// it replays in about 4 s on the development machine (2 cores, release build): the bound
    /// that keeps any accepted trace within 10 s and 200 MB (decision, issue 12).
    public static let frameLimit = 500_000

    /// The trace being replayed.
    public let trace: Trace
    /// The window's root view, sized to the viewport, holding the scroll view at (0, 0).
    public let rootView: View
    /// The scroll view under test (view 0).
    public let scrollView: ScrollView
    /// The zooming content view when the setup is `zoomable`.
    public let zoomingView: View?
    /// The setup's buttons, in order, as controls in the scroll view's content.
    public let controls: [Control]
    /// Every scroll view of the setup, numbered as traces number them: `scrollView` first,
    /// then the nested ones depth first.
    public let scrollViews: [ScrollView]
    /// Whether a `frame` record is emitted for every tick (`--frames`).
    public var reportsFrames: Bool

    private let recorders: [RecordingDelegate]
    private var recorder: RecordingDelegate { recorders[0] }
    /// Shares input among the scroll views as a live window does.
    private let router: InputRouter
    private let sink: (ReplayRecord) -> Void
    /// The frame loop's state, kept as the live window keeps it.
    private var scheduler = FrameScheduler()
    private var display: SimulatedDisplay?
    private var stopReason: ReplayLimit?
    /// Each nested view's offset and scale once set up, to report the ones that changed.
    private var nestedStart: [(offset: CGPoint, zoomScale: CGFloat)] = []

    /// Builds the view tree the setup describes: the scroll view at the root's origin, the
    /// zooming content view (when `zoomable`), the buttons as `Control`s in the content and
    /// the nested scroll views in it. `file` names the trace in messages. Every trace the
    /// parser accepts can be replayed.
    public init(trace: Trace, file: String? = nil, reportsFrames: Bool = false,
                sink: @escaping (ReplayRecord) -> Void) throws(TraceError) {
        self.trace = trace
        self.reportsFrames = reportsFrames
        self.sink = sink
        let setup = trace.setup
        let frame = CGRect(origin: .zero, size: setup.viewport)
        rootView = View(frame: frame)
        let scrollView = ReplayScrollView(frame: frame)
        self.scrollView = scrollView
        rootView.addSubview(scrollView)
        let recorder = RecordingDelegate(config: setup.delegate, sink: sink)
        if setup.zoomable {
            // The zooming content view fills the content size, as an image view would.
            let content = View(frame: CGRect(origin: .zero, size: setup.content))
            scrollView.addSubview(content)
            zoomingView = content
            recorder.zoomingView = content
        } else {
            zoomingView = nil
        }
        // Buttons go on top of the content, in content coordinates; each reports what it
        // receives as a control line, interleaved with the delegate lines.
        var controls: [Control] = []
        for button in setup.buttons {
            let control = Control(frame: button.frame)
            control.identifier = button.id
            recorder.watch(control, in: scrollView)
            scrollView.addSubview(control)
            controls.append(control)
        }
        self.controls = controls
        Self.configure(scrollView, options: setup.options)
        scrollView.contentSize = setup.content
        var views: [ScrollView] = [scrollView]
        var recorders = [recorder]
        Self.addNested(setup.nested, to: scrollView, views: &views, recorders: &recorders, sink: sink)
        scrollViews = views
        self.recorders = recorders
        router = InputRouter(root: rootView)
        // Setting the starting scales and offsets is part of building the screen, not a zoom or
        // a scroll the output should report: the delegates (which name the zoom views) listen
        // muted until then.
        for (view, delegate) in zip(views, recorders) {
            delegate.isMuted = true
            view.delegate = delegate
        }
        if let scale = setup.options.zoomScale { scrollView.zoomScale = CGFloat(scale) }
        if let offset = setup.options.contentOffset { scrollView.contentOffset = offset }
        Self.applyStartingState(setup.nested, views: views, from: 1)
        for delegate in recorders { delegate.isMuted = false }
        nestedStart = views.dropFirst().map { ($0.contentOffset, $0.zoomScale) }
        rootView.onNeedsFrame = { [unowned self] in self.scheduler.invalidate() }
        heardFromScrollViews()
    }

    /// Adds the nested scroll views of `specs` to `parent`'s content, depth first, each with a
    /// recording delegate that numbers its lines.
    private static func addNested(_ specs: [NestedScrollSetup], to parent: ScrollView, views: inout [ScrollView],
                                  recorders: inout [RecordingDelegate], sink: @escaping (ReplayRecord) -> Void) {
        for spec in specs {
            let delegate = RecordingDelegate(sink: sink)
            delegate.view = views.count
            let view: ScrollView
            if spec.fitsContent {
                let zooming = ZoomingScrollView(frame: spec.frame, zoomedView: View())
                if let detail = spec.detailScale { zooming.detailScale = CGFloat(detail) }
                zooming.upscalesToFit = spec.upscalesToFit
                view = zooming
            } else {
                view = ScrollView(frame: spec.frame)
                if spec.zoomable {
                    let content = View(frame: CGRect(origin: .zero, size: spec.content))
                    view.addSubview(content)
                    delegate.zoomingView = content
                }
                view.contentSize = spec.content
            }
            configure(view, options: spec.options)
            parent.addSubview(view)
            views.append(view)
            recorders.append(delegate)
            addNested(spec.nested, to: view, views: &views, recorders: &recorders, sink: sink)
        }
    }

    /// Lays out the fitted views' content and applies each nested view's starting scale and
    /// offset, in view order from `first`; returns the next view number.
    @discardableResult
    private static func applyStartingState(_ specs: [NestedScrollSetup], views: [ScrollView], from first: Int) -> Int {
        var index = first
        for spec in specs {
            let view = views[index]
            if let zooming = view as? ZoomingScrollView, spec.content.width > 0, spec.content.height > 0 {
                zooming.zoomedContentSize = spec.content
            }
            if let scale = spec.options.zoomScale { view.zoomScale = CGFloat(scale) }
            if let offset = spec.options.contentOffset { view.contentOffset = offset }
            index = applyStartingState(spec.nested, views: views, from: index + 1)
        }
        return index
    }

    /// Ends the replay after the record being handed over (a sink whose output budget is
    /// spent calls this): the final record is `stopped` with `limit`.
    public func stop(limit: ReplayLimit) {
        stopReason = stopReason ?? limit
        display?.stop()
    }

    /// Replays the whole trace, handing every record to the sink, the final one last; stops
    /// after `frameLimit` ticks (default `Replayer.frameLimit`) or a `stop(limit:)`.
    public func run(frameLimit: Int = Replayer.frameLimit) -> ReplayResult {
        let display = SimulatedDisplay(frameRate: trace.setup.frameRate)
        display.frameLimit = frameLimit
        self.display = display
        let timeline = Self.timeline(of: trace)
        let outcome = display.run(timeline, on: self, settleLimit: Self.settleLimit)
        let final: ReplayRecord
        let offset = scrollView.contentOffset
        let zoomScale = RecordingDelegate.snapshot(of: scrollView).zoomScale
        switch outcome {
        case .settled(let time):
            final = .end(time: time, offset: offset, zoomScale: zoomScale, frames: display.frameCount)
        case .timedOut(let time):
            final = .timeout(time: time, offset: offset, zoomScale: zoomScale, frames: display.frameCount)
        case .stopped(let time):
            final = .stopped(time: time, offset: offset, zoomScale: zoomScale, frames: display.frameCount,
                             limit: stopReason ?? .frames)
        }
        // Nested views away from where they start say where they ended, before the last line: a
        // zooming page away from its fit (as a recording's end comment lists them), any other
        // view that moved or zoomed.
        for (index, view) in scrollViews.enumerated().dropFirst() {
            let start = nestedStart[index - 1]
            if let zooming = view as? ZoomingScrollView {
                guard zooming.zoomedContentSize != nil, !zooming.isAtRest else { continue }
            } else {
                guard view.contentOffset != start.offset || view.zoomScale != start.zoomScale else { continue }
            }
            sink(.nestedEnd(time: final.time, view: index, offset: view.contentOffset, zoomScale: Double(view.zoomScale)))
        }
        sink(final)
        var result = ReplayResult(timedOut: false, frames: display.frameCount, final: final)
        switch final {
        case .timeout: result.timedOut = true
        case .stopped(_, _, _, _, let limit): result.stoppedBy = limit
        default: break
        }
        return result
    }

    /// Replays `trace` and returns every record (tests and small traces).
    public static func records(of trace: Trace, frames: Bool = false) throws(TraceError) -> [ReplayRecord] {
        var records: [ReplayRecord] = []
        let replayer = try Replayer(trace: trace, reportsFrames: frames) { records.append($0) }
        _ = replayer.run()
        return records
    }

    /// What the replay delivers at one time: an input frame, or what the app did.
    public enum Step: Equatable {
        /// The events of one input frame, stamped with the seat's state.
        case input([InputEvent])
        /// A method called by application code on scroll view `view`.
        case call(ScrollCall, view: Int)
        /// A key the app handed to scroll view `view` itself, stamped with the seat's state.
        case key(InputEvent, view: Int)
        /// A nested view's content changed.
        case layout(NestedLayout)
    }

    /// The trace's events as the replay delivers them: input grouped into frames and stamped
    /// as the live seat does it (`InputFrameBuilder`), calls in between.
    public static func timeline(of trace: Trace) -> [TimedAction<Step>] {
        var frames = InputFrameBuilder()
        var steps: [TimedAction<Step>] = []
        func flush() { steps += frames.takeFrames().map { TimedAction(time: $0.time, action: Step.input($0.action)) } }
        for event in trace.events {
            switch event.action {
            case .input(let kind, let modifiers, nil):
                frames.append(kind, at: event.time, modifiers: modifiers, frame: event.frame)
            case .input(let kind, let modifiers, let view?):
                // The key still passes the seat (its modifiers count for what follows).
                frames.append(kind, at: event.time, modifiers: modifiers)
                guard let key = frames.takeFrames().last?.action.last else { continue }
                steps.append(TimedAction(time: event.time, action: .key(key, view: view)))
            case .call(let call, let view):
                flush()
                steps.append(TimedAction(time: event.time, action: .call(call, view: view)))
            case .layout(let layout):
                flush()
                steps.append(TimedAction(time: event.time, action: .layout(layout)))
            }
        }
        flush()
        return steps
    }

    // MARK: DisplayClient

    /// Input goes to the scroll views as the seat and the router deliver it; calls, keys the
    /// app handles and layout changes run as app code would.
    public func perform(_ action: Step, at time: Double) {
        for delegate in recorders { delegate.now = time }
        defer { heardFromScrollViews() }
        switch action {
        case .input(let frame):
            router.handle(frame: frame)
        case .key(let event, let view):
            scrollViews[view].handle(event)
        case .call(let call, let view):
            let target = scrollViews[view]
            // Animations a method starts begin now, not at the last frame.
            target.currentTime = time
            switch call {
            case .setContentOffset(let offset, let animated):
                target.setContentOffset(offset, animated: animated)
            case .scrollRectToVisible(let rect, let animated):
                target.scrollRectToVisible(rect, animated: animated)
            case .flashScrollIndicators:
                target.flashScrollIndicators()
            case .scrollToTop:
                target.scrollToTop()
            case .setZoomScale(let scale, let animated):
                target.setZoomScale(CGFloat(scale), animated: animated)
            case .zoomToRect(let rect, let animated):
                target.zoom(to: rect, animated: animated)
            }
        case .layout(let layout):
            let target = scrollViews[layout.view]
            target.currentTime = time
            if let zooming = target as? ZoomingScrollView {
                if let detail = layout.detailScale { zooming.detailScale = CGFloat(detail) }
                let content = layout.content
                zooming.zoomedContentSize = content.width > 0 && content.height > 0 ? content : nil
            } else {
                target.zoomingView?.bounds.size = layout.content
                target.contentSize = layout.content
            }
        }
    }

    /// A frame is due while a scroll view animates or after anything changed on screen.
    public var wantsFrame: Bool { scheduler.wantsFrame }

    /// The scroll views' next timer (a content-touch delay, an indicator fade), in ms.
    public var nextWakeTime: Double? { scheduler.wakeTime }

    /// Runs the scroll views' timers due at `time` then and there, as a live window does when
    /// no frame callback is outstanding.
    public func wake(at time: Double) {
        for delegate in recorders { delegate.now = time }
        scheduler.timerFired()
        scheduler.frameStarts()
        for view in scrollViews { view.advance(to: time) }
        heardFromScrollViews()
    }

    /// Advances animations to the vsync time, as the frame callback does.
    public func tick(frameTime time: Double) {
        for delegate in recorders { delegate.now = time }
        scheduler.frameStarts()
        for view in scrollViews { view.advance(to: time) }
        heardFromScrollViews()
        if reportsFrames {
            sink(.frame(time: time, offset: scrollView.contentOffset,
                        zoomScale: RecordingDelegate.snapshot(of: scrollView).zoomScale))
        }
    }

    /// Tells the scheduler what the scroll views wait for now: a frame while one animates,
    /// and their earliest timer (a content-touch delay may fall between two frames of another
    /// view's deceleration).
    private func heardFromScrollViews() {
        scheduler.sceneRequests(animating: scrollViews.contains(where: \.isAnimating),
                                wakeTime: scrollViews.compactMap(\.nextWakeTime).min())
    }

    // MARK: Setup

    private static func configure(_ scrollView: ScrollView, options: ScrollOptions) {
        if let inset = options.contentInset { scrollView.contentInset = inset }
        if let value = options.bounces { scrollView.bounces = value }
        if let value = options.alwaysBounceVertical { scrollView.alwaysBounceVertical = value }
        if let value = options.alwaysBounceHorizontal { scrollView.alwaysBounceHorizontal = value }
        if let value = options.pagingEnabled { scrollView.isPagingEnabled = value }
        if let value = options.scrollEnabled { scrollView.isScrollEnabled = value }
        if let value = options.directionalLockEnabled { scrollView.isDirectionalLockEnabled = value }
        switch options.decelerationRate {
        case .normal?: scrollView.decelerationRate = .normal
        case .fast?: scrollView.decelerationRate = .fast
        case .custom(let rate)?: scrollView.decelerationRate = ScrollView.DecelerationRate(rawValue: CGFloat(rate))
        case nil: break
        }
        if let value = options.minimumZoomScale { scrollView.minimumZoomScale = CGFloat(value) }
        if let value = options.maximumZoomScale { scrollView.maximumZoomScale = CGFloat(value) }
        if let value = options.bouncesZoom { scrollView.bouncesZoom = value }
        if let value = options.delaysContentTouches { scrollView.delaysContentTouches = value }
        if let value = options.canCancelContentTouches { scrollView.canCancelContentTouches = value }
        if let value = options.scrollsToTop { scrollView.scrollsToTop = value }
        if let value = options.showsVerticalScrollIndicator { scrollView.showsVerticalScrollIndicator = value }
        if let value = options.showsHorizontalScrollIndicator { scrollView.showsHorizontalScrollIndicator = value }
        // zoomScale and contentOffset come after the delegate, against the final size and insets.
    }
}

/// The scroll view a replay runs: UIKit's except that a drag may take a touch away from a
/// button that already has it. UIKit's `touchesShouldCancel(in:)` answers NO for controls,
/// which would make a trace's `canCancelContentTouches` change nothing for its buttons; the
/// trace format places buttons precisely to test that option, so the replay answers YES, as
/// apps that put buttons in scrolling content do (UITableView-style). With
/// `canCancelContentTouches` false the buttons keep their touches all the same.
final class ReplayScrollView: ScrollView {
    override func touchesShouldCancel(in view: View) -> Bool { true }
}
