// WebP through libwebp (stills, incrementally, so a cut file keeps its decoded rows) and
// libwebpdemux (the ICC chunk, and animations composited by WebPAnimDecoder).
import CWebP

/// WebP header reading and decoding to premultiplied ARGB.
enum WebPCodec {
    private static let library: String? = scrollkit_webp_open().map { String(cString: $0) }

    /// Opens libwebp and libwebpdemux on first use: nil when ready, else why they cannot be used.
    static func openLibrary() -> String? { library }

    /// VP8X canvas sizes are 24-bit (WebP container specification, "Extended file format").
    static let maxCanvasSide = 1 << 24

    /// Bytes `data` holds in the form libwebp takes.
    static func webpData(_ buffer: UnsafeBufferPointer<UInt8>) -> WebPData {
        WebPData(bytes: buffer.baseAddress, size: buffer.count)
    }

    /// Size, alpha and animation from the RIFF header and the first chunks, without decoding.
    static func header(_ data: [UInt8], file: String) throws(PictureError) -> CodecHeader {
        try data.withBytes { (buffer) throws(PictureError) -> CodecHeader in
            var features = WebPBitstreamFeatures()
            let status = scrollkit_WebPGetFeatures(buffer.baseAddress, buffer.count, &features)
            guard status == VP8_STATUS_OK else { throw error(status, file: file) }
            var header = CodecHeader(width: Int(features.width), height: Int(features.height),
                                     hasAlpha: features.has_alpha != 0)
            guard features.has_animation != 0 else { return header }
            // An animation: its canvas and frame count come from the demuxer, which needs
            // the whole file (a cut animation is refused here, as WebPAnimDecoder would).
            var webp = webpData(buffer)
            guard let demux = scrollkit_WebPDemux(&webp) else { throw PictureError(file: file, kind: .truncated) }
            defer { scrollkit_WebPDemuxDelete(demux) }
            header.width = Int(scrollkit_WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
            header.height = Int(scrollkit_WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
            header.frameCount = max(1, Int(scrollkit_WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT)))
            header.hasAlpha = true  // frames may leave parts of the canvas transparent
            // WebPAnimDecoder keeps the canvas and the previous frame's: 8 bytes a pixel.
            header.workingBytesPerPixel = 8
            return header
        }
    }

    /// The message for a libwebp status; a cut file is `.truncated`.
    static func error(_ status: VP8StatusCode, file: String) -> PictureError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA, VP8_STATUS_SUSPENDED: return PictureError(file: file, kind: .truncated)
        case VP8_STATUS_OUT_OF_MEMORY: return PictureError(file: file, kind: .corrupt(.webp, "out of memory"))
        case VP8_STATUS_UNSUPPORTED_FEATURE: return PictureError(file: file, kind: .unsupportedVariant(.webp, "unsupported feature"))
        case VP8_STATUS_INVALID_PARAM: return PictureError(file: file, kind: .corrupt(.webp, "invalid parameter"))
        default: return PictureError(file: file, kind: .corrupt(.webp, "bitstream error"))
        }
    }

    /// The ICC profile from the ICCP chunk, if any (read from the headers of a partial file too).
    static func iccProfile(_ buffer: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var webp = webpData(buffer)
        var state = WEBP_DEMUX_PARSING_HEADER
        guard let demux = scrollkit_WebPDemuxPartial(&webp, &state) else { return nil }
        defer { scrollkit_WebPDemuxDelete(demux) }
        guard scrollkit_WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & UInt32(ICCP_FLAG.rawValue) != 0 else { return nil }
        var chunk = WebPChunkIterator()
        guard scrollkit_WebPDemuxGetChunk(demux, "ICCP", 1, &chunk) != 0 else { return nil }
        defer { scrollkit_WebPDemuxReleaseChunkIterator(&chunk) }
        return Array(UnsafeBufferPointer(start: chunk.chunk.bytes, count: chunk.chunk.size))
    }

    /// The bitstream a still decode shows: the file's own, or an animation's first frame placed
    /// on its canvas (over transparency, which is what blending onto the empty canvas gives).
    struct Still {
        /// Where the bitstream lies in the file's bytes.
        var offset: Int
        var count: Int
        /// Where it lies on the canvas, and its size, in pixels.
        var x = 0, y = 0
        var width: Int
        var height: Int
        /// Lossless (VP8L): libwebp holds the whole picture as ARGB while it decodes it.
        var lossless: Bool
        /// Lossy with an alpha plane, which libwebp decodes whole, a byte a pixel.
        var lossyAlpha: Bool

        /// Whether it fills the canvas of `header`, so that libwebp can scale it whole.
        func covers(_ header: CodecHeader) -> Bool { x == 0 && y == 0 && width == header.width && height == header.height }

        /// Bytes libwebp holds for itself while decoding, beside the pixels it writes out.
        var workingBytes: Int { width * height * (lossless ? 4 : lossyAlpha ? 1 : 0) }
    }

    /// What a still decode of `data` decodes: for an animation, its first frame (from the
    /// demuxer, which the header has already run over the whole file).
    static func still(_ data: [UInt8], file: String, header: CodecHeader) throws(PictureError) -> Still {
        try data.withBytes { (buffer) throws(PictureError) -> Still in
            guard let base = buffer.baseAddress else { throw PictureError(file: file, kind: .truncated) }
            var still = Still(offset: 0, count: buffer.count, width: header.width, height: header.height, lossless: false,
                              lossyAlpha: false)
            if header.frameCount > 1 {
                var webp = webpData(buffer)
                guard let demux = scrollkit_WebPDemux(&webp) else { throw PictureError(file: file, kind: .truncated) }
                defer { scrollkit_WebPDemuxDelete(demux) }
                var frame = WebPIterator()
                guard scrollkit_WebPDemuxGetFrame(demux, 1, &frame) != 0, let bytes = frame.fragment.bytes else {
                    throw PictureError(file: file, kind: .corrupt(.webp, "no first frame"))
                }
                defer { scrollkit_WebPDemuxReleaseIterator(&frame) }
                still = Still(offset: bytes - base, count: frame.fragment.size, x: Int(frame.x_offset), y: Int(frame.y_offset),
                              width: Int(frame.width), height: Int(frame.height), lossless: false, lossyAlpha: false)
                // The demuxer checked the frame lies on the canvas; said again, as pixels are written there.
                guard still.x >= 0, still.y >= 0, still.width > 0, still.height > 0,
                      still.x + still.width <= header.width, still.y + still.height <= header.height else {
                    throw PictureError(file: file, kind: .corrupt(.webp, "first frame outside the canvas"))
                }
            }
            var features = WebPBitstreamFeatures()
            let status = scrollkit_WebPGetFeatures(base + still.offset, still.count, &features)
            guard status == VP8_STATUS_OK else { throw error(status, file: file) }
            still.lossless = features.format == 2
            still.lossyAlpha = features.format != 2 && features.has_alpha != 0
            return still
        }
    }

    /// Decodes `still` (see `still(_:file:header:)`) to premultiplied ARGB on a canvas of
    /// `width`×`height`: the header's size, or smaller when `still` covers the canvas, which
    /// libwebp then scales down as it decodes (averaging the pixels each output pixel covers),
    /// so that only the smaller picture is ever written. A cut or broken file keeps the rows
    /// that decoded, the rest transparent.
    static func decode(_ data: [UInt8], file: String, header: CodecHeader, still: Still,
                       width: Int, height: Int) throws(PictureError) -> CodecOutput {
        let scaled = width != header.width || height != header.height
        precondition(!scaled || still.covers(header), "only a whole canvas is scaled")
        return try data.withBytes { (buffer) throws(PictureError) -> CodecOutput in
            let pixels = try ARGBPixels.make(width: width, height: height, file: file)
            var config = WebPDecoderConfig()
            guard scrollkit_WebPInitDecoderConfig(&config) != 0 else {
                throw PictureError(file: file, kind: .unsupportedVariant(.webp, "libwebp version mismatch"))
            }
            if scaled {
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(width)
                config.options.scaled_height = Int32(height)
            }
            // Premultiplied B, G, R, A straight into our pixels (at the frame's place on the
            // canvas): no copy, no second pass.
            config.output.colorspace = MODE_bgrA
            config.output.is_external_memory = 1
            let origin = scaled ? 0 : still.y * width + still.x
            config.output.u.RGBA.rgba = pixels.rawBytes + origin * 4
            config.output.u.RGBA.stride = Int32(width * 4)
            config.output.u.RGBA.size = pixels.byteCount - origin * 4
            guard let decoder = scrollkit_WebPIDecode(nil, 0, &config) else {
                throw PictureError(file: file, kind: .corrupt(.webp, "out of memory"))
            }
            defer { scrollkit_WebPIDelete(decoder) }
            // The incremental decoder, given everything at once, decodes like WebPDecode but
            // can say how many rows came out when the data stops or breaks.
            let status = scrollkit_WebPIUpdate(decoder, buffer.baseAddress! + still.offset, still.count)
            let color = iccProfile(buffer).map(ColorDescription.icc)
            if status == VP8_STATUS_OK {
                return CodecOutput(pixels: pixels, premultiplied: true, color: color)
            }
            var lastRow: Int32 = 0, w: Int32 = 0, h: Int32 = 0, stride: Int32 = 0
            let decoded = scrollkit_WebPIDecGetRGB(decoder, &lastRow, &w, &h, &stride) != nil ? Int(lastRow) : 0
            let problem = error(status, file: file)
            guard decoded > 0 else { throw problem }
            // Rows past the last decoded one may hold a partly filtered row: clear them.
            let rows = scaled ? height : still.height
            pixels.clearRows(from: (scaled ? 0 : still.y) + decoded)
            return CodecOutput(pixels: pixels, premultiplied: true, color: color,
                               damage: PictureDamage(error: problem, decodedFraction: Double(decoded) / Double(rows)))
        }
    }
}

