// Renderer.stillFrame: which frames are one colour with at most one shared picture, and that
// such a frame put together from its parts is the frame the renderer draws, pixel for pixel.
import Foundation
import Raster
import ScrollKit
import Testing

/// Pixels standing in for a render in shared memory (the descriptor is never read here).
private final class SharedStub: SharedPixelFile, @unchecked Sendable {
    let pixels: OwnedFramebuffer
    let shared: Bool
    var sharedFile: Int32? { shared ? 3 : nil }
    let width: Int, height: Int
    let isOpaque: Bool

    init(width: Int, height: Int, alpha: UInt32, shared: Bool = true) {
        pixels = OwnedFramebuffer(width: width, height: height)!
        self.width = width
        self.height = height
        self.shared = shared
        isOpaque = alpha == 255
        pixels.withFramebuffer { target in
            for y in 0..<height {
                for x in 0..<width {
                    // Premultiplied: colour at most alpha.
                    let r = UInt32(x * 7 % 256) * alpha / 255, g = UInt32(y * 13 % 256) * alpha / 255, b = UInt32((x + y) % 256) * alpha / 255
                    target[x, y] = alpha << 24 | r << 16 | g << 8 | b
                }
            }
        }
    }
}

/// A drawing rendered whole at one scale (as an SVG's render is), drawn from those pixels there
/// and grey at any other scale.
private final class RenderedDrawing: View, TiledContent {
    let render: SharedStub
    let renderScale: Double
    init(render: SharedStub, scale: Double) {
        self.render = render
        renderScale = scale
        super.init(frame: .zero)
    }

    var drawsAtAnyScale: Bool { true }
    var isOpaqueContent: Bool { render.isOpaque }

    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        for y in 0..<min(rect.height, target.height) {
            for x in 0..<min(rect.width, target.width) {
                let (cx, cy) = (rect.x + x, rect.y + y)
                let inside = scale == renderScale && cx >= 0 && cy >= 0 && cx < render.width && cy < render.height
                target[x, y] = inside ? render.pixels.withFramebuffer { $0[cx, cy] } : 0xFF80_8080
            }
        }
    }

    func storedPixels(scale: Double) -> StoredPixels? {
        guard scale == renderScale else { return nil }
        return render.pixels.withFramebuffer { StoredPixels(framebuffer: $0, owner: render) }
    }
}

/// A checkerboard view (what shows through transparent pictures).
private final class Checkers: View, PatternContent {
    var pattern: CheckerPattern { CheckerPattern(first: 0xFF80_8080, second: 0xFFCC_CCCC, side: 8) }
}

@Suite("Still frames")
struct StillFrameTests {
    /// A 200×120 window, black, with a 120×80 drawing rendered at 1 placed at (40, 20).
    private static func scene(alpha: UInt32 = 255, shared: Bool = true, checkers: Bool = false)
        -> (root: View, drawing: RenderedDrawing, renderer: Renderer) {
        let root = View(frame: CGRect(x: 0, y: 0, width: 200, height: 120))
        root.backgroundColor = .black
        if checkers { root.addSubview(Checkers(frame: CGRect(x: 40, y: 20, width: 120, height: 80))) }
        let drawing = RenderedDrawing(render: SharedStub(width: 120, height: 80, alpha: alpha, shared: shared), scale: 1)
        drawing.frame = CGRect(x: 40, y: 20, width: 120, height: 80)
        root.addSubview(drawing)
        return (root, drawing, Renderer())
    }

    /// The frame put together as a compositor would: the background, the picture's pixels as
    /// they are in `rect`, shown as XRGB (premultiplied colour as over black).
    private static func composed(_ still: StillFrame, width: Int, height: Int) -> [UInt32] {
        var frame = [UInt32](repeating: still.background & 0xFF_FFFF, count: width * height)
        if let picture = still.picture as? SharedStub {
            picture.pixels.withFramebuffer { pixels in
                for y in 0..<still.rect.height {
                    for x in 0..<still.rect.width { frame[(still.rect.y + y) * width + still.rect.x + x] = pixels[x, y] & 0xFF_FFFF }
                }
            }
        }
        return frame
    }

