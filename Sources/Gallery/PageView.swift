// One page of the gallery: a zooming scroll view around one picture (the iOS Photos
// arrangement), fitted and centred, with double-tap zoom, a load progress bar and an error card.
import Foundation
import Pictures
import Raster
import ScrollKit

/// The zooming scroll view of one image: a `ZoomingScrollView` (fitted, centred, double-tap
/// zoom) whose content is the picture, in image pixels.
///
/// The image opens at its fit (the whole image in the page; small images at 1:1 unless
/// `upscalesToFit`), over `background` where it is transparent. While the file loads a thin bar
/// shows its progress (large files only); a file that cannot be shown gets a `CardView`, one
/// that decoded in part shows that part with a banner naming the problem, and an animated one
/// plays (see PageView+Pictures.swift).
public final class PageView: ZoomingScrollView {
    /// Where a page's picture is in its life.
    public enum LoadState: Equatable, Sendable {
        /// Not started (the page was just made).
        case waiting
        /// The file is being read or decoded; nothing to show yet.
        case loading
        /// A reduced picture is shown while more of it decodes (a JPEG's preview, or a
        /// screen-size picture while the page in the middle loads what memory holds).
        case preview
        /// The load finished: the picture is shown with `shownDetail`.
        case loaded
        /// The file cannot be shown; `failure` says why.
        case failed
    }

    /// 4 megapixels: raster files this large show the progress bar while loading; smaller ones
    /// load in well under 100 ms (the same line PictureLoader draws for previews).
    public static let largePixelCount = 1 << 22
    /// 3 pt: the progress bar's height (decision: thin, like Safari's page-load bar).
    public static let progressBarHeight: CGFloat = 3
    /// √2 per key press: `+`/`-` zoom by half an octave, two presses double (decision).
    public static let keyZoomFactor = CGFloat(2.0.squareRoot())

    /// The image's position in the gallery (it moves when a watched folder changes).
    public internal(set) var index: Int
    /// The file shown.
    public let path: String
    /// The picture's pixels (scaled by zooming).
    public let pictureView: PictureView
    /// The load state.
    public private(set) var loadState: LoadState = .waiting
    /// Why the file cannot be shown, once it failed.
    public internal(set) var failure: PictureError?
    /// Load progress, 0…1.
    public private(set) var progress: Double = 0
    /// The image's displayed size in pixels (turned as `orientation` says), once its header
    /// is read.
    public var imageSize: CGSize? { zoomedContentSize }
    /// The image's size in pixels as the file shows it upright (EXIF orientation applied),
    /// once its header is read.
    public private(set) var uprightSize: CGSize?
    /// The user's turn or flip of the picture (see `setOrientation`).
    public var orientation: Orientation { pictureView.orientation }
    /// Whether the file is large enough to show the progress bar (never a vector drawing).
    public private(set) var isLarge = false
    /// Whether the file is a vector drawing (SVG), once its header is read: its tiles at a
    /// scale are windows onto one render of the whole drawing (`PictureView.storedPixels`).
    public private(set) var isVector = false
    /// The error card, while one is shown.
    public internal(set) var card: CardView?
    /// Device pixels per point of the output (the window's scale).
    public private(set) var outputScale: CGFloat = 1
    /// What shows under the transparent parts of pictures; nil shows the black page.
    public var background: PictureBackground? {
        didSet { if background != oldValue { updateBackdrop(replacing: true) } }
    }
    /// The page of the file shown (a TIFF directory, a HEIF image), 0-based.
    public internal(set) var filePage = 0
    /// Pages in the file, once its header is read.
    public internal(set) var filePageCount = 1
    /// What went wrong in the file, when the picture shown decoded only in part.
    public internal(set) var damage: PictureDamage?
    /// The plate over the picture naming the damage and the page, while there is one.
    public internal(set) var banner: Label?
    /// Plays the picture when the file is an animation.
    var animation: AnimationPlayer?
    /// Where animations decode their frames ahead (the gallery's loading mode decides).
    var animationDecoding = AnimationPlayer.Decoding.inline

    /// The token of the load in flight, if any (the scene matches mailbox events with it).
    var loadToken: UInt64?
    /// The running load, to cancel when the page goes away.
    var loadTask: PictureLoadTask?
    /// The detail the running load asked for.
    private(set) var loadingDetail: PictureDetail?
    /// The detail of the picture shown: what the last load that finished asked for, or
    /// `.screen` once the page went back to its screen-size reduction.
    public private(set) var shownDetail: PictureDetail?
    /// Whether the page shows its screen-size picture reduced (`keepReducedDetail`), as the gallery
    /// keeps the page behind the way it goes; a screen-size load makes it whole again.
    public private(set) var isReduced = false

    private let progressTrack = View()
    private let progressFill = View()

