// Drawing for a turned screen (wl_surface.set_buffer_transform): the scene draws upright into
// one frame kept between frames, and each buffer gets the pixels changed since it was last
// drawn, turned as the output is, so the compositor shows the buffer without turning it.
import Host
import Raster

/// The damage of the last frames of one upright frame, for buffers of any age (pure).
struct DamageRing: Equatable {
    /// Damage of this many frames is kept: more than the buffers a window ever has in flight
    /// (FrameBuffers allocates a third or fourth only when the compositor holds the others).
    static let length = 8
    /// Damage of the last frames, oldest first.
    private(set) var frames: [PixelRegion] = []

    /// Records one frame's damage.
    mutating func record(_ damage: PixelRegion) {
        frames.append(damage)
        if frames.count > Self.length { frames.removeFirst(frames.count - Self.length) }
    }

    /// The pixels to copy into a buffer last drawn `bufferAge` frames before the frame just
    /// recorded (0, or older than the ring: unknown contents, all of `bounds`).
    func repaint(bufferAge: Int, bounds: PixelRect) -> PixelRegion {
        guard bufferAge > 0, bufferAge <= frames.count else { return PixelRegion([bounds]) }
        var region = PixelRegion()
        for damage in frames.suffix(bufferAge) { region.formUnion(damage) }
        return region
    }
}

/// The upright frame a scene draws into when the window's buffers are turned.
///
/// Costs one extra frame of memory and, per frame, a turned copy of the changed pixels into
/// the buffer (raster-bench `--only transform`: a whole 1920×1080 frame turned a quarter in
/// about 3 ms, about three memcpys of it; half turns about one), against the compositor turning
/// every frame it composes, or being unable to hand the buffer to the screen as it is.
final class PreRotatedFrame {
    /// How buffers hold the frame.
    let transform: FrameTransform
    private let upright: OwnedFramebuffer
    private var history = DamageRing()
    private var drawn = false

    /// A frame of `width`×`height` device pixels (the window's, upright) for buffers turned
    /// by `transform`; nil when the size is refused (see `OwnedFramebuffer`).
    init?(transform: FrameTransform, width: Int, height: Int) {
        guard let upright = OwnedFramebuffer(width: width, height: height) else { return nil }
        self.transform = transform
        self.upright = upright
    }

    /// The upright frame as last drawn (for screenshots and statistics).
    var frame: Framebuffer { upright.framebuffer }

    /// The size of the buffers: the frame's, turned.
    var bufferSize: (width: Int, height: Int) {
        transform.bufferSize(width: upright.framebuffer.width, height: upright.framebuffer.height)
    }

    /// Draws `scene` into the upright frame (which holds the previous frame, or nothing the
    /// first time) and copies what `buffer`, last drawn `bufferAge` frames ago, lacks into it
    /// turned. Returns the rects copied, in buffer pixels.
    func render(_ scene: Scene, into buffer: Framebuffer, bufferAge: Int) -> [PixelRect] {
        let frame = upright.framebuffer
        let damage = scene.render(into: frame, bufferAge: drawn ? 1 : 0)
        // A first frame changes every pixel, whatever the scene reports.
        history.record(drawn ? PixelRegion(damage) : PixelRegion([frame.bounds]))
        drawn = true
        let repaint = history.repaint(bufferAge: bufferAge, bounds: frame.bounds)
        for rect in repaint.rects { buffer.copy(from: frame, rect: rect, transform: transform) }
        return repaint.rects.map { transform.map($0, width: frame.width, height: frame.height) }
    }
}
