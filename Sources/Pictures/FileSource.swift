// Reading an image file with POSIX calls, so failures carry the system's own message.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads whole files into memory with the size checked before anything is allocated.
enum FileSource {
    /// Bytes per `read(2)` call: 1 MiB keeps progress reports fine-grained on large files.
    static let chunkBytes = 1 << 20

    /// The last path component, the name the user recognises in messages.
    static func displayName(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// Reads `path` completely.
    ///
    /// - Parameters:
    ///   - maxBytes: files larger than this are refused before allocation, in bytes.
    ///   - maxHeldBytes: the most the bytes read may take (a memory budget), checked against
    ///     what will be read (a PNG's chunk structure may end before the file does).
    ///   - progress: called with the fraction read (0…1) after each chunk.
    ///   - isCancelled: polled between chunks; true stops with `.cancelled`.
    static func read(
        path: String, maxBytes: Int, maxHeldBytes: Int = .max,
        progress: (Double) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws(PictureError) -> [UInt8] {
        try read(PictureFile.open(path: path), maxBytes: maxBytes, maxHeldBytes: maxHeldBytes,
                 progress: progress, isCancelled: isCancelled)
    }

    /// Reads `file` completely (see `read(path:…)`).
    static func read(
        _ file: PictureFile, maxBytes: Int, maxHeldBytes: Int = .max,
        progress: (Double) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws(PictureError) -> [UInt8] {
        let name = file.name, fd = file.fd
        func systemError() -> PictureError {
            PictureError(file: name, kind: .unreadable(String(cString: strerror(errno))))
        }
        let declared = file.declaredSize
        guard declared <= maxBytes else {
            throw PictureError(file: name, kind: .fileTooLarge(bytes: declared, limit: maxBytes))
        }
        let usable = file.size
        guard usable <= maxHeldBytes else {
            throw PictureError(file: name, kind: .fileTooLarge(bytes: usable, limit: maxHeldBytes))
        }
        let maxBytes = min(maxBytes, maxHeldBytes)
        if usable < declared {
            let prefix = try readPrefix(fd, count: usable, name: name)
            progress(1)
            return prefix
        }
        // /proc and some /sys files are regular but report size 0: read them in chunks up
        // to the same limit.
        var bytes = [UInt8](repeating: 0, count: max(declared, 0))
        var filled = 0
        /// read(2) into `buffer`, retried on EINTR; the count (0 at the end of the file), or -1
        /// with errno set.
        func readSome(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
            while true {
                let got = Glibc.read(fd, buffer, count)
                if got >= 0 || errno != EINTR { return got }
            }
        }
        var probe = [UInt8](repeating: 0, count: 4096)
        while true {
            if isCancelled() { throw PictureError(file: name, kind: .cancelled) }
            if filled == bytes.count {
                // Past the declared size: a small probe finds the end of a file that kept its
                // size without growing `bytes`, since growing an array copies it (the file
                // twice in memory at once). A file that grew, or of unknown size, grows
                // geometrically from what the probe brought.
                let got = probe.withUnsafeMutableBytes { readSome($0.baseAddress!, $0.count) }
                if got < 0 { throw systemError() }
                if got == 0 { break }
                guard filled + got <= maxBytes else {
                    throw PictureError(file: name, kind: .fileTooLarge(bytes: filled + got, limit: maxBytes))
                }
                let grow = min(max(4096, min(chunkBytes, bytes.count / 2)), maxBytes - bytes.count)
                bytes.replaceSubrange(filled..., with: probe[..<got])
                bytes.append(contentsOf: repeatElement(0, count: max(grow - got, 0)))
                filled += got
                continue
            }
            let want = min(chunkBytes, bytes.count - filled)
            let got = bytes.withUnsafeMutableBytes { readSome($0.baseAddress! + filled, want) }
            if got < 0 { throw systemError() }
            if got == 0 { break }
            filled += got
            if declared > 0 { progress(min(1, Double(filled) / Double(declared))) }
        }
        bytes.removeSubrange(filled...)
        progress(1)
        return bytes
    }
}

extension FileSource {
    /// `count` bytes at `offset` of `fd` with pread, or nil when they cannot all be read.
    static func bytes(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        let read = out.withUnsafeMutableBytes { Self.read(fd, into: $0.baseAddress, count: count, at: offset) }
        return read ? out : nil
    }

    /// Reads `count` bytes at `offset` of `fd` into `buffer` with pread; false when they cannot
    /// all be read (errno says why, or is 0 at the end of the file).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer?, count: Int, at offset: Int) -> Bool {
        var filled = 0
        while filled < count {
            guard let buffer else { return false }
            let got = pread(fd, buffer + filled, count - filled, off_t(offset + filled))
            if got < 0, errno == EINTR { continue }
            if got == 0 { errno = 0 }
            guard got > 0 else { return false }
            filled += got
        }
        return true
    }

    /// For a PNG, the bytes worth reading (see `Metadata.pngExtent`); nil for other files.
    static func pngExtent(_ fd: Int32, size: Int) -> Int? {
        guard size >= 8, bytes(fd, at: 0, count: 8) == ImageFormat.pngSignature else { return nil }
        return Metadata.pngExtent(size: size) { offset, count in bytes(fd, at: offset, count: count) }
    }

    /// The first `count` bytes of `fd`, fewer if it ends sooner (the decoder then says the
    /// file is truncated).
    static func readPrefix(_ fd: Int32, count: Int, name: String) throws(PictureError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(filled)) }
            if got < 0, errno == EINTR { continue }
            if got < 0 { throw PictureError(file: name, kind: .unreadable(String(cString: strerror(errno)))) }
            if got == 0 { break }
            filled += got
        }
        out.removeSubrange(filled...)
        return out
    }
}

