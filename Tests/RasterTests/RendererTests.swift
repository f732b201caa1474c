// The renderer end to end: tiled frames against whole renders, tile counts, budgets, zoom.
import Foundation
import Raster
import ScrollKit
import TestSupport
import Testing

@Suite("Renderer: frames from tiles", .oneRenderThread)
struct RendererTests {
    static let under = Color(rgb: 0x336699).premultipliedARGB

    /// Renders `scene` with a fresh buffer and compares it with the whole-render reference.
    func expectMatchesReference(_ scene: Scene1, renderer: Renderer, scale: Double, level: Double,
                                width: Int, height: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let fb = OwnedFramebuffer(width: width, height: height)!
        renderer.render(scene.root, into: fb, bufferAge: 0)
        let o = scene.scroller.bounds.origin
        let origin = (Int((-Double(o.x) * renderer.outputScale).rounded()), Int((-Double(o.y) * renderer.outputScale).rounded()))
        let reference: OwnedFramebuffer
        do {
            reference = try referenceFrame(content: scene.content, contentSize: scene.content.bounds.size, scale: scale,
                                           level: level, origin: origin, clip: PixelRect(x: 0, y: 0, width: width, height: height),
                                           width: width, height: height, under: Self.under)
        } catch {
            Issue.record("reference render: \(error)", sourceLocation: sourceLocation)
            return
        }
        let diff = firstDifference(fb, reference)
        #expect(diff == nil, "scale \(scale) offset \(o): \(diff ?? "")", sourceLocation: sourceLocation)
    }

    @Test("Integer and fractional scroll offsets: tiles equal the whole content cropped")
    func offsets() {
        let scene = Scene1(viewport: CGSize(width: 500, height: 400), contentSize: CGSize(width: 1500, height: 1300))
        let renderer = Renderer()
        for offset in [CGPoint(x: 0, y: 0), CGPoint(x: 300, y: 517), CGPoint(x: 12.4, y: 700.5), CGPoint(x: 999.75, y: 0.25),
                       CGPoint(x: -40, y: -33.3), CGPoint(x: 1200, y: 1100)] {
            scene.scroller.bounds.origin = offset
            expectMatchesReference(scene, renderer: renderer, scale: 1, level: 1, width: 500, height: 400)
        }
    }

    @Test("Output scale 2: content drawn at level 2 directly")
    func outputScaleTwo() {
        let scene = Scene1(viewport: CGSize(width: 300, height: 200), contentSize: CGSize(width: 900, height: 800))
        let renderer = Renderer()
        renderer.outputScale = 2
        scene.scroller.bounds.origin = CGPoint(x: 101.3, y: 257.8)
        expectMatchesReference(scene, renderer: renderer, scale: 2, level: 2, width: 600, height: 400)
        #expect(scene.content.drawn.allSatisfy { $0.scale == 2 })
    }

    @Test("Zoom scales: resampled tiles equal the whole content resampled once", arguments: [0.5, 0.75, 1.3, 1.6, 2.0, 3.1])
    func zoomScales(zoom: Double) {
        let scene = Scene1(viewport: CGSize(width: 420, height: 330), contentSize: CGSize(width: 700, height: 600))
        let renderer = Renderer()
        scene.zoom(CGFloat(zoom))
        let level = pow(2, (log2(zoom)).rounded())
        for offset in [CGPoint(x: 0, y: 0), CGPoint(x: 77.5, y: 131.25)] {
            scene.scroller.bounds.origin = offset
            expectMatchesReference(scene, renderer: renderer, scale: zoom, level: level, width: 420, height: 330)
        }
        #expect(scene.content.drawn.allSatisfy { $0.scale == level }, "tiles are drawn at the nearest power of two")
    }

    @Test("Content that draws at any scale (a vector drawing) is drawn at its settled scale, not shrunk or enlarged from a level", arguments: [0.2, 0.75, 1.3])
    func anyScaleContent(zoom: Double) {
        let scene = Scene1(viewport: CGSize(width: 420, height: 330), contentSize: CGSize(width: 700, height: 600))
        scene.content.anyScale = true
        let renderer = Renderer()
        scene.zoom(CGFloat(zoom))
        for offset in [CGPoint(x: 0, y: 0), CGPoint(x: 77.5, y: 131.25)] {
            scene.scroller.bounds.origin = offset
            expectMatchesReference(scene, renderer: renderer, scale: zoom, level: zoom, width: 420, height: 330)
        }
        #expect(scene.content.drawn.allSatisfy { $0.scale == zoom }, "drawn at \(Set(scene.content.drawn.map(\.scale)))")
        #expect(renderer.statistics.tilesResampled == 0)
    }

