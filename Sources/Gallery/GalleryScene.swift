// The image viewer's scene: a horizontal paging scroll view of zooming pages (the iOS Photos
// arrangement), loading pictures off the frame loop, with keyboard, slideshow and kiosk reset.
import Foundation
import Host
import Pictures
import Raster
import ScrollKit
import TraceFormat

/// The gallery: one page per file in a paging scroll view, each page a zooming scroll view.
///
/// Pages are laid out as in Photos: the paging scroll view is `pageGap` wider than the window
/// and centred on it, so pages are separated by the gap while swiping and each rests exactly
/// on the window. Only the pages on screen and their neighbours exist; each loads its picture
/// through a `PageLoader` whose events are taken from a mailbox on every `advance`, so the
/// frame loop never waits for a decoder. Input is routed between the pager and the page the
/// finger is on (see GalleryScene+Input.swift).
public final class GalleryScene: Scene, ScrollViewDelegate {
    /// How the gallery behaves.
    public struct Options: Sendable {
        /// Touch-first kiosk: the pointer is hidden by the host, quit and window keys are
        /// ignored.
        public var isKiosk = false
        /// Seconds between slides, nil for no slideshow.
        public var slideshowInterval: Double?
        /// Seconds without input before returning to the first image at fit, nil for never.
        public var idleResetDelay: Double?
        /// Tile cache budget in bytes.
        public var cacheBudget = Renderer.defaultBudget
        /// Points between pages while swiping: 20 pt, Apple's PhotoScroller sample's padding.
        public var pageGap: CGFloat = 20
        /// How pictures load.
        public var loading = PageLoader.Mode.background
        /// Decoder tuning and limits.
        public var pictures = PictureLoader.Options()

        /// The defaults: a desktop window, no slideshow, no idle reset.
        public init() {}
    }

    /// What the gallery asks of its window.
    public enum WindowRequest: Hashable, Sendable {
        /// Fullscreen on or off (F, F11).
        case toggleFullscreen
        /// Leave fullscreen if in it (Escape).
        case leaveFullscreen
        /// Close the viewer (Q).
        case quit
    }

    /// 16 ms: while a load runs under a host that cannot be woken from another thread
    /// (`onNeedsFrameFromAnyThread` nil), the scene asks to be ticked this often so decoded
    /// pictures reach the screen within a 60 Hz frame. A host that can be woken is woken by
    /// the loader instead, and an idle loading window sleeps until a result arrives.
    public static let loadPollInterval = 16.0

    /// The files, one page each.
    public let files: [String]
    /// The behaviour chosen at launch.
    public let options: Options
    /// The view tree and its renderer.
    public let viewScene: ViewScene
    /// The horizontal paging scroll view holding the pages.
    public let pager = ScrollView()
    /// Called for the window requests of keys (fullscreen, quit).
    public var onWindowRequest: ((WindowRequest) -> Void)?
    /// Called with what the gallery does to its scroll views that input alone would not
    /// reproduce, and the time (ms): the method calls its keys, slideshow and idle reset make,
    /// keys it hands to a page, other keys, and pages' new content as pictures load. A recording
    /// (`--record`) writes these beside the input, so a replay of the gallery (`traceSetup()`)
    /// does what the gallery did.
    public var onTraceAction: ((TraceAction, Double) -> Void)?
    /// Called once per file that cannot be shown, with the error whose `description` is the
    /// line the viewer prints on stderr.
    public var onLoadFailure: ((PictureError) -> Void)?
    /// Set by the host.
    public var onNeedsFrame: (() -> Void)?
    /// Set by a host that can be woken from another thread: the loader calls it whenever a
    /// load has news, so no polling is needed while pictures load.
    public var onNeedsFrameFromAnyThread: (@Sendable () -> Void)? {
        didSet { loader.mailbox.onPost = onNeedsFrameFromAnyThread }
    }

    /// The renderer drawing the gallery.
    public var renderer: Renderer { viewScene.renderer }
    /// The message shown when there are no files at all.
    public private(set) var emptyCard: CardView?
    /// Whether the host should hide the pointer (kiosk mode).
    public var hidesPointer: Bool { options.isKiosk }

    /// The pointer's look a host should show (the cursor is the host's: Gallery knows no Wayland).
    public enum PointerAppearance: Hashable, Sendable {
        /// The ordinary arrow: nothing to drag here.
        case arrow
        /// An open hand: the picture or the pages can be dragged.
        case openHand
        /// A closed hand: a drag is under way.
        case closedHand
        /// No pointer (kiosk).
        case hidden
    }

