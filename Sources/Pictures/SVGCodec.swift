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

    /// librsvg parses with libxml2, whose global set-up is not safe to race (xmlInitParser
    /// "is not reentrant"): the first parse happens here, once (Swift runs a global's
    /// initialiser exactly once), before any two threads can reach it together.
    static let libraryReady: Bool = {
        let tiny = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>".utf8)
        let handle = tiny.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), nil) }
        if let handle { g_object_unref(UnsafeMutableRawPointer(handle)) }
        return handle != nil
    }()

    static func header(_ data: [UInt8], file: String) throws(PictureError) -> CodecHeader {
        let document = try SVGDocument(data, file: file)
        return CodecHeader(width: document.width, height: document.height, hasAlpha: true)
    }

    static func document(_ data: [UInt8], file: String) throws(PictureError) -> SVGDocument {
        try SVGDocument(data, file: file)
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
    private let handle: UnsafeMutablePointer<RsvgHandle>
    private let lock = Mutex(())

    init(_ data: [UInt8], file: String) throws(PictureError) {
        _ = SVGCodec.libraryReady
        var error: UnsafeMutablePointer<GError>?
        let handle = data.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &error) }
        guard let handle else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "cannot parse the document"
            if let error { g_error_free(error) }
            throw PictureError(file: file, kind: .corrupt(.svg, message))
        }
        self.handle = handle
        rsvg_handle_set_dpi(handle, SVGCodec.dpi)
        var w = 0.0, h = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) == 0 {
            // Percentages or no size: the viewBox gives the proportions, and its units the size.
            var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
            var lw = RsvgLength(), lh = RsvgLength()
            var viewBox = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, &lw, &hasHeight, &lh, &hasViewBox, &viewBox)
            if hasViewBox != 0, viewBox.width > 0, viewBox.height > 0 {
                (w, h) = (viewBox.width, viewBox.height)
            } else {
                (w, h) = (Double(SVGCodec.defaultSize.width), Double(SVGCodec.defaultSize.height))
            }
        }
        // Sizes past 2³¹ are refused as invalid (the pixel limit refuses the large ones).
        guard w.isFinite, h.isFinite, w > 0, h > 0, w < Double(Int32.max), h < Double(Int32.max) else {
            g_object_unref(UnsafeMutableRawPointer(handle))
            throw PictureError(file: file, kind: .corrupt(.svg, "invalid size \(w)×\(h)"))
        }
        width = Int(w.rounded(.up))
        height = Int(h.rounded(.up))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Renders the part of the document scaled by `scaleX`×`scaleY` that `rect` covers into
    /// `target` (clipped to it), transparent outside the document.
    func draw(_ rect: PixelRect, scaleX: Double, scaleY: Double, into target: Framebuffer) {
        let w = min(rect.width, target.width), h = min(rect.height, target.height)
        guard w > 0, h > 0 else { return }
        for y in 0..<h { (target.base + y * target.stride).update(repeating: 0, count: w) }
        guard scaleX > 0, scaleY > 0, scaleX.isFinite, scaleY.isFinite else { return }
        let bytes = UnsafeMutableRawPointer(target.base).assumingMemoryBound(to: UInt8.self)
        // Cairo's ARGB32 is premultiplied native-endian 0xAARRGGBB, the framebuffer's format.
        guard let surface = cairo_image_surface_create_for_data(bytes, CAIRO_FORMAT_ARGB32, Int32(w), Int32(h),
                                                                Int32(target.stride * 4)) else { return }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return }
        defer { cairo_destroy(cr) }
        let viewport = RsvgRectangle(x: 0, y: 0, width: Double(width) * scaleX, height: Double(height) * scaleY)
        cairo_translate(cr, Double(-rect.x), Double(-rect.y))
        cairo_rectangle(cr, viewport.x, viewport.y, viewport.width, viewport.height)
        cairo_clip(cr)
        lock.withLock { _ in
            var viewport = viewport
            var error: UnsafeMutablePointer<GError>?
            // A document that fails part-way leaves what it drew; its tiles show that.
            _ = rsvg_handle_render_document(handle, cr, &viewport, &error)
            if let error { g_error_free(error) }
        }
        cairo_surface_flush(surface)
    }

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
