// What a page shows besides its picture's pixels: the backdrop under transparent pictures, the
// banner of a damaged file or a multi-page one ("truncated: 47% of the picture", "page 2/5"),
// the pages of such a file, and an animation's frames as they become due.
import Foundation
import Host
import Pictures
import Raster
import ScrollKit

/// The banner's look: a Label on a rounded plate at the top of the page, placed in the page as
/// the error card is (it stays put while the picture zooms and pans), in the overlays' style.
enum PageBanner {
    /// The overlays' name font: the error card's message size, bolder to read over any picture.
    static let font = OverlayStyle.nameFont
    /// 6 pt above and below the text, 12 pt beside it (decision: a compact plate).
    static let insets = EdgeInsets(top: 6, left: 12, bottom: 6, right: 12)
    /// The overlays' margin from the page's top and sides: clear of the 3 pt progress bar.
    static let margin = OverlayStyle.margin
    /// Three lines at most: a long decoder message wraps, then ends in "…" (decision).
    static let maximumLines = 3
    /// The plate for a page number alone: the overlays' dark translucent plate.
    static let plate = RoundedBackground(color: OverlayStyle.plate, cornerRadius: OverlayStyle.cornerRadius)
    /// The plate when something went wrong: the error card's panel and its muted red border.
    static let problemPlate = RoundedBackground(color: Color(rgb: 0x2C2C30, alpha: 0.9), cornerRadius: OverlayStyle.cornerRadius,
                                                borderColor: Color(rgb: 0xB03A3A), borderWidth: 2)
}

extension PageView {
    // MARK: Pictures and backdrop

    /// Shows `picture` (nil: nothing) with the backdrop under it when it may be transparent.
    func show(picture: Picture?) {
        pictureView.show(picture)
        updatePictureVisibility()
        updateBackdrop()
    }

    /// The picture's view is shown only while it has pixels and no error card stands in its
    /// place. Shown empty (a header has laid the page out, nothing is decoded yet), the renderer
    /// made a screen of blank tiles for it: 55 at 1920×1080, 36 ms of the first frame here.
    func updatePictureVisibility() {
        pictureView.isHidden = pictureView.picture == nil || card != nil
    }

    /// Puts the background's view under a picture that may have transparent pixels and takes it
    /// away otherwise; `replacing` makes a new one (the background changed).
    func updateBackdrop(replacing: Bool = false) {
        guard let background, let picture = pictureView.picture, !picture.isOpaque else {
            backdropView = nil
            return
        }
        if replacing || backdropView == nil { backdropView = background.makeView() }
    }

    // MARK: Banner

    /// What the banner says: the page of a multi-page file, then the damage; nil for nothing.
    var bannerText: String? {
        var parts: [String] = []
        if filePageCount > 1 { parts.append("page \(filePage + 1)/\(filePageCount)") }
        if let damage { parts.append(damage.description) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// Shows, changes or removes the banner for the page's state.
    func updateBanner() {
        guard let text = bannerText else {
            banner?.removeFromSuperview()
            banner = nil
            layoutOverlays()
            return
        }
        let label: Label
        if let banner {
            label = banner
        } else {
            label = Label()
            label.font = PageBanner.font
            label.textColor = .white
            label.textAlignment = .center
            label.numberOfLines = PageBanner.maximumLines
            label.lineBreakMode = .byTruncatingTail
            label.textInsets = PageBanner.insets
            label.isUserInteractionEnabled = false
            addSubview(label)
            banner = label
        }
        label.text = text
        label.roundedBackground = damage == nil ? PageBanner.plate : PageBanner.problemPlate
        layoutOverlays()
    }

    /// Places the banner at the top of the page, centred, wherever the content has scrolled.
    func layoutBanner() {
        guard let banner else { return }
        let room = max(bounds.width - 2 * PageBanner.margin, 1)
        let size = banner.sizeThatFits(CGSize(width: room, height: 0))
        banner.frame = CGRect(x: bounds.origin.x + ((bounds.width - size.width) / 2).rounded(),
                              y: bounds.origin.y + PageBanner.margin, width: min(size.width, room), height: size.height)
    }

    /// Applies a picture that arrived loaded: its damage, if any, goes on the banner.
    func noteLoaded(_ picture: Picture) {
        damage = picture.damage
        updateBanner()
    }

    // MARK: Pages of the file

    /// Turns to page `page` of the file (clamped to its pages); returns whether it changed. The
    /// page then waits for the scene to load it, blank meanwhile.
    func turnFilePage(to page: Int) -> Bool {
        let target = min(max(page, 0), filePageCount - 1)
        guard target != filePage else { return false }
        loadTask?.cancel()
        loadTask = nil
        loadToken = nil
        filePage = target
        resetForLoad()
        return true
    }

    /// Forgets the shown page's picture, animation, damage and card, for another load.
    private func resetForLoad() {
        animation = nil
        damage = nil
        card?.removeFromSuperview()
        card = nil
        failure = nil
        isZoomEnabled = true
        show(picture: nil)
        reopen()
        updateBanner()
    }

    // MARK: Animation

    /// Plays the animation of the picture about to load (`loaded` brings its first frame).
    func startAnimation(_ decoder: AnimationDecoder, firstDelayMs: Int) {
        animation = AnimationPlayer(decoder: decoder, firstDelayMs: firstDelayMs, decoding: animationDecoding)
    }

    /// Advances the animation to `time` (ms) while `playing`, showing a frame that became due,
    /// and says when the page wants to be ticked again for it (`hostWakes`: the host is woken
    /// when a late frame arrives, see `AnimationPlayer.request`).
    func advanceAnimation(to time: Double, playing: Bool, hostWakes: Bool) -> FrameRequest {
        guard let animation else { return .idle }
        if let frame = animation.advance(to: time, playing: playing) {
            // Each frame is a picture of its own, not a refinement of the last (same size,
            // other pixels): the view redraws its tiles from it.
            pictureView.replaceContent()
            show(picture: frame.picture)
            if let damaged = frame.picture.damage, damaged != damage {
                damage = damaged
                updateBanner()
            }
        }
        if let failure = animation.failure, damage == nil {
            damage = PictureDamage(error: failure, decodedFraction: nil)
            updateBanner()
        }
        return animation.request(at: time, playing: playing, hostWakes: hostWakes)
    }
}
