// The EXIF fields people look for in a photo (camera, lens, date, exposure, place), read with
// libexif from a file's EXIF block; raw values with units, formatting is the caller's.
import CExif
import Foundation

/// What a photo's EXIF says about how it was taken. Every field is nil when the file does not
/// say it, or says something unusable (a zero denominator, an empty string).
public struct ExifFields: Sendable, Equatable {
    /// The camera's maker (tag Make), as written: "Canon", "Apple".
    public var make: String?
    /// The camera's model (tag Model): "Canon EOS 5D Mark IV", "iPhone 13 Pro".
    public var model: String?
    /// The lens's maker and model (LensMake, LensModel).
    public var lensMake: String?
    public var lensModel: String?
    /// When the picture was taken (DateTimeOriginal, else DateTimeDigitized) as the camera's
    /// clock said it: "2023-07-14 18:32:05", in the camera's local time.
    public var dateTaken: String?
    /// The camera clock's offset from UTC then (OffsetTimeOriginal, EXIF 2.31): "+02:00".
    public var dateTakenOffset: String?
    /// Exposure time, in seconds.
    public var exposureTime: Double?
    /// The f-number (aperture), e.g. 2.8.
    public var fNumber: Double?
    /// ISO speed (PhotographicSensitivity, formerly ISOSpeedRatings).
    public var iso: Int?
    /// Focal length, in millimetres.
    public var focalLength: Double?
    /// The same in 35 mm film terms, in millimetres.
    public var focalLength35mm: Int?
    /// GPS position in degrees: latitude north positive, longitude east positive.
    public var latitude: Double?
    public var longitude: Double?
    /// GPS altitude, in metres above sea level (negative below).
    public var altitude: Double?
    /// ColorSpace: 1 for sRGB, 0xFFFF for "uncalibrated" (another space, often Adobe RGB or
    /// Display P3, stated by an ICC profile or the interoperability index).
    public var colorSpace: Int?
    /// The interoperability index: "R98" (sRGB rules), "R03" (Adobe RGB).
    public var interoperabilityIndex: String?

    /// No fields.
    public init() {}

    /// Whether no field was found.
    public var isEmpty: Bool { self == ExifFields() }

    /// 256 characters: longer strings are cut, so a hostile file cannot fill the panel (decision).
    static let maximumStringLength = 256

    /// The fields of `tiff`, the TIFF structure EXIF is (JPEG's APP1 after "Exif\0\0", PNG's
    /// eXIf chunk); nil when libexif finds no EXIF in it.
    public static func read(tiff: [UInt8]) -> ExifFields? {
        // libexif takes a whole JPEG, or the APP1 body with its "Exif\0\0" header.
        let exif = Array("Exif".utf8) + [0, 0] + tiff
        guard !tiff.isEmpty, exif.count <= Int(UInt32.max), let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        // libexif "follows the specification" by default: it adds the tags EXIF calls mandatory
        // with made-up values (ColorSpace sRGB among them). Only what the file says is wanted.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        let reader = Reader(data: data)
        var fields = ExifFields()
        fields.make = reader.string(EXIF_TAG_MAKE, in: .zero)
        fields.model = reader.string(EXIF_TAG_MODEL, in: .zero)
        fields.lensMake = reader.string(EXIF_TAG_LENS_MAKE, in: .exif)
        fields.lensModel = reader.string(EXIF_TAG_LENS_MODEL, in: .exif)
        if let date = reader.string(EXIF_TAG_DATE_TIME_ORIGINAL, in: .exif) ?? reader.string(EXIF_TAG_DATE_TIME_DIGITIZED, in: .exif) {
            fields.dateTaken = Self.readableDate(date)
        }
        fields.dateTakenOffset = reader.string(EXIF_TAG_OFFSET_TIME_ORIGINAL, in: .exif)
        fields.exposureTime = reader.rational(EXIF_TAG_EXPOSURE_TIME, in: .exif)
        fields.fNumber = reader.rational(EXIF_TAG_FNUMBER, in: .exif)
        fields.iso = reader.integer(EXIF_TAG_ISO_SPEED_RATINGS, in: .exif).flatMap { $0 > 0 ? $0 : nil }
        fields.focalLength = reader.rational(EXIF_TAG_FOCAL_LENGTH, in: .exif)
        fields.focalLength35mm = reader.integer(EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM, in: .exif).flatMap { $0 > 0 ? $0 : nil }
        fields.colorSpace = reader.integer(EXIF_TAG_COLOR_SPACE, in: .exif)
        fields.interoperabilityIndex = reader.string(EXIF_TAG_INTEROPERABILITY_INDEX, in: .interoperability)
        fields.latitude = reader.coordinate(gpsTag(EXIF_TAG_GPS_LATITUDE), reference: gpsTag(EXIF_TAG_GPS_LATITUDE_REF), negative: "S", limit: 90)
        fields.longitude = reader.coordinate(gpsTag(EXIF_TAG_GPS_LONGITUDE), reference: gpsTag(EXIF_TAG_GPS_LONGITUDE_REF), negative: "W",
                                             limit: 180)
        if let latitude = fields.latitude, let longitude = fields.longitude, latitude == 0 && longitude == 0 {
            // 0° 0′ is what cameras without a fix write into the GPS tags.
            fields.latitude = nil
            fields.longitude = nil
        }
        if fields.latitude != nil, let altitude = reader.rational(gpsTag(EXIF_TAG_GPS_ALTITUDE), in: .gps) {
            // GPSAltitudeRef: 0 above sea level, 1 below.
            fields.altitude = reader.integer(gpsTag(EXIF_TAG_GPS_ALTITUDE_REF), in: .gps) == 1 ? -altitude : altitude
        }
        return fields
    }

