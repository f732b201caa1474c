// Pixel kernels, regions, resampling taps and the LRU cache, against textbook formulas.
import Foundation
import Raster
import TestSupport
import Testing

/// A small deterministic generator for test pixels (xorshift64*).
struct TestRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }
    /// A valid premultiplied pixel (every channel ≤ alpha), often opaque or transparent.
    mutating func pixel() -> UInt32 {
        let v = next()
        switch v % 4 {
        case 0: return 0
        case 1: return 0xFF00_0000 | UInt32(truncatingIfNeeded: v >> 8) & 0xFF_FFFF
        default:
            let a = UInt32(truncatingIfNeeded: v >> 40) & 0xFF
            func c(_ s: UInt64) -> UInt32 { a == 0 ? 0 : UInt32(truncatingIfNeeded: v >> s) % (a + 1) }
            return a << 24 | c(8) << 16 | c(16) << 8 | c(24)
        }
    }
}

@Suite("Kernels")
struct KernelTests {
    @Test("Source-over blend equals the per-channel formula, vector and scalar paths alike")
    func blend() {
        var rng = TestRandom(state: 42)
        for width in [1, 3, 4, 7, 33] {
            let src = OwnedFramebuffer(width: width, height: 5)!, dst = OwnedFramebuffer(width: width + 10, height: 9)!
            var sp: [UInt32] = [], dp: [UInt32] = []
            src.withFramebuffer { s in for y in 0..<5 { for x in 0..<width { s[x, y] = rng.pixel() } } }
            dst.withFramebuffer { d in for y in 0..<9 { for x in 0..<(width + 10) { d[x, y] = rng.pixel() } } }
            sp = src.pixels
            dp = dst.pixels
            dst.withFramebuffer { d in src.withFramebuffer { s in d.blend(from: s, sourceRect: s.bounds, to: (4, 2)) } }
            let out = dst.pixels
            for y in 0..<9 {
                for x in 0..<(width + 10) {
                    let inside = x >= 4 && x < 4 + width && y >= 2 && y < 7
                    let expected = inside ? blendOver(sp[(y - 2) * width + (x - 4)], dp[y * (width + 10) + x]) : dp[y * (width + 10) + x]
                    #expect(out[y * (width + 10) + x] == expected, "width \(width) at (\(x), \(y))")
                }
            }
        }
    }

    @Test("Fill, copy and blended fill are clipped to both framebuffers")
    func clipping() {
        let fb = OwnedFramebuffer(width: 8, height: 6)!
        fb.withFramebuffer { f in
            f.fill(PixelRect(x: -3, y: -2, width: 5, height: 4), with: 0xFF11_1111)
            f.fill(PixelRect(x: 6, y: 4, width: 100, height: 100), with: 0xFF22_2222)
            f.blendFill(PixelRect(x: 0, y: 5, width: 3, height: 9), with: 0x8000_0000)
            f.fill(PixelRect(x: 2, y: 2, width: 0, height: 3), with: 0xFFFF_FFFF)
            f.fill(PixelRect(x: 2, y: 2, width: -4, height: 3), with: 0xFFFF_FFFF)
        }
        let p = fb.pixels
        #expect(p[0] == 0xFF11_1111 && p[1] == 0xFF11_1111 && p[2] == 0 && p[8 + 1] == 0xFF11_1111 && p[2 * 8] == 0)
        #expect(p[4 * 8 + 6] == 0xFF22_2222 && p[5 * 8 + 7] == 0xFF22_2222 && p[4 * 8 + 5] == 0)
        #expect(p[5 * 8] == 0x8000_0000 && p[5 * 8 + 3] == 0)
        #expect(p.filter { $0 == 0xFFFF_FFFF }.isEmpty, "empty and negative rects draw nothing")

        let src = OwnedFramebuffer(width: 4, height: 4)!
        src.withFramebuffer { s in for y in 0..<4 { for x in 0..<4 { s[x, y] = 0xFF00_0000 | UInt32(y * 4 + x) } } }
        let dst = OwnedFramebuffer(width: 4, height: 4)!
        dst.withFramebuffer { d in src.withFramebuffer { s in
            d.copy(from: s, sourceRect: PixelRect(x: -1, y: 1, width: 4, height: 10), to: (2, -1))
        } }
        // Source column 0 lands at x 3; source row 1 would land at y -1 (clipped), row 2 at y 0.
        let q = dst.pixels
        #expect(q[3] == 0xFF00_0008 && q[4 + 3] == 0xFF00_000C && q[2] == 0 && q[0] == 0)
    }

