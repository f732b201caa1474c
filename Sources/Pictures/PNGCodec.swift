// libpng through its simplified API (png_image), which reports errors in a message field
// instead of longjmp-ing through Swift frames.
import CPNG
import Raster

/// PNG header reading and decoding to premultiplied ARGB.
enum PNGCodec {
    /// What libpng says about the file before decoding.
    struct Header {
        var width: Int
        var height: Int
        var hasAlpha: Bool
    }

    /// libpng's message for a read past the end of the memory buffer (pngread.c,
    /// png_image_memory_read): the data stopped early.
    static let endOfDataMessages = ["read beyond end of data", "Not enough image data"]

    /// Runs `body` with a png_image opened on `data`; the image is freed afterwards.
    private static func withImage<T>(
        _ data: [UInt8], file: String, _ body: (inout png_image) throws(PictureError) -> T
    ) throws(PictureError) -> T {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let result: Result<T, PictureError> = data.withUnsafeBytes { raw in
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                return .failure(error(image, file: file))
            }
            do throws(PictureError) { return .success(try body(&image)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The message libpng left in `image`, classified as truncation or corruption.
    private static func error(_ image: png_image, file: String) -> PictureError {
        let message = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if endOfDataMessages.contains(where: message.contains) { return PictureError(file: file, kind: .truncated) }
        return PictureError(file: file, kind: .corrupt(.png, message.isEmpty ? "unknown error" : message))
    }

    /// Reads the header (IHDR and the chunks before the image data) without decoding.
    static func header(_ data: [UInt8], file: String) throws(PictureError) -> Header {
        try withImage(data, file: file) { (image: inout png_image) throws(PictureError) -> Header in
            Header(width: Int(image.width), height: Int(image.height),
                   hasAlpha: image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0)
        }
    }

    /// Decodes the whole image to premultiplied ARGB8888 in stored orientation.
    ///
    /// 16-bit samples are treated as sRGB-encoded (PNG_IMAGE_FLAG_16BIT_sRGB), as viewers do,
    /// instead of libpng's simplified-API default of linear; gray, palette and tRNS are
    /// expanded and Adam7 interlacing is undone by libpng.
    static func decode(_ data: [UInt8], file: String) throws(PictureError) -> ARGBPixels {
        try withImage(data, file: file) { (image: inout png_image) throws(PictureError) -> ARGBPixels in
            let hasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
            image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            // B, G, R, A bytes read as a little-endian UInt32 are 0xAARRGGBB.
            image.format = UInt32(PNG_FORMAT_BGRA)
            let pixels = ARGBPixels(width: Int(image.width), height: Int(image.height))
            guard png_image_finish_read(&image, nil, pixels.base, 0, nil) != 0 else {
                throw error(image, file: file)
            }
            if hasAlpha { pixels.premultiply() }
            return pixels
        }
    }
}
