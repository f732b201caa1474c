// What each format's decoder hands ImageDecoder: a header read without pixel memory, then pixels.

/// What a codec learns about one page before any pixel memory is allocated; ImageDecoder
/// checks it against the limits before asking for pixels.
struct CodecHeader {
    /// Stored size of the page, in pixels.
    var width: Int
    var height: Int
    /// True when the page has an alpha channel or transparency.
    var hasAlpha: Bool
    /// Orientation the pixels are displayed with (stored order is kept).
    var orientation: Orientation = .up
    /// Progressive JPEG or interlaced PNG/GIF.
    var isProgressive = false
    /// Pages in the file (TIFF directories, HEIF top-level images); 1 for the others.
    var pageCount = 1
    /// Frames of an animation (GIF, WebP); 1 for a still picture.
    var frameCount = 1
    /// Bytes the codec library allocates for itself while decoding, beyond the ARGB output
    /// (libtiff's strip buffer), for the memory check.
    var workingBytes = 0
    /// The same per pixel (libheif's planes, libjxl's float channels); a rate, so that
    /// nothing sized by the header is multiplied before the pixel limit has checked it.
    var workingBytesPerPixel = 0

    /// Working memory of the decode, in bytes; only called once the size is within limits.
    var workingTotal: Int { workingBytes + width * height * workingBytesPerPixel }
}

/// One page's decoded pixels and what the decoder learned while decoding them.
struct CodecOutput {
    /// Premultiplied or straight ARGB8888 (see `premultiplied`), in stored orientation.
    var pixels: ARGBPixels
    /// Whether `pixels` are premultiplied already (libwebp and libtiff deliver them so).
    var premultiplied: Bool
    /// The colours' description when the file gives one; converted to sRGB afterwards.
    var color: ColorDescription?
    /// How the colour samples are laid out for the conversion (gray files differ).
    var colorInput: ColorTransform.Input? = nil
    /// Set when only part of the picture decoded (the rest is transparent).
    var damage: PictureDamage?
}

extension Array where Element == UInt8 {
    /// Runs `body` on the bytes' memory, passing its typed error through (the standard
    /// library's closure-taking methods rethrow untyped errors).
    func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws(PictureError) -> T) throws(PictureError) -> T {
        let result: Result<T, PictureError> = withUnsafeBufferPointer { buffer in
            do throws(PictureError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