    @Test("Regions keep disjoint rects whose area is the union's")
    func regions() {
        var r = PixelRegion()
        r.add(PixelRect(x: 0, y: 0, width: 10, height: 10))
        r.add(PixelRect(x: 5, y: 5, width: 10, height: 10))
        r.add(PixelRect(x: 2, y: 2, width: 3, height: 3))
        r.add(PixelRect(x: 40, y: 40, width: 0, height: 9))
        #expect(r.area == 100 + 100 - 25)
        for (i, a) in r.rects.enumerated() { for b in r.rects[(i + 1)...] { #expect(!a.intersects(b)) } }
        #expect(r.contains(x: 14, y: 14) && !r.contains(x: 14, y: 0) && r.bounds == PixelRect(x: 0, y: 0, width: 15, height: 15))
        var many = PixelRegion()
        for i in 0..<100 { many.add(PixelRect(x: i * 3, y: 0, width: 1, height: 1)) }
        #expect(many.rects.count <= PixelRegion.maxRects)
        #expect((0..<100).allSatisfy { many.contains(x: $0 * 3, y: 0) }, "collapsing never loses pixels")
    }

    @Test("Bilinear at step 1 on pixel centres is a copy; a constant image stays constant")
    func bilinearIdentity() throws {
        var rng = TestRandom(state: 7)
        let src = OwnedFramebuffer(width: 13, height: 9)!
        src.withFramebuffer { s in for y in 0..<9 { for x in 0..<13 { s[x, y] = rng.pixel() } } }
        let out = OwnedFramebuffer(width: 13, height: 9)!
        let ax = ResampleAxis(step: 1, lower: 0, upper: 13)!, ay = ResampleAxis(step: 1, lower: 0, upper: 9)!
        try src.withFramebuffer { s in try out.withFramebuffer { o in
            try Resampler.resample(.bilinear, source: s, sourceOrigin: (0, 0), xAxis: ax, yAxis: ay,
                               output: PixelRect(x: 0, y: 0, width: 13, height: 9), into: o, at: (0, 0))
        } }
        #expect(out.pixels == src.pixels)

        let flat = OwnedFramebuffer(width: 30, height: 20)!
        flat.withFramebuffer { $0.fill($0.bounds, with: 0xC060_3010) }
        for filter in [ResampleFilter.bilinear, .box] {
            let step = filter == .bilinear ? 0.37 : 1.6
            let o = OwnedFramebuffer(width: 17, height: 11)!
            try flat.withFramebuffer { s in try o.withFramebuffer { t in
                try Resampler.resample(filter, source: s, sourceOrigin: (0, 0), xAxis: ResampleAxis(step: step, lower: 0, upper: 30)!,
                                   yAxis: ResampleAxis(step: step, lower: 0, upper: 20)!,
                                   output: PixelRect(x: 0, y: 0, width: 17, height: 11), into: t, at: (0, 0))
            } }
            #expect(o.pixels.allSatisfy { $0 == 0xC060_3010 }, "\(filter)")
        }
    }

    @Test("Box filter at step 2 averages 2×2 blocks; bilinear at ½ step interpolates midway")
    func filterValues() throws {
        let src = OwnedFramebuffer(width: 4, height: 2)!
        src.withFramebuffer { s in
            s[0, 0] = 0xFF00_0000; s[1, 0] = 0xFF00_0064; s[0, 1] = 0xFF00_00C8; s[1, 1] = 0xFF00_0064
            s[2, 0] = 0xFF10_0000; s[3, 0] = 0xFF10_0000; s[2, 1] = 0xFF10_0000; s[3, 1] = 0xFF10_0000
        }
        let out = OwnedFramebuffer(width: 2, height: 1)!
        try src.withFramebuffer { s in try out.withFramebuffer { o in
            try Resampler.resample(.box, source: s, sourceOrigin: (0, 0), xAxis: ResampleAxis(step: 2, lower: 0, upper: 4)!,
                               yAxis: ResampleAxis(step: 2, lower: 0, upper: 2)!, output: PixelRect(x: 0, y: 0, width: 2, height: 1),
                               into: o, at: (0, 0))
        } }
        // (0 + 100 + 200 + 100) / 4 = 100 = 0x64.
        #expect(out.pixels == [0xFF00_0064, 0xFF10_0000])

        // Output pixel 1 at step ½ has its centre at source 0.25: a quarter of the way from
        // pixel 0 (blue 0) to pixel 1 (blue 100) → 25.
        let up = OwnedFramebuffer(width: 4, height: 1)!
        try src.withFramebuffer { s in try up.withFramebuffer { o in
            try Resampler.resample(.bilinear, source: s, sourceOrigin: (0, 0), xAxis: ResampleAxis(step: 0.5, lower: 0, upper: 4)!,
                               yAxis: ResampleAxis(step: 1, lower: 0, upper: 1)!, output: PixelRect(x: 0, y: 0, width: 4, height: 1),
                               into: o, at: (0, 0))
        } }
        #expect(up.pixels[0] == 0xFF00_0000, "the left edge clamps")
        #expect(up.pixels[1] == 0xFF00_0019)
        #expect(up.pixels[2] == 0xFF00_004B)
    }

    @Test("Any sub-rectangle of a resample equals that part of the whole", arguments: [0.6, 0.75, 1.0 / 0.7, 1.9, 0.31, 3.3])
    func subRectangles(step: Double) throws {
        var rng = TestRandom(state: UInt64(step * 1000))
        let w = 41, h = 29
        let src = OwnedFramebuffer(width: w, height: h)!
        src.withFramebuffer { s in for y in 0..<h { for x in 0..<w { s[x, y] = rng.pixel() } } }
        let ax = ResampleAxis(step: step, lower: 0, upper: w)!, ay = ResampleAxis(step: step, lower: 0, upper: h)!
        let ow = Int(Double(w) / step), oh = Int(Double(h) / step)
        for filter in [ResampleFilter.bilinear, .box] {
            let whole = OwnedFramebuffer(width: ow, height: oh)!
            try src.withFramebuffer { s in try whole.withFramebuffer { o in
                try Resampler.resample(filter, source: s, sourceOrigin: (0, 0), xAxis: ax, yAxis: ay,
                                   output: PixelRect(x: 0, y: 0, width: ow, height: oh), into: o, at: (0, 0))
            } }
            let wp = whole.pixels
            for _ in 0..<12 {
                let x = Int(rng.next() % UInt64(ow)), y = Int(rng.next() % UInt64(oh))
                let rect = PixelRect(x: x, y: y, width: 1 + Int(rng.next() % UInt64(ow - x)), height: 1 + Int(rng.next() % UInt64(oh - y)))
                // Only the source pixels the taps read, copied out at their global origin.
                let xs = ax.sourceRange(for: rect.x..<rect.maxX, bilinear: filter == .bilinear)
                let ys = ay.sourceRange(for: rect.y..<rect.maxY, bilinear: filter == .bilinear)
                let part = OwnedFramebuffer(width: xs.count, height: ys.count)!
                let out = OwnedFramebuffer(width: rect.width, height: rect.height)!
                try src.withFramebuffer { s in try part.withFramebuffer { p in try out.withFramebuffer { o in
                    p.copy(from: s, sourceRect: PixelRect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count), to: (0, 0))
                    try Resampler.resample(filter, source: p, sourceOrigin: (xs.lowerBound, ys.lowerBound), xAxis: ax, yAxis: ay,
                                       output: rect, into: o, at: (0, 0))
                } } }
                let op = out.pixels
                let same = (0..<rect.height).allSatisfy { r in
                    (0..<rect.width).allSatisfy { c in op[r * rect.width + c] == wp[(rect.y + r) * ow + rect.x + c] }
                }
                #expect(same, "\(filter) step \(step) rect \(rect)")
            }
        }
    }

    @Test("Resampled premultiplied pixels stay valid: no channel above alpha")
    func premultipliedStaysValid() throws {
        var rng = TestRandom(state: 99)
        let src = OwnedFramebuffer(width: 20, height: 20)!
        src.withFramebuffer { s in for y in 0..<20 { for x in 0..<20 { s[x, y] = rng.pixel() } } }
        for (filter, step) in [(ResampleFilter.bilinear, 0.45), (.box, 1.7)] {
            let out = OwnedFramebuffer(width: 11, height: 11)!
            try src.withFramebuffer { s in try out.withFramebuffer { o in
                try Resampler.resample(filter, source: s, sourceOrigin: (0, 0), xAxis: ResampleAxis(step: step, lower: 0, upper: 20)!,
                                   yAxis: ResampleAxis(step: step, lower: 0, upper: 20)!,
                                   output: PixelRect(x: 0, y: 0, width: 11, height: 11), into: o, at: (0, 0))
            } }
            for p in out.pixels {
                let a = p >> 24
                #expect((p >> 16) & 0xFF <= a && (p >> 8) & 0xFF <= a && p & 0xFF <= a, "\(filter) \(String(p, radix: 16))")
            }
        }
    }

    @Test("Bad resample geometry is refused, not trapped on")
    func badAxes() {
        #expect(ResampleAxis(step: 0, lower: 0, upper: 10) == nil)
        #expect(ResampleAxis(step: -1, lower: 0, upper: 10) == nil)
        #expect(ResampleAxis(step: .nan, lower: 0, upper: 10) == nil)
        #expect(ResampleAxis(step: .infinity, lower: 0, upper: 10) == nil)
        #expect(ResampleAxis(step: 1, lower: 5, upper: 5) == nil)

        let src = OwnedFramebuffer(width: 10, height: 10)!, out = OwnedFramebuffer(width: 4, height: 4)!
        let axis = ResampleAxis(step: 2, lower: 0, upper: 10)!
        src.withFramebuffer { s in out.withFramebuffer { o in
            #expect(throws: ResampleError.destinationOutsideTarget(output: PixelRect(x: 0, y: 0, width: 5, height: 4),
                                                                   atX: 0, atY: 0, targetWidth: 4, targetHeight: 4)) {
                try Resampler.resample(.box, source: s, sourceOrigin: (0, 0), xAxis: axis, yAxis: axis,
                                       output: PixelRect(x: 0, y: 0, width: 5, height: 4), into: o, at: (0, 0))
            }
            // Output pixels 0..<4 at step 2 read source 0..<8; a source starting at 3 lacks 0...2.
            do throws(ResampleError) {
                try Resampler.resample(.box, source: s, sourceOrigin: (3, 0), xAxis: axis, yAxis: axis,
                                       output: PixelRect(x: 0, y: 0, width: 4, height: 4), into: o, at: (0, 0))
                Issue.record("a source missing pixels was accepted")
            } catch {
                #expect(error == .sourceTooSmall(needed: PixelRect(x: 0, y: 0, width: 8, height: 8),
                                                 held: PixelRect(x: 3, y: 0, width: 10, height: 10)))
                #expect(error.description.contains("x 0..<8") && error.description.contains("holds x 3..<13"))
            }
        } }
        #expect(out.pixels.allSatisfy { $0 == 0 }, "nothing written")
    }

    @Test("Rounded rects: solid inside, nothing outside, half coverage on a half-pixel edge")
    func roundedRect() {
        let fb = OwnedFramebuffer(width: 20, height: 12)!
        fb.withFramebuffer { f in
            f.fillRoundedRect(DeviceRect(x: 2, y: 2, width: 10.5, height: 8), radius: 3, fill: 0xFFFF_0000, clip: nil)
        }
        let p = fb.pixels
        #expect(p[6 * 20 + 6] == 0xFFFF_0000, "inside")
        #expect(p[6 * 20 + 13] == 0 && p[0] == 0, "outside")
        #expect(p[6 * 20 + 12] == 0x8080_0000, "the right edge at x 12.5 covers half of pixel 12")
        #expect(p[2 * 20 + 2] == 0, "the rounded corner leaves the corner pixel empty")
        #expect(p[2 * 20 + 6] == 0xFFFF_0000, "the straight top edge is solid")
        let clipped = OwnedFramebuffer(width: 20, height: 12)!
        clipped.withFramebuffer { f in
            f.fillRoundedRect(DeviceRect(x: 2, y: 2, width: 10, height: 8), radius: 3, fill: 0xFFFF_0000,
                              clip: PixelRect(x: 0, y: 0, width: 6, height: 12))
            f.fillRoundedRect(DeviceRect(x: 2, y: 2, width: .nan, height: 8), radius: 3, fill: 0xFFFF_0000)
            f.fillRoundedRect(DeviceRect(x: 2, y: 2, width: -5, height: 8), radius: 3, fill: 0xFFFF_0000)
        }
        #expect(clipped.pixels[6 * 20 + 7] == 0 && clipped.pixels[6 * 20 + 5] == 0xFFFF_0000)
    }
}

