// A folder's pictures for the gallery: sorted by name, time or size, through its subfolders when
// asked, with folders reached twice (a symbolic link loop) listed once.
import SafeOutput

/// How folders are listed: the order of their pictures and whether subfolders count.
public struct ListingOptions: Sendable, Equatable {
    /// What a folder's pictures are sorted by.
    public enum Order: String, Sendable, CaseIterable {
        /// Their paths in natural order ("img2" before "img10"), as file managers show them.
        case name
        /// Last modification, oldest first: a folder that content is copied into shows the
        /// newest last.
        case mtime
        /// File size, smallest first.
        case size
    }

    /// The order of each folder's pictures (ties in time or size go by name).
    public var order: Order
    /// Whether the order is turned around (newest, largest or Z first).
    public var reversed: Bool
    /// Whether subfolders are listed too (hidden ones are not), each folder once.
    public var recursive: Bool

    /// 1 000 000 pictures: a folder's listing stops there with a problem line (decision: about
    /// 200 bytes of bookkeeping each, 200 MB, far past any real folder; a runaway tree cannot
    /// fill the memory).
    public static let maxPictures = 1_000_000

    /// Options listing in natural order of names, not recursing, unless told otherwise.
    public init(order: Order = .name, reversed: Bool = false, recursive: Bool = false) {
        self.order = order
        self.reversed = reversed
        self.recursive = recursive
    }
}

/// Lists one folder given on the command line (and, recursing, its subfolders).
struct FolderWalk {
    /// The folder; entries are named through it ("photos/a.png", "./a.png").
    let root: RawPath
    let options: ListingOptions
    /// The name of a file named alone in `root`: listed even when hidden or not an image.
    let including: [UInt8]?
    /// The most pictures listed (`ListingOptions.maxPictures`; tests lower it).
    var limit = ListingOptions.maxPictures

    init(root: RawPath, options: ListingOptions, including: [UInt8]? = nil) {
        self.root = root
        self.options = options
        self.including = including
    }

    /// The path of `relative` (components below `root`).
    func path(of relative: [[UInt8]]) -> RawPath {
        relative.isEmpty ? root : root.appending(Array(relative.joined(separator: [UInt8(ascii: "/")])))
    }

    /// A picture found, with what it is sorted by.
    private struct Found {
        var relative: [[UInt8]]
        var info: FileInfo
        /// The path's natural order as bytes (`NaturalOrder.collation`), nil when a name is not
        /// printable ASCII.
        var collation: [UInt8]?
    }

    /// Appends the pictures to `listing.entries` in order, the folders read to
    /// `watchedFolders` and what went wrong to `problems`. The tree is walked with a stack of
    /// its own, not recursion, so a deep one cannot exhaust the thread's stack; a folder whose
    /// device and inode were met already (a link back up the tree) is skipped with a problem
    /// line, so a loop ends.
    func list(into listing: inout ImageListing) {
        var found: [Found] = []
        var visited: Set<FileIdentity> = []
        if case .success(let info) = root.info(), let identity = info.identity { visited.insert(identity) }
        var pending: [[[UInt8]]] = [[]]
        var truncated = false
        // Sorted by name, the pictures need no stat each: the folder's listing says which
        // names are files (a folder of 2,000 pictures lists in a tenth of the time).
        let detail: FolderEntryDetail = options.order == .name ? .kinds : .status
        while let relative = pending.popLast() {
            let folder = path(of: relative)
            let entries: [FolderEntry]
            switch folder.folderEntries(detail: detail) {
            case .success(let read): entries = read
            case .failure(let error):
                listing.problems.append("\(folder): cannot list: \(error)")
                continue
            }
            listing.watchedFolders.append(folder)
            for entry in entries {
                let hidden = entry.name.first == UInt8(ascii: ".")
                switch entry.kind {
                case .regular:
                    let named = relative.isEmpty && entry.name == including
                    guard named || (!hidden && ImageListing.isImage(name: entry.name, path: folder.appending(entry.name))) else {
                        continue
                    }
                    guard found.count < limit else {
                        truncated = true
                        continue
                    }
                    let inside = relative + [entry.name]
                    found.append(Found(relative: inside, info: entry.info, collation: NaturalOrder.collation(of: inside)))
                case .folder where options.recursive && !hidden:
                    guard let identity = entry.info.identity, visited.insert(identity).inserted else {
                        listing.problems.append("\(folder.appending(entry.name)): a folder listed already (a link loop), skipped")
                        continue
                    }
                    pending.append(relative + [entry.name])
                default:
                    continue
                }
            }
        }
        if truncated {
            listing.problems.append("\(root): more than \(limit) pictures; the first \(limit) found are shown")
        }
        sort(&found)
        if options.reversed { found.reverse() }
        listing.entries.append(contentsOf: found.map { path(of: $0.relative) })
    }

