// SVG through librsvg and cairo: the document stays parsed, and every tile is rendered from
// it at the scale it is shown, so a zoomed-in SVG is as sharp as its shapes.
import CRSVG
import Raster
import Synchronization

/// SVG header reading and document loading.
enum SVGCodec {
    /// CSS pixels per inch (CSS Values 4 §6.2): what "1in" means in an SVG shown on screen.
    static let dpi = 96.0
    /// 300×150: the size CSS gives a replaced element with no size of its own (CSS 2.1
    /// §10.3.2), for documents with neither width/height nor a viewBox.
    static let defaultSize = (width: 300, height: 150)

    /// Loads librsvg (and cairo with it), then parses a tiny document once: librsvg parses
    /// with libxml2, whose global set-up is not safe to race (xmlInitParser "is not
    /// reentrant"), so the first parse happens here, before any two threads can reach it
    /// together. Swift runs this initialiser exactly once. Nil when ready, else why not.
    private static let library: String? = {
        if let problem = scrollkit_svg_open() { return String(cString: problem) }
        let tiny = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>".utf8)
        let handle = tiny.withUnsafeBufferPointer { scrollkit_svg_parse($0.baseAddress, $0.count, dpi, nil, 0) }
        guard let handle else { return "librsvg cannot parse a one-pixel document" }
        scrollkit_svg_free(handle)
        return nil
    }()

    /// Opens librsvg on first use: nil when ready, else why it cannot be used.
    static func openLibrary() -> String? { library }

    static func document(_ data: [UInt8], file: String) throws(PictureError) -> SVGDocument {
        try SVGDocument(data, file: file)
    }
}

/// The document one decoder parsed, kept for its later calls (a decoder's bytes never change).
final class ParsedSVG: Sendable {
    private let parsed = Mutex<SVGDocument?>(nil)

    /// The document parsed earlier, or the one `parse` makes now (kept when it succeeds).
    func document(_ parse: () throws(PictureError) -> SVGDocument) throws(PictureError) -> SVGDocument {
        try parsed.withLock { (kept: inout SVGDocument?) throws(PictureError) -> SVGDocument in
            if let kept { return kept }
            let made = try parse()
            kept = made
            return made
        }
    }
}

/// A parsed SVG document that renders any part of itself at any scale.
///
/// librsvg handles may be used by one thread at a time, and tiles are drawn from two: every
/// use of the handle holds `lock`, which makes sharing the document safe.
final class SVGDocument: @unchecked Sendable {
    /// Nominal size in CSS pixels (the picture's size at zoom 1), rounded up.
    let width: Int
    let height: Int
    private let handle: OpaquePointer
    private let lock = Mutex(())
    /// The whole document rendered at the scales tiles asked for last, newest last (see
    /// `storedPixels`).
    private let renders = Mutex<[(scale: Double, pixels: ARGBPixels)]>([])

    /// 3840×2160: the most pixels `storedPixels` renders at one scale, and keeps over all its
    /// scales (33 MB), a 4K screen: a picture fitted to any screen is rendered whole, a picture
    /// zoomed in further is drawn a tile at a time.
    static let maxRenderedPixels = 3840 * 2160

