// A scroll view around one zoomable view, fitted and centred: the arrangement of iOS photo
// viewers (Apple's PhotoScroller sample, ImageScrollView), with double-tap zoom and the return to
// the fit once it has been scrolled out of its enclosing scroll view's sight.
import Foundation

/// Shows `zoomedView` (whose bounds are the content's own size, say an image in pixels) fitted
/// into the scroll view and centred, and lets it zoom from that fit up to `maximumScaleFactor`
/// times the larger of the fit and `detailScale`. Content smaller than the view is enlarged to
/// fill it unless `upscalesToFit` is off, in which case it rests at `detailScale`, centred.
///
/// While the zoomed content is smaller than the view on an axis, `contentInset` centres it, as
/// iOS apps do in `scrollViewDidZoom`; a double tap zooms to `doubleTapZoomScale` around the
/// tapped point and back to the fit; and when an enclosing scroll view (a pager) scrolls it out
/// of sight, it returns to the fit (`returnsToFitWhenScrolledAway`). The delegate stays free for
/// the app: the zooming view and the centring are the class's own.
open class ZoomingScrollView: ScrollView {
    /// 4: the largest zoom is four times the detail scale (each image pixel 4×4 device pixels),
    /// or four times the fit for content smaller than the view (decision).
    public static let defaultMaximumScaleFactor: CGFloat = 4
    /// 1.05: a double tap zooms to the detail scale when that is at least 5 % larger than the
    /// fit; otherwise (small content) to twice the fit (decision).
    public static let doubleTapMinimumGain: CGFloat = 1.05
    /// 1e-3: scales within 0.1 % of the fit count as "at fit" (decision: float dust).
    public static let fitTolerance: CGFloat = 1e-3

    /// The view zooming scales: its bounds are set to `zoomedContentSize`.
    public let zoomedView: View

    /// The content's own size (points of `zoomedView`'s bounds; an image's pixels); nil while it
    /// is not known, and nothing zooms. Setting it lays the content out at its fit.
    public var zoomedContentSize: CGSize? {
        didSet { if zoomedContentSize != oldValue { layoutZoom() } }
    }

    /// Whether the content may zoom at all (a page showing an error card does not).
    public var isZoomEnabled = true

    /// The scale at which the content shows all its detail: one image pixel per device pixel
    /// for a picture (1 / the output scale). Default 1.
    public var detailScale: CGFloat = 1 {
        didSet { if detailScale != oldValue { layoutZoom() } }
    }

    /// The largest zoom, as a factor of the larger of the fit and `detailScale`.
    public var maximumScaleFactor: CGFloat = ZoomingScrollView.defaultMaximumScaleFactor {
        didSet { if maximumScaleFactor != oldValue { layoutZoom() } }
    }

    /// Whether the fit enlarges content smaller than the view to fill it (default true, as
    /// Photos does). When false, the fit never exceeds `detailScale`: a small picture rests at
    /// one image pixel per device pixel, centred, as desktop image viewers show it (eog, Loupe,
    /// swayimg), and only zooming (a double tap, `zoom(by:)`) enlarges it.
    public var upscalesToFit = true {
        didSet { if upscalesToFit != oldValue { layoutZoom() } }
    }

    /// A view kept under the zoomed view, covering exactly the zoomed view's frame at every
    /// zoom, but itself never scaled: its content is drawn at the output's own scale, so it
    /// stays sharp and keeps its size on screen while the content zooms (an image viewer's
    /// checkerboard under a transparent picture). Nil by default.
    public var backdropView: View? {
        didSet {
            guard backdropView !== oldValue else { return }
            oldValue?.removeFromSuperview()
            guard let backdropView else { return }
            insertSubview(backdropView, at: subviews.firstIndex { $0 === zoomedView } ?? 0)
            updateBackdrop()
        }
    }

    /// Whether the content returns to the fit once an enclosing scroll view has scrolled it out
    /// of sight (default true: a photo left zoomed in is at its fit when paged back to).
    public var returnsToFitWhenScrolledAway = true

    /// A zooming scroll view around `zoomedView`, which it adds as its subview.
    public init(frame: CGRect = .zero, zoomedView: View) {
        self.zoomedView = zoomedView
        super.init(frame: frame)
        addSubview(zoomedView)
        onDoubleTap = { [unowned self] location in self.toggleZoom(at: location) }
    }

