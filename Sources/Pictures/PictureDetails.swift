// What an information panel shows about a picture file beyond its pixels: size and date from
// the file system, EXIF from libexif, the colour profile's name from LittleCMS. Read from the
// file's first bytes on its own, apart from decoding.
import CLCMS
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A picture file's size, date, EXIF fields and colour profile.
public struct PictureDetails: Sendable, Equatable {
    /// The file's size, in bytes.
    public var fileSize: Int?
    /// When the file was last modified.
    public var modified: Date?
    /// The EXIF fields; nil when the file has no EXIF block.
    public var exif: ExifFields?
    /// The colour space the file states, in words: an embedded ICC profile's description
    /// ("Display P3"), "sRGB" for PNG's sRGB chunk, or what EXIF's ColorSpace and
    /// interoperability index say ("sRGB", "Adobe RGB"); nil when the file states none.
    public var colorProfile: String?
    /// Why the file could not be read, when it could not (the other fields are then nil).
    public var problem: String?

    /// No details.
    public init() {}

    /// 1 MiB: the most read from the start of a file. EXIF lives in one JPEG segment (at most
    /// 64 KiB) near the start, and the ICC profiles cameras and editors embed are 0.5–60 KiB;
    /// a profile cut by this limit is reported as embedded without its name (decision).
    public static let headBytes = 1 << 20

    /// The details of the file at `path`, read with at most `headBytes` bytes of it. Never
    /// blocks on a FIFO or device: anything but a regular file is reported as `problem`.
    public static func read(path: String) -> PictureDetails {
        var details = PictureDetails()
        func fail(_ reason: String) -> PictureDetails {
            var failed = PictureDetails()
            failed.problem = reason
            return failed
        }
        // O_NONBLOCK: a FIFO put in the file's place must not hang the open.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return fail(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return fail(String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return fail("not a regular file") }
        details.fileSize = Int(info.st_size)
        details.modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        var head = [UInt8](repeating: 0, count: min(max(Int(info.st_size), 0), headBytes))
        var filled = 0
        while filled < head.count {
            let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        head.removeSubrange(filled...)
        details.describe(head)
        return details
    }

    /// Fills the EXIF fields and the colour profile from the first bytes of a file.
    mutating func describe(_ head: [UInt8]) {
        let found = ContainerBlocks.find(in: head)
        exif = found.exif.flatMap(ExifFields.read(exifBlock:))
        if let icc = found.icc {
            colorProfile = Self.profileDescription(icc) ?? "embedded ICC profile"
        } else if let name = found.iccName {
            colorProfile = name.isEmpty ? "embedded ICC profile" : name
        } else if found.isSRGB {
            colorProfile = "sRGB"
        } else if let exif {
            if exif.interoperabilityIndex == "R03" {
                colorProfile = "Adobe RGB"
            } else if exif.colorSpace == 1 {
                colorProfile = "sRGB"
            } else if exif.colorSpace == 0xFFFF {
                colorProfile = "uncalibrated"
            }
        }
    }

    /// An ICC profile's description (its 'desc' tag, in English where it has several), by
    /// LittleCMS; nil when the bytes are no profile or it has no description.
    static func profileDescription(_ icc: [UInt8]) -> String? {
        guard !icc.isEmpty, icc.count <= Int(UInt32.max),
              let profile = icc.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else { return nil }
        defer { cmsCloseProfile(profile) }
        let needed = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", nil, 0)
        guard needed > 1 else { return nil }
        // Profile text is bounded like EXIF's strings.
        var buffer = [CChar](repeating: 0, count: Int(min(needed, UInt32(ExifFields.maximumStringLength * 4))))
        cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        buffer[buffer.count - 1] = 0
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : String(text.prefix(ExifFields.maximumStringLength))
    }
}

/// The metadata blocks of a JPEG or PNG file's first bytes: EXIF, the ICC profile and PNG's
/// colour-space chunks. (`Metadata` walks the same structures for what decoding needs; this walk
/// collects what a reader wants, and stops at the image data too.)
struct ContainerBlocks {
    /// The EXIF block as libexif takes it: "Exif\0\0" and a TIFF structure.
    var exif: [UInt8]?
    /// The ICC profile's bytes (JPEG: the APP2 chunks joined in order).
    var icc: [UInt8]?
    /// PNG iCCP: the profile's name (its data is compressed, and only its name is needed).
    var iccName: String?
    /// PNG sRGB chunk: the image is sRGB.
    var isSRGB = false

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let iccHeader: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    static func find(in b: [UInt8]) -> ContainerBlocks {
        if b.starts(with: [0xFF, 0xD8]) { return jpeg(b) }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(b) }
        return ContainerBlocks()
    }

