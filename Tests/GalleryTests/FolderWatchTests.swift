// Reload on change through a real inotify watch on a temporary folder: pictures copied in appear
// in sort order, removed ones vanish, a rewritten picture reloads, a slow copy is not shown
// until it is finished, a FIFO swapped in is left out, and the watcher sleeps while nothing
// changes.
import Foundation
@testable import Gallery
import Glibc
import SafeOutput
import Testing
import TestSupport

/// A folder of solid-colour pictures shown by a gallery whose folder is watched.
private final class WatchedGallery {
    let folder: TemporaryFolder
    let h: Harness
    let watcher: FolderWatcher
    /// Signalled by each wake the watcher gives the host (its `onNeedsFrameFromAnyThread`).
    let woken = DispatchSemaphore(value: 0)
    let failures = LockedList()
    let problems = LockedList()

    /// `pictures` (name, RGB) written into a new folder, listed as `options` say.
    init(_ pictures: [(String, UInt32)], options: ListingOptions = ListingOptions(), gallery: GalleryScene.Options = .synchronous) throws {
        folder = try TemporaryFolder()
        for (name, rgb) in pictures { try Self.write(folder.path + "/" + name, rgb) }
        let source = ListingSource(paths: [RawPath(folder.path)], options: options)
        let listing = source.list()
        h = Harness(files: listing.files, options: gallery, startingAt: listing.start)
        let problems = self.problems
        watcher = try FolderWatcher(source: source, listing: listing) { problems.append($0) }
        let woken = self.woken
        h.scene.folderChanges = watcher.changes
        h.scene.onNeedsFrameFromAnyThread = { woken.signal() }
        let failures = self.failures
        h.scene.onLoadFailure = { failures.append($0.description) }
        h.run([])
    }

    deinit { watcher.stop() }

    /// A 60×40 picture of one colour, written in one go (open, write, close).
    static func write(_ path: String, _ rgb: UInt32) throws {
        try pngData(width: 60, height: 40) { _, _ in rgb }.write(to: URL(fileURLWithPath: path))
    }

    /// Waits for a wake that brought a folder change (at most `timeout` s; the loader's wakes
    /// are passed over), then lets the scene take the change.
    @discardableResult
    func awaitChange(timeout: Double = 30) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while watcher.changes.isEmpty {
            guard woken.wait(timeout: deadline) == .success else { return false }
        }
        h.window.wake(at: 0)
        h.run([])
        return true
    }

    /// The names of the gallery's files.
    var names: [String] { h.scene.files.map { URL(fileURLWithPath: $0).lastPathComponent } }

    /// Whether the middle of the window shows `rgb`.
    func shows(_ rgb: UInt32) -> Bool {
        h.shows(400, 200, (Int(rgb >> 16), Int(rgb >> 8 & 0xFF), Int(rgb & 0xFF)))
    }
}

/// Strings appended from any thread.
final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}

private let red: UInt32 = 0xFF0000, green: UInt32 = 0x00FF00, blue: UInt32 = 0x0000FF, yellow: UInt32 = 0xFFFF00

@Suite("Folder watch", .timeLimit(.minutes(2)))
struct FolderWatchTests {
    @Test("A picture copied in appears in its sorted place; the page on screen stays")
    func added() throws {
        let w = try WatchedGallery([("1.png", red), ("3.png", blue)])
        w.h.run(Step.key(100, "Right"))
        #expect(w.h.scene.currentIndex == 1 && w.shows(blue))
        try WatchedGallery.write(w.folder.path + "/2.png", green)
        #expect(w.awaitChange())
        #expect(w.names == ["1.png", "2.png", "3.png"])
        #expect(w.h.scene.currentIndex == 2 && w.shows(blue), "\(w.h.rgb(400, 200))")
        w.h.run(Step.key(1000, "Left"))
        #expect(w.h.scene.currentIndex == 1 && w.shows(green), "\(w.h.rgb(400, 200))")
        #expect(w.failures.all.isEmpty && w.problems.all.isEmpty)
    }

    @Test("A removed picture vanishes: the next one takes its place, or the one before at the end")
    func removed() throws {
        let w = try WatchedGallery([("1.png", red), ("2.png", green), ("3.png", blue)])
        w.h.run(Step.key(100, "Right"))
        #expect(unlink(w.folder.path + "/2.png") == 0)
        #expect(w.awaitChange())
        #expect(w.names == ["1.png", "3.png"] && w.h.scene.currentIndex == 1 && w.shows(blue))
        #expect(unlink(w.folder.path + "/3.png") == 0)
        #expect(w.awaitChange())
        #expect(w.names == ["1.png"] && w.h.scene.currentIndex == 0 && w.shows(red))
        #expect(unlink(w.folder.path + "/1.png") == 0)
        #expect(w.awaitChange())
        #expect(w.names.isEmpty && w.h.scene.emptyCard != nil)
        // And back: a kiosk emptied and filled again needs no restart.
        try WatchedGallery.write(w.folder.path + "/4.png", yellow)
        #expect(w.awaitChange())
        #expect(w.names == ["4.png"] && w.h.scene.emptyCard == nil && w.shows(yellow))
    }

