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

/// Why a resample was refused; nothing was written.
public enum ResampleError: Error, Equatable, CustomStringConvertible {
    /// `output` placed at `at` does not fit in the target framebuffer of `targetSize`.
    case destinationOutsideTarget(output: PixelRect, atX: Int, atY: Int, targetWidth: Int, targetHeight: Int)
    /// The taps read source pixels `needed` (global), but `source` holds only `held`.
    case sourceTooSmall(needed: PixelRect, held: PixelRect)

    public var description: String {
        switch self {
        case let .destinationOutsideTarget(output, x, y, w, h):
            return "resample: output \(output.width)×\(output.height) at (\(x), \(y)) does not fit the \(w)×\(h) target"
        case let .sourceTooSmall(needed, held):
            return "resample: the filter reads source pixels x \(needed.x)..<\(needed.maxX), y \(needed.y)..<\(needed.maxY)" +
                " but `source` holds x \(held.x)..<\(held.maxX), y \(held.y)..<\(held.maxY)"
        }
    }
}

/// Resamples images held in framebuffers.
public enum Resampler {
    /// Writes output pixels `output` (global output coordinates; the rectangle of the scaled
    /// image to produce) into `target` with `output`'s top-left at `at`.
    ///
    /// `source` holds the source pixels whose global coordinates start at `sourceOrigin`;
    /// it must contain every pixel the taps read (`ResampleAxis.sourceRange`). `target`
    /// receives plain writes (no blending). Geometry that does not fit is refused with a
    /// `ResampleError` before any memory is allocated or written.
    public static func resample(_ filter: ResampleFilter, source: Framebuffer, sourceOrigin: (x: Int, y: Int),
                                xAxis: ResampleAxis, yAxis: ResampleAxis, output: PixelRect,
                                into target: Framebuffer, at: (x: Int, y: Int)) throws(ResampleError) {
        guard !output.isEmpty else { return }
        let dst = PixelRect(x: at.x, y: at.y, width: output.width, height: output.height)
        guard target.bounds.contains(dst) else {
            throw .destinationOutsideTarget(output: output, atX: at.x, atY: at.y, targetWidth: target.width,
                                            targetHeight: target.height)
        }
        let xs = xAxis.sourceRange(for: output.x..<output.maxX, bilinear: filter == .bilinear)
        let ys = yAxis.sourceRange(for: output.y..<output.maxY, bilinear: filter == .bilinear)
        let needed = PixelRect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)
        let held = PixelRect(x: sourceOrigin.x, y: sourceOrigin.y, width: source.width, height: source.height)
        guard held.contains(needed) else { throw .sourceTooSmall(needed: needed, held: held) }
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
                        bilinearRow(r0, r1, wy, off.baseAddress!, wts.baseAddress!, wts.baseAddress! + n, out, n)
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
                                    _ off: UnsafePointer<Int>, _ left: UnsafePointer<UInt32>, _ right: UnsafePointer<UInt32>,
                                    _ out: UnsafeMutablePointer<UInt32>, _ n: Int) {
        let wyv = SIMD8<UInt16>(repeating: wy), iwyv = SIMD8<UInt16>(repeating: 128 - wy)
        let round = SIMD8<UInt16>(repeating: 64)
        let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        let wl = UnsafeRawPointer(left), wr = UnsafeRawPointer(right)
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
                                   r1.load(fromByteOffset: off[i] + 4, as: UInt32.self), wy, right[i] & 0xFFFF)
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

    /// Bilinear resampling straight from a grid of equal square tiles, without gathering them
    /// into one source first: the same pixels as `resample(.bilinear, …)` over the grid's
    /// pixels. Each output row is cut into runs whose left samples lie in one tile column;
    /// a pixel whose two samples straddle two tiles is mixed on its own. `tile(column, row)`
    /// gives the tile at that grid position (global source pixel (x, y) is pixel
    /// (x − column·size, y − row·size) of tile (x / size, y / size)); every tile the taps read
    /// must exist, and the source must be at least two pixels wide (`xAxis.upper − lower ≥ 2`).
    public static func bilinear(tiles tile: (Int, Int) -> Framebuffer, tileSize size: Int, xAxis: ResampleAxis, yAxis: ResampleAxis,
                         output: PixelRect, into target: Framebuffer, at: (x: Int, y: Int)) {
        let n = output.width
        guard n > 0, output.height > 0, xAxis.upper - xAxis.lower >= 2,
              target.bounds.contains(PixelRect(x: at.x, y: at.y, width: n, height: output.height)) else { return }
        // Offsets of left samples within their tile's row, weights as in `bilinear`, and the
        // runs of columns sharing a tile column (a straddling pixel is a run of its own, -1).
        var offsets = [Int](repeating: 0, count: n)
        var weights = [UInt32](repeating: 0, count: 2 * n)
        var runs: [(start: Int, count: Int, column: Int, straddles: Bool)] = []
        for i in 0..<n {
            let (index, w) = xAxis.bilinearTap(output.x + i)
            let column = floorDivide(index, size), within = index - column * size
            offsets[i] = within * 4
            weights[i] = lanes(128 - w)
            weights[n + i] = lanes(w)
            let straddles = within == size - 1
            if let last = runs.last, !straddles, !last.straddles, last.column == column {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((i, 1, column, straddles))
            }
        }
        offsets.withUnsafeBufferPointer { off in
            weights.withUnsafeBufferPointer { wts in
                let left = wts.baseAddress!, right = wts.baseAddress! + n
                for row in 0..<output.height {
                    let (yi, wy) = yAxis.bilinearTap(output.y + row)
                    let y1 = min(yi + 1, yAxis.upper - 1)
                    let tr0 = floorDivide(yi, size), tr1 = floorDivide(y1, size)
                    let out = target.pointer(x: at.x, y: at.y + row)
                    for run in runs {
                        let a = tile(run.column, tr0), b = tile(run.column, tr1)
                        let r0 = UnsafeRawPointer(a.pointer(x: 0, y: yi - tr0 * size))
                        let r1 = UnsafeRawPointer(b.pointer(x: 0, y: y1 - tr1 * size))
                        if run.straddles {
                            // The right samples are the first column of the next tile.
                            let c = tile(run.column + 1, tr0), d = tile(run.column + 1, tr1)
                            let i = run.start
                            out[i] = bilinearPixel(r0.load(fromByteOffset: off[i], as: UInt32.self),
                                                   c.pointer(x: 0, y: yi - tr0 * size).pointee,
                                                   r1.load(fromByteOffset: off[i], as: UInt32.self),
                                                   d.pointer(x: 0, y: y1 - tr1 * size).pointee, wy, right[i] & 0xFFFF)
                            continue
                        }
                        bilinearRow(r0, r1, wy, off.baseAddress! + run.start, left + run.start, right + run.start,
                                    out + run.start, run.count)
                    }
                }
            }
        }
    }

    /// Floor division (rounds toward −∞).
    @inline(__always)
    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Most source pixels per output pixel and axis on the vectorised box path: a step of at
    /// most 2 (the renderer shrinks by at most half) overlaps at most 3 source pixels.
    static let boxFastTaps = 3

    private static func box(source: Framebuffer, sourceOrigin: (x: Int, y: Int), xAxis: ResampleAxis,
                            yAxis: ResampleAxis, output: PixelRect, target: Framebuffer, at: (x: Int, y: Int)) {
        let n = output.width
        let columns = xAxis.sourceRange(for: output.x..<output.maxX, bilinear: false)
        let width = columns.count
        let taps = boxFastTaps
        // Horizontal taps of every output column, padded to `taps` with zero weights: first
        // column (relative to `columns`) and the weights splatted over two 16-bit lanes.
        var first = [Int](repeating: 0, count: n)
        var weights = [UInt32](repeating: 0, count: taps * n)
        var xTaps: [(first: Int, weights: [UInt16])] = []
        xTaps.reserveCapacity(n)
        for i in 0..<n { xTaps.append(xAxis.boxTaps(output.x + i)) }
        if xTaps.contains(where: { $0.weights.count > taps }) || yAxis.step > 2 {
            return boxGeneral(source: source, sourceOrigin: sourceOrigin, xTaps: xTaps, columns: columns, yAxis: yAxis,
                              output: output, target: target, at: at)
        }
        for (i, t) in xTaps.enumerated() {
            first[i] = (t.first - columns.lowerBound) * 4
            for (j, w) in t.weights.enumerated() { weights[j * n + i] = UInt32(w) &* 0x0001_0001 }
        }
        // One row of vertically filtered pixels, with `taps` spare pixels so that padded taps
        // read inside the buffer.
        var row = [UInt32](repeating: 0, count: width + taps)
        let x0 = columns.lowerBound - sourceOrigin.x
        first.withUnsafeBufferPointer { off in
            weights.withUnsafeBufferPointer { wts in
                row.withUnsafeMutableBufferPointer { buf in
                    let line = buf.baseAddress!
                    for r in 0..<output.height {
                        let (fy, wys) = yAxis.boxTaps(output.y + r)
                        var rows: [UnsafePointer<UInt32>] = []
                        var wy: [UInt16] = []
                        for j in 0..<taps {
                            let k = min(j, wys.count - 1)
                            rows.append(UnsafePointer(source.pointer(x: x0, y: fy + k - sourceOrigin.y)))
                            wy.append(j < wys.count ? wys[j] : 0)
                        }
                        boxVertical(rows[0], rows[1], rows[2], wy[0], wy[1], wy[2], line, width)
                        boxHorizontal(UnsafeRawPointer(line), off.baseAddress!, wts.baseAddress!,
                                      target.pointer(x: at.x, y: at.y + r), n)
                    }
                }
            }
        }
    }

    /// Splits four pixels into their (blue, red) and (green, alpha) channels, one per 16-bit lane.
    @inline(__always)
    private static func split(_ v: SIMD4<UInt32>) -> (SIMD8<UInt16>, SIMD8<UInt16>) {
        let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        return (unsafeBitCast(v & mask, to: SIMD8<UInt16>.self), unsafeBitCast((v &>> 8) & mask, to: SIMD8<UInt16>.self))
    }

    /// Joins channel lanes holding sums scaled by 256 (plus rounding) back into pixels.
    @inline(__always)
    private static func join(_ rb: SIMD8<UInt16>, _ ag: SIMD8<UInt16>) -> SIMD4<UInt32> {
        unsafeBitCast(rb &>> 8, to: SIMD4<UInt32>.self) | unsafeBitCast(ag & SIMD8<UInt16>(repeating: 0xFF00), to: SIMD4<UInt32>.self)
    }

    /// Weighted sum of three source rows (weights summing to 256; each lane ≤ 255·256 + 128).
    @inline(__always)
    private static func boxVertical(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, _ c: UnsafePointer<UInt32>,
                                    _ wa: UInt16, _ wb: UInt16, _ wc: UInt16, _ out: UnsafeMutablePointer<UInt32>, _ n: Int) {
        let va = SIMD8<UInt16>(repeating: wa), vb = SIMD8<UInt16>(repeating: wb), vc = SIMD8<UInt16>(repeating: wc)
        let half = SIMD8<UInt16>(repeating: 128)
        var i = 0
        while i + 4 <= n {
            let (ar, ag) = split(UnsafeRawPointer(a + i).loadUnaligned(as: SIMD4<UInt32>.self))
            let (br, bg) = split(UnsafeRawPointer(b + i).loadUnaligned(as: SIMD4<UInt32>.self))
            let (cr, cg) = split(UnsafeRawPointer(c + i).loadUnaligned(as: SIMD4<UInt32>.self))
            let rb = ar &* va &+ br &* vb &+ cr &* vc &+ half
            let gg = ag &* va &+ bg &* vb &+ cg &* vc &+ half
            UnsafeMutableRawPointer(out + i).storeBytes(of: join(rb, gg), as: SIMD4<UInt32>.self)
            i += 4
        }
        while i < n {
            out[i] = boxPixel(a[i], b[i], c[i], UInt32(wa), UInt32(wb), UInt32(wc))
            i += 1
        }
    }

    /// Three horizontal taps per output pixel from a filtered row, four pixels per step.
    @inline(__always)
    private static func boxHorizontal(_ line: UnsafeRawPointer, _ off: UnsafePointer<Int>, _ wts: UnsafePointer<UInt32>,
                                      _ out: UnsafeMutablePointer<UInt32>, _ n: Int) {
        let half = SIMD8<UInt16>(repeating: 128)
        let w0 = UnsafeRawPointer(wts), w1 = UnsafeRawPointer(wts + n), w2 = UnsafeRawPointer(wts + 2 * n)
        @inline(__always) func gather(_ o: SIMD4<Int>, _ d: Int) -> SIMD4<UInt32> {
            SIMD4<UInt32>(line.load(fromByteOffset: o[0] + d, as: UInt32.self), line.load(fromByteOffset: o[1] + d, as: UInt32.self),
                          line.load(fromByteOffset: o[2] + d, as: UInt32.self), line.load(fromByteOffset: o[3] + d, as: UInt32.self))
        }
        var i = 0
        while i + 4 <= n {
            let o = UnsafeRawPointer(off + i).loadUnaligned(as: SIMD4<Int>.self)
            let (ar, ag) = split(gather(o, 0)), (br, bg) = split(gather(o, 4)), (cr, cg) = split(gather(o, 8))
            let wa = w0.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt16>.self)
            let wb = w1.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt16>.self)
            let wc = w2.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt16>.self)
            let rb = ar &* wa &+ br &* wb &+ cr &* wc &+ half
            let gg = ag &* wa &+ bg &* wb &+ cg &* wc &+ half
            UnsafeMutableRawPointer(out + i).storeBytes(of: join(rb, gg), as: SIMD4<UInt32>.self)
            i += 4
        }
        while i < n {
            let o = off[i]
            out[i] = boxPixel(line.load(fromByteOffset: o, as: UInt32.self), line.load(fromByteOffset: o + 4, as: UInt32.self),
                              line.load(fromByteOffset: o + 8, as: UInt32.self),
                              wts[i] & 0xFFFF, wts[n + i] & 0xFFFF, wts[2 * n + i] & 0xFFFF)
            i += 1
        }
    }

    /// The same arithmetic as the vector paths for one pixel.
    @inline(__always)
    private static func boxPixel(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ wa: UInt32, _ wb: UInt32, _ wc: UInt32) -> UInt32 {
        let m: UInt32 = 0x00FF_00FF
        let rb = (a & m) &* wa &+ (b & m) &* wb &+ (c & m) &* wc &+ 0x0080_0080
        let ag = ((a >> 8) & m) &* wa &+ ((b >> 8) & m) &* wb &+ ((c >> 8) & m) &* wc &+ 0x0080_0080
        return ((rb >> 8) & m) | (ag & ~m)
    }

    /// Any number of taps (steps above 2): the same arithmetic, one tap at a time.
    private static func boxGeneral(source: Framebuffer, sourceOrigin: (x: Int, y: Int), xTaps: [(first: Int, weights: [UInt16])],
                                   columns: Range<Int>, yAxis: ResampleAxis, output: PixelRect, target: Framebuffer,
                                   at: (x: Int, y: Int)) {
        let width = columns.count
        let x0 = columns.lowerBound - sourceOrigin.x
        var line = [UInt32](repeating: 0, count: width)
        for r in 0..<output.height {
            let (fy, wys) = yAxis.boxTaps(output.y + r)
            for k in 0..<width {
                var rb: UInt32 = 0x0080_0080, ag: UInt32 = 0x0080_0080
                for (j, w) in wys.enumerated() {
                    let p = source[x0 + k, fy + j - sourceOrigin.y]
                    rb &+= (p & 0x00FF_00FF) &* UInt32(w)
                    ag &+= ((p >> 8) & 0x00FF_00FF) &* UInt32(w)
                }
                line[k] = ((rb >> 8) & 0x00FF_00FF) | (ag & 0xFF00_FF00)
            }
            let out = target.pointer(x: at.x, y: at.y + r)
            for (i, t) in xTaps.enumerated() {
                var rb: UInt32 = 0x0080_0080, ag: UInt32 = 0x0080_0080
                for (j, w) in t.weights.enumerated() {
                    let p = line[t.first - columns.lowerBound + j]
                    rb &+= (p & 0x00FF_00FF) &* UInt32(w)
                    ag &+= ((p >> 8) & 0x00FF_00FF) &* UInt32(w)
                }
                out[i] = ((rb >> 8) & 0x00FF_00FF) | (ag & 0xFF00_FF00)
            }
        }
    }
}
