// Creating the files a program writes for its user (a recording, a screenshot, a kept copy):
// never over an existing file unless asked, never through a symbolic link, never a FIFO or a
// device, and a private folder for scratch files.
import Foundation
import Glibc
import SystemPackage

/// Why an output file could not be created; `description` names the file and the reason.
public struct FileCreationError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What stood in the way.
    public enum Reason: Equatable, Sendable {
        /// Something is at the path already and replacing was not asked for.
        case exists
        /// The path is a symbolic link, which is never followed.
        case symbolicLink
        /// The path is a FIFO, a device, a socket or a folder.
        case notRegularFile
        /// The system refused.
        case system(Errno)
    }

    /// The path as given.
    public let path: String
    /// Why.
    public let reason: Reason

    /// An error for `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// "PATH: already exists", "PATH: is a symbolic link (never followed)", …
    public var description: String {
        let why = switch reason {
        case .exists: "already exists"
        case .symbolicLink: "is a symbolic link (never followed)"
        case .notRegularFile: "is not a regular file"
        case .system(let errno): errno.description
        }
        return "\(path): \(why)"
    }
}

/// A regular file open for writing, closed when released.
public final class OutputFile {
    /// The path it was created at.
    public let path: String
    /// Its descriptor.
    public let fd: FileDescriptor

    /// Creates `path` afresh (O_CREAT | O_EXCL, mode `mode` less the umask); with `replacing`,
    /// an existing regular file is emptied instead. A symbolic link is refused even with
    /// `replacing` (O_NOFOLLOW; O_EXCL refuses dangling links too), and so is anything that is
    /// not a regular file: the open is non-blocking, so a FIFO without a reader fails at once
    /// instead of hanging, and the opened descriptor is checked with fstat before anything is
    /// truncated or written.
    public init(creating path: String, replacing: Bool = false, mode: mode_t = 0o644) throws(FileCreationError) {
        var options: FileDescriptor.OpenOptions = [.create, .noFollow, .nonBlocking, .closeOnExec]
        if !replacing { options.insert(.exclusiveCreate) }
        let fd: FileDescriptor
        do {
            fd = try RawPath(path).open(.writeOnly, options: options, permissions: FilePermissions(rawValue: mode))
        } catch {
            switch error {
            case .fileExists:
                let isLink = (try? RawPath(path).status(followingLinks: false))?.type == .symbolicLink
                throw FileCreationError(path: path, reason: isLink ? .symbolicLink : .exists)
            case .tooManySymbolicLinkLevels: throw FileCreationError(path: path, reason: .symbolicLink)
            // ENXIO: a FIFO with no reader; EISDIR: a folder; both are not files to write.
            case .noSuchAddressOrDevice, .isDirectory: throw FileCreationError(path: path, reason: .notRegularFile)
            default: throw FileCreationError(path: path, reason: .system(error))
            }
        }
        do throws(FileCreationError) {
            let status: Stat
            do { status = try fd.stat() } catch { throw FileCreationError(path: path, reason: .system(error)) }
            guard status.type == .regular else { throw FileCreationError(path: path, reason: .notRegularFile) }
            // Blocking again: writes to a regular file never wait for room anyway, and the
            // writer's EAGAIN path is then never taken.
            try? SystemCalls.setBlocking(fd)
            if replacing {
                do { try SystemCalls.typed { try fd.resize(to: 0) } } catch { throw FileCreationError(path: path, reason: .system(error)) }
            }
        } catch {
            try? fd.close()
            throw error
        }
        self.path = path
        self.fd = fd
    }

    deinit { try? fd.close() }

    /// Appends `bytes`; throws the system's error (a full disk, the file size limit).
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        try fd.writeAllWaiting(bytes)
    }

    /// Flushes the file to its storage (fsync); throws the system's error.
    public func synchronize() throws(OutputError) {
        try SystemCalls.synchronize(fd)
    }

    /// Removes the file from its folder (a file this process created and will not finish).
    public func unlink() {
        try? SystemCalls.unlink(RawPath(path))
    }
}

/// A folder only this user can enter, with a name nobody can guess (mkdtemp), removed with
/// everything in it by `remove()`.
public final class PrivateFolder {
    /// Its absolute path.
    public let path: String
    private var removed = false

    /// Creates `<parent>/<prefix>.XXXXXX` with mode 0700; `parent` defaults to $TMPDIR or /tmp.
    /// Throws the system's error.
    public init(prefix: String, parent: String? = nil) throws(FileCreationError) {
        let base = parent ?? {
            let tmp = getenv("TMPDIR").map { String(cString: $0) } ?? ""
            return tmp.isEmpty ? "/tmp" : tmp
        }()
        let template = (base.hasSuffix("/") ? base : base + "/") + prefix + ".XXXXXX"
        do {
            path = String(decoding: try SystemCalls.makeUniqueFolder(RawPath(template)).bytes, as: UTF8.self)
        } catch {
            throw FileCreationError(path: template, reason: .system(error))
        }
    }

    deinit { if !kept { remove() } }

    private var kept = false

    /// Leaves the folder in place when this value goes (its owner removes it later); returns
    /// its path.
    public func keep() -> String {
        kept = true
        return path
    }

    /// `name` inside the folder.
    public func appending(_ name: String) -> String { path + "/" + name }

    /// Removes the folder and everything in it (once; later calls do nothing). Symbolic links
    /// inside are removed, never followed.
    public func remove() {
        guard !removed else { return }
        removed = true
        try? FileManager.default.removeItem(atPath: path)
    }
}
