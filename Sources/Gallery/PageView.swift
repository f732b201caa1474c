// One page of the gallery: a zooming scroll view around one picture (the iOS Photos
// arrangement), fitted and centred, with double-tap zoom, a load progress bar and an error card.
import Foundation
import Pictures
import Raster
import ScrollKit

/// The zooming scroll view of one image.
///
/// The picture view's bounds are the full image in image pixels; zooming scales it. The
/// image opens at `fitScale` (the whole image in the page, small images enlarged as Photos
/// does) and is centred with `contentInset` whenever it is smaller than the page on an axis,
/// updated on every `scrollViewDidZoom` as iOS apps do. While the file loads a thin bar shows
/// its progress (large files only); a file that cannot be shown gets a `CardView`.
public final class PageView: ScrollView, ScrollViewDelegate {
    /// Where a page's picture is in its life.
    public enum LoadState: Equatable, Sendable {
        /// Not started (the page was just made).
        case waiting
        /// The file is being read or decoded; nothing to show yet.
        case loading
        /// A large neighbour waits until its page is on screen, so only one huge decode is
        /// held in memory at a time.
        case deferred
        /// A reduced preview is shown while the full image decodes.
        case preview
        /// The full image is shown.
        case loaded
        /// The file cannot be shown; `failure` says why.
        case failed
    }

    /// 4 megapixels: files this large show the progress bar while loading; smaller ones load
    /// in well under 100 ms (the same line PictureLoader draws for previews).
    public static let largePixelCount = 1 << 22
    /// 3 pt: the progress bar's height (decision: thin, like Safari's page-load bar).
    public static let progressBarHeight: CGFloat = 3
    /// 4: the largest zoom is four times 1:1 (each image pixel 4×4 device pixels), or four
    /// times the fit for images smaller than the page (decision).
    public static let maximumZoomFactor: CGFloat = 4
    /// √2 per key press: `+`/`-` zoom by half an octave, two presses double (decision).
    public static let keyZoomFactor = CGFloat(2.0.squareRoot())
    /// 1.05: a double tap zooms to 1:1 when that is at least 5 % larger than the fit;
    /// otherwise (small images) to twice the fit (decision).
    public static let doubleTapMinimumGain: CGFloat = 1.05
    /// 1e-3: scales within 0.1 % of the fit count as "at fit" (decision: float dust).
    public static let fitTolerance: CGFloat = 1e-3

    /// The image's position in the gallery.
    public let index: Int
    /// The file shown.
    public let path: String
    /// The picture's pixels (scaled by zooming).
    public let pictureView = PictureView()
    /// The load state.
    public private(set) var loadState: LoadState = .waiting
    /// Why the file cannot be shown, once it failed.
    public private(set) var failure: PictureError?
    /// Load progress, 0…1.
    public private(set) var progress: Double = 0
    /// The image's displayed size in pixels, once its header is read.
    public private(set) var imageSize: CGSize?
    /// Whether the file is large enough to show the progress bar and be loaded only on screen.
    public private(set) var isLarge = false
    /// The error card, while one is shown.
    public private(set) var card: CardView?
    /// Device pixels per point of the output (the window's scale).
    public private(set) var outputScale: CGFloat = 1

    /// The token of the load in flight, if any (the scene matches mailbox events with it).
    var loadToken: UInt64?
    /// The running load, to cancel when the page goes away.
    var loadTask: PictureLoadTask?

    private let progressTrack = View()
    private let progressFill = View()

