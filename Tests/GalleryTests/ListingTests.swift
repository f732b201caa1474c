// Making the page list: folders in natural order with non-images skipped, files as given,
// the bundled assets found from the executable.
import Foundation
@testable import Gallery
import Glibc
import SafeOutput
import Testing

@Suite("Image listing")
struct ListingTests {
    @Test("Folders list images in natural order; other files, hidden files and subfolders are skipped")
    func folderOrder() throws {
        let folder = try TemporaryFolder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]
        for name in ["img10.png", "img2.png", "IMG1.JPG", "img2b.jpeg", "img002.png", "empty.jpg"] {
            try folder.write(name, name == "empty.jpg" ? [] : png)
        }
        try folder.write("notes.txt", Array("hello".utf8))
        try folder.write("sig-without-extension", png)
        try folder.write(".hidden.png", png)
        try FileManager.default.createDirectory(atPath: folder.path + "/sub.png", withIntermediateDirectories: true)
        let listing = ImageListing.list([folder.path])
        let names = listing.files.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names == ["empty.jpg", "IMG1.JPG", "img002.png", "img2.png", "img2b.jpeg", "img10.png", "sig-without-extension"])
        #expect(listing.problems.isEmpty)
    }

    @Test("Folders list every format Pictures decodes, by extension or by signature")
    func everyFormat() throws {
        let folder = try TemporaryFolder()
        for name in ["a.webp", "b.GIF", "c.tiff", "d.heic", "e.avif", "f.jxl", "g.svg", "h.bmp", "i.tif"] {
            try folder.write(name, [0])
        }
        // No extension: the bytes decide (RIFF…WEBP, GIF89a, an SVG root, an ftyp box).
        try folder.write("riff", Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8))
        try folder.write("gif", Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8))
        try folder.write("drawing", Array("<?xml version=\"1.0\"?>\n<svg width=\"1\" height=\"1\"/>".utf8))
        try folder.write("phone", [0, 0, 0, 0x18] + Array("ftypheic\u{0}\u{0}\u{0}\u{0}mif1heic".utf8))
        try folder.write("notes", Array("<html><svg></svg></html>".utf8))
        let names = ImageListing.list([folder.path]).files.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names == ["a.webp", "b.GIF", "c.tiff", "d.heic", "drawing", "e.avif", "f.jxl", "g.svg", "gif", "h.bmp",
                          "i.tif", "phone", "riff"])
    }

    @Test("Files are kept as given, in order, even when they are not images or do not exist")
    func filesAsGiven() throws {
        let folder = try TemporaryFolder()
        let text = try folder.write("b.txt", Array("x".utf8))
        let listing = ImageListing.list([text, folder.path + "/nope.png", Assets.sunset])
        #expect(listing.files == [text, folder.path + "/nope.png", Assets.sunset])
    }

    @Test("Files and folders mix in the order given")
    func mixed() throws {
        let listing = ImageListing.list([Assets.mosaic, Assets.folder + "/"])
        let names = listing.files.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names == ["03-mosaic-palette.png", "01-sunset.png", "02-bubbles-alpha.png", "03-mosaic-palette.png",
                          "04-city-4000x3000.jpg", "05-arrow-exif6.jpg"])
    }

    @Test("Natural order", arguments: [
        ("a2", "a10", true), ("a10", "a2", false), ("a", "a1", true), ("img007", "img7", true), ("img7", "img007", false),
        ("B", "a", false), ("a", "B", true), ("x9y", "x10a", true), ("2020-1-5", "2020-01-10", true),
        ("z", "z", false), ("99999999999999999999999", "100000000000000000000000", true),
    ])
    func natural(a: String, b: String, before: Bool) {
        #expect(NaturalOrder.precedes(a, b) == before)
        // The bytes a folder's listing sorts by agree for these printable ASCII names.
        let (x, y) = (NaturalOrder.collation(of: [Array(a.utf8)])!, NaturalOrder.collation(of: [Array(b.utf8)])!)
        #expect(x.lexicographicallyPrecedes(y) == before)
    }

    @Test("Collation bytes order printable ASCII names and paths exactly as their natural-order keys do")
    func collationAgreesWithKeys() {
        // Names built from the pieces natural order cares about: digit runs with and without
        // leading zeros, case, a prefix of another name, punctuation below and above letters.
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", "A", "b", "ab", "0", "00", "7", "007", "10", "9", "99999999999999999999", "-", "_", ".", " ", "~", "Z", "z"]
        func name() -> [UInt8] {
            Array((0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined().utf8)
        }
        func path() -> [[UInt8]] { (0..<Int.random(in: 1...3, using: &random)).map { _ in name() } }
        for _ in 0..<20_000 {
            let (p, q) = (path(), path())
            let keys = (p.map { NaturalOrder.Key(String(decoding: $0, as: UTF8.self)) },
                        q.map { NaturalOrder.Key(String(decoding: $0, as: UTF8.self)) })
            let bytes = (NaturalOrder.collation(of: p)!, NaturalOrder.collation(of: q)!)
            #expect(bytes.0.lexicographicallyPrecedes(bytes.1) == keys.0.lexicographicallyPrecedes(keys.1),
                    "\(p.map { String(decoding: $0, as: UTF8.self) }) vs \(q.map { String(decoding: $0, as: UTF8.self) })")
        }
        // Names that are not printable ASCII have none: their keys decide.
        #expect(NaturalOrder.collation(of: [Array("café".utf8)]) == nil)
        #expect(NaturalOrder.collation(of: [[0x61, 0x0A]]) == nil)
    }

    @Test("A folder mixing ASCII and other names, and one of ASCII names alone, list in the same natural order")
    func mixedNames() throws {
        let folder = try TemporaryFolder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]
        for name in ["b10.png", "b9.png", "Äpfel.png", "a.png", "é2.png", "é10.png"] { try folder.write(name, png) }
        let names = ImageListing.list([folder.path]).files.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names == ["a.png", "b9.png", "b10.png", "Äpfel.png", "é2.png", "é10.png"])
    }

    @Test("The bundled assets are found beside Package.swift above the executable, or by the environment")
    func bundledAssets() throws {
        let root = URL(fileURLWithPath: Assets.folder).deletingLastPathComponent().path
        let found = BundledAssets.folder(executablePath: root + "/.build/debug/image-viewer", environment: [:])
        #expect(found.map { URL(fileURLWithPath: $0).standardized.path } == Assets.folder)
        let folder = try TemporaryFolder()
        #expect(BundledAssets.folder(executablePath: "/nonexistent/bin/x", environment: ["SCROLLKIT_ASSETS": folder.path]) == folder.path)
        #expect(BundledAssets.folder(executablePath: "/nonexistent/bin/x", environment: ["SCROLLKIT_ASSETS": "/nonexistent"]) == nil)
        // Installed: <prefix>/bin/image-viewer and <prefix>/share/scrollkit/Assets.
        try FileManager.default.createDirectory(atPath: folder.path + "/share/scrollkit/Assets", withIntermediateDirectories: true)
        #expect(BundledAssets.folder(executablePath: folder.path + "/bin/image-viewer", environment: [:])
                == folder.path + "/share/scrollkit/Assets")
    }
}

