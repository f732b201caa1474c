// A decoded image that draws any part of itself, at any scale, in display orientation.
import Raster

/// A decoded picture, immutable and shareable across threads.
///
/// Pixels stay in the file's stored orientation (and, for huge JPEGs, as YCbCr planes);
/// orientation and colour conversion happen as tiles are drawn, so no second full-size
/// copy is ever made. Coordinates and sizes are in displayed (upright) pixels.
public final class Picture: Sendable {
    /// Displayed width of these pixels, after EXIF orientation.
    public let width: Int
    /// Displayed height of these pixels, after EXIF orientation.
    public let height: Int
    /// Displayed width of the full image; larger than `width` for a preview.
    public let fullWidth: Int
    /// Displayed height of the full image; larger than `height` for a preview.
    public let fullHeight: Int
    /// The orientation applied when drawing.
    public let orientation: Orientation
    /// The format the pixels were decoded from.
    public let format: ImageFormat
    /// True when every pixel has alpha 255.
    public let isOpaque: Bool
    /// The page of the file these pixels show (0 for single-page formats).
    public let page: Int
    /// Set when only part of the file decoded: the problem and the share that did. The
    /// missing part is transparent. Only decodes that accept damage return such pictures.
    public let damage: PictureDamage?
    let storage: PixelStorage
    private let mapping: StoredMapping

    init(storage: PixelStorage, header: PictureHeader, isOpaque: Bool, damage: PictureDamage? = nil) {
        self.storage = storage
        orientation = header.orientation
        format = header.format
        page = header.page
        self.damage = damage
        self.isOpaque = isOpaque && damage == nil
        let size = header.orientation.displaySize(storedWidth: storage.width, storedHeight: storage.height)
        width = size.width
        height = size.height
        fullWidth = header.width
        fullHeight = header.height
        mapping = header.orientation.storedMapping(storedWidth: storage.width, storedHeight: storage.height)
    }

    /// A reduction of `picture` sharing its pixels: `storage` holds a coarser level of them.
    private init(reducing picture: Picture, to storage: PixelStorage) {
        self.storage = storage
        orientation = picture.orientation
        format = picture.format
        page = picture.page
        damage = picture.damage
        isOpaque = picture.isOpaque
        let size = orientation.displaySize(storedWidth: storage.width, storedHeight: storage.height)
        width = size.width
        height = size.height
        fullWidth = picture.fullWidth
        fullHeight = picture.fullHeight
        mapping = orientation.storedMapping(storedWidth: storage.width, storedHeight: storage.height)
    }

    /// True for a reduced preview rather than the full-resolution image.
    public var isPreview: Bool { width != fullWidth || height != fullHeight }

    /// The coarsest level this picture keeps, the one a view of the whole picture draws from,
    /// as a picture of its own that shares the pixels (no copy): what a gallery keeps of a
    /// picture scrolled away. Nil when the picture has no coarser level.
    public var screenReduction: Picture? {
        guard case .pyramid(let pyramid) = storage, let coarsest = pyramid.coarsest else { return nil }
        return Picture(reducing: self, to: .pyramid(coarsest))
    }

    /// This picture at half its size, on its own pixels (a quarter of the memory); twice, what
    /// a gallery keeps of a page behind the way it goes, shown while its screen-size picture is
    /// decoded again should the page come back. Nil for pictures kept in other ways (planes,
    /// shapes, levels in a file) and when memory is refused.
    public func halved() -> Picture? {
        let halved: PixelPyramid?
        switch storage {
        case .argb(let pixels):
            halved = PixelPyramid.halving(pixels, level: 0, orientation: orientation)
        case .pyramid(let pyramid):
            guard case .memory(let pixels) = pyramid.top else { return nil }
            halved = PixelPyramid.halving(pixels, level: pyramid.first, orientation: pyramid.orientation)
        case .planar, .vector:
            halved = nil
        }
        return halved.map { Picture(reducing: self, to: .pyramid($0)) }
    }

    /// True when pixels are kept as YCbCr planes and converted while drawing.
    public var isPlanar: Bool {
        if case .planar = storage { return true }
        return false
    }

