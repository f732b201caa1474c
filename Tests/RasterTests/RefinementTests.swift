// Refined content (a full picture after its preview): the tiles drawn before stay on screen
// and are redrawn a few per frame; tiles at scales the refinement left alone are kept.
import Foundation
import Raster
import ScrollKit
import TestSupport
import Testing

/// Content whose pixels above `sharpFrom` device pixels per point change when it is refined,
/// like a picture whose preview keeps drawing the low scales.
final class RefiningView: View, TiledContent {
    /// 0 before the refinement, 1 after.
    var version = 0
    let sharpFrom: Double
    private var pending: Double?
    var isOpaqueContent: Bool { true }

    init(frame: CGRect, sharpFrom: Double) {
        self.sharpFrom = sharpFrom
        super.init(frame: frame)
    }

    static func pixel(x: Int, y: Int, scale: Double, version: Int, sharpFrom: Double) -> UInt32 {
        let base = PatternView.pixel(x: x, y: y, scale: scale, alpha: 255)
        return version > 0 && scale > sharpFrom ? base ^ 0x00FF_FFFF : base
    }

    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        for y in 0..<min(rect.height, target.height) {
            for x in 0..<min(rect.width, target.width) {
                target[x, y] = Self.pixel(x: rect.x + x, y: rect.y + y, scale: scale, version: version, sharpFrom: sharpFrom)
            }
        }
    }

    /// The content as it is now, for the background worker.
    func concurrentDrawing() -> TileDrawing? {
        let (version, sharpFrom) = (version, sharpFrom)
        return TileDrawing { rect, scale, target in
            for y in 0..<min(rect.height, target.height) {
                for x in 0..<min(rect.width, target.width) {
                    target[x, y] = RefiningView.pixel(x: rect.x + x, y: rect.y + y, scale: scale, version: version, sharpFrom: sharpFrom)
                }
            }
        }
    }

    func refine() {
        version += 1
        pending = sharpFrom
        setNeedsComposite()
    }

    func takeRefinement() -> Double? {
        defer { pending = nil }
        return pending
    }
}

/// Refining content that keeps its pixels at scale 1 stored, as a picture keeps its decoded
/// level: the renderer paints it enlarged straight from them.
final class StoredRefiningView: View, TiledContent {
    private(set) var version = 0
    private var stored: OwnedFramebuffer
    private var pending: Double?
    private let size: (width: Int, height: Int)
    var isOpaqueContent: Bool { true }

    init(width: Int, height: Int) {
        size = (width, height)
        stored = Self.pixels(width: width, height: height, version: 0)
        super.init(frame: CGRect(x: 0, y: 0, width: width, height: height))
    }

    static func pixels(width: Int, height: Int, version: Int) -> OwnedFramebuffer {
        let pixels = OwnedFramebuffer(width: width, height: height)!
        pixels.withFramebuffer { fb in
            for y in 0..<height { for x in 0..<width { fb[x, y] = RefiningView.pixel(x: x, y: y, scale: 1, version: version, sharpFrom: 0.5) } }
        }
        return pixels
    }

    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        for y in 0..<min(rect.height, target.height) {
            for x in 0..<min(rect.width, target.width) {
                target[x, y] = RefiningView.pixel(x: rect.x + x, y: rect.y + y, scale: scale, version: version, sharpFrom: 0.5)
            }
        }
    }

    func storedPixels(scale: Double) -> StoredPixels? {
        scale == 1 ? StoredPixels(framebuffer: stored.framebuffer, owner: stored) : nil
    }

    /// A finer rendition whose pixels above 0.5 changed, stored anew.
    func refine() {
        version += 1
        stored = Self.pixels(width: size.width, height: size.height, version: version)
        pending = 0.5
        setNeedsComposite()
    }

    func takeRefinement() -> Double? {
        defer { pending = nil }
        return pending
    }
}

@Suite("Renderer: refined content", .oneRenderThread)
struct RefinementTests {
    static let width = 800, height = 600

    /// A window showing `content` at scale 1 from offset (0, 0).
    static func window(_ content: View) -> View {
        let root = View(frame: CGRect(x: 0, y: 0, width: width, height: height))
        root.backgroundColor = .black
        let scroller = ScrollerView(frame: root.frame)
        root.addSubview(scroller)
        scroller.addSubview(content)
        return root
    }