/// An animated WebP played by libwebpdemux's WebPAnimDecoder, which composites each frame
/// onto the canvas from the previous one (blending and disposal as the container says).
final class WebPAnimation: AnimationSource {
    let width: Int
    let height: Int
    let frameCount: Int
    let loopCount: Int
    let color: ColorDescription?
    private let file: String
    /// The encoded file, kept alive and unmoved: the decoder reads it in place.
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let decoder: OpaquePointer
    private var previousTimestamp = 0
    private var index = 0

    init(data: [UInt8], file: String) throws(PictureError) {
        self.file = file
        bytes = .allocate(capacity: max(1, data.count))
        _ = bytes.initialize(from: data)
        var options = WebPAnimDecoderOptions()
        var webp = WebPData(bytes: bytes.baseAddress, size: data.count)
        // Until `decoder` is set, a throw does not run deinit: `bytes` is freed here.
        guard scrollkit_WebPAnimDecoderOptionsInit(&options) != 0 else {
            bytes.deallocate()
            throw PictureError(file: file, kind: .unsupportedVariant(.webp, "libwebpdemux version mismatch"))
        }
        options.color_mode = MODE_bgrA
        options.use_threads = 0
        guard let decoder = scrollkit_WebPAnimDecoderNew(&webp, &options) else {
            bytes.deallocate()
            throw PictureError(file: file, kind: .corrupt(.webp, "cannot read the animation's frames"))
        }
        self.decoder = decoder
        var info = WebPAnimInfo()
        _ = scrollkit_WebPAnimDecoderGetInfo(decoder, &info)
        width = Int(info.canvas_width)
        height = Int(info.canvas_height)
        frameCount = Int(info.frame_count)
        loopCount = Int(info.loop_count)
        color = WebPCodec.iccProfile(UnsafeBufferPointer(start: bytes.baseAddress, count: data.count)).map(ColorDescription.icc)
    }

    deinit {
        scrollkit_WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    func next() throws(PictureError) -> (pixels: ARGBPixels, delayMs: Int)? {
        guard scrollkit_WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard scrollkit_WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            throw PictureError(file: file, kind: .corrupt(.webp, "frame \(index + 1) does not decode"))
        }
        // Timestamps are each frame's end time in ms; the delay is the step from the last.
        let delay = Int(timestamp) - previousTimestamp
        previousTimestamp = Int(timestamp)
        index += 1
        let pixels = ARGBPixels.small(width: width, height: height, zeroed: false)
        pixels.rawBytes.update(from: canvas, count: pixels.byteCount)
        return (pixels, delay)
    }

    func reset() {
        scrollkit_WebPAnimDecoderReset(decoder)
        previousTimestamp = 0
        index = 0
    }
}
