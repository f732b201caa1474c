// File paths as the kernel holds them, bytes that need not be UTF-8: Swift's String turns a
// name such as "caf\xE9.jpg" (Latin-1) into "caf\u{FFFD}.jpg", which names no file. The command
// line's arguments and folder listings are read here as bytes and opened as bytes, through
// swift-system's calls that take a C string: its FilePath would hold the bytes too, but it
// normalises separators ("photo.png/" becomes "photo.png", which the kernel would refuse as
// ENOTDIR), and a path must reach the kernel as the user gave it.
import Glibc
import SystemPackage

/// A file system path as bytes.
public struct RawPath: Hashable, Sendable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// The path of `bytes`.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The path spelled by `string` (its UTF-8).
    public init(_ string: String) { bytes = Array(string.utf8) }

    /// The path as a String when its bytes are UTF-8 (then String-taking APIs open the same
    /// file); nil when they are not.
    public var string: String? { String(validating: bytes, as: UTF8.self) }

    /// The path for messages: invalid bytes as `\xE9`, control characters escaped.
    public var description: String { TerminalText.escaped(bytes: bytes) }

    /// The last component's bytes (the name a user recognises).
    public var lastComponent: [UInt8] {
        var end = bytes.endIndex
        while end > bytes.startIndex + 1 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? bytes.startIndex
        return Array(bytes[start..<end])
    }

    /// `name` inside this folder.
    public func appending(_ name: [UInt8]) -> RawPath {
        var folder = bytes
        while folder.count > 1 && folder.last == UInt8(ascii: "/") { folder.removeLast() }
        if folder.last != UInt8(ascii: "/") { folder.append(UInt8(ascii: "/")) }
        return RawPath(bytes: folder + name)
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        try (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { (buffer) throws(E) -> R in
            try body(buffer.baseAddress!)
        }
    }

    /// Opens the path (`FileDescriptor.open`, retried on EINTR).
    package func open(_ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
                      permissions: FilePermissions? = nil) throws(Errno) -> FileDescriptor {
        try withCString { (path) throws(Errno) in
            try SystemCalls.typed { try FileDescriptor.open(path, mode, options: options, permissions: permissions) }
        }
    }

    /// What `stat` (or with `followingLinks` false, `lstat`) says of the path.
    package func status(followingLinks: Bool = true) throws(Errno) -> Stat {
        try withCString { (path) throws(Errno) in try Stat(path, followTargetSymlink: followingLinks) }
    }

    /// The folder holding the path's last component: nil for a bare name ("photo.png", whose
    /// folder is the current one), "/" for "/photo.png".
    public var parent: RawPath? {
        var end = bytes.endIndex
        while end > bytes.startIndex + 1 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else { return nil }
        var folderEnd = slash
        while folderEnd > bytes.startIndex && bytes[folderEnd - 1] == UInt8(ascii: "/") { folderEnd -= 1 }
        return RawPath(bytes: folderEnd == bytes.startIndex ? [UInt8(ascii: "/")] : Array(bytes[..<folderEnd]))
    }

    /// What kind of file the path names (symbolic links followed), or the errno of `stat`.
    public func kind() -> Result<FileKind, Errno> {
        info().map(\.kind)
    }

    /// Whether the path is a symbolic link or a file with more than one name: made whole by
    /// `ln`, not written through a descriptor (so no close will say it is finished).
    public func isLink() -> Bool {
        guard let status = try? status(followingLinks: false) else { return false }
        return status.type == .symbolicLink || status.linkCount > 1
    }

    /// What `stat` says of the path (symbolic links followed), or its errno.
    public func info() -> Result<FileInfo, Errno> {
        Result { () throws(Errno) in FileInfo(try status()) }
    }

    /// The names in this folder (bytes, "." and ".." left out), each with what `stat` says of
    /// it (links followed; kind `.other` and no identity when it cannot be told), or with
    /// `detail` `.kinds` only what the folder itself says of files. Nothing is opened but the
    /// folder.
    public func folderEntries(detail: FolderEntryDetail = .status) -> Result<[FolderEntry], Errno> {
        Result { () throws(Errno) in
            let folder = try open(.readOnly, options: [.directory, .closeOnExec])
            defer { try? folder.close() }
            return try SystemCalls.names(in: folder).map { name, type in
                if detail == .kinds, let kind = FileKind(folderEntryType: type) {
                    return FolderEntry(name: name, info: FileInfo(kind: kind, size: 0, modified: 0, identity: nil))
                }
                let status = RawPath(bytes: name).withCString { try? Stat($0, relativeTo: folder, flags: []) }
                return FolderEntry(name: name, info: status.map(FileInfo.init) ?? .unknown)
            }
        }
    }

    /// Up to `count` first bytes of the regular file at the path; nil when it is not a regular
    /// file or cannot be read. Opened non-blocking and checked with fstat before reading, so a
    /// FIFO or device swapped in meanwhile is never waited on.
    public func head(_ count: Int) -> [UInt8]? {
        guard let file = try? open(.readOnly, options: [.nonBlocking, .noControllingTerminal, .closeOnExec]) else { return nil }
        defer { try? file.close() }
        guard (try? file.stat())?.type == .regular else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        guard let n = try? buffer.withUnsafeMutableBytes({ try file.read(into: $0) }) else { return nil }
        return Array(buffer.prefix(n))
    }

    /// The command line's arguments as bytes (`CommandLine.arguments` decodes them, repairing
    /// invalid UTF-8), the program's name first.
    public static var commandLineArguments: [RawPath] {
        (0..<Int(CommandLine.argc)).map { i in
            RawPath(bytes: CommandLine.unsafeArgv[i].map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
                .map { $0.map { UInt8(bitPattern: $0) } } ?? [])
        }
    }

    /// The raw argument that `CommandLine.arguments` shows as `text` (the first one not taken
    /// yet by an earlier call with the same `taken` set), or `text`'s own bytes when none does.
    public static func argument(shownAs text: String, taken: inout Set<Int>) -> RawPath {
        let raw = commandLineArguments
        for (i, argument) in raw.enumerated().dropFirst() where !taken.contains(i) {
            if String(decoding: argument.bytes, as: UTF8.self) == text {
                taken.insert(i)
                return argument
            }
        }
        return RawPath(text)
    }
}

