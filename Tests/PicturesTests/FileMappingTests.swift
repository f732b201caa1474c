// A mapped picture file reads as the file, and a file that shrinks under its mapping reads as
// zeros past its new end and says so, where an unguarded mapping would stop the process (SIGBUS).
import Foundation
import SafeOutput
import Testing
@testable import Pictures

// Serialized: one test takes every slot, which the others need.
@Suite("File mappings", .serialized)
struct FileMappingTests {
    /// Bytes no page of which is all zeros: a zero read back can only be a made-up page.
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(1 + $0 % 251) } }

    @Test("a mapping reads the file's bytes; shrunk under it, the lost pages read as zeros and it reports damage")
    func shrinking() throws {
        let folder = try PrivateFolder(prefix: "mapping")
        let path = folder.path + "/f.bin"
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = Self.pattern(6 * page + 100)
        try #require(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let file = try PictureFile.open(path: path)
        let mapping = try #require(FileMapping(fd: file.fd, count: file.size))
        #expect(mapping.count == bytes.count)
        #expect(mapping.withSpan { span in (0..<span.count).allSatisfy { span[$0] == bytes[$0] } })
        #expect(!mapping.isDamaged)
        // Another process truncating the file: pages 0–1 stay, 2–6 are gone.
        #expect(truncate(path, off_t(2 * page)) == 0)
        let (kept, lost) = mapping.withSpan { span in
            ((0..<(2 * page)).allSatisfy { span[$0] == bytes[$0] }, (2 * page..<span.count).allSatisfy { span[$0] == 0 })
        }
        #expect(kept, "the pages still in the file read as before")
        #expect(lost, "the pages past its new end read as zeros")
        #expect(mapping.isDamaged)
        // A second mapping of the same file starts undamaged, and its own slot is checked.
        let again = try #require(FileMapping(fd: file.fd, count: 2 * page))
        #expect(!again.isDamaged && again.withSpan { $0[page] } == bytes[page])
    }

    @Test("every slot in use: a further mapping is refused (the caller reads instead), and slots free on release")
    func slotsRunOut() throws {
        let folder = try PrivateFolder(prefix: "mapping")
        let path = folder.path + "/f.bin"
        try #require(FileManager.default.createFile(atPath: path, contents: Data(Self.pattern(4096))))
        let file = try PictureFile.open(path: path)
        var held: [FileMapping] = []
        while let mapping = FileMapping(fd: file.fd, count: 4096) {
            held.append(mapping)
            try #require(held.count <= 64, "mappings never run out")
        }
        // Other tests may hold a few at once; this one took the rest.
        #expect(held.count >= 1 && held.count <= 16)
        held.removeAll()
        #expect(FileMapping(fd: file.fd, count: 4096) != nil)
        #expect(FileMapping(fd: file.fd, count: 0) == nil)
    }

    @Test("a JPEG that shrinks after it was opened shows its truncation, decoded with libjpeg-turbo, and no crash")
    func shrunkJPEG() throws {
        // 1600×1200 in 4:2:0, its 1/8 decode (a 200×150 screen) read whole from a mapping.
        let data = try JPEGPreviewDecoderTests.jpeg(JPEGPreviewDecoderTests.photo(width: 1600, height: 1200), 1600, 1200)
        let limits = DecodeLimits(memoryBudget: 64 << 20, screenWidth: 200, screenHeight: 150)
        let folder = try PrivateFolder(prefix: "mapping")
        let path = folder.path + "/s.jpg"
        try #require(FileManager.default.createFile(atPath: path, contents: Data(data)))
        let file = try PictureFile.open(path: path)
        let streaming = try #require(ImageDecoder.streaming(file, limits: limits, above: 0))
        #expect(truncate(path, off_t(data.count / 2)) == 0)
        #expect(throws: PictureError(file: "s.jpg", kind: .truncated)) { try streaming.decode(detail: .screen) }
    }
}