    /// How the pointer should look now: hidden in a kiosk, a closed hand while the button
    /// drags, an open hand over a picture that pans or pages that turn, the arrow otherwise.
    public var pointerAppearance: PointerAppearance {
        if options.isKiosk { return .hidden }
        if router.isPointerDragging { return .closedHand }
        if let page = pageUnderPointer, page.canPan(.horizontal) || page.canPan(.vertical) { return .openHand }
        return files.count > 1 ? .openHand : .arrow
    }
    /// Picture loads started so far (a host bounding its work counts them: each is a decode).
    public private(set) var loadsStarted = 0
    /// Whether a frame drawn so far showed the current page's picture, preview or error card:
    /// the moment `--stats` calls the first frame.
    public private(set) var hasRenderedContent = false

    let loader: PageLoader
    /// The pages that exist, by index: those on screen and their neighbours.
    var pages: [Int: PageView] = [:]
    /// Files that failed, by index: a page made again shows the card without decoding again
    /// or printing the line twice.
    var failures: [Int: PictureError] = [:]
    /// The page index of each load in flight, by token.
    var loadsInFlight: [UInt64: Int] = [:]
    private var nextToken: UInt64 = 1
    /// The picture sizes known so far, by page index (zero for a file that failed): what a
    /// recording's setup says of pages that do not exist at the moment.
    private var knownSizes: [Int: CGSize] = [:]
    /// The window's size in points and its scale.
    private(set) var windowSize: CGSize = .zero
    private(set) var outputScale: CGFloat = 1
    /// The page a key or slideshow animation is heading for.
    var targetPage: Int?
    /// The latest time seen from input or frames, in ms.
    var now: Double = 0
    var schedule: KioskSchedule
    /// Shares input between the pager and the pages (see GalleryScene+Input.swift).
    let router: InputRouter
    /// Where the pointer is, window points, as the latest input said.
    var pointerLocation: CGPoint?

    /// A gallery of `files` (see `ImageListing`), behaving as `options` say.
    public init(files: [String], options: Options = Options()) {
        self.files = files
        self.options = options
        loader = PageLoader(options: options.pictures, mode: options.loading)
        schedule = KioskSchedule(slideInterval: options.slideshowInterval.map { $0 * 1000 },
                                 idleDelay: options.idleResetDelay.map { $0 * 1000 })
        let root = View()
        root.backgroundColor = .black
        viewScene = ViewScene(root: root, cacheBudget: options.cacheBudget)
        router = viewScene.router
        pager.isPagingEnabled = true
        pager.alwaysBounceHorizontal = true
        pager.showsHorizontalScrollIndicator = false
        pager.showsVerticalScrollIndicator = false
        pager.isDirectionalLockEnabled = false
        pager.delegate = self
        root.addSubview(pager)
        if files.isEmpty {
            let card = CardView(title: "No pictures to show",
                                message: "Give image-viewer PNG or JPEG files, or folders holding them.")
            card.isUserInteractionEnabled = false
            root.addSubview(card)
            emptyCard = card
        }
        viewScene.onNeedsFrame = { [unowned self] in self.onNeedsFrame?() }
    }

    // MARK: Scene

    /// Whether anything visible changed since the last `render`.
    public var needsRender: Bool { viewScene.needsRender }

    /// Lays the pager and pages out for a window of `width`×`height` points at `scale` device
    /// pixels per point (integer or fractional).
    public func resize(width: Int, height: Int, scale: Double) {
        viewScene.resize(width: width, height: height, scale: scale)
        windowSize = CGSize(width: width, height: height)
        outputScale = CGFloat(scale.isFinite && scale > 0 ? scale : 1)
        layoutPages()
    }

    /// Takes finished loads from the mailbox, runs the slideshow and idle reset, advances
    /// every scroll view to `time` (ms), and says when to tick next (every 16 ms while a load
    /// runs, unless the host is woken by the loader).
    public func advance(to time: Double) -> FrameRequest {
        if time.isFinite { now = max(now, time) }
        deliverLoadEvents()
        for action in schedule.advance(to: now) { perform(action) }
        var request = viewScene.advance(to: now)
        // Events that arrived during this tick (a synchronous loader) are shown next tick.
        if !loader.mailbox.isEmpty { request = .nextFrame }
        let poll = loadsInFlight.isEmpty || onNeedsFrameFromAnyThread != nil ? nil : now + Self.loadPollInterval
        return request.merged(with: [poll, schedule.nextDeadline])
    }

