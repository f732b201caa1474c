// Bad files end in one line naming file and reason: no crash, no allocation sized by a lie.
import Foundation
import Raster
import SafeOutput
import Synchronization
import Testing
import TestSupport
@testable import Pictures

@Suite("Bad files")
struct BadFileTests {
    static let validPNG = PNGWriter(width: 40, height: 30, colorType: 6).encode { x, y in [x * 6, y * 8, 90, 200] }
    static func validJPEG() throws -> [UInt8] {
        try JPEGEncoder.encode(argb: blockPattern(width: 64, height: 48), width: 64, height: 48, quality: 90)
    }

    /// A scratch directory for files on disk.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("missing files and directories: 'cannot read' with the system's reason")
    func unreadable() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: PictureError(file: "nope.png", kind: .unreadable("No such file or directory"))) {
            try ImageDecoder(path: dir.appendingPathComponent("nope.png").path)
        }
        do {
            _ = try ImageDecoder(path: dir.path)
            Issue.record("reading a directory succeeded")
        } catch {
            #expect(error.reason == "cannot read: Is a directory")
            #expect(error.description == "\(dir.lastPathComponent): cannot read: Is a directory")
        }
    }

    // Reported as skipped, not passed, when run as root: permissions bind no one there. The
    // reason comes from the same errno text as the missing file and the directory above.
    @Test("unreadable permissions report 'Permission denied'",
          .enabled(if: getuid() != 0, "run as root, who may read any file"))
    func permissionDenied() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("secret.png")
        try Data(Self.validPNG).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        #expect(throws: PictureError(file: "secret.png", kind: .unreadable("Permission denied"))) {
            try ImageDecoder(path: file.path)
        }
    }

    @Test("zero bytes: 'empty file', on disk and in memory")
    func empty() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("empty.png")
        try Data().write(to: file)
        let error = decodeError(try ImageDecoder(path: file.path).data, file: "empty.png")
        #expect(error?.description == "empty.png: empty file")
    }

    @Test("text, HTML and other formats are recognised by content, not by extension")
    func notAnImage() throws {
        #expect(decodeError(Array("hello, world\n".utf8), file: "notes.png")?.description == "notes.png: not an image")
        #expect(decodeError(Array("<!DOCTYPE html>".utf8), file: "page.jpg")?.reason == "not an image")
        #expect(decodeError([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A], file: "a.png")?.reason == "unsupported image format: JPEG 2000")
        #expect(decodeError([0x42], file: "b")?.reason == "not an image")
        // A JPEG named .png still decodes: the extension is never consulted.
        #expect(decodeError(try Self.validJPEG(), file: "really-a-jpeg.png") == nil)
    }

    @Test("PNG truncated at any point reports 'truncated file'")
    func truncatedPNG() throws {
        let png = Self.validPNG
        let idat = png.count - 12 - (png.count - 12 - 33 - 8 - 4) / 2  // inside the IDAT data
        for length in [1, 4, 7, 12, 20, 32, 33, 40, idat, png.count - 16] {
            let error = decodeError(Array(png.prefix(length)), file: "cut.png")
            #expect(error?.kind == .truncated, "cut at \(length) of \(png.count): \(String(describing: error))")
        }
        // All pixels present, only IEND missing: shown, as browsers do.
        #expect(decodeError(Array(png.prefix(png.count - 12)), file: "no-iend.png") == nil)
    }

    @Test("JPEG truncated at any point reports 'truncated file'")
    func truncatedJPEG() throws {
        let jpeg = try Self.validJPEG()
        for length in [1, 2, 3, 20, 100, 300, jpeg.count / 2, jpeg.count - 40, jpeg.count - 2] {
            let error = decodeError(Array(jpeg.prefix(length)), file: "cut.jpg")
            #expect(error?.kind == .truncated, "cut at \(length) of \(jpeg.count): \(String(describing: error))")
        }
        let previewError = (try? ImageDecoder(data: Array(jpeg.prefix(jpeg.count / 2)), file: "c")
            .decodePreview(maxPixels: 64)) == nil
        #expect(previewError)
    }

    @Test("corrupt PNG data carries libpng's message")
    func corruptPNG() throws {
        var badCRC = Self.validPNG
        badCRC[33 + 8 + 10] ^= 0x55  // a byte inside IDAT: its CRC no longer matches
        let crcError = decodeError(badCRC, file: "crc.png")?.description ?? "decoded"
        #expect(crcError.hasPrefix("crc.png: corrupt PNG data: IDAT: "), "\(crcError)")
        var badType = Self.validPNG
        badType[8 + 8 + 9] = 5  // colour type 5 does not exist; fix IHDR's CRC so libpng reads it
        let ihdr = Array(badType[12..<29])
        badType.replaceSubrange(29..<33, with: be32(Int(crc32(ihdr))))
        let error = decodeError(badType, file: "type.png")
        #expect(error?.reason.hasPrefix("corrupt PNG data: ") == true, "\(String(describing: error))")
    }

    @Test("corrupt JPEG data carries libjpeg's message")
    func corruptJPEG() throws {
        var jpeg = try Self.validJPEG()
        // Break the first DQT: a table id of 9 is invalid (T.81 §B.2.4.1 allows 0–3).
        let dqt = (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDB }!
        jpeg[dqt + 4] = 0x09
        let error = decodeError(jpeg, file: "dqt.jpg")
        #expect(error?.reason.hasPrefix("corrupt JPEG data: ") == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("dqt.jpg: corrupt JPEG data: ") == true)
    }

    /// Signature and IHDR only, for size claims that must be refused from the header.
    func pngHeader(width: Int, height: Int, colorType: UInt8, bitDepth: UInt8) -> [UInt8] {
        ImageFormat.pngSignature + chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0])
    }

    /// Counts consultations of the memory budget, which happen only just before pixel
    /// memory is allocated: a count of zero proves the file was refused before that point.
    final class MemoryProbe: Sendable {
        let calls = Atomic<Int>(0)
        var limits: DecodeLimits {
            DecodeLimits(availableMemory: { [self] in
                calls.add(1, ordering: .relaxed)
                return nil
            })
        }
    }

    @Test("a PNG declaring 100000×100000 is refused from its header, before any allocation")
    func absurdPNG() throws {
        // Only the signature and IHDR: the size claim is all there is.
        let header = pngHeader(width: 100_000, height: 100_000, colorType: 2, bitDepth: 8)
        let probe = MemoryProbe()
        let decoder = ImageDecoder(data: header, file: "huge.png", limits: probe.limits)
        #expect(throws: PictureError(file: "huge.png", kind: .tooLarge(width: 100_000, height: 100_000, limit: 1 << 28))) {
            try decoder.decode()
        }
        #expect((try? decoder.decodePreview(maxPixels: 100)) == nil)
        #expect(decodeError(header, file: "huge.png")?.description
                == "huge.png: image too large: 100000×100000 exceeds the 268-megapixel limit")
        #expect(probe.calls.load(ordering: .relaxed) == 0)
    }

    @Test("a small file declaring 16000×16000 (under the limit) is refused as truncated, unallocated")
    func implausiblePNGAndJPEG() throws {
        // A real header and 4 KB of data: 32 MB of rows cannot come out of 4 KB of deflate.
        let short = pngHeader(width: 16_000, height: 16_000, colorType: 0, bitDepth: 1)
            + chunk("IDAT", zlibStored([UInt8](repeating: 0, count: 4000)))
        let probe = MemoryProbe()
        #expect(decodeError(short, limits: probe.limits)?.kind == .truncated)
        var jpeg = try Self.validJPEG()
        let sof = (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }!
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0x3E, 0x80, 0x3E, 0x80])  // 16000×16000
        #expect(decodeError(jpeg, limits: probe.limits)?.kind == .truncated)
        #expect(probe.calls.load(ordering: .relaxed) == 0)
    }

    @Test("a JPEG declaring 65535×65535 is refused before TurboJPEG sees it")
    func absurdJPEG() throws {
        var jpeg = try Self.validJPEG()
        let sof = (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }!
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(decodeError(jpeg, file: "wide.jpg")?.reason == "image too large: 65535×65535 exceeds the 268-megapixel limit")
    }

    @Test("an image larger than the available memory is refused with both figures")
    func insufficientMemory() throws {
        let limits = DecodeLimits(availableMemory: { 1 << 20 })
        let png = PNGWriter(width: 1000, height: 1000, colorType: 0).encode { x, _ in [x & 0xFF] }
        let error = decodeError(png, file: "big.png", limits: limits)
        #expect(error?.description == "big.png: image too large for available memory: 1000×1000 needs 3.8 MiB, 1.0 MiB available")
    }

    @Test("a FIFO is refused at once as not a regular file, and the next file still loads",
          .timeLimit(.minutes(1)))
    func fifo() async throws {
        let folder = try PrivateFolder(prefix: "pictures-fifo")
        let fifo = folder.appending("x.jpg")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody writes to it: an open without O_NONBLOCK would wait here forever.
        #expect(throws: PictureError(file: "x.jpg", kind: .notRegularFile("FIFO"))) { try ImageDecoder(path: fifo) }
        let good = folder.appending("good.png")
        try Data(Self.validPNG).write(to: URL(fileURLWithPath: good))
        let loader = PictureLoader()
        var shapes: [String] = []
        for path in [fifo, good] {
            for await event in loader.events(path: path) {
                if case .failed(let error) = event { shapes.append(error.description) }
                if case .loaded = event { shapes.append("loaded") }
            }
        }
        #expect(shapes == ["x.jpg: not a regular file (FIFO)", "loaded"])
    }

    @Test("a symlink to /dev/zero is refused from fstat, before reading a byte")
    func deviceBehindSymlink() throws {
        let folder = try PrivateFolder(prefix: "pictures-device")
        let link = folder.appending("z.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        #expect(throws: PictureError(file: "z.png", kind: .notRegularFile("character device"))) {
            try ImageDecoder(path: link)
        }
        // A symlink to a picture is a picture: links are followed, the target's type checked.
        let target = folder.appending("real.png")
        try Data(Self.validPNG).write(to: URL(fileURLWithPath: target))
        let pictureLink = folder.appending("link.png")
        try FileManager.default.createSymbolicLink(atPath: pictureLink, withDestinationPath: target)
        #expect(try ImageDecoder(path: pictureLink).decode().width == 40)
    }

    @Test("files over the size limit are refused before being read")
    func fileTooLarge() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("big.jpg")
        try Data(try Self.validJPEG()).write(to: file)
        #expect(throws: PictureError.self) { try ImageDecoder(path: file.path, limits: DecodeLimits(maxFileBytes: 100)) }
        do {
            _ = try ImageDecoder(path: file.path, limits: DecodeLimits(maxFileBytes: 100))
        } catch {
            #expect(error.reason.hasPrefix("file too large: "))
        }
    }

    @Test("a bad file does not disturb decoding the next one")
    func keepsWorking() throws {
        #expect(decodeError([]) != nil)
        #expect(decodeError(Array(Self.validPNG.prefix(50))) != nil)
        let picture = try decodeOrFail(Self.validPNG)
        #expect(picture.pixel(x: 1, y: 1) == argb((6 * 200 + 127) / 255, (8 * 200 + 127) / 255, (90 * 200 + 127) / 255, 200))
    }
}

