// JPEG XL through libjxl's event-driven decoder: basic info first (sizes checked before any
// buffer), then colour encoding, then the first frame in stored orientation.
import CJXL

/// JPEG XL header reading and decoding to ARGB.
enum JXLCodec {
    /// A libjxl decoder, destroyed with this object.
    private final class Decoder {
        let raw: OpaquePointer
        init?() {
            guard let d = JxlDecoderCreate(nil) else { return nil }
            raw = d
        }
        deinit { JxlDecoderDestroy(raw) }
    }

    /// libjxl keeps each channel as 32-bit floats while decoding: 16 bytes a pixel for
    /// RGBA, on top of the 4-byte output.
    static let workingBytesPerPixel = 16

    /// 8-bit R, G, B, A in native order, rows packed.
    private static var rgba8: JxlPixelFormat {
        JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    }

    private static func corrupt(_ file: String, _ message: String) -> PictureError {
        PictureError(file: file, kind: .corrupt(.jxl, message))
    }

    /// Runs the decoder over `data` until `stop` says so, calling `handle` for each event.
    private static func run(
        _ data: UnsafeBufferPointer<UInt8>, file: String, events: JxlDecoderStatus,
        _ handle: (OpaquePointer, JxlDecoderStatus) throws(PictureError) -> Bool
    ) throws(PictureError) {
        guard let decoder = Decoder() else { throw corrupt(file, "cannot create a decoder") }
        let dec = decoder.raw
        guard JxlDecoderSubscribeEvents(dec, Int32(events.rawValue)) == JXL_DEC_SUCCESS,
              JxlDecoderSetKeepOrientation(dec, 1) == JXL_DEC_SUCCESS,
              JxlDecoderSetInput(dec, data.baseAddress, data.count) == JXL_DEC_SUCCESS else {
            throw corrupt(file, "cannot set up the decoder")
        }
        // The input is not closed: given everything there is, a decoder that asks for more
        // has met the end of a cut file (closed input turns that into a generic error).
        while true {
            let status = JxlDecoderProcessInput(dec)
            switch status {
            case JXL_DEC_ERROR: throw corrupt(file, "invalid codestream")
            case JXL_DEC_SUCCESS: return
            default: if try !handle(dec, status) { return }
            }
        }
    }

    static func header(_ data: [UInt8], file: String) throws(PictureError) -> CodecHeader {
        try data.withBytes { (buffer) throws(PictureError) -> CodecHeader in
            var info = JxlBasicInfo()
            var found = false
            try run(buffer, file: file, events: JXL_DEC_BASIC_INFO) { (dec, status) throws(PictureError) -> Bool in
                switch status {
                case JXL_DEC_BASIC_INFO:
                    guard JxlDecoderGetBasicInfo(dec, &info) == JXL_DEC_SUCCESS else { throw corrupt(file, "unreadable header") }
                    found = true
                    return false
                case JXL_DEC_NEED_MORE_INPUT: throw PictureError(file: file, kind: .truncated)
                default: return true
                }
            }
            guard found else { throw PictureError(file: file, kind: .truncated) }
            var header = CodecHeader(width: Int(info.xsize), height: Int(info.ysize), hasAlpha: info.alpha_bits > 0)
            header.orientation = Orientation(rawValue: Int(info.orientation.rawValue)) ?? .up
            header.workingBytesPerPixel = workingBytesPerPixel
            return header
        }
    }

    /// Decodes the first frame. A cut file keeps what libjxl can render of it (its
    /// progressive passes), with damage of unknown share.
    static func decode(_ data: [UInt8], file: String, header: CodecHeader) throws(PictureError) -> CodecOutput {
        try data.withBytes { (buffer) throws(PictureError) -> CodecOutput in
            let pixels = try ARGBPixels.make(width: header.width, height: header.height, file: file)
            var info = JxlBasicInfo()
            var color: ColorDescription?
            var gray = false
            var complete = false, bufferSet = false
            var damage: PictureDamage?
            let events = JxlDecoderStatus(rawValue: JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue
                                          | JXL_DEC_FULL_IMAGE.rawValue)
            try run(buffer, file: file, events: events) { (dec, status) throws(PictureError) -> Bool in
                switch status {
                case JXL_DEC_BASIC_INFO:
                    guard JxlDecoderGetBasicInfo(dec, &info) == JXL_DEC_SUCCESS,
                          Int(info.xsize) == header.width, Int(info.ysize) == header.height else {
                        throw corrupt(file, "header changed between reads")
                    }
                    gray = info.num_color_channels == 1
                    return true
                case JXL_DEC_COLOR_ENCODING:
                    color = colorDescription(dec, info: info, gray: gray)
                    return true
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    var format = rgba8
                    var size = 0
                    guard JxlDecoderImageOutBufferSize(dec, &format, &size) == JXL_DEC_SUCCESS, size == pixels.byteCount,
                          JxlDecoderSetImageOutBuffer(dec, &format, pixels.rawBytes, size) == JXL_DEC_SUCCESS else {
                        throw corrupt(file, "unexpected output size")
                    }
                    bufferSet = true
                    return true
                case JXL_DEC_FULL_IMAGE:
                    complete = true
                    return false  // the first frame of an animation is the still picture
                case JXL_DEC_NEED_MORE_INPUT:
                    // The input is all there is: the file is cut. Keep what renders of it.
                    let problem = PictureError(file: file, kind: .truncated)
                    guard bufferSet, JxlDecoderFlushImage(dec) == JXL_DEC_SUCCESS else { throw problem }
                    damage = PictureDamage(error: problem, decodedFraction: nil)
                    return false
                default:
                    return true
                }
            }
            guard complete || damage != nil else { throw PictureError(file: file, kind: .truncated) }
            pixels.swapRedBlue(rows: header.height)
            return CodecOutput(pixels: pixels, premultiplied: info.alpha_premultiplied != 0 || info.alpha_bits == 0,
                               color: color, colorInput: gray ? .grayInBGRA : nil, damage: damage)
        }
    }

    /// For XYB-coded (lossy) files libjxl converts to sRGB itself when asked; files kept in
    /// their original space (lossless) come with that space's ICC profile for LittleCMS.
    private static func colorDescription(_ dec: OpaquePointer, info: JxlBasicInfo, gray: Bool) -> ColorDescription? {
        if info.uses_original_profile == 0 {
            var srgb = JxlColorEncoding()
            srgb.color_space = gray ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB
            srgb.white_point = JXL_WHITE_POINT_D65
            srgb.primaries = JXL_PRIMARIES_SRGB
            srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB
            srgb.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL
            if JxlDecoderSetPreferredColorProfile(dec, &srgb) == JXL_DEC_SUCCESS { return nil }
        }
        // Pixels already in sRGB (most lossless files) need no conversion.
        var encoded = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(dec, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoded) == JXL_DEC_SUCCESS,
           encoded.white_point == JXL_WHITE_POINT_D65, encoded.transfer_function == JXL_TRANSFER_FUNCTION_SRGB,
           encoded.color_space == JXL_COLOR_SPACE_GRAY || encoded.primaries == JXL_PRIMARIES_SRGB {
            return nil
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(dec, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS, size > 0 else {
            return nil
        }
        var icc = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(dec, nil, JXL_COLOR_PROFILE_TARGET_DATA, &icc, size) == JXL_DEC_SUCCESS else {
            return nil
        }
        return .icc(icc)
    }
}
