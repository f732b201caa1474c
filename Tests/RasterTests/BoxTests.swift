// The box kernel against the arithmetic it promises, computed one channel at a time:
// 8-bit area weights, the covered rows summed and rounded first, then the covered columns.
import Foundation
import Raster
import Testing

@Suite("Box resampling")
struct BoxTests {
    /// The source pixels output pixel `u` covers and their weights, as the axis documents
    /// them: the share of [u·step, (u + 1)·step) each pixel covers, in 1/256 rounded
    /// cumulatively (so that they sum to 256), samples beyond the source counted to its edge.
    static func taps(_ u: Int, step: Double, lower: Int, upper: Int) -> [(index: Int, weight: UInt32)] {
        let start = Double(u) * step, end = Double(u + 1) * step
        let i0 = Int(start.rounded(.down)), i1 = max(i0 + 1, Int(end.rounded(.up)))
        var taps: [(index: Int, weight: UInt32)] = []
        var previous = 0
        for i in i0..<i1 {
            let cumulative = Int(((min(Double(i + 1), end) - start) / step * 256).rounded())
            let index = min(max(i, lower), upper - 1), w = UInt32(cumulative - previous)
            previous = cumulative
            if let last = taps.last, last.index == index { taps[taps.count - 1].weight += w } else { taps.append((index, w)) }
        }
        return taps
    }

    /// One output pixel by the formula, channel by channel.
    static func expected(_ src: [UInt32], width: Int, height: Int, x: Int, y: Int, step: Double) -> UInt32 {
        let tx = taps(x, step: step, lower: 0, upper: width), ty = taps(y, step: step, lower: 0, upper: height)
        var out: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            func column(_ px: Int) -> UInt32 {
                (ty.reduce(0) { $0 + ((src[$1.index * width + px] >> shift) & 0xFF) * $1.weight } + 128) >> 8
            }
            out |= ((tx.reduce(0) { $0 + column($1.index) * $1.weight } + 128) >> 8) << shift
        }
        return out
    }

    @Test("Every output pixel is the two-step area average of the pixels it covers, at any shrink factor",
          arguments: [1.0, 1.3, 2.0.squareRoot(), 1.6, 2.0, 2.7, 3.3, 8.0, 11.5])
    func matchesFormula(step: Double) throws {
        var rng = TestRandom(state: UInt64(step * 10_000))
        // Widths that leave every remainder of the vector steps; one-pixel-wide and -tall sources.
        for (sw, sh) in [(37, 23), (40, 9), (2, 5), (1, 4), (61, 1), (97, 30)] {
            let (src, source) = try randomSource(width: sw, height: sh, using: &rng)
            // Rounded up: the last output pixel reaches past the source's edge, which it folds onto.
            let ow = Int((Double(sw) / step).rounded(.up)), oh = Int((Double(sh) / step).rounded(.up))
            let got = try resampledWhole(source, .box, step: step, width: ow, height: oh)
            var wrong: [String] = []
            for y in 0..<oh {
                for x in 0..<ow {
                    let e = Self.expected(src, width: sw, height: sh, x: x, y: y, step: step)
                    if got[y * ow + x] != e, wrong.count < 4 {
                        wrong.append("\(sw)×\(sh) (\(x), \(y)): \(String(got[y * ow + x], radix: 16)) ≠ \(String(e, radix: 16))")
                    }
                }
            }
            #expect(wrong.isEmpty, "step \(step): \(wrong)")
        }
    }
}
