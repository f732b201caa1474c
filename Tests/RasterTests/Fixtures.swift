// Test fixtures: a deterministic tiled content view and reference renders to compare against.
import Foundation
import Raster
import ScrollKit

/// Content whose every pixel is a closed-form function of its coordinates and scale, and
/// which records what it was asked to draw.
final class PatternView: View, TiledContent {
    /// Rectangles and scales drawn, in order (in completion order when drawn concurrently).
    var drawn: [(rect: PixelRect, scale: Double)] { lock.withLock { log } }
    private var log: [(rect: PixelRect, scale: Double)] = []
    private let lock = NSLock()
    var opaque = true
    /// Alpha of every pixel when not opaque.
    var translucentAlpha: UInt32 = 0x80
    /// Lets the renderer draw tiles on several threads at once.
    var concurrent = false

    /// Says its tiles are as good drawn at any scale (as a vector drawing's are).
    var anyScale = false

    /// Says it is a quick rendition of itself at this level (see `TiledContent.provisionalLevel`).
    var provisional: Int?

    var isOpaqueContent: Bool { opaque }
    var drawsConcurrently: Bool { concurrent }
    var drawsAtAnyScale: Bool { anyScale }
    var provisionalLevel: Int? { provisional }

    /// The pixel at content pixel (x, y) drawn at `scale`: stripes, a diagonal ramp and a
    /// term depending on the scale, so misplaced or wrongly scaled tiles show.
    static func pixel(x: Int, y: Int, scale: Double, alpha: UInt32) -> UInt32 {
        let r = UInt32(truncatingIfNeeded: x &* 7 &+ y &* 3) & 0xFF
        let g = UInt32(truncatingIfNeeded: (x / 5) ^ (y / 3)) & 0xFF
        let b = UInt32(truncatingIfNeeded: Int(scale * 64) &+ x / 16) & 0xFF
        let opaque = 0xFF00_0000 | r << 16 | g << 8 | b
        guard alpha < 255 else { return opaque }
        // Premultiply: every channel scaled by alpha/255, rounded.
        func mul(_ c: UInt32) -> UInt32 { (c * alpha + 127) / 255 }
        return alpha << 24 | mul(r) << 16 | mul(g) << 8 | mul(b)
    }

    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        lock.withLock { log.append((rect, scale)) }
        Self.fill(rect, scale: scale, alpha: opaque ? 255 : translucentAlpha, into: target)
    }

    /// When `concurrent`, the pattern as a drawing for the background prefetcher (not logged).
    func concurrentDrawing() -> TileDrawing? {
        guard concurrent else { return nil }
        let alpha = opaque ? 255 : translucentAlpha
        return TileDrawing { rect, scale, target in PatternView.fill(rect, scale: scale, alpha: alpha, into: target) }
    }

    static func fill(_ rect: PixelRect, scale: Double, alpha: UInt32, into target: Framebuffer) {
        for y in 0..<min(rect.height, target.height) {
            for x in 0..<min(rect.width, target.width) {
                target[x, y] = pixel(x: rect.x + x, y: rect.y + y, scale: scale, alpha: alpha)
            }
        }
    }

    func resetLog() { lock.withLock { log.removeAll() } }

    /// The pattern at scale 1 kept in memory for content pixels (0, 0) up to its size, offered
    /// to the renderer as the content's stored pixels (`keepStored`).
    private var stored: OwnedFramebuffer?

    /// Keeps the pattern at scale 1 for the first `width`×`height` content pixels (which may
    /// be less than the content) as stored pixels.
    func keepStored(width: Int, height: Int) {
        let pixels = OwnedFramebuffer(width: width, height: height)!
        let alpha = opaque ? 255 : translucentAlpha
        pixels.withFramebuffer { Self.fill(PixelRect(x: 0, y: 0, width: width, height: height), scale: 1, alpha: alpha, into: $0) }
        stored = pixels
    }

    /// The scales `storedPixels` was asked for, in order (a drawing renders itself whole at
    /// each one it is asked for).
    var storedAsked: [Double] { lock.withLock { askedLog } }
    private var askedLog: [Double] = []

    func storedPixels(scale: Double) -> StoredPixels? {
        lock.withLock { askedLog.append(scale) }
        guard scale == 1, let stored else { return nil }
        return StoredPixels(framebuffer: stored.framebuffer, owner: stored)
    }
}

