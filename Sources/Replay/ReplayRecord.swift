// What a replay observed, as values: delegate calls with the state at the call, control
// events, frames and the final line. Tests compare these; ReplayOutput prints them.
import Foundation
import ScrollKit

/// The scroll view's state when a delegate method is called (the spec's "state snapshot").
public struct ScrollStateSnapshot: Equatable, Sendable {
    /// `contentOffset`, in points.
    public var offset: CGPoint
    /// `isTracking`.
    public var tracking: Bool
    /// `isDragging`.
    public var dragging: Bool
    /// `isDecelerating`.
    public var decelerating: Bool
    /// `isZooming`.
    public var zooming: Bool
    /// `isZoomBouncing`.
    public var zoomBouncing: Bool
    /// `zoomScale` (scale factor).
    public var zoomScale: Double
    /// Which scroll view: 0 the setup's own, 1 and up its nested ones (the project's addition).
    public var view: Int

    /// Creates a snapshot; the zoom fields default to "not zooming, scale 1", the view to 0.
    public init(offset: CGPoint, tracking: Bool, dragging: Bool, decelerating: Bool, zooming: Bool = false,
                zoomBouncing: Bool = false, zoomScale: Double = 1, view: Int = 0) {
        self.view = view
        self.offset = offset
        self.tracking = tracking
        self.dragging = dragging
        self.decelerating = decelerating
        self.zooming = zooming
        self.zoomBouncing = zoomBouncing
        self.zoomScale = zoomScale
    }
}

/// A `UIScrollViewDelegate` method and the arguments the output shows for it.
public enum DelegateCall: Equatable, Sendable {
    /// `scrollViewDidScroll(_:)`: the content offset changed, whatever the cause.
    case didScroll
    /// `scrollViewWillBeginDragging(_:)`.
    case willBeginDragging
    /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`:
    /// `velocity` in points per millisecond; `targetContentOffset` after the delegate's say, in points.
    case willEndDragging(velocity: CGPoint, targetContentOffset: CGPoint)
    /// `scrollViewDidEndDragging(_:willDecelerate:)`.
    case didEndDragging(willDecelerate: Bool)
    /// `scrollViewWillBeginDecelerating(_:)`.
    case willBeginDecelerating
    /// `scrollViewDidEndDecelerating(_:)`.
    case didEndDecelerating
    /// `scrollViewDidEndScrollingAnimation(_:)`: only after an animated programmatic scroll.
    case didEndScrollingAnimation
    /// `scrollViewDidZoom(_:)`.
    case didZoom
    /// `scrollViewWillBeginZooming(_:with:)`.
    case willBeginZooming
    /// `scrollViewDidEndZooming(_:with:atScale:)`:
    /// `atScale` is the final zoom scale (scale factor).
    case didEndZooming(atScale: Double)
    /// `scrollViewShouldScrollToTop(_:)`.
    case shouldScrollToTop
    /// `scrollViewDidScrollToTop(_:)`.
    case didScrollToTop

    /// The delegate method's base name, as printed in the `call` key.
    public var name: String {
        switch self {
        case .didScroll: return "scrollViewDidScroll"
        case .willBeginDragging: return "scrollViewWillBeginDragging"
        case .willEndDragging: return "scrollViewWillEndDragging"
        case .didEndDragging: return "scrollViewDidEndDragging"
        case .willBeginDecelerating: return "scrollViewWillBeginDecelerating"
        case .didEndDecelerating: return "scrollViewDidEndDecelerating"
        case .didEndScrollingAnimation: return "scrollViewDidEndScrollingAnimation"
        case .didZoom: return "scrollViewDidZoom"
        case .willBeginZooming: return "scrollViewWillBeginZooming"
        case .didEndZooming: return "scrollViewDidEndZooming"
        case .shouldScrollToTop: return "scrollViewShouldScrollToTop"
        case .didScrollToTop: return "scrollViewDidScrollToTop"
        }
    }
}

/// What a control in the content received.
public enum ControlEvent: String, Equatable, Sendable {
    /// A touch began on the control (after any `delaysContentTouches` delay).
    case touchDown
    /// The touch lifted inside the control: a tap.
    case touchUpInside
    /// The touch lifted outside the control it had left (the control kept the touch, e.g.
    /// with `canCancelContentTouches` off). An added value: traces written before it never
    /// produce it.
    case touchUpOutside
    /// The scroll view took the touch away to scroll or zoom, or the system cancelled it.
    case touchCancel

    /// The record for `event` of a ScrollKit `Control`.
    public init(_ event: Control.Event) {
        switch event {
        case .touchDown: self = .touchDown
        case .touchUpInside: self = .touchUpInside
        case .touchUpOutside: self = .touchUpOutside
        case .touchCancel: self = .touchCancel
        }
    }
}

/// A bound on a replay's work or output, past which it stops (see `Replayer.frameLimit`).
public enum ReplayLimit: String, Equatable, Sendable {
    /// The most frame ticks of one replay.
    case frames
    /// The most bytes of output one replay writes (the command-line tool's bound).
    case output
}

/// One line of replay output.
public enum ReplayRecord: Equatable, Sendable {
    /// A delegate call at `time` (ms) with the state as it was when the call was made.
    case delegate(time: Double, call: DelegateCall, state: ScrollStateSnapshot)
    /// A control event at `time` (ms).
    case control(time: Double, id: String, event: ControlEvent, state: ScrollStateSnapshot)
    /// A frame tick at `time` (ms), only with `--frames`.
    case frame(time: Double, offset: CGPoint, zoomScale: Double)
    /// The replay finished at `time` (ms) with nothing animating after `frames` ticks.
    case end(time: Double, offset: CGPoint, zoomScale: Double, frames: Int)
    /// Still animating 60 s after the last event: the replay gave up at `time` (ms).
    case timeout(time: Double, offset: CGPoint, zoomScale: Double, frames: Int)
    /// Where a nested scroll view (`view`, 1 and up) ended, printed before the `end` line for
    /// each one that moved or zoomed during the replay (the project's addition).
    case nestedEnd(time: Double, view: Int, offset: CGPoint, zoomScale: Double)
    /// The replay reached a limit of its work or output (`ReplayLimit`) and stopped at `time`
    /// (ms), the trace not replayed to its end.
    case stopped(time: Double, offset: CGPoint, zoomScale: Double, frames: Int, limit: ReplayLimit)

    /// The delegate call, when this record is one.
    public var delegateCall: DelegateCall? {
        if case .delegate(_, let call, _) = self { return call }
        return nil
    }

    /// The time of the record, in milliseconds.
    public var time: Double {
        switch self {
        case .delegate(let t, _, _), .control(let t, _, _, _), .frame(let t, _, _), .end(let t, _, _, _),
             .timeout(let t, _, _, _), .stopped(let t, _, _, _, _), .nestedEnd(let t, _, _, _):
            return t
        }
    }
}
