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
    private let handle: OpaquePointer
    private let lock = Mutex(())

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
