// The information panel's file details: EXIF fields read by libexif from JPEGs and PNGs made
// here with known fields, the ICC profile's name by LittleCMS, the file's size and date, and
// hostile files (mutants, FIFOs, folders) answered with what can be said, never a hang or a trap.
import CLCMS
import Foundation
import SafeOutput
import Testing
import TestSupport
@testable import Pictures

/// A 16×16 grey JPEG from the project's encoder.
func plainJPEG() throws -> [UInt8] {
    try JPEGEncoder.encode(argb: [UInt32](repeating: 0xFF80_8080, count: 256), width: 16, height: 16)
}

/// An RGB ICC profile (sRGB's primaries and curve) whose description is `name`, made by LittleCMS.
func iccProfile(named name: String) throws -> [UInt8] {
    let profile = try #require(cmsCreate_sRGBProfile())
    defer { cmsCloseProfile(profile) }
    let text = try #require(cmsMLUalloc(nil, 1))
    defer { cmsMLUfree(text) }
    cmsMLUsetASCII(text, "en", "US", name)
    cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(text))
    var size: UInt32 = 0
    cmsSaveProfileToMem(profile, nil, &size)
    var bytes = [UInt8](repeating: 0, count: Int(size))
    cmsSaveProfileToMem(profile, &bytes, &size)
    return bytes
}

@Suite("Picture details")
struct PictureDetailsTests {
    @Test("libexif reads a camera's fields from a JPEG's APP1, in either byte order", arguments: [true, false])
    func cameraFields(bigEndian: Bool) throws {
        let jpeg = ExifBuilder.inserting([ExifBuilder.cameraPhoto(bigEndian: bigEndian).app1()], into: try plainJPEG())
        var details = PictureDetails()
        details.describe(jpeg)
        let exif = try #require(details.exif)
        #expect(exif.make == "Canon" && exif.model == "Canon EOS 5D Mark IV")
        #expect(exif.lensMake == "Canon" && exif.lensModel == "EF50mm f/1.8 STM")
        #expect(exif.dateTaken == "2023-07-14 18:32:05" && exif.dateTakenOffset == "+02:00")
        #expect(exif.exposureTime == 1.0 / 250 && exif.fNumber == 2.8 && exif.iso == 200)
        #expect(exif.focalLength == 50 && exif.focalLength35mm == 75)
        // 48° 51′ 29.6″ N, 2° 17′ 40.2″ E, 35 m above the sea.
        let latitude: Double = 48 + 51.0 / 60 + 29.6 / 3600, longitude: Double = 2 + 17.0 / 60 + 40.2 / 3600
        #expect(abs(try #require(exif.latitude) - latitude) < 1e-9)
        #expect(abs(try #require(exif.longitude) - longitude) < 1e-9)
        #expect(exif.altitude == 35)
        #expect(exif.colorSpace == 0xFFFF && exif.interoperabilityIndex == "R03")
        // No ICC profile: the interoperability index names the space.
        #expect(details.colorProfile == "Adobe RGB")
        // The same file is still a picture the decoder shows.
        #expect(try ImageDecoder(data: jpeg, file: "camera.jpg").readHeader().width == 16)
    }

    @Test("South and west are negative, below the sea is negative, 0° 0′ is no fix")
    func gpsSigns() throws {
        var b = ExifBuilder()
        b.gps = [(0x0001, .ascii("S")), (0x0002, .rational([(33, 1), (52, 1), (0, 1)])), (0x0003, .ascii("W")),
                 (0x0004, .rational([(70, 1), (30, 1), (0, 1)])), (0x0005, .byte([1])), (0x0006, .rational([(12, 1)]))]
        let exif = try #require(ExifFields.read(tiff: b.tiff()))
        #expect(exif.latitude == -(33 + 52.0 / 60) && exif.longitude == -70.5 && exif.altitude == -12)
        var none = ExifBuilder()
        none.gps = [(0x0001, .ascii("N")), (0x0002, .rational([(0, 1), (0, 1), (0, 1)])), (0x0003, .ascii("E")),
                    (0x0004, .rational([(0, 1), (0, 1), (0, 1)]))]
        let noFix = try #require(ExifFields.read(tiff: none.tiff()))
        #expect(noFix.latitude == nil && noFix.longitude == nil)
    }

    @Test("Only what the file says: no made-up ColorSpace, zero denominators and empty strings are nothing")
    func onlyWhatTheFileSays() throws {
        var b = ExifBuilder()
        b.ifd0 = [(0x010F, .ascii("   ")), (0x0110, .ascii("Model X"))]
        b.exif = [(0x829A, .rational([(1, 0)])), (0x829D, .rational([(0, 10)]))]
        let exif = try #require(ExifFields.read(tiff: b.tiff()))
        #expect(exif.make == nil && exif.model == "Model X")
        #expect(exif.exposureTime == nil && exif.fNumber == nil)
        // libexif's "follow the specification" would add ColorSpace = sRGB and more.
        #expect(exif.colorSpace == nil && exif.iso == nil && exif.dateTaken == nil)
        var details = PictureDetails()
        details.describe(ExifBuilder.inserting([b.app1()], into: try plainJPEG()))
        #expect(details.colorProfile == nil)
        details = PictureDetails()
        details.describe(try plainJPEG())
        #expect(details.exif == nil && details.colorProfile == nil)
    }

