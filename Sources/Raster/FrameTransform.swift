// Frames turned for rotated and mirrored screens: the eight ways a rectangle of pixels can be
// turned or flipped (wl_output.transform's), where a rect of the upright frame lands in the
// turned buffer, and the copy that turns the pixels.
import Foundation

/// How a buffer holds an upright frame: turned by quarter turns, optionally mirrored first.
///
/// The raw values and meanings are `wl_output.transform`'s: 90 is a quarter turn
/// counter-clockwise, so the frame's top edge becomes the buffer's left edge; the flipped
/// values mirror the frame about its vertical axis first, then turn it. A frame of W×H pixels
/// fills a buffer of H×W pixels when the transform `swapsAxes`.
public enum FrameTransform: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Upright.
    case normal = 0
    /// A quarter turn counter-clockwise.
    case rotated90 = 1
    /// A half turn.
    case rotated180 = 2
    /// Three quarter turns counter-clockwise (one clockwise).
    case rotated270 = 3
    /// Mirrored about the vertical axis.
    case flipped = 4
    /// Mirrored, then a quarter turn counter-clockwise.
    case flipped90 = 5
    /// Mirrored, then a half turn (mirrored about the horizontal axis).
    case flipped180 = 6
    /// Mirrored, then three quarter turns counter-clockwise.
    case flipped270 = 7

    /// Whether the buffer's width is the frame's height (quarter and three-quarter turns).
    public var swapsAxes: Bool { rawValue & 1 == 1 }

    /// "90", "flipped-270": the names sway's `output … transform` uses.
    public var description: String {
        let turn = ["normal", "90", "180", "270"][rawValue & 3]
        return rawValue >= 4 ? (turn == "normal" ? "flipped" : "flipped-\(turn)") : turn
    }

    /// The buffer size for an upright frame of `width`×`height` pixels.
    public func bufferSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Where pixel (x, y) of an upright `width`×`height` frame is in the buffer.
    public func map(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        let r = map(PixelRect(x: x, y: y, width: 1, height: 1), width: width, height: height)
        return (r.x, r.y)
    }

    /// The buffer rect showing `rect` of an upright `width`×`height` frame.
    public func map(_ rect: PixelRect, width w: Int, height h: Int) -> PixelRect {
        let x = rect.x, y = rect.y, rw = rect.width, rh = rect.height
        switch self {
        case .normal: return rect
        case .rotated90: return PixelRect(x: y, y: w - x - rw, width: rh, height: rw)
        case .rotated180: return PixelRect(x: w - x - rw, y: h - y - rh, width: rw, height: rh)
        case .rotated270: return PixelRect(x: h - y - rh, y: x, width: rh, height: rw)
        case .flipped: return PixelRect(x: w - x - rw, y: y, width: rw, height: rh)
        case .flipped90: return PixelRect(x: y, y: x, width: rh, height: rw)
        case .flipped180: return PixelRect(x: x, y: h - y - rh, width: rw, height: rh)
        case .flipped270: return PixelRect(x: h - y - rh, y: w - x - rw, width: rh, height: rw)
        }
    }

    /// How the frame's pixels are walked for the buffer's: the frame pixel shown at buffer
    /// pixel (0, 0) of a rect, and the frame index steps (in pixels, `stride` a row) for one
    /// buffer pixel to the right and one down.
    func walk(for bufferRect: PixelRect, frameWidth w: Int, frameHeight h: Int,
              stride: Int) -> (start: Int, right: Int, down: Int) {
        // The frame pixel of the buffer rect's top-left corner, found by mapping the frame
        // rect back: the inverse of `map` for one pixel.
        let frameRect = inverse.map(bufferRect, width: swapsAxes ? h : w, height: swapsAxes ? w : h)
        let fx0 = frameRect.x, fy0 = frameRect.y, fx1 = frameRect.maxX - 1, fy1 = frameRect.maxY - 1
        switch self {
        case .normal: return (fy0 * stride + fx0, 1, stride)
        case .rotated90: return (fy0 * stride + fx1, stride, -1)
        case .rotated180: return (fy1 * stride + fx1, -1, -stride)
        case .rotated270: return (fy1 * stride + fx0, -stride, 1)
        case .flipped: return (fy0 * stride + fx1, -1, stride)
        case .flipped90: return (fy0 * stride + fx0, stride, 1)
        case .flipped180: return (fy1 * stride + fx0, 1, -stride)
        case .flipped270: return (fy1 * stride + fx1, -stride, -1)
        }
    }

    /// The transform that turns a buffer held this way back upright.
    public var inverse: FrameTransform {
        switch self {
        case .rotated90: return .rotated270
        case .rotated270: return .rotated90
        default: return self  // half turns and mirrors undo themselves
        }
    }
}

