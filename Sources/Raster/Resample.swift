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

    /// The horizontal taps of a row of output pixels, in memory lent for one call: per output
    /// pixel the byte offset of its left sample within a source row; the same as a step in
    /// pixels from the previous output pixel's left sample (`steps`, one byte each, 0 where it
    /// does not fit or a run starts); and the 7-bit weight of its right sample. (Small tables:
    /// source rows stream through the first-level cache and push them out on every row.)
    private struct BilinearTaps {
        let offsets: UnsafeMutablePointer<Int32>
        let steps: UnsafeMutablePointer<UInt8>
        let weights: UnsafeMutablePointer<UInt16>

        /// Sets pixel `i`'s taps: left sample at byte `offset`, right sample weighing `w`/128.
        @inline(__always)
        func set(_ i: Int, offset: Int, weight w: UInt16) {
            offsets[i] = Int32(offset)
            weights[i] = w
        }

        /// Fills `steps` from the offsets of pixels `0..<n`; false when a step forward does not
        /// fit in a byte. (Steps back happen only where the tile path starts a run, in a new
        /// tile; runs take their first sample from `offsets`.)
        func setSteps(_ n: Int) -> Bool {
            var fits = true
            for i in 0..<n {
                let d = i == 0 ? 0 : Int(offsets[i] - offsets[i - 1]) / 4
                steps[i] = UInt8(clamping: max(d, 0))
                if d > 255 { fits = false }
            }
            return fits
        }

        /// The weight of pixel `i`'s right sample.
        @inline(__always)
        func weight(_ i: Int) -> UInt32 { UInt32(weights[i]) }

        /// The taps of the pixels from `i` on.
        @inline(__always)
        func dropping(_ i: Int) -> BilinearTaps {
            BilinearTaps(offsets: offsets + i, steps: steps + i, weights: weights + i)
        }
    }

    /// Runs `body` with taps for `n` pixels and `scratchBytes` bytes of scratch memory, both
    /// lent for the call (no array is allocated per resample).
    @inline(__always)
    private static func withTaps<R>(_ n: Int, scratchBytes: Int, _ body: (BilinearTaps, UnsafeMutableRawPointer) -> R) -> R {
        // Per pixel: an offset (4 bytes), a weight (2 bytes) and a step (1 byte, and 4 more at
        // the end: steps are read 4 at a time, from one past the pixel), each table 16-aligned.
        let weightBytes = (2 * n + 15) / 16 * 16, stepBytes = (n + 4 + 15) / 16 * 16
        return withUnsafeTemporaryAllocation(byteCount: 4 * n + weightBytes + stepBytes + scratchBytes, alignment: 16) { raw in
            let base = raw.baseAddress!
            let taps = BilinearTaps(offsets: (base + weightBytes + stepBytes).bindMemory(to: Int32.self, capacity: n),
                                    steps: (base + weightBytes).bindMemory(to: UInt8.self, capacity: stepBytes),
                                    weights: base.bindMemory(to: UInt16.self, capacity: n))
            return body(taps, base + 4 * n + weightBytes + stepBytes)
        }
    }

    /// Largest horizontal step (source pixels per output pixel) at which a row pair is first
    /// mixed vertically once per source column into scratch memory, and output pixels then
    /// only mix the two columns they read: enlarging, each column serves one output pixel or
    /// more, which repays the extra pass. Measured against pixman in raster-bench's 1080p
    /// resample (two-pass vs direct): step 0.6 0.83 vs 1.09, 0.9 0.99 vs 1.07, 1.2 1.07 vs
    /// 1.05, 1.5 1.14 vs 1.06, 1.8 1.22 vs 1.07.
    static let bilinearTwoPassMaxStep = 1.0

    private static func bilinear(source: Framebuffer, sourceOrigin: (x: Int, y: Int), xAxis: ResampleAxis,
                                 yAxis: ResampleAxis, output: PixelRect, target: Framebuffer, at: (x: Int, y: Int)) {
        let n = output.width
        let narrow = source.width < 2
        let twoPass = !narrow && xAxis.step <= bilinearTwoPassMaxStep
        // The two-pass scratch row holds the span of source columns the taps read, 8 bytes each.
        let span = twoPass ? xAxis.sourceRange(for: output.x..<output.maxX, bilinear: true).count + 1 : 0
        withTaps(n, scratchBytes: 8 * span) { taps, scratch in
            for i in 0..<n {
                let (index, w) = xAxis.bilinearTap(output.x + i)
                taps.set(i, offset: (index - sourceOrigin.x) * 4, weight: w)
            }
            let stepped = taps.setSteps(n)
            for row in 0..<output.height {
                let (yi, wy) = yAxis.bilinearTap(output.y + row)
                let y0 = yi - sourceOrigin.y
                let y1 = min(y0 + 1, source.height - 1)
                let r0 = UnsafeRawPointer(source.pointer(x: 0, y: y0))
                let r1 = UnsafeRawPointer(source.pointer(x: 0, y: y1))
                let out = target.pointer(x: at.x, y: at.y + row)
                if narrow {
                    bilinearRowNarrow(r0, r1, wy, taps, out, n)
                } else {
                    bilinearRow(r0, r1, wy, taps, out, n, scratch: twoPass ? scratch : nil, stepped: stepped)
                }
            }
        }
    }

    /// Rounded 7-bit mix of two vectors of 8-bit channels held in 16-bit lanes,
    /// (a·(128 − w) + b·w + 64) >> 7, computed as a + ((b − a)·w + 64) >> 7 (arithmetic shift;
    /// the same value, as 128·a divides by 128 exactly) with one multiply instead of two:
    /// |(b − a)·w| + 64 ≤ 255·128 + 64 < 2¹⁵, so the signed lanes never overflow.
    @inline(__always)
    private static func mix(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ w: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let d = unsafeBitCast((b &- a) &* w &+ SIMD8(repeating: 64), to: SIMD8<Int16>.self) &>> 7
        return a &+ unsafeBitCast(d, to: SIMD8<UInt16>.self)
    }

    /// `mix` for the four channels of one pixel.
    @inline(__always)
    private static func mix(_ a: SIMD4<UInt16>, _ b: SIMD4<UInt16>, _ w: SIMD4<UInt16>) -> SIMD4<UInt16> {
        let d = unsafeBitCast((b &- a) &* w &+ SIMD4(repeating: 64), to: SIMD4<Int16>.self) &>> 7
        return a &+ unsafeBitCast(d, to: SIMD4<UInt16>.self)
    }

    /// The horizontal mix of two output pixels from their vertically mixed samples (`a` of the
    /// first pixel, `b` of the second, each its left then its right sample) with their
    /// weights `w` (each over four lanes): their left samples side by side, the right ones too.
    @inline(__always)
    private static func mixPairs(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ w: SIMD8<UInt16>) -> SIMD8<UInt16> {
        mix(SIMD8(lowHalf: a.lowHalf, highHalf: b.lowHalf), SIMD8(lowHalf: a.highHalf, highHalf: b.highHalf), w)
    }

    /// Four pixels' channels (16-bit lanes) back to bytes.
    @inline(__always)
    private static func pack(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD16<UInt8> {
        SIMD16<UInt8>(truncatingIfNeeded: SIMD16(lowHalf: a, highHalf: b))
    }

    /// Two pixels' weights, each over the four lanes of its channels.
    @inline(__always)
    private static func spread(_ w: SIMD2<UInt16>) -> SIMD8<UInt16> {
        SIMD8(w[0], w[0], w[0], w[0], w[1], w[1], w[1], w[1])
    }

    /// The channels of two neighbouring pixels (8 bytes) in 16-bit lanes.
    @inline(__always)
    private static func widen(_ p: SIMD8<UInt8>) -> SIMD8<UInt16> { SIMD8<UInt16>(truncatingIfNeeded: p) }

    /// One output row of `n` pixels, source rows `r0` and `r1` mixed with weights 128 − `wy`
    /// and `wy`, then the left and right samples with the taps' weights (vertical, then
    /// horizontal, each rounded). Each output pixel loads its left and right samples together,
    /// 8 bytes per source row; all four channels are mixed at once, one per 16-bit lane.
    ///
    /// With `scratch`, the rows are mixed first once per source column the taps span (8 bytes
    /// of scratch per column), and output pixels read their two mixed columns from there.
    @inline(__always)
    private static func bilinearRow(_ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, _ wy: UInt16, _ taps: BilinearTaps,
                                    _ out: UnsafeMutablePointer<UInt32>, _ n: Int, scratch: UnsafeMutableRawPointer?,
                                    stepped: Bool) {
        let wb = SIMD8<UInt16>(repeating: wy)
        let off = taps.offsets
        if let scratch {
            let first = Int(off[0]), bytes = Int(off[n - 1]) + 8 - first
            mixRows(r0 + first, r1 + first, wb, scratch, bytes)
            let mixed = UnsafeRawPointer(scratch)
            mixColumns(taps, out, n) { i in mixed.loadUnaligned(fromByteOffset: 2 &* (Int(off[i]) &- first), as: SIMD8<UInt16>.self) }
        } else if stepped {
            // Four pixels at a time, their samples found by adding the steps (read together) to
            // a running source pixel: no load stands between one pixel's samples and the next's.
            let w = UnsafeRawPointer(taps.weights), steps = UnsafeRawPointer(taps.steps)
            let o = UnsafeMutableRawPointer(out)
            @inline(__always) func column(_ x: Int) -> SIMD8<UInt16> {
                mix(widen(r0.loadUnaligned(fromByteOffset: 4 &* x, as: SIMD8<UInt8>.self)),
                    widen(r1.loadUnaligned(fromByteOffset: 4 &* x, as: SIMD8<UInt8>.self)), wb)
            }
            var x = Int(off[0]) >> 2, i = 0
            while i &+ 4 <= n {
                let d = Int(steps.loadUnaligned(fromByteOffset: i &+ 1, as: UInt32.self))
                let x1 = x &+ (d & 0xFF), x2 = x1 &+ (d >> 8 & 0xFF), x3 = x2 &+ (d >> 16 & 0xFF)
                let wx = w.loadUnaligned(fromByteOffset: 2 &* i, as: SIMD4<UInt16>.self)
                let px = pack(mixPairs(column(x), column(x1), spread(wx.lowHalf)),
                              mixPairs(column(x2), column(x3), spread(wx.highHalf)))
                o.storeBytes(of: px, toByteOffset: 4 &* i, as: SIMD16<UInt8>.self)
                x = x3 &+ d >> 24
                i &+= 4
            }
            if i < n { bilinearRowOffsets(r0, r1, wb, taps.dropping(i), out + i, n - i) }
        } else {
            bilinearRowOffsets(r0, r1, wb, taps, out, n)
        }
    }

    /// `bilinearRow` one pixel's samples at a time, from their offsets.
    @inline(__always)
    private static func bilinearRowOffsets(_ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, _ wb: SIMD8<UInt16>,
                                           _ taps: BilinearTaps, _ out: UnsafeMutablePointer<UInt32>, _ n: Int) {
        let off = taps.offsets
        mixColumns(taps, out, n) { i in
            let o = Int(off[i])
            return mix(widen(r0.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt8>.self)),
                       widen(r1.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt8>.self)), wb)
        }
    }

    /// The horizontal half of `bilinearRow`: `column(i)` gives output pixel `i`'s left and
    /// right samples, already mixed vertically, as 8 channel lanes (left pixel first).
    @inline(__always)
    private static func mixColumns(_ taps: BilinearTaps, _ out: UnsafeMutablePointer<UInt32>, _ n: Int,
                                   _ column: (Int) -> SIMD8<UInt16>) {
        let w = UnsafeRawPointer(taps.weights)
        let o = UnsafeMutableRawPointer(out)
        @inline(__always) func two(_ i: Int) -> SIMD8<UInt16> {
            mixPairs(column(i), column(i + 1), spread(w.loadUnaligned(fromByteOffset: 2 &* i, as: SIMD2<UInt16>.self)))
        }
        var i = 0
        while i &+ 4 <= n {
            let px = pack(two(i), two(i &+ 2))
            o.storeBytes(of: px, toByteOffset: 4 &* i, as: SIMD16<UInt8>.self)
            i += 4
        }
        if i + 2 <= n {
            o.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: two(i)), toByteOffset: 4 * i, as: SIMD8<UInt8>.self)
            i += 2
        }
        if i < n {
            let a = column(i)
            let px = mix(a.lowHalf, a.highHalf, SIMD4(repeating: taps.weights[i]))
            o.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: px), toByteOffset: 4 * i, as: SIMD4<UInt8>.self)
        }
    }

    /// The vertical pass of two-pass rows: `bytes` bytes (whole pixels) of rows `a` and `b`
    /// mixed with weight `wb` of `b` into `out`, each channel in a 16-bit lane.
    @inline(__always)
    private static func mixRows(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ wb: SIMD8<UInt16>,
                                _ out: UnsafeMutableRawPointer, _ bytes: Int) {
        var k = 0
        while k + 16 <= bytes {
            let x = a.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
            let y = b.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
            out.storeBytes(of: mix(widen(x.lowHalf), widen(y.lowHalf), wb), toByteOffset: 2 * k, as: SIMD8<UInt16>.self)
            out.storeBytes(of: mix(widen(x.highHalf), widen(y.highHalf), wb), toByteOffset: 2 * k + 16, as: SIMD8<UInt16>.self)
            k += 16
        }
        if k + 8 <= bytes {
            let x = a.loadUnaligned(fromByteOffset: k, as: SIMD8<UInt8>.self), y = b.loadUnaligned(fromByteOffset: k, as: SIMD8<UInt8>.self)
            out.storeBytes(of: mix(widen(x), widen(y), wb), toByteOffset: 2 * k, as: SIMD8<UInt16>.self)
            k += 8
        }
        if k < bytes {
            let x = SIMD4<UInt16>(truncatingIfNeeded: a.loadUnaligned(fromByteOffset: k, as: SIMD4<UInt8>.self))
            let y = SIMD4<UInt16>(truncatingIfNeeded: b.loadUnaligned(fromByteOffset: k, as: SIMD4<UInt8>.self))
            out.storeBytes(of: mix(x, y, wb.lowHalf), toByteOffset: 2 * k, as: SIMD4<UInt16>.self)
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
    private static func bilinearRowNarrow(_ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, _ wy: UInt16, _ taps: BilinearTaps,
                                          _ out: UnsafeMutablePointer<UInt32>, _ n: Int) {
        let a = r0.load(as: UInt32.self), b = r1.load(as: UInt32.self)
        for i in 0..<n { out[i] = bilinearPixel(a, a, b, b, wy, taps.weight(i)) }
    }

    /// A run of output pixels whose left samples lie in one tile column (`straddles`: a single
    /// pixel whose right sample lies in the next tile column).
    private struct TileRun {
        var start: Int, count: Int, column: Int, straddles: Bool
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
        let twoPass = xAxis.step <= bilinearTwoPassMaxStep
        // A run's left samples lie in one tile and its right ones too: at most `size` columns.
        let span = twoPass ? min(size, xAxis.sourceRange(for: output.x..<output.maxX, bilinear: true).count) + 1 : 0
        withTaps(n, scratchBytes: 8 * span) { taps, scratch in
            withUnsafeTemporaryAllocation(of: TileRun.self, capacity: n) { runBuffer in
                // Offsets of left samples within their tile's row, weights as in `bilinear`, and the
                // runs of columns sharing a tile column (a straddling pixel is a run of its own).
                let runs = runBuffer.baseAddress!
                var count = 0
                for i in 0..<n {
                    let (index, w) = xAxis.bilinearTap(output.x + i)
                    let column = floorDivide(index, size), within = index - column * size
                    taps.set(i, offset: within * 4, weight: w)
                    let straddles = within == size - 1
                    if count > 0, !straddles, !runs[count - 1].straddles, runs[count - 1].column == column {
                        runs[count - 1].count += 1
                    } else {
                        (runs + count).initialize(to: TileRun(start: i, count: 1, column: column, straddles: straddles))
                        count += 1
                    }
                }
                let stepped = taps.setSteps(n)
                for row in 0..<output.height {
                    let (yi, wy) = yAxis.bilinearTap(output.y + row)
                    let y1 = min(yi + 1, yAxis.upper - 1)
                    let tr0 = floorDivide(yi, size), tr1 = floorDivide(y1, size)
                    let out = target.pointer(x: at.x, y: at.y + row)
                    for k in 0..<count {
                        let run = runs[k]
                        let a = tile(run.column, tr0), b = tile(run.column, tr1)
                        let r0 = UnsafeRawPointer(a.pointer(x: 0, y: yi - tr0 * size))
                        let r1 = UnsafeRawPointer(b.pointer(x: 0, y: y1 - tr1 * size))
                        let i = run.start
                        if run.straddles {
                            // The right samples are the first column of the next tile.
                            let c = tile(run.column + 1, tr0), d = tile(run.column + 1, tr1)
                            let o = Int(taps.offsets[i])
                            out[i] = bilinearPixel(r0.load(fromByteOffset: o, as: UInt32.self),
                                                   c.pointer(x: 0, y: yi - tr0 * size).pointee,
                                                   r1.load(fromByteOffset: o, as: UInt32.self),
                                                   d.pointer(x: 0, y: y1 - tr1 * size).pointee, wy, taps.weight(i))
                            continue
                        }
                        bilinearRow(r0, r1, wy, taps.dropping(i), out + i, run.count, scratch: twoPass ? scratch : nil,
                                    stepped: stepped)
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