    static func expected(version: Int, sharpFrom: Double) -> [UInt32] {
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                pixels[y * width + x] = RefiningView.pixel(x: x, y: y, scale: 1, version: version, sharpFrom: sharpFrom)
            }
        }
        return pixels
    }

    @Test("The old tiles go on showing while a few per frame are redrawn, the middle first")
    func redrawnOverFrames() throws {
        let content = RefiningView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000), sharpFrom: 0.5)
        let root = Self.window(content)
        let renderer = Renderer()
        renderer.maxTilesPerFrame = 4
        let fb = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        renderer.render(root, into: fb, bufferAge: 0)
        let before = Self.expected(version: 0, sharpFrom: 0.5), after = Self.expected(version: 1, sharpFrom: 0.5)
        #expect(fb.pixels == before)

        content.refine()
        var frames = 0
        var changed = 0
        repeat {
            let drawn = renderer.statistics.tilesDrawn
            let damage = renderer.render(root, into: fb, bufferAge: 1)
            frames += 1
            let madeNow = renderer.statistics.tilesDrawn - drawn
            #expect(madeNow <= 4, "frame \(frames) drew \(madeNow)")
            // Every pixel is the old or the new one; the damage covers exactly the new ones.
            let pixels = fb.pixels
            var newPixels = 0
            for i in pixels.indices {
                if pixels[i] == after[i] && pixels[i] != before[i] { newPixels += 1 } else {
                    #expect(pixels[i] == before[i], "pixel \(i % Self.width), \(i / Self.width) is neither")
                }
            }
            let area = PixelRegion(damage).area
            #expect(area == newPixels - changed, "frame \(frames): damage \(area) for \(newPixels - changed) new pixels")
            if frames == 1 {
                // The cell holding the centre (400, 300) first.
                #expect(pixels[300 * Self.width + 400] == after[300 * Self.width + 400])
                #expect(renderer.needsFollowUpFrame)
            }
            changed = newPixels
        } while renderer.needsFollowUpFrame && frames < 10
        #expect(frames == 3, "12 cells, 4 a frame")
        #expect(fb.pixels == after)
        #expect(renderer.render(root, into: fb, bufferAge: 1).isEmpty, "settled: nothing to paint")
    }

    @Test("Tiles at scales the refinement left unchanged are kept: nothing is drawn or painted")
    func unchangedScalesKept() throws {
        let content = RefiningView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000), sharpFrom: 1)
        let root = Self.window(content)
        let renderer = Renderer()
        let fb = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        renderer.render(root, into: fb, bufferAge: 0)
        let drawn = renderer.statistics.tilesDrawn
        content.refine()
        #expect(renderer.render(root, into: fb, bufferAge: 1).isEmpty)
        #expect(renderer.statistics.tilesDrawn == drawn)
        #expect(!renderer.needsFollowUpFrame)
        #expect(fb.pixels == Self.expected(version: 1, sharpFrom: 1))
    }

    @Test("With the background worker the stale tiles are left to it: frames draw none, then show its tiles")
    func backgroundReplacesStale() throws {
        let content = RefiningView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000), sharpFrom: 0.5)
        let root = Self.window(content)
        let renderer = Renderer()
        renderer.maxTilesPerFrame = 4
        renderer.prefetchesInBackground = true
        let fb = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        renderer.render(root, into: fb, bufferAge: 0)
        #expect(renderer.waitForBackgroundPrefetch(timeout: 20))
        content.refine()
        let drawn = renderer.statistics.tilesDrawn
        #expect(renderer.render(root, into: fb, bufferAge: 1).isEmpty, "nothing changed yet")
        #expect(renderer.statistics.tilesDrawn == drawn)
        #expect(renderer.needsFollowUpFrame, "frames go on until the worker's tiles are shown")
        #expect(fb.pixels == Self.expected(version: 0, sharpFrom: 0.5))
        #expect(renderer.waitForBackgroundPrefetch(timeout: 20))
        let damage = renderer.render(root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn == drawn)
        #expect(PixelRegion(damage).area == Self.width * Self.height)
        #expect(fb.pixels == Self.expected(version: 1, sharpFrom: 0.5))
        #expect(!renderer.needsFollowUpFrame)
    }

    @Test("Prefetch replaces the stale tiles; the frame after shows them without drawing")
    func prefetchReplacesStale() throws {
        let content = RefiningView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000), sharpFrom: 0.5)
        let root = Self.window(content)
        let renderer = Renderer()
        renderer.maxTilesPerFrame = 1
        let fb = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        renderer.render(root, into: fb, bufferAge: 0)
        content.refine()
        renderer.render(root, into: fb, bufferAge: 1)
        // 11 visible cells are stale; they come first.
        #expect(renderer.prefetch(maxTiles: 11) == 11)
        let drawn = renderer.statistics.tilesDrawn
        let damage = renderer.render(root, into: fb, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn == drawn)
        #expect(PixelRegion(damage).area == Self.width * Self.height - 256 * 256, "all but the first cell changed now")
        #expect(fb.pixels == Self.expected(version: 1, sharpFrom: 0.5))
        #expect(!renderer.needsFollowUpFrame)
    }

    @Test("Content painted from its stored level shows the new rendition's pixels the frame after a refinement")
    func storedLevelRefined() throws {
        func zoomed(_ content: StoredRefiningView) -> View {
            content.transformScale = 1.3
            content.frame = CGRect(x: 0, y: 0, width: 700 * 1.3, height: 500 * 1.3)
            return Self.window(content)
        }
        let content = StoredRefiningView(width: 700, height: 500)
        let root = zoomed(content)
        let renderer = Renderer()
        let fb = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        renderer.render(root, into: fb, bufferAge: 0)
        renderer.render(root, into: fb, bufferAge: 1)
        #expect(renderer.cacheBytes == 0 && renderer.cachedTileCount > 0, "only the stored level's tiles")
        content.refine()
        let damage = renderer.render(root, into: fb, bufferAge: 1)
        #expect(PixelRegion(damage).area == Self.width * Self.height, "the whole window repainted")
        // What a renderer that never saw the old rendition draws.
        let fresh = StoredRefiningView(width: 700, height: 500)
        fresh.refine()
        let reference = try #require(OwnedFramebuffer(width: Self.width, height: Self.height))
        Renderer().render(zoomed(fresh), into: reference, bufferAge: 0)
        #expect(fb.pixels == reference.pixels)
    }
}