    // MARK: Geometry

    /// The scale at which the whole content fits the view, centred (1 while its size is unknown);
    /// at most `detailScale` when `upscalesToFit` is off.
    public var fitScale: CGFloat {
        guard let size = zoomedContentSize, size.width > 0, size.height > 0, bounds.width > 0, bounds.height > 0 else {
            return 1
        }
        let fill = Swift.min(bounds.width / size.width, bounds.height / size.height)
        return upscalesToFit ? fill : Swift.min(fill, detailScale)
    }

    /// Whether the content is zoomed in past its fit.
    public var isZoomedIn: Bool { zoomedContentSize != nil && zoomScale > fitScale * (1 + Self.fitTolerance) }

    /// The scale a double tap zooms to from the fit: `detailScale` when that is at least 5 %
    /// larger than the fit, else twice the fit.
    open var doubleTapZoomScale: CGFloat {
        let fit = fitScale
        return detailScale >= fit * Self.doubleTapMinimumGain ? detailScale : fit * 2
    }

    /// The zooming view, while the content has a size and zooming is enabled.
    open override func viewForZooming() -> View? {
        zoomedContentSize != nil && isZoomEnabled ? zoomedView : nil
    }

    /// Lays the content out for the view's size: zoom limits follow it, and the content
    /// returns to its fit, centred. Call after the frame changes.
    public func layoutZoom() {
        guard let size = zoomedContentSize, bounds.width > 0, bounds.height > 0 else { return }
        let fit = fitScale
        minimumZoomScale = fit
        maximumZoomScale = Swift.max(fit, detailScale) * maximumScaleFactor
        zoomedView.bounds = CGRect(origin: .zero, size: size)
        zoomedView.transformScale = zoomScale
        resetZoom()
        updateBackdrop()
    }

    /// Lays the backdrop over the zoomed view's frame (in this view's content coordinates).
    private func updateBackdrop() {
        guard let backdropView, backdropView.frame != zoomedView.frame else { return }
        backdropView.frame = zoomedView.frame
    }

    /// Back to the fit, centred, at once.
    public func resetZoom() {
        guard let size = zoomedContentSize else { return }
        setZoomScale(fitScale, animated: false)
        // `setZoomScale` changes nothing when the scale is already right: the content size
        // must still match the content (a new one, or the first layout).
        contentSize = CGSize(width: size.width * zoomScale, height: size.height * zoomScale)
        centreContent()
        let rest = CGPoint(x: -contentInset.left, y: -contentInset.top)
        if contentOffset != rest { setContentOffset(rest, animated: false) }
    }

    /// Centres the content on each axis where it is smaller than the view, through the content
    /// insets (so the scroll range itself keeps it centred, bounces included).
    private func centreContent(movingContent: Bool = true) {
        let size = contentSize
        let dx = Swift.max((bounds.width - size.width) / 2, 0), dy = Swift.max((bounds.height - size.height) / 2, 0)
        let insets = EdgeInsets(top: dy, left: dx, bottom: dy, right: dx)
        if contentInset != insets { contentInset = insets }
        guard movingContent else { return }
        var offset = contentOffset
        if size.width <= bounds.width { offset.x = -dx }
        if size.height <= bounds.height { offset.y = -dy }
        if offset != contentOffset { contentOffset = offset }
    }

    // MARK: Zooming

    /// The double tap: from the fit to `doubleTapZoomScale` keeping the tapped point under the
    /// finger, and from any zoom back to the fit. `location` is in content (bounds) coordinates.
    public func toggleZoom(at location: CGPoint) {
        guard zoomedContentSize != nil, canZoom else { return }
        if isZoomedIn {
            setZoomScale(fitScale, animated: true)
            return
        }
        zoom(toScale: doubleTapZoomScale, keeping: zoomedView.convert(location, from: self), at: location - bounds.origin)
    }

    /// Zooms (animated) to `scale`, within the limits, keeping the content point `contentPoint`
    /// at `viewportPoint` (relative to the view's top-left) as far as the content's edges allow.
    public func zoom(toScale scale: CGFloat, keeping contentPoint: CGPoint, at viewportPoint: CGPoint) {
        guard let rect = zoomRect(toScale: scale, keeping: contentPoint, at: viewportPoint) else { return }
        zoom(to: rect, animated: true)
    }

