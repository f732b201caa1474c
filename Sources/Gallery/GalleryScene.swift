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
/// on the window. Only the pages on screen and the neighbours of the one nearest the middle
/// exist; each loads its picture through a `PageLoader` whose events are taken from a mailbox
/// on every `advance`, so the frame loop never waits for a decoder. Input is routed between
/// the pager and the page the finger is on (see GalleryScene+Input.swift).
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
        /// Memory for the pictures and their tiles together, in bytes: the tile cache's
        /// `cacheBudget`, and the rest for decoded pictures (see `pictureBudget`).
        public var memoryBudget = GalleryScene.defaultMemoryBudget
        /// Tile cache budget in bytes, part of `memoryBudget`.
        public var cacheBudget = GalleryScene.defaultMemoryBudget / 8 * 3
        /// Points between pages while swiping: 20 pt, Apple's PhotoScroller sample's padding.
        public var pageGap: CGFloat = 20
        /// How pictures load.
        public var loading = PageLoader.Mode.background
        /// Whether the last picture leads on to the first and back (keys, swipes, slideshow;
        /// see `PageSlots`).
        public var wraps = false
        /// Decoder tuning and limits. The gallery's default shows what decoded of a damaged
        /// file and plays animations.
        public var pictures = PictureLoader.Options()
        /// Whether the page overlay, information panel and help may show; nil: everywhere but
        /// in a kiosk (`--show-info` lets a kiosk show them).
        public var showsInformation: Bool?
        /// What shows through transparent pictures (`--background`); nil: the black page.
        public var background: PictureBackground? = .checkerboard
        /// Whether pictures smaller than the window are enlarged to fill it (`--upscale`); by
        /// default they show at 1:1, centred, as eog, Loupe and swayimg show them.
        public var upscalesToFit = false

        /// The defaults: a desktop window, no slideshow, no idle reset.
        public init() {
            pictures.acceptsDamage = true
            pictures.opensAnimations = true
        }
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

    /// The files, one page each (changed by `replaceFiles`, as a watched folder changes).
    public internal(set) var files: [String]
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
    /// Called with the new `title` whenever the page shown changes (the pager passes the middle
    /// between two pages, a key or the slideshow turns one): the host's window title.
    public var onTitleChange: ((String) -> Void)?
    /// Called once per file shown in part, with what went wrong (`error.file` names the file,
    /// `description` says what is missing: the banner's words, for the stderr line).
    public var onLoadDamage: ((PictureDamage) -> Void)?
    /// Whether anyone can see the window (see `Scene.isWindowVisible`): hidden, animations
    /// stop where they are and ask for nothing until it shows again.
    public var isWindowVisible = true {
        didSet { if isWindowVisible && !oldValue { onNeedsFrame?() } }
    }
    /// Whether animations are stopped by the user (S, F4).
    public internal(set) var animationsPaused = false
    /// Set by the host.
    public var onNeedsFrame: (() -> Void)?
    /// Set by a host that can be woken from another thread: the loader calls it whenever a
    /// load has news, so no polling is needed while pictures load.
    public var onNeedsFrameFromAnyThread: (@Sendable () -> Void)? {
        didSet {
            loader.mailbox.onPost = onNeedsFrameFromAnyThread
            folderChanges?.onPost = onNeedsFrameFromAnyThread
            overlays.reader.onReady = onNeedsFrameFromAnyThread
        }
    }

    /// The renderer drawing the gallery.
    public var renderer: Renderer { viewScene.renderer }
    /// The message shown when there are no files at all.
    public internal(set) var emptyCard: CardView?
    /// Whether the host should hide the pointer (kiosk mode).
    public var hidesPointer: Bool { options.isKiosk }

    /// Whether the host should keep the screen on: while a slideshow plays (not paused by the P
    /// key, and with more than one picture to show), and while a finger or button is down.
    public var keepsScreenOn: Bool {
        (schedule.isPlaying && files.count > 1) || router.isTouching
    }

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
        return slots.count > 1 ? .openHand : .arrow
    }
    /// Picture loads started so far (a host bounding its work counts them: each is a decode).
    public internal(set) var loadsStarted = 0
    /// Whether a frame drawn so far showed the current page's picture, preview or error card:
    /// the moment `--stats` calls the first frame.
    public private(set) var hasRenderedContent = false
    /// Whether the first frame with content is still to come while the current page loads: a
    /// frame drawn now shows the black page alone, and the picture (or its error card) follows
    /// as soon as the decoder has it (see `Scene.awaitsContent`).
    public var awaitsContent: Bool {
        guard !hasRenderedContent, let page = currentPage else { return false }
        return page.isLoading && !page.showsContent
    }
    /// The size of the largest screen the window can be on, in device pixels, nil when the host
    /// does not know (the live viewer asks the compositor's outputs). Until the first picture
    /// shows, loads are sized for it as well as for the window (see `startLoads`).
    public var screenSize: (() -> (width: Int, height: Int)?)?
    /// Neighbours that wait for the first frame with content before they load (see `startLoads`).
    var neighboursWait = false
    /// Whether the overlays' fonts were looked up ahead of their first use (see `advance`).
    var fontsPrepared = false
    /// 250 ms after the first picture rests: when its fonts are looked up (decision). By then
    /// the compositor has given back the buffers of the frames before that picture's (it does
    /// within a refresh or two of the next commit), so fontconfig's configuration and caches,
    /// 1.6 MiB, do not add to them at the launch's peak (an SVG's at 1920×1080 went from 45.8
    /// to 44.2 MiB); and it is sooner than people turn the page on a picture they just saw.
    static let fontPreparationDelay = 0.25
    /// Called once the gallery comes to rest after pictures were let go (pages dropped, a
    /// picture replaced by another rendition): the allocator's free pages go back to the
    /// system (`FreeMemory`). Nil keeps them.
    public var onRestAfterRelease: (@Sendable () -> Void)? = FreeMemory.returnToSystem
    /// Pictures were let go since the gallery last rested.
    var releasedSinceRest = false

    let loader: PageLoader
    /// Where each file's page sits in the pager (with `wraps`, copies at the ends).
    var slots: PageSlots
    /// The pages that exist, by slot: those on screen and their neighbours.
    var pages: [Int: PageView] = [:]
    /// Files that failed, by path: a page made again shows the card without decoding again
    /// or printing the line twice.
    var failures: [String: PictureError] = [:]
    /// The pages of each file (its TIFF directories, HEIF images) whose failure or damage was
    /// reported, by path.
    var reported: [String: Set<Int>] = [:]
    /// The page of each load in flight, by token.
    var loadsInFlight: [UInt64: PageView] = [:]
    /// Loads whose vector drawing was sent back to be rendered at the page's own fit
    /// (`rendersVectorAtFit`): once each.
    var vectorRendersAsked: Set<UInt64> = []
    var nextToken: UInt64 = 1
    /// The picture sizes known so far, by path (zero for a file that failed), as shown (turned):
    /// what a recording's setup says of pages that do not exist at the moment.
    var knownSizes: [String: CGSize] = [:]
    /// The window's size in points and its scale.
    private(set) var windowSize: CGSize = .zero
    private(set) var outputScale: CGFloat = 1
    /// The slot a key or slideshow animation is heading for.
    var targetSlot: Int?
    /// The file to open on, until the first layout places the pager there.
    var startIndex: Int?
    /// Folder changes posted by a `FolderWatcher`, shown once the pager rests (see
    /// GalleryScene+Folders.swift).
    public var folderChanges: Mailbox<FolderChange>? {
        didSet { folderChanges?.onPost = onNeedsFrameFromAnyThread }
    }
    /// The newest folder change taken from `folderChanges` and not applied yet.
    var pendingFolderChange: FolderChange?
    /// The rotation and flip the user gave each file, by path, for the session (see
    /// GalleryScene+Orientation.swift).
    var orientations: [String: Orientation] = [:]
    /// The latest time seen from input or frames, in ms.
    var now: Double = 0
    var schedule: KioskSchedule
    /// Shares input between the pager and the pages (see GalleryScene+Input.swift).
    let router: InputRouter
    /// Where the pointer is, window points, as the latest input said.
    var pointerLocation: CGPoint?
    /// The title last given to `onTitleChange`, or the host's first title (`title` at start).
    var reportedTitle: String?
    /// The page overlay, information panel and help (see GalleryOverlays.swift).
    let overlays: GalleryOverlays

    /// Which keys work: kiosk or desktop, with or without on-screen information.
    public var keyContext: GalleryKeyBindings.Context { overlays.context }

    /// A gallery of `files` (see `ImageListing`), behaving as `options` say, opening on
    /// `start` (the file named when one file was opened among its folder's).
    public init(files: [String], options: Options = Options(), startingAt start: Int = 0) {
        self.files = files
        self.options = options
        slots = PageSlots(fileCount: files.count, wraps: options.wraps)
        startIndex = start
        var pictures = options.pictures
        pictures.limits.memoryBudget = min(pictures.limits.memoryBudget, options.pictureBudget)
        pictures.limits.maxPixels = max(pictures.limits.maxPixels, Self.maxPixels)
        pictures.limits.levelFolder = { LevelFolder.shared.path() }
        loader = PageLoader(options: pictures, mode: options.loading)
        // The first picture's library opens now, while the window is set up, rather than when
        // its load starts after the window's first configure (loads in the background only:
        // the offscreen harness decodes on the spot).
        if options.loading == .background, files.indices.contains(start) {
            CodecWarmUp.prepare(forFileAt: files[start])
        }
        schedule = KioskSchedule(slideInterval: options.slideshowInterval.map { $0 * 1000 },
                                 idleDelay: options.idleResetDelay.map { $0 * 1000 })
        let root = View()
        root.backgroundColor = .black
        viewScene = ViewScene(root: root, cacheBudget: options.cacheBudget)
        router = viewScene.router
        overlays = GalleryOverlays(context: GalleryKeyBindings.Context(isKiosk: options.isKiosk, showsInformation: options.showsInformation),
                                   waitsForDetails: options.loading == .waitForEach)
        pager.isPagingEnabled = true
        pager.alwaysBounceHorizontal = true
        pager.showsHorizontalScrollIndicator = false
        pager.showsVerticalScrollIndicator = false
        pager.isDirectionalLockEnabled = false
        pager.delegate = self
        root.addSubview(pager)
        updateEmptyCard()
        overlays.install(in: root)
        viewScene.onNeedsFrame = { [unowned self] in self.onNeedsFrame?() }
        reportedTitle = title
    }

    /// The page last counted as in the middle, which may hold more than a screen-size picture.
    var middleSlot: Int?
    /// The way the pages last went: +1 to the next, −1 to the previous (+1 at the start). The
    /// neighbour ahead is kept at screen size, the one behind reduced (`updatePages`).
    var pageDirection = 1

    // MARK: Scene

    /// Whether anything visible changed since the last `render`.
    public var needsRender: Bool { viewScene.needsRender }

    /// Lays the pager and pages out for a window of `width`×`height` points at `scale` device
    /// pixels per point (integer or fractional).
    public func resize(width: Int, height: Int, scale: Double) {
        viewScene.resize(width: width, height: height, scale: scale)
        let pixels = (width: Double(width) * scale, height: Double(height) * scale)
        if pixels.width.isFinite, pixels.height.isFinite {
            renderer.cacheBudget = Self.tileBudget(width: Int(min(pixels.width.rounded(.up), 1e6)),
                                                   height: Int(min(pixels.height.rounded(.up), 1e6)), ceiling: options.cacheBudget)
        }
        // The page shown, found with the old page width: the pager's offset is still in it.
        let shown = currentSlot
        windowSize = CGSize(width: width, height: height)
        outputScale = CGFloat(scale.isFinite && scale > 0 ? scale : 1)
        layoutPages(keeping: shown)
        // The header may have come while the window had its placeholder size (sway's 800×600
        // before the tile): the reserve grows to the tiles of the picture's fit at this size.
        if let page = currentPage { reserveFirstTiles(for: page) }
    }

    /// Takes finished loads from the mailbox, runs the slideshow and idle reset, advances
    /// every scroll view to `time` (ms), and says when to tick next (every 16 ms while a load
    /// runs, unless the host is woken by the loader).
    public func advance(to time: Double) -> FrameRequest {
        if time.isFinite { now = max(now, time) }
        deliverLoadEvents()
        let actions = schedule.advance(to: now)
        // A slide starts now, not when the pager was last ticked: an idle pager's clock
        // stopped then, and a slide started from it would be over before its first frame.
        if !actions.isEmpty { pager.advance(to: now) }
        for action in actions { perform(action) }
        let animations = advanceAnimations()
        var request = viewScene.advance(to: now)
        // A zoom past what the page in the middle holds asks for more of its picture; the
        // neighbours load once the first picture is on screen.
        if let page = currentPage, page.wantedLoad(isCurrent: true) != nil {
            startLoads()
        } else if neighboursWait, hasRenderedContent {
            startLoads()
        }
        // After the step: it may have brought the pager to rest.
        applyFolderChanges()
        // Events that arrived during this tick (a synchronous loader) are shown next tick. A
        // host the loader wakes hears of them by the wake: asking it for the next frame had a
        // live window draw one ahead for nothing while the first picture decoded (a second
        // black 800×600 frame, into a fresh buffer, 6 ms of the frame loop's thread).
        if !loader.mailbox.isEmpty, onNeedsFrameFromAnyThread == nil { request = .nextFrame }
        if pendingFolderChange != nil, request == .idle { request = .nextFrame }
        let poll = loadsInFlight.isEmpty || onNeedsFrameFromAnyThread != nil ? nil : now + Self.loadPollInterval
        request = request.merged(with: [poll, schedule.nextDeadline])
        request = request.merged(with: overlays.update(currentFacts, at: now)).sooner(animations)
        let rests = request != .nextFrame && loadsInFlight.isEmpty && !neighboursWait && pagerRests
        if releasedSinceRest, rests {
            releasedSinceRest = false
            onRestAfterRelease?()
        }
        // The overlays' fonts, found off the frame loop once the first picture and its
        // neighbours are in and nothing moves: the first page change shows the page overlay in
        // the middle of its slide, and fontconfig reading its configuration there held that
        // frame 22–55 ms. On a thread that ends when done (a dispatch worker stays and wakes
        // every second while the viewer is idle); not at the first frame, where it took a core
        // from the neighbours' decodes and from input arriving then; nor at once at the first
        // rest: the thread waits `fontPreparationDelay` first (no wake of the frame loop).
        if !fontsPrepared, hasRenderedContent, rests {
            fontsPrepared = true
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: Self.fontPreparationDelay)
                Font.prepare([OverlayStyle.nameFont, OverlayStyle.detailFont])
            }
        }
        return request
    }

    /// The view tree's word (`ViewScene.isMotionPredictable`): the gallery's own timed work
    /// (slides, overlay fades, animation frames, the idle reset) runs on the clock passed to
    /// `advance`, and a picture arriving from a decoder wakes the host, which draws it anew.
    public var isMotionPredictable: Bool { viewScene.isMotionPredictable }

    /// Draws the gallery into `buffer` (see `Scene.render`), noting when picture content first shows.
    public func render(into buffer: Framebuffer, bufferAge: Int) -> [PixelRect] {
        render { viewScene.render(into: buffer, bufferAge: bufferAge) }
    }

    /// Half resolution while the page at rest shows an SVG's quick rendition
    /// (`Picture.provisionalLevel`) at half its pixels or fewer: drawn at the full scale, that
    /// frame took a buffer of the window's size, which the compositor still holds while the
    /// drawing's frame is drawn into a second one (two 8 MB buffers at 1920×1080 for a 1.5 MB
    /// rendition). The rendition gives way to the drawing within a frame or two, so the overlays
    /// drawn with it (the name plate) are soft only that long; a JPEG's preview, which can stay
    /// for seconds under a progress bar, is drawn at the full scale.
    public var prefersHalfResolution: Bool {
        guard pagerRests, let page = currentPage, !page.isTracking, !page.isAnimating, page.card == nil,
              let picture = page.pictureView.picture, picture.provisionalLevel != nil else { return false }
        let shown = Double(page.zoomScale * outputScale)  // device pixels per picture pixel
        return shown.isFinite && Double(picture.width) / Double(picture.fullWidth) * 2 <= shown
    }

    /// Draws the gallery at half its scale (see `Scene.renderHalfResolution`).
    public func renderHalfResolution(into buffer: Framebuffer) -> [PixelRect] {
        render { viewScene.renderHalfResolution(into: buffer) }
    }

    /// The frame as a still one when it is one (`Scene.stillFrame`): an SVG at rest shown from
    /// its render or quick rendition, opaque or over the black page, and nothing else on screen.
    public func stillFrame(width: Int, height: Int) -> StillFrame? {
        viewScene.stillFrame(width: width, height: height)
    }

    /// The host showed the still frame: it counts as drawn, the first with content too.
    public func didShowStillFrame() {
        _ = render {
            viewScene.didShowStillFrame()
            return []
        }
    }

    /// Runs `draw`, noting the first frame that shows picture content.
    private func render(_ draw: () -> [PixelRect]) -> [PixelRect] {
        guard !hasRenderedContent, (currentPage?.showsContent ?? false) || emptyCard != nil else { return draw() }
        hasRenderedContent = true
        // A tick after this frame's commit starts the neighbours' loads (a wake, since a
        // frame asked for while drawing counts as drawn by this one).
        if neighboursWait { onNeedsFrameFromAnyThread?() }
        // Blocks no tile took stay in the allocator's heap (tiles are under the threshold
        // for mappings of their own, `FreeMemory.mapLargeBlocksApart`): given back at rest.
        defer { if renderer.releaseReservedTiles() > 0 { releasedSinceRest = true } }
        return draw()
    }

    /// The first picture's size is known (its header) while it decodes: the memory of the tiles
    /// that will show it at its fit is written now, on the frame loop's thread, which waits for
    /// the decoder anyway, rather than faulted in while the first frame with it is drawn.
    ///
    /// Not for a vector drawing: its tiles borrow one render of the whole drawing, so no tile
    /// memory would be taken, and its document is parsed by the time its header comes, so the
    /// writing delayed the first frame (7 ms at 1920×1080 for a 6000×4000 SVG, measured with
    /// timestamps beside WAYLAND_DEBUG's under headless sway). Nor for a picture not turned
    /// whose fit is drawn from its screen-size level without tiles of its own
    /// (`Renderer.drawsWithoutTiles`): the first frame would take none of the memory (48 tiles,
    /// 12 MiB at 1920×1080, the start-up's peak, given back at the first rest).
    func reserveFirstTiles(for page: PageView) {
        guard !hasRenderedContent, page === currentPage, !page.isVector, let size = page.imageSize else { return }
        let scale = Double(page.zoomScale * outputScale)
        let width = Double(size.width) * scale, height = Double(size.height) * scale
        guard width.isFinite, height.isFinite else { return }
        if page.orientation == .up, Renderer.drawsWithoutTiles(width: Int(size.width), height: Int(size.height),
                                                               scale: scale, outputScale: Double(outputScale)) { return }
        renderer.reserveTiles(width: Int(min(width.rounded(.up), 1e6)), height: Int(min(height.rounded(.up), 1e6)))
    }

    // MARK: Navigation

    /// Shows page `index` (clamped), sliding there when `animated`.
    public func show(page index: Int, animated: Bool) {
        guard !files.isEmpty else { return }
        show(slot: slots.slot(ofFile: min(max(index, 0), files.count - 1)), animated: animated)
    }

    /// Slides `delta` pages on from where keys and the slideshow count from: past either end
    /// onto the wrap's copy of the page beyond (which then settles on that page), or no
    /// further than the end without `wraps`.
    func step(by delta: Int) {
        guard !files.isEmpty, !pager.isTracking else { return }
        var wanted = baseSlot + delta
        if slots.isWrapping, !(0..<slots.count).contains(wanted) {
            // Heading past a copy at an end: the same pages sit one period (one slot per file)
            // the other way, so jump there first, unseen, and slide on from it.
            let shift = wanted < 0 ? slots.fileCount : -slots.fileCount
            let offset = CGPoint(x: pager.contentOffset.x + CGFloat(shift) * pageStride, y: 0)
            pager.setContentOffset(offset, animated: false)
            report(.call(.setContentOffset(offset, animated: false)))
            wanted += shift
        }
        show(slot: wanted, animated: true)
    }

    /// Shows slot `slot` (clamped), sliding there when `animated`.
    func show(slot: Int, animated: Bool) {
        guard slots.count > 0, !pager.isTracking else { return }
        let target = min(max(slot, 0), slots.count - 1)
        targetSlot = animated ? target : nil
        let offset = CGPoint(x: CGFloat(target) * pageStride, y: 0)
        pager.setContentOffset(offset, animated: animated)
        report(.call(.setContentOffset(offset, animated: animated)))
    }

    /// Hands `action` to `onTraceAction` at the gallery's time.
    func report(_ action: TraceAction) {
        onTraceAction?(action, now)
    }

    /// The nested view number a recording gives `page`: its slot + 1 (the pager is view 0).
    func view(of page: PageView) -> Int {
        (pages.first { $0.value === page }?.key ?? slots.slot(ofFile: page.index)) + 1
    }

    /// Notes the content of `page` (its picture loaded, failed or turned) and reports it for
    /// every slot that shows its file (a wrap's copies too).
    func reportLayout(of page: PageView) {
        let size = page.failure == nil ? page.imageSize ?? .zero : .zero
        knownSizes[page.path] = size
        for slot in 0..<slots.count where files[slots.file(atSlot: slot)] == page.path {
            report(.layout(NestedLayout(view: slot + 1, content: size, detailScale: Double(page.detailScale))))
        }
    }

    /// The setup a recording of the gallery starts with: the pager, and every page as a nested
    /// `ZoomingScrollView` at its place in the pager's content (a wrap's copies included), with
    /// the picture sizes known so far (pages not made yet, or not loaded, have none until a
    /// `layout` line gives it). A recording is replayed faithfully while the listing stays as
    /// it was: a watched folder's change alters the pages, which no trace line can say.
    public func traceSetup() -> TraceSetupDescription {
        var description = TraceSetupDescription(describing: pager)
        description.setup.nested = (0..<slots.count).map { slot in
            if let page = pages[slot] { return TraceSetupDescription.nestedSetup(describing: page, frame: pageFrame(slot)) }
            return NestedScrollSetup(frame: pageFrame(slot), content: knownSizes[files[slots.file(atSlot: slot)]] ?? .zero,
                                     zoomable: true, fitsContent: true,
                                     detailScale: outputScale == 1 ? nil : Double(1 / outputScale),
                                     upscalesToFit: options.upscalesToFit)
        }
        return description
    }

    /// The slot keys and the slideshow count from: where an animation is heading, or here.
    var baseSlot: Int { targetSlot ?? currentSlot }

    /// Whether the pager is still: no finger on it, no glide, bounce or slide.
    var pagerRests: Bool { !pager.isTracking && !pager.isDragging && !pager.isAnimating && targetSlot == nil }

    /// The pager came to rest (a glide, slide or drag ended): on a wrap's copy at an end, it
    /// moves to the page the copy shows. The same pixels, so the jump is unseen, and the next
    /// swipe goes on from there.
    private func settleOnWrappedPage() {
        guard slots.isWrapping, !pager.isTracking, let real = slots.restingSlot(for: currentSlot),
              abs(pager.contentOffset.x - CGFloat(currentSlot) * pageStride) < 0.5 else { return }
        let offset = CGPoint(x: CGFloat(real) * pageStride, y: 0)
        pager.setContentOffset(offset, animated: false)
        report(.call(.setContentOffset(offset, animated: false)))
    }

    private func perform(_ action: KioskAction) {
        switch action {
        case .nextSlide:
            guard files.count > 1, !router.isTouching else { return }
            if slots.isWrapping {
                step(by: 1)
            } else if baseSlot + 1 >= files.count {
                // After the last image the show starts over at once rather than sliding back
                // past every image.
                show(page: 0, animated: false)
            } else {
                show(slot: baseSlot + 1, animated: true)
            }
        case .idleReset:
            guard !files.isEmpty else { return }
            let first = CGFloat(slots.slot(ofFile: 0)) * pageStride
            if currentIndex != 0 || pager.contentOffset.x != first { show(page: 0, animated: false) }
            for page in pages.values where page.isZoomedIn || page.zoomScale != page.fitScale {
                page.resetZoom()
                report(.call(.setZoomScale(Double(page.fitScale), animated: false), view: view(of: page)))
                report(.call(.setContentOffset(page.contentOffset, animated: false), view: view(of: page)))
            }
        }
    }

    // MARK: Pager delegate

    /// The pager moved: make and drop pages, reset the zoom of pages that left the screen.
    public func scrollViewDidScroll(_ scrollView: ScrollView) {
        guard scrollView === pager else { return }
        updatePages()
        if !files.isEmpty { overlays.pageChanged(to: currentIndex, at: now) }
        reportTitleIfChanged()
    }

    /// A drag takes over from any key or slideshow slide.
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {
        targetSlot = nil
    }

    /// A key or slideshow slide arrived (or a page a touch left between two settled).
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {
        guard scrollView === pager else { return }
        targetSlot = nil
        settleOnWrappedPage()
    }

    /// A swipe's glide ended on a page.
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {
        guard scrollView === pager else { return }
        settleOnWrappedPage()
    }

    /// A drag ended at rest.
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        guard scrollView === pager, !decelerate else { return }
        settleOnWrappedPage()
    }
}
