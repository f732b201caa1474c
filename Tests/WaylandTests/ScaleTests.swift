// The scale a window draws at, as pure arithmetic: buffer sizes at integer and fractional
// scales, which outputs decide, and hostile scales from a compositor refused or clamped
// before a buffer size is derived from them.
import Foundation
import Testing
@testable import Wayland

@Suite("Output and fractional scales")
struct ScaleTests {
    @Test("Buffer sizes: n × the points for an integer scale, round(points × v/120) half away from zero for a fractional one",
          arguments: [
              (BufferScale.integer(1), 800, 600, 800, 600),
              (.integer(2), 800, 600, 1600, 1200),
              (.integer(3), 333, 1, 999, 3),
              (.fractional(180), 800, 600, 1200, 900),   // 1.5
              (.fractional(180), 801, 333, 1202, 500),   // 1201.5 → 1202, 499.5 → 500
              (.fractional(150), 333, 101, 416, 126),    // 1.25: 416.25 → 416, 126.25 → 126
              (.fractional(140), 7, 3, 8, 4),            // 7/6: 8.17 → 8, 3.5 → 4
              (.fractional(90), 1, 2, 1, 2),             // 0.75: 0.75 → 1, 1.5 → 2
              (.fractional(120), 640, 360, 640, 360),
          ])
    func bufferSizes(_ scale: BufferScale, _ w: Int, _ h: Int, _ bw: Int, _ bh: Int) {
        let size = scale.bufferSize(width: w, height: h)
        #expect(size.width == bw && size.height == bh, "\(scale) of \(w)×\(h) gave \(size)")
        // The integer arithmetic agrees with rounding the exact product.
        #expect(Double(size.width) == (Double(w) * scale.factor).rounded(.toNearestOrAwayFromZero))
    }

    @Test("Factors and names")
    func factors() {
        #expect(BufferScale.fractional(180).factor == 1.5)
        #expect(BufferScale.integer(2).factor == 2)
        #expect(BufferScale.fractional(180).description == "1.5")
        #expect(BufferScale.fractional(150).description == "1.25")
        #expect(BufferScale.fractional(240).description == "2")
        #expect(BufferScale.fractional(140).description == "1.167")
        #expect(BufferScale.integer(3).description == "3")
    }