    /// Sorts as `options.order` says, ties in time or size going by name: by the collation
    /// bytes when every path has them, else by the names' `NaturalOrder.Key`s (the same order).
    private func sort(_ found: inout [Found]) {
        let order = options.order
        func byInfo(_ a: FileInfo, _ b: FileInfo) -> Bool? {
            switch order {
            case .name: nil
            case .mtime: a.modified != b.modified ? a.modified < b.modified : nil
            case .size: a.size != b.size ? a.size < b.size : nil
            }
        }
        if found.allSatisfy({ $0.collation != nil }) {
            found.sort { a, b in byInfo(a.info, b.info) ?? a.collation!.lexicographicallyPrecedes(b.collation!) }
            return
        }
        var keyed = found.map { (found: $0, names: $0.relative.map { NaturalOrder.Key(TerminalText.escaped(bytes: $0)) }) }
        keyed.sort { a, b in byInfo(a.found.info, b.found.info) ?? a.names.lexicographicallyPrecedes(b.names) }
        found = keyed.map(\.found)
    }
}

/// What the gallery lists, at launch and again whenever a watched folder changes.
public struct ListingSource: Sendable, Equatable {
    /// The paths named, in order.
    public let paths: [RawPath]
    /// How folders are listed.
    public let options: ListingOptions
    /// The file named alone, when one was (decided once, at launch: the file's folder is
    /// listed again around it even after the file itself is gone).
    public let namedFile: RawPath?

    /// The listing of `paths` as `options` say. One path naming a regular file is opened as
    /// eog, Loupe and swayimg open it, among the pictures of its folder, unless
    /// `opensFolderOfSingleFile` is false (a list read from standard input means just those).
    public init(paths: [RawPath], options: ListingOptions = ListingOptions(), opensFolderOfSingleFile: Bool = true) {
        self.paths = paths
        self.options = options
        if opensFolderOfSingleFile, paths.count == 1, case .success(.regular) = paths[0].kind() {
            namedFile = paths[0]
        } else {
            namedFile = nil
        }
    }

    /// Lists the paths now (see `ImageListing.list(raw:)`).
    public func list() -> ImageListing {
        if let namedFile { return around(namedFile) }
        var listing = ImageListing(entries: [])
        for path in paths {
            switch path.kind() {
            case .success(.folder):
                FolderWalk(root: path, options: options).list(into: &listing)
            case .success(.other):
                listing.problems.append("\(path): not a regular file (a FIFO, device or socket), left out")
            case .success(.regular), .failure:
                listing.entries.append(path)
                // Its folder is watched so that rewriting the file reloads it.
                let folder = path.parent ?? RawPath(".")
                if !listing.watchedFolders.contains(folder) { listing.watchedFolders.append(folder) }
            }
        }
        return listing
    }

    /// The pictures of `file`'s folder (listed as `options` say) with the file among them
    /// even when hidden or not named as an image, and `start` on its page. A folder that
    /// cannot be listed leaves the file alone.
    private func around(_ file: RawPath) -> ImageListing {
        let walk = FolderWalk(root: file.parent ?? RawPath("."), options: options, including: file.lastComponent)
        var listing = ImageListing(entries: [])
        walk.list(into: &listing)
        let shown = walk.path(of: [file.lastComponent])
        if let start = listing.entries.firstIndex(of: shown) {
            listing.start = start
        } else if listing.watchedFolders.isEmpty {
            return ImageListing(entries: [file])
        }
        return listing
    }
}
