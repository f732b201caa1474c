// Drawing for turned screens without a compositor: which transform a surface's buffers take from
// the outputs it is on, when it counts as hidden, and the pre-rotated frame path, whose buffers
// (reused at any age) must always equal the scene's upright frame turned.
import Foundation
import Host
import Raster
import ScrollKit
import Testing
@testable import Wayland

/// A scene that paints a given rect of a numbered pattern each frame and reports it as damage,
/// as a renderer does (the whole frame for an unknown buffer).
private final class StripeScene: Scene {
    var onNeedsFrame: (() -> Void)?
    var needsRender: Bool { true }
    /// The rect the next frame changes, and the frame number painted into it.
    var change = PixelRect.zero
    var frame: UInt32 = 0
    /// What the scene's own pixels are now (its idea of the upright frame).
    var truth: [UInt32] = []
    var width = 0, height = 0

    func resize(width: Int, height: Int, scale: Double) {
        self.width = width
        self.height = height
        truth = Array(repeating: 0, count: width * height)
    }
    func handle(frame events: [InputEvent]) {}
    func advance(to time: Double) -> FrameRequest { .idle }

    func render(into buffer: Framebuffer, bufferAge: Int) -> [PixelRect] {
        frame += 1
        let rect = change.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { truth[y * width + x] = 0xFF00_0000 | frame << 16 | UInt32(y * width + x) & 0xFFFF }
        }
        // This scene draws into the buffer it is given: a buffer of unknown age gets everything.
        let repaint = bufferAge == 1 ? [rect] : [PixelRect(x: 0, y: 0, width: width, height: height)]
        for r in repaint {
            for y in r.y..<r.maxY { buffer.write(Array(truth[(y * width + r.x)..<(y * width + r.maxX)]), x: r.x, y: y) }
        }
        return repaint
    }
}

@Suite("Pre-rotated frames and surface placement")
struct PreRotationTests {
    @Test("A surface takes the transform its outputs share; on none, that of every output; mixed, upright")
    func transformFromOutputs() {
        var placement = SurfacePlacement()
        #expect(placement.transform == .normal && !placement.isHidden)
        // cage 0.1.4 sends no enter: the only output's transform is used from the start.
        placement.refresh(outputTransforms: [7: .rotated90])
        #expect(placement.transform == .rotated90 && !placement.isHidden)
        placement.refresh(outputTransforms: [7: .rotated90, 9: .normal])
        #expect(placement.transform == .normal, "outputs turned differently and the surface on none")
        placement.enter(output: 9)
        #expect(placement.transform == .normal)
        placement.leave(output: 9)
        placement.enter(output: 7)
        #expect(placement.transform == .rotated90)
        placement.enter(output: 9)
        #expect(placement.transform == .normal, "across two outputs turned differently")
        // The output turns while the surface is on it (swaymsg output … transform).
        placement.leave(output: 9)
        placement.refresh(outputTransforms: [7: .flipped270, 9: .normal])
        #expect(placement.transform == .flipped270)
    }

    @Test("Hidden means on no output after having been on one (another workspace, the screen unplugged)")
    func hidden() {
        var placement = SurfacePlacement()
        placement.refresh(outputTransforms: [3: .normal])
        #expect(!placement.isHidden, "never entered: some compositors never say")
        placement.enter(output: 3)
        placement.leave(output: 3)
        #expect(placement.isHidden)
        placement.enter(output: 3)
        #expect(!placement.isHidden)
        // The output goes away (unplugged): the surface is on none.
        placement.refresh(outputTransforms: [:])
        #expect(placement.isHidden && placement.transform == .normal)
    }

    @Test("wl_output.transform 0…7 is taken, anything else ignored with a warning naming it",
          arguments: [(Int32(0), true), (1, true), (7, true), (8, false), (-1, false), (Int32.max, false)])
    func checked(_ raw: Int32, _ valid: Bool) {
        let checked = FrameTransform.checked(outputTransform: raw)
        #expect((checked.transform != nil) == valid)
        #expect((checked.warning != nil) == !valid)
        if let warning = checked.warning { #expect(warning.contains("\(raw)")) }
    }

    @Test("The damage ring repaints the union of the frames a buffer missed, everything when its age is unknown")
    func damageRing() {
        var ring = DamageRing()
        let bounds = PixelRect(x: 0, y: 0, width: 100, height: 100)
        #expect(ring.repaint(bufferAge: 1, bounds: bounds) == PixelRegion([bounds]))
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10), b = PixelRect(x: 50, y: 50, width: 5, height: 5)
        ring.record(PixelRegion([a]))
        ring.record(PixelRegion([b]))
        #expect(ring.repaint(bufferAge: 1, bounds: bounds) == PixelRegion([b]))
        #expect(ring.repaint(bufferAge: 2, bounds: bounds) == PixelRegion([a, b]))
        #expect(ring.repaint(bufferAge: 3, bounds: bounds) == PixelRegion([bounds]))
        #expect(ring.repaint(bufferAge: 0, bounds: bounds) == PixelRegion([bounds]))
        for _ in 0..<20 { ring.record(PixelRegion([a])) }
        #expect(ring.frames.count == DamageRing.length)
    }

    @Test("Buffers turned any way and reused at any age always hold the scene's frame turned, and the rects returned cover every pixel copied",
          arguments: FrameTransform.allCases)
    func buffersStayTrue(_ t: FrameTransform) throws {
        let w = 40, h = 25
        let scene = StripeScene()
        scene.resize(width: w, height: h, scale: 1)
        let pre = try #require(PreRotatedFrame(transform: t, width: w, height: h))
        let size = pre.bufferSize
        #expect(size == t.bufferSize(width: w, height: h))
        // Three buffers taken in a rotation that gives ages 0, then 1…3 (as a compositor
        // holding buffers would), each frame changing a different rect.
        let buffers = (0..<3).map { _ in OwnedFramebuffer(width: size.width, height: size.height)! }
        var lastDrawn = [Int](repeating: 0, count: 3)
        let order = [0, 1, 2, 0, 0, 1, 2, 2, 1, 0, 1]
        for (n, index) in order.enumerated() {
            let frame = n + 1
            scene.change = PixelRect(x: (n * 7) % w, y: (n * 5) % h, width: 9, height: 6)
            let age = lastDrawn[index] == 0 ? 0 : frame - lastDrawn[index]
            let before = buffers[index].pixels
            let copied = pre.render(scene, into: buffers[index].framebuffer, bufferAge: age)
            lastDrawn[index] = frame
            // The buffer is the scene's frame turned.
            var expected = [UInt32](repeating: 0, count: size.width * size.height)
            for y in 0..<h {
                for x in 0..<w {
                    let p = t.map(x: x, y: y, width: w, height: h)
                    expected[p.y * size.width + p.x] = scene.truth[y * w + x]
                }
            }
            #expect(buffers[index].pixels == expected, "\(t), frame \(frame), buffer \(index) at age \(age)")
            // Pixels that changed lie in the rects returned (the damage sent to the compositor).
            let after = buffers[index].pixels
            let region = PixelRegion(copied)
            for i in after.indices where after[i] != before[i] {
                #expect(region.contains(x: i % size.width, y: i / size.width), "\(t): pixel \(i) changed outside the damage")
            }
        }
        // The upright frame is the scene's.
        #expect((0..<h).allSatisfy { y in (0..<w).allSatisfy { x in pre.frame[x, y] == scene.truth[y * w + x] } })
    }
}
