// Bounds-checked walks over PNG chunks, JPEG markers and the Exif IFD0, run before decoding.

/// What the container says before any pixel is decoded.
struct ContainerInfo: Sendable, Equatable {
    /// Stored width and height from IHDR / SOFn, if found.
    var width: Int?
    var height: Int?
    /// EXIF orientation (tag 0x0112 in IFD0), `.up` when absent or invalid.
    var orientation: Orientation = .up
    /// JPEG: SOF2/SOF6/SOF10/SOF14 (progressive), whose decoder keeps all coefficients.
    var progressive = false
    /// JPEG: arithmetic-coded (SOF9–SOF15), which may be far denser than Huffman coding.
    var arithmetic = false
    /// JPEG: the walk reached a start-of-scan marker, so the headers are complete.
    var reachedScan = false
    /// JPEG: the ICC profile from the APP2 "ICC_PROFILE" segments, joined in sequence order.
    var icc: [UInt8]?
    /// Where the EXIF TIFF structure lies in the bytes walked: the first APP1 "Exif\0\0"
    /// segment's after that header (JPEG), the eXIf chunk's body (PNG).
    var exif: Range<Int>?
    /// PNG: Adam7 interlacing.
    var interlaced = false
    /// PNG: bits per sample and colour type from IHDR.
    var bitDepth = 8
    var colorType = 0
    /// PNG: bytes of image data in the IDAT chunks present (what deflate can expand).
    var imageDataBytes = 0
    /// PNG: whether the first IDAT starts with a valid zlib header (nil: too short to tell).
    var imageDataIsZlib: Bool?
    /// PNG: cICP colour primaries and transfer characteristics (ITU-T H.273 codes).
    var cicp: (primaries: Int, transfer: Int)?

    static func == (a: ContainerInfo, b: ContainerInfo) -> Bool {
        a.width == b.width && a.height == b.height && a.orientation == b.orientation && a.progressive == b.progressive
            && a.arithmetic == b.arithmetic && a.reachedScan == b.reachedScan && a.interlaced == b.interlaced
            && a.bitDepth == b.bitDepth && a.colorType == b.colorType && a.imageDataBytes == b.imageDataBytes
            && a.imageDataIsZlib == b.imageDataIsZlib && a.cicp?.primaries == b.cicp?.primaries && a.cicp?.transfer == b.cicp?.transfer && a.icc == b.icc
            && a.exif == b.exif
    }
}

/// Readers for the small amount of container structure the decoder needs itself.
///
/// Every read checks its bounds; malformed input yields "nothing found", never a trap,
/// because the codec libraries report the real problem afterwards.
enum Metadata {
    /// Big- or little-endian unsigned read of `count` bytes at `offset`, nil out of bounds.
    static func uint(_ b: [UInt8], _ offset: Int, _ count: Int, bigEndian: Bool = true) -> Int? {
        guard offset >= 0, count > 0, offset <= b.count - count else { return nil }
        var value = 0
        for i in 0..<count {
            let byte = Int(b[offset + (bigEndian ? i : count - 1 - i)])
            value = value << 8 | byte
        }
        return value
    }

