// Folders as people use them: one file opens among its folder's pictures on its own page,
// sorting by name, time and size (reversed too), recursion that ends on link loops and deep
// trees, large folders, and names that are not text.
import Foundation
@testable import Gallery
import Glibc
import SafeOutput
import Testing
import TestSupport

/// Eight bytes that make a file an image to the listing (the PNG signature).
private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// The last path component of each entry, escaped.
private func names(_ listing: ImageListing) -> [String] {
    listing.entries.map { TerminalText.escaped(bytes: $0.lastComponent) }
}

/// Sets the modification time of `path` to `seconds` after 1970.
private func setModified(_ path: String, _ seconds: Int) throws {
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(seconds))], ofItemAtPath: path)
}

@Suite("Folder listing", .timeLimit(.minutes(2)))
struct FolderListingTests {
    @Test("One file named alone opens among its folder's pictures, on its own page; several files are shown as given")
    func singleFileOpensItsFolder() throws {
        let folder = try TemporaryFolder()
        for name in ["b10.png", "b2.png", "a.png"] { try folder.write(name, pngSignature) }
        try folder.write("notes.txt", Array("not a picture".utf8))
        let listing = ImageListing.list([folder.path + "/b2.png"])
        #expect(names(listing) == ["a.png", "b2.png", "b10.png"])
        #expect(listing.start == 1)
        #expect(listing.entries[1] == RawPath(folder.path + "/b2.png"))
        #expect(listing.watchedFolders == [RawPath(folder.path)])
        // Named alone, a file the folder listing would leave out (hidden, not named as an image) is in it.
        try folder.write(".hidden.dat", pngSignature)
        let hidden = ImageListing.list([folder.path + "/.hidden.dat"])
        #expect(names(hidden) == [".hidden.dat", "a.png", "b2.png", "b10.png"] && hidden.start == 0)
        // Two files: just those, from the first.
        let two = ImageListing.list([folder.path + "/b10.png", folder.path + "/a.png"])
        #expect(names(two) == ["b10.png", "a.png"] && two.start == 0)
        // Read from standard input, one file is just that file.
        let listed = ListingSource(paths: [RawPath(folder.path + "/b10.png")], opensFolderOfSingleFile: false).list()
        #expect(names(listed) == ["b10.png"])
    }

    @Test("The gallery opens on the named file's page, and pages back through the rest of its folder")
    func galleryOpensOnNamedFile() throws {
        let folder = try TemporaryFolder()
        let colours: [(String, UInt32)] = [("1.png", 0xFF0000), ("2.png", 0x00FF00), ("3.png", 0x0000FF)]
        for (name, rgb) in colours { try pngData(width: 40, height: 20) { _, _ in rgb }.write(to: URL(fileURLWithPath: folder.path + "/" + name)) }
        let listing = ImageListing.list([folder.path + "/2.png"])
        let h = Harness(files: listing.files, startingAt: listing.start)
        h.run([])
        #expect(h.scene.currentIndex == 1 && h.scene.pager.contentOffset.x == 820)
        #expect(h.shows(400, 200, (0, 255, 0)), "\(h.rgb(400, 200))")
        h.run(Step.key(100, "Left"))
        #expect(h.scene.currentIndex == 0 && h.shows(400, 200, (255, 0, 0)), "\(h.rgb(400, 200))")
    }

    @Test("The start page stays when the window is resized: a compositor's first size, then the one it settles on")
    func startPageSurvivesResize() throws {
        let folder = try TemporaryFolder()
        for name in ["1.png", "2.png", "3.png", "4.png", "5.png"] {
            try pngData(width: 40, height: 20) { _, _ in 0x808080 }.write(to: URL(fileURLWithPath: folder.path + "/" + name))
        }
        let listing = ImageListing.list([folder.path + "/4.png"])
        let h = Harness(files: listing.files, startingAt: listing.start)
        h.run([])
        #expect(h.scene.currentIndex == 3)
        // Wider: the old offset (3 × 820) is page 1 of a 1940-point stride, where the viewer
        // went before (bench-fling zoomed the second picture instead of the city it named).
        h.scene.resize(width: 1920, height: 1080, scale: 1)
        #expect(h.scene.currentIndex == 3 && h.scene.pager.contentOffset.x == 3 * 1940)
        h.scene.resize(width: 640, height: 480, scale: 2)
        #expect(h.scene.currentIndex == 3 && h.scene.pager.contentOffset.x == 3 * 660)
    }

    @Test("--sort name, mtime and size, each reversed; ties in time or size go by name")
    func sortOrders() throws {
        let folder = try TemporaryFolder()
        // name: a1 < a2 < a10; mtime: a10 oldest, then a2 and a1 together; size: a2, a1 and a10 (largest).
        try folder.write("a1.png", pngSignature + [0, 0])
        try folder.write("a2.png", pngSignature)
        try folder.write("a10.png", pngSignature + [0, 0, 0, 0])
        try setModified(folder.path + "/a10.png", 1_000)
        try setModified(folder.path + "/a2.png", 2_000)
        try setModified(folder.path + "/a1.png", 2_000)
        func sorted(_ order: ListingOptions.Order, reversed: Bool = false) -> [String] {
            names(ImageListing.list(raw: [RawPath(folder.path)], options: ListingOptions(order: order, reversed: reversed)))
        }
        #expect(sorted(.name) == ["a1.png", "a2.png", "a10.png"])
        #expect(sorted(.name, reversed: true) == ["a10.png", "a2.png", "a1.png"])
        #expect(sorted(.mtime) == ["a10.png", "a1.png", "a2.png"])
        #expect(sorted(.mtime, reversed: true) == ["a2.png", "a1.png", "a10.png"])
        #expect(sorted(.size) == ["a2.png", "a1.png", "a10.png"])
        #expect(sorted(.size, reversed: true) == ["a10.png", "a1.png", "a2.png"])
    }

