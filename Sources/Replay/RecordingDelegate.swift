// A scroll-view delegate that writes down every call with the state at that moment, and
// answers as the trace's setup asks (target override, scroll-to-top refusal): the one recorder
// of delegate calls, used by the replay and by the tests of ScrollKit and the seat.
import Foundation
import ScrollKit
import TraceFormat

/// Records `ScrollViewDelegate` calls as `ReplayRecord`s, in call order.
public final class RecordingDelegate: ScrollViewDelegate {
    /// How the delegate answers the scroll view.
    public var config: DelegateConfig
    /// The view `viewForZooming(in:)` returns: the setup's zooming content view, if any.
    public weak var zoomingView: View?
    /// The current time in ms, read at each call (the host's event or frame time).
    public var now: Double = 0
    /// Receives each record as the call is made.
    public var sink: (ReplayRecord) -> Void
    /// While true nothing is recorded (the replay sets up the starting scale and offset).
    public var isMuted = false
    /// The scroll view's number in the setup (0 its own, 1 and up nested), on every record.
    public var view = 0
    /// Runs inside every delegate call, after it is recorded (muted or not), with the call and
    /// the scroll view: what an app's delegate would do there (a test's re-entrant change).
    public var onCall: ((DelegateCall, ScrollView) -> Void)?
    /// The target the scroll view proposed at the last `scrollViewWillEndDragging`, before
    /// `config.targetContentOffset` replaced it; nil before the first.
    public private(set) var lastProposedTarget: CGPoint?
    /// Zoom calls (`willBeginZooming`, `didEndZooming`) whose view was not `zoomingView`: a
    /// scroll view must name the view its delegate gave it, so anything but 0 is a defect.
    public private(set) var zoomCallsNamingAnotherView = 0

    /// A delegate answering per `config` and handing records to `sink`.
    public init(config: DelegateConfig = DelegateConfig(), sink: @escaping (ReplayRecord) -> Void) {
        self.config = config
        self.sink = sink
    }

    /// The state snapshot the output lines carry.
    public static func snapshot(of scrollView: ScrollView) -> ScrollStateSnapshot {
        ScrollStateSnapshot(offset: scrollView.contentOffset, tracking: scrollView.isTracking,
                            dragging: scrollView.isDragging, decelerating: scrollView.isDecelerating,
                            zooming: scrollView.isZooming, zoomBouncing: scrollView.isZoomBouncing,
                            zoomScale: Double(scrollView.zoomScale))
    }

    private func record(_ call: DelegateCall, _ scrollView: ScrollView) {
        if !isMuted {
            var state = Self.snapshot(of: scrollView)
            state.view = view
            sink(.delegate(time: now, call: call, state: state))
        }
        onCall?(call, scrollView)
    }

    /// Records what control `id` received, with the scroll view's state at that moment.
    public func recordControl(id: String, event: ControlEvent, in scrollView: ScrollView) {
        guard !isMuted else { return }
        var state = Self.snapshot(of: scrollView)
        state.view = view
        sink(.control(time: now, id: id, event: event, state: state))
    }

    /// Records every event of `control` as control `id` (its `identifier` when nil), with the
    /// state of `scrollView`, the scroll view whose content holds it.
    public func watch(_ control: Control, as id: String? = nil, in scrollView: ScrollView) {
        control.addAction(for: Control.Event.allCases) { [unowned self, unowned scrollView] control, event in
            self.recordControl(id: id ?? control.identifier ?? "", event: ControlEvent(event), in: scrollView)
        }
    }

    /// Records `scrollViewDidScroll`.
    public func scrollViewDidScroll(_ scrollView: ScrollView) {
        record(.didScroll, scrollView)
    }

    /// Records `scrollViewWillBeginDragging`.
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {
        record(.willBeginDragging, scrollView)
    }

    /// Applies the configured target override, then records the call with the final target.
    public func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: CGPoint,
                                          targetContentOffset: inout CGPoint) {
        lastProposedTarget = targetContentOffset
        if let target = config.targetContentOffset { targetContentOffset = target }
        record(.willEndDragging(velocity: velocity, targetContentOffset: targetContentOffset), scrollView)
    }

    /// Records `scrollViewDidEndDragging`.
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        record(.didEndDragging(willDecelerate: decelerate), scrollView)
    }

    /// Records `scrollViewWillBeginDecelerating`.
    public func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) {
        record(.willBeginDecelerating, scrollView)
    }

    /// Records `scrollViewDidEndDecelerating`.
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {
        record(.didEndDecelerating, scrollView)
    }

    /// Records `scrollViewDidEndScrollingAnimation`.
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {
        record(.didEndScrollingAnimation, scrollView)
    }

    /// Records the question and answers with `config.shouldScrollToTop`.
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
        record(.shouldScrollToTop, scrollView)
        return config.shouldScrollToTop
    }

    /// Records `scrollViewDidScrollToTop`.
    public func scrollViewDidScrollToTop(_ scrollView: ScrollView) {
        record(.didScrollToTop, scrollView)
    }

    /// The setup's zooming content view (nil: zooming disabled, as UIKit's default).
    public func viewForZooming(in scrollView: ScrollView) -> View? {
        zoomingView
    }

    /// Records `scrollViewWillBeginZooming`.
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) {
        if view !== zoomingView { zoomCallsNamingAnotherView += 1 }
        record(.willBeginZooming, scrollView)
    }

    /// Records `scrollViewDidZoom`.
    public func scrollViewDidZoom(_ scrollView: ScrollView) {
        record(.didZoom, scrollView)
    }

    /// Records `scrollViewDidEndZooming` with the final scale.
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: CGFloat) {
        if view !== zoomingView { zoomCallsNamingAnotherView += 1 }
        record(.didEndZooming(atScale: Double(scale)), scrollView)
    }
}
