// EXIF blocks with known fields, built byte by byte for tests: a TIFF structure (TIFF 6.0 §2)
// with IFD0 and EXIF's Exif, GPS and interoperability directories (CIPA DC-008), as JPEG's APP1
// segment or PNG's eXIf chunk carries it.

/// A TIFF structure with EXIF's directories; each directory is a list of (tag, value).
public struct ExifBuilder {
    /// A field's value, in one of the TIFF types EXIF uses.
    public enum Value {
        /// ASCII, NUL added.
        case ascii(String)
        /// BYTE (type 1), SHORT (3), LONG (4).
        case byte([Int]), short([Int]), long([Int])
        /// RATIONAL (5) and SRATIONAL (10): numerator / denominator pairs.
        case rational([(Int, Int)]), srational([(Int, Int)])
        /// UNDEFINED (7): raw bytes.
        case undefined([UInt8])
    }

    /// IFD0's fields (Make, Model…); the pointers to the other directories are added.
    public var ifd0: [(tag: Int, value: Value)] = []
    /// The Exif IFD's fields (ExposureTime, FNumber…).
    public var exif: [(tag: Int, value: Value)] = []
    /// The GPS IFD's fields.
    public var gps: [(tag: Int, value: Value)] = []
    /// The interoperability IFD's fields.
    public var interoperability: [(tag: Int, value: Value)] = []
    /// Motorola ("MM") or Intel ("II") byte order.
    public var bigEndian = true

    /// An empty structure.
    public init() {}

    private func u16(_ v: Int) -> [UInt8] {
        let b = [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
        return bigEndian ? b : b.reversed()
    }

    private func u32(_ v: Int) -> [UInt8] {
        let b = (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) }
        return bigEndian ? b : b.reversed()
    }

    /// Type code, count and bytes of a value.
    private func encode(_ value: Value) -> (type: Int, count: Int, bytes: [UInt8]) {
        switch value {
        case .ascii(let s): let b = Array(s.utf8) + [0]; return (2, b.count, b)
        case .byte(let v): return (1, v.count, v.map { UInt8(truncatingIfNeeded: $0) })
        case .short(let v): return (3, v.count, v.flatMap(u16))
        case .long(let v): return (4, v.count, v.flatMap(u32))
        case .rational(let v): return (5, v.count, v.flatMap { u32($0.0) + u32($0.1) })
        case .srational(let v): return (10, v.count, v.flatMap { u32($0.0) + u32($0.1) })
        case .undefined(let b): return (7, b.count, b)
        }
    }

    /// A directory's size in bytes, its values beyond 4 bytes included (each padded to even).
    private func size(_ entries: [(tag: Int, value: Value)]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { sum, e in
            let n = encode(e.value).bytes.count
            return sum + (n > 4 ? n + n % 2 : 0)
        }
    }