    @Test("wl_output.scale: 1…8 kept, below 1 ignored as 1, above 8 clamped, each with a warning naming the value",
          arguments: [(Int32(1), 1, false), (2, 2, false), (8, 8, false), (0, 1, true), (-1, 1, true),
                      (Int32.min, 1, true), (9, 8, true), (1000, 8, true), (Int32.max, 8, true)])
    func outputScales(_ raw: Int32, _ expected: Int, _ warns: Bool) {
        let checked = ScaleLimits.outputScale(raw)
        #expect(checked.scale == expected)
        #expect((checked.warning != nil) == warns)
        if let warning = checked.warning { #expect(warning.contains("\(raw)"), "\(warning)") }
    }

    @Test("preferred_scale: 60…960 (0.5…8) kept, 0 and below 0.5 ignored, above 8 clamped, each with a warning",
          arguments: [(UInt32(180), 180 as Int?, false), (120, 120, false), (60, 60, false), (960, 960, false),
                      (0, nil, true), (1, nil, true), (59, nil, true), (961, 960, true), (120_000, 960, true),
                      (UInt32.max, 960, true)])
    func fractionalScales(_ raw: UInt32, _ expected: Int?, _ warns: Bool) {
        let checked = ScaleLimits.fractionalScale(raw)
        #expect(checked.value120 == expected)
        #expect((checked.warning != nil) == warns)
        if let warning = checked.warning { #expect(warning.contains("\(raw)/120"), "\(warning)") }
    }

    @Test("The warnings read as one line a user understands")
    func warningText() {
        #expect(ScaleLimits.outputScale(0).warning
            == "ignoring output scale 0 from the compositor (a scale is at least 1): using 1")
        #expect(ScaleLimits.fractionalScale(0).warning
            == "ignoring preferred fractional scale 0/120 (0) from the compositor, below 0.5: keeping the output scale")
        #expect(ScaleLimits.fractionalScale(120_000).warning
            == "preferred fractional scale 120000/120 (1000) from the compositor is above 8: using 8")
        #expect(ScaleLimits.limited(.integer(2), width: 10000, height: 500).warning
            == "a 10000×500-point window at scale 2 needs a 20000×1000-pixel buffer, more than 16384 pixels a side: drawing at scale 1")
    }

    @Test("A buffer above 16384 pixels a side is refused by lowering the scale to the largest that fits",
          arguments: [(BufferScale.integer(2), 10000, 500), (.integer(8), 3000, 2000), (.integer(8), 16384, 16384),
                      (.fractional(180), 12000, 100), (.fractional(960), 16384, 1), (.fractional(960), 5000, 9000)])
    func bufferEdgeLimit(_ scale: BufferScale, _ w: Int, _ h: Int) {
        let limited = ScaleLimits.limited(scale, width: w, height: h)
        let size = limited.scale.bufferSize(width: w, height: h)
        #expect(size.width <= 16384 && size.height <= 16384, "\(limited.scale): \(size)")
        #expect(size.width >= w && size.height >= h, "never below one pixel per point: \(size)")
        #expect(limited.warning != nil)
        // The largest that fits: one step more does not.
        let next: BufferScale
        switch limited.scale {
        case .integer(let n): next = .integer(n + 1)
        case .fractional(let v): next = .fractional(v + 1)
        }
        let over = next.bufferSize(width: w, height: h)
        #expect(over.width > 16384 || over.height > 16384, "\(next) would fit too: \(over)")
    }

    @Test("A buffer that fits keeps its scale, without a warning")
    func fitsUnchanged() {
        for scale in [BufferScale.integer(1), .integer(2), .fractional(180), .fractional(960)] {
            let limited = ScaleLimits.limited(scale, width: 2048, height: 1536)
            #expect(limited.scale == scale && limited.warning == nil)
        }
        #expect(ScaleLimits.limited(.integer(1), width: 16384, height: 16384).warning == nil)
    }

    @Test("Integer scale: the largest of the outputs the surface is on; leaving and removal follow")
    func outputsDecide() {
        var state = SurfaceScaleState(fractionalAvailable: false)
        #expect(state.scale == .integer(1))
        // Before the first enter: the largest scale of all outputs, the display's figure.
        state.unplacedScale = 2
        #expect(state.scale == .integer(2))
        state.unplacedScale = 1
        state.enter(output: 7, scale: 1)
        #expect(state.scale == .integer(1))
        state.enter(output: 9, scale: 2)
        #expect(state.scale == .integer(2))
        state.leave(output: 9)
        #expect(state.scale == .integer(1))
        state.enter(output: 9, scale: 2)
        // Output 9 turns 3; output 7 is removed from the compositor.
        state.refresh(outputScales: [9: 3, 11: 4])
        #expect(state.outputs == [9: 3], "an output not entered does not count, one removed is dropped")
        #expect(state.scale == .integer(3))
        state.leave(output: 9)
        #expect(state.scale == .integer(1))
    }

    @Test("Fractional scale: used when offered with viewports, ignored without them; hostile values keep the last good one")
    func fractionalDecides() {
        var state = SurfaceScaleState(fractionalAvailable: true)
        state.enter(output: 1, scale: 2)
        #expect(state.scale == .integer(2), "until preferred_scale arrives, the outputs decide")
        #expect(state.preferredScale(180) == nil)
        #expect(state.scale == .fractional(180))
        #expect(state.scale.bufferSize(width: 800, height: 600) == (1200, 900))
        // value120 = 0, then absurd: the first is ignored, the second clamped.
        #expect(state.preferredScale(0) != nil)
        #expect(state.scale == .fractional(180))
        #expect(state.preferredScale(1000 * 120) != nil)
        #expect(state.scale == .fractional(960))

        var plain = SurfaceScaleState(fractionalAvailable: false)
        plain.enter(output: 1, scale: 2)
        _ = plain.preferredScale(180)
        #expect(plain.scale == .integer(2), "no viewporter: fractional buffers could not be shown at the surface size")
    }

    @Test("No sequence of hostile values yields a buffer beyond the limit or an empty one")
    func hostileSequences() {
        let outputValues: [Int32] = [0, -5, 1000, Int32.max, Int32.min, 3]
        let preferredValues: [UInt32] = [0, 1, UInt32.max, 59, 961, 7, 180]
        let sizes = [(1, 1), (800, 600), (16384, 16384), (16384, 1), (3, 16384)]
        for fractional in [false, true] {
            var state = SurfaceScaleState(fractionalAvailable: fractional)
            for (i, raw) in outputValues.enumerated() {
                state.enter(output: UInt32(i), scale: ScaleLimits.outputScale(raw).scale)
                for value in preferredValues {
                    _ = state.preferredScale(value)
                    for (w, h) in sizes {
                        let scale = ScaleLimits.limited(state.scale, width: w, height: h).scale
                        let size = scale.bufferSize(width: w, height: h)
                        #expect(size.width >= 1 && size.height >= 1 && size.width <= 16384 && size.height <= 16384,
                                "\(state) at \(w)×\(h): \(scale) gives \(size)")
                        #expect(scale.factor >= 0.5 && scale.factor <= 8)
                    }
                }
            }
        }
    }
}