    /// Draws the gallery into `buffer` (see `Scene.render`), noting when picture content first shows.
    public func render(into buffer: Framebuffer, bufferAge: Int) -> [PixelRect] {
        if !hasRenderedContent, let page = currentPage, page.showsContent { hasRenderedContent = true }
        if !hasRenderedContent, emptyCard != nil { hasRenderedContent = true }
        return viewScene.render(into: buffer, bufferAge: bufferAge)
    }

    // MARK: Pages

    /// Points from one page's left edge to the next one's.
    var pageStride: CGFloat { windowSize.width + options.pageGap }

    /// The page the pager rests on, or is nearest to while moving.
    public var currentIndex: Int {
        guard !files.isEmpty, pageStride > 0 else { return 0 }
        let position = (pager.contentOffset.x / pageStride).rounded()
        return Int(min(max(position, 0), CGFloat(files.count - 1)))
    }

    /// The page view at `index` if it exists (on screen or a neighbour).
    public func page(at index: Int) -> PageView? { pages[index] }

    /// The page view of `currentIndex`.
    public var currentPage: PageView? { pages[currentIndex] }

    /// The frame of page `index` in the pager's content.
    func pageFrame(_ index: Int) -> CGRect {
        CGRect(x: CGFloat(index) * pageStride + options.pageGap / 2, y: 0, width: windowSize.width,
               height: windowSize.height)
    }

    /// Places the pager and every page for the window's size, keeping the current page.
    private func layoutPages() {
        let keep = currentIndex
        let gap = options.pageGap
        pager.frame = CGRect(x: -gap / 2, y: 0, width: windowSize.width + gap, height: windowSize.height)
        pager.contentSize = CGSize(width: CGFloat(files.count) * pageStride, height: windowSize.height)
        pager.setContentOffset(CGPoint(x: CGFloat(keep) * pageStride, y: 0), animated: false)
        for (index, page) in pages {
            page.frame = pageFrame(index)
            page.layoutPage(outputScale: outputScale)
        }
        if let card = emptyCard {
            card.layout(maxWidth: windowSize.width - 32, maxHeight: windowSize.height - 32)
            let size = card.frame.size
            card.frame = CGRect(x: ((windowSize.width - size.width) / 2).rounded(),
                                y: ((windowSize.height - size.height) / 2).rounded(), width: size.width, height: size.height)
        }
        updatePages()
    }

    /// Makes the pages on screen and their neighbours, drops the others, resets the zoom of
    /// pages that left the screen and starts the loads that are due.
    func updatePages() {
        guard !files.isEmpty, windowSize.width > 0, windowSize.height > 0 else { return }
        let visible = pager.bounds
        let count = CGFloat(files.count)
        let first = Int(min(max((visible.minX / pageStride).rounded(.down), 0), count))
        let last = Int(min(max(((visible.maxX - 1) / pageStride).rounded(.down), -1), count - 1))
        // Clamped both ways: content pulled far past either end still names real pages.
        let lower = min(max(first - 1, 0), files.count - 1)
        let wanted = lower...max(min(last + 1, files.count - 1), lower)
        for (index, page) in pages where !wanted.contains(index) {
            if let token = page.loadToken { loadsInFlight[token] = nil }
            page.loadTask?.cancel()
            page.removeFromSuperview()
            pages[index] = nil
        }
        for index in wanted where pages[index] == nil {
            let page = PageView(index: index, path: files[index])
            page.frame = pageFrame(index)
            pager.addSubview(page)
            page.layoutPage(outputScale: outputScale)
            if let failure = failures[index] { page.showFailure(failure) }
            pages[index] = page
        }
        // (A zoomed page the pager scrolls out of sight returns to its fit by itself.)
        startLoads()
    }

    /// Starts the loads pages need: the current page first (the loader runs them in order),
    /// then its neighbours; a large neighbour waits until it is on screen.
    private func startLoads() {
        let visible = pager.bounds
        let order = pages.keys.sorted { abs($0 - currentIndex) < abs($1 - currentIndex) }
        for index in order {
            guard let page = pages[index], page.needsLoad else { continue }
            let onScreen = pageFrame(index).intersects(visible)
            if page.loadState == .deferred && !onScreen { continue }
            let token = nextToken
            nextToken += 1
            loadsInFlight[token] = index
            page.beginLoad(token: token, task: nil)
            loadsStarted += 1
            let task = loader.load(path: files[index], token: token)
            if page.loadToken == token { page.loadTask = task }
        }
    }

