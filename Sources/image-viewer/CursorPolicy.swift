// Which cursor the viewer shows over content that is not the gallery (the test card): a closed
// hand while the left button drags, an open hand over a scroll view that can scroll or zoom,
// the arrow elsewhere. Policy of the app; the Wayland host only shows what it is told.
import Foundation
import Host
import Raster
import ScrollKit
import Wayland

/// The cursor for the pointer at `location` (window points, nil when it is elsewhere) over
/// `scene`, `dragging` while the left button is held on the window.
func cursorShape(over scene: ViewScene, dragging: Bool, location: CGPoint?) -> CursorShape {
    if dragging { return .closedHand }
    guard let location else { return .arrow }
    for scrollView in ViewScene.scrollViews(in: scene.root) where scrollView.isScrollEnabled && !scrollView.isHidden {
        let origin = scrollView.superview?.convert(scrollView.frame.origin, to: nil) ?? scrollView.frame.origin
        guard CGRect(origin: origin, size: scrollView.frame.size).contains(location) else { continue }
        let scrolls = ScrollAxis.allCases.contains { axis in
            let range = scrollView.scrollRange(axis)
            return range.upperBound > range.lowerBound
        }
        if scrolls || scrollView.canZoom { return .openHand }
    }
    return .arrow
}