    /// Orientation from a TIFF structure ("II*\0" or "MM\0*" header, IFD0 entries) that
    /// starts at `start` and ends at `end` in `b`. Offsets inside TIFF are relative to `start`.
    static func exifOrientation(_ b: [UInt8], start: Int, end: Int) -> Orientation? {
        guard start >= 0, end <= b.count, end - start >= 8 else { return nil }
        let bigEndian: Bool
        switch (b[start], b[start + 1]) {
        case (0x4D, 0x4D): bigEndian = true   // "MM": Motorola order
        case (0x49, 0x49): bigEndian = false  // "II": Intel order
        default: return nil
        }
        func read(_ relative: Int, _ count: Int) -> Int? {
            guard relative >= 0, relative <= end - start - count else { return nil }
            return uint(b, start + relative, count, bigEndian: bigEndian)
        }
        guard read(2, 2) == 42, let ifd0 = read(4, 4), let entries = read(ifd0, 2) else { return nil }
        // Each IFD entry is 12 bytes: tag, type, count, value-or-offset (TIFF 6.0 §2).
        for index in 0..<entries {
            let entry = ifd0 + 2 + index * 12
            guard let tag = read(entry, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type 3 (SHORT), count 1: the value sits left-justified in the 4-byte field.
            guard read(entry + 2, 2) == 3, read(entry + 4, 4) == 1, let raw = read(entry + 8, 2) else { return nil }
            return Orientation(rawValue: raw)
        }
        return nil
    }

    /// Walks JPEG markers from SOI up to SOS: frame size and type from SOFn, orientation
    /// from the first APP1 segment that starts with "Exif\0\0".
    static func jpeg(_ b: [UInt8]) -> ContainerInfo {
        var info = ContainerInfo()
        var sawExif = false
        var iccParts: [Int: ArraySlice<UInt8>] = [:]
        var iccCount = 0
        var pos = 2  // after SOI
        while pos + 1 < b.count {
            // Stray bytes between segments: libjpeg skips to the next 0xFF with a warning
            // (jdmarker.c next_marker), and so does this walk.
            while pos < b.count, b[pos] != 0xFF { pos += 1 }
            var markerPos = pos + 1
            while markerPos < b.count, b[markerPos] == 0xFF { markerPos += 1 }  // fill bytes (T.81 §B.1.1.2)
            guard markerPos < b.count else { break }
            let marker = b[markerPos]
            pos = markerPos + 1
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // TEM, RSTn: no length
            if marker == 0xDA { info.reachedScan = true }
            if marker == 0xD9 || marker == 0xDA { break }  // EOI, SOS: headers are over
            guard let length = uint(b, pos, 2), length >= 2 else { break }
            let body = pos + 2, bodyEnd = pos + length
            guard bodyEnd <= b.count else { break }
            switch marker {
            case 0xE1 where !sawExif:
                let exifTag: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
                if bodyEnd - body >= 6, Array(b[body..<(body + 6)]) == exifTag {
                    sawExif = true
                    info.orientation = exifOrientation(b, start: body + 6, end: bodyEnd) ?? .up
                    info.exif = (body + 6)..<bodyEnd
                }
            case 0xE2:
                // ICC.1 Annex B.4: "ICC_PROFILE\0", sequence number (from 1), count, data.
                let tag = Array("ICC_PROFILE".utf8) + [0]
                if bodyEnd - body >= 14, b[body..<(body + 12)].elementsEqual(tag), b[body + 12] >= 1 {
                    iccCount = Int(b[body + 13])
                    iccParts[Int(b[body + 12])] = b[(body + 14)..<bodyEnd]
                }
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                // SOFn (DHT, JPG and DAC share the range): P, Y, X (T.81 §B.2.2).
                info.height = uint(b, body + 1, 2)
                info.width = uint(b, body + 3, 2)
                info.progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                info.arithmetic = marker >= 0xC9
            default:
                break
            }
            pos = bodyEnd
        }
        // A profile with a part missing is no profile (the colours would be wrong).
        if iccCount > 0, (1...iccCount).allSatisfy({ iccParts[$0] != nil }) {
            info.icc = (1...iccCount).flatMap { Array(iccParts[$0]!) }
        }
        return info
    }

    /// Calls `visit` with each PNG chunk's type, body offset and declared length, in file
    /// order from the first chunk after the signature, for as long as `read(offset, count)`
    /// gives whole 8-byte chunk headers; `visit` returns false to stop. Bodies are skipped,
    /// so a walk over a file reads only its headers.
    static func walkPNGChunks(size: Int, read: (Int, Int) -> [UInt8]?, _ visit: (Int, Int, Int) -> Bool) {
        var pos = 8  // after the signature
        while pos <= size - 8, let head = read(pos, 8), let length = uint(head, 0, 4), let type = uint(head, 4, 4) {
            guard visit(type, pos + 8, length) else { return }
            guard length <= size - pos - 12 else { return }  // body and CRC run past the end
            pos += 12 + length
        }
    }

    /// Walks every PNG chunk header (bodies are skipped, not read): IHDR fields, the bytes
    /// of image data present, cICP, and orientation from eXIf (PNG 3rd edition /
    /// Extensions 1.5: the chunk body is a TIFF structure).
    static func png(_ b: [UInt8]) -> ContainerInfo {
        png(size: b.count, exifLimit: b.count) { offset, count in Array(b[offset..<(offset + count)]) }
    }

    /// 64 KiB: the largest eXIf body read from a file read in place (an EXIF APP1 segment's
    /// limit, JPEG's; the orientation is in its first IFD).
    static let streamedExifBytes = 1 << 16

    /// The same over a file of `size` bytes read through `read(offset, count)` (nil when the
    /// bytes cannot be read), as a file too large for memory is, reading at most `exifLimit`
    /// bytes of an eXIf chunk.
    static func png(size: Int, exifLimit: Int = streamedExifBytes, read: (Int, Int) -> [UInt8]?) -> ContainerInfo {
        var info = ContainerInfo()
        walkPNGChunks(size: size, read: read) { type, body, length in
            guard length <= size - body else {
                // A cut file: the image data that is there still decodes to rows.
                if type == 0x4944_4154 {
                    info.imageDataBytes += max(0, size - body)
                    if info.imageDataIsZlib == nil, size - body >= 2, let z = read(body, 2) { info.imageDataIsZlib = isZlibHeader(z[0], z[1]) }
                }
                return false
            }
            switch type {
            case 0x4948_4452 where length >= 13:  // "IHDR"
                guard let h = read(body, 13) else { return false }
                info.width = uint(h, 0, 4)
                info.height = uint(h, 4, 4)
                info.bitDepth = Int(h[8])
                info.colorType = Int(h[9])
                info.interlaced = h[12] == 1
            case 0x6558_4966:  // "eXIf"
                if let e = read(body, min(length, exifLimit)) {
                    info.orientation = exifOrientation(e, start: 0, end: e.count) ?? .up
                    if e.count == length { info.exif = body..<(body + length) }
                }
            case 0x6349_4350 where length == 4:  // "cICP": primaries, transfer, matrix, range
                if let c = read(body, 2) { info.cicp = (Int(c[0]), Int(c[1])) }
            case 0x4944_4154:  // "IDAT"
                if info.imageDataIsZlib == nil, length >= 2, let z = read(body, 2) { info.imageDataIsZlib = isZlibHeader(z[0], z[1]) }
                info.imageDataBytes += min(length, Int.max - info.imageDataBytes)
            case 0x4945_4E44:  // "IEND"
                return false
            default:
                break
            }
            return true
        }
        return info
    }

    /// RFC 1950 §2.2: deflate (CM 8), a window of at most 32 KiB, and FCHECK.
    static func isZlibHeader(_ cmf: UInt8, _ flg: UInt8) -> Bool {
        cmf & 0x0F == 8 && cmf >> 4 <= 7 && (Int(cmf) << 8 | Int(flg)) % 31 == 0
    }

    /// How many bytes of a PNG of `size` bytes a decoder can use: up to the end of IEND, or
    /// to where the chunk structure stops being one (a type that is not four letters, a
    /// length past 2³¹ − 1, image data without a zlib header), since libpng stops there too.
    /// Read through `read` before the file itself, so a file that is a PNG header followed
    /// by a gigabyte of nothing (sparse, or padding) is not read beyond its header.
    static func pngExtent(size: Int, read: (Int, Int) -> [UInt8]?) -> Int {
        var extent = min(size, 8)
        var sawImageData = false
        walkPNGChunks(size: size, read: read) { type, body, length in
            // PNG §5.4: chunk types are four ASCII letters; lengths at most 2³¹ − 1.
            let letters = (0..<4).allSatisfy { i in
                let c = (type >> (8 * (3 - i))) & 0xFF
                return (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
            }
            guard letters, length <= Int(Int32.max) else {
                extent = min(size, body)  // libpng reads the header and names the problem
                return false
            }
            if type == 0x4944_4154, !sawImageData {
                sawImageData = true
                if length >= 2, let z = read(body, 2) {
                    guard isZlibHeader(z[0], z[1]) else {
                        // One read's worth, so zlib sees the bad header and says so.
                        extent = min(size, body + min(length, PNGCodec.imageDataReadBytes))
                        return false
                    }
                }
            }
            extent = min(size, body + length + 4)
            return type != 0x4945_4E44  // "IEND"
        }
        return extent
    }
}
