// ZoomingScrollView's fit policy: content larger than the view is shrunk to fit either way;
// smaller content fills the view by default (Photos) or rests at its detail scale, centred,
// with `upscalesToFit` off (desktop image viewers), and zooming still enlarges it.
import Foundation
import Testing
@testable import ScrollKit

/// A 400×600 view around content of `size`, laid out, with `configure` applied before the size is set.
private func zoomingHarness(_ size: CGSize, configure: (ZoomingScrollView) -> Void = { _ in }) -> (Harness, ZoomingScrollView) {
    let zooming = ZoomingScrollView(zoomedView: View())
    let h = Harness(viewport: CGSize(width: 400, height: 600), content: .zero, scrollView: zooming) { _ in
        configure(zooming)
        zooming.zoomedContentSize = size
    }
    // The recorder checks the zooming view the delegate calls name.
    h.recorder.zoomView = zooming.zoomedView
    return (h, zooming)
}

/// Where the zoomed content shows in the view: its frame in the view's (window) coordinates.
private func shownRect(_ view: ZoomingScrollView) -> CGRect {
    let size = view.zoomedContentSize ?? .zero
    let origin = CGPoint(x: -view.contentOffset.x, y: -view.contentOffset.y)
    return CGRect(origin: origin, size: CGSize(width: size.width * view.zoomScale, height: size.height * view.zoomScale))
}

@Suite("ZoomingScrollView fit policy")
struct ZoomingScrollViewFitTests {
    @Test("By default small content is enlarged to fill the view, as Photos shows it")
    func upscalesByDefault() {
        let (_, view) = zoomingHarness(CGSize(width: 200, height: 100))
        #expect(view.upscalesToFit)
        #expect(view.fitScale == 2 && view.zoomScale == 2)
        #expect(shownRect(view) == CGRect(x: 0, y: 200, width: 400, height: 200))
    }

    @Test("Without upscaling, small content rests at the detail scale, centred", arguments: [1.0, 0.5])
    func smallAtDetail(detail: Double) {
        let (_, view) = zoomingHarness(CGSize(width: 200, height: 100)) {
            $0.upscalesToFit = false
            $0.detailScale = CGFloat(detail)
        }
        // One content unit per device pixel: 200×100 points at scale 1, 100×50 on a 2× screen.
        let w = 200 * detail, h = 100 * detail
        #expect(view.fitScale == CGFloat(detail) && view.zoomScale == CGFloat(detail))
        #expect(shownRect(view) == CGRect(x: (400 - w) / 2, y: (600 - h) / 2, width: w, height: h))
        #expect(view.isAtRest && !view.isZoomedIn)
        #expect(view.minimumZoomScale == CGFloat(detail) && view.maximumZoomScale == CGFloat(detail) * 4)
    }

    @Test("Without upscaling, content larger than the view is still shrunk to fit, and content between stays at 1:1")
    func largeStillFits() {
        let (_, large) = zoomingHarness(CGSize(width: 800, height: 1200)) { $0.upscalesToFit = false }
        #expect(large.fitScale == 0.5 && large.zoomScale == 0.5)
        #expect(shownRect(large) == CGRect(x: 0, y: 0, width: 400, height: 600))
        // 300×500 fits at 4/3 with upscaling, at 1 without: 1:1, centred.
        let (_, middle) = zoomingHarness(CGSize(width: 300, height: 500)) { $0.upscalesToFit = false }
        #expect(middle.fitScale == 1)
        #expect(shownRect(middle) == CGRect(x: 50, y: 50, width: 300, height: 500))
    }

    @Test("Without upscaling, a double tap on small content zooms in to twice the fit around the tap and back")
    func doubleTapStillZooms() {
        let (h, view) = zoomingHarness(CGSize(width: 200, height: 100)) { $0.upscalesToFit = false }
        // The tapped point, 3/4 across and 1/2 down the content (350 − 100 = 150 of 200, 300 − 250 = 50 of 100).
        let tap = CGPoint(x: 250, y: 300)
        for (down, up) in [(1000.0, 1050.0), (1150, 1200)] {
            h.send(.touchDown(id: 0, location: tap), at: down)
            h.send(.touchUp(id: 0), at: up)
        }
        h.settle()
        #expect(view.zoomScale == 2, "the double tap zoomed to \(view.zoomScale)")
        // 400×200 at scale 2: the width fills the view, the height is centred.
        #expect(shownRect(view) == CGRect(x: 0, y: 200, width: 400, height: 200))
        for (down, up) in [(3000.0, 3050.0), (3150, 3200)] {
            h.send(.touchDown(id: 0, location: tap), at: down)
            h.send(.touchUp(id: 0), at: up)
        }
        h.settle()
        #expect(view.zoomScale == 1 && view.isAtRest)
    }

    @Test("Without upscaling, zoom(by:) enlarges small content past 1:1 up to four times it")
    func keysStillZoom() {
        let (h, view) = zoomingHarness(CGSize(width: 200, height: 100)) { $0.upscalesToFit = false }
        h.call(at: 100) { _ in view.zoom(by: 2) }
        h.settle()
        #expect(view.zoomScale == 2)
        h.call(at: 2000) { _ in view.zoom(by: 8) }
        h.settle()
        #expect(view.zoomScale == 4)
    }

    @Test("Turning upscaling on or off lays the content out again at the new fit")
    func togglingRelayouts() {
        let (_, view) = zoomingHarness(CGSize(width: 200, height: 100)) { $0.upscalesToFit = false }
        #expect(view.zoomScale == 1)
        view.upscalesToFit = true
        #expect(view.zoomScale == 2 && view.minimumZoomScale == 2 && view.isAtRest)
        view.upscalesToFit = false
        #expect(view.zoomScale == 1 && view.minimumZoomScale == 1 && view.isAtRest)
    }
}

@Suite("ZoomingScrollView backdrop")
struct ZoomingScrollViewBackdropTests {
    @Test("The backdrop lies under the zoomed view and covers its frame at every zoom, itself unscaled")
    func backdropFollowsZoom() {
        let backdrop = View()
        let (h, view) = zoomingHarness(CGSize(width: 200, height: 100)) {
            $0.upscalesToFit = false
            $0.backdropView = backdrop
        }
        #expect(view.subviews.firstIndex { $0 === backdrop } == view.subviews.firstIndex { $0 === view.zoomedView }.map { $0 - 1 })
        #expect(backdrop.frame == view.zoomedView.frame && backdrop.frame.size == CGSize(width: 200, height: 100))
        h.call(at: 100) { _ in view.zoom(by: 2) }
        var sizes: Set<CGFloat> = []
        while view.isAnimating {
            h.tick(through: h.now + h.frameInterval)
            #expect(backdrop.frame == view.zoomedView.frame, "at scale \(view.zoomScale)")
            sizes.insert(backdrop.frame.width)
        }
        #expect(sizes.count > 5, "the backdrop followed the animation: \(sizes.sorted())")
        #expect(backdrop.frame.size == CGSize(width: 400, height: 200) && backdrop.transformScale == 1)
        // A new content size lays both out again.
        view.zoomedContentSize = CGSize(width: 800, height: 1200)
        #expect(backdrop.frame == CGRect(x: 0, y: 0, width: 400, height: 600))
        view.backdropView = nil
        #expect(backdrop.superview == nil)
    }
}
