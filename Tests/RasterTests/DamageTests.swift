// Damage and buffer age: what a frame repaints and reports, checked against what changed.
import Foundation
import Raster
import ScrollKit
import TestSupport
import Testing

@Suite("Damage and buffer age", .oneRenderThread)
struct DamageTests {
    /// A fresh renderer's full render of the same tree: the truth a reused buffer must equal.
    func truth(_ root: View, width: Int, height: Int, scale: Double = 1) -> OwnedFramebuffer {
        let fb = OwnedFramebuffer(width: width, height: height)!
        let r = Renderer()
        r.outputScale = scale
        r.render(root, into: fb, bufferAge: 0)
        return fb
    }

    /// The pixels that differ between two frames of `width` pixels per row.
    func changedPixels(_ a: [UInt32], _ b: [UInt32], width: Int) -> [(Int, Int)] {
        zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map { ($0.offset % width, $0.offset / width) }
    }

    @Test("An idle frame paints nothing and reports nothing")
    func idle() {
        let scene = Scene1(viewport: CGSize(width: 200, height: 200), contentSize: CGSize(width: 800, height: 800))
        let renderer = Renderer()
        let fb = OwnedFramebuffer(width: 200, height: 200)!
        #expect(renderer.render(scene.root, into: fb, bufferAge: 0) == [PixelRect(x: 0, y: 0, width: 200, height: 200)])
        let drawn = renderer.statistics.tilesDrawn
        #expect(renderer.render(scene.root, into: fb, bufferAge: 1) == [])
        #expect(renderer.statistics.lastFramePaintedPixels == 0)
        #expect(renderer.statistics.tilesDrawn == drawn)
    }

    @Test("Damage covers exactly the pixels that changed: content invalidation and a moved view")
    func exactDamage() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 120, height: 100))
        root.backgroundColor = .white
        let box = View(frame: CGRect(x: 10, y: 10, width: 20, height: 15))
        box.backgroundColor = Color(rgb: 0x112233)
        let content = PatternView(frame: CGRect(x: 50, y: 40, width: 60, height: 50))
        root.addSubview(box)
        root.addSubview(content)
        let renderer = Renderer()
        let fb = OwnedFramebuffer(width: 120, height: 100)!
        renderer.render(root, into: fb, bufferAge: 0)
        let before = fb.pixels

        box.frame.origin = CGPoint(x: 14, y: 12)
        let damage = renderer.render(root, into: fb, bufferAge: 1)
        #expect(PixelRegion(damage) == PixelRegion([PixelRect(x: 10, y: 10, width: 20, height: 15),
                                                    PixelRect(x: 14, y: 12, width: 20, height: 15)]))
        let changed = changedPixels(before, fb.pixels, width: 120)
        let region = PixelRegion(damage)
        #expect(changed.allSatisfy { region.contains(x: $0.0, y: $0.1) }, "every changed pixel is damaged")
        // The old and new box overlap in 16×13 pixels of the same colour: damage is the union.
        #expect(changed.count == region.area - 16 * 13)

        // Invalidating 4×4 points of content damages those pixels plus the filters' 2-pixel reach.
        content.setNeedsDisplay(CGRect(x: 10, y: 10, width: 4, height: 4))
        let d2 = renderer.render(root, into: fb, bufferAge: 1)
        #expect(d2 == [PixelRect(x: 58, y: 48, width: 8, height: 8)])
    }

    @Test("Buffer age: each reused buffer repaints what changed since it was drawn", arguments: [1, 2, 3])
    func bufferAge(buffers: Int) {
        let scene = Scene1(viewport: CGSize(width: 240, height: 180), contentSize: CGSize(width: 900, height: 900),
                           scrollerOrigin: CGPoint(x: 20, y: 30))
        let renderer = Renderer()
        let pool = (0..<buffers).map { _ in OwnedFramebuffer(width: 240, height: 180)! }
        // Each buffer remembers the frame it holds; nil until first drawn.
        var holds = [UInt64?](repeating: nil, count: buffers)
        var step = 0
        for frame in 0..<12 {
            // A mix of changes: scroll, an indicator fading, content redraw, nothing.
            switch frame % 4 {
            case 0: scene.scroller.bounds.origin.y += 37
            case 1: scene.scroller.indicators = [bar(CGRect(x: 200, y: scene.scroller.bounds.origin.y + 10, width: 6, height: 60),
                                                     alpha: Double(frame) / 12)]
            case 2: scene.content.setNeedsDisplay(CGRect(x: 30, y: 100, width: 40, height: 40))
            default: break
            }
            let i = step % buffers
            step += 1
            let age = renderer.bufferAge(holding: holds[i])
            #expect(age == (holds[i] == nil ? 0 : buffers), "round-robin buffers are \(buffers) frames old")
            renderer.render(scene.root, into: pool[i], bufferAge: age)
            holds[i] = renderer.lastFrame
            let expected = truth(scene.root, width: 240, height: 180)
            let diff = firstDifference(pool[i], expected)
            #expect(diff == nil, "frame \(frame), buffer \(i): \(diff ?? "")")
        }
    }

    @Test("An indicator fading over still content repaints only the indicator")
    func fadingIndicator() {
        let scene = Scene1(viewport: CGSize(width: 300, height: 300), contentSize: CGSize(width: 300, height: 2000))
        let renderer = Renderer()
        let fb = OwnedFramebuffer(width: 300, height: 300)!
        scene.scroller.bounds.origin.y = 400
        let rect = CGRect(x: 293, y: 403, width: 4, height: 50)
        scene.scroller.indicators = [bar(rect, alpha: 1)]
        renderer.render(scene.root, into: fb, bufferAge: 0)
        let tiles = renderer.statistics.tilesDrawn
        for alpha in [0.8, 0.5, 0.2, 0.0] {
            scene.scroller.indicators[0].alpha = alpha
            let damage = renderer.render(scene.root, into: fb, bufferAge: 1)
            #expect(damage == [PixelRect(x: 293, y: 3, width: 4, height: 50)])
            #expect(renderer.statistics.lastFramePaintedPixels == 4 * 50)
            #expect(renderer.statistics.tilesDrawn == tiles)
            #expect(firstDifference(fb, truth(scene.root, width: 300, height: 300)) == nil)
        }
    }

    @Test("A resized buffer repaints fully")
    func resize() {
        let scene = Scene1(viewport: CGSize(width: 100, height: 100), contentSize: CGSize(width: 400, height: 400))
        let renderer = Renderer()
        let small = OwnedFramebuffer(width: 100, height: 100)!, large = OwnedFramebuffer(width: 150, height: 120)!
        renderer.render(scene.root, into: small, bufferAge: 0)
        scene.root.frame = CGRect(x: 0, y: 0, width: 150, height: 120)
        let damage = renderer.render(scene.root, into: large, bufferAge: 1)
        #expect(damage == [PixelRect(x: 0, y: 0, width: 150, height: 120)])
        #expect(renderer.statistics.lastFramePaintedPixels == 150 * 120)
    }
}
