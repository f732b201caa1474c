// A picture as tiled content: bounds in full-resolution image pixels, drawn from whatever is
// decoded so far (the preview, then the full image), only the tiles the renderer asks for,
// turned and flipped as the user asked.
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
    /// The user's turn or flip, on top of the file's EXIF orientation (which the picture
    /// applies itself): the view's bounds are the picture's size in this orientation, and
    /// tiles are drawn turned. Changing it redraws every tile.
    public var orientation: Orientation = .up {
        didSet {
            guard orientation != oldValue else { return }
            refinement = nil
            setNeedsDisplay()
        }
    }

    /// Creates an empty view; `show(_:)` gives it pixels.
    public init() {
        super.init(frame: .zero)
    }

    /// Shows `picture` and drops the cached tiles of the old one; nil shows nothing and forgets
    /// the preview. Another rendition of the file shown (a preview and its full image, a
    /// reduction kept within the memory budget, a view scrolled away going back to its
    /// screen-size reduction) is a refinement: both draw the same pixels up to the coarser
    /// one's scale, so those tiles stay, and the others are redrawn a few per frame while the
    /// old ones go on showing. The coarsest reduction shown is kept as `preview`.
    public func show(_ picture: Picture?) {
        guard picture !== self.picture else { return }
        let old = self.picture
        self.picture = picture
        // A drawing after its quick rendition is not a refinement either: its tiles are windows
        // onto the render the loader made ahead (`PictureLoader`), all taken in the next frame,
        // where a refinement sharpens a few per frame (9 frames at 1080p, whose draw-ahead made
        // a third 8 MB buffer).
        let afterQuickRendition = picture?.isVector == true && old?.provisionalLevel != nil
        let sameFile = !replacing && !afterQuickRendition && old.map { old in
            picture.map { $0.fullWidth == old.fullWidth && $0.fullHeight == old.fullHeight && $0.fullWidth > 0 } ?? false
        } ?? false
        replacing = false
        guard let picture, let old, sameFile else {
            preview = picture.flatMap { $0.isPreview ? $0 : nil }
            refinement = nil
            setNeedsDisplay()
            return
        }
        if picture.isPreview, picture.width < preview?.width ?? .max { preview = picture }
        // `source(forScale:)` draws from the preview up to its own scale, and every rendition
        // halves the same decoded rows: up to the coarser picture's scale nothing changes.
        let kept = Double(min(old.width, picture.width)) / Double(picture.fullWidth)
        refinement = min(refinement ?? kept, kept)
        setNeedsComposite()
    }

    /// Forgets the preview kept beside a finer picture: a gallery page whose reduced picture
    /// (`PageView.keepReducedDetail`) gave way to its screen-size one again keeps no copy of
    /// it beside that (a view fitted to the window never draws below the screen-size scale).
    public func forgetPreview() {
        guard let preview, preview !== picture else { return }
        self.preview = nil
    }

    /// Set by `replaceContent`: the next picture is new content, not another rendition.
    private var replacing = false

    /// The file was rewritten: the next picture shown replaces every tile, whatever its size
    /// (until then the old one stays).
    public func replaceContent() { replacing = true }

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
        Self.draw(picture: picture, preview: preview, orientation: orientation, rect, scale: scale, into: target)
    }

    /// The pictures shown now, which are immutable: the renderer may draw tiles of them ahead
    /// of need on another thread while this view moves on to other pictures.
    public func concurrentDrawing() -> TileDrawing? {
        guard picture != nil else { return nil }
        let (picture, preview, orientation) = (picture, preview, orientation)
        return TileDrawing({ rect, scale, target in
            PictureView.draw(picture: picture, preview: preview, orientation: orientation, rect, scale: scale, into: target)
        }, storedPixels: { scale in
            PictureView.storedPixels(picture: picture, preview: preview, orientation: orientation, scale: scale)
        })
    }

    /// The decoded pixels tiles at `scale` show as they are (no copy in the tile cache): those
    /// of the picture `draw` reads at `scale` when it reads them 1:1 (the gallery's screen-size
    /// picture at its level, a full picture's levels at their own scales) and the user has
    /// not turned it.
    public func storedPixels(scale: Double) -> StoredPixels? {
        Self.storedPixels(picture: picture, preview: preview, orientation: orientation, scale: scale)
    }

    private static func storedPixels(picture: Picture?, preview: Picture?, orientation: Orientation,
                                     scale: Double) -> StoredPixels? {
        guard orientation == .up, scale > 0, scale.isFinite,
              let source = source(picture: picture, preview: preview, scale: scale), source.fullWidth > 0 else { return nil }
        return source.storedPixels(scale: scale / (Double(source.width) / Double(source.fullWidth)))
    }

    /// Draws `rect` of the picture turned by `orientation`: the upright tile that covers the
    /// same pixels is drawn into a scratch buffer and its pixels moved into place. The turned
    /// grid is the upright one at this scale (its extent rounded up to whole device pixels)
    /// turned, so a tile's pixels are exactly those of one upright tile: nothing is resampled
    /// twice. (The picture's own drawing applies only the file's orientation, mapped as it
    /// reads stored pixels; this keeps every kind of picture turnable the same way.)
    private static func draw(picture: Picture?, preview: Picture?, orientation: Orientation, _ rect: PixelRect,
                             scale: Double, into target: Framebuffer) {
        guard orientation != .up else {
            draw(picture: picture, preview: preview, rect, scale: scale, into: target)
            return
        }
        guard let full = picture, scale > 0, scale.isFinite, rect.width > 0, rect.height > 0 else { return }
        let extent = (width: Int((Double(full.fullWidth) * scale).rounded(.up)),
                      height: Int((Double(full.fullHeight) * scale).rounded(.up)))
        let map = orientation.storedMapping(storedWidth: extent.width, storedHeight: extent.height)
        let a = map.stored(rect.x, rect.y), b = map.stored(rect.x + rect.width - 1, rect.y + rect.height - 1)
        let upright = PixelRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
        guard let scratch = OwnedFramebuffer(width: upright.width, height: upright.height) else { return }
        draw(picture: picture, preview: preview, upright, scale: scale, into: scratch.framebuffer)
        let source = scratch.framebuffer
        for dy in 0..<min(rect.height, target.height) {
            for dx in 0..<min(rect.width, target.width) {
                let p = map.stored(rect.x + dx, rect.y + dy)
                target[dx, dy] = source[p.x - upright.x, p.y - upright.y]
            }
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

    /// An SVG is rendered at the scale it is shown, so it stays as sharp as its shapes.
    public var drawsAtAnyScale: Bool { picture?.isVector == true }

    /// An SVG's quick rendition, shown until the drawing arrives, is painted from its own level
    /// (`Picture.provisionalLevel`); not while the user has it turned (its pixels are then not
    /// stored as tiles show them).
    public var provisionalLevel: Int? { orientation == .up ? picture?.provisionalLevel : nil }
}
