// Image resampling kernels over raw memory: bilinear (enlarging, pinch previews) and box
// (shrinking), both driven by per-axis tap tables so that any sub-rectangle of the output
// is computed exactly as it would be inside a whole-image resample.
import Foundation

/// How a resampler maps output pixels to source pixels on one axis.
///
/// Coordinates are global: output pixel `u` is the `u`-th pixel of the whole scaled image,
/// source pixel `i` the `i`-th pixel of the whole source image, whose existing pixels are
/// `lower..<upper` (samples beyond are clamped to the edge). Because every tap depends only
/// on these global numbers, a tile of the output equals the same area of a full resample.
public struct ResampleAxis: Sendable, Equatable {
    /// Source pixels per output pixel (> 0).
    public let step: Double
    /// First existing source pixel.
    public let lower: Int
    /// One past the last existing source pixel (> lower).
    public let upper: Int

    /// Bits of the fixed-point bilinear weights: 7 bits (0...128) keeps each product of a
    /// channel and a weight inside 16 bits, as pixman does (BILINEAR_INTERPOLATION_BITS = 7).
    static let bilinearBits = 7
    /// Fixed-point total of the box weights of one output pixel (8 bits).
    static let boxOne = 256

    /// Creates a mapping; nil when `step` is not a positive finite number or the source is empty.
    public init?(step: Double, lower: Int, upper: Int) {
        guard step.isFinite, step > 0, upper > lower else { return nil }
        self.step = step
        self.lower = lower
        self.upper = upper
    }

    /// The left bilinear sample of output pixel `u` and the 7-bit weight of its right
    /// neighbour; the pair `(i, i + 1)` always lies in the source when it is ≥ 2 pixels wide.
    func bilinearTap(_ u: Int) -> (index: Int, weight: UInt16) {
        // Pixel centres line up: output centre u + ½ sits at source coordinate (u + ½)·step.
        let s = (Double(u) + 0.5) * step - 0.5
        let f = s.rounded(.down)
        var i = Int(f)
        var w = Int(((s - f) * 128).rounded())
        if w == 128 { i += 1; w = 0 }
        if i < lower { return (lower, 0) }
        if upper - lower < 2 { return (lower, 0) }
        if i >= upper - 1 { return (upper - 2, 128) }
        return (i, UInt16(w))
    }

    /// The source pixels covered by output pixel `u` and their 8-bit area weights (summing
    /// to 256), clamped to the source.
    func boxTaps(_ u: Int) -> (first: Int, weights: [UInt16]) {
        let start = Double(u) * step, end = Double(u + 1) * step
        let i0 = Int(start.rounded(.down)), i1 = max(i0 + 1, Int(end.rounded(.up)))
        var weights: [UInt16] = []
        var previous = 0
        for i in i0..<i1 {
            // Cumulative rounding makes the weights sum to exactly 256.
            let covered = (min(Double(i + 1), end) - start) / step
            let cumulative = Int((covered * Double(Self.boxOne)).rounded())
            weights.append(UInt16(cumulative - previous))
            previous = cumulative
        }
        // Clamp: samples outside the source fold onto its edge pixels.
        let first = min(max(i0, lower), upper - 1)
        var folded: [UInt16] = []
        for (k, w) in weights.enumerated() {
            let idx = min(max(i0 + k, lower), upper - 1) - first
            if idx >= folded.count { folded.append(w) } else { folded[idx] += w }
        }
        return (first, folded)
    }

    /// The source pixels (global, within the source) that output pixels `range` read, for
    /// bilinear (`enlarging`) or box filtering.
    public func sourceRange(for range: Range<Int>, bilinear: Bool) -> Range<Int> {
        guard !range.isEmpty else { return lower..<lower }
        if bilinear {
            let a = bilinearTap(range.lowerBound).index, b = bilinearTap(range.upperBound - 1).index
            return a..<min(b + 2, upper)
        }
        let a = boxTaps(range.lowerBound), b = boxTaps(range.upperBound - 1)
        return a.first..<(b.first + b.weights.count)
    }
}