    @Test("An embedded ICC profile is named by its description, across several APP2 segments too; a cut one is not", arguments: [65_519, 200])
    func iccProfileName(pieceBytes: Int) throws {
        let profile = try iccProfile(named: "Test Wide Gamut RGB")
        #expect(profile.count > 400)
        let jpeg = ExifBuilder.inserting([ExifBuilder.cameraPhoto().app1()] + ExifBuilder.iccSegments(profile, pieceBytes: pieceBytes),
                                         into: try plainJPEG())
        var details = PictureDetails()
        details.describe(jpeg)
        #expect(details.colorProfile == "Test Wide Gamut RGB")
        // A piece missing: the decoder uses no profile, and none is named.
        let pieces = ExifBuilder.iccSegments(profile, pieceBytes: 200)
        var cut = PictureDetails()
        cut.describe(ExifBuilder.inserting(Array(pieces.dropLast()), into: try plainJPEG()))
        #expect(cut.colorProfile == nil)
    }

    @Test("PNG: EXIF from eXIf, the profile from iCCP's name or sRGB")
    func pngChunks() throws {
        let png = PNGWriter(width: 2, height: 2, colorType: 2).encode { _, _ in [10, 20, 30] }
        let ihdrEnd = 8 + 25
        func with(_ chunks: [[UInt8]]) -> [UInt8] { Array(png[..<ihdrEnd]) + chunks.flatMap { $0 } + Array(png[ihdrEnd...]) }
        var details = PictureDetails()
        details.describe(with([chunk("eXIf", ExifBuilder.cameraPhoto(bigEndian: false).tiff()), chunk("sRGB", [0])]))
        #expect(details.exif?.model == "Canon EOS 5D Mark IV" && details.exif?.iso == 200)
        #expect(details.colorProfile == "sRGB")
        details = PictureDetails()
        details.describe(with([chunk("iCCP", Array("Display P3".utf8) + [0, 0] + zlibStored([1, 2, 3]))]))
        #expect(details.colorProfile == "Display P3" && details.exif == nil)
    }

    @Test("A file's size and date come from the file; a FIFO, a folder and a missing file are named as problems")
    func filesAndHostileOnes() throws {
        let folder = try PrivateFolder(prefix: "picture-details")
        let jpeg = ExifBuilder.inserting([ExifBuilder.cameraPhoto().app1()], into: try plainJPEG())
        let path = folder.path + "/photo.jpg"
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: path)
        let details = PictureDetails.read(path: path)
        #expect(details.fileSize == jpeg.count && details.problem == nil)
        #expect(abs(try #require(details.modified).timeIntervalSince(when)) < 0.001)
        #expect(details.exif?.model == "Canon EOS 5D Mark IV")
        // A FIFO must not block the read (nobody writes to it).
        let fifo = folder.path + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(PictureDetails.read(path: fifo).problem == "not a regular file")
        #expect(PictureDetails.read(path: folder.path).problem == "not a regular file")
        #expect(PictureDetails.read(path: folder.path + "/missing.jpg").problem == "No such file or directory")
        // A file larger than the head: only the head is read, its EXIF found there.
        let big = folder.path + "/big.jpg"
        try Data(jpeg + [UInt8](repeating: 0, count: PictureDetails.headBytes)).write(to: URL(fileURLWithPath: big))
        #expect(PictureDetails.read(path: big).exif?.iso == 200)
    }

    @Test("Mutated EXIF blocks give fields or nothing: finite numbers, bounded strings, no trap")
    func fuzzExif() throws {
        let seeds = [ExifBuilder.cameraPhoto().app1(), ExifBuilder.cameraPhoto(bigEndian: false).app1()]
        let jpeg = try plainJPEG()
        var rng = SplitMix64(state: 0x15_0E1F)
        let deadline = Date().addingTimeInterval(FuzzTests.seconds)
        var runs = 0
        while Date() < deadline {
            let mutant = Mutator.mutate(seeds[runs % 2], others: seeds, rng: &rng)
            var details = PictureDetails()
            details.describe(ExifBuilder.inserting([mutant], into: jpeg))
            if let exif = details.exif {
                for s in [exif.make, exif.model, exif.lensMake, exif.lensModel, exif.dateTaken, exif.interoperabilityIndex] {
                    #expect((s?.count ?? 0) <= ExifFields.maximumStringLength)
                }
                for v in [exif.exposureTime, exif.fNumber, exif.focalLength, exif.latitude, exif.longitude, exif.altitude] {
                    #expect(v?.isFinite ?? true)
                }
                #expect(abs(exif.latitude ?? 0) <= 90 && abs(exif.longitude ?? 0) <= 180)
            }
            runs += 1
        }
        #expect(runs > 100)
    }
}