    private static func drawn(_ root: View, _ renderer: Renderer, width: Int, height: Int) -> [UInt32] {
        let buffer = OwnedFramebuffer(width: width, height: height)!
        renderer.render(root, into: buffer, bufferAge: 0)
        return buffer.withFramebuffer { fb in (0..<width * height).map { fb[$0 % width, $0 / width] & 0xFF_FFFF } }
    }

    @Test("A drawing at its render's scale over the black page is a still frame that is, put together, the frame drawn", arguments: [255, 0x80] as [UInt32])
    func drawingAtRest(alpha: UInt32) throws {
        let (root, _, renderer) = Self.scene(alpha: alpha)
        let still = try #require(renderer.stillFrame(of: root, width: 200, height: 120))
        #expect(still.background == 0xFF00_0000 && still.rect == PixelRect(x: 40, y: 20, width: 120, height: 80))
        #expect(still.picture is SharedStub)
        #expect(Self.composed(still, width: 200, height: 120) == Self.drawn(root, renderer, width: 200, height: 120))
    }

    @Test("Over a checkerboard only an opaque drawing is still: it hides the squares under it")
    func overCheckers() throws {
        let (opaque, _, opaqueRenderer) = Self.scene(alpha: 255, checkers: true)
        let still = try #require(opaqueRenderer.stillFrame(of: opaque, width: 200, height: 120))
        #expect(Self.composed(still, width: 200, height: 120) == Self.drawn(opaque, opaqueRenderer, width: 200, height: 120))
        let (translucent, _, renderer) = Self.scene(alpha: 0x80, checkers: true)
        #expect(renderer.stillFrame(of: translucent, width: 200, height: 120) == nil)
    }

    @Test("Not still: a second view in another colour, a drawing between its scales, one cut by the window's edge, or pixels not shared")
    func notStill() {
        var (root, drawing, renderer) = Self.scene()
        let badge = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        badge.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSubview(badge)
        #expect(renderer.stillFrame(of: root, width: 200, height: 120) == nil, "a red badge beside the picture")
        badge.removeFromSuperview()
        #expect(renderer.stillFrame(of: root, width: 200, height: 120) != nil)
        drawing.transformScale = 1.5
        #expect(renderer.stillFrame(of: root, width: 200, height: 120) == nil, "zoomed: no render at 1.5")
        drawing.transformScale = 1
        drawing.frame.origin.x = 100
        #expect(renderer.stillFrame(of: root, width: 200, height: 120) == nil, "cut by the right edge")
        (root, drawing, renderer) = Self.scene(shared: false)
        #expect(renderer.stillFrame(of: root, width: 200, height: 120) == nil, "private memory")
    }

    @Test("The black page alone is still, with no picture; a fill of the page's colour beside the picture keeps it still")
    func pageAlone() throws {
        let root = View(frame: CGRect(x: 0, y: 0, width: 200, height: 120))
        root.backgroundColor = .black
        let still = try #require(Renderer().stillFrame(of: root, width: 200, height: 120))
        #expect(still.picture == nil && still.background == 0xFF00_0000)
        let (scene, _, renderer) = Self.scene()
        let page = View(frame: CGRect(x: 170, y: 0, width: 30, height: 120))
        page.backgroundColor = .black
        scene.addSubview(page)
        #expect(renderer.stillFrame(of: scene, width: 200, height: 120) != nil)
    }

    @Test("Looking leaves the views' changes for the frame drawn next: a drawing invalidated before is redrawn")
    func looksWithoutTaking() throws {
        let (root, drawing, renderer) = Self.scene()
        let buffer = OwnedFramebuffer(width: 200, height: 120)!
        renderer.render(root, into: buffer, bufferAge: 0)
        #expect(renderer.render(root, into: buffer, bufferAge: 1).isEmpty, "nothing changed")
        drawing.setNeedsDisplay()
        _ = renderer.stillFrame(of: root, width: 200, height: 120)
        let damage = renderer.render(root, into: buffer, bufferAge: 1)
        #expect(PixelRegion(damage).bounds == PixelRect(x: 40, y: 20, width: 120, height: 80), "the invalidation was taken by the look: \(damage)")
    }
}
