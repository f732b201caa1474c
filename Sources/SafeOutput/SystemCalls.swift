// The system calls swift-system does not wrap, each failing with a typed errno: poll, fsync,
// unlink, mkdir, symlink, mkdtemp, the O_NONBLOCK flag of an open descriptor and a folder's
// names. Everything else (open, read, write, close, stat, fstat, pipe) is swift-system's
// FileDescriptor, Stat and Errno; modules that need more calls of their own (the Wayland module's
// memfd, mmap, eventfd) extend `SystemCalls` in one file each.
import Glibc
import SystemPackage

extension Errno {
    /// errno as the last C call left it.
    package static var lastCall: Errno { Errno(rawValue: Glibc.errno) }
}

extension FileDescriptor.OpenOptions {
    /// O_NOCTTY: opening a terminal does not make it the process's controlling terminal
    /// (swift-system names the other open flags, not this one).
    package static var noControllingTerminal: Self { Self(rawValue: O_NOCTTY) }
}

/// Thin wrappers over raw calls; each returns what the call made or throws its errno.
package enum SystemCalls {
    /// Runs swift-system calls with their error typed: FileDescriptor's methods (open, read,
    /// write, resize, close) throw untyped errors that are always an `Errno`.
    package static func typed<R>(_ body: () throws -> R) throws(Errno) -> R {
        do {
            return try body()
        } catch let error as Errno {
            throw error
        } catch {
            throw .ioError
        }
    }

    /// One descriptor `poll` watches: what to wait for and, after the call, what happened.
    package struct PollRequest {
        package let fd: Int32
        package let events: Int16
        package var returned: Int16 = 0

        package init(_ fd: Int32, events: Int16) {
            self.fd = fd
            self.events = events
        }

        /// Whether any of `events` happened.
        package func saw(_ events: Int16) -> Bool { returned & events != 0 }
    }

    /// POLLIN, POLLOUT, POLLHUP, POLLERR as `poll` takes them.
    package static let readable = Int16(POLLIN), writable = Int16(POLLOUT), hangUp = Int16(POLLHUP), failed = Int16(POLLERR)

    /// Waits up to `timeout` ms (−1: without limit) for the events of `requests`, filling in
    /// `returned`. Not retried on EINTR, which is thrown: the caller's loop decides (a signal
    /// should end a wait as early as a wake does).
    package static func poll(_ requests: inout [PollRequest], timeout: Int32) throws(Errno) {
        var fds = requests.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        guard Glibc.poll(&fds, nfds_t(fds.count), timeout) >= 0 else { throw .lastCall }
        for i in requests.indices { requests[i].returned = fds[i].revents }
    }

    /// Flushes `fd`'s file to its storage (fsync).
    package static func synchronize(_ fd: FileDescriptor) throws(Errno) {
        guard fsync(fd.rawValue) == 0 else { throw .lastCall }
    }

    /// Removes the name `path` (unlink); a symbolic link is removed, never followed.
    package static func unlink(_ path: RawPath) throws(Errno) {
        guard path.withCString({ Glibc.unlink($0) }) == 0 else { throw .lastCall }
    }

    /// Makes the folder `path` with `permissions` less the umask (mkdir).
    package static func makeFolder(_ path: RawPath, permissions: FilePermissions) throws(Errno) {
        guard path.withCString({ mkdir($0, permissions.rawValue) }) == 0 else { throw .lastCall }
    }

    /// Makes `link` a symbolic link to `target` (symlink); an existing `link` is an error.
    package static func makeSymbolicLink(to target: RawPath, at link: RawPath) throws(Errno) {
        let made = target.withCString { target in link.withCString { symlink(target, $0) } }
        guard made == 0 else { throw .lastCall }
    }

    /// Makes a folder of mode 0700 named `template` with its trailing "XXXXXX" replaced by
    /// characters nobody can guess (mkdtemp); returns its path.
    package static func makeUniqueFolder(_ template: RawPath) throws(Errno) -> RawPath {
        var bytes = template.bytes.map { CChar(bitPattern: $0) } + [0]
        guard let made = mkdtemp(&bytes) else { throw .lastCall }
        return RawPath(bytes: Array(UnsafeBufferPointer(start: made, count: strlen(made))).map { UInt8(bitPattern: $0) })
    }

    /// Clears O_NONBLOCK on `fd` (fcntl F_GETFL, F_SETFL).
    package static func setBlocking(_ fd: FileDescriptor) throws(Errno) {
        let flags = fcntl(fd.rawValue, F_GETFL)
        guard flags >= 0, fcntl(fd.rawValue, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw .lastCall }
    }

    /// The names in the folder open as `folder` ("." and ".." left out), in the order the file
    /// system gives them (fdopendir on a duplicate of `folder`, which stays open, then readdir),
    /// each with its `d_type` (DT_REG, DT_DIR…; DT_UNKNOWN where the file system does not say).
    package static func names(in folder: FileDescriptor) throws(Errno) -> [(name: [UInt8], type: UInt8)] {
        let copy = dup(folder.rawValue)
        guard copy >= 0 else { throw .lastCall }
        guard let dir = fdopendir(copy) else {
            let error = Errno.lastCall
            close(copy)
            throw error
        }
        defer { closedir(dir) }
        var names: [(name: [UInt8], type: UInt8)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append((name, entry.pointee.d_type))
        }
        return names
    }
}
