// What an information panel shows about a picture file beyond its pixels: size and date from
// the file system, EXIF from libexif, the colour profile's name from LittleCMS. Read from the
// file's first bytes on its own, apart from decoding.
import CLCMS
import Foundation
import SystemPackage

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
    /// 64 KiB) near the start, and the ICC profiles cameras and editors embed are 0.5–60 KiB
    /// (decision; a larger profile is not named).
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
        // O_NONBLOCK: a FIFO put in the file's place must not hang the open (O_NOCTTY, which
        // swift-system does not name, keeps a terminal from becoming ours).
        let fd: FileDescriptor
        let info: Stat
        do {
            fd = try path.withCString {
                try FileDescriptor.open($0, .readOnly, options: [.closeOnExec, .nonBlocking, .init(rawValue: O_NOCTTY)])
            }
        } catch {
            return fail("\(error)")
        }
        defer { try? fd.close() }
        do { info = try fd.stat() } catch { return fail("\(error)") }
        guard info.type == .regular else { return fail("not a regular file") }
        details.fileSize = Int(info.size)
        details.modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        var head = [UInt8](repeating: 0, count: min(max(Int(info.size), 0), headBytes))
        var filled = 0
        while filled < head.count {
            // A read error keeps the bytes read before it, as a file that ends there would.
            let got = (try? head.withUnsafeMutableBytes {
                try fd.read(fromAbsoluteOffset: Int64(filled), into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }) ?? 0
            guard got > 0 else { break }
            filled += got
        }
        head.removeSubrange(filled...)
        details.describe(head)
        return details
    }

    /// Fills the EXIF fields and the colour profile from the first bytes of a file, walked as
    /// the decoder walks them (`Metadata`): a profile the decoder would not use (a piece
    /// missing) is not named either.
    mutating func describe(_ head: [UInt8]) {
        let info: ContainerInfo
        var png = PNGColorChunks()
        if head.starts(with: [0xFF, 0xD8]) {
            info = Metadata.jpeg(head)
        } else if head.starts(with: ImageFormat.pngSignature) {
            info = Metadata.png(head)
            png = PNGColorChunks(head)
        } else {
            return
        }
        exif = info.exif.flatMap { ExifFields.read(tiff: Array(head[$0])) }
        if let icc = info.icc {
            colorProfile = Self.profileDescription(icc) ?? "embedded ICC profile"
        } else if let name = png.profileName {
            colorProfile = name.isEmpty ? "embedded ICC profile" : name
        } else if png.isSRGB {
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
    /// LittleCMS; nil when the bytes are no profile or it has no description, or LittleCMS
    /// cannot be loaded.
    static func profileDescription(_ icc: [UInt8]) -> String? {
        guard !icc.isEmpty, icc.count <= Int(UInt32.max), ColorTransform.openLibrary() == nil,
              let profile = icc.withUnsafeBytes({ scrollkit_cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else { return nil }
        defer { scrollkit_cmsCloseProfile(profile) }
        let needed = scrollkit_cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", nil, 0)
        guard needed > 1 else { return nil }
        // Profile text is bounded like EXIF's strings.
        var buffer = [CChar](repeating: 0, count: Int(min(needed, UInt32(ExifFields.maximumStringLength * 4))))
        scrollkit_cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        buffer[buffer.count - 1] = 0
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : String(text.prefix(ExifFields.maximumStringLength))
    }
}

/// What a PNG's chunks say about its colours beyond what decoding needs: iCCP's profile name
/// (its data is compressed; the name is enough here) and the sRGB chunk.
struct PNGColorChunks {
    /// iCCP: the profile's name, 1–79 Latin-1 characters (PNG 3rd edition §11.3.3.3).
    var profileName: String?
    /// sRGB: the image is sRGB.
    var isSRGB = false

    init() {}

    init(_ b: [UInt8]) {
        Metadata.walkPNGChunks(size: b.count, read: { offset, count in Array(b[offset..<(offset + count)]) }) { type, body, length in
            guard length <= b.count - body else { return false }
            switch type {
            case 0x6943_4350:  // "iCCP"
                let name = b[body..<(body + length)].prefix { $0 != 0 }.prefix(79)
                profileName = String(String.UnicodeScalarView(name.map { Unicode.Scalar($0) })).trimmingCharacters(in: .whitespaces)
            case 0x7352_4742:  // "sRGB"
                isSRGB = true
            case 0x4944_4154, 0x4945_4E44:  // "IDAT", "IEND": colour chunks come before the image data
                return false
            default:
                break
            }
            return true
        }
    }
}