    /// True for a vector picture (SVG), which every `drawTile` renders afresh at the scale
    /// asked, so it stays sharp at any zoom; its width and height are its nominal size.
    public var isVector: Bool {
        if case .vector = storage { return true }
        return false
    }

    /// For a vector drawing's quick rendition (`PictureLoader` sends one before the drawing
    /// when its fit is large), the zoom level it is exactly (device pixels per pixel 2^level):
    /// the renderer paints it enlarged from there instead of drawing tiles at the scale shown
    /// from it. Nil for every other picture.
    public var provisionalLevel: Int? {
        guard format == .svg, !isVector, isPreview, fullWidth > 0, fullHeight > 0, width > 0 else { return nil }
        let level = Int((Double(width) / Double(fullWidth)).exponent)
        let scale = Double(sign: .plus, exponent: level, significand: 1)
        guard Double(fullWidth) * scale == Double(width), Double(fullHeight) * scale == Double(height) else { return nil }
        return level
    }

    /// Renders a vector picture whole at `scale` now, on the caller's thread, for the tiles at
    /// that scale to show later (`storedPixels`) without waiting for librsvg; nothing for other
    /// pictures.
    func renderAhead(scale: Double) {
        if case .vector(let document) = storage { _ = document.storedPixels(scale: scale) }
    }

    /// Whether a vector picture is kept rendered whole at exactly `scale` (`renderAhead`), so
    /// that tiles at that scale show without waiting for librsvg. False for other pictures.
    public func isRenderedWhole(scale: Double) -> Bool {
        guard case .vector(let document) = storage else { return false }
        return document.renderedScales.contains(scale)
    }

    /// Memory held by the pixels, in bytes.
    public var byteCount: Int { storage.byteCount }

    /// Size of the picture drawn at `scale`, in pixels (rounded down, at least 1×1).
    public func scaledSize(_ scale: Double) -> (width: Int, height: Int) {
        (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
    }

    /// The premultiplied ARGB pixel at displayed (x, y); callers stay inside the picture.
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        return TileRenderer.pixel(storage, mapping, x: x, y: y)
    }

    /// Draws the part of the picture scaled by `scale` that `rect` covers into `target`,
    /// with `rect`'s origin at `target`'s top-left (clipped to `target`).
    ///
    /// This is what the tile cache calls: `rect` is a tile in the scaled picture's pixel
    /// grid (scaled pixel x covers picture pixels [x/scale, (x+1)/scale)). Parts outside
    /// the picture come out transparent. Below 1 each output pixel averages its source
    /// area; above 1 the nearest source pixel is repeated. Only the pixels the tile needs
    /// are read, so a 1:1 tile of a 100-megapixel photo converts only its own pixels. A
    /// vector picture renders `rect` at `scale` from its shapes.
    public func drawTile(_ rect: PixelRect, scale: Double = 1, into target: Framebuffer) {
        TileRenderer.draw(storage, mapping, displayWidth: width, displayHeight: height,
                          rect: rect, scaleX: scale, scaleY: scale, into: target)
    }

    /// The stored pixels `drawTile` copies unchanged at `scale`: the picture's ARGB pixels at
    /// 1:1, a level of its pyramid kept in memory at exactly that level's scale, when the file
    /// needs no turning, or a vector picture rendered whole at `scale` (`SVGDocument`). Nil
    /// when drawing resamples, turns, converts or reads a file.
    public func storedPixels(scale: Double) -> StoredPixels? {
        guard orientation == .up else { return nil }
        switch storage {
        case .argb(let pixels):
            return scale == 1 ? StoredPixels(framebuffer: pixels.framebuffer, owner: pixels) : nil
        case .pyramid(let pyramid):
            return pyramid.storedPixels(scale: scale)
        case .vector(let document):
            return document.storedPixels(scale: scale).map { StoredPixels(framebuffer: $0.framebuffer, owner: $0.owner) }
        case .planar:
            return nil
        }
    }

    /// The whole picture at 1:1 in a new framebuffer (tests, screenshots, small images);
    /// nil when larger than `OwnedFramebuffer.maxPixels`.
    public func render() -> OwnedFramebuffer? {
        guard let out = OwnedFramebuffer(width: width, height: height) else { return nil }
        drawTile(PixelRect(x: 0, y: 0, width: width, height: height), into: out.framebuffer)
        return out
    }
}
