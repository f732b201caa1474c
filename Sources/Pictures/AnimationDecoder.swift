// Animated GIF and WebP, one composited frame at a time: the viewer asks for the next frame
// when it is due, so only the canvas and the frames it still shows are ever in memory.
import Synchronization

/// A format's frame source: decodes frame N onto the canvas frame N − 1 left.
protocol AnimationSource: AnyObject {
    /// Canvas size, in pixels.
    var width: Int { get }
    var height: Int { get }
    /// Frames in one loop.
    var frameCount: Int { get }
    /// Times to play the whole animation; 0 for forever.
    var loopCount: Int { get }
    /// The colours' description, applied to every frame.
    var color: ColorDescription? { get }
    /// Set once a frame stopped part-way; no frame follows it.
    var damage: PictureDamage? { get }
    /// The next frame's whole canvas (premultiplied ARGB, a copy the caller owns) and its
    /// delay as the file gives it, in ms; nil after the last frame.
    func next() throws(PictureError) -> (pixels: ARGBPixels, delayMs: Int)?
    /// Goes back to before the first frame.
    func reset()
}

extension WebPAnimation {
    /// WebPAnimDecoder refuses broken animations up front, so no frame stops part-way.
    var damage: PictureDamage? { nil }
}

/// One frame of an animation, ready to draw.
public struct AnimationFrame: Sendable {
    /// The whole canvas after this frame, as a picture of its own.
    public let picture: Picture
    /// 0-based position in the loop.
    public let index: Int
    /// How long to show it before the next, in ms (see `AnimationDecoder.displayDelay`).
    public let delayMs: Int
}

/// Plays an animated GIF or WebP: `next()` composites and returns one frame at a time, with
/// each frame's disposal and blending applied to the previous frame's canvas, so memory
/// holds the canvas and the frames the caller keeps, never the whole animation.
///
/// Not for drawing from: each frame is a new immutable `Picture`. Safe to call from any
/// thread (calls are serialised); the viewer calls `next()` from its decoding queue when a
/// frame is due and `reset()` to loop.
public final class AnimationDecoder: Sendable {
    /// The file's format (GIF or WebP).
    public let format: ImageFormat
    /// Canvas width, in pixels.
    public let width: Int
    /// Canvas height, in pixels.
    public let height: Int
    /// Frames in one loop (from the file's structure; a damaged file may end sooner).
    public let frameCount: Int
    /// Times the file asks to be played; 0 for forever.
    public let loopCount: Int

    private struct State {
        let source: any AnimationSource
        let transform: ColorTransform?
        var index = 0
    }
    private let state: Mutex<State>
    private let file: String
    /// Every frame covers the whole canvas without transparency (a GIF whose blocks say so),
    /// so its pictures are opaque and a viewer draws nothing under them.
    private let opaque: Bool

    /// Opens the animation of `decoder`'s file; throws for formats without animation and
    /// for files whose header does not read.
    public convenience init(decoder: ImageDecoder) throws(PictureError) {
        let inspection = try decoder.inspect()
        let header = inspection.header
        // The canvas, the frame handed out, and the one the viewer still shows.
        let needed = header.pixelCount * 4 * 3 + (inspection.codec?.workingTotal ?? 0)
        try decoder.checkBudget(needed, header)
        try decoder.checkMemory(needed, header)
        let source: any AnimationSource
        switch header.format {
        case .gif:
            source = try GIFAnimation(data: decoder.data, file: decoder.file, width: header.storedWidth, height: header.storedHeight)
        case .webp where header.frameCount > 1:
            source = try WebPAnimation(data: decoder.data, file: decoder.file)
        default:
            throw PictureError(file: decoder.file, kind: .unsupportedVariant(header.format, "not an animation"))
        }
        self.init(format: header.format, file: decoder.file, opaque: !header.hasAlpha, source: source)
    }

    private init(format: ImageFormat, file: String, opaque: Bool, source: sending any AnimationSource) {
        self.format = format
        self.file = file
        self.opaque = opaque
        width = source.width
        height = source.height
        frameCount = source.frameCount
        loopCount = source.loopCount
        let transform = source.color.flatMap { ColorTransform($0, input: .bgra(premultiplied: true)) }
        state = Mutex(State(source: source, transform: transform))
    }

    /// Browsers show frames whose delay is 10 ms or less for 100 ms (Chromium's
    /// image decoders and Firefox do the same for GIF), since many files give 0 meaning
    /// "as fast as the 1990s could"; this keeps them from spinning.
    public static func displayDelay(_ fileDelayMs: Int) -> Int { fileDelayMs <= 10 ? 100 : fileDelayMs }

    /// The next frame, or nil after the last one (call `reset()` to play it again). A frame
    /// whose data stopped part-way comes with `picture.damage` set and is the last.
    public func next() throws(PictureError) -> AnimationFrame? {
        let result: Result<AnimationFrame?, PictureError> = state.withLock { s in
            do throws(PictureError) {
                guard let (pixels, delay) = try s.source.next() else { return .success(nil) }
                s.transform?.apply(to: pixels)
                var header = PictureHeader(format: format, storedWidth: width, storedHeight: height,
                                           orientation: .up, hasAlpha: !opaque, isProgressive: false)
                header.frameCount = frameCount
                let frame = AnimationFrame(picture: Picture(storage: .argb(pixels), header: header, isOpaque: opaque,
                                                            damage: s.source.damage),
                                           index: s.index, delayMs: Self.displayDelay(delay))
                s.index += 1
                return .success(frame)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Goes back to the first frame.
    public func reset() {
        state.withLock { s in
            s.source.reset()
            s.index = 0
        }
    }
}
