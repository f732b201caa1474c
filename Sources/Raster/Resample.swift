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
        let count = boxSpan(u)
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { buffer in
            let (first, folded) = boxTaps(u, into: buffer.baseAddress!)
            return (first, Array(buffer[0..<folded]))
        }
    }

    /// How many source pixels output pixel `u` overlaps before clamping: room enough for
    /// its weights in `boxTaps(_:into:)`.
    @inline(__always)
    func boxSpan(_ u: Int) -> Int {
        let start = Double(u) * step, end = Double(u + 1) * step
        let i0 = Int(start.rounded(.down))
        return max(i0 + 1, Int(end.rounded(.up))) - i0
    }

    /// `boxTaps(_:)` written into memory with room for `boxSpan(u)` weights: returns the first
    /// source pixel and how many weights (consecutive source pixels) follow in `weights`.
    @inline(__always)
    func boxTaps(_ u: Int, into weights: UnsafeMutablePointer<UInt16>) -> (first: Int, count: Int) {
        let start = Double(u) * step, end = Double(u + 1) * step
        let i0 = Int(start.rounded(.down)), i1 = max(i0 + 1, Int(end.rounded(.up)))
        // Clamp: samples outside the source fold onto its edge pixels (the clamped indices
        // rise by 0 or 1 per sample, so a sample adds to the last weight or starts the next).
        let first = min(max(i0, lower), upper - 1)
        var count = 0, previous = 0
        for i in i0..<i1 {
            // Cumulative rounding makes the weights sum to exactly 256.
            let covered = (min(Double(i + 1), end) - start) / step
            let cumulative = Int((covered * Double(Self.boxOne)).rounded())
            let w = UInt16(cumulative - previous)
            previous = cumulative
            let index = min(max(i, lower), upper - 1) - first
            if index >= count {
                weights[count] = w
                count += 1
            } else {
                weights[index] += w
            }
        }
        return (first, count)
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
    /// does not fit or a run starts); and the 7-bit weight of its right sample times 256 (as
    /// `mixHorizontal` takes it), twice over: a pixel's weight is one 32-bit word, which one
    /// shuffle spreads over its four channel lanes (spreading single 16-bit weights took the
    /// compiler up to 8 instructions).
    /// (Small tables: source rows stream through the first-level cache and push them out on
    /// every row.)
    private struct BilinearTaps {
        let offsets: UnsafeMutablePointer<Int32>
        let steps: UnsafeMutablePointer<UInt8>
        /// Two per pixel.
        let weights: UnsafeMutablePointer<UInt16>

        /// Sets pixel `i`'s taps: left sample at byte `offset`, right sample weighing `w`/128.
        @inline(__always)
        func set(_ i: Int, offset: Int, weight w: UInt16) {
            offsets[i] = Int32(offset)
            (weights + 2 * i).initialize(repeating: w << 8, count: 2)
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

        /// The 7-bit weight of pixel `i`'s right sample.
        @inline(__always)
        func weight(_ i: Int) -> UInt32 { UInt32(weights[2 * i]) >> 8 }

        /// The right weights of pixels `i` and `i + 1`, over the lanes of their channels.
        @inline(__always)
        func weights(_ i: Int) -> SIMD8<UInt16> {
            let w = UnsafeRawPointer(weights).loadUnaligned(fromByteOffset: 4 &* i, as: SIMD2<UInt32>.self)
            return unsafeBitCast(SIMD4(w[0], w[0], w[1], w[1]), to: SIMD8<UInt16>.self)
        }

        /// The taps of the pixels from `i` on.
        @inline(__always)
        func dropping(_ i: Int) -> BilinearTaps {
            BilinearTaps(offsets: offsets + i, steps: steps + i, weights: weights + 2 * i)
        }
    }

    /// Runs `body` with taps for `n` pixels and `scratchBytes` bytes of scratch memory, both
    /// lent for the call (no array is allocated per resample).
    @inline(__always)
    private static func withTaps<R>(_ n: Int, scratchBytes: Int, _ body: (BilinearTaps, UnsafeMutableRawPointer) -> R) -> R {
        // Per pixel: an offset (4 bytes), a weight (2 × 2 bytes) and a step (1 byte, and 4 more
        // at the end: steps are read 4 at a time, from one past the pixel), each table 16-aligned.
        let weightBytes = (4 * n + 15) / 16 * 16, stepBytes = (n + 4 + 15) / 16 * 16
        return withUnsafeTemporaryAllocation(byteCount: 4 * n + weightBytes + stepBytes + scratchBytes, alignment: 16) { raw in
            let base = raw.baseAddress!
            let taps = BilinearTaps(offsets: (base + weightBytes + stepBytes).bindMemory(to: Int32.self, capacity: n),
                                    steps: (base + weightBytes).bindMemory(to: UInt8.self, capacity: stepBytes),
                                    weights: base.bindMemory(to: UInt16.self, capacity: 2 * n))
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
            func rows(_ row: Int) -> SourceRows {
                let (yi, wy) = yAxis.bilinearTap(output.y + row)
                let y0 = yi - sourceOrigin.y, y1 = min(y0 + 1, source.height - 1)
                return SourceRows(upper: UnsafeRawPointer(source.pointer(x: 0, y: y0)),
                                  lower: UnsafeRawPointer(source.pointer(x: 0, y: y1)), wy: wy,
                                  out: target.pointer(x: at.x, y: at.y + row))
            }
            // Output rows two at a time (see `steppedRows`).
            for row in stride(from: 0, to: output.height, by: 2) {
                let a = rows(row), b = row + 1 < output.height ? rows(row + 1) : nil
                if narrow {
                    bilinearRowNarrow(a.upper, a.lower, a.wy, taps, a.out, n)
                    if let b { bilinearRowNarrow(b.upper, b.lower, b.wy, taps, b.out, n) }
                } else {
                    bilinearRows(a, b, taps, n, scratch: twoPass ? scratch : nil, stepped: stepped)
                }
            }
        }
    }

    /// The weights of a row pair: twice the 7-bit weights 128 − wy and wy of the upper and
    /// the lower row, over every lane.
    private struct RowWeights {
        let upper: SIMD8<UInt16>, lower: SIMD8<UInt16>

        @inline(__always)
        init(_ wy: UInt16) {
            upper = SIMD8(repeating: 2 &* (128 &- wy))
            lower = SIMD8(repeating: 2 &* wy)
        }
    }

    /// The vertical mix, exact: 8-bit channels of the upper (`a`) and lower (`b`) row in
    /// 16-bit lanes weighed by twice their 7-bit weights, which gives 256 times the mixed
    /// channel (at most 255·256 < 2¹⁶: nothing is lost, nothing overflows).
    @inline(__always)
    private static func mixVertical(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ w: RowWeights) -> SIMD8<UInt16> {
        a &* w.upper &+ b &* w.lower
    }

    /// `mixVertical` for the four channels of one pixel.
    @inline(__always)
    private static func mixVertical(_ a: SIMD4<UInt16>, _ b: SIMD4<UInt16>, _ w: RowWeights) -> SIMD4<UInt16> {
        a &* w.upper.lowHalf &+ b &* w.lower.lowHalf
    }

    /// The horizontal mix of vertically mixed columns (256 times a channel), rounded back to
    /// 8 bits: the left (`l`) and right (`r`) columns times their weights 128 − wx and wx
    /// (`wr` is wx·256), the high half of each product kept (128 times the column's share,
    /// truncated), summed and rounded: (⌊l·(128 − wx)·256 / 2¹⁶⌋ + ⌊r·wx·256 / 2¹⁶⌋ + 64) >> 7.
    /// The truncations lose less than 2/128 of a step, so the result is the exact bilinear
    /// value rounded or one below it (pixman truncates the exact value: one below or equal);
    /// one multiply per sample and lane, where rounding after each mix took two. (Measured in
    /// raster-bench's 1080p bilinear: 1.08× pixman with rounding after each mix.)
    @inline(__always)
    private static func mixHorizontal(_ l: SIMD8<UInt16>, _ r: SIMD8<UInt16>, _ wr: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let wl = SIMD8<UInt16>(repeating: 0x8000) &- wr
        return (multiplyHigh(l, wl) &+ multiplyHigh(r, wr) &+ SIMD8(repeating: 64)) &>> 7
    }

    /// `mixHorizontal` for the four channels of one pixel.
    @inline(__always)
    private static func mixHorizontal(_ l: SIMD4<UInt16>, _ r: SIMD4<UInt16>, _ wr: SIMD4<UInt16>) -> SIMD4<UInt16> {
        let wl = SIMD4<UInt16>(repeating: 0x8000) &- wr
        return (multiplyHigh(l, wl) &+ multiplyHigh(r, wr) &+ SIMD4(repeating: 64)) &>> 7
    }

    /// ⌊a·b / 2¹⁶⌋ per lane, written so that the compiler emits one `pmulhuw`.
    @inline(__always)
    private static func multiplyHigh(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        SIMD8<UInt16>(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: a) &* SIMD8<UInt32>(truncatingIfNeeded: b)) &>> 16)
    }

    /// `multiplyHigh` over four lanes.
    @inline(__always)
    private static func multiplyHigh(_ a: SIMD4<UInt16>, _ b: SIMD4<UInt16>) -> SIMD4<UInt16> {
        SIMD4<UInt16>(truncatingIfNeeded: (SIMD4<UInt32>(truncatingIfNeeded: a) &* SIMD4<UInt32>(truncatingIfNeeded: b)) &>> 16)
    }

    /// The horizontal mix of two output pixels from their vertically mixed samples (`a` of the
    /// first pixel, `b` of the second, each its left then its right sample) with their right
    /// samples' weights `w` (each over four lanes): their left samples side by side, the right
    /// ones too.
    @inline(__always)
    private static func mixPairs(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ w: SIMD8<UInt16>) -> SIMD8<UInt16> {
        mixHorizontal(SIMD8(lowHalf: a.lowHalf, highHalf: b.lowHalf), SIMD8(lowHalf: a.highHalf, highHalf: b.highHalf), w)
    }

    /// Four pixels' channels (16-bit lanes) back to bytes.
    @inline(__always)
    private static func pack(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD16<UInt8> {
        SIMD16<UInt8>(truncatingIfNeeded: SIMD16(lowHalf: a, highHalf: b))
    }

    /// The channels of two neighbouring pixels (8 bytes) in 16-bit lanes.
    @inline(__always)
    private static func widen(_ p: SIMD8<UInt8>) -> SIMD8<UInt16> { SIMD8<UInt16>(truncatingIfNeeded: p) }

    /// An output row and the two source rows it is mixed from, the upper weighing 128 − `wy`.
    private struct SourceRows {
        let upper: UnsafeRawPointer, lower: UnsafeRawPointer
        let wy: UInt16
        let out: UnsafeMutablePointer<UInt32>
    }

    /// One output row of `n` pixels (and a second, `also`, with the same taps), its source
    /// rows mixed with weights 128 − wy and wy, then the left and right samples with the taps'
    /// weights (`mixVertical`, then `mixHorizontal`). Each output pixel loads its left and
    /// right samples together, 8 bytes per source row; all four channels are mixed at once,
    /// one per 16-bit lane.
    ///
    /// With `scratch`, the rows are mixed first once per source column the taps span (8 bytes
    /// of scratch per column), and output pixels read their two mixed columns from there.
    @inline(__always)
    private static func bilinearRows(_ row: SourceRows, _ also: SourceRows?, _ taps: BilinearTaps, _ n: Int,
                                     scratch: UnsafeMutableRawPointer?, stepped: Bool) {
        let off = taps.offsets
        @inline(__always) func each(_ body: (SourceRows) -> Void) {
            body(row)
            if let also { body(also) }
        }
        if let scratch {
            let first = Int(off[0]), bytes = Int(off[n - 1]) + 8 - first
            let mixed = UnsafeRawPointer(scratch)
            each { r in
                mixRows(r.upper + first, r.lower + first, RowWeights(r.wy), scratch, bytes)
                mixColumns(taps, r.out, n) { i in
                    mixed.loadUnaligned(fromByteOffset: 2 &* (Int(off[i]) &- first), as: SIMD8<UInt16>.self)
                }
            }
        } else if stepped {
            steppedRows(row, also, taps, n)
        } else {
            each { r in bilinearRowOffsets(r.upper, r.lower, RowWeights(r.wy), taps, r.out, n) }
        }
    }

    /// `bilinearRows` four pixels at a time, their samples found by adding the steps (read
    /// together) to a running source pixel: no load stands between one pixel's samples and the
    /// next's. Two output rows go along together (`also`): the four source rows they read
    /// stream from memory at once, where one row after the other left the loads waiting
    /// (raster-bench's 1080p bilinear, memory-bound: 0.88× pixman, 1.01–1.03× a row at a time).
    @inline(__always)
    private static func steppedRows(_ row: SourceRows, _ also: SourceRows?, _ taps: BilinearTaps, _ n: Int) {
        let steps = UnsafeRawPointer(taps.steps)
        let wa = RowWeights(row.wy), wb = RowWeights(also?.wy ?? 0)
        @inline(__always) func four(_ r: SourceRows, _ w: RowWeights, _ i: Int, _ x: (Int, Int, Int, Int)) {
            @inline(__always) func column(_ x: Int) -> SIMD8<UInt16> {
                mixVertical(widen(r.upper.loadUnaligned(fromByteOffset: 4 &* x, as: SIMD8<UInt8>.self)),
                            widen(r.lower.loadUnaligned(fromByteOffset: 4 &* x, as: SIMD8<UInt8>.self)), w)
            }
            let px = pack(mixPairs(column(x.0), column(x.1), taps.weights(i)),
                          mixPairs(column(x.2), column(x.3), taps.weights(i &+ 2)))
            UnsafeMutableRawPointer(r.out).storeBytes(of: px, toByteOffset: 4 &* i, as: SIMD16<UInt8>.self)
        }
        var x = Int(taps.offsets[0]) >> 2, i = 0
        while i &+ 4 <= n {
            let d = Int(steps.loadUnaligned(fromByteOffset: i &+ 1, as: UInt32.self))
            let x1 = x &+ (d & 0xFF), x2 = x1 &+ (d >> 8 & 0xFF), x3 = x2 &+ (d >> 16 & 0xFF)
            four(row, wa, i, (x, x1, x2, x3))
            if let also { four(also, wb, i, (x, x1, x2, x3)) }
            x = x3 &+ d >> 24
            i &+= 4
        }
        if i < n {
            bilinearRowOffsets(row.upper, row.lower, wa, taps.dropping(i), row.out + i, n - i)
            if let also { bilinearRowOffsets(also.upper, also.lower, wb, taps.dropping(i), also.out + i, n - i) }
        }
    }

    /// `bilinearRows` one pixel's samples at a time, from their offsets.
    @inline(__always)
    private static func bilinearRowOffsets(_ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, _ wb: RowWeights,
                                           _ taps: BilinearTaps, _ out: UnsafeMutablePointer<UInt32>, _ n: Int) {
        let off = taps.offsets
        mixColumns(taps, out, n) { i in
            let o = Int(off[i])
            return mixVertical(widen(r0.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt8>.self)),
                               widen(r1.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt8>.self)), wb)
        }
    }

    /// The horizontal half of `bilinearRows`: `column(i)` gives output pixel `i`'s left and
    /// right samples, already mixed vertically, as 8 channel lanes (left pixel first).
    @inline(__always)
    private static func mixColumns(_ taps: BilinearTaps, _ out: UnsafeMutablePointer<UInt32>, _ n: Int,
                                   _ column: (Int) -> SIMD8<UInt16>) {
        let o = UnsafeMutableRawPointer(out)
        @inline(__always) func two(_ i: Int) -> SIMD8<UInt16> {
            mixPairs(column(i), column(i + 1), taps.weights(i))
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
            let px = mixHorizontal(a.lowHalf, a.highHalf, taps.weights(i).lowHalf)
            o.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: px), toByteOffset: 4 * i, as: SIMD4<UInt8>.self)
        }
    }

    /// The vertical pass of two-pass rows: `bytes` bytes (whole pixels) of rows `a` and `b`
    /// mixed with weights `wb` into `out`, each channel in a 16-bit lane (`mixVertical`).
    @inline(__always)
    private static func mixRows(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ wb: RowWeights,
                                _ out: UnsafeMutableRawPointer, _ bytes: Int) {
        var k = 0
        while k + 16 <= bytes {
            let x = a.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
            let y = b.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
            out.storeBytes(of: mixVertical(widen(x.lowHalf), widen(y.lowHalf), wb), toByteOffset: 2 * k, as: SIMD8<UInt16>.self)
            out.storeBytes(of: mixVertical(widen(x.highHalf), widen(y.highHalf), wb), toByteOffset: 2 * k + 16,
                           as: SIMD8<UInt16>.self)
            k += 16
        }
        if k + 8 <= bytes {
            let x = a.loadUnaligned(fromByteOffset: k, as: SIMD8<UInt8>.self), y = b.loadUnaligned(fromByteOffset: k, as: SIMD8<UInt8>.self)
            out.storeBytes(of: mixVertical(widen(x), widen(y), wb), toByteOffset: 2 * k, as: SIMD8<UInt16>.self)
            k += 8
        }
        if k < bytes {
            let x = SIMD4<UInt16>(truncatingIfNeeded: a.loadUnaligned(fromByteOffset: k, as: SIMD4<UInt8>.self))
            let y = SIMD4<UInt16>(truncatingIfNeeded: b.loadUnaligned(fromByteOffset: k, as: SIMD4<UInt8>.self))
            out.storeBytes(of: mixVertical(x, y, wb), toByteOffset: 2 * k, as: SIMD4<UInt16>.self)
        }
    }

    /// The same arithmetic as `bilinearRows` for one pixel from its four samples, channel by
    /// channel (pixels straddling two tiles, one-pixel-wide sources).
    @inline(__always)
    private static func bilinearPixel(_ tl: UInt32, _ tr: UInt32, _ bl: UInt32, _ br: UInt32, _ wy: UInt16,
                                      _ wx: UInt32) -> UInt32 {
        let upper = 2 * (128 - UInt32(wy)), lower = 2 * UInt32(wy)
        var pixel: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            @inline(__always) func channel(_ p: UInt32) -> UInt32 { (p >> shift) & 0xFF }
            let left = channel(tl) * upper + channel(bl) * lower, right = channel(tr) * upper + channel(br) * lower
            let mixed = (left * ((128 - wx) << 8)) >> 16 + (right * (wx << 8)) >> 16
            pixel |= ((mixed + 64) >> 7) << shift
        }
        return pixel
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
                /// An output row's source rows: their tile rows and rows within those.
                struct Taps {
                    let yi: Int, wy: UInt16, y1: Int, tr0: Int, tr1: Int, row: Int
                }
                func rowTaps(_ row: Int) -> Taps {
                    let (yi, wy) = yAxis.bilinearTap(output.y + row)
                    let y1 = min(yi + 1, yAxis.upper - 1)
                    return Taps(yi: yi, wy: wy, y1: y1, tr0: floorDivide(yi, size), tr1: floorDivide(y1, size), row: row)
                }
                // Output rows two at a time (see `steppedRows`).
                for row in stride(from: 0, to: output.height, by: 2) {
                    let a = rowTaps(row), b = row + 1 < output.height ? rowTaps(row + 1) : nil
                    for k in 0..<count {
                        let run = runs[k], i = run.start
                        func rows(_ s: Taps) -> SourceRows {
                            SourceRows(upper: UnsafeRawPointer(tile(run.column, s.tr0).pointer(x: 0, y: s.yi - s.tr0 * size)),
                                       lower: UnsafeRawPointer(tile(run.column, s.tr1).pointer(x: 0, y: s.y1 - s.tr1 * size)),
                                       wy: s.wy, out: target.pointer(x: at.x + i, y: at.y + s.row))
                        }
                        if run.straddles {
                            // The right samples are the first column of the next tile.
                            func straddle(_ s: Taps) {
                                let r = rows(s), c = tile(run.column + 1, s.tr0), d = tile(run.column + 1, s.tr1)
                                let o = Int(taps.offsets[i])
                                r.out.pointee = bilinearPixel(r.upper.load(fromByteOffset: o, as: UInt32.self),
                                                              c.pointer(x: 0, y: s.yi - s.tr0 * size).pointee,
                                                              r.lower.load(fromByteOffset: o, as: UInt32.self),
                                                              d.pointer(x: 0, y: s.y1 - s.tr1 * size).pointee, s.wy, taps.weight(i))
                            }
                            straddle(a)
                            if let b { straddle(b) }
                            continue
                        }
                        bilinearRows(rows(a), b.map(rows), taps.dropping(i), run.count, scratch: twoPass ? scratch : nil,
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

    /// Most source pixels per output pixel and axis on the box path that reads three samples
    /// per output pixel at once: a step of at most 2 (the renderer shrinks by at most half)
    /// overlaps at most 3 source pixels.
    static let boxFastTaps = 3

    /// The most source pixels any of output pixels `range` overlaps on `axis`.
    private static func boxMostTaps(_ axis: ResampleAxis, _ range: Range<Int>) -> Int {
        var most = 1
        for u in range { most = max(most, axis.boxSpan(u)) }
        return most
    }

    /// Box filtering: per output row, the source rows it covers are summed with their weights
    /// into one filtered row (rounded to 8 bits), then each output pixel sums the filtered
    /// pixels it covers. Per channel and pass: (Σ c·w + 128) >> 8, the weights summing to 256.
    ///
    /// The filtered row is kept as two planes of 16-bit lanes, 4 bytes a pixel each: blue and
    /// red, green and alpha. The horizontal pass multiplies them as they are loaded, and their
    /// sums join back into pixels with a shift and masks.
    private static func box(source: Framebuffer, sourceOrigin: (x: Int, y: Int), xAxis: ResampleAxis,
                            yAxis: ResampleAxis, output: PixelRect, target: Framebuffer, at: (x: Int, y: Int)) {
        let n = output.width
        let columns = xAxis.sourceRange(for: output.x..<output.maxX, bilinear: false)
        let width = columns.count
        let x0 = columns.lowerBound - sourceOrigin.x
        let xMost = boxMostTaps(xAxis, output.x..<output.maxX), yMost = boxMostTaps(yAxis, output.y..<output.maxY)
        let three = xMost <= boxFastTaps
        // Weights per output pixel, zero-padded to 4 on the three-sample path (whose pixels read
        // four samples at once).
        let stride = three ? 4 : xMost
        // Lent for the call, each part 16-aligned: x weights (2 bytes each), first samples
        // (4 bytes a pixel) and steps between them (1 byte a pixel, and 4 more: read 4 at a
        // time from one past the pixel), y weights (2 bytes each) and their rows (a pointer
        // each), and the two planes of the filtered row (4 bytes a source column each, then
        // `stride` zero pixels that the zero-weighted samples of the last pixels read).
        let wBytes = (2 * stride * n + 15) / 16 * 16, oBytes = (4 * n + 15) / 16 * 16, sBytes = (n + 4 + 15) / 16 * 16
        let ywBytes = (2 * yMost + 15) / 16 * 16, rBytes = (MemoryLayout<UnsafeRawPointer>.stride * yMost + 15) / 16 * 16
        let planeBytes = (4 * (width + stride) + 15) / 16 * 16
        withUnsafeTemporaryAllocation(byteCount: wBytes + oBytes + sBytes + ywBytes + rBytes + 2 * planeBytes, alignment: 16) { raw in
            let base = raw.baseAddress!
            let weights = base.bindMemory(to: UInt16.self, capacity: stride * n)
            let firsts = (base + wBytes).bindMemory(to: Int32.self, capacity: n)
            let steps = (base + wBytes + oBytes).bindMemory(to: UInt8.self, capacity: n + 4)
            let yWeights = (base + wBytes + oBytes + sBytes).bindMemory(to: UInt16.self, capacity: yMost)
            let rows = (base + wBytes + oBytes + sBytes + ywBytes).bindMemory(to: UnsafeRawPointer.self, capacity: yMost)
            let rb = base + wBytes + oBytes + sBytes + ywBytes + rBytes, ag = rb + planeBytes
            // Each row fills the planes' first 4·width bytes; the padding is set once.
            (rb + 4 * width).initializeMemory(as: UInt8.self, repeating: 0, count: planeBytes - 4 * width)
            (ag + 4 * width).initializeMemory(as: UInt8.self, repeating: 0, count: planeBytes - 4 * width)
            steps.initialize(repeating: 0, count: n + 4)
            for i in 0..<n {
                let w = weights + stride * i
                let (first, count) = xAxis.boxTaps(output.x + i, into: w)
                (w + count).initialize(repeating: 0, count: stride - count)
                firsts[i] = Int32(first - columns.lowerBound)
                // At most `xMost` apart on the three-sample path (each pixel starts within the
                // previous one's samples or just past them).
                if three, i > 0 { steps[i] = UInt8(firsts[i] - firsts[i - 1]) }
            }
            for r in 0..<output.height {
                let (fy, count) = yAxis.boxTaps(output.y + r, into: yWeights)
                // Rows of zero weight add nothing: left out.
                var m = 0
                for j in 0..<count where yWeights[j] != 0 {
                    rows[m] = UnsafeRawPointer(source.pointer(x: x0, y: fy + j - sourceOrigin.y))
                    yWeights[m] = yWeights[j]
                    m += 1
                }
                boxRows(rows, yWeights, m, rb, ag, 4 * width)
                let out = UnsafeMutableRawPointer(target.pointer(x: at.x, y: at.y + r))
                if three {
                    boxColumnsThree(UnsafeRawPointer(rb), UnsafeRawPointer(ag), UnsafeRawPointer(weights), UnsafeRawPointer(steps),
                                    firsts, out, n)
                } else {
                    for i in 0..<n {
                        let x = 4 * Int(firsts[i])
                        out.storeBytes(of: boxPixel(UnsafeRawPointer(rb + x), UnsafeRawPointer(ag + x), weights + stride * i, stride),
                                       toByteOffset: 4 * i, as: UInt32.self)
                    }
                }
            }
        }
    }

    /// One output pixel from the `count` filtered pixels from `rb` and `ag` on (4 bytes apart
    /// in each plane) weighted by `w` (summing to 256), each channel rounded: (Σ c·w + 128) >> 8.
    @inline(__always)
    private static func boxPixel(_ rb: UnsafeRawPointer, _ ag: UnsafeRawPointer, _ w: UnsafePointer<UInt16>,
                                 _ count: Int) -> UInt32 {
        var x: UInt32 = 0x0080_0080, y: UInt32 = 0x0080_0080
        for j in 0..<count {
            let wj = UInt32(w[j])
            x &+= rb.loadUnaligned(fromByteOffset: 4 &* j, as: UInt32.self) &* wj
            y &+= ag.loadUnaligned(fromByteOffset: 4 &* j, as: UInt32.self) &* wj
        }
        return ((x >> 8) & 0x00FF_00FF) | (y & 0xFF00_FF00)
    }

    /// The vertical pass: `bytes` bytes (whole pixels) of the `m` rows `rows` weighted by
    /// `weights` (summing to 256), each channel rounded back to 8 bits, into the planes `rb`
    /// and `ag`. The channels are summed in 16-bit lanes: at most 255·256 + 128 < 2¹⁶.
    @inline(__always)
    private static func boxRows(_ rows: UnsafePointer<UnsafeRawPointer>, _ weights: UnsafePointer<UInt16>, _ m: Int,
                                _ rb: UnsafeMutableRawPointer, _ ag: UnsafeMutableRawPointer, _ bytes: Int) {
        // Up to three rows held in registers (`m` a constant once inlined), more from memory.
        @inline(__always) func run(_ m: Int) {
            let r0 = rows[0], r1 = m > 1 ? rows[1] : r0, r2 = m > 2 ? rows[2] : r0
            let w0 = weights[0], w1 = m > 1 ? weights[1] : 0, w2 = m > 2 ? weights[2] : 0
            let low = SIMD8<UInt16>(repeating: 0x00FF)
            var k = 0
            while k &+ 16 <= bytes {
                var x = SIMD8<UInt16>(repeating: 128), y = x
                @inline(__always) func add(_ r: UnsafeRawPointer, _ w: UInt16) {
                    let v = r.loadUnaligned(fromByteOffset: k, as: SIMD8<UInt16>.self), ws = SIMD8(repeating: w)
                    x &+= (v & low) &* ws
                    y &+= (v &>> 8) &* ws
                }
                if m <= 3 {
                    add(r0, w0)
                    if m > 1 { add(r1, w1) }
                    if m > 2 { add(r2, w2) }
                } else {
                    for j in 0..<m { add(rows[j], weights[j]) }
                }
                rb.storeBytes(of: x &>> 8, toByteOffset: k, as: SIMD8<UInt16>.self)
                ag.storeBytes(of: y &>> 8, toByteOffset: k, as: SIMD8<UInt16>.self)
                k &+= 16
            }
            while k < bytes {
                let mask: UInt32 = 0x00FF_00FF
                var x: UInt32 = 0x0080_0080, y: UInt32 = 0x0080_0080
                for j in 0..<m {
                    let c = rows[j].loadUnaligned(fromByteOffset: k, as: UInt32.self), wj = UInt32(weights[j])
                    x &+= (c & mask) &* wj
                    y &+= ((c >> 8) & mask) &* wj
                }
                rb.storeBytes(of: (x >> 8) & mask, toByteOffset: k, as: UInt32.self)
                ag.storeBytes(of: (y >> 8) & mask, toByteOffset: k, as: UInt32.self)
                k &+= 4
            }
        }
        switch m {
        case 1: run(1)
        case 2: run(2)
        case 3: run(3)
        default: run(m)
        }
    }

    /// The horizontal pass with at most three samples per output pixel: `n` output pixels from
    /// the filtered row's planes `rb` and `ag`, each with four weights (the fourth zero) and
    /// its first sample at pixel `firsts[i]`, or `steps[i]` pixels past the previous pixel's.
    /// Four output pixels at a time: each loads its four samples at once (16 bytes a plane)
    /// and weighs them, then the four pixels' products are summed together by transposing.
    /// (The lanes never carry into each other: every partial sum is at most a channel's
    /// total, < 2¹⁶, so 32- and 64-bit additions add the 16-bit lanes exactly.)
    @inline(__always)
    private static func boxColumnsThree(_ rb: UnsafeRawPointer, _ ag: UnsafeRawPointer, _ weights: UnsafeRawPointer,
                                        _ steps: UnsafeRawPointer, _ firsts: UnsafePointer<Int32>,
                                        _ out: UnsafeMutableRawPointer, _ n: Int) {
        /// Each of `a`, `b`, `c`, `d` summed over its four 32-bit lanes: (Σa, Σb, Σc, Σd).
        @inline(__always) func sums(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ c: SIMD8<UInt16>,
                                    _ d: SIMD8<UInt16>) -> SIMD4<UInt32> {
            @inline(__always) func halves(_ p: SIMD8<UInt16>, _ q: SIMD8<UInt16>) -> SIMD4<UInt32> {
                let u = unsafeBitCast(p, to: SIMD2<UInt64>.self), v = unsafeBitCast(q, to: SIMD2<UInt64>.self)
                // (p₀ + p₂, p₁ + p₃, q₀ + q₂, q₁ + q₃)
                return unsafeBitCast(SIMD2(u[0], v[0]), to: SIMD4<UInt32>.self) &+ unsafeBitCast(SIMD2(u[1], v[1]), to: SIMD4<UInt32>.self)
            }
            let ab = halves(a, b), cd = halves(c, d)
            return SIMD4(lowHalf: ab.evenHalf, highHalf: cd.evenHalf) &+ SIMD4(lowHalf: ab.oddHalf, highHalf: cd.oddHalf)
        }
        @inline(__always) func spread(_ w: SIMD8<UInt16>) -> (SIMD8<UInt16>, SIMD8<UInt16>) {
            (SIMD8(w[0], w[0], w[1], w[1], w[2], w[2], w[3], w[3]), SIMD8(w[4], w[4], w[5], w[5], w[6], w[6], w[7], w[7]))
        }
        @inline(__always) func load(_ plane: UnsafeRawPointer, _ x: Int) -> SIMD8<UInt16> {
            plane.loadUnaligned(fromByteOffset: 4 &* x, as: SIMD8<UInt16>.self)
        }
        let half = SIMD4<UInt32>(repeating: 0x0080_0080)
        var x = Int(firsts[0]), i = 0
        while i &+ 4 <= n {
            let d = Int(steps.loadUnaligned(fromByteOffset: i &+ 1, as: UInt32.self))
            let x1 = x &+ (d & 0xFF), x2 = x1 &+ (d >> 8 & 0xFF), x3 = x2 &+ (d >> 16 & 0xFF)
            let (wa, wb) = spread(weights.loadUnaligned(fromByteOffset: 8 &* i, as: SIMD8<UInt16>.self))
            let (wc, wd) = spread(weights.loadUnaligned(fromByteOffset: 8 &* i &+ 16, as: SIMD8<UInt16>.self))
            let s = sums(load(rb, x) &* wa, load(rb, x1) &* wb, load(rb, x2) &* wc, load(rb, x3) &* wd) &+ half
            let t = sums(load(ag, x) &* wa, load(ag, x1) &* wb, load(ag, x2) &* wc, load(ag, x3) &* wd) &+ half
            out.storeBytes(of: ((s &>> 8) & SIMD4(repeating: 0x00FF_00FF)) | (t & SIMD4(repeating: 0xFF00_FF00)),
                           toByteOffset: 4 &* i, as: SIMD4<UInt32>.self)
            x = x3 &+ d >> 24
            i &+= 4
        }
        let w = weights.assumingMemoryBound(to: UInt16.self)
        while i < n {
            let x = 4 * Int(firsts[i])
            out.storeBytes(of: boxPixel(rb + x, ag + x, w + 4 * i, 3), toByteOffset: 4 * i, as: UInt32.self)
            i += 1
        }
    }
}