/// How much `RawPath.folderEntries` finds out about each name.
public enum FolderEntryDetail: Sendable, Equatable {
    /// What `stat` says of each name (kind, size, time and identity, links followed).
    case status
    /// The kind of each file as the folder's own listing gives it (readdir's `d_type`), without
    /// a `stat` per name: size, time and identity are left unknown (0, nil). Folders, symbolic
    /// links and names whose kind the file system does not give are still `stat`ed, so a
    /// folder has its identity and a link is seen as what it leads to. Listing a folder of
    /// thousands of pictures by name needs no more.
    case kinds
}

/// One name in a folder and what `stat` says of it.
public struct FolderEntry: Sendable {
    /// The name's bytes.
    public var name: [UInt8]
    /// Its kind, size, time and identity (links followed).
    public var info: FileInfo
    /// Its kind (links followed).
    public var kind: FileKind { info.kind }

    /// The entry `name`, described by `info`.
    public init(name: [UInt8], info: FileInfo) {
        self.name = name
        self.info = info
    }
}

/// What `stat` says of a file, as far as listing pictures needs it.
public struct FileInfo: Equatable, Sendable {
    /// What it is.
    public var kind: FileKind
    /// Its size in bytes.
    public var size: Int64
    /// Its last modification, in nanoseconds since 1970.
    public var modified: Int64
    /// The device and inode: equal for two paths to the same file (a link loop's folder).
    public var identity: FileIdentity?

    /// A file that could not be examined: `.other`, no size, time or identity.
    public static let unknown = FileInfo(kind: .other, size: 0, modified: 0, identity: nil)

    /// A description.
    public init(kind: FileKind, size: Int64, modified: Int64, identity: FileIdentity?) {
        self.kind = kind
        self.size = size
        self.modified = modified
        self.identity = identity
    }

    init(_ status: Stat) {
        self.init(kind: FileKind(status.type), size: status.size,
                  modified: Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec),
                  identity: FileIdentity(device: UInt64(status.deviceID.rawValue), inode: UInt64(status.inode.rawValue)))
    }
}

/// A file's device and inode numbers, which name it whatever path leads to it.
public struct FileIdentity: Hashable, Sendable {
    /// `st_dev`.
    public var device: UInt64
    /// `st_ino`.
    public var inode: UInt64

    /// The identity of inode `inode` on device `device`.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// What a path names.
public enum FileKind: Equatable, Sendable {
    /// A regular file: the only kind pictures and traces are read from.
    case regular
    /// A folder.
    case folder
    /// A FIFO, a device, a socket.
    case other

    init(_ type: FileType) {
        switch type {
        case .regular: self = .regular
        case .directory: self = .folder
        default: self = .other
        }
    }

    /// The kind readdir's `d_type` gives without following anything: nil for a folder (its
    /// identity is wanted), a symbolic link (what it leads to counts) and DT_UNKNOWN.
    init?(folderEntryType type: UInt8) {
        switch Int32(type) {
        case Int32(DT_REG): self = .regular
        case Int32(DT_FIFO), Int32(DT_CHR), Int32(DT_BLK), Int32(DT_SOCK): self = .other
        default: return nil
        }
    }
}