    @Test("Settled content that draws at any scale is asked for stored pixels at the scale shown only, not at the level below it (a drawing renders itself whole for each scale asked)")
    func anyScaleContentAskedAtItsScale() {
        // 0.27 settles on level −2 (0.25), above the backstop's level for 5000×4000 content.
        let scene = Scene1(viewport: CGSize(width: 420, height: 330), contentSize: CGSize(width: 5000, height: 4000))
        scene.content.anyScale = true
        let renderer = Renderer()
        scene.zoom(0.27)
        let fb = OwnedFramebuffer(width: 420, height: 330)!
        renderer.render(scene.root, into: fb, bufferAge: 0)  // the zoom's frame
        renderer.render(scene.root, into: fb, bufferAge: 0)  // settled
        _ = renderer.prefetch(maxTiles: 100)
        let zoom = Double(CGFloat(0.27))
        #expect(!scene.content.storedAsked.isEmpty)
        #expect(scene.content.storedAsked.allSatisfy { abs($0 - zoom) < 1e-9 || $0 < 0.25 },
                "asked at \(Set(scene.content.storedAsked).sorted())")
        #expect(!scene.content.storedAsked.contains(0.25))
    }

    @Test("Tiles made in memory reserved ahead (a host waiting for a decoder) equal the content resampled once; each takes one block, and what is left is freed")
    func reservedTiles() {
        // Translucent content at 1.3: partial tiles at its edges, and resampled tiles.
        let scene = Scene1(viewport: CGSize(width: 420, height: 330), contentSize: CGSize(width: 700, height: 600))
        scene.content.opaque = false
        scene.zoom(1.3)
        let renderer = Renderer()
        renderer.reserveTiles(width: 420, height: 330)
        // 420×330 off the grid touches at most 3×3 cells.
        #expect(renderer.reservedTileCount == 9)
        expectMatchesReference(scene, renderer: renderer, scale: 1.3, level: 1, width: 420, height: 330)
        // Level-1 tiles and the cells resampled from them: each took a block of the reserve.
        let made = renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled
        #expect(made == 8 && renderer.reservedTileCount == 9 - made, "\(made) tiles made, \(renderer.reservedTileCount) blocks left")
        renderer.reserveTiles(width: 420, height: 330)
        renderer.releaseReservedTiles()
        #expect(renderer.reservedTileCount == 0)
    }

    @Test("Tiles at a scale the content keeps stored show its pixels: nothing drawn, nothing copied into the cache")
    func storedPixelsShownWithoutCopy() {
        let tile = 256 * 256 * 4
        let scene = Scene1(viewport: CGSize(width: 600, height: 400), contentSize: CGSize(width: 700, height: 500))
        scene.content.keepStored(width: 700, height: 500)
        let renderer = Renderer()
        scene.scroller.bounds.origin = CGPoint(x: 40.5, y: 17)
        expectMatchesReference(scene, renderer: renderer, scale: 1, level: 1, width: 600, height: 400)
        #expect(scene.content.drawn.isEmpty, "the content never draws a tile at the scale it keeps")
        #expect(renderer.cachedTileCount == 6 && renderer.cacheBytes == 0, "3×2 tiles cached, none holding pixels of its own")

        // Zoomed to 0.75: the sharp tiles are resampled from the stored level's tiles and are
        // the only ones that hold pixels.
        scene.zoom(0.75)
        renderer.render(scene.root, into: OwnedFramebuffer(width: 600, height: 400)!, bufferAge: 0)  // the zoom's frame
        expectMatchesReference(scene, renderer: renderer, scale: 0.75, level: 1, width: 600, height: 400)
        let sharp = renderer.cachedKeys.filter { $0.scale == 0.75 }
        #expect(!sharp.isEmpty && renderer.cacheBytes == sharp.count * tile)
        #expect(scene.content.drawn.allSatisfy { $0.scale != 1 })

        // Stored pixels short of the content's right edge: the tiles they do not cover whole
        // are drawn, the rest still shown from them.
        scene.zoom(1)
        scene.content.keepStored(width: 600, height: 500)
        scene.content.setNeedsDisplay()
        scene.content.resetLog()
        expectMatchesReference(scene, renderer: renderer, scale: 1, level: 1, width: 600, height: 400)
        #expect(scene.content.drawn.map(\.rect.x) == [512, 512], "only the last column is drawn")
        #expect(renderer.cacheBytes == renderer.cachedKeys.filter { $0.scale == 1 && $0.column == 2 }.count * tile)
    }

    @Test("Content enlarged from a level it keeps stored is painted from that level every frame: no sharp tiles, the same pixels")
    func enlargedFromStoredLevel() {
        let scene = Scene1(viewport: CGSize(width: 600, height: 400), contentSize: CGSize(width: 700, height: 500))
        scene.content.keepStored(width: 700, height: 500)
        let renderer = Renderer()
        let fb = OwnedFramebuffer(width: 600, height: 400)!
        scene.zoom(1.3)
        renderer.render(scene.root, into: fb, bufferAge: 0)  // the zoom's frame
        for offset in [CGPoint(x: 0, y: 0), CGPoint(x: 77.5, y: 131.25)] {
            scene.scroller.bounds.origin = offset
            expectMatchesReference(scene, renderer: renderer, scale: 1.3, level: 1, width: 600, height: 400)
        }
        #expect(renderer.cachedTileCount > 0 && renderer.cachedKeys.allSatisfy { $0.scale == 1 }, "only the stored level's tiles")
        #expect(renderer.cacheBytes == 0 && scene.content.drawn.isEmpty)

        // Larger than `paintsLevelMaxPixels` at its scale (1950×1560 pixels): sharp tiles, so
        // that moving it copies them instead of resampling a whole window every frame.
        let large = Scene1(viewport: CGSize(width: 600, height: 400), contentSize: CGSize(width: 1500, height: 1200))
        large.content.keepStored(width: 1500, height: 1200)
        large.zoom(1.3)
        renderer.render(large.root, into: fb, bufferAge: 0)
        expectMatchesReference(large, renderer: renderer, scale: 1.3, level: 1, width: 600, height: 400)
        #expect(renderer.cachedKeys.contains { $0.scale == 1.3 } && renderer.cacheBytes > 0)
    }

    @Test("A quick rendition of content (a vector drawing's) is painted enlarged from its own level, coarser than the settled one: no tile at the scale shown, no tile memory")
    func quickRenditionFromItsLevel() {
        let scene = Scene1(viewport: CGSize(width: 600, height: 400), contentSize: CGSize(width: 700, height: 500))
        scene.content.keepStored(width: 700, height: 500)
        scene.content.anyScale = true
        scene.content.provisional = 0
        let renderer = Renderer()
        // 1.7 settles on level 1 (2.0): the rendition's level 0 is painted enlarged instead.
        scene.zoom(1.7)
        renderer.render(scene.root, into: OwnedFramebuffer(width: 600, height: 400)!, bufferAge: 0)  // the zoom's frame
        scene.content.resetLog()
        for offset in [CGPoint(x: 0, y: 0), CGPoint(x: 77.5, y: 131.25)] {
            scene.scroller.bounds.origin = offset
            expectMatchesReference(scene, renderer: renderer, scale: 1.7, level: 1, width: 600, height: 400)
        }
        #expect(scene.content.drawn.isEmpty && renderer.cacheBytes == 0, "\(scene.content.drawn.count) drawn, \(renderer.cacheBytes) bytes")
        #expect(renderer.cachedKeys.allSatisfy { $0.scale == 1 })

        // The drawing itself (no rendition any more): sharp tiles at the scale shown.
        scene.content.provisional = nil
        scene.content.setNeedsDisplay()
        expectMatchesReference(scene, renderer: renderer, scale: 1.7, level: 1.7, width: 600, height: 400)
        #expect(!scene.content.drawn.isEmpty && scene.content.drawn.allSatisfy { $0.scale == 1.7 })

        // A level finer than the scale shown is no rendition to enlarge: drawn as before.
        scene.content.provisional = 2
        scene.content.setNeedsDisplay()
        scene.content.resetLog()
        expectMatchesReference(scene, renderer: renderer, scale: 1.7, level: 1.7, width: 600, height: 400)
        #expect(scene.content.drawn.allSatisfy { $0.scale == 1.7 })
    }

    @Test("A pattern view is painted into the frame from its closed form: squares of whole device pixels from its top-left, no tile made or cached, nothing repainted when it holds still")
    func patternPainted() {
        final class Board: View, PatternContent {
            let pattern = CheckerPattern(first: 0xFF80_8080, second: 0xFFC0_C0C0, side: 8)
        }
        let root = View(frame: CGRect(x: 0, y: 0, width: 200, height: 150))
        root.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 1)
        let board = Board(frame: CGRect(x: 13, y: 7, width: 100, height: 60))
        root.addSubview(board)
        let renderer = Renderer()
        renderer.outputScale = 1.5
        let fb = OwnedFramebuffer(width: 300, height: 225)!
        renderer.render(root, into: fb, bufferAge: 0)
        // At 1.5 the board spans device x 20…169 (13 × 1.5 = 19.5 rounds to 20), y 11…100, in
        // 12-pixel squares.
        func wrongPixels(left: Int) -> Int {
            var wrong = 0
            for y in 0..<225 {
                for x in 0..<300 {
                    var want: UInt32 = 0xFF00_0000
                    if (left..<(left + 150)).contains(x), (11..<101).contains(y) {
                        want = ((x - left) / 12 + (y - 11) / 12) & 1 == 0 ? 0xFF80_8080 : 0xFFC0_C0C0
                    }
                    if fb.framebuffer[x, y] != want { wrong += 1 }
                }
            }
            return wrong
        }
        #expect(wrongPixels(left: 20) == 0)
        #expect(renderer.cachedTileCount == 0 && renderer.statistics.tilesDrawn == 0)
        #expect(renderer.render(root, into: fb, bufferAge: 1).isEmpty, "a board that holds still repaints nothing")
        // Moved by 1 point (device x 21…170): the buffer of the last frame is repainted right.
        board.frame.origin.x = 14
        #expect(!renderer.render(root, into: fb, bufferAge: 1).isEmpty)
        #expect(wrongPixels(left: 21) == 0)
    }

    @Test("Translucent content blends over what lies below")
    func translucent() {
        let scene = Scene1(viewport: CGSize(width: 300, height: 300), contentSize: CGSize(width: 600, height: 600))
        scene.content.opaque = false
        let renderer = Renderer()
        scene.scroller.bounds.origin = CGPoint(x: 33.5, y: 80)
        expectMatchesReference(scene, renderer: renderer, scale: 1, level: 1, width: 300, height: 300)
        scene.zoom(1.4)
        expectMatchesReference(scene, renderer: renderer, scale: 1.4, level: 1, width: 300, height: 300)
    }

    @Test("Only tiles intersecting the visible rect are drawn, then the prefetch ring")
    func visibleTilesOnly() {
        // 256-pixel tiles; viewport 600×500 at offset (300, 300) sees columns 1...3, rows 1...3.
        let scene = Scene1(viewport: CGSize(width: 600, height: 500), contentSize: CGSize(width: 5000, height: 5000))
        let renderer = Renderer()
        scene.scroller.bounds.origin = CGPoint(x: 300, y: 300)
        let fb = OwnedFramebuffer(width: 600, height: 500)!
        renderer.render(scene.root, into: fb, bufferAge: 0)
        let drawn = Set(renderer.statistics.drawnKeys.map { [$0.column, $0.row] })
        var expected = Set<[Int]>()
        for c in 1...3 { for r in 1...3 { expected.insert([c, r]) } }
        #expect(drawn == expected)
        #expect(renderer.statistics.drawnKeys.count == 9, "each tile drawn once")

        // Nothing moved yet: first the backstop (the whole content at ⅛, 625×625 pixels: 3×3
        // tiles), then the prefetch ring around the visible tiles (5×5 − 3×3 = 16), drawn while
        // the host says idle time remains (here: for 10 tiles, then the rest).
        var budget = 10
        #expect(renderer.prefetch(while: { budget -= 1; return budget >= 0 }) == 10)
        #expect(renderer.prefetch(maxTiles: 100) == 9 + 16 - 10)
        #expect(!renderer.hasPrefetchWork)
        let backstop = renderer.statistics.drawnKeys.dropFirst(9).prefix(9)
        #expect(backstop.allSatisfy { $0.scale == 0.125 } && Set(backstop.map { [$0.column, $0.row] }).count == 9)
        let ring = Set(renderer.statistics.drawnKeys.filter { $0.scale == 1 }.map { [$0.column, $0.row] }).subtracting(expected)
        #expect(ring.allSatisfy { (0...4).contains($0[0]) && (0...4).contains($0[1]) })
        #expect(ring.count == 16)

        // Scrolling down one tile: the new row was prefetched, nothing is drawn for the frame;
        // the rings ahead are below only, as deep as a tile a frame reaches in 8 frames (at
        // most 4 rows), the nearest row first.
        scene.scroller.bounds.origin = CGPoint(x: 300, y: 556)
        let before = renderer.statistics.tilesDrawn
        renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn == before)
        #expect(renderer.prefetch(maxTiles: 100) == 12)
        let last12 = renderer.statistics.drawnKeys.suffix(12).map { [$0.column, $0.row] }
        #expect(last12 == [[1, 5], [2, 5], [3, 5], [1, 6], [2, 6], [3, 6], [1, 7], [2, 7], [3, 7], [1, 8], [2, 8], [3, 8]])
        #expect(scene.content.drawn.count == renderer.statistics.tilesDrawn)
    }

    @Test("Cached tiles are reused: scrolling back draws nothing")
    func reuse() {
        let scene = Scene1(viewport: CGSize(width: 400, height: 400), contentSize: CGSize(width: 3000, height: 3000))
        let renderer = Renderer()
        let fb = OwnedFramebuffer(width: 400, height: 400)!
        for y in stride(from: 0, through: 1000, by: 50) {
            scene.scroller.bounds.origin = CGPoint(x: 0, y: CGFloat(y))
            renderer.render(scene.root, into: fb, bufferAge: 1)
        }
        let drawn = renderer.statistics.tilesDrawn
        #expect(drawn == 2 * 6, "two columns, rows 0...5 (offsets to 1400 px)")
        for y in stride(from: 1000, through: 0, by: -50) {
            scene.scroller.bounds.origin = CGPoint(x: 0, y: CGFloat(y))
            renderer.render(scene.root, into: fb, bufferAge: 1)
        }
        #expect(renderer.statistics.tilesDrawn == drawn)
    }

    @Test("The cache never exceeds its budget, and the frame stays right when it is tiny")
    func budget() {
        let tile = 256 * 256 * 4
        let scene = Scene1(viewport: CGSize(width: 500, height: 400), contentSize: CGSize(width: 4000, height: 4000))
        let renderer = Renderer(cacheBudget: 5 * tile + 100)
        let fb = OwnedFramebuffer(width: 500, height: 400)!
        var peak = 0
        for step in 0..<40 {
            scene.scroller.bounds.origin = CGPoint(x: CGFloat(step * 37), y: CGFloat(step * 71))
            renderer.render(scene.root, into: fb, bufferAge: 1)
            renderer.prefetch(maxTiles: 8)
            peak = max(peak, renderer.cacheBytes)
            #expect(renderer.cacheBytes <= renderer.cacheBudget)
        }
        #expect(peak == 5 * tile, "the cache fills up to the budget")
        expectMatchesReference(scene, renderer: renderer, scale: 1, level: 1, width: 500, height: 400)

        let none = Renderer(cacheBudget: 0)
        scene.scroller.bounds.origin = CGPoint(x: 10, y: 20)
        expectMatchesReference(scene, renderer: none, scale: 1, level: 1, width: 500, height: 400)
        #expect(none.cacheBytes == 0 && none.cachedTileCount == 0)
        #expect(none.prefetch(maxTiles: 10) == 0, "prefetching into a zero budget keeps nothing")
    }

    @Test("Prefetch never evicts what the last frame showed")
    func prefetchKeepsVisibleTiles() {
        // 4 visible tiles and a budget of exactly 4: the ring has no room.
        let tile = 256 * 256 * 4
        let scene = Scene1(viewport: CGSize(width: 400, height: 400), contentSize: CGSize(width: 3000, height: 3000))
        let renderer = Renderer(cacheBudget: 4 * tile)
        let fb = OwnedFramebuffer(width: 400, height: 400)!
        scene.scroller.bounds.origin = CGPoint(x: 300, y: 300)
        renderer.render(scene.root, into: fb, bufferAge: 0)
        #expect(renderer.statistics.tilesDrawn == 4)
        #expect(renderer.hasPrefetchWork)
        #expect(renderer.prefetch(maxTiles: 10) == 0)
        #expect(!renderer.hasPrefetchWork)
        scene.scroller.bounds.origin = CGPoint(x: 301, y: 299)
        renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn == 4, "the visible tiles are all still cached")
    }

    @Test("setNeedsDisplay(rect) redraws only the tiles it touches")
    func invalidation() {
        let scene = Scene1(viewport: CGSize(width: 600, height: 600), contentSize: CGSize(width: 2000, height: 2000))
        let renderer = Renderer()
        let fb = OwnedFramebuffer(width: 600, height: 600)!
        renderer.render(scene.root, into: fb, bufferAge: 0)
        let before = renderer.statistics.drawnKeys.count
        scene.content.setNeedsDisplay(CGRect(x: 260, y: 10, width: 20, height: 20))
        renderer.render(scene.root, into: fb, bufferAge: 1)
        let redrawn = renderer.statistics.drawnKeys.dropFirst(before).map { [$0.column, $0.row] }
        #expect(redrawn == [[1, 0]])
    }

    @Test("A pinch scales existing tiles; sharp tiles replace them once the zoom settles")
    func pinch() {
        let scene = Scene1(viewport: CGSize(width: 400, height: 300), contentSize: CGSize(width: 1200, height: 900))
        let renderer = Renderer()
        let fb = OwnedFramebuffer(width: 400, height: 300)!
        renderer.render(scene.root, into: fb, bufferAge: 0)
        #expect(!renderer.needsFollowUpFrame)
        scene.content.resetLog()
        // Zooming in from 1 to 1.7 over several frames: level-1 tiles are scaled, none drawn at 2.
        for zoom in [1.1, 1.25, 1.4, 1.55, 1.7] {
            scene.zoom(CGFloat(zoom))
            renderer.render(scene.root, into: fb, bufferAge: 1)
            #expect(renderer.needsFollowUpFrame)
        }
        #expect(scene.content.drawn.allSatisfy { $0.scale == 1 })
        // The scale holds: the follow-up frame draws level-2 tiles and is exact.
        let damage = renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(!renderer.needsFollowUpFrame)
        #expect(scene.content.drawn.contains { $0.scale == 2 })
        #expect(damage == [PixelRect(x: 0, y: 0, width: 400, height: 300)], "the sharp frame replaces the whole view")
        expectMatchesReference(scene, renderer: renderer, scale: 1.7, level: 2, width: 400, height: 300)
    }

    @Test("Both cores: tiles drawn concurrently and frames painted in bands equal the whole render")
    func parallel() {
        let scene = Scene1(viewport: CGSize(width: 640, height: 480), contentSize: CGSize(width: 2000, height: 2000))
        scene.content.concurrent = true
        let renderer = Renderer()
        renderer.workers = 2
        renderer.parallelMinimumPixels = 1
        for (offset, zoom) in [(CGPoint(x: 100.5, y: 260.25), 1.0), (CGPoint(x: 40, y: 90), 1.45), (CGPoint(x: 7, y: 3), 0.8)] {
            scene.zoom(CGFloat(zoom))
            scene.scroller.bounds.origin = offset
            let level = pow(2, log2(zoom).rounded())
            // A changed scale first shows scaled tiles; the follow-up frame is the sharp one.
            renderer.render(scene.root, into: OwnedFramebuffer(width: 640, height: 480)!, bufferAge: 0)
            expectMatchesReference(scene, renderer: renderer, scale: zoom, level: level, width: 640, height: 480)
        }
        let keys = renderer.statistics.drawnKeys
        #expect(Set(keys).count == keys.count, "no tile is drawn twice")
        #expect(scene.content.drawn.count == renderer.statistics.tilesDrawn)
    }

    @Test("Views are drawn in order, hidden ones not, clipped to clipping ancestors")
    func viewTree() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        root.backgroundColor = .white
        let clipper = View(frame: CGRect(x: 10, y: 10, width: 50, height: 50))
        clipper.clipsToBounds = true
        clipper.backgroundColor = Color(rgb: 0xFF0000)
        let child = View(frame: CGRect(x: 40, y: 40, width: 40, height: 40))
        child.backgroundColor = Color(rgb: 0x00FF00, alpha: 0.5)
        let hidden = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        hidden.backgroundColor = .black
        hidden.isHidden = true
        root.addSubview(clipper)
        clipper.addSubview(child)
        root.addSubview(hidden)
        let fb = OwnedFramebuffer(width: 100, height: 100)!
        Renderer().render(root, into: fb, bufferAge: 0)
        let f = fb.pixels
        #expect(f[5 * 100 + 5] == 0xFFFF_FFFF)
        #expect(f[20 * 100 + 20] == 0xFFFF_0000)
        // Half-transparent green over red, inside the clipper only.
        #expect(f[55 * 100 + 55] == blendOver(Color(rgb: 0x00FF00, alpha: 0.5).premultipliedARGB, 0xFFFF_0000))
        #expect(f[65 * 100 + 65] == 0xFFFF_FFFF, "clipped away")
    }
}
