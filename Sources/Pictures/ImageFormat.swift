// Recognising an image format from its first bytes, never from the file name.

/// The encoded formats this module decodes.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    /// Portable Network Graphics, decoded by libpng.
    case png
    /// JPEG/JFIF/Exif, decoded by libjpeg-turbo.
    case jpeg

    /// The name used in messages ("PNG", "JPEG").
    public var name: String { self == .png ? "PNG" : "JPEG" }

    /// 8-byte PNG signature (PNG specification §5.2).
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// SOI marker followed by the first byte of the next marker (ITU T.81 §B.1.1.3).
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Classifies `bytes` by magic number.
    ///
    /// Throws `.empty` for no bytes, `.truncated` for a proper prefix of a PNG or JPEG
    /// signature, `.unsupportedFormat` for other well-known image signatures and
    /// `.notAnImage` for everything else.
    public static func sniff(_ bytes: [UInt8], file: String) throws(PictureError) -> ImageFormat {
        if bytes.isEmpty { throw PictureError(file: file, kind: .empty) }
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: jpegSignature) { return .jpeg }
        if bytes.count < pngSignature.count, pngSignature.starts(with: bytes) {
            throw PictureError(file: file, kind: .truncated)
        }
        if bytes.count < jpegSignature.count, jpegSignature.starts(with: bytes) {
            throw PictureError(file: file, kind: .truncated)
        }
        if let other = otherFormat(bytes) { throw PictureError(file: file, kind: .unsupportedFormat(other)) }
        throw PictureError(file: file, kind: .notAnImage)
    }

    /// Names image formats that are recognisable but not decoded here, so the user is told
    /// "unsupported" instead of "not an image".
    private static func otherFormat(_ b: [UInt8]) -> String? {
        func ascii(_ s: String, at offset: Int = 0) -> Bool {
            let tag = Array(s.utf8)
            return b.count >= offset + tag.count && Array(b[offset..<(offset + tag.count)]) == tag
        }
        if ascii("GIF87a") || ascii("GIF89a") { return "GIF" }
        if ascii("RIFF") && ascii("WEBP", at: 8) { return "WebP" }
        if ascii("BM") && b.count >= 14 { return "BMP" }
        if ascii("II*\u{0}") || ascii("MM\u{0}*") { return "TIFF" }
        if ascii("ftypavif", at: 4) { return "AVIF" }
        if ascii("ftypheic", at: 4) || ascii("ftypmif1", at: 4) { return "HEIF" }
        if b.starts(with: [0xFF, 0x0A]) || b.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return "JPEG XL" }
        return nil
    }
}