@Suite("Sizes checked before allocation")
struct SizeCheckTests {
    @Test("every format's declared size is refused from its header, before pixel memory is asked for",
          arguments: CorpusTests.formats)
    func refusedFromHeader(format: String) throws {
        let (folder, entries) = try GeneratedCorpus.generated.get()
        for entry in entries where entry.format == format {
            let probe = BadFileTests.MemoryProbe()
            var limits = probe.limits
            limits.maxPixels = 100  // every corpus picture is larger
            let decoder = try ImageDecoder(path: folder.appendingPathComponent(entry.file).path, limits: limits)
            #expect(throws: PictureError.self) { try decoder.decode() }
            do {
                _ = try decoder.decode()
            } catch {
                guard case .tooLarge(_, _, let limit) = error.kind else {
                    Issue.record("\(entry): \(error)")
                    continue
                }
                #expect(limit == 100)
            }
            if entry.frames > 1 { #expect(throws: PictureError.self) { try AnimationDecoder(decoder: decoder) } }
            #expect(probe.calls.load(ordering: .relaxed) == 0, "\(entry): memory was asked for")
        }
    }

    @Test("every format is refused when the machine lacks the memory, with both figures",
          arguments: CorpusTests.formats)
    func refusedForMemory(format: String) throws {
        let (folder, entries) = try GeneratedCorpus.generated.get()
        for entry in entries where entry.format == format && entry.format != "svg" {
            let decoder = try ImageDecoder(path: folder.appendingPathComponent(entry.file).path,
                                           limits: DecodeLimits(availableMemory: { 1024 }))
            do {
                _ = try decoder.decode()
                Issue.record("\(entry): decoded with 1 KiB available")
            } catch {
                #expect(error.reason.hasPrefix("image too large for available memory: "), "\(entry): \(error)")
                #expect(error.reason.hasSuffix(", 1.0 KiB available"), "\(entry): \(error)")
            }
        }
    }

    @Test("a 1 MB PNG declaring 16384² RGBA is refused before its pixels are allocated (issue 12)")
    func paddedPNG() throws {
        // A real header, a megabyte of an ancillary chunk, and a few bytes of image data:
        // no deflate stream that short can fill 1 GiB of rows.
        let ihdr = ImageFormat.pngSignature + chunk("IHDR", be32(16_384) + be32(16_384) + [8, 6, 0, 0, 0])
        let padded = ihdr + chunk("zzZz", [UInt8](repeating: 0, count: 1 << 20))
            + chunk("IDAT", zlibStored([UInt8](repeating: 0, count: 64))) + chunk("IEND", [])
        let probe = BadFileTests.MemoryProbe()
        #expect(decodeError(padded, file: "padded.png", limits: probe.limits)?.description == "padded.png: truncated file")
        #expect(probe.calls.load(ordering: .relaxed) == 0)
    }
}

@Suite("Hostile files on disk")
struct HostileFileTests {
    @Test("a PNG header on 1 GiB of holes is read no further than its header, and refused (issue 12)")
    func sparsePNG() throws {
        let folder = try PrivateFolder(prefix: "pictures-sparse")
        let path = folder.appending("sparse.png")
        // The signature and a valid IHDR for 16384² RGBA, then nothing: a sparse gigabyte.
        let header = ImageFormat.pngSignature + chunk("IHDR", be32(16_384) + be32(16_384) + [8, 6, 0, 0, 0])
        #expect(FileManager.default.createFile(atPath: path, contents: Data(header)))
        #expect(truncate(path, 1 << 30) == 0)
        let decoder = try ImageDecoder(path: path)
        // The zero bytes after IHDR are no chunk: only the next chunk's header is read.
        #expect(decoder.data.count == header.count + 8)
        #expect(decoder.data.count < 100)
        let error = #expect(throws: PictureError.self) { try decoder.decode() }
        #expect(error?.reason.hasPrefix("corrupt PNG data: ") == true, "\(String(describing: error))")
    }

    @Test("a PNG whose image data is no zlib stream is refused after one read of it")
    func imageDataNotZlib() throws {
        let folder = try PrivateFolder(prefix: "pictures-zlib")
        let path = folder.appending("zeros.png")
        let png = ImageFormat.pngSignature + chunk("IHDR", be32(4096) + be32(4096) + [8, 2, 0, 0, 0])
            + chunk("IDAT", [UInt8](repeating: 0, count: 1 << 20)) + chunk("IEND", [])
        #expect(FileManager.default.createFile(atPath: path, contents: Data(png)))
        let decoder = try ImageDecoder(path: path)
        #expect(decoder.data.count < 2048)
        #expect((try? decoder.decode()) == nil)
        let error = decodeError(decoder.data)
        #expect(error?.reason == "corrupt PNG data: IDAT: incorrect header check", "\(String(describing: error))")
        // A valid PNG on disk is read whole.
        let good = BadFileTests.validPNG
        let goodPath = folder.appending("good.png")
        #expect(FileManager.default.createFile(atPath: goodPath, contents: Data(good)))
        #expect(try ImageDecoder(path: goodPath).data == good)
    }
}
