// Output scales as a HiDPI window sets them: fractional scales drawn at the scale itself
// (sharp, not resampled from a power of two), and a scale change repainting the whole frame
// at once at the new scale.
import Foundation
import Host
import Raster
import ScrollKit
import TestCardContent
import TestSupport
import Testing

@Suite("Renderer: output scales", .oneRenderThread)
struct OutputScaleTests {
    static let under = Color(rgb: 0x336699).premultipliedARGB

    @Test("Output scale 1.5: unzoomed content is drawn at 1.5 itself and equals the whole content drawn at 1.5")
    func fractionalOutput() throws {
        let scene = Scene1(viewport: CGSize(width: 300, height: 200), contentSize: CGSize(width: 900, height: 800))
        let renderer = Renderer()
        renderer.outputScale = 1.5
        scene.scroller.bounds.origin = CGPoint(x: 101.3, y: 257.8)
        let fb = try #require(OwnedFramebuffer(width: 450, height: 300))
        renderer.render(scene.root, into: fb, bufferAge: 0)
        let o = scene.scroller.bounds.origin
        let origin = (Int((-Double(o.x) * 1.5).rounded()), Int((-Double(o.y) * 1.5).rounded()))
        let reference = try referenceFrame(content: scene.content, contentSize: scene.content.bounds.size, scale: 1.5,
                                           level: 1.5, origin: origin, clip: PixelRect(x: 0, y: 0, width: 450, height: 300),
                                           width: 450, height: 300, under: Self.under)
        #expect(firstDifference(fb, reference) == nil, "\(firstDifference(fb, reference) ?? "")")
        #expect(!scene.content.drawn.isEmpty && scene.content.drawn.allSatisfy { $0.scale == 1.5 })
        #expect(!renderer.needsFollowUpFrame)
    }

    @Test("The test card at 1.5: every device pixel is the card's colour of its point, no blended edge anywhere")
    func testCardSharp() throws {
        let root = View()
        let card = TestCardView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        root.addSubview(card)
        let scene = ViewScene(root: root)
        scene.resize(width: 400, height: 300, scale: 1.5)
        let fb = try #require(OwnedFramebuffer(width: 600, height: 450))
        _ = scene.render(into: fb.framebuffer, bufferAge: 0)
        var wrong: [String] = []
        for y in 0..<450 {
            for x in 0..<600 {
                // Pixel x covers points [x/1.5, (x+1)/1.5): the card's point ⌊x/1.5⌋.
                let expected = TestCard.color(x: x * 2 / 3, y: y * 2 / 3)
                if fb.framebuffer[x, y] != expected, wrong.count < 5 {
                    wrong.append("(\(x), \(y)): \(String(fb.framebuffer[x, y], radix: 16)) ≠ \(String(expected, radix: 16))")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("A scale change repaints the whole buffer at the new scale at once, even into a buffer of the same size",
          arguments: [(1.0, 1.5), (2.0, 1.5), (1.5, 2.0), (2.0, 1.0)])
    func scaleChange(from: Double, to: Double) throws {
        let scene = Scene1(viewport: CGSize(width: 300, height: 200), contentSize: CGSize(width: 900, height: 800))
        scene.scroller.bounds.origin = CGPoint(x: 40, y: 75)
        let renderer = Renderer()
        renderer.outputScale = from
        let fb = try #require(OwnedFramebuffer(width: 600, height: 400))
        renderer.render(scene.root, into: fb, bufferAge: 0)
        scene.content.resetLog()
        renderer.outputScale = to
        // Age 1: the buffer holds the last frame, at the old scale.
        let damage = renderer.render(scene.root, into: fb, bufferAge: 1)
        #expect(damage == [fb.framebuffer.bounds], "the whole buffer changes: \(damage)")
        #expect(!renderer.needsFollowUpFrame, "a scale change is no zoom: no provisional frame")
        #expect(scene.content.drawn.allSatisfy { $0.scale == to }, "\(Set(scene.content.drawn.map(\.scale)))")
        let fresh = Renderer()
        fresh.outputScale = to
        let expected = try #require(OwnedFramebuffer(width: 600, height: 400))
        fresh.render(scene.root, into: expected, bufferAge: 0)
        #expect(firstDifference(fb, expected) == nil, "\(firstDifference(fb, expected) ?? "")")
    }
}