    /// A page for image `index`, the file at `path`.
    public init(index: Int, path: String) {
        self.index = index
        self.path = path
        let picture = PictureView()
        pictureView = picture
        super.init(frame: .zero, zoomedView: picture)
        backgroundColor = nil
        bouncesZoom = true
        progressTrack.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.2)
        progressFill.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.85)
        progressTrack.isUserInteractionEnabled = false
        progressFill.isUserInteractionEnabled = false
        progressTrack.isHidden = true
        progressFill.isHidden = true
        updatePictureVisibility()
        addSubview(progressTrack)
        addSubview(progressFill)
    }

    deinit { loadTask?.cancel() }

    // MARK: Geometry

    /// The scale at which one image pixel covers one device pixel.
    public var pixelExactScale: CGFloat { detailScale }

    /// Whether the image can pan on `axis` (it is larger than the page there).
    public func canPan(_ axis: ScrollAxis) -> Bool {
        let range = scrollRange(axis)
        return range.upperBound - range.lowerBound > 0.5
    }

    /// Lays the page out for its current frame and the output scale: zoom limits follow the
    /// page size, the zoom returns to the fit, the card and bar are placed.
    public func layoutPage(outputScale: CGFloat) {
        self.outputScale = outputScale.isFinite && outputScale > 0 ? outputScale : 1
        // One image pixel per device pixel is the detail a picture has.
        let detail = 1 / max(self.outputScale, 1e-6)
        if detailScale != detail { detailScale = detail } else { layoutZoom() }
        layoutOverlays()
    }

    /// Keeps the bar and the card where the page shows them, whatever the scroll position.
    func layoutOverlays() {
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
        layoutBanner()
    }

    /// Keeps the bar and the card in place while the content moves.
    public override func boundsDidChange(from oldBounds: CGRect) {
        super.boundsDidChange(from: oldBounds)
        if oldBounds.origin != bounds.origin { layoutOverlays() }
    }

    // MARK: Zooming keys

    /// `+`: zooms in by `keyZoomFactor` around the middle of the page.
    public func zoomIn() { zoom(by: Self.keyZoomFactor) }
    /// `-`: zooms out by `keyZoomFactor` around the middle of the page (not below the fit).
    public func zoomOut() { zoom(by: 1 / Self.keyZoomFactor) }
    /// `1`: one image pixel per device pixel, around the middle of the page.
    public func zoomToActualSize() { zoomToDetail() }

    // MARK: Loading

    /// The load this page should start now, if any: a screen-size picture first, for every
    /// page; for the page in the middle (`isCurrent`) zoomed in closer than the picture it
    /// shows, a screen-size picture again when that is enough (the window grew since), else
    /// full resolution (what memory holds, the rest in a private file).
    func wantedLoad(isCurrent: Bool) -> PictureDetail? {
        switch loadState {
        case .waiting:
            return .screen
        case .loaded:
            if isReduced { return .screen }
            guard isCurrent, shownDetail != .full, let picture = pictureView.picture, picture.isPreview,
                  needsFinerPixels(than: Double(picture.width) / Double(max(picture.fullWidth, 1))) else { return nil }
            let screen = PictureDetail.screenScale(width: picture.fullWidth, height: picture.fullHeight,
                                                   screenWidth: Int((bounds.width * outputScale).rounded(.up)),
                                                   screenHeight: Int((bounds.height * outputScale).rounded(.up)))
            return needsFinerPixels(than: screen) ? .full : .screen
        case .loading, .preview, .failed:
            return nil
        }
    }

    /// Whether the zoom asks for more pixels than a picture of `scale` picture pixels per
    /// image pixel has: the renderer draws from the power of two nearest the zoom, so past √2
    /// times that scale.
    private func needsFinerPixels(than scale: Double) -> Bool {
        Double(zoomScale * outputScale) > scale * 2.0.squareRoot() * (1 + 1e-9)
    }

    /// The page is no longer the one in the middle: it keeps a screen-size picture only. A
    /// load of more detail stops (the page reloads what it needs when it is back), and a
    /// picture shown with more detail gives way to its screen-size reduction (its own coarsest
    /// level, or the preview it was shown before).
    func keepScreenDetail() {
        if isLoading, loadingDetail != .screen {
            loadTask?.cancel()
            loadTask = nil
            loadToken = nil
            loadingDetail = nil
            progress = 0
            loadState = pictureView.picture == nil ? .waiting : .loaded
            updateProgressBar()
        }
        guard loadState == .loaded, shownDetail != .screen, let picture = pictureView.picture,
              let reduction = picture.screenReduction ?? pictureView.preview else { return }
        show(picture: reduction)
        shownDetail = .screen
    }

    /// The page is off screen behind the way the gallery goes: its picture gives way to that
    /// picture at a quarter of its size, a sixteenth of the memory (256 KiB for a 2560×1600
    /// photo's screen-size 4 MiB at 1920×1080), which shows, soft, should the page come back on
    /// screen while its screen-size picture is decoded again (a frame or two), as a phone's
    /// gallery shows a thumbnail. Only a still picture in memory is reduced (not an animation,
    /// a drawing, planes or levels in a file), once. Returns whether it was, so the caller lets
    /// the renderer drop its tiles of the picture it replaced.
    func keepReducedDetail() -> Bool {
        guard loadState == .loaded, !isReduced, animation == nil, card == nil, let picture = pictureView.picture,
              !picture.isVector else { return false }
        keepScreenDetail()
        guard let reduced = (pictureView.picture ?? picture).halved()?.halved() else { return false }
        show(picture: reduced)
        isReduced = true
        return true
    }

    /// Whether a load is running.
    public var isLoading: Bool { loadState == .loading || loadState == .preview }

    /// Whether the page shows something final or partial: a picture, a preview or an error card.
    public var showsContent: Bool { pictureView.picture != nil || card != nil }

    /// Marks a load of `detail` as started with `token`. A page showing a reduction goes on
    /// showing it meanwhile.
    func beginLoad(token: UInt64, task: PictureLoadTask?, detail: PictureDetail = .full) {
        loadToken = token
        loadTask = task
        loadingDetail = detail
        loadState = pictureView.picture == nil ? .loading : .preview
        progress = 0
    }

    /// Back to waiting for a load, with no content size: another page of the file comes next.
    func reopen() {
        loadState = .waiting
        isReduced = false
        loadingDetail = nil
        shownDetail = nil
        uprightSize = nil
        zoomedContentSize = nil
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
            isVector = header.format == .svg
            // A drawing's size says nothing of how long it takes: it is rendered at the size
            // shown, not decoded whole, and its load goes from parsed to rendered in one step
            // (no fraction in between to show), so it gets no bar.
            isLarge = !isVector && header.pixelCount >= Self.largePixelCount
            if filePageCount != header.pageCount {
                filePageCount = header.pageCount
                updateBanner()
            }
            setUprightSize(CGSize(width: header.width, height: header.height))
            updateProgressBar()
        case .preview(let picture):
            loadState = .preview
            show(picture: picture)
        case .animation(let decoder, let delay):
            startAnimation(decoder, firstDelayMs: delay)
        case .loaded(let picture):
            loadState = .loaded
            loadToken = nil
            loadTask = nil
            shownDetail = loadingDetail
            loadingDetail = nil
            if uprightSize == nil { setUprightSize(CGSize(width: picture.fullWidth, height: picture.fullHeight)) }
            show(picture: picture)
            // Whole again: the reduction is not kept beside it as a preview.
            if isReduced { pictureView.forgetPreview() }
            isReduced = false
            noteLoaded(picture)
            progress = 1
            updateProgressBar()
        case .failed(let error):
            showFailure(error)
            return error
        }
        return nil
    }

    /// Turns or flips the picture as `orientation` says (on top of its EXIF orientation): its
    /// tiles are redrawn turned and the page fits the turned picture afresh.
    public func setOrientation(_ orientation: Orientation) {
        guard orientation != pictureView.orientation else { return }
        pictureView.orientation = orientation
        guard let upright = uprightSize else { return }
        let turned = orientation.displaySize(storedWidth: Int(upright.width), storedHeight: Int(upright.height))
        let size = CGSize(width: turned.width, height: turned.height)
        // A square picture keeps its size: it is fitted again all the same.
        if zoomedContentSize != size { zoomedContentSize = size } else { layoutZoom() }
    }

    private func setUprightSize(_ size: CGSize) {
        uprightSize = size
        let turned = pictureView.orientation.displaySize(storedWidth: Int(size.width), storedHeight: Int(size.height))
        zoomedContentSize = CGSize(width: turned.width, height: turned.height)
    }

    /// Its file was rewritten: the page loads it again, showing what it showed until the new
    /// picture (or error) arrives, so the screen does not flash. A page that showed an error
    /// card tries again.
    func reload() {
        loadTask?.cancel()
        loadTask = nil
        loadToken = nil
        loadingDetail = nil
        shownDetail = nil
        isReduced = false
        pictureView.replaceContent()
        // The new file may be still, or another animation: the old frames stop here.
        animation = nil
        loadState = .waiting
        failure = nil
        progress = 0
        if let card {
            card.removeFromSuperview()
            self.card = nil
            isZoomEnabled = true
            updatePictureVisibility()
            // The header lays the page out afresh, whatever size it says.
            uprightSize = nil
            zoomedContentSize = nil
        }
        updateProgressBar()
    }

    /// Shows what `twin` (a page of the same file: a wrap's copy) shows, without loading.
    func show(as twin: PageView) {
        guard let picture = twin.pictureView.picture else { return }
        _ = apply(.loaded(picture))
        shownDetail = twin.shownDetail
        isReduced = twin.isReduced
    }

    /// Shows the error card for `error` instead of any picture (also for a page re-made after
    /// its file already failed once).
    func showFailure(_ error: PictureError) {
        loadState = .failed
        isReduced = false
        loadToken = nil
        loadTask = nil
        failure = error
        isZoomEnabled = false
        animation = nil
        show(picture: nil)
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
        updatePictureVisibility()
        updateBanner()
    }

    private func updateProgressBar() {
        let show = isLarge && isLoading
        progressTrack.isHidden = !show
        progressFill.isHidden = !show
        if show { layoutOverlays() }
    }
}
