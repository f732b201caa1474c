// The gallery's side of what pictures need beyond their pixels: pages set up with the
// background and fit policy, the current page's animation played while the window shows and
// nothing pauses it, the pause key, and turning the pages of a multi-page file.
import Foundation
import Host
import Pictures
import Raster
import ScrollKit

extension FrameRequest {
    /// The more urgent of this request and `other`: a next frame before any time, the earlier
    /// of two times, idle only when both are.
    func sooner(_ other: FrameRequest) -> FrameRequest {
        switch (self, other) {
        case (.nextFrame, _), (_, .nextFrame): .nextFrame
        case (.idle, _): other
        case (_, .idle): self
        case (.at(let a), .at(let b)): .at(min(a, b))
        }
    }
}

extension GalleryScene {
    /// Gives a new page the gallery's background, fit policy and way of decoding animations.
    func configure(_ page: PageView) {
        page.background = options.background
        page.upscalesToFit = options.upscalesToFit
        switch options.loading {
        case .background:
            // The mailbox holds the host's current wake (it may be set after the page is made).
            let mailbox = loader.mailbox
            page.animationDecoding = .background(wake: { mailbox.onPost?() })
        case .waitForEach: page.animationDecoding = .inline
        }
    }

    /// Whether the page in slot `slot` plays its animation now: it is the current page, the
    /// window shows and animations are not paused. Other pages (a wrap's copy of the current
    /// file too) keep their frame and decode nothing.
    func playsAnimation(atSlot slot: Int) -> Bool {
        slot == currentSlot && isWindowVisible && !animationsPaused
    }

    /// Advances the pages' animations to `now`; returns when the next frame is due.
    func advanceAnimations() -> FrameRequest {
        var request = FrameRequest.idle
        for (slot, page) in pages where page.animation != nil {
            request = request.sooner(page.advanceAnimation(to: now, playing: playsAnimation(atSlot: slot),
                                                           hostWakes: onNeedsFrameFromAnyThread != nil))
        }
        return request
    }

    /// S, F4: stops animations where they are at `time` (ms; the key's), or plays them on from
    /// there.
    public func toggleAnimationPause(at time: Double) {
        if time.isFinite { now = max(now, time) }
        animationsPaused.toggle()
        // Each animation keeps what was left of its frame's delay at the key.
        _ = advanceAnimations()
        // The next `advance` stops or restarts the timers.
        onNeedsFrame?()
    }

    /// `,` and `.`: the previous or next page of the current file, if it has several.
    func turnFilePage(by step: Int) {
        guard let page = currentPage, page.turnFilePage(to: page.filePage + step) else { return }
        updatePages()
        onNeedsFrame?()
    }
}
