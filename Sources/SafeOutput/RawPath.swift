// File paths as the kernel holds them, bytes that need not be UTF-8: Swift's String turns a
// name such as "caf\xE9.jpg" (Latin-1) into "caf\u{FFFD}.jpg", which names no file. The command
// line's arguments and folder listings are read here as bytes and opened as bytes.
import Glibc

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
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// What kind of file the path names (symbolic links followed), or the errno of `stat`.
    public func kind() -> Result<FileKind, SystemError> {
        var info = stat()
        guard withCString({ stat($0, &info) }) == 0 else { return .failure(SystemError(code: errno)) }
        return .success(FileKind(mode: info.st_mode))
    }

    /// The names in this folder (bytes, "." and ".." left out), each with its kind (links
    /// followed; `.other` when it cannot be told). Nothing is opened but the folder.
    public func folderEntries() -> Result<[(name: [UInt8], kind: FileKind)], SystemError> {
        let fd = withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(SystemError(code: errno)) }
        guard let dir = fdopendir(fd) else {
            let code = errno
            close(fd)
            return .failure(SystemError(code: code))
        }
        defer { closedir(dir) }
        var entries: [(name: [UInt8], kind: FileKind)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            var info = stat()
            let kind = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                fstatat(fd, $0.baseAddress!, &info, 0) == 0 ? FileKind(mode: info.st_mode) : .other
            }
            entries.append((name, kind))
        }
        return .success(entries)
    }

    /// Up to `count` first bytes of the regular file at the path; nil when it is not a regular
    /// file or cannot be read. Opened non-blocking and checked with fstat before reading, so a
    /// FIFO or device swapped in meanwhile is never waited on.
    public func head(_ count: Int) -> [UInt8]? {
        let fd = withCString { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, FileKind(mode: info.st_mode) == .regular else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, count) }
        return n < 0 ? nil : Array(buffer.prefix(n))
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

/// What a path names.
public enum FileKind: Equatable, Sendable {
    /// A regular file: the only kind pictures and traces are read from.
    case regular
    /// A folder.
    case folder
    /// A FIFO, a device, a socket.
    case other

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .folder
        default: self = .other
        }
    }
}

/// A failed system call's errno.
public struct SystemError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The errno.
    public let code: Int32

    /// The error for errno `code`.
    public init(code: Int32) { self.code = code }
    /// The system's message ("Permission denied").
    public var description: String { String(cString: strerror(code)) }
}