    /// Applies the load events waiting in the mailbox to their pages.
    func deliverLoadEvents() {
        let deliveries = loader.mailbox.drain()
        guard !deliveries.isEmpty else { return }
        for delivery in deliveries {
            guard let index = loadsInFlight[delivery.token], let page = pages[index], page.loadToken == delivery.token else {
                continue
            }
            switch delivery.event {
            case .loaded, .failed: loadsInFlight[delivery.token] = nil
            default: break
            }
            let before = page.imageSize
            if let failure = page.apply(delivery.event), failures[index] == nil {
                failures[index] = failure
                onLoadFailure?(failure)
            }
            let size = page.failure == nil ? page.imageSize ?? .zero : .zero
            if page.imageSize != before || (page.failure != nil && knownSizes[index] != .zero) {
                knownSizes[index] = size
                report(.layout(NestedLayout(view: index + 1, content: size, detailScale: Double(page.detailScale))))
            }
            if case .header = delivery.event, page.isLarge, loader.mode == .background,
               !pageFrame(index).intersects(pager.bounds) {
                // Only the page on screen may hold a huge decode. (A waiting loader has
                // finished already: nothing is saved by stopping it.)
                loadsInFlight[delivery.token] = nil
                page.deferLoad()
            }
        }
    }

    /// Blocks until every load in flight has delivered its last event and applies them: for
    /// tests and offscreen runs that use the background loader. Returns false on timeout
    /// (`timeout` in seconds).
    @discardableResult
    public func waitForLoads(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            deliverLoadEvents()
            if loadsInFlight.isEmpty { return true }
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    // MARK: Navigation

    /// Shows page `index` (clamped), sliding there when `animated`.
    public func show(page index: Int, animated: Bool) {
        guard !files.isEmpty, !pager.isTracking else { return }
        let target = min(max(index, 0), files.count - 1)
        targetPage = animated ? target : nil
        let offset = CGPoint(x: CGFloat(target) * pageStride, y: 0)
        pager.setContentOffset(offset, animated: animated)
        report(.call(.setContentOffset(offset, animated: animated)))
    }

    /// Hands `action` to `onTraceAction` at the gallery's time.
    func report(_ action: TraceAction) {
        onTraceAction?(action, now)
    }

    /// The setup a recording of the gallery starts with: the pager, and every page as a nested
    /// `ZoomingScrollView` at its place in the pager's content, with the picture sizes known
    /// so far (pages not made yet, or not loaded, have none until a `layout` line gives it).
    public func traceSetup() -> TraceSetupDescription {
        var description = TraceSetupDescription(describing: pager)
        description.setup.nested = files.indices.map { index in
            if let page = pages[index] { return TraceSetupDescription.nestedSetup(describing: page, frame: pageFrame(index)) }
            return NestedScrollSetup(frame: pageFrame(index), content: knownSizes[index] ?? .zero, zoomable: true,
                                     fitsContent: true, detailScale: outputScale == 1 ? nil : Double(1 / outputScale))
        }
        return description
    }

    /// The page keys and the slideshow count from: where an animation is heading, or here.
    var basePage: Int { targetPage ?? currentIndex }

    private func perform(_ action: KioskAction) {
        switch action {
        case .nextSlide:
            guard files.count > 1, !router.isTouching else { return }
            // After the last image the show starts over at once rather than sliding back
            // past every image.
            if basePage + 1 >= files.count { show(page: 0, animated: false) } else { show(page: basePage + 1, animated: true) }
        case .idleReset:
            guard !files.isEmpty else { return }
            if currentIndex != 0 || pager.contentOffset.x != 0 { show(page: 0, animated: false) }
            for page in pages.values where page.isZoomedIn || page.zoomScale != page.fitScale {
                page.resetZoom()
                report(.call(.setZoomScale(Double(page.fitScale), animated: false), view: page.index + 1))
                report(.call(.setContentOffset(page.contentOffset, animated: false), view: page.index + 1))
            }
        }
    }

    // MARK: Pager delegate

    /// The pager moved: make and drop pages, reset the zoom of pages that left the screen.
    public func scrollViewDidScroll(_ scrollView: ScrollView) {
        guard scrollView === pager else { return }
        updatePages()
    }

    /// A drag takes over from any key or slideshow slide.
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {
        targetPage = nil
    }

    /// A key or slideshow slide arrived.
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {
        targetPage = nil
    }
}