    /// A page for image `index`, the file at `path`.
    public init(index: Int, path: String) {
        self.index = index
        self.path = path
        super.init(frame: .zero)
        delegate = self
        backgroundColor = nil
        bouncesZoom = true
        addSubview(pictureView)
        progressTrack.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.2)
        progressFill.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.85)
        progressTrack.isUserInteractionEnabled = false
        progressFill.isUserInteractionEnabled = false
        progressTrack.isHidden = true
        progressFill.isHidden = true
        addSubview(progressTrack)
        addSubview(progressFill)
        onDoubleTap = { [unowned self] location in self.toggleZoom(at: location) }
    }

    deinit { loadTask?.cancel() }

    // MARK: Geometry

    /// The scale at which the whole image fits the page, centred (1 before the size is known).
    public var fitScale: CGFloat {
        guard let size = imageSize, size.width > 0, size.height > 0, bounds.width > 0, bounds.height > 0 else { return 1 }
        return min(bounds.width / size.width, bounds.height / size.height)
    }

    /// The scale at which one image pixel covers one device pixel.
    public var pixelExactScale: CGFloat { 1 / max(outputScale, 1e-6) }

    /// Whether the image is zoomed in past its fit.
    public var isZoomedIn: Bool { imageSize != nil && zoomScale > fitScale * (1 + Self.fitTolerance) }

    /// Whether the image can pan on `axis` (it is larger than the page there).
    public func canPan(_ axis: ScrollAxis) -> Bool {
        let range = scrollRange(axis)
        return range.upperBound - range.lowerBound > 0.5
    }

    /// Lays the page out for its current frame and the output scale: zoom limits follow the
    /// page size, the zoom returns to the fit, the card and bar are placed.
    public func layoutPage(outputScale: CGFloat) {
        self.outputScale = outputScale.isFinite && outputScale > 0 ? outputScale : 1
        configureZoom()
        layoutOverlays()
    }

    /// Sets the zoom limits for the image and the page, and shows the whole image.
    private func configureZoom() {
        guard let size = imageSize, bounds.width > 0, bounds.height > 0 else { return }
        let fit = fitScale
        minimumZoomScale = fit
        maximumZoomScale = max(fit, pixelExactScale) * Self.maximumZoomFactor
        pictureView.bounds = CGRect(origin: .zero, size: size)
        pictureView.transformScale = zoomScale
        resetZoom()
    }

    /// Back to the fit, centred, at once (the page left the screen, the kiosk reset, a resize).
    public func resetZoom() {
        guard let size = imageSize else { return }
        setZoomScale(fitScale, animated: false)
        // `setZoomScale` changes nothing when the scale is already right: the content size
        // must still match the picture (a new image, or the first layout).
        contentSize = CGSize(width: size.width * zoomScale, height: size.height * zoomScale)
        centreContent()
        let rest = CGPoint(x: -contentInset.left, y: -contentInset.top)
        if contentOffset != rest { setContentOffset(rest, animated: false) }
    }

    /// Centres the image on each axis where it is smaller than the page, through the content
    /// insets (so the scroll range itself keeps it centred, bounces included).
    private func centreContent(movingContent: Bool = true) {
        let size = contentSize
        let dx = max((bounds.width - size.width) / 2, 0), dy = max((bounds.height - size.height) / 2, 0)
        let insets = EdgeInsets(top: dy, left: dx, bottom: dy, right: dx)
        if contentInset != insets { contentInset = insets }
        guard movingContent else { return }
        var offset = contentOffset
        if size.width <= bounds.width { offset.x = -dx }
        if size.height <= bounds.height { offset.y = -dy }
        if offset != contentOffset { contentOffset = offset }
    }

    /// Keeps the bar and the card where the page shows them, whatever the scroll position.
    private func layoutOverlays() {
        let origin = bounds.origin
        progressTrack.frame = CGRect(x: origin.x, y: origin.y, width: bounds.width, height: Self.progressBarHeight)
        progressFill.frame = CGRect(x: origin.x, y: origin.y, width: bounds.width * CGFloat(min(max(progress, 0), 1)),
                                    height: Self.progressBarHeight)
        if let card {
            card.layout(maxWidth: bounds.width - 2 * 16, maxHeight: bounds.height - 2 * 16)
            let size = card.frame.size
            card.frame = CGRect(x: origin.x + ((bounds.width - size.width) / 2).rounded(),
                                y: origin.y + ((bounds.height - size.height) / 2).rounded(),
                                width: size.width, height: size.height)
        }
    }

    // MARK: Zooming

    /// The double tap: from the fit to 1:1 (or twice the fit for small images) keeping the
    /// tapped point under the finger, and from any zoom back to the fit. `location` is in the
    /// page's content coordinates.
    func toggleZoom(at location: CGPoint) {
        guard imageSize != nil, canZoom else { return }
        if isZoomedIn {
            setZoomScale(fitScale, animated: true)
            return
        }
        let fit = fitScale
        let target = pixelExactScale >= fit * Self.doubleTapMinimumGain ? pixelExactScale : fit * 2
        zoom(toScale: target, keeping: pictureView.convert(location, from: self), at: location - bounds.origin)
    }

    /// Zooms (animated) to `scale`, within the limits, keeping the image point `imagePoint`
    /// at `viewportPoint` (relative to the page's top-left) as far as the image's edges allow.
    public func zoom(toScale scale: CGFloat, keeping imagePoint: CGPoint, at viewportPoint: CGPoint) {
        guard let size = imageSize, scale.isFinite, scale > 0 else { return }
        let limits = zoomScaleLimits
        let s = min(max(scale, limits.lowerBound), limits.upperBound)
        let content = CGSize(width: size.width * s, height: size.height * s)
        // The resting offset with the insets that will centre the image at `s`.
        func axisOffset(_ wanted: CGFloat, content: CGFloat, page: CGFloat) -> CGFloat {
            let inset = max((page - content) / 2, 0)
            return min(max(wanted, -inset), content + inset - page)
        }
        let offset = CGPoint(x: axisOffset(imagePoint.x * s - viewportPoint.x, content: content.width, page: bounds.width),
                             y: axisOffset(imagePoint.y * s - viewportPoint.y, content: content.height, page: bounds.height))
        // `zoom(to:)` shows exactly a rect of the page's aspect: the one at that offset.
        zoom(to: CGRect(x: offset.x / s, y: offset.y / s, width: bounds.width / s, height: bounds.height / s), animated: true)
    }

    /// `+`: zooms in by `keyZoomFactor` around the middle of the page.
    public func zoomIn() { zoomByKey(Self.keyZoomFactor) }
    /// `-`: zooms out by `keyZoomFactor` around the middle of the page (not below the fit).
    public func zoomOut() { zoomByKey(1 / Self.keyZoomFactor) }
    /// `0`: back to the fit, animated.
    public func zoomToFit() {
        guard imageSize != nil else { return }
        setZoomScale(fitScale, animated: true)
    }
    /// `1`: one image pixel per device pixel, around the middle of the page.
    public func zoomToActualSize() {
        guard imageSize != nil else { return }
        let middle = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        zoom(toScale: pixelExactScale, keeping: pictureView.convert(bounds.origin + middle, from: self), at: middle)
    }

    private func zoomByKey(_ factor: CGFloat) {
        guard imageSize != nil else { return }
        let middle = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        zoom(toScale: zoomScale * factor, keeping: pictureView.convert(bounds.origin + middle, from: self), at: middle)
    }

    // MARK: Delegate (the page is its own)

    /// The picture zooms once its size is known; a failed page does not zoom.
    public func viewForZooming(in scrollView: ScrollView) -> View? {
        imageSize != nil && failure == nil ? pictureView : nil
    }

    /// Keeps the image centred while it is smaller than the page.
    public func scrollViewDidZoom(_ scrollView: ScrollView) {
        // During a pinch only the insets follow: moving the content from here would re-anchor
        // the pinch on every step and let the image drift from under the fingers. The scroll
        // view keeps the offset within the (inset) range itself; the pinch's end centres.
        centreContent(movingContent: !isZooming)
    }

    /// Keeps the bar and the card in place while the content moves.
    public func scrollViewDidScroll(_ scrollView: ScrollView) {
        layoutOverlays()
    }

    /// Centres the settled image and brings its offset into range.
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: CGFloat) {
        centreContent()
        // Zoom animations aim with the insets of their start; once the scale settles, content
        // resting outside its range (it cannot: that would be a bug upstream) is brought in.
        let h = scrollRange(.horizontal), v = scrollRange(.vertical)
        let inRange = CGPoint(x: min(max(contentOffset.x, h.lowerBound), h.upperBound),
                              y: min(max(contentOffset.y, v.lowerBound), v.upperBound))
        if inRange != contentOffset, !isTracking { setContentOffset(inRange, animated: true) }
    }

    // MARK: Loading

    /// Whether a load should be started for this page now.
    var needsLoad: Bool { loadState == .waiting || loadState == .deferred }

    /// Whether a load is running.
    public var isLoading: Bool { loadState == .loading || loadState == .preview }

    /// Whether the page shows something final or partial: a picture, a preview or an error card.
    public var showsContent: Bool { pictureView.picture != nil || card != nil }

    /// Marks a load as started with `token`.
    func beginLoad(token: UInt64, task: PictureLoadTask?) {
        loadToken = token
        loadTask = task
        loadState = .loading
        progress = 0
    }

    /// Stops the running load; the page will load again when `needsLoad` is acted on.
    func deferLoad() {
        loadTask?.cancel()
        loadTask = nil
        loadToken = nil
        loadState = .deferred
        pictureView.show(nil)
        progress = 0
        updateProgressBar()
    }

    /// Applies one event of the page's load. Returns the failure when the load just failed.
    func apply(_ event: PictureLoadEvent) -> PictureError? {
        switch event {
        case .progress(let fraction):
            progress = fraction
            updateProgressBar()
        case .header(let header):
            imageSize = CGSize(width: header.width, height: header.height)
            isLarge = header.pixelCount >= Self.largePixelCount
            configureZoom()
            updateProgressBar()
        case .preview(let picture):
            loadState = .preview
            pictureView.show(picture)
        case .loaded(let picture):
            loadState = .loaded
            loadToken = nil
            loadTask = nil
            if imageSize == nil {
                imageSize = CGSize(width: picture.fullWidth, height: picture.fullHeight)
                configureZoom()
            }
            pictureView.show(picture)
            progress = 1
            updateProgressBar()
        case .failed(let error):
            showFailure(error)
            return error
        }
        return nil
    }

    /// Shows the error card for `error` instead of any picture (also for a page re-made after
    /// its file already failed once).
    func showFailure(_ error: PictureError) {
        loadState = .failed
        loadToken = nil
        loadTask = nil
        failure = error
        pictureView.show(nil)
        pictureView.isHidden = true
        // Nothing to zoom or pan any more: the card sits still in the page.
        contentInset = .zero
        contentSize = .zero
        if contentOffset != .zero { setContentOffset(.zero, animated: false) }
        progress = 1
        updateProgressBar()
        card?.removeFromSuperview()
        let card = CardView(title: error.file, message: error.reason)
        card.isUserInteractionEnabled = false
        addSubview(card)
        self.card = card
        layoutOverlays()
    }

    private func updateProgressBar() {
        let show = isLarge && isLoading
        progressTrack.isHidden = !show
        progressFill.isHidden = !show
        if show { layoutOverlays() }
    }
}