/// A scroll-view-like container: clips, scrolls by bounds.origin, shows given indicators.
final class ScrollerView: View, ScrollIndicatorSource {
    var indicators: [IndicatorAppearance] = []
    var indicatorsForDisplay: [IndicatorAppearance] { indicators }

    override init(frame: CGRect) {
        super.init(frame: frame)
        clipsToBounds = true
    }
}

/// A pill-shaped dark indicator with a light ring, like the default style.
func bar(_ rect: CGRect, alpha: Double) -> IndicatorAppearance {
    IndicatorAppearance(rect: rect, alpha: alpha, fill: Color(red: 0, green: 0, blue: 0, alpha: 0.45),
                        border: Color(red: 1, green: 1, blue: 1, alpha: 0.6), borderWidth: 1,
                        cornerRadius: Double(min(rect.width, rect.height)) / 2)
}

/// A window root with a scroller holding one pattern view of `contentSize` points.
struct Scene1 {
    let root: View
    let scroller: ScrollerView
    let content: PatternView

    init(viewport: CGSize, contentSize: CGSize, scrollerOrigin: CGPoint = CGPoint(x: 0, y: 0)) {
        root = View(frame: CGRect(origin: .zero, size: viewport))
        root.backgroundColor = Color(rgb: 0x336699)
        scroller = ScrollerView(frame: CGRect(origin: scrollerOrigin, size: CGSize(width: viewport.width - scrollerOrigin.x,
                                                                                   height: viewport.height - scrollerOrigin.y)))
        content = PatternView(frame: CGRect(origin: .zero, size: contentSize))
        root.addSubview(scroller)
        scroller.addSubview(content)
    }

    /// Zooms the content like a scroll view: scale anchored at the content's origin.
    func zoom(_ scale: CGFloat) {
        let size = content.bounds.size
        content.transformScale = scale
        content.frame = CGRect(origin: .zero, size: CGSize(width: size.width * scale, height: size.height * scale))
    }
}

/// The whole content drawn in one piece at `level` pixels per point, resampled in one piece to
/// `scale` when they differ, then placed at `origin` and cropped to `viewport` over `under`:
/// what a frame must show if tiling were invisible.
func referenceFrame(content: PatternView, contentSize: CGSize, scale: Double, level: Double, origin: (x: Int, y: Int),
                    clip: PixelRect, width: Int, height: Int, under: UInt32) throws -> OwnedFramebuffer {
    let ex = Int((Double(contentSize.width) * scale).rounded()), ey = Int((Double(contentSize.height) * scale).rounded())
    let sx = Int((Double(contentSize.width) * level).rounded(.up)), sy = Int((Double(contentSize.height) * level).rounded(.up))
    let whole = OwnedFramebuffer(width: sx, height: sy)!
    let probe = PatternView(frame: .zero)
    probe.opaque = content.opaque
    probe.translucentAlpha = content.translucentAlpha
    whole.withFramebuffer { probe.draw(PixelRect(x: 0, y: 0, width: sx, height: sy), scale: level, into: $0) }
    var image = whole
    if scale != level {
        let scaled = OwnedFramebuffer(width: ex, height: ey)!
        let step = level / scale
        try whole.withFramebuffer { w in
            try scaled.withFramebuffer { s in
                try Resampler.resample(scale > level ? .bilinear : .box, source: w, sourceOrigin: (0, 0),
                                   xAxis: ResampleAxis(step: step, lower: 0, upper: sx)!,
                                   yAxis: ResampleAxis(step: step, lower: 0, upper: sy)!,
                                   output: PixelRect(x: 0, y: 0, width: ex, height: ey), into: s, at: (0, 0))
            }
        }
        image = scaled
    }
    let pixels = image.pixels, imageWidth = image.framebuffer.width, imageHeight = image.framebuffer.height
    let out = OwnedFramebuffer(width: width, height: height)!
    out.withFramebuffer { fb in
        fb.fill(fb.bounds, with: under)
        let visible = PixelRect(x: origin.x, y: origin.y, width: min(ex, imageWidth), height: min(ey, imageHeight))
            .intersection(clip).intersection(fb.bounds)
        for y in visible.y..<visible.maxY {
            for x in visible.x..<visible.maxX {
                let p = pixels[(y - origin.y) * imageWidth + (x - origin.x)]
                fb[x, y] = p >> 24 == 255 ? p : blendOver(p, fb[x, y])
            }
        }
    }
    return out
}

