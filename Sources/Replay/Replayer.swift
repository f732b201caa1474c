// Runs a validated trace against a real ScrollView on the simulated display and reports what
// the delegate saw: the offscreen twin of the live window's event loop.
import Foundation
import ScrollKit

/// How a replay ended.
public struct ReplayResult: Equatable, Sendable {
    /// True when the scroll view was still animating 60 s after the last event.
    public var timedOut: Bool
    /// Frame ticks delivered.
    public var frames: Int
    /// The final `end` (or `timeout`) record, also handed to the sink.
    public var final: ReplayRecord
}

/// Replays one trace on a fresh scroll view. Use once: create, `run`, read the result.
public final class Replayer: DisplayClient {
    /// How long the replay keeps ticking after the last event before giving up, in ms
    /// (spec/trace-format.md: 60 s of simulated time).
    public static let settleLimit: Double = 60_000

    /// The trace being replayed.
    public let trace: Trace
    /// The window's root view, sized to the viewport, holding the scroll view at (0, 0).
    public let rootView: View
    /// The scroll view under test.
    public let scrollView: ScrollView
    /// The zooming content view when the setup is `zoomable`.
    public let zoomingView: View?
    /// Whether a `frame` record is emitted for every tick (`--frames`).
    public var reportsFrames: Bool

    private let recorder: RecordingDelegate
    private let sink: (ReplayRecord) -> Void
    private var frameRequested = false

    /// Builds the view tree the setup describes. Throws for features the scroll view does not
    /// support yet, naming the trace line, so that nothing is replayed half-right.
    public init(trace: Trace, file: String? = nil, reportsFrames: Bool = false,
                sink: @escaping (ReplayRecord) -> Void) throws(TraceError) {
        try Self.checkSupported(trace, file: file)
        self.trace = trace
        self.reportsFrames = reportsFrames
        self.sink = sink
        let setup = trace.setup
        let frame = CGRect(origin: .zero, size: setup.viewport)
        rootView = View(frame: frame)
        scrollView = ScrollView(frame: frame)
        rootView.addSubview(scrollView)
        recorder = RecordingDelegate(config: setup.delegate, sink: sink)
        if setup.zoomable {
            // The zooming content view fills the content size, as an image view would.
            let content = View(frame: CGRect(origin: .zero, size: setup.content))
            scrollView.addSubview(content)
            zoomingView = content
            recorder.zoomingView = content
        } else {
            zoomingView = nil
        }
        Self.configure(scrollView, with: setup)
        // The delegate is attached after configuration: setting the starting offset is part of
        // building the screen, not a scroll the output should report.
        scrollView.delegate = recorder
        rootView.onNeedsFrame = { [unowned self] in self.frameRequested = true }
    }

    /// Replays the whole trace, handing every record to the sink, the final one last.
    public func run() -> ReplayResult {
        let display = SimulatedDisplay(frameRate: trace.setup.frameRate)
        let timeline = trace.events.map { TimedAction(time: $0.time, action: $0.action) }
        let outcome = display.run(timeline, on: self, settleLimit: Self.settleLimit)
        let final: ReplayRecord
        let offset = scrollView.contentOffset
        let zoomScale = RecordingDelegate.snapshot(of: scrollView).zoomScale
        switch outcome {
        case .settled(let time):
            final = .end(time: time, offset: offset, zoomScale: zoomScale, frames: display.frameCount)
        case .timedOut(let time):
            final = .timeout(time: time, offset: offset, zoomScale: zoomScale, frames: display.frameCount)
        }
        sink(final)
        if case .timeout = final {
            return ReplayResult(timedOut: true, frames: display.frameCount, final: final)
        }
        return ReplayResult(timedOut: false, frames: display.frameCount, final: final)
    }

    /// Replays `trace` and returns every record (tests and small traces).
    public static func records(of trace: Trace, frames: Bool = false) throws(TraceError) -> [ReplayRecord] {
        var records: [ReplayRecord] = []
        let replayer = try Replayer(trace: trace, reportsFrames: frames) { records.append($0) }
        _ = replayer.run()
        return records
    }

    // MARK: DisplayClient

    /// Input goes to the scroll view as the seat would deliver it; calls run as app code would.
    public func perform(_ action: TraceAction, at time: Double) {
        recorder.now = time
        switch action {
        case .input(let kind):
            scrollView.handle(InputEvent(time: time, kind: kind))
        case .call(let call):
            // Animations a method starts begin now, not at the last frame.
            scrollView.currentTime = time
            switch call {
            case .setContentOffset(let offset, let animated):
                scrollView.setContentOffset(offset, animated: animated)
            case .scrollRectToVisible(let rect, let animated):
                scrollView.scrollRectToVisible(rect, animated: animated)
            case .flashScrollIndicators:
                scrollView.flashScrollIndicators()
            case .scrollToTop:
                scrollView.scrollToTop()
            case .setZoomScale, .zoomToRect:
                // Refused by checkSupported before the replay starts.
                preconditionFailure("zoom calls are not supported yet")
            }
        }
    }

    /// A frame is due while the scroll view animates or after anything changed on screen.
    public var wantsFrame: Bool { frameRequested || scrollView.isAnimating }

    /// The scroll view's next timer (e.g. the content-touch delay), in ms.
    public var nextWakeTime: Double? { scrollView.nextWakeTime }

    /// Runs the scroll view's timers due at `time`.
    public func wake(at time: Double) {
        recorder.now = time
        scrollView.advance(to: time)
    }

    /// Advances animations to the vsync time, as the frame callback does.
    public func tick(frameTime time: Double) {
        recorder.now = time
        frameRequested = false
        scrollView.advance(to: time)
        if reportsFrames {
            sink(.frame(time: time, offset: scrollView.contentOffset,
                        zoomScale: RecordingDelegate.snapshot(of: scrollView).zoomScale))
        }
    }

    // MARK: Setup

    private static func configure(_ scrollView: ScrollView, with setup: TraceSetup) {
        scrollView.contentSize = setup.content
        let options = setup.options
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
        // Last, so that the offset is set against the final size and insets.
        if let offset = options.contentOffset { scrollView.contentOffset = offset }
    }

    /// Zooming and content controls arrive with a later issue: a trace that needs what the
    /// scroll view cannot do yet is refused (exit status 2) rather than replayed with the feature silently missing.
    private static func checkSupported(_ trace: Trace, file: String?) throws(TraceError) {
        func unsupported(_ line: Int, _ feature: String) -> TraceError {
            TraceError(file: file, line: line, message: "not supported yet: \(feature)")
        }
        let setup = trace.setup
        // minimumZoomScale, maximumZoomScale and bouncesZoom are plain properties already;
        // zoomScale has no setter until zooming lands.
        if setup.options.zoomScale != nil {
            throw unsupported(setup.line, "option zoomScale (ScrollView has no setZoomScale yet)")
        }
        if !setup.buttons.isEmpty { throw unsupported(setup.line, "buttons (content controls are not implemented yet)") }
        for event in trace.events {
            switch event.action {
            case .call(.setZoomScale): throw unsupported(event.line, "call setZoomScale (zooming is not implemented yet)")
            case .call(.zoomToRect): throw unsupported(event.line, "call zoomToRect (zooming is not implemented yet)")
            case .input(.pinch): throw unsupported(event.line, "pointer.pinch (zooming is not implemented yet)")
            default: break
            }
        }
    }
}