    /// libexif names the GPS tags with macros, which Swift sees as plain numbers.
    private static func gpsTag(_ value: Int32) -> ExifTag { ExifTag(rawValue: UInt32(value)) }

    /// EXIF writes dates as "YYYY:MM:DD HH:MM:SS"; the date's colons become dashes. Anything
    /// else is shown as written.
    static func readableDate(_ date: String) -> String {
        let scalars = Array(date.unicodeScalars)
        guard scalars.count >= 10, scalars[4] == ":", scalars[7] == ":" else { return date }
        var out = String.UnicodeScalarView()
        for (i, s) in scalars.enumerated() { out.append(i == 4 || i == 7 ? "-" : s) }
        return String(out)
    }

    /// The IFDs fields come from.
    private enum Directory {
        case zero, exif, gps, interoperability
    }

    /// Typed reads of one loaded `ExifData`, every one checked against the entry's format,
    /// component count and size.
    private struct Reader {
        let data: UnsafeMutablePointer<ExifData>
        let order: ExifByteOrder

        init(data: UnsafeMutablePointer<ExifData>) {
            self.data = data
            order = exif_data_get_byte_order(data)
        }

        private func entry(_ tag: ExifTag, in directory: Directory) -> UnsafeMutablePointer<ExifEntry>? {
            let ifd = data.pointee.ifd
            let content: UnsafeMutablePointer<ExifContent>?
            switch directory {
            case .zero: content = ifd.0
            case .exif: content = ifd.2
            case .gps: content = ifd.3
            case .interoperability: content = ifd.4
            }
            guard let content, let entry = exif_content_get_entry(content, tag), entry.pointee.data != nil else { return nil }
            return entry
        }

        /// The entry's data when it holds at least `count` values of `size` bytes.
        private func bytes(_ entry: UnsafeMutablePointer<ExifEntry>, count: Int, size: Int) -> UnsafeMutablePointer<UInt8>? {
            guard let data = entry.pointee.data, entry.pointee.components >= count,
                  Int(entry.pointee.size) >= count * size else { return nil }
            return data
        }

        /// An ASCII (in practice often UTF-8) value, without its NULs and surrounding spaces.
        func string(_ tag: ExifTag, in directory: Directory) -> String? {
            guard let entry = entry(tag, in: directory) else { return nil }
            let format = entry.pointee.format
            guard format == EXIF_FORMAT_ASCII || format == EXIF_FORMAT_UNDEFINED,
                  let data = entry.pointee.data else { return nil }
            var raw = Array(UnsafeBufferPointer(start: data, count: Int(entry.pointee.size)))
            if let end = raw.firstIndex(of: 0) { raw.removeSubrange(end...) }
            let text = String(decoding: raw.prefix(ExifFields.maximumStringLength * 4), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : String(text.prefix(ExifFields.maximumStringLength))
        }

        /// A SHORT or LONG value (the first, for arrays).
        func integer(_ tag: ExifTag, in directory: Directory) -> Int? {
            guard let entry = entry(tag, in: directory) else { return nil }
            switch entry.pointee.format {
            case EXIF_FORMAT_SHORT:
                return bytes(entry, count: 1, size: 2).map { Int(exif_get_short($0, order)) }
            case EXIF_FORMAT_LONG:
                return bytes(entry, count: 1, size: 4).map { Int(exif_get_long($0, order)) }
            case EXIF_FORMAT_BYTE:
                return bytes(entry, count: 1, size: 1).map { Int($0.pointee) }
            default:
                return nil
            }
        }

        /// RATIONAL values `index..<index + count`, nil when one has a zero denominator.
        private func rationals(_ entry: UnsafeMutablePointer<ExifEntry>, count: Int) -> [Double]? {
            let signed = entry.pointee.format == EXIF_FORMAT_SRATIONAL
            guard entry.pointee.format == EXIF_FORMAT_RATIONAL || signed,
                  let data = bytes(entry, count: count, size: 8) else { return nil }
            var values: [Double] = []
            for i in 0..<count {
                let value: Double
                if signed {
                    let r = exif_get_srational(data + 8 * i, order)
                    guard r.denominator != 0 else { return nil }
                    value = Double(r.numerator) / Double(r.denominator)
                } else {
                    let r = exif_get_rational(data + 8 * i, order)
                    guard r.denominator != 0 else { return nil }
                    value = Double(r.numerator) / Double(r.denominator)
                }
                values.append(value)
            }
            return values
        }

        /// One RATIONAL value, when finite and positive.
        func rational(_ tag: ExifTag, in directory: Directory) -> Double? {
            guard let entry = entry(tag, in: directory), let value = rationals(entry, count: 1)?.first,
                  value.isFinite, value > 0 else { return nil }
            return value
        }

        /// A GPS coordinate: degrees, minutes, seconds as three RATIONALs, signed by the reference
        /// letter, within ±`limit` degrees.
        func coordinate(_ tag: ExifTag, reference: ExifTag, negative: String, limit: Double) -> Double? {
            guard let entry = entry(tag, in: .gps), let dms = rationals(entry, count: 3) else { return nil }
            let degrees = dms[0] + dms[1] / 60 + dms[2] / 3600
            guard degrees.isFinite, degrees <= limit, dms.allSatisfy({ $0 >= 0 }) else { return nil }
            return string(reference, in: .gps)?.uppercased() == negative ? -degrees : degrees
        }
    }
}
