// The gallery's pages: which files have page views (the middle one and its neighbours), their
// layout in the pager, the empty card, and the loads that fill them off the frame loop. The
// scene itself (state, frames, navigation, the pager's delegate) is GalleryScene.swift.
import Foundation
import Pictures

extension GalleryScene {
    /// Points from one page's left edge to the next one's.
    var pageStride: CGFloat { windowSize.width + options.pageGap }

    /// The slot the pager rests on, or is nearest to while moving.
    var currentSlot: Int {
        guard slots.count > 0, pageStride > 0 else { return 0 }
        let position = (pager.contentOffset.x / pageStride).rounded()
        return Int(min(max(position, 0), CGFloat(slots.count - 1)))
    }

    /// The page the pager rests on, or is nearest to while moving.
    public var currentIndex: Int { files.isEmpty ? 0 : slots.file(atSlot: currentSlot) }

    /// The page view of file `index` if it exists (on screen or a neighbour).
    public func page(at index: Int) -> PageView? {
        guard files.indices.contains(index) else { return nil }
        return pages[slots.slot(ofFile: index)] ?? pages.values.first { $0.index == index }
    }

    /// The page view of `currentIndex`.
    public var currentPage: PageView? { pages[currentSlot] }

    /// The window title for the page shown, or the one a key or the slideshow is sliding to
    /// (so a slide past other pages names only where it goes), or the start page until the
    /// first layout places the pager there: "sunset.png (2/5) — ScrollKit" (see `WindowTitle`).
    public var title: String {
        guard !files.isEmpty else { return WindowTitle.gallery(file: nil, index: 0, count: 0) }
        let index = startIndex.map { min(max($0, 0), files.count - 1) } ?? slots.file(atSlot: baseSlot)
        return WindowTitle.gallery(file: files[index], index: index, count: files.count)
    }

    /// Tells `onTitleChange` when the title is no longer the one last reported: the page
    /// changed, or the folder's change moved it or changed the count.
    func reportTitleIfChanged() {
        let shown = title
        guard shown != reportedTitle else { return }
        reportedTitle = shown
        onTitleChange?(shown)
    }

    /// The frame of slot `slot` in the pager's content.
    func pageFrame(_ slot: Int) -> CGRect {
        CGRect(x: CGFloat(slot) * pageStride + options.pageGap / 2, y: 0, width: windowSize.width,
               height: windowSize.height)
    }

    /// Places the pager and every page for the window's size, keeping the current page (or
    /// `slot`, when the window's width changed since the pager was placed), or at the first
    /// layout going to the start page.
    func layoutPages(keeping slot: Int? = nil) {
        var keep = slot ?? currentSlot
        if let start = startIndex, windowSize.width > 0, !files.isEmpty {
            keep = slots.slot(ofFile: min(max(start, 0), files.count - 1))
            startIndex = nil
        }
        let gap = options.pageGap
        pager.frame = CGRect(x: -gap / 2, y: 0, width: windowSize.width + gap, height: windowSize.height)
        pager.contentSize = CGSize(width: CGFloat(slots.count) * pageStride, height: windowSize.height)
        pager.setContentOffset(CGPoint(x: CGFloat(keep) * pageStride, y: 0), animated: false)
        for (slot, page) in pages {
            page.frame = pageFrame(slot)
            page.layoutPage(outputScale: outputScale)
        }
        layoutEmptyCard()
        overlays.layout(in: windowSize)
        if !files.isEmpty { overlays.pageChanged(to: currentIndex, at: now) }
        updatePages()
    }

    /// Centres the "No pictures" card, if shown.
    func layoutEmptyCard() {
        guard let card = emptyCard else { return }
        card.layout(maxWidth: windowSize.width - 32, maxHeight: windowSize.height - 32)
        let size = card.frame.size
        card.frame = CGRect(x: ((windowSize.width - size.width) / 2).rounded(),
                            y: ((windowSize.height - size.height) / 2).rounded(), width: size.width, height: size.height)
    }

