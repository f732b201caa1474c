// Frames turned for rotated and mirrored screens: every transform's pixel mapping against its
// definition (wl_output.transform: 90 a quarter turn counter-clockwise, flips about the vertical
// axis first), rects against the pixels they cover, and the turned copy pixel for pixel.
import Foundation
import Raster
import Testing

/// Frame pixel (x, y) of a `w`×`h` frame in a buffer turned by `t`, written out per the
/// definition: quarter turns counter-clockwise, the frame's top edge going to the buffer's left.
private func definition(_ t: FrameTransform, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> (Int, Int) {
    // Mirrored first (about the vertical axis), then turned.
    var (px, py, pw, ph) = t.rawValue >= 4 ? (w - 1 - x, y, w, h) : (x, y, w, h)
    for _ in 0..<(t.rawValue & 3) {
        // One quarter turn counter-clockwise of a pw×ph picture: the right column becomes the
        // top row, so (px, py) goes to (py, pw − 1 − px) in a ph×pw picture.
        (px, py, pw, ph) = (py, pw - 1 - px, ph, pw)
    }
    return (px, py)
}

/// A frame whose every pixel is distinct (its index), so a copy shows where each one went.
private func numberedFrame(_ w: Int, _ h: Int) -> OwnedFramebuffer {
    let frame = OwnedFramebuffer(width: w, height: h)!
    for y in 0..<h { frame.framebuffer.write((0..<w).map { 0xFF00_0000 | UInt32(y * w + $0) }, x: 0, y: y) }
    return frame
}

@Suite("Frame transforms")
struct FrameTransformTests {
    @Test("Pixels go where wl_output.transform says, and rects cover exactly their pixels' images",
          arguments: FrameTransform.allCases)
    func mapping(_ t: FrameTransform) {
        let w = 7, h = 4
        let size = t.bufferSize(width: w, height: h)
        #expect(size == (t.swapsAxes ? (h, w) : (w, h)))
        var seen = Set<Int>()
        for y in 0..<h {
            for x in 0..<w {
                let mapped = t.map(x: x, y: y, width: w, height: h)
                #expect(mapped == definition(t, x, y, w, h), "\(t): (\(x), \(y))")
                #expect(mapped.x >= 0 && mapped.y >= 0 && mapped.x < size.width && mapped.y < size.height)
                seen.insert(mapped.y * size.width + mapped.x)
            }
        }
        #expect(seen.count == w * h, "\(t) is not one-to-one")
        // A rect maps to the bounding box of its pixels' images, of the same area.
        let rect = PixelRect(x: 1, y: 2, width: 4, height: 2)
        let image = t.map(rect, width: w, height: h)
        var box = PixelRect.zero
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let p = definition(t, x, y, w, h)
                box = box.union(PixelRect(x: p.0, y: p.1, width: 1, height: 1))
            }
        }
        #expect(image == box, "\(t): \(rect) → \(image), pixels in \(box)")
        // The inverse takes the buffer back upright.
        #expect(t.inverse.map(image, width: size.width, height: size.height) == rect)
    }

    @Test("wl_output.transform names: 90 is a quarter turn counter-clockwise (the frame's top-left pixel ends bottom-left)")
    func quarterTurn() {
        // A 3×2 frame in a 2×3 buffer: its top row runs up the buffer's left column.
        #expect(FrameTransform.rotated90.map(x: 0, y: 0, width: 3, height: 2) == (0, 2))
        #expect(FrameTransform.rotated90.map(x: 2, y: 0, width: 3, height: 2) == (0, 0))
        #expect(FrameTransform.rotated270.map(x: 0, y: 0, width: 3, height: 2) == (1, 0))
        #expect(FrameTransform.flipped90.map(x: 2, y: 1, width: 3, height: 2) == (1, 2))
        #expect(FrameTransform.allCases.map(\.description) == ["normal", "90", "180", "270", "flipped", "flipped-90",
                                                               "flipped-180", "flipped-270"])
    }

    @Test("The turned copy puts every pixel of the rect where the mapping says and touches nothing else",
          arguments: FrameTransform.allCases)
    func copy(_ t: FrameTransform) {
        // 70×45: more than one 32-pixel block each way, not a multiple of it.
        let w = 70, h = 45
        let frame = numberedFrame(w, h)
        let size = t.bufferSize(width: w, height: h)
        let buffer = OwnedFramebuffer(width: size.width, height: size.height)!
        buffer.framebuffer.fill(buffer.framebuffer.bounds, with: 0x1234_5678)
        let rect = PixelRect(x: 3, y: 5, width: 61, height: 37)
        buffer.framebuffer.copy(from: frame.framebuffer, rect: rect, transform: t)
        var expected = [UInt32](repeating: 0x1234_5678, count: size.width * size.height)
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let p = definition(t, x, y, w, h)
                expected[p.1 * size.width + p.0] = frame.framebuffer[x, y]
            }
        }
        #expect(buffer.pixels == expected, "\(t)")
        // A rect reaching past the frame is clipped to it.
        let whole = OwnedFramebuffer(width: size.width, height: size.height)!
        whole.framebuffer.copy(from: frame.framebuffer, rect: PixelRect(x: -10, y: -10, width: 500, height: 500), transform: t)
        for y in [0, h - 1] {
            for x in [0, w - 1] {
                let p = definition(t, x, y, w, h)
                #expect(whole.framebuffer[p.0, p.1] == frame.framebuffer[x, y])
            }
        }
    }

    @Test("A frame with padding in its rows (stride above width) is read by its stride")
    func stride() {
        let storage = numberedFrame(12, 5)
        // The left 9 columns of a 12-wide allocation: a frame of 9×5 with stride 12.
        let frame = Framebuffer(base: storage.framebuffer.base, width: 9, height: 5, stride: 12)
        let buffer = OwnedFramebuffer(width: 5, height: 9)!
        buffer.framebuffer.copy(from: frame, rect: frame.bounds, transform: .rotated270)
        for y in 0..<5 {
            for x in 0..<9 {
                let p = definition(.rotated270, x, y, 9, 5)
                #expect(buffer.framebuffer[p.0, p.1] == storage.framebuffer[x, y])
            }
        }
    }
}
