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

    /// Creates an empty view; `show(_:)` gives it pixels.
    public init() {
        super.init(frame: .zero)
    }

    /// Shows `picture` (a preview or the full image) and drops the cached tiles of the old one.
    public func show(_ picture: Picture?) {
        guard picture !== self.picture else { return }
        self.picture = picture
        setNeedsDisplay()
    }

    /// Draws content pixels `rect` of the picture at `scale` device pixels per image pixel.
    public func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        guard let picture, scale > 0, scale.isFinite, picture.fullWidth > 0 else { return }
        // A preview has fewer pixels for the same extent: draw it at the scale that makes it
        // cover the full image's bounds.
        let ratio = Double(picture.width) / Double(picture.fullWidth)
        picture.drawTile(rect, scale: scale * ratio, into: target)
    }

    /// Opaque when the full picture has no transparent pixel: the renderer then skips what is
    /// below. A stretched preview may leave a rounding sliver at its far edges, so it is not.
    public var isOpaqueContent: Bool { picture.map { $0.isOpaque && !$0.isPreview } ?? false }

    /// `Picture` is immutable and shareable across threads.
    public var drawsConcurrently: Bool { true }
}