    /// What the "No pictures" card says, naming every format the decoders take so that it
    /// cannot fall behind them.
    static let emptyMessage: String = {
        let names = ImageFormat.allCases.map(\.name)
        return "Give image-viewer pictures (\(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")) "
            + "or folders holding them."
    }()

    /// Shows the "No pictures" card while there are no files, and only then.
    func updateEmptyCard() {
        if !files.isEmpty {
            emptyCard?.removeFromSuperview()
            emptyCard = nil
        } else if emptyCard == nil {
            let card = CardView(title: "No pictures to show", message: Self.emptyMessage)
            card.isUserInteractionEnabled = false
            // Above the pager, under the overlays (the help shows over it).
            viewScene.root.insertSubview(card, at: (viewScene.root.subviews.firstIndex { $0 === pager } ?? -1) + 1)
            emptyCard = card
        }
    }

    /// Makes the pages on screen and their neighbours, drops the others, resets the zoom of
    /// pages that left the screen and starts the loads that are due. A page leaving a slot
    /// whose file another slot now wants moves there (the wrap's copies at the ends), and a
    /// new page of a file another page has loaded shows that picture at once.
    func updatePages() {
        guard !files.isEmpty, windowSize.width > 0, windowSize.height > 0 else { return }
        let (first, last) = slotsOnScreen
        // The pages on screen and the neighbours of the page nearest the middle: while a slide
        // shows two pages, the page behind it stays until the slide is halfway, and the one it
        // leads to is made then. Three pictures are kept during a slide, not four (the
        // neighbours on both sides of both pages held a fourth screen-size picture, 4 MiB at
        // 1080p, through every slide). Clamped both ways: content pulled far past either end
        // still names real pages.
        let current = currentSlot
        let lower = min(max(min(first, current - 1), 0), slots.count - 1)
        let wanted = lower...max(min(max(last, current + 1), slots.count - 1), lower)
        var leaving: [Int: PageView] = [:]
        for (slot, page) in pages where !wanted.contains(slot) {
            pages[slot] = nil
            if let other = leaving.updateValue(page, forKey: page.index) { drop(other) }
        }
        for slot in wanted where pages[slot] == nil {
            let index = slots.file(atSlot: slot)
            if let page = leaving.removeValue(forKey: index) {
                page.frame = pageFrame(slot)
                pages[slot] = page
                continue
            }
            let page = PageView(index: index, path: files[index])
            configure(page)
            page.frame = pageFrame(slot)
            pager.addSubview(page)
            page.layoutPage(outputScale: outputScale)
            page.pictureView.orientation = orientations[page.path] ?? .up
            if let failure = failures[page.path] {
                page.showFailure(failure)
            } else if let twin = wholeTwin(of: page) ?? pages.values.first(where: { $0.index == index && $0.filePage == 0 && $0.loadState == .loaded }) {
                // A reduced twin's picture too: the page then loads the whole one if it needs it.
                page.show(as: twin)
            }
            pages[slot] = page
        }
        for page in leaving.values { drop(page) }
        // (A zoomed page the pager scrolls out of sight returns to its fit by itself.)
        if current != middleSlot {
            // Only the page in the middle holds more than a screen's worth of its picture.
            if let previous = middleSlot {
                // A wrap's unseen jump to the page a copy shows goes no way at all.
                if !(0..<slots.count).contains(previous) || slots.file(atSlot: previous) != slots.file(atSlot: current) {
                    pageDirection = current > previous ? 1 : -1
                }
                if let page = pages[previous] {
                    page.keepScreenDetail()
                    releasedSinceRest = true
                }
            }
            middleSlot = current
        }
        startLoads()
    }

    /// The first and last slots the pager shows (first > last when it shows none).
    var slotsOnScreen: (first: Int, last: Int) {
        let visible = pager.bounds
        let count = CGFloat(slots.count)
        let first = Int(min(max((visible.minX / pageStride).rounded(.down), 0), count))
        let last = Int(min(max(((visible.maxX - 1) / pageStride).rounded(.down), -1), count - 1))
        return (first, last)
    }

    /// Reduces the picture of the page behind the way the pages go to a quarter of its size,
    /// once it is off screen (`PageView.keepReducedDetail`), and lets the renderer drop the
    /// tiles of the one it held. Paging on, that page is not shown again; paging back, it shows
    /// the reduction until its screen-size picture is decoded again. Of the three pictures
    /// kept, this one takes 256 KiB instead of 4 MiB at 1920×1080.
    func reducePageBehind() {
        let behind = currentSlot - pageDirection
        let (first, last) = slotsOnScreen
        guard !(first...max(first, last)).contains(behind), let page = pages[behind] else { return }
        // Not the file of the page ahead (two files wrapping: both neighbours are the other
        // one), counted from where a wrap's copy settles.
        let ahead = (slots.restingSlot(for: currentSlot) ?? currentSlot) + pageDirection
        if (0..<slots.count).contains(ahead), slots.file(atSlot: ahead) == page.index { return }
        // A wrap's copy shows the picture of a page of the same file: reducing it frees nothing.
        let picture = page.pictureView.picture
        guard !pages.values.contains(where: { $0 !== page && $0.pictureView.picture === picture }),
              page.keepReducedDetail() else { return }
        renderer.forgetTiles(of: page.pictureView)
        releasedSinceRest = true
    }

    /// A page of the same file as `page` showing its screen-size picture whole (a wrap's
    /// copy), whose picture `page` can show instead of decoding it again.
    func wholeTwin(of page: PageView) -> PageView? {
        pages.values.first { $0 !== page && $0.index == page.index && $0.filePage == 0 && page.filePage == 0
            && $0.loadState == .loaded && !$0.isReduced }
    }


    /// Removes a page, cancelling its load, and lets its picture go now: the page ahead, made
    /// in the same step, starts decoding at once, and the picture behind would otherwise live
    /// on in the renderer's tiles until the next frame.
    func drop(_ page: PageView) {
        releasedSinceRest = true
        if let token = page.loadToken { endLoad(token) }
        page.loadTask?.cancel()
        page.removeFromSuperview()
        page.pictureView.show(nil)
        renderer.forgetTiles(of: page.pictureView)
    }

    /// Starts the loads pages need (see `PageView.wantedLoad`): the current page first (the
    /// loader runs them in order), then its neighbours at screen size.
    ///
    /// Until the first picture shows, two things differ. Loads are sized for the largest screen
    /// (`screenSize`) as well as for the window: a tiling compositor maps a window at the size
    /// it chose itself (800×600 here) and only then gives it its tile, and a picture sized for
    /// the placeholder was decoded twice, the second time after the window had its size. And
    /// the neighbours wait (when loads run in the background): on two cores their decodes
    /// took one from the first frame's tiles.
    func startLoads() {
        let current = currentSlot
        let order = pages.keys.sorted { abs($0 - current) < abs($1 - current) }
        var screen = (width: Int((windowSize.width * outputScale).rounded(.up)),
                      height: Int((windowSize.height * outputScale).rounded(.up)))
        if !hasRenderedContent, let largest = screenSize?() {
            screen = (max(screen.width, largest.width), max(screen.height, largest.height))
        }
        neighboursWait = false
        reducePageBehind()
        let (first, last) = slotsOnScreen
        // While a slide shows two pages, a page off screen waits for it to end: it loads the
        // moment the page behind leaves the screen and is reduced, not while that page still
        // holds its screen-size picture (a third at once, 4 MiB more at 1920×1080).
        let sliding = last > first
        for slot in order {
            guard let page = pages[slot] else { continue }
            let onScreen = slot >= first && slot <= last
            if !onScreen, sliding || (page.isReduced && slot == current - pageDirection) { continue }
            if page.isReduced, let twin = wholeTwin(of: page) {
                page.show(as: twin)
                continue
            }
            guard let detail = page.wantedLoad(isCurrent: slot == current) else { continue }
            if slot != current, !hasRenderedContent, options.loading == .background {
                neighboursWait = true
                continue
            }
            let token = nextToken
            nextToken += 1
            loadsInFlight[token] = page
            let preview = page.pictureView.picture == nil
            page.beginLoad(token: token, task: nil, detail: detail)
            loadsStarted += 1
            let task = loader.load(path: page.path, page: page.filePage, token: token, detail: detail, preview: preview,
                                   screen: screen)
            if page.loadToken == token { page.loadTask = task }
        }
    }

    /// Applies the load events waiting in the mailbox to their pages.
    func deliverLoadEvents() {
        let deliveries = loader.mailbox.drain()
        guard !deliveries.isEmpty else { return }
        for delivery in deliveries {
            guard let page = loadsInFlight[delivery.token], page.loadToken == delivery.token else { continue }
            if case .loaded(let picture) = delivery.event, rendersVectorAtFit(picture, on: page, token: delivery.token) {
                continue
            }
            switch delivery.event {
            case .loaded:
                endLoad(delivery.token)
                // Another rendition replaces the one shown (a preview, a screen-size picture).
                if page.pictureView.picture != nil { releasedSinceRest = true }
            case .failed: endLoad(delivery.token)
            default: break
            }
            let before = page.imageSize
            if let failure = page.apply(delivery.event) {
                // A re-made page starts at the file's first page: only its failure is kept.
                if page.filePage == 0 { failures[page.path] = failure }
                if reported[page.path, default: []].insert(page.filePage).inserted { onLoadFailure?(failure) }
            }
            if case .loaded(let picture) = delivery.event, let damage = picture.damage,
               reported[page.path, default: []].insert(page.filePage).inserted {
                onLoadDamage?(damage)
            }
            if page.imageSize != before || (page.failure != nil && knownSizes[page.path] != .zero) {
                reportLayout(of: page)
            }
            if case .header = delivery.event { reserveFirstTiles(for: page) }
        }
        // A page behind that was loading (the first neighbours, a page left while it loaded).
        reducePageBehind()
    }

    /// Forgets load `token`: its last event came, or its page went.
    func endLoad(_ token: UInt64) {
        loadsInFlight[token] = nil
        vectorRendersAsked.remove(token)
    }

    /// Sends a vector drawing that arrived without a render at the scale its page shows it at
    /// back to the loader's queue to be rendered there, once per load, and says so; it arrives
    /// again rendered. The loader renders a drawing ahead at its fit on the screen the load was
    /// sized for, which is not the window's until the first picture shows (`startLoads`), nor
    /// with `--upscale`; without this the first frame showing it rendered it, 20–30 ms for a
    /// 6000×4000 drawing fitted to 1080p. Not for a page zoomed in, turned or without a size,
    /// nor for loads that finish before they return (offscreen runs: nothing waits on a
    /// frame there, and their frames stay the same): those draw as before.
    func rendersVectorAtFit(_ picture: Picture, on page: PageView, token: UInt64) -> Bool {
        guard picture.isVector, loader.mode == .background, !vectorRendersAsked.contains(token), page.bounds.width > 0, page.bounds.height > 0,
              page.pictureView.orientation == .up, !page.isZoomedIn, !page.isZooming, page.imageSize != nil else { return false }
        // The scale the renderer asks the drawing's tiles for: the output's times the zoom's
        // (the pager and the page are not scaled).
        let scale = Double(page.outputScale) * Double(page.zoomScale)
        guard scale > 0, scale.isFinite, !picture.isRenderedWhole(scale: scale) else { return false }
        vectorRendersAsked.insert(token)
        loader.render(picture, scale: scale, token: token)
        return true
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
}
