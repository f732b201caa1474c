// Recognising an image format from its first bytes, never from the file name.

/// The encoded formats this module decodes.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    /// Portable Network Graphics, decoded by libpng.
    case png
    /// JPEG/JFIF/Exif, decoded by libjpeg-turbo.
    case jpeg
    /// WebP, still or animated, decoded by libwebp and libwebpdemux.
    case webp
    /// GIF, still or animated, decoded by giflib.
    case gif
    /// TIFF and BigTIFF, one picture per directory, decoded by libtiff.
    case tiff
    /// HEIF with HEVC pictures (what phones save as .heic), decoded by libheif with libde265.
    case heif
    /// AVIF (HEIF with AV1 pictures), decoded by libheif with dav1d or libaom.
    case avif
    /// JPEG XL, bare codestream or container, decoded by libjxl.
    case jxl
    /// SVG, rendered by librsvg at the scale it is shown.
    case svg
    /// Windows and OS/2 bitmaps, decoded by `BMPCodec` (see there for why it is our own).
    case bmp

    /// The name used in messages ("PNG", "JPEG XL").
    public var name: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .webp: return "WebP"
        case .gif: return "GIF"
        case .tiff: return "TIFF"
        case .heif: return "HEIF"
        case .avif: return "AVIF"
        case .jxl: return "JPEG XL"
        case .svg: return "SVG"
        case .bmp: return "BMP"
        }
    }

    /// File name extensions (lower case, no dot) that folders list as pictures. Only a hint
    /// for listing: what a file holds is always decided by `sniff`, so a misnamed file
    /// still opens and a text file named .png is still refused.
    public static let fileExtensions: Set<String> = [
        "png", "apng", "jpg", "jpeg", "jpe", "jfif", "webp", "gif", "tif", "tiff",
        "heic", "heif", "hif", "avif", "jxl", "svg", "bmp", "dib",
    ]

    /// Bytes `recognise` needs to tell every binary format apart: the ISO-BMFF `ftyp` box
    /// of HEIF/AVIF up to its first compatible brand ends at byte 20.
    public static let signatureLength = 32
    /// 4 KiB: how far into a file `recognise` looks for an SVG's root element.
    static let svgSniffBytes = 4096

    /// 8-byte PNG signature (PNG specification §5.2).
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// SOI marker followed by the first byte of the next marker (ITU T.81 §B.1.1.3).
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
    /// JPEG XL bare codestream (ISO/IEC 18181-1 §6.1: signature 0xFF0A).
    static let jxlCodestream: [UInt8] = [0xFF, 0x0A]
    /// JPEG XL container: a 12-byte "JXL " signature box (ISO/IEC 18181-2 §3).
    static let jxlContainer: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
    /// Sizes of the BMP info headers a decoder meets: OS/2 1.x core (12), OS/2 2.x (16, 64),
    /// Windows BITMAPINFOHEADER (40), its V2/V3 extensions (52, 56), V4 (108) and V5 (124).
    static let bmpHeaderSizes: Set<Int> = [12, 16, 40, 52, 56, 64, 108, 124]
    /// HEIF brands whose pictures are AV1 (AVIF specification §6): anything else is HEVC.
    static let avifBrands: Set<String> = ["avif", "avis"]
    /// ISO-BMFF brands libheif reads (ISO/IEC 23008-12 Annex B, AVIF §6, MIAF).
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs",
                                          "mif1", "msf1", "miaf", "avif", "avis"]

    /// The format of `bytes` from its signature, or nil when none matches (also for a
    /// signature cut short). What `ImageListing` uses to take files without an extension.
    public static func recognise(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: jpegSignature) { return .jpeg }
        if ascii(bytes, "GIF87a") || ascii(bytes, "GIF89a") { return .gif }
        if ascii(bytes, "RIFF"), ascii(bytes, "WEBP", at: 8) { return .webp }
        // Classic TIFF (version 42) and BigTIFF (43), both byte orders (TIFF 6.0 §2; BigTIFF).
        if ascii(bytes, "II*\u{0}") || ascii(bytes, "MM\u{0}*") || ascii(bytes, "II+\u{0}") || ascii(bytes, "MM\u{0}+") {
            return .tiff
        }
        if bytes.starts(with: jxlCodestream) || bytes.starts(with: jxlContainer) { return .jxl }
        if let heif = heifFamily(bytes) { return heif }
        // "BM", then the file size, two reserved words, the pixel offset, and a known info
        // header size: two letters alone would take text files for bitmaps.
        if ascii(bytes, "BM"), let size = Metadata.uint(bytes, 14, 4, bigEndian: false), bmpHeaderSizes.contains(size) {
            return .bmp
        }
        if isSVG(bytes) { return .svg }
        return nil
    }

    /// Classifies `bytes` by magic number.
    ///
    /// Throws `.empty` for no bytes, `.truncated` for a proper prefix of a signature,
    /// `.unsupportedFormat` for other well-known image signatures and `.notAnImage` for
    /// everything else.
    public static func sniff(_ bytes: [UInt8], file: String) throws(PictureError) -> ImageFormat {
        if bytes.isEmpty { throw PictureError(file: file, kind: .empty) }
        if let format = recognise(bytes) { return format }
        if isSignaturePrefix(bytes) { throw PictureError(file: file, kind: .truncated) }
        if let other = otherFormat(bytes) { throw PictureError(file: file, kind: .unsupportedFormat(other)) }
        throw PictureError(file: file, kind: .notAnImage)
    }

    /// Whether `b` is a proper prefix of a fixed signature: a file cut inside its first bytes.
    private static func isSignaturePrefix(_ b: [UInt8]) -> Bool {
        let fixed: [[UInt8]] = [pngSignature, jpegSignature, jxlContainer, Array("GIF89a".utf8), Array("GIF87a".utf8)]
        if fixed.contains(where: { b.count < $0.count && $0.starts(with: b) }) { return true }
        // "RIFF", its size, then "WEBP"; "BM" and 16 bytes up to the info header's size.
        let riff = Array("RIFF".utf8)
        if b.count < 12, b.count < 4 ? riff.starts(with: b) : b.starts(with: riff) { return true }
        return b.count < 18 && ascii(b, "BM")
    }

    /// HEIF or AVIF from the leading `ftyp` box: major brand, then the compatible brands.
    private static func heifFamily(_ b: [UInt8]) -> ImageFormat? {
        guard ascii(b, "ftyp", at: 4), let boxSize = Metadata.uint(b, 0, 4), boxSize >= 16 else { return nil }
        func brand(at offset: Int) -> String? {
            guard offset + 4 <= b.count, offset + 4 <= boxSize else { return nil }
            return String(decoding: b[offset..<(offset + 4)], as: UTF8.self)
        }
        guard let major = brand(at: 8) else { return nil }
        var brands = [major]
        var offset = 16  // after the major brand and the minor version
        while let compatible = brand(at: offset) {
            brands.append(compatible)
            offset += 4
        }
        guard brands.contains(where: heifBrands.contains) else { return nil }
        // The major brand decides; a generic one (mif1, msf1) defers to the compatible list.
        if avifBrands.contains(major) { return .avif }
        if ["mif1", "msf1", "miaf"].contains(major), brands.contains(where: avifBrands.contains) { return .avif }
        return .heif
    }

    /// An XML document whose root element is `svg`: an optional byte-order mark, blanks,
    /// the XML declaration, comments, processing instructions and a DOCTYPE may come first.
    /// Only the first `svgSniffBytes` are looked at (editors write long comments, not longer).
    static func isSVG(_ bytes: [UInt8]) -> Bool {
        var b = ArraySlice(bytes.prefix(svgSniffBytes))
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b = b.dropFirst(3) }
        func skipBlanks() { while let c = b.first, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { b = b.dropFirst() } }
        func skip(past end: [UInt8]) -> Bool {
            var i = b.startIndex
            while i + end.count <= b.endIndex {
                if b[i..<(i + end.count)].elementsEqual(end) { b = b[(i + end.count)...]; return true }
                i += 1
            }
            return false
        }
        while true {
            skipBlanks()
            if b.starts(with: Array("<?".utf8)) {
                guard skip(past: Array("?>".utf8)) else { return false }
            } else if b.starts(with: Array("<!--".utf8)) {
                guard skip(past: Array("-->".utf8)) else { return false }
            } else if b.starts(with: Array("<!DOCTYPE".utf8)) {
                // An internal subset ("[ <!ENTITY …> ]") may hold '>' before the DOCTYPE ends.
                var depth = 0
                var i = b.startIndex
                while i < b.endIndex {
                    if b[i] == UInt8(ascii: "[") { depth += 1 }
                    if b[i] == UInt8(ascii: "]") { depth -= 1 }
                    if b[i] == UInt8(ascii: ">"), depth <= 0 { break }
                    i += 1
                }
                guard i < b.endIndex else { return false }
                b = b[(i + 1)...]
            } else {
                break
            }
        }
        // "<svg" then a blank, '>' or '/', possibly with a namespace prefix ("<svg:svg").
        for opening in ["<svg", "<svg:svg"] where b.starts(with: Array(opening.utf8)) {
            let next = b.dropFirst(opening.utf8.count).first
            if let next, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(next) { return true }
        }
        return false
    }

    private static func ascii(_ b: [UInt8], _ s: String, at offset: Int = 0) -> Bool {
        let tag = Array(s.utf8)
        return b.count >= offset + tag.count && b[offset..<(offset + tag.count)].elementsEqual(tag)
    }

    /// Names image formats that are recognisable but not decoded here, so the user is told
    /// "unsupported" instead of "not an image".
    private static func otherFormat(_ b: [UInt8]) -> String? {
        if b.starts(with: [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || b.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) {
            return "JPEG 2000"
        }
        if ascii(b, "8BPS") { return "Photoshop" }
        if b.starts(with: [0, 0, 1, 0]) && b.count >= 6 { return "ICO" }
        if ascii(b, "qoif") { return "QOI" }
        if ascii(b, "ftyp", at: 4) { return "ISO media (not HEIF)" }
        return nil
    }
}
