// Keeping the gallery's listing current: a thread sleeps on inotify until a watched folder
// changes, lists the paths again once the change has settled, and posts the new list to the
// scene, waking the frame loop. A kiosk updated by copying files into its folder never needs a
// restart.
import Foundation
import Glibc
import SafeOutput
import Synchronization
import SystemPackage

/// A change of the listing, for the scene (see `GalleryScene.folderChanges`).
public struct FolderChange: Sendable, Equatable {
    /// The files to show now, in order, as the loader opens them.
    public var files: [String]
    /// Files shown before whose contents were rewritten since: their pages reload.
    public var rewritten: Set<String>

    /// A change to `files`, `rewritten` reloading.
    public init(files: [String], rewritten: Set<String> = []) {
        self.files = files
        self.rewritten = rewritten
    }
}

/// Watches the folders of a listing and posts a `FolderChange` whenever they change.
///
/// Its thread blocks in `poll` on the inotify descriptor with no timeout while nothing is
/// pending, so an idle gallery costs no wakeup; while changes settle it waits with the
/// `ChangeDebouncer`'s deadline. Files still being copied are left out until closed (see
/// `ChangeDebouncer`). Folders that appear are watched from the listing after them, those
/// that go are forgotten.
public final class FolderWatcher: Sendable {
    /// Where changes are posted; the scene takes them on its thread.
    public let changes = Mailbox<FolderChange>()
    private let inotify: Inotify
    private let finished = DispatchSemaphore(value: 0)
    private let thread = ThreadIdentity()

    /// The kernel's id of a thread, set by the thread itself.
    private final class ThreadIdentity: Sendable {
        let id = Atomic<Int32>(0)
    }

    /// The kernel's id of the watcher's thread, once it runs (tests count its wakeups).
    var threadID: Int32? {
        let id = thread.id.load(ordering: .acquiring)
        return id == 0 ? nil : id
    }

    /// Starts watching `listing.watchedFolders` for `source` (whose last listing, `listing`,
    /// the gallery shows). `name` turns a listed path into the string the gallery opens
    /// (`PathAliases`); `onProblem` gets one line per new problem (a folder that cannot be
    /// watched or listed), on the watcher's thread (on the caller's for the folders watched from
    /// the start, which are watched before this returns). Throws when no inotify instance can be
    /// made (EMFILE past fs.inotify.max_user_instances).
    public init(source: ListingSource, listing: ImageListing,
                name: @escaping @Sendable (RawPath) -> String = { PathAliases.shared.path(for: $0) },
                onProblem: @escaping @Sendable (String) -> Void) throws(Errno) {
        let inotify = try Inotify()
        self.inotify = inotify
        let changes = self.changes, finished = self.finished, threadID = self.thread
        // The watches are made here, before the caller goes on: made by the thread, they missed
        // whatever changed before it ran (a folder made and filled at once, on a loaded machine).
        let loop = WatchLoop(inotify: inotify, source: source, shown: listing, name: name, onProblem: onProblem,
                             changes: changes)
        // A thread of its own, not libdispatch's pool: it blocks for the life of the gallery.
        let thread = Thread {
            threadID.id.store(FolderWatcher.currentThreadID(), ordering: .releasing)
            var loop = loop
            loop.run()
            finished.signal()
        }
        thread.name = "scrollkit.folders"
        thread.start()
    }

    /// The calling thread's kernel id, from /proc/thread-self ("<pid>/task/<tid>"); gettid(2)
    /// is not in Glibc's Swift module. 0 when /proc is not mounted.
    static func currentThreadID() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard n > 0 else { return 0 }
        let text = String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { Int32($0) } ?? 0
    }

    /// Ends the watch and waits for its thread to finish (a listing under way completes first).
    public func stop() {
        inotify.stop()
        finished.wait()
        finished.signal()
    }

    deinit {
        inotify.stop()
    }
}

/// The watcher thread's state: the kernel's watches, the debouncer, and what was last shown.
private struct WatchLoop {
    let inotify: Inotify
    let source: ListingSource
    let name: @Sendable (RawPath) -> String
    let onProblem: @Sendable (String) -> Void
    let changes: Mailbox<FolderChange>
    /// The folder of each watch, and the watch of each folder (paths without trailing slashes).
    var folders: [Int32: RawPath] = [:]
    var watches: [RawPath: Int32] = [:]
    var debouncer = ChangeDebouncer()
    /// The files of the last listing posted (or shown at launch).
    var shown: Set<RawPath>
    /// Problems reported already, so a relisting does not repeat them.
    var reported: Set<String>

    init(inotify: Inotify, source: ListingSource, shown listing: ImageListing, name: @escaping @Sendable (RawPath) -> String,
         onProblem: @escaping @Sendable (String) -> Void, changes: Mailbox<FolderChange>) {
        self.inotify = inotify
        self.source = source
        self.name = name
        self.onProblem = onProblem
        self.changes = changes
        shown = Set(listing.entries.map(Self.key))
        reported = Set(listing.problems)
        _ = watch(listing.watchedFolders)
    }