    /// A directory placed at `offset` from the TIFF header: entries sorted by tag, then the
    /// values that do not fit in an entry.
    private func directory(_ entries: [(tag: Int, value: Value)], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var out = u16(sorted.count)
        var data: [UInt8] = []
        let dataStart = offset + 2 + 12 * sorted.count + 4
        for entry in sorted {
            let (type, count, bytes) = encode(entry.value)
            out += u16(entry.tag) + u16(type) + u32(count)
            if bytes.count <= 4 {
                out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                out += u32(dataStart + data.count)
                data += bytes
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return out + u32(0) + data
    }

    /// The TIFF structure: header, IFD0, then the Exif, GPS and interoperability IFDs that
    /// have fields, each pointed to from its parent (tags 0x8769, 0x8825, 0xA005).
    public func tiff() -> [UInt8] {
        let pointer = Value.long([0])
        var zero = ifd0, exifFields = exif
        if !exif.isEmpty || !interoperability.isEmpty { zero.append((0x8769, pointer)) }
        if !gps.isEmpty { zero.append((0x8825, pointer)) }
        if !interoperability.isEmpty { exifFields.append((0xA005, pointer)) }
        let zeroAt = 8
        let exifAt = zeroAt + size(zero)
        let gpsAt = exifAt + (exifFields.isEmpty ? 0 : size(exifFields))
        let interopAt = gpsAt + (gps.isEmpty ? 0 : size(gps))
        func pointing(_ entries: [(tag: Int, value: Value)]) -> [(tag: Int, value: Value)] {
            entries.map { e in
                switch e.tag {
                case 0x8769: (e.tag, .long([exifAt]))
                case 0x8825: (e.tag, .long([gpsAt]))
                case 0xA005: (e.tag, .long([interopAt]))
                default: e
                }
            }
        }
        var out: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(zeroAt)
        out += directory(pointing(zero), at: zeroAt)
        if !exifFields.isEmpty { out += directory(pointing(exifFields), at: exifAt) }
        if !gps.isEmpty { out += directory(gps, at: gpsAt) }
        if !interoperability.isEmpty { out += directory(interoperability, at: interopAt) }
        return out
    }

    /// The structure as a JPEG APP1 segment: marker, length, "Exif\0\0", TIFF.
    public func app1() -> [UInt8] {
        let body = Array("Exif".utf8) + [0, 0] + tiff()
        return [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }

    /// `jpeg` with `segments` (whole marker segments) inserted right after its SOI marker.
    public static func inserting(_ segments: [[UInt8]], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg.prefix(2)) + segments.flatMap { $0 } + Array(jpeg.dropFirst(2))
    }

    /// An ICC profile as JPEG APP2 segments ("ICC_PROFILE\0", number from 1, count), cut into
    /// pieces of at most `pieceBytes`.
    public static func iccSegments(_ profile: [UInt8], pieceBytes: Int = 65_519) -> [[UInt8]] {
        let pieces = stride(from: 0, to: profile.count, by: pieceBytes).map { Array(profile[$0..<min($0 + pieceBytes, profile.count)]) }
        return pieces.enumerated().map { i, piece in
            let body = Array("ICC_PROFILE".utf8) + [0, UInt8(i + 1), UInt8(pieces.count)] + piece
            return [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
    }
}

extension ExifBuilder {
    /// A camera photo's fields as the tests know them: a Canon EOS 5D Mark IV with an EF
    /// 50mm f/1.8 STM at 1/250 s, f/2.8, ISO 200, 50 mm (75 mm equivalent), taken on
    /// 2023-07-14 at 18:32:05 (+02:00) at 48° 51′ 29.6″ N, 2° 17′ 40.2″ E, 35 m; ColorSpace
    /// uncalibrated with the Adobe RGB interoperability index "R03".
    public static func cameraPhoto(bigEndian: Bool = true) -> ExifBuilder {
        var b = ExifBuilder()
        b.bigEndian = bigEndian
        b.ifd0 = [(0x010F, .ascii("Canon")), (0x0110, .ascii("Canon EOS 5D Mark IV")), (0x0112, .short([1]))]
        b.exif = [
            (0x829A, .rational([(1, 250)])), (0x829D, .rational([(28, 10)])), (0x8827, .short([200])),
            (0x9003, .ascii("2023:07:14 18:32:05")), (0x9011, .ascii("+02:00")), (0x920A, .rational([(50, 1)])),
            (0xA001, .short([0xFFFF])), (0xA405, .short([75])), (0xA433, .ascii("Canon")),
            (0xA434, .ascii("EF50mm f/1.8 STM")),
        ]
        b.gps = [
            (0x0000, .byte([2, 3, 0, 0])), (0x0001, .ascii("N")), (0x0002, .rational([(48, 1), (51, 1), (2960, 100)])),
            (0x0003, .ascii("E")), (0x0004, .rational([(2, 1), (17, 1), (4020, 100)])), (0x0005, .byte([0])),
            (0x0006, .rational([(35, 1)])),
        ]
        b.interoperability = [(0x0001, .ascii("R03"))]
        return b
    }
}
