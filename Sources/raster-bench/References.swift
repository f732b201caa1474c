// The references our operations are measured against: libc memcpy and libpixman images over
// our framebuffers (benchmark only; the only raw pointers of the benchmark).
import CPixman
import Foundation
import Raster

/// A pixman image sharing a framebuffer's pixels (a8r8g8b8, premultiplied like ours).
final class PixmanImage {
    let image: OpaquePointer

    init(_ fb: Framebuffer) {
        guard let img = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(fb.width), Int32(fb.height),
                                                 fb.base, Int32(fb.stride * 4)) else {
            fatalError("pixman_image_create_bits failed for \(fb.width)×\(fb.height)")
        }
        image = img
    }

    deinit { pixman_image_unref(image) }

    /// Sets a uniform scale (destination pixels per source pixel) and the bilinear filter.
    func setScale(_ scale: Double) {
        var t = pixman_transform()
        let inverse = pixman_fixed_t(((1 / scale) * 65536).rounded())
        pixman_transform_init_scale(&t, inverse, inverse)
        pixman_image_set_transform(image, &t)
        pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, nil, 0)
    }

    /// Sets the transform that reads an upright `width`×`height` frame turned as `turn` (the
    /// buffer's pixel maps back to the frame's) and the nearest filter: what pixman's rotation
    /// fast paths recognise for quarter turns.
    func setTurn(_ turn: FrameTransform, width: Int, height: Int) {
        // pixman maps destination (buffer) coordinates to source (frame) coordinates: the
        // inverse of FrameTransform.map, as a matrix in 16.16 fixed point.
        let one = pixman_fixed_t(65536), w = pixman_fixed_t(width) * one, h = pixman_fixed_t(height) * one
        let rows: [[pixman_fixed_t]]
        switch turn {
        case .normal: rows = [[one, 0, 0], [0, one, 0]]
        case .rotated90: rows = [[0, -one, w], [one, 0, 0]]
        case .rotated180: rows = [[-one, 0, w], [0, -one, h]]
        case .rotated270: rows = [[0, one, 0], [-one, 0, h]]
        case .flipped: rows = [[-one, 0, w], [0, one, 0]]
        case .flipped90: rows = [[0, one, 0], [one, 0, 0]]
        case .flipped180: rows = [[one, 0, 0], [0, -one, h]]
        case .flipped270: rows = [[0, -one, w], [-one, 0, h]]
        }
        var t = pixman_transform()
        t.matrix = ((rows[0][0], rows[0][1], rows[0][2]), (rows[1][0], rows[1][1], rows[1][2]), (0, 0, one))
        pixman_image_set_transform(image, &t)
        pixman_image_set_filter(image, PIXMAN_FILTER_NEAREST, nil, 0)
    }

    /// SRC composite of this (transformed) image into `destination`, reading from `(srcX, srcY)`
    /// in destination-scaled coordinates.
    func composite(into destination: PixmanImage, srcX: Int, srcY: Int, width: Int, height: Int) {
        pixman_image_composite32(PIXMAN_OP_SRC, image, nil, destination.image, Int32(srcX), Int32(srcY),
                                 0, 0, 0, 0, Int32(width), Int32(height))
    }

    /// OVER composite without transform (a straight blend) at a destination position.
    func blend(into destination: PixmanImage, x: Int, y: Int, width: Int, height: Int) {
        pixman_image_composite32(PIXMAN_OP_OVER, image, nil, destination.image, 0, 0, 0, 0,
                                 Int32(x), Int32(y), Int32(width), Int32(height))
    }
}

/// Copies every pixel of `source` into `destination` with one libc memcpy: the bandwidth
/// reference. Both must be the same size and unpadded (stride = width).
func memcpyFrame(from source: Framebuffer, to destination: Framebuffer) {
    precondition(source.width == destination.width && source.height == destination.height &&
                 source.stride == source.width && destination.stride == destination.width, "memcpy frames differ")
    memcpy(destination.base, source.base, source.width * source.height * 4)
}