/// Premultiplied source-over by the textbook formula, rounded per channel (test oracle).
func blendOver(_ s: UInt32, _ d: UInt32) -> UInt32 {
    let ia = 255 - Double(s >> 24)
    var out: UInt32 = 0
    for shift in stride(from: 0, to: 32, by: 8) {
        let sc = Double((s >> UInt32(shift)) & 0xFF), dc = Double((d >> UInt32(shift)) & 0xFF)
        out |= UInt32(min(sc + (dc * ia / 255).rounded(), 255)) << UInt32(shift)
    }
    return out
}

/// First differing pixel between two framebuffers of equal size, for failure messages.
func firstDifference(_ a: OwnedFramebuffer, _ b: OwnedFramebuffer) -> String? {
    let w = a.framebuffer.width
    guard w == b.framebuffer.width, a.framebuffer.height == b.framebuffer.height else { return "sizes differ" }
    let pa = a.pixels, pb = b.pixels
    guard let i = pa.indices.first(where: { pa[$0] != pb[$0] }) else { return nil }
    return "pixel (\(i % w), \(i / w)): \(String(pa[i], radix: 16)) vs \(String(pb[i], radix: 16))"
}

/// A `width`×`height` source of random premultiplied pixels: the pixels (row-major) and a
/// framebuffer holding them.
func randomSource(width: Int, height: Int, using rng: inout TestRandom) throws -> ([UInt32], OwnedFramebuffer) {
    var pixels = [UInt32](repeating: 0, count: width * height)
    for i in pixels.indices { pixels[i] = rng.pixel() }
    guard let source = OwnedFramebuffer(width: width, height: height) else { throw FixtureError.allocation }
    source.withFramebuffer { s in for y in 0..<height { for x in 0..<width { s[x, y] = pixels[y * width + x] } } }
    return (pixels, source)
}

/// The whole of `source` resampled with `filter` at `step` source pixels per output pixel
/// (both axes) into a new `width`×`height` image: its pixels, row-major.
func resampledWhole(_ source: OwnedFramebuffer, _ filter: ResampleFilter, step: Double,
                    width: Int, height: Int) throws -> [UInt32] {
    guard let out = OwnedFramebuffer(width: width, height: height),
          let xAxis = ResampleAxis(step: step, lower: 0, upper: source.framebuffer.width),
          let yAxis = ResampleAxis(step: step, lower: 0, upper: source.framebuffer.height) else {
        throw FixtureError.allocation
    }
    try source.withFramebuffer { s in try out.withFramebuffer { o in
        try Resampler.resample(filter, source: s, sourceOrigin: (0, 0), xAxis: xAxis, yAxis: yAxis,
                               output: PixelRect(x: 0, y: 0, width: width, height: height), into: o, at: (0, 0))
    } }
    return out.pixels
}

/// A fixture that could not be made.
enum FixtureError: Error {
    case allocation
}
