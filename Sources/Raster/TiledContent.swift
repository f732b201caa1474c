// What a content view adopts to be drawn in tiles: draw any pixel rectangle at any scale.
import Foundation
import ScrollKit

/// A view whose content the renderer cuts into tiles and caches (an image, a document page).
///
/// Pixel coordinates are those of the whole content drawn at `scale` device pixels per point,
/// with (0, 0) at the point (0, 0) of the view's bounds coordinate space: pixel (x, y) covers
/// the points `[x / scale, (x + 1) / scale) × [y / scale, (y + 1) / scale)`. The renderer only
/// asks for rectangles that intersect the view's bounds scaled the same way, and shows only
/// the part inside the bounds.
///
/// Views that do not adopt this protocol draw their `backgroundColor` only.
public protocol TiledContent: View {
    /// Draws the content pixels `rect` at `scale` (device pixels per point, > 0) into `target`,
    /// whose pixel (0, 0) is `rect`'s top-left and which is `rect`'s size. `target` starts
    /// transparent (0); write premultiplied ARGB8888.
    ///
    /// The result must depend only on the pixel coordinates and the scale, not on how the
    /// content is cut into rectangles: tiles are drawn separately and put side by side.
    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer)

    /// True when every pixel drawn inside the bounds is opaque, so the renderer may skip
    /// whatever lies underneath.
    var isOpaqueContent: Bool { get }

    /// True when `draw` may run on several threads at once for different rectangles (it
    /// only reads immutable state); the renderer then draws missing tiles on both cores.
    var drawsConcurrently: Bool { get }

    /// True when `draw` is as cheap at any scale as at a power-of-two level's and sharper there
    /// (vector drawings): settled tiles are then drawn at their own scale, never resampled from
    /// the nearest level's (a drawing fitted at 0.2 was shown shrunk from its 0.25 level).
    var drawsAtAnyScale: Bool { get }

    /// While the content is a quick rendition of itself whose pixels are exactly those of a
    /// power-of-two level (a vector drawing's preview), that level: settled frames paint it
    /// enlarged from its stored pixels (`storedPixels` at the level's scale) instead of drawing
    /// tiles at the scale shown from it, which cost as much as the drawing it stands in for.
    /// Nil (the default): the level the scale settles on.
    var provisionalLevel: Int? { get }

    /// The content as it is now, as a drawing any thread may run while the view itself goes
    /// on changing (it holds the immutable data `draw` reads, not the view): the renderer draws
    /// tiles ahead of need with it on a background thread between frames. Its pixels must be
    /// those `draw` gives until the view calls `setNeedsDisplay`. Nil keeps all drawing on the
    /// renderer's thread.
    func concurrentDrawing() -> TileDrawing?

    /// After the content was replaced by a finer rendition of itself (a full picture after
    /// its preview), the scale (device pixels per point) up to which its pixels stayed the
    /// same, returned once and then forgotten; nil when nothing was refined. The renderer
    /// keeps showing the tiles it drew before and redraws those above that scale a few per
    /// frame. Ask for the frame with `setNeedsComposite`; any other change of the content
    /// calls `setNeedsDisplay` instead.
    func takeRefinement() -> Double?

    /// The content's own pixels at `scale` (device pixels per point), when it keeps them stored
    /// exactly as `draw` would draw them at that scale: tiles at `scale` then show these pixels
    /// instead of a copy of them. Nil for content that draws its tiles (the default).
    func storedPixels(scale: Double) -> StoredPixels?
}

extension TiledContent {
    /// Content is assumed translucent unless it says otherwise.
    public var isOpaqueContent: Bool { false }
    /// Drawing stays on the calling thread unless the content says otherwise.
    public var drawsConcurrently: Bool { false }
    /// Settled tiles come from power-of-two levels unless the content says otherwise.
    public var drawsAtAnyScale: Bool { false }
    /// Content is drawn from the level its scale settles on unless it says otherwise.
    public var provisionalLevel: Int? { nil }
    /// No background drawing unless the content offers it.
    public func concurrentDrawing() -> TileDrawing? { nil }
    /// Content is never refined unless it says so.
    public func takeRefinement() -> Double? { nil }
    /// Tiles are drawn unless the content says it keeps their pixels.
    public func storedPixels(scale: Double) -> StoredPixels? { nil }
}

/// Pixels tiled content keeps at one scale, which the renderer's tiles at that scale show
/// without copying them: a picture whose decoded level is exactly the one a tile draws from
/// (the gallery's screen-size pictures at their level, a full picture's levels at 1:1) had
/// every one of its pixels twice in memory, once decoded and once in the tiles.
public struct StoredPixels: Sendable {
    /// The whole content at the scale, premultiplied ARGB, content pixel (0, 0) at the
    /// framebuffer's (0, 0); never written while `owner` lives.
    public let framebuffer: Framebuffer
    /// What keeps the memory alive: every tile that shows these pixels holds it.
    public let owner: any AnyObject & Sendable

    /// Wraps `framebuffer`, whose memory `owner` keeps and never changes.
    public init(framebuffer: Framebuffer, owner: any AnyObject & Sendable) {
        self.framebuffer = framebuffer
        self.owner = owner
    }
}

/// A snapshot of tiled content that draws on any thread: the same contract as
/// `TiledContent.draw` (content pixels `rect` at `scale` into a target of `rect`'s size that
/// starts transparent).
public struct TileDrawing: Sendable {
    /// Draws content pixels `rect` at `scale` into the target.
    public let draw: @Sendable (_ rect: PixelRect, _ scale: Double, _ target: Framebuffer) -> Void
    /// The snapshot's stored pixels at a scale, as `TiledContent.storedPixels` says.
    public let storedPixels: @Sendable (_ scale: Double) -> StoredPixels?

    /// Wraps a drawing function, and the stored pixels it draws from when it has them.
    public init(_ draw: @escaping @Sendable (_ rect: PixelRect, _ scale: Double, _ target: Framebuffer) -> Void,
                storedPixels: @escaping @Sendable (_ scale: Double) -> StoredPixels? = { _ in nil }) {
        self.draw = draw
        self.storedPixels = storedPixels
    }
}