/// An open picture file: what decoders that stream read in place (rows of PNG and JPEG), so a
/// file too large for memory is never held whole. Closed with this object.
final class PictureFile: Sendable {
    /// The last path component, for messages.
    let name: String
    /// The descriptor, for reads at offsets (pread), which leave no shared position.
    let fd: Int32
    /// The size fstat gave, in bytes.
    let declaredSize: Int
    /// The bytes worth reading: the size, or a PNG's up to where its chunk structure ends (a
    /// PNG header on a gigabyte of holes or padding is a few bytes).
    let size: Int

    private init(name: String, fd: Int32, declaredSize: Int, size: Int) {
        self.name = name
        self.fd = fd
        self.declaredSize = declaredSize
        self.size = size
    }

    deinit { close(fd) }

    /// Opens `path`, a regular file (checked on what was opened, not on the name).
    static func open(path: String) throws(PictureError) -> PictureFile {
        let name = FileSource.displayName(path)
        func systemError() -> PictureError {
            PictureError(file: name, kind: .unreadable(String(cString: strerror(errno))))
        }
        // O_NONBLOCK: opening a FIFO nobody writes to would otherwise wait for a writer
        // forever. Symlinks are followed: a link to a picture is a picture the user named.
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw systemError() }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = systemError()
            close(fd)
            throw error
        }
        // The type of what was opened, not of the name: nothing can swap it in between.
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            close(fd)
            throw PictureError(file: name, kind: .unreadable(String(cString: strerror(EISDIR))))
        case let type:
            close(fd)
            throw PictureError(file: name, kind: .notRegularFile(fileTypeName(type)))
        }
        let declared = Int(info.st_size)
        return PictureFile(name: name, fd: fd, declaredSize: declared, size: FileSource.pngExtent(fd, size: declared) ?? declared)
    }

    /// `count` bytes at `offset`, or nil when they cannot all be read.
    func bytes(at offset: Int, count: Int) -> [UInt8]? { FileSource.bytes(fd, at: offset, count: count) }
}

/// "FIFO", "character device"…: what `stat` says a non-regular file is, for messages.
func fileTypeName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: return "FIFO"
    case S_IFCHR: return "character device"
    case S_IFBLK: return "block device"
    case S_IFSOCK: return "socket"
    case S_IFDIR: return "directory"
    case S_IFLNK: return "symbolic link"
    default: return "unknown type"
    }
}

/// How much memory this process may still allocate, from the kernel's own accounting.
public enum SystemMemory {
    /// MemAvailable from /proc/meminfo, lowered by a cgroup v2 limit when one applies, in
    /// bytes; nil when neither can be read (the check is then skipped).
    public static func available() -> Int? {
        var result: Int?
        if let text = readSmallFile("/proc/meminfo") {
            for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
                let fields = line.split(separator: " ")
                if fields.count >= 2, let kib = Int(fields[1]) { result = kib * 1024 }
            }
        }
        // "max" (no limit) does not parse as a number and leaves MemAvailable alone.
        if let limit = firstNumber(readSmallFile("/sys/fs/cgroup/memory.max")),
           let used = firstNumber(readSmallFile("/sys/fs/cgroup/memory.current")) {
            let headroom = max(0, limit - used)
            result = min(result ?? headroom, headroom)
        }
        return result
    }

    private static func firstNumber(_ text: String?) -> Int? {
        text?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    }

    private static func readSmallFile(_ path: String) -> String? {
        guard let bytes = try? FileSource.read(path: path, maxBytes: 1 << 16) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