extension Framebuffer {
    /// Copies `rect` of `frame` (an upright frame) into this buffer, turned by `transform`,
    /// to `transform.map(rect, …)`. This buffer must be `frame`'s size turned
    /// (`transform.bufferSize`); `rect` is clipped to the frame.
    ///
    /// Hand-written rather than pixman's composite with a transform: pixman has fast paths for
    /// quarter turns only (mirrors fall to its general sampler), and these loops serve all
    /// eight at least at its speed (raster-bench `--only transform`: a 1080p frame turned a
    /// quarter in about 3 ms here, like pixman, half turns and mirrors at memcpy speed, where
    /// pixman's mirrors take 1.5–2×). Quarter turns walk squares of 32×32 pixels, which keep
    /// the strided side within a few dozen cache lines.
    public func copy(from frame: Framebuffer, rect: PixelRect, transform: FrameTransform) {
        let source = rect.intersection(frame.bounds)
        guard !source.isEmpty else { return }
        let size = transform.bufferSize(width: frame.width, height: frame.height)
        precondition(size.width == width && size.height == height,
                     "a \(frame.width)×\(frame.height) frame turned \(transform) needs a \(size.width)×\(size.height) buffer, not \(width)×\(height)")
        let target = transform.map(source, width: frame.width, height: frame.height)
        let walk = transform.walk(for: target, frameWidth: frame.width, frameHeight: frame.height, stride: frame.stride)
        if walk.right == 1 {
            // Rows stay rows (upright or mirrored about the horizontal axis): whole-row copies.
            for row in 0..<target.height {
                let from = frame.base + walk.start + row * walk.down
                (base + (target.y + row) * stride + target.x).update(from: from, count: target.width)
            }
            return
        }
        if walk.right == -1 {
            // Rows stay rows, read backwards (half turn, mirror): four pixels at a time.
            for row in 0..<target.height {
                let last = frame.base + walk.start + row * walk.down
                let to = base + (target.y + row) * stride + target.x
                var i = 0
                while i + 4 <= target.width {
                    let v = UnsafeRawPointer(last - i - 3).loadUnaligned(as: SIMD4<UInt32>.self)
                    UnsafeMutableRawPointer(to + i).storeBytes(of: SIMD4(v[3], v[2], v[1], v[0]), as: SIMD4<UInt32>.self)
                    i += 4
                }
                while i < target.width {
                    to[i] = (last - i).pointee
                    i += 1
                }
            }
            return
        }
        let block = 32
        for by in Swift.stride(from: 0, to: target.height, by: block) {
            let rows = min(block, target.height - by)
            for bx in Swift.stride(from: 0, to: target.width, by: block) {
                let columns = min(block, target.width - bx)
                for row in by..<(by + rows) {
                    var from = frame.base + walk.start + row * walk.down + bx * walk.right
                    var to = base + (target.y + row) * stride + target.x + bx
                    for _ in 0..<columns {
                        to.pointee = from.pointee
                        to += 1
                        from += walk.right
                    }
                }
            }
        }
    }
}
