// A picture as tiled content: bounds in full-resolution image pixels, drawn from whatever is
// decoded so far (the preview, then the full image), only the tiles the renderer asks for.
import Foundation
import Pictures
import Raster
import ScrollKit

/// Shows one `Picture`. Its bounds measure the full image in image pixels (one point per
/// pixel), so a zoom scale of 1 / output scale is 1:1; a preview is stretched to the same
/// bounds until the full picture replaces it.
public final class PictureView: View, TiledContent {
    /// The decoded pixels shown: nil before anything is decoded (the view is then transparent).
    public private(set) var picture: Picture?
    /// The preview, kept after the full picture arrives: scales its pixels cover (a fit view
    /// of a huge photo) draw from it, not from every pixel of the full picture, which took
    /// 0.6–1.8 s per screen for 100 megapixels. Previews are DCT-scaled (averaged), so the
    /// result is as smooth as averaging the full picture.
    public private(set) var preview: Picture?

    /// Creates an empty view; `show(_:)` gives it pixels.
    public init() {
        super.init(frame: .zero)
    }

    /// Shows `picture` (a preview or the full image of the same file, which keeps the preview)
    /// and drops the cached tiles of the old one; nil shows nothing and forgets the preview.
    /// The full image after its preview is a refinement: tiles at scales the preview still
    /// draws stay, the others are redrawn a few per frame while the old ones go on showing.
    public func show(_ picture: Picture?) {
        guard picture !== self.picture else { return }
        let old = self.picture
        if let picture, picture.isPreview {
            preview = picture
        } else if picture == nil {
            preview = nil
        }
        self.picture = picture
        if let old, old.isPreview, old === preview, let picture, !picture.isPreview,
           picture.fullWidth == old.fullWidth, picture.fullHeight == old.fullHeight, old.fullWidth > 0 {
            // `source(forScale:)` keeps drawing from the preview up to its own scale.
            let kept = Double(old.width) / Double(old.fullWidth)
            refinement = min(refinement ?? kept, kept)
            setNeedsComposite()
        } else {
            refinement = nil
            setNeedsDisplay()
        }
    }

    /// The scale up to which the last refinement left the pixels unchanged, until the
    /// renderer takes it.
    private var refinement: Double?

    /// Once after the full picture replaced its preview: the preview's scale, up to which
    /// tiles are unchanged (see `TiledContent.takeRefinement`).
    public func takeRefinement() -> Double? {
        defer { refinement = nil }
        return refinement
    }

    /// The picture to draw at `scale` device pixels per full-image pixel: the preview when
    /// it has at least that many pixels per image pixel, else what is shown.
    public func source(forScale scale: Double) -> Picture? {
        Self.source(picture: picture, preview: preview, scale: scale)
    }

    private static func source(picture: Picture?, preview: Picture?, scale: Double) -> Picture? {
        if let preview, preview.fullWidth > 0, scale <= Double(preview.width) / Double(preview.fullWidth) {
            return preview
        }
        return picture
    }

    /// Draws content pixels `rect` of the picture at `scale` device pixels per image pixel.
    public func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        Self.draw(picture: picture, preview: preview, rect, scale: scale, into: target)
    }

    /// The pictures shown now, which are immutable: the renderer may draw tiles of them ahead
    /// of need on another thread while this view moves on to other pictures.
    public func concurrentDrawing() -> TileDrawing? {
        guard picture != nil else { return nil }
        let (picture, preview) = (picture, preview)
        return TileDrawing { rect, scale, target in
            PictureView.draw(picture: picture, preview: preview, rect, scale: scale, into: target)
        }
    }

    private static func draw(picture: Picture?, preview: Picture?, _ rect: PixelRect, scale: Double, into target: Framebuffer) {
        guard scale > 0, scale.isFinite, let source = source(picture: picture, preview: preview, scale: scale),
              source.fullWidth > 0 else { return }
        // A preview has fewer pixels for the same extent: `ratio` of its pixels per image
        // pixel, so `scale / ratio` device pixels per preview pixel cover the same bounds.
        let ratio = Double(source.width) / Double(source.fullWidth)
        source.drawTile(rect, scale: scale / ratio, into: target)
    }

    /// Opaque when the full picture has no transparent pixel: the renderer then skips what is
    /// below. A stretched preview may leave a rounding sliver at its far edges, so it is not.
    public var isOpaqueContent: Bool { picture.map { $0.isOpaque && !$0.isPreview } ?? false }

    /// `Picture` is immutable and shareable across threads.
    public var drawsConcurrently: Bool { true }
}
