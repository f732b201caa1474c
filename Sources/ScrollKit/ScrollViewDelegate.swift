// UIScrollViewDelegate's counterpart: every method optional, called in UIKit's order.
import Foundation

/// Receives a scroll view's scrolling and zooming events, in the order UIKit sends them. Every method has a default implementation, so adopters write only the
/// ones they need. A delegate may change the scroll view from inside any call.
public protocol ScrollViewDelegate: AnyObject {
    /// `contentOffset` changed, whatever changed it (drag, deceleration, bounce, animation,
    /// code). Called once per change, never for a set that changes nothing.
    func scrollViewDidScroll(_ scrollView: ScrollView)
    /// A finger (pointer, touchpad) is about to start scrolling the content; also called at
    /// touch-down when a finger catches moving content.
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// The finger lifted after dragging. `velocity` is in points per millisecond in
    /// content-offset direction; `targetContentOffset` is where the content will come to rest,
    /// and setting it changes where the content comes to rest.
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: CGPoint,
                                   targetContentOffset: inout CGPoint)
    /// The drag ended; `decelerate` says whether the content keeps moving (momentum, bounce
    /// or paging).
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    /// The content is about to decelerate after a drag.
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView)
    /// The content came to rest after decelerating: once for a whole run of drags, since a
    /// touch that catches moving content and flings it again ends no deceleration of its own.
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    /// An animation started by `setContentOffset(_:animated:)`, `scrollRectToVisible(_:animated:)`,
    /// a wheel notch or a scrolling key finished. Never called without an animation.
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
    /// Whether the scroll-to-top trigger (Home / Ctrl+Home) may scroll. Default: true.
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool
    /// Scrolling to the top finished (immediately when it was already there).
    func scrollViewDidScrollToTop(_ scrollView: ScrollView)
    /// The subview to scale when zooming (asked whenever it is needed); nil (the default)
    /// disables zooming, as does a view that is not a descendant of the scroll view.
    func viewForZooming(in scrollView: ScrollView) -> View?
    /// A zoom gesture (two fingers, a touchpad pinch) on `view` is about to change the scale.
    /// Programmatic and Ctrl+wheel zooms do not send it.
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?)
    /// `zoomScale` changed (after the `scrollViewDidScroll` of the same step, if the offset
    /// moved too).
    func scrollViewDidZoom(_ scrollView: ScrollView)
    /// Zooming ended at `scale` (a scale factor within the limits), after any bounce back
    /// into them: when a pinch ends, and when an animated programmatic or wheel zoom finishes.
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: CGFloat)
}

/// Defaults that make every delegate method optional, as in UIKit.
extension ScrollViewDelegate {
    /// Does nothing.
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    /// Does nothing.
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    /// Leaves the target unchanged.
    public func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: CGPoint,
                                          targetContentOffset: inout CGPoint) {}
    /// Does nothing.
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {}
    /// Does nothing.
    public func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) {}
    /// Does nothing.
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    /// Does nothing.
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
    /// Allows scrolling to the top.
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { true }
    /// Does nothing.
    public func scrollViewDidScrollToTop(_ scrollView: ScrollView) {}
    /// No zooming.
    public func viewForZooming(in scrollView: ScrollView) -> View? { nil }
    /// Does nothing.
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) {}
    /// Does nothing.
    public func scrollViewDidZoom(_ scrollView: ScrollView) {}
    /// Does nothing.
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: CGFloat) {}
}