/// Which filter a resample uses.
public enum ResampleFilter: Sendable, Equatable {
    /// Linear interpolation between the four nearest source pixels: for enlarging.
    case bilinear
    /// Area average of the source pixels each output pixel covers: for shrinking, where
    /// bilinear would skip pixels and alias.
    case box
}

/// Resamples images held in framebuffers.
public enum Resampler {
    /// Writes output pixels `output` (global output coordinates; the rectangle of the scaled
    /// image to produce) into `target` with `output`'s top-left at `at`.
    ///
    /// `source` holds the source pixels whose global coordinates start at `sourceOrigin`;
    /// it must contain every pixel the taps read (`ResampleAxis.sourceRange`). `target`
    /// receives plain writes (no blending); the caller clips `output` to `target`.
    public static func resample(_ filter: ResampleFilter, source: Framebuffer, sourceOrigin: (x: Int, y: Int),
                                xAxis: ResampleAxis, yAxis: ResampleAxis, output: PixelRect,
                                into target: Framebuffer, at: (x: Int, y: Int)) {
        guard !output.isEmpty else { return }
        let dst = PixelRect(x: at.x, y: at.y, width: output.width, height: output.height)
        precondition(target.bounds.contains(dst), "resample destination outside target")
        let xs = xAxis.sourceRange(for: output.x..<output.maxX, bilinear: filter == .bilinear)
        let ys = yAxis.sourceRange(for: output.y..<output.maxY, bilinear: filter == .bilinear)
        precondition(xs.lowerBound >= sourceOrigin.x && xs.upperBound <= sourceOrigin.x + source.width &&
                     ys.lowerBound >= sourceOrigin.y && ys.upperBound <= sourceOrigin.y + source.height,
                     "resample source does not hold the pixels the taps read")
        switch filter {
        case .bilinear:
            bilinear(source: source, sourceOrigin: sourceOrigin, xAxis: xAxis, yAxis: yAxis, output: output,
                     target: target, at: at)
        case .box:
            box(source: source, sourceOrigin: sourceOrigin, xAxis: xAxis, yAxis: yAxis, output: output,
                target: target, at: at)
        }
    }

    /// Splat of a 7-bit weight into both 16-bit halves of a 32-bit word.
    @inline(__always)
    private static func lanes(_ w: UInt16) -> UInt32 { UInt32(w) &* 0x0001_0001 }

    private static func bilinear(source: Framebuffer, sourceOrigin: (x: Int, y: Int), xAxis: ResampleAxis,
                                 yAxis: ResampleAxis, output: PixelRect, target: Framebuffer, at: (x: Int, y: Int)) {
        let n = output.width
        // Per output column: byte offset of the left sample in a source row, and the weights
        // splatted over two channels (all left weights, then all right ones) so that four
        // columns load as one vector.
        var offsets = [Int](repeating: 0, count: n)
        var weights = [UInt32](repeating: 0, count: 2 * n)
        let narrow = source.width < 2
        for i in 0..<n {
            let (index, w) = xAxis.bilinearTap(output.x + i)
            offsets[i] = (index - sourceOrigin.x) * 4
            weights[i] = lanes(128 - w)
            weights[n + i] = lanes(w)
        }
        offsets.withUnsafeBufferPointer { off in
            weights.withUnsafeBufferPointer { wts in
                for row in 0..<output.height {
                    let (yi, wy) = yAxis.bilinearTap(output.y + row)
                    let y0 = yi - sourceOrigin.y
                    let y1 = min(y0 + 1, source.height - 1)
                    let r0 = UnsafeRawPointer(source.pointer(x: 0, y: y0))
                    let r1 = UnsafeRawPointer(source.pointer(x: 0, y: y1))
                    let out = target.pointer(x: at.x, y: at.y + row)
                    if narrow {
                        bilinearRowNarrow(r0, r1, wy, off.baseAddress!, wts.baseAddress!, out, n)
                    } else {
                        bilinearRow(r0, r1, wy, off.baseAddress!, wts.baseAddress!, out, n)
                    }
                }
            }
        }
    }

