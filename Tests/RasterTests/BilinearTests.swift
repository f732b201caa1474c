// The bilinear kernel against the arithmetic it promises, computed one channel at a time:
// 7-bit weights, the two rows mixed exactly, then each column's share truncated to 1/128 and
// the sum rounded; and against the exact bilinear value, which it never misses by more than
// one below.
import Foundation
import Raster
import Testing

@Suite("Bilinear resampling")
struct BilinearTests {
    /// The left sample of output pixel `u` and the weight of its right neighbour, as the axis
    /// documents them: pixel centres line up, weights in 1/128, clamped to the source's edges.
    static func tap(_ u: Int, step: Double, lower: Int, upper: Int) -> (Int, UInt32) {
        let s = (Double(u) + 0.5) * step - 0.5
        let f = s.rounded(.down)
        var i = Int(f), w = Int(((s - f) * 128).rounded())
        if w == 128 { i += 1; w = 0 }
        if i < lower || upper - lower < 2 { return (lower, 0) }
        if i >= upper - 1 { return (upper - 2, 128) }
        return (i, UInt32(w))
    }

    /// One output pixel by the kernel's documented arithmetic, channel by channel: the rows
    /// mixed with twice their weights (256 times the channel), each column times its weight
    /// times 256 with the low 16 bits dropped, summed and rounded from 1/128.
    static func expected(_ src: [UInt32], width: Int, x: Int, y: Int, step: Double, srcWidth: Int, srcHeight: Int) -> UInt32 {
        let (ix, wx) = tap(x, step: step, lower: 0, upper: srcWidth)
        let (iy, wy) = tap(y, step: step, lower: 0, upper: srcHeight)
        let x1 = min(ix + 1, srcWidth - 1), y1 = min(iy + 1, srcHeight - 1)
        var out: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            func c(_ px: Int, _ py: Int) -> UInt32 { (src[py * width + px] >> shift) & 0xFF }
            let left = c(ix, iy) * 2 * (128 - wy) + c(ix, y1) * 2 * wy
            let right = c(x1, iy) * 2 * (128 - wy) + c(x1, y1) * 2 * wy
            out |= (((left * (128 - wx) * 256) >> 16 + (right * wx * 256) >> 16 + 64) >> 7) << shift
        }
        return out
    }

    /// The exact bilinear value of one channel at the same taps, in real numbers.
    static func exact(_ src: [UInt32], width: Int, x: Int, y: Int, step: Double, srcWidth: Int, srcHeight: Int,
                      shift: UInt32) -> Double {
        let (ix, wx) = tap(x, step: step, lower: 0, upper: srcWidth)
        let (iy, wy) = tap(y, step: step, lower: 0, upper: srcHeight)
        let x1 = min(ix + 1, srcWidth - 1), y1 = min(iy + 1, srcHeight - 1)
        func c(_ px: Int, _ py: Int) -> Double { Double((src[py * width + px] >> shift) & 0xFF) }
        let fx = Double(wx) / 128, fy = Double(wy) / 128
        return (c(ix, iy) * (1 - fy) + c(ix, y1) * fy) * (1 - fx) + (c(x1, iy) * (1 - fy) + c(x1, y1) * fy) * fx
    }

    @Test("Every output pixel is the two-step weighted mix of its four samples, enlarging and shrinking",
          arguments: [0.5, 0.37, 0.77, 1.0 / 1.3, 1.41, 1.9, 1.0])
    func matchesFormula(step: Double) throws {
        var rng = TestRandom(state: UInt64(step * 10_000))
        // Widths that leave every remainder of the four-pixel vector steps.
        for (sw, sh) in [(37, 23), (40, 9), (2, 5), (1, 4)] {
            let (src, source) = try randomSource(width: sw, height: sh, using: &rng)
            let ow = max(1, Int(Double(sw) / step)), oh = max(1, Int(Double(sh) / step))
            let got = try resampledWhole(source, .bilinear, step: step, width: ow, height: oh)
            var wrong: [String] = []
            for y in 0..<oh {
                for x in 0..<ow where sw >= 2 {
                    let e = Self.expected(src, width: sw, x: x, y: y, step: step, srcWidth: sw, srcHeight: sh)
                    if got[y * ow + x] != e, wrong.count < 4 {
                        wrong.append("\(sw)×\(sh) (\(x), \(y)): \(String(got[y * ow + x], radix: 16)) ≠ \(String(e, radix: 16))")
                    }
                }
            }
            #expect(wrong.isEmpty, "step \(step): \(wrong)")
        }
    }

    @Test("Every channel is the exact bilinear value rounded, or one below it; almost always rounded",
          arguments: [0.5, 0.37, 1.41, 2.08])
    func nearExact(step: Double) throws {
        var rng = TestRandom(state: UInt64(step * 3_333))
        let sw = 61, sh = 47
        let (src, source) = try randomSource(width: sw, height: sh, using: &rng)
        let ow = Int(Double(sw) / step), oh = Int(Double(sh) / step)
        let got = try resampledWhole(source, .bilinear, step: step, width: ow, height: oh)
        var below = 0, channels = 0
        var wrong: [String] = []
        for y in 0..<oh {
            for x in 0..<ow {
                for shift: UInt32 in [0, 8, 16, 24] {
                    let rounded = Int(Self.exact(src, width: sw, x: x, y: y, step: step, srcWidth: sw, srcHeight: sh,
                                                 shift: shift).rounded(.toNearestOrAwayFromZero))
                    let value = Int((got[y * ow + x] >> shift) & 0xFF)
                    channels += 1
                    if value == rounded - 1 { below += 1 } else if value != rounded, wrong.count < 4 {
                        wrong.append("(\(x), \(y)) channel at bit \(shift): \(value), exact \(rounded)")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "step \(step): \(wrong)")
        // The two truncations lose less than 2/128 of a step: about one channel in 64 rounds down.
        #expect(below * 20 < channels, "step \(step): \(below) of \(channels) channels one below")
    }

    @Test("Straight from a grid of tiles: the same pixels as from the whole source, wherever the output starts",
          arguments: [0.5, 0.37, 0.77, 1.41, 1.9, 1.0])
    func fromTiles(step: Double) throws {
        var rng = TestRandom(state: UInt64(step * 777))
        // 16-pixel tiles, so that many pixels straddle two; the source spans 5×4 tiles, the
        // last column and row partly.
        let size = 16, sw = 73, sh = 58
        var src = [UInt32](repeating: 0, count: sw * sh)
        for i in src.indices { src[i] = rng.pixel() }
        let whole = try #require(OwnedFramebuffer(width: sw, height: sh))
        whole.withFramebuffer { w in for y in 0..<sh { for x in 0..<sw { w[x, y] = src[y * sw + x] } } }
        var tiles: [[OwnedFramebuffer]] = []
        for row in 0..<((sh + size - 1) / size) {
            tiles.append((0..<((sw + size - 1) / size)).map { column in
                let t = OwnedFramebuffer(width: size, height: size)!
                t.withFramebuffer { fb in
                    for y in 0..<size { for x in 0..<size where column * size + x < sw && row * size + y < sh {
                        fb[x, y] = src[(row * size + y) * sw + column * size + x]
                    } }
                }
                return t
            })
        }
        let ax = ResampleAxis(step: step, lower: 0, upper: sw)!, ay = ResampleAxis(step: step, lower: 0, upper: sh)!
        let ow = Int(Double(sw) / step), oh = Int(Double(sh) / step)
        for _ in 0..<10 {
            let x = Int(rng.next() % UInt64(ow)), y = Int(rng.next() % UInt64(oh))
            let rect = PixelRect(x: x, y: y, width: 1 + Int(rng.next() % UInt64(ow - x)), height: 1 + Int(rng.next() % UInt64(oh - y)))
            let expected = try #require(OwnedFramebuffer(width: rect.width, height: rect.height))
            let got = try #require(OwnedFramebuffer(width: rect.width, height: rect.height))
            try whole.withFramebuffer { w in try expected.withFramebuffer { e in
                try Resampler.resample(.bilinear, source: w, sourceOrigin: (0, 0), xAxis: ax, yAxis: ay, output: rect, into: e, at: (0, 0))
            } }
            got.withFramebuffer { g in
                Resampler.bilinear(tiles: { tiles[$1][$0].framebuffer }, tileSize: size, xAxis: ax, yAxis: ay, output: rect,
                                   into: g, at: (0, 0))
            }
            #expect(got.pixels == expected.pixels, "step \(step) rect \(rect)")
        }
    }
}