    /// Monotonic milliseconds.
    static func now() -> Double { ProcessInfo.processInfo.systemUptime * 1000 }

    mutating func run() {
        while true {
            var timeout: Int32 = -1
            if let deadline = debouncer.deadline {
                timeout = Int32(min(max((deadline - Self.now()).rounded(.up), 0), Double(Int32.max)))
            }
            switch inotify.wait(timeout: timeout) {
            case .stopped: return
            case .events: for event in inotify.events() { take(event) }
            case .timeout: break
            }
            if let batch = debouncer.take(at: Self.now()) { publish(batch) }
        }
    }

    /// Turns one kernel event into a notice for the debouncer.
    private mutating func take(_ event: Inotify.Event) {
        let mask = Int32(bitPattern: event.mask)
        let now = Self.now()
        if mask & Int32(IN_IGNORED) != 0, let folder = folders.removeValue(forKey: event.watch) {
            // The folder went (or its watch was removed): the next listing says what remains.
            watches[folder] = nil
            debouncer.note(.listingChanged, at: now)
            return
        }
        guard let folder = folders[event.watch], !event.name.isEmpty, mask & Int32(IN_ISDIR) == 0 else {
            // The queue overflowed, a folder inside was made or removed, or the watched folder
            // itself moved: only a new listing says what changed.
            debouncer.note(.listingChanged, at: now)
            return
        }
        // Hidden files are never listed: rsync's and editors' temporary files come and go
        // unseen, and their final rename (IN_MOVED_TO) is what counts.
        guard event.name.first != UInt8(ascii: ".") else { return }
        let path = folder.appending(event.name)
        if mask & Int32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
            debouncer.note(.written(path), at: now)
        } else if mask & Int32(IN_DELETE | IN_MOVED_FROM) != 0 {
            debouncer.note(.removed(path), at: now)
        } else if mask & Int32(IN_CREATE) != 0 {
            // `ln` makes a name whole; a file opened to be written is finished when closed.
            debouncer.note(path.isLink() ? .written(path) : .writing(path), at: now)
        } else if mask & Int32(IN_MODIFY) != 0 {
            debouncer.note(.writing(path), at: now)
        } else if mask & Int32(IN_ATTRIB) != 0 {
            // Attributes (a file made readable) reload a finished file; one being copied
            // (`cp -p` sets them before closing) waits for its close.
            debouncer.note(debouncer.writing[path] == nil ? .written(path) : .listingChanged, at: now)
        }
    }

    /// Lists again, watches folders that appeared, leaves out files still being written that
    /// were not shown, and posts the change.
    private mutating func publish(_ batch: ChangeDebouncer.Batch) {
        var listing = source.list()
        if watch(listing.watchedFolders) {
            // Files copied into a new folder before its watch existed: listed now.
            listing = source.list()
            _ = watch(listing.watchedFolders)
        }
        let writing = Set(debouncer.writing.keys)
        listing.entries.removeAll { writing.contains(Self.key($0)) && !shown.contains(Self.key($0)) }
        for problem in listing.problems where reported.insert(problem).inserted { onProblem(problem) }
        let keys = listing.entries.map(Self.key)
        let rewritten = listing.entries.indices.filter { batch.written.contains(keys[$0]) && shown.contains(keys[$0]) }
        shown = Set(keys)
        changes.post(FolderChange(files: listing.entries.map(name), rewritten: Set(rewritten.map { name(listing.entries[$0]) })))
    }

    /// Watches `wanted` and stops watching folders not in it; true when a watch was added.
    private mutating func watch(_ wanted: [RawPath]) -> Bool {
        let wanted = Set(wanted.map(Self.folderKey))
        for (folder, watch) in watches where !wanted.contains(folder) {
            inotify.removeWatch(watch)
            watches[folder] = nil
            folders[watch] = nil
        }
        var added = false
        for folder in wanted where watches[folder] == nil {
            switch inotify.addWatch(folder) {
            case .success(let watch):
                // Two paths to one folder get one watch from the kernel: keep the first name.
                guard folders[watch] == nil else { continue }
                watches[folder] = watch
                folders[watch] = folder
                added = true
            case .failure(let error):
                let hint = error == .noSpace ? " (raise the limit fs.inotify.max_user_watches)" : ""
                let problem = "\(folder): changes will not be seen: \(error)\(hint)"
                if reported.insert(problem).inserted { onProblem(problem) }
            }
        }
        return added
    }

    /// A folder's path as events name it: without trailing slashes.
    static func folderKey(_ folder: RawPath) -> RawPath {
        var bytes = folder.bytes
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return RawPath(bytes: bytes)
    }

    /// A listed file's path as events name it: its folder's key and its name (a file named
    /// bare, "a.png", is "./a.png").
    static func key(_ file: RawPath) -> RawPath {
        folderKey(file.parent ?? RawPath(".")).appending(file.lastComponent)
    }
}
