// Programmatic scrolling (UIKit's setContentOffset, scrollRectToVisible and the scroll-to-top
// trigger): what code asks for, animated at constant velocity or set at once.
import Foundation

extension ScrollView {
    /// Sets `contentOffset`. Without animation: one `scrollViewDidScroll` (none if nothing
    /// changes), and any momentum or animation stops (`scrollViewDidEndDecelerating` ends a
    /// stopped deceleration, so every deceleration run is closed). With animation: 300 ms at
    /// constant velocity toward `offset`, a `scrollViewDidScroll` per frame, then
    /// `scrollViewDidEndScrollingAnimation`; nothing at all when already there. While a finger
    /// is dragging, the offset is set without animation and the drag continues from it.
    public func setContentOffset(_ offset: CGPoint, animated: Bool) {
        guard offset.x.isFinite, offset.y.isFinite else { return }
        if case .dragging(let session) = motion, !session.isReleased {
            contentOffset = offset
            return
        }
        guard makeWay(keeping: animated ? .scrollAnimation : []) else { return }
        guard animated else {
            contentOffset = offset
            return
        }
        if case .animating(let running) = motion {
            guard running.target != offset else { return }
        } else {
            guard offset != contentOffset else { return }
        }
        startAnimation(to: offset, kind: .programmatic, duration: Self.programmaticAnimationDuration)
    }

    /// Scrolls the least needed for `rect` (content coordinates) to be visible: its nearest
    /// edges are brought inside, its leading edge when it is larger than the view; nothing at
    /// all when it is already fully visible. Animated like `setContentOffset(_:animated:)`.
    public func scrollRectToVisible(_ rect: CGRect, animated: Bool) {
        guard rect.origin.x.isFinite, rect.origin.y.isFinite, rect.width.isFinite, rect.height.isFinite,
              !rect.isNull else { return }
        let visible = bounds
        var target = contentOffset
        for axis in ScrollAxis.allCases {
            let low = axis == .horizontal ? rect.minX : rect.minY
            let high = axis == .horizontal ? rect.maxX : rect.maxY
            let size = visible.size[axis]
            let start = target[axis]
            if low >= start, high <= start + size { continue }
            if high - low > size || low < start {
                target[axis] = low
            } else {
                target[axis] = high - size
            }
        }
        target = clamped(target)
        guard target != contentOffset else { return }
        setContentOffset(target, animated: animated)
    }

    /// What the scroll-to-top trigger (Home, Ctrl+Home) does: if `scrollsToTop` and the
    /// delegate's `scrollViewShouldScrollToTop` agree, animates to the top
    /// (`-contentInset.top`, keeping x) and then calls `scrollViewDidScrollToTop`, at once when
    /// already there. Ignored while a finger is down.
    public func scrollToTop() {
        guard scrollsToTop, !isTracking else { return }
        if let delegate, !delegate.scrollViewShouldScrollToTop(self) { return }
        guard makeWay(keeping: .scrollAnimation) else { return }
        let top = CGPoint(x: contentOffset.x, y: -(contentInset.top.isFinite ? contentInset.top : 0))
        if !hasRunningAnimation, contentOffset == top {
            delegate?.scrollViewDidScrollToTop(self)
            return
        }
        startAnimation(to: top, kind: .scrollToTop, duration: Self.programmaticAnimationDuration)
    }

    private var hasRunningAnimation: Bool {
        if case .animating = motion { return true }
        return false
    }

    /// 300 ms: UIKit's animated `setContentOffset` takes about 0.3 s (decision: the value
    /// commonly measured). Its move is at constant velocity, as UIScrollView.h documents; the
    /// scroll-to-top trigger uses the same time with an ease-out.
    public static let programmaticAnimationDuration = 300.0
}