    @Test("The picture on screen reloads when its file is rewritten in place or replaced by a rename")
    func rewritten() throws {
        let w = try WatchedGallery([("1.png", red), ("2.png", green)])
        #expect(w.shows(red))
        try WatchedGallery.write(w.folder.path + "/1.png", yellow)
        #expect(w.awaitChange())
        #expect(w.shows(yellow), "\(w.h.rgb(400, 200))")
        try WatchedGallery.write(w.folder.path + "/.1.png.tmp", blue)
        #expect(rename(w.folder.path + "/.1.png.tmp", w.folder.path + "/1.png") == 0)
        #expect(w.awaitChange())
        #expect(w.shows(blue) && w.names == ["1.png", "2.png"], "\(w.h.rgb(400, 200))")
        #expect(w.failures.all.isEmpty)
    }

    @Test("A picture copied slowly is left out until it is closed, never shown broken")
    func slowCopy() throws {
        let w = try WatchedGallery([("1.png", red)])
        let bytes = [UInt8](pngData(width: 60, height: 40) { _, _ in green })
        let fd = open(w.folder.path + "/2.png", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        try Descriptor.writeAll(Array(bytes.prefix(bytes.count / 2)), to: fd)
        // Well past the settle and the longest wait: the half file is listed out.
        Thread.sleep(forTimeInterval: (ChangeDebouncer.longest + 500) / 1000)
        w.h.window.wake(at: 0)
        w.h.run([])
        #expect(w.names == ["1.png"])
        try Descriptor.writeAll(Array(bytes.dropFirst(bytes.count / 2)), to: fd)
        #expect(w.names == ["1.png"])
        close(fd)
        #expect(w.awaitChange())
        #expect(w.names == ["1.png", "2.png"])
        w.h.run(Step.key(5000, "Right"))
        #expect(w.shows(green) && w.failures.all.isEmpty, "\(w.h.rgb(400, 200)) \(w.failures.all)")
    }

    @Test("A file a page failed on is tried again once it is rewritten")
    func failedThenFixed() throws {
        let w = try WatchedGallery([("1.png", red)])
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: w.folder.path + "/2.png"))
        #expect(w.awaitChange())
        w.h.run(Step.key(100, "Right"))
        #expect(w.h.scene.currentPage?.loadState == .failed && w.failures.all == ["2.png: truncated file"])
        try WatchedGallery.write(w.folder.path + "/2.png", green)
        #expect(w.awaitChange())
        #expect(w.h.scene.currentPage?.loadState == .loaded && w.shows(green))
    }

    @Test("A watched picture replaced by a FIFO is left out, and nothing waits on it")
    func replacedByFIFO() throws {
        let w = try WatchedGallery([("1.png", red), ("2.png", green), ("3.png", blue)])
        w.h.run(Step.key(100, "Right"))
        #expect(mkfifo(w.folder.path + "/.fifo", 0o600) == 0)
        #expect(rename(w.folder.path + "/.fifo", w.folder.path + "/2.png") == 0)
        #expect(w.awaitChange())
        #expect(w.names == ["1.png", "3.png"] && w.shows(blue))
        #expect(w.failures.all.isEmpty)
    }

    @Test("With -r a folder made inside, and the pictures copied into it, are watched and shown")
    func newSubfolder() throws {
        let w = try WatchedGallery([("1.png", red)], options: ListingOptions(recursive: true))
        #expect(mkdir(w.folder.path + "/sub", 0o700) == 0)
        try WatchedGallery.write(w.folder.path + "/sub/2.png", green)
        #expect(w.awaitChange())
        // The copy into the new folder may be seen by the relisting of the mkdir or by the new watch.
        if w.names != ["1.png", "2.png"] { w.awaitChange() }
        #expect(w.h.scene.files == [w.folder.path + "/1.png", w.folder.path + "/sub/2.png"])
        try WatchedGallery.write(w.folder.path + "/sub/3.png", blue)
        #expect(w.awaitChange())
        #expect(w.names == ["1.png", "2.png", "3.png"])
    }

    @Test("While nothing changes the watcher's thread does not wake")
    func idle() throws {
        let w = try WatchedGallery([("1.png", red)])
        try WatchedGallery.write(w.folder.path + "/2.png", green)
        #expect(w.awaitChange())
        let tid = try #require(w.watcher.threadID)
        // Past the settle: from now on nothing is pending.
        Thread.sleep(forTimeInterval: 0.5)
        func switches() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/task/\(tid)/status", encoding: .utf8)
            return status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
                .compactMap { $0.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
                .reduce(0, +)
        }
        let before = try switches()
        Thread.sleep(forTimeInterval: 2)
        #expect(try switches() == before)
    }
}