    init(_ data: [UInt8], file: String) throws(PictureError) {
        if let problem = SVGCodec.openLibrary() { throw PictureError(file: file, kind: .libraryMissing(.svg, problem)) }
        var message = [CChar](repeating: 0, count: 512)
        let handle = data.withUnsafeBufferPointer { bytes in
            message.withUnsafeMutableBufferPointer {
                scrollkit_svg_parse(bytes.baseAddress, bytes.count, SVGCodec.dpi, $0.baseAddress, $0.count)
            }
        }
        guard let handle else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw PictureError(file: file, kind: .corrupt(.svg, text.isEmpty ? "cannot parse the document" : text))
        }
        self.handle = handle
        var w = 0.0, h = 0.0
        if scrollkit_svg_size(handle, &w, &h) == 0 {
            // Percentages or no size: the viewBox gives the proportions, and its units the size.
            if scrollkit_svg_view_box(handle, &w, &h) == 0 || !(w > 0 && h > 0) {
                (w, h) = (Double(SVGCodec.defaultSize.width), Double(SVGCodec.defaultSize.height))
            }
        }
        // Sizes past 2³¹ are refused as invalid (the pixel limit refuses the large ones).
        guard w.isFinite, h.isFinite, w > 0, h > 0, w < Double(Int32.max), h < Double(Int32.max) else {
            scrollkit_svg_free(handle)
            throw PictureError(file: file, kind: .corrupt(.svg, "invalid size \(w)×\(h)"))
        }
        width = Int(w.rounded(.up))
        height = Int(h.rounded(.up))
    }

    deinit { scrollkit_svg_free(handle) }

    /// Renders the part of the document scaled by `scaleX`×`scaleY` that `rect` covers into
    /// `target` (clipped to it), transparent outside the document.
    func draw(_ rect: PixelRect, scaleX: Double, scaleY: Double, into target: Framebuffer) {
        let w = min(rect.width, target.width), h = min(rect.height, target.height)
        guard w > 0, h > 0 else { return }
        for y in 0..<h { (target.base + y * target.stride).update(repeating: 0, count: w) }
        guard scaleX > 0, scaleY > 0, scaleX.isFinite, scaleY.isFinite else { return }
        lock.withLock { _ in
            // A document that fails part-way leaves what it drew; its tiles show that.
            _ = scrollkit_svg_render(handle, target.base, Int32(w), Int32(h), Int32(target.stride * 4), Double(rect.x),
                                     Double(rect.y), Double(width) * scaleX, Double(height) * scaleY)
        }
    }

    /// The whole document at `scale` (its size rounded up), rendered once and kept, for the
    /// tiles of that scale to borrow; nil past `maxRenderedPixels`.
    ///
    /// Why: librsvg renders the whole document for every tile, clipped, one tile at a time (the
    /// handle takes one thread), and a 6000×4000 drawing fitted to 1920×1080 took 31–35 ms
    /// for the 94 tiles of its first frame, and 16–18 ms with this. A tile drawn alone also
    /// differed from the whole drawn at once (as rsvg-convert draws it) by up to 11 levels
    /// along anti-aliased edges of translucent shapes (SVGStoredPixelsTests).
    func storedPixels(scale: Double) -> (framebuffer: Framebuffer, owner: ARGBPixels)? {
        guard scale > 0, scale.isFinite else { return nil }
        let w = (Double(width) * scale).rounded(.up), h = (Double(height) * scale).rounded(.up)
        guard w * h <= Double(Self.maxRenderedPixels) else { return nil }
        let (columns, rows) = (max(1, Int(w)), max(1, Int(h)))
        return renders.withLock { renders in
            if let kept = renders.first(where: { $0.scale == scale }) { return (kept.pixels.framebuffer, kept.pixels) }
            // In shared memory, so that a window at rest can hand the render to the compositor
            // as it is (`SharedPixelFile`); private memory when the system has no memfd for it.
            guard let pixels = ARGBPixels(sharedWidth: columns, height: rows)
                    ?? ARGBPixels(width: columns, height: rows, zeroed: false) else { return nil }
            draw(PixelRect(x: 0, y: 0, width: columns, height: rows), scaleX: scale, scaleY: scale, into: pixels.framebuffer)
            pixels.noteOpacity()
            renders.append((scale, pixels))
            // The oldest go first once the kept renders pass the limit (tiles that borrow one
            // keep it alive until they go).
            while renders.count > 1,
                  renders.reduce(0, { $0 + $1.pixels.width * $1.pixels.height }) > Self.maxRenderedPixels {
                renders.removeFirst()
            }
            return (pixels.framebuffer, pixels)
        }
    }

    /// Fits of at least this many pixels get a quick rendition first (`previewScale`): 1 MP.
    /// librsvg took 11–13 ms for 1024×682 of the 6000×4000 benchmark drawing (400 translucent
    /// circles over a gradient) and 20–24 ms for its 1620×1080 fit on a 1080p screen, 4–5 ms
    /// at 750×500 (a C program timing rsvg_handle_render_document here).
    static let previewMinimumPixels = 1 << 20

    /// The scale of a quick first rendition of a `width`×`height` drawing shown at `fit` device
    /// pixels per pixel: the largest power of two at most half the fit (a quarter of its pixels
    /// or fewer), when the drawing is a whole number of pixels across and down there, so that
    /// its pixels are exactly those of that zoom level (see `Picture.provisionalLevel`). Nil for
    /// a fit below `previewMinimumPixels`, which renders quickly enough itself.
    static func previewScale(width: Int, height: Int, fit: Double) -> Double? {
        guard fit > 0, fit.isFinite, Double(width) * fit * Double(height) * fit >= Double(previewMinimumPixels) else {
            return nil
        }
        let scale = Double(sign: .plus, exponent: (fit / 2).exponent, significand: 1)  // 2^⌊log2(fit / 2)⌋
        let (w, h) = (Double(width) * scale, Double(height) * scale)
        guard w >= 1, h >= 1, w == w.rounded(), h == h.rounded() else { return nil }
        return scale
    }

    /// The whole document at `scale` as pixels of exactly that size (a `previewScale` makes
    /// them whole numbers), for a quick rendition; `file` names a refused allocation.
    func rendered(scale: Double, file: String) throws(PictureError) -> ARGBPixels {
        let (w, h) = (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
        // Shared as the renders are (`storedPixels`): a window can show it enlarged as it is.
        let pixels: ARGBPixels
        if let shared = ARGBPixels(sharedWidth: w, height: h) {
            pixels = shared
        } else {
            pixels = try ARGBPixels.make(width: w, height: h, zeroed: false, file: file)
        }
        draw(PixelRect(x: 0, y: 0, width: w, height: h), scaleX: scale, scaleY: scale, into: pixels.framebuffer)
        pixels.noteOpacity()
        return pixels
    }

    /// The scales the document is kept rendered at, oldest first.
    var renderedScales: [Double] { renders.withLock { $0.map(\.scale) } }

    /// The whole document scaled to at most `maxPixels` pixels (at least 1×1), as pixels.
    func rendered(maxPixels: Int) -> ARGBPixels {
        let budget = max(1, maxPixels)
        var scale = min(1, (Double(budget) / (Double(width) * Double(height))).squareRoot())
        var w = max(1, Int(Double(width) * scale)), h = max(1, Int(Double(height) * scale))
        while w * h > budget, w > 1 || h > 1 {  // rounding can leave one row too many
            scale *= 0.99
            w = max(1, Int(Double(width) * scale)); h = max(1, Int(Double(height) * scale))
        }
        let pixels = ARGBPixels.small(width: w, height: h)
        draw(PixelRect(x: 0, y: 0, width: w, height: h), scaleX: Double(w) / Double(width),
             scaleY: Double(h) / Double(height), into: pixels.framebuffer)
        return pixels
    }
}