@Suite("Listing special files and raw names", .timeLimit(.minutes(1)))
struct ListingSpecialFileTests {
    @Test("FIFOs and devices are never opened: left out of folders, and named ones reported and left out")
    func fifosAndDevices() throws {
        let folder = try TemporaryFolder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]
        try folder.write("a.png", png)
        try folder.write("c.png", png)
        // Without an extension a file is sniffed, and opening a FIFO to read waits for a writer
        // forever; with one it would be listed and its load would block the loader.
        #expect(mkfifo(folder.path + "/notes", 0o600) == 0)
        #expect(mkfifo(folder.path + "/b.jpg", 0o600) == 0)
        #expect(symlink("/dev/zero", folder.path + "/zero.png") == 0)
        let listing = ImageListing.list([folder.path, folder.path + "/b.jpg", "/dev/null"])
        #expect(listing.files == [folder.path + "/a.png", folder.path + "/c.png"])
        #expect(listing.problems == ["\(folder.path)/b.jpg: not a regular file (a FIFO, device or socket), left out",
                                     "/dev/null: not a regular file (a FIFO, device or socket), left out"])
    }

    @Test("Names that are not UTF-8 are listed with their bytes, and shown escaped")
    func rawNames() throws {
        let folder = try TemporaryFolder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        let raw = RawPath(folder.path).appending(latin1)
        let fd = raw.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        #expect(fd >= 0)
        #expect(write(fd, png, png.count) == png.count)
        close(fd)
        let listing = ImageListing.list([folder.path])
        #expect(listing.entries == [raw])
        #expect(listing.files == [folder.path + "/caf\\xE9.png"])
        #expect(raw.head(8) == Array(png.prefix(8)), "the bytes open the file")
    }

    @Test("The bundled assets are looked for only in the package that built the viewer, never in a folder planted above it")
    func plantedPackage() throws {
        let folder = try TemporaryFolder()
        try folder.write("Package.swift", Array("// planted".utf8))
        try FileManager.default.createDirectory(atPath: folder.path + "/Assets", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/shared/bin", withIntermediateDirectories: true)
        #expect(BundledAssets.folder(executablePath: folder.path + "/shared/bin/image-viewer", environment: [:]) == nil)
    }
}
