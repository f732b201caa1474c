// A frame makes at most `maxTilesPerFrame` sharp tiles when cached tiles of another level can
// stand in: the rest show those scaled, exactly as the zoom frames showed them, and sharpen
// over the next frames, nearest the middle first.
import Foundation
import Raster
import ScrollKit
import TestSupport
import Testing

@Suite("Renderer: tiles per frame", .oneRenderThread)
struct FrameBudgetTests {
    static let under = Color(rgb: 0x336699).premultipliedARGB
    static let width = 800, height = 600

    /// The device rects of the visible cells of content placed at the origin: 256-pixel cells
    /// clipped to the window.
    static var cells: [PixelRect] {
        var rects: [PixelRect] = []
        for y in stride(from: 0, to: height, by: 256) {
            for x in stride(from: 0, to: width, by: 256) {
                rects.append(PixelRect(x: x, y: y, width: min(256, width - x), height: min(256, height - y)))
            }
        }
        return rects
    }

    /// Whether every pixel of `rect` is the same in both framebuffers.
    static func same(_ a: [UInt32], _ b: [UInt32], in rect: PixelRect) -> Bool {
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where a[y * width + x] != b[y * width + x] { return false }
        }
        return true
    }

    static func reference(_ scene: Scene1, zoom: Double, level: Double) throws -> [UInt32] {
        try referenceFrame(content: scene.content, contentSize: scene.content.bounds.size, scale: zoom, level: level,
                           origin: (0, 0), clip: PixelRect(x: 0, y: 0, width: width, height: height), width: width,
                           height: height, under: under).pixels
    }

    @Test("A settling zoom sharpens a few cells per frame, the middle first; the others keep the zoom's scaled pixels")
    func settleSpreadOverFrames() throws {
        let scene = Scene1(viewport: CGSize(width: Self.width, height: Self.height), contentSize: CGSize(width: 1400, height: 1000))
        let renderer = Renderer()
        renderer.maxTilesPerFrame = 4
        let fb = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        renderer.render(scene.root, into: fb, bufferAge: 0)
        // Zooming out to 0.7 scales the level-1 (scale 1) tiles; once it holds, sharp tiles are
        // box-filtered from level ½, which the scaled ones visibly differ from.
        for zoom in [0.9, 0.8, 0.7] {
            scene.zoom(CGFloat(zoom))
            renderer.render(scene.root, into: fb, bufferAge: 1)
        }
        let zoomed = fb.pixels
        let sharp = try Self.reference(scene, zoom: 0.7, level: 0.5)
        let cells = Self.cells
        #expect(cells.allSatisfy { !Self.same(zoomed, sharp, in: $0) }, "the scaled and the sharp frames must differ in every cell")

        var sharpCells = Set<PixelRect>()
        var frames = 0
        repeat {
            let made = renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled
            let damage = renderer.render(scene.root, into: fb, bufferAge: 1)
            frames += 1
            let madeNow = renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled - made
            let pixels = fb.pixels
            var nowSharp = Set<PixelRect>()
            for cell in cells {
                if Self.same(pixels, sharp, in: cell) {
                    nowSharp.insert(cell)
                } else {
                    #expect(Self.same(pixels, zoomed, in: cell), "frame \(frames): cell \(cell) is neither sharp nor the zoom's pixels")
                }
            }
            #expect(sharpCells.isSubset(of: nowSharp), "a sharp cell went back to scaled")
            let newlySharp = nowSharp.subtracting(sharpCells)
            #expect(!newlySharp.isEmpty, "frame \(frames) sharpened nothing")
            // Each cell costs its resampled tile and the level-½ tiles it needs that are not
            // made yet: a few cells fit the budget of 4, the first cell always does.
            #expect(madeNow <= 4 || newlySharp.count == 1, "frame \(frames) made \(madeNow) tiles for \(newlySharp.count) cells")
            // Only the cells that sharpened changed.
            let region = PixelRegion(damage)
            #expect(region.area == newlySharp.reduce(0) { $0 + $1.area } &&
                    newlySharp.allSatisfy { c in region.contains(x: c.x, y: c.y) && region.contains(x: c.maxX - 1, y: c.maxY - 1) },
                    "frame \(frames): damage \(damage) for \(newlySharp)")
            if frames == 1 {
                // The middle cell (256…512, 256…512) holds the window's centre (400, 300).
                #expect(newlySharp.contains(PixelRect(x: 256, y: 256, width: 256, height: 256)), "the middle sharpens first")
                #expect(renderer.needsFollowUpFrame)
            }
            sharpCells = nowSharp
        } while renderer.needsFollowUpFrame && frames < 20
        #expect(frames > 1 && frames < 12, "settled in \(frames) frames")
        #expect(sharpCells.count == cells.count)
        #expect(fb.pixels == sharp, "the settled frame equals the whole content resampled once")
        // Settled: the next frame paints nothing.
        #expect(renderer.render(scene.root, into: fb, bufferAge: 1).isEmpty)
    }

    @Test("Tiles with no stand-in are all made at once, whatever the budget: nothing is left blank")
    func noStandInNoCap() throws {
        let scene = Scene1(viewport: CGSize(width: Self.width, height: Self.height), contentSize: CGSize(width: 1400, height: 1000))
        let renderer = Renderer()
        renderer.maxTilesPerFrame = 1
        let fb = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        scene.scroller.bounds.origin = CGPoint(x: 300, y: 200)
        renderer.render(scene.root, into: fb, bufferAge: 0)
        #expect(renderer.statistics.tilesDrawn == 4 * 4, "columns 1…4, rows 0…3")
        #expect(!renderer.needsFollowUpFrame)
        let expected = try referenceFrame(content: scene.content, contentSize: scene.content.bounds.size, scale: 1, level: 1,
                                          origin: (-300, -200), clip: PixelRect(x: 0, y: 0, width: Self.width, height: Self.height),
                                          width: Self.width, height: Self.height, under: Self.under)
        #expect(firstDifference(fb, expected) == nil, "\(firstDifference(fb, expected) ?? "")")
    }

    @Test("Prefetch makes the stand-in cells' sharp tiles first: the next frame is sharp without drawing")
    func prefetchSharpensStandIns() throws {
        let scene = Scene1(viewport: CGSize(width: Self.width, height: Self.height), contentSize: CGSize(width: 1400, height: 1000))
        let renderer = Renderer()
        renderer.maxTilesPerFrame = 2
        let fb = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        renderer.render(scene.root, into: fb, bufferAge: 0)
        for zoom in [1.2, 1.4, 1.6] {
            scene.zoom(CGFloat(zoom))
            renderer.render(scene.root, into: fb, bufferAge: 1)
        }
        // Settling at 1.6 (level 2): the middle cell is made, the others stand in.
        renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(renderer.needsFollowUpFrame)
        #expect(renderer.hasPrefetchWork)
        let sharp = try Self.reference(scene, zoom: 1.6, level: 2)
        let standIns = Self.cells.filter { !Self.same(fb.pixels, sharp, in: $0) }.count
        #expect(standIns > 0)
        // Exactly the stand-in cells first (each draws its missing level-2 tiles on the way).
        #expect(renderer.prefetch(maxTiles: standIns) == standIns)
        let made = renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled
        renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled == made, "everything was prefetched")
        #expect(!renderer.needsFollowUpFrame)
        #expect(fb.pixels == sharp)
    }

    @Test("Zooming a 4K window in and out makes at most the budget's tiles in any frame, and leaves nothing blank")
    func zoomAt4KStaysWithinBudget() throws {
        // Content filling a 3840×2160 window at scale 1, zoomed in to 2 at its top-left corner
        // and out again: the zoom-out frame scales level-1 (scale 2) tiles, most of which the
        // zoom in never drew (bench-fling's zoom at 4K drew 99 of them in one frame). Few
        // frames: each resamples 8 megapixels, slow in a debug build.
        let width = 3840, height = 2160
        let scene = Scene1(viewport: CGSize(width: width, height: height), contentSize: CGSize(width: width, height: height))
        let renderer = Renderer()
        let budget = 8
        renderer.maxTilesPerFrame = budget
        // Each frame makes its budget, or the first cell's tiles when they cost more: its tile
        // and the at most 3×3 source tiles a 256-pixel cell reads within a factor of two.
        let most = max(budget, 1 + 9)
        let fb = try #require(OwnedFramebuffer(width: width, height: height))
        // Nothing painted is left with this (transparent, so never drawn) colour.
        let unpainted: UInt32 = 0x00FF_00FF
        // The first frame has nothing to stand in: everything is made at once.
        renderer.render(scene.root, into: fb, bufferAge: 0)
        var frames = 1, worst = (frame: 0, tiles: 0)
        func frame(zooming: Bool) {
            let made = renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled
            if zooming {
                // Zoom frames repaint the whole window here, to check that they show something everywhere.
                fb.withFramebuffer { $0.fill($0.bounds, with: unpainted) }
                renderer.render(scene.root, into: fb, bufferAge: 0)
                #expect(!fb.pixels.contains(unpainted), "frame \(frames) left pixels unpainted")
            } else {
                renderer.render(scene.root, into: fb, bufferAge: 1)
            }
            frames += 1
            let madeNow = renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled - made
            if madeNow > worst.tiles { worst = (frames, madeNow) }
        }
        func settle() {
            var settling = 0
            while renderer.needsFollowUpFrame && settling < 100 {
                frame(zooming: false)
                settling += 1
            }
            #expect(!renderer.needsFollowUpFrame, "the zoom settled in \(settling) frames")
        }
        for zooms in [[1.59, 2], [1.41, 1]] {
            for zoom in zooms {
                scene.zoom(CGFloat(zoom))
                frame(zooming: true)
            }
            settle()
        }
        #expect(worst.tiles <= most, "frame \(worst.frame) made \(worst.tiles) tiles")
        // Back at scale 1, the frame is the content drawn at it.
        let settled = try referenceFrame(content: scene.content, contentSize: scene.content.bounds.size, scale: 1, level: 1,
                                         origin: (0, 0), clip: PixelRect(x: 0, y: 0, width: width, height: height),
                                         width: width, height: height, under: Self.under)
        #expect(firstDifference(fb, settled) == nil, "\(firstDifference(fb, settled) ?? "")")
    }

    @Test("Panning and zooming out after the cache dropped the coarser levels stay within the budget: the backstop stands in")
    func backstopStandsIn() throws {
        let scene = Scene1(viewport: CGSize(width: Self.width, height: Self.height), contentSize: CGSize(width: 1400, height: 1000))
        // 32 tiles: the visible cells of one level and a ring, so that settling at 8 pushes out
        // the other levels.
        let renderer = Renderer(cacheBudget: 32 * 256 * 256 * 4)
        renderer.maxTilesPerFrame = 8
        let fb = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        var worst = (zoom: 0.0, tiles: 0)
        func frame(_ zoom: Double) {
            let made = renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled
            renderer.render(scene.root, into: fb, bufferAge: 1)
            let madeNow = renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled - made
            if madeNow > worst.tiles { worst = (zoom, madeNow) }
        }
        // Frames until the scale has settled, each followed by the idle time to prefetch (the
        // backstop among the rest).
        func settle(_ zoom: Double) {
            var frames = 0
            repeat {
                frame(zoom)
                renderer.prefetch(maxTiles: 1000)
                frames += 1
            } while renderer.needsFollowUpFrame && frames < 50
        }
        renderer.render(scene.root, into: fb, bufferAge: 0)
        renderer.prefetch(maxTiles: 1000)
        scene.zoom(8)
        settle(8)
        // Panning at 8 fills the cache with level-3 tiles and pushes out the older levels (without
        // the backstop, each of these frames made 10–14 tiles, and the zoom out below 19).
        for x in [1000, 2000, 3000, 4000, 0] {
            scene.scroller.bounds.origin = CGPoint(x: x, y: x / 2)
            settle(8)
        }
        // Out to 3, then 2.5: a zoom frame scaling level 2 (scale 4), never drawn, while the
        // other levels are gone; the backstop (level −1, the content at 700×500) is not.
        for zoom in [3, 2.5] {
            scene.zoom(CGFloat(zoom))
            frame(zoom)
        }
        settle(2.5)
        #expect(worst.tiles <= 10, "a frame at \(worst.zoom) made \(worst.tiles) tiles")
        let sharp = try Self.reference(scene, zoom: 2.5, level: 2)
        #expect(fb.pixels == sharp, "settled, the frame is sharp")
    }
}