    @Test("-r lists subfolders (not hidden ones) in natural order of their paths; without it they are skipped")
    func recursive() throws {
        let folder = try TemporaryFolder()
        for sub in ["sub2", "sub10", "sub2/deeper", ".hidden"] {
            try FileManager.default.createDirectory(atPath: folder.path + "/" + sub, withIntermediateDirectories: true)
        }
        for file in ["z.png", "sub2/b.png", "sub10/a.png", "sub2/deeper/c.png", ".hidden/h.png"] {
            try folder.write(file, pngSignature)
        }
        let flat = ImageListing.list(raw: [RawPath(folder.path)])
        #expect(flat.files == [folder.path + "/z.png"])
        let deep = ImageListing.list(raw: [RawPath(folder.path)], options: ListingOptions(recursive: true))
        #expect(deep.files == ["/sub2/b.png", "/sub2/deeper/c.png", "/sub10/a.png", "/z.png"].map { folder.path + $0 })
        #expect(Set(deep.watchedFolders) == Set(["", "/sub2", "/sub10", "/sub2/deeper"].map { RawPath(folder.path + $0) }))
        #expect(deep.problems.isEmpty)
    }

    @Test("A symbolic link loop ends: each folder is listed once, the link that leads back is reported, escaped")
    func linkLoop() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/a/b", withIntermediateDirectories: true)
        try folder.write("a/b/p.png", pngSignature)
        // b/up → a (a loop through two levels), and a name with an escape sequence in it → the top.
        #expect(symlink(folder.path + "/a", folder.path + "/a/b/up") == 0)
        #expect(symlink(folder.path, folder.path + "/a/b/\u{1B}[31mred") == 0)
        let listing = ImageListing.list(raw: [RawPath(folder.path)], options: ListingOptions(recursive: true))
        #expect(listing.files == [folder.path + "/a/b/p.png"])
        #expect(listing.problems.sorted() == [
            "\(folder.path)/a/b/\\x1B[31mred: a folder listed already (a link loop), skipped",
            "\(folder.path)/a/b/up: a folder listed already (a link loop), skipped",
        ])
    }

    @Test("A tree 300 folders deep is listed to its bottom without recursion")
    func deepTree() throws {
        let folder = try TemporaryFolder()
        var path = folder.path
        for level in 0..<300 {
            path += "/d"
            #expect(mkdir(path, 0o700) == 0, "level \(level)")
        }
        try Data(pngSignature).write(to: URL(fileURLWithPath: path + "/bottom.png"))
        let listing = ImageListing.list(raw: [RawPath(folder.path)], options: ListingOptions(recursive: true))
        #expect(listing.files == [path + "/bottom.png"] && listing.watchedFolders.count == 301)
    }

    @Test("A folder of 10 000 pictures lists in natural order; a listing stops at its limit with a problem line")
    func largeFolder() throws {
        let folder = try TemporaryFolder()
        for i in 0..<10_000 {
            let fd = open(folder.path + "/img\(i).png", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            #expect(fd >= 0)
            close(fd)
        }
        let listing = ImageListing.list([folder.path])
        #expect(listing.entries.count == 10_000)
        #expect(listing.entries.first?.lastComponent == Array("img0.png".utf8))
        #expect(listing.entries.last?.lastComponent == Array("img9999.png".utf8))
        #expect(names(listing) == (0..<10_000).map { "img\($0).png" })
        var limited = FolderWalk(root: RawPath(folder.path), options: ListingOptions())
        limited.limit = 100
        var capped = ImageListing(entries: [])
        limited.list(into: &capped)
        #expect(capped.entries.count == 100)
        #expect(capped.problems == ["\(folder.path): more than 100 pictures; the first 100 found are shown"])
    }

    @Test("A non-UTF-8 file named alone opens among its folder's pictures, named by its bytes")
    func rawNameAlone() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.png", pngSignature)
        let latin1 = RawPath(folder.path).appending(Array("caf".utf8) + [0xE9] + Array(".png".utf8))
        let fd = latin1.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        #expect(fd >= 0)
        close(fd)
        let listing = ImageListing.list(raw: [latin1])
        #expect(listing.entries == [RawPath(folder.path + "/a.png"), latin1] && listing.start == 1)
        #expect(names(listing) == ["a.png", "caf\\xE9.png"])
        // The loader gets a UTF-8 path that opens the same file, the same one each time.
        let alias = PathAliases.shared.path(for: latin1)
        #expect(alias.hasSuffix("/caf\\xE9.png") && alias == PathAliases.shared.path(for: latin1))
        #expect(FileManager.default.fileExists(atPath: alias))
    }
}