@Suite("Tile cache", .oneRenderThread)
struct TileCacheTests {
    @Test("Least recently used tiles go first and the budget is never exceeded")
    func lru() {
        let scene = Scene1(viewport: CGSize(width: 256, height: 256), contentSize: CGSize(width: 256 * 20, height: 256))
        let tile = 256 * 256 * 4
        let renderer = Renderer(cacheBudget: 3 * tile)
        let fb = OwnedFramebuffer(width: 256, height: 256)!
        // Visit columns 0, 1, 2, then 0 again (refreshing it), then 3: column 1 is evicted.
        for column in [0, 1, 2, 0, 3] {
            scene.scroller.bounds.origin = CGPoint(x: column * 256, y: 0)
            renderer.render(scene.root, into: fb, bufferAge: 1)
            #expect(renderer.cacheBytes <= 3 * tile)
        }
        let before = renderer.statistics.tilesDrawn
        for column in [0, 2, 3] {
            scene.scroller.bounds.origin = CGPoint(x: column * 256, y: 0)
            renderer.render(scene.root, into: fb, bufferAge: 1)
        }
        #expect(renderer.statistics.tilesDrawn == before, "columns 0, 2, 3 are still cached")
        scene.scroller.bounds.origin = CGPoint(x: 256, y: 0)
        renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn == before + 1, "column 1 was evicted")
        renderer.cacheBudget = tile
        #expect(renderer.cacheBytes <= tile && renderer.cachedTileCount == 1, "shrinking the budget evicts at once")
    }
}
