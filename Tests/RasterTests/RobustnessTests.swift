// Absurd input: enormous views, empty and negative rects, zero budgets, non-finite geometry.
import Foundation
import Raster
import ScrollKit
import TestSupport
import Testing

@Suite("Absurd input", .oneRenderThread)
struct RobustnessTests {
    @Test("A view of 10^9 points: only visible tiles are drawn, memory stays within the budget")
    func billionPoints() {
        let scene = Scene1(viewport: CGSize(width: 300, height: 200), contentSize: CGSize(width: 1e9, height: 1e9))
        let tile = 256 * 256 * 4
        let renderer = Renderer(cacheBudget: 8 * tile)
        let fb = OwnedFramebuffer(width: 300, height: 200)!
        for offset in [CGPoint(x: 0, y: 0), CGPoint(x: 5e8 + 0.5, y: 7e8 + 0.25), CGPoint(x: 1e9 - 300, y: 1e9 - 200)] {
            scene.scroller.bounds.origin = offset
            let before = renderer.statistics.tilesDrawn
            renderer.render(scene.root, into: fb, bufferAge: 1)
            #expect(renderer.statistics.tilesDrawn - before <= 4, "300×200 pixels touch at most 2×2 tiles")
            #expect(renderer.cacheBytes <= 8 * tile)
            // The pixel at the window's centre is the content pixel under it.
            let ox = Int(offset.x.rounded()), oy = Int(offset.y.rounded())
            #expect(fb.pixels[100 * 300 + 150] == PatternView.pixel(x: ox + 150, y: oy + 100, scale: 1, alpha: 255))
        }
    }

    @Test("Zero-size, negative-size and non-finite views draw nothing and do not trap")
    func degenerateViews() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        root.backgroundColor = .white
        let zero = PatternView(frame: CGRect(x: 10, y: 10, width: 0, height: 0))
        let negative = View(frame: CGRect(x: 40, y: 40, width: -30, height: -30))
        negative.backgroundColor = .black
        let huge = PatternView(frame: CGRect(x: 0, y: 0, width: CGFloat.greatestFiniteMagnitude, height: 1e300))
        huge.transformScale = 1e-300
        let nan = PatternView(frame: CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10))
        let infinite = View(frame: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 5))
        infinite.backgroundColor = Color(rgb: 0x00FF00)
        let zoomedToNothing = PatternView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        zoomedToNothing.transformScale = 0
        for v in [zero, negative, huge, nan, infinite, zoomedToNothing] { root.addSubview(v) }
        let renderer = Renderer()
        let fb = OwnedFramebuffer(width: 50, height: 50)!
        renderer.render(root, into: fb, bufferAge: 0)
        huge.setNeedsDisplay(CGRect(x: 0, y: 0, width: CGFloat.infinity, height: CGFloat.infinity))
        renderer.render(root, into: fb, bufferAge: 1)
        let p = fb.pixels
        // The negative-size view spans 10...40 once standardised, like CGRect does.
        #expect(p[25 * 50 + 25] == 0xFF00_0000)
        #expect(p[45 * 50 + 45] == 0xFFFF_FFFF)
        #expect(renderer.cacheBytes <= Renderer.defaultBudget)
        #expect(zero.drawn.isEmpty && nan.drawn.isEmpty && zoomedToNothing.drawn.isEmpty)
    }

    @Test("Zoom scales far outside the levels show the background only, without drawing content")
    func absurdZoom() {
        for zoom in [1e-12, 1e-7, 1e7, 1e12] {
            let scene = Scene1(viewport: CGSize(width: 64, height: 64), contentSize: CGSize(width: 1e9, height: 1e9))
            scene.zoom(CGFloat(zoom))
            let renderer = Renderer()
            let fb = OwnedFramebuffer(width: 64, height: 64)!
            renderer.render(scene.root, into: fb, bufferAge: 0)
            #expect(scene.content.drawn.isEmpty, "zoom \(zoom)")
            #expect(fb.pixels.allSatisfy { $0 == RendererTests.under })
        }
    }

    @Test("Budgets of zero or below keep nothing; empty and negative targets render nothing")
    func budgetsAndTargets() {
        let scene = Scene1(viewport: CGSize(width: 100, height: 100), contentSize: CGSize(width: 1000, height: 1000))
        let renderer = Renderer(cacheBudget: -5)
        #expect(renderer.cacheBudget == 0)
        let empty = OwnedFramebuffer(width: 0, height: 0)!
        #expect(renderer.render(scene.root, into: empty, bufferAge: 0) == [])
        #expect(renderer.statistics.tilesDrawn == 0)
        #expect(OwnedFramebuffer(width: -1, height: 10) == nil)
        #expect(OwnedFramebuffer(width: 1 << 40, height: 1 << 40) == nil)
        renderer.outputScale = .nan
        let fb = OwnedFramebuffer(width: 10, height: 10)!
        renderer.render(scene.root, into: fb, bufferAge: 0)
        #expect(fb.pixels.allSatisfy { $0 == renderer.clearColor }, "no scale: only the clear colour")
    }
}
