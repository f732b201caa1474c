// Prefetch: which tiles are drawn ahead of need (rings as deep as the motion reaches, content
// just outside the window), and the background prefetcher's tiles reaching the screen only
// while they are still right.
import Foundation
import Raster
import ScrollKit
import TestSupport
import Testing

@Suite("Renderer: prefetch", .oneRenderThread)
struct PrefetchTests {
    static let under = Color(rgb: 0x336699).premultipliedARGB

    /// The tiles at scale 1 drawn since `count` keys were recorded, as [column, row] in drawing
    /// order (not those of the content's backstop level).
    static func drawnSince(_ renderer: Renderer, _ count: Int) -> [[Int]] {
        renderer.statistics.drawnKeys.dropFirst(count).filter { $0.scale == 1 }.map { [$0.column, $0.row] }
    }

    @Test("The rings ahead are as deep as the last frame's motion reaches in 8 frames, nearest first")
    func ringsFollowSpeed() {
        let scene = Scene1(viewport: CGSize(width: 600, height: 500), contentSize: CGSize(width: 5000, height: 5000))
        let renderer = Renderer()
        let fb = OwnedFramebuffer(width: 600, height: 500)!
        // Columns 1…3 (300…900), rows 1…3 (300…800, then 380…880) stay visible.
        for y in [300, 340, 380] {
            scene.scroller.bounds.origin = CGPoint(x: 300, y: y)
            renderer.render(scene.root, into: fb, bufferAge: 1)
        }
        // 40 px a frame: 320 px in 8 frames, two rows below (after the backstop: the whole
        // content at ⅛, 625×625 pixels, 3×3 tiles).
        var before = renderer.statistics.drawnKeys.count
        #expect(renderer.prefetch(maxTiles: 100) == 9 + 6)
        #expect(Self.drawnSince(renderer, before) == [[1, 4], [2, 4], [3, 4], [1, 5], [2, 5], [3, 5]])

        // 130 px a frame towards the top-left: capped at four rings, left and above only.
        scene.scroller.bounds.origin = CGPoint(x: 3500, y: 3500)
        renderer.render(scene.root, into: fb, bufferAge: 0)
        scene.scroller.bounds.origin = CGPoint(x: 3370, y: 3370)
        renderer.render(scene.root, into: fb, bufferAge: 1)
        before = renderer.statistics.drawnKeys.count
        renderer.prefetch(maxTiles: 1000)
        let drawn = Self.drawnSince(renderer, before)
        // Visible: columns 13…15 (3370…3970) and rows 13…15 (3370…3870).
        #expect(drawn.count == 7 * 7 - 9)
        #expect(Set(drawn.map { $0[0] }) == Set(9...15), "columns: four to the left of 13…15")
        #expect(Set(drawn.map { $0[1] }) == Set(9...15), "rows: four above 13…15")
        #expect(drawn.allSatisfy { $0[0] < 13 || $0[1] < 13 }, "nothing right of or below the visible tiles")
        #expect(drawn.prefix(7).allSatisfy { $0[0] == 12 || $0[1] == 12 }, "the nearest ring first: \(drawn.prefix(7))")
    }