    /// JPEG segments from SOI to SOS (T.81 §B.1): the first APP1 holding EXIF, and every APP2
    /// holding a piece of an ICC profile ("ICC_PROFILE\0", its number from 1, the count).
    static func jpeg(_ b: [UInt8]) -> ContainerBlocks {
        var found = ContainerBlocks()
        var pieces: [Int: ArraySlice<UInt8>] = [:]
        var pieceCount = 0
        var pos = 2
        while pos + 3 < b.count, b[pos] == 0xFF {
            let marker = b[pos + 1]
            if marker == 0xFF { pos += 1; continue }  // fill byte
            if marker == 0xD9 || marker == 0xDA { break }  // EOI, SOS: no metadata after
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { pos += 2; continue }  // no length
            let length = Int(b[pos + 2]) << 8 | Int(b[pos + 3])
            let body = pos + 4, end = pos + 2 + length
            guard length >= 2, end <= b.count else { break }
            let segment = b[body..<end]
            if marker == 0xE1, found.exif == nil, segment.starts(with: exifHeader) {
                found.exif = Array(segment)
            } else if marker == 0xE2, segment.starts(with: iccHeader), segment.count > iccHeader.count + 2 {
                let number = Int(segment[body + iccHeader.count]), count = Int(segment[body + iccHeader.count + 1])
                if number >= 1, count >= 1, number <= count, pieceCount == 0 || pieceCount == count {
                    pieceCount = count
                    pieces[number] = segment.dropFirst(iccHeader.count + 2)
                }
            }
            pos = end
        }
        if pieceCount > 0 {
            // A profile with pieces missing (cut by the read limit) is still an embedded one:
            // no bytes, so no name.
            let complete = (1...pieceCount).allSatisfy { pieces[$0] != nil }
            found.icc = complete ? (1...pieceCount).flatMap { Array(pieces[$0]!) } : []
        }
        return found
    }

    /// PNG chunks up to the image data (PNG 3rd edition §5.3): eXIf (a TIFF structure), iCCP
    /// (name, NUL, compressed profile) and sRGB.
    static func png(_ b: [UInt8]) -> ContainerBlocks {
        var found = ContainerBlocks()
        var pos = 8
        while pos + 8 <= b.count {
            let length = b[pos..<(pos + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: b[(pos + 4)..<(pos + 8)], as: UTF8.self)
            let body = pos + 8
            guard length <= b.count - body else { break }
            let data = b[body..<(body + length)]
            switch type {
            case "eXIf" where found.exif == nil: found.exif = exifHeader + data
            case "iCCP":
                // The name is 1–79 Latin-1 characters (§11.3.3.3).
                let name = data.prefix { $0 != 0 }.prefix(79)
                let latin1 = String(String.UnicodeScalarView(name.map { Unicode.Scalar($0) }))
                found.iccName = latin1.trimmingCharacters(in: .whitespaces)
            case "sRGB": found.isSRGB = true
            case "IDAT", "IEND": return found
            default: break
            }
            pos = body + length + 4  // + CRC
        }
        return found
    }
}