    /// The rect (the zooming view's coordinates) that `zoom(to:animated:)` is given to zoom to
    /// `scale` keeping `contentPoint` at `viewportPoint`; nil while there is no content.
    public func zoomRect(toScale scale: CGFloat, keeping contentPoint: CGPoint, at viewportPoint: CGPoint) -> CGRect? {
        guard let size = zoomedContentSize, scale.isFinite, scale > 0 else { return nil }
        let limits = zoomScaleLimits
        let s = Swift.min(Swift.max(scale, limits.lowerBound), limits.upperBound)
        let content = CGSize(width: size.width * s, height: size.height * s)
        // The resting offset with the insets that will centre the content at `s`.
        func axisOffset(_ wanted: CGFloat, content: CGFloat, page: CGFloat) -> CGFloat {
            let inset = Swift.max((page - content) / 2, 0)
            return Swift.min(Swift.max(wanted, -inset), content + inset - page)
        }
        let offset = CGPoint(x: axisOffset(contentPoint.x * s - viewportPoint.x, content: content.width, page: bounds.width),
                             y: axisOffset(contentPoint.y * s - viewportPoint.y, content: content.height, page: bounds.height))
        // `zoom(to:)` shows exactly a rect of the view's aspect: the one at that offset.
        return CGRect(x: offset.x / s, y: offset.y / s, width: bounds.width / s, height: bounds.height / s)
    }

    /// The rect `zoom(by:)` zooms to: `factor` times the scale, around the middle of the view.
    public func zoomRect(by factor: CGFloat) -> CGRect? {
        let middle = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        return zoomRect(toScale: zoomScale * factor, keeping: zoomedView.convert(bounds.origin + middle, from: self), at: middle)
    }

    /// The rect `zoomToDetail()` zooms to: `detailScale`, around the middle of the view.
    public func zoomRectToDetail() -> CGRect? {
        let middle = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        return zoomRect(toScale: detailScale, keeping: zoomedView.convert(bounds.origin + middle, from: self), at: middle)
    }

    /// Zooms by `factor` (animated) around the middle of the view, within the limits.
    public func zoom(by factor: CGFloat) {
        guard let rect = zoomRect(by: factor) else { return }
        zoom(to: rect, animated: true)
    }

    /// Back to the fit, animated.
    public func zoomToFit() {
        guard zoomedContentSize != nil else { return }
        setZoomScale(fitScale, animated: true)
    }

    /// To `detailScale` (one image pixel per device pixel), around the middle of the view.
    public func zoomToDetail() {
        guard let rect = zoomRectToDetail() else { return }
        zoom(to: rect, animated: true)
    }

    /// Whether the content rests at its fit, centred: where `resetZoom()` puts it.
    public var isAtRest: Bool {
        abs(zoomScale - fitScale) <= fitScale * Self.fitTolerance
            && contentOffset == CGPoint(x: -contentInset.left, y: -contentInset.top)
    }

    // MARK: Hooks

    /// Keeps the content centred while it is smaller than the view.
    override func zoomDidChange() {
        super.zoomDidChange()
        updateBackdrop()
        // During a pinch only the insets follow: moving the content from here would re-anchor
        // the pinch on every step and let the content drift from under the fingers. The scroll
        // view keeps the offset within the (inset) range itself; the pinch's end centres.
        centreContent(movingContent: !isZooming)
    }

    /// Centres the settled content and brings its offset into range.
    override func zoomDidSettle(atScale scale: CGFloat) {
        super.zoomDidSettle(atScale: scale)
        centreContent()
        // Zoom animations aim with the insets of their start; once the scale settles, content
        // resting outside its range (it cannot: that would be a bug upstream) is brought in.
        let h = scrollRange(.horizontal), v = scrollRange(.vertical)
        let inRange = CGPoint(x: Swift.min(Swift.max(contentOffset.x, h.lowerBound), h.upperBound),
                              y: Swift.min(Swift.max(contentOffset.y, v.lowerBound), v.upperBound))
        if inRange != contentOffset, !isTracking { setContentOffset(inRange, animated: true) }
    }

    /// The enclosing scroll view scrolled: zoomed content it no longer shows returns to its fit.
    override func enclosingScrollViewDidScroll(_ enclosing: ScrollView) {
        guard returnsToFitWhenScrolledAway, isZoomedIn, !frame.intersects(enclosing.bounds) else { return }
        resetZoom()
    }
}