    /// One output row, four pixels per step. Pixels are split into their (blue, red) and
    /// (green, alpha) channel pairs, each channel in a 16-bit lane, so that the products of
    /// 8-bit channels and 7-bit weights never carry into a neighbour; vertical, then horizontal.
    @inline(__always)
    private static func bilinearRow(_ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, _ wy: UInt16,
                                    _ off: UnsafePointer<Int>, _ wts: UnsafePointer<UInt32>,
                                    _ out: UnsafeMutablePointer<UInt32>, _ n: Int) {
        let wyv = SIMD8<UInt16>(repeating: wy), iwyv = SIMD8<UInt16>(repeating: 128 - wy)
        let round = SIMD8<UInt16>(repeating: 64)
        let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        let wl = UnsafeRawPointer(wts), wr = UnsafeRawPointer(wts + n)
        @inline(__always) func gather(_ r: UnsafeRawPointer, _ o: SIMD4<Int>, _ d: Int) -> SIMD4<UInt32> {
            SIMD4<UInt32>(r.load(fromByteOffset: o[0] + d, as: UInt32.self),
                          r.load(fromByteOffset: o[1] + d, as: UInt32.self),
                          r.load(fromByteOffset: o[2] + d, as: UInt32.self),
                          r.load(fromByteOffset: o[3] + d, as: UInt32.self))
        }
        @inline(__always) func split(_ v: SIMD4<UInt32>) -> (SIMD8<UInt16>, SIMD8<UInt16>) {
            (unsafeBitCast(v & mask, to: SIMD8<UInt16>.self), unsafeBitCast((v &>> 8) & mask, to: SIMD8<UInt16>.self))
        }
        @inline(__always) func mix(_ a: SIMD8<UInt16>, _ wa: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ wb: SIMD8<UInt16>)
            -> SIMD8<UInt16>
        {
            // ≤ 255·128 per lane, back to 8 bits with rounding.
            (a &* wa &+ b &* wb &+ round) &>> 7
        }
        var i = 0
        while i + 4 <= n {
            let o = UnsafeRawPointer(off + i).loadUnaligned(as: SIMD4<Int>.self)
            let (tlRB, tlAG) = split(gather(r0, o, 0)), (trRB, trAG) = split(gather(r0, o, 4))
            let (blRB, blAG) = split(gather(r1, o, 0)), (brRB, brAG) = split(gather(r1, o, 4))
            let a = wl.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt16>.self)
            let b = wr.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt16>.self)
            let rb = mix(mix(tlRB, iwyv, blRB, wyv), a, mix(trRB, iwyv, brRB, wyv), b)
            let ag = mix(mix(tlAG, iwyv, blAG, wyv), a, mix(trAG, iwyv, brAG, wyv), b)
            let px = unsafeBitCast(rb, to: SIMD4<UInt32>.self) | (unsafeBitCast(ag, to: SIMD4<UInt32>.self) &<< 8)
            UnsafeMutableRawPointer(out + i).storeBytes(of: px, as: SIMD4<UInt32>.self)
            i += 4
        }
        while i < n {
            out[i] = bilinearPixel(r0.load(fromByteOffset: off[i], as: UInt32.self),
                                   r0.load(fromByteOffset: off[i] + 4, as: UInt32.self),
                                   r1.load(fromByteOffset: off[i], as: UInt32.self),
                                   r1.load(fromByteOffset: off[i] + 4, as: UInt32.self), wy, wts[n + i] & 0xFFFF)
            i += 1
        }
    }

    /// The same arithmetic as `bilinearRow` for one pixel from its four samples.
    @inline(__always)
    private static func bilinearPixel(_ tl: UInt32, _ tr: UInt32, _ bl: UInt32, _ br: UInt32, _ wy: UInt16,
                                      _ wx: UInt32) -> UInt32 {
        let wy = UInt32(wy)
        @inline(__always) func mix(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
            ((a &* (128 &- w) &+ b &* w &+ 0x0040_0040) >> 7) & 0x00FF_00FF
        }
        let rb = mix(mix(tl & 0x00FF_00FF, bl & 0x00FF_00FF, wy), mix(tr & 0x00FF_00FF, br & 0x00FF_00FF, wy), wx)
        let ag = mix(mix((tl >> 8) & 0x00FF_00FF, (bl >> 8) & 0x00FF_00FF, wy),
                     mix((tr >> 8) & 0x00FF_00FF, (br >> 8) & 0x00FF_00FF, wy), wx)
        return rb | ag << 8
    }

    /// A one-pixel-wide source has no right neighbour: the single pixel serves as both.
    private static func bilinearRowNarrow(_ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, _ wy: UInt16,
                                          _ off: UnsafePointer<Int>, _ wts: UnsafePointer<UInt32>,
                                          _ out: UnsafeMutablePointer<UInt32>, _ n: Int) {
        let a = r0.load(as: UInt32.self), b = r1.load(as: UInt32.self)
        for i in 0..<n { out[i] = bilinearPixel(a, a, b, b, wy, wts[n + i] & 0xFFFF) }
    }

    private static func box(source: Framebuffer, sourceOrigin: (x: Int, y: Int), xAxis: ResampleAxis,
                            yAxis: ResampleAxis, output: PixelRect, target: Framebuffer, at: (x: Int, y: Int)) {
        let n = output.width
        let columns = xAxis.sourceRange(for: output.x..<output.maxX, bilinear: false)
        let width = columns.count
        // Horizontal taps of every output column, flattened: first column (relative to
        // `columns`), tap count, then the weights in `xWeights`.
        var xFirst = [Int](repeating: 0, count: n), xCount = [Int](repeating: 0, count: n)
        var xWeights: [UInt32] = []
        for i in 0..<n {
            let t = xAxis.boxTaps(output.x + i)
            xFirst[i] = t.first - columns.lowerBound
            xCount[i] = t.weights.count
            xWeights.append(contentsOf: t.weights.map(UInt32.init))
        }
        // One row of vertically filtered source pixels, channel pairs in 16-bit halves.
        var rowRB = [UInt32](repeating: 0, count: width), rowAG = [UInt32](repeating: 0, count: width)
        let x0 = columns.lowerBound - sourceOrigin.x
        let mask: UInt32 = 0x00FF_00FF, half: UInt32 = 0x0080_0080
        for row in 0..<output.height {
            let (first, wys) = yAxis.boxTaps(output.y + row)
            rowRB.withUnsafeMutableBufferPointer { rb in
                rowAG.withUnsafeMutableBufferPointer { ag in
                    for k in 0..<width { rb[k] = half; ag[k] = half }
                    for (j, wy) in wys.enumerated() {
                        let src = source.pointer(x: x0, y: first + j - sourceOrigin.y)
                        let w = UInt32(wy)
                        // Weights sum to 256: each 16-bit half stays ≤ 255·256 + 128.
                        for k in 0..<width {
                            rb[k] &+= (src[k] & mask) &* w
                            ag[k] &+= ((src[k] >> 8) & mask) &* w
                        }
                    }
                    for k in 0..<width { rb[k] = (rb[k] >> 8) & mask; ag[k] = (ag[k] >> 8) & mask }
                }
            }
            let out = target.pointer(x: at.x, y: at.y + row)
            var tap = 0
            for i in 0..<n {
                var rb = half, ag = half
                for j in 0..<xCount[i] {
                    let w = xWeights[tap + j], c = xFirst[i] + j
                    rb &+= rowRB[c] &* w
                    ag &+= rowAG[c] &* w
                }
                tap += xCount[i]
                out[i] = ((rb >> 8) & mask) | (ag & ~mask)
            }
        }
    }
}