    @Test("During a zoom, the level the scale will settle on is prefetched: the settled frame draws no tile")
    func zoomPrefetchesSettlingLevel() throws {
        let scene = Scene1(viewport: CGSize(width: 600, height: 500), contentSize: CGSize(width: 2000, height: 2000))
        let renderer = Renderer()
        let fb = try #require(OwnedFramebuffer(width: 600, height: 500))
        renderer.render(scene.root, into: fb, bufferAge: 0)
        renderer.prefetch(maxTiles: 1000)
        // Zooming in to 1.7: level-1 (scale 1) tiles are scaled; it settles on level 2.
        for zoom in [1.2, 1.45, 1.7] {
            scene.zoom(CGFloat(zoom))
            renderer.render(scene.root, into: fb, bufferAge: 1)
            renderer.prefetch(maxTiles: 1000)
        }
        #expect(scene.content.drawn.contains { $0.scale == 2 }, "level-2 tiles were prefetched during the zoom")
        let drawn = renderer.statistics.tilesDrawn
        renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn == drawn, "the settled frame only resampled")
        #expect(!renderer.needsFollowUpFrame)
        let expected = try referenceFrame(content: scene.content, contentSize: scene.content.bounds.size, scale: 1.7, level: 2,
                                          origin: (0, 0), clip: PixelRect(x: 0, y: 0, width: 600, height: 500), width: 600,
                                          height: 500, under: Self.under)
        #expect(firstDifference(fb, expected) == nil, "\(firstDifference(fb, expected) ?? "")")
    }

    /// A window showing page 0 of two side by side in a clipping pager (a gallery's layout).
    struct Pages {
        let root: View
        let pager: ScrollerView
        let pages: [PatternView]

        init() {
            root = View(frame: CGRect(x: 0, y: 0, width: 600, height: 400))
            root.backgroundColor = Color(rgb: 0x336699)
            pager = ScrollerView(frame: root.frame)
            pages = [PatternView(frame: CGRect(x: 0, y: 0, width: 600, height: 400)),
                     PatternView(frame: CGRect(x: 620, y: 0, width: 600, height: 400))]
            root.addSubview(pager)
            for page in pages { pager.addSubview(page) }
        }
    }

    @Test("The next page, just outside the window, is prefetched nearest the window first; showing it draws nothing")
    func nextPage() throws {
        let scene = Pages()
        let renderer = Renderer()
        let fb = try #require(OwnedFramebuffer(width: 600, height: 400))
        renderer.render(scene.root, into: fb, bufferAge: 0)
        #expect(scene.pages[1].drawn.isEmpty)
        // Page 1 is 3×2 tiles; the column nearest the window first.
        #expect(renderer.prefetch(maxTiles: 100) == 6)
        #expect(scene.pages[1].drawn.map { $0.rect.x } == [0, 0, 256, 256, 512, 512])
        #expect(scene.pages[1].drawn.allSatisfy { $0.scale == 1 })

        scene.pager.bounds.origin = CGPoint(x: 620, y: 0)
        let drawn = renderer.statistics.tilesDrawn
        renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn == drawn, "every tile of page 1 was there")
        let expected = try referenceFrame(content: scene.pages[1], contentSize: CGSize(width: 600, height: 400), scale: 1, level: 1,
                                          origin: (0, 0), clip: PixelRect(x: 0, y: 0, width: 600, height: 400), width: 600,
                                          height: 400, under: Self.under)
        #expect(firstDifference(fb, expected) == nil, "\(firstDifference(fb, expected) ?? "")")
    }

    @Test("In the background: the ring is drawn between frames and the next frame draws nothing")
    func background() throws {
        let scene = Scene1(viewport: CGSize(width: 600, height: 500), contentSize: CGSize(width: 5000, height: 5000))
        scene.content.concurrent = true
        let renderer = Renderer()
        renderer.prefetchesInBackground = true
        let fb = try #require(OwnedFramebuffer(width: 600, height: 500))
        scene.scroller.bounds.origin = CGPoint(x: 300, y: 300)
        renderer.render(scene.root, into: fb, bufferAge: 0)
        #expect(!renderer.hasPrefetchWork, "nothing is left for the host to prefetch")
        #expect(renderer.waitForBackgroundPrefetch(timeout: 20))
        scene.scroller.bounds.origin = CGPoint(x: 300, y: 556)
        let drawn = renderer.statistics.tilesDrawn
        renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn == drawn, "row 4 came from the background")
        #expect(renderer.statistics.tilesPrefetched == 9 + 16, "the backstop's 3×3 tiles, the ring around the first frame's 3×3 tiles")
        let expected = try referenceFrame(content: scene.content, contentSize: scene.content.bounds.size, scale: 1, level: 1,
                                          origin: (-300, -556), clip: PixelRect(x: 0, y: 0, width: 600, height: 500),
                                          width: 600, height: 500, under: Self.under)
        #expect(firstDifference(fb, expected) == nil, "\(firstDifference(fb, expected) ?? "")")
    }

    @Test("Background tiles of content that changed meanwhile never reach the screen")
    func staleBackgroundTiles() throws {
        let scene = Scene1(viewport: CGSize(width: 600, height: 500), contentSize: CGSize(width: 5000, height: 5000))
        scene.content.concurrent = true
        scene.content.opaque = false
        scene.content.translucentAlpha = 0x80
        let renderer = Renderer()
        renderer.prefetchesInBackground = true
        let fb = try #require(OwnedFramebuffer(width: 600, height: 500))
        scene.scroller.bounds.origin = CGPoint(x: 300, y: 300)
        renderer.render(scene.root, into: fb, bufferAge: 0)
        // The ring is drawn at alpha 0x80 in the background; then the content changes.
        #expect(renderer.waitForBackgroundPrefetch(timeout: 20))
        scene.content.translucentAlpha = 0x40
        scene.content.setNeedsDisplay()
        renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesPrefetched == 0, "the old tiles were not adopted")
        scene.scroller.bounds.origin = CGPoint(x: 300, y: 556)
        renderer.render(scene.root, into: fb, bufferAge: 1)
        let expected = try referenceFrame(content: scene.content, contentSize: scene.content.bounds.size, scale: 1, level: 1,
                                          origin: (-300, -556), clip: PixelRect(x: 0, y: 0, width: 600, height: 500),
                                          width: 600, height: 500, under: Self.under)
        #expect(firstDifference(fb, expected) == nil, "\(firstDifference(fb, expected) ?? "")")
    }
}
