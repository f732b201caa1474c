// The Wayland module's system calls, each failing with a typed errno. swift-system's
// FileDescriptor covers close, read, write, ftruncate and fstat (retrying on EINTR), and
// SafeOutput's `SystemCalls` has poll; the calls only this module makes and neither wraps
// (memfd_create and its seals, mmap, eventfd, the monotonic clock) are here.
import CWaylandProtocols
import Glibc
import SafeOutput
import SystemPackage

/// A system call that failed: what was called (with the arguments worth naming) and its errno.
/// `description` is the one-line reason, e.g. "ftruncate(4096 bytes): No space left on device".
struct SystemCallError: Error, Equatable, CustomStringConvertible {
    /// The call, as the user should read it.
    let call: String
    /// Why it failed.
    let errno: Errno

    var description: String { "\(call): \(errno)" }
}

/// SafeOutput's namespace of system calls, named here so every file of the module sees it
/// (poll included) without importing SafeOutput.
typealias SystemCalls = SafeOutput.SystemCalls

extension SystemCalls {
    /// An anonymous, close-on-exec file that can be sealed (`memfd_create` with
    /// MFD_CLOEXEC | MFD_ALLOW_SEALING), for memory shared with the compositor.
    static func memoryFile(name: String) throws(SystemCallError) -> FileDescriptor {
        let fd = sk_memfd_create(name)
        guard fd >= 0 else { throw SystemCallError(call: "memfd_create", errno: .lastCall) }
        return FileDescriptor(rawValue: fd)
    }

    /// Seals `fd`'s size (`sizeSeals`): neither this process nor the compositor can shrink it
    /// (which would make the other side's reads fault) or grow it, and no seal can change later.
    static func sealSize(_ fd: FileDescriptor) throws(SystemCallError) {
        guard sk_memfd_seal_size(fd.rawValue) == 0 else { throw SystemCallError(call: "fcntl(F_ADD_SEALS)", errno: .lastCall) }
    }

    /// F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL.
    static var sizeSeals: Int32 { sk_memfd_size_seals() }

    /// The seals of `fd` (F_GET_SEALS).
    static func seals(_ fd: FileDescriptor) throws(SystemCallError) -> Int32 {
        let seals = sk_memfd_seals(fd.rawValue)
        guard seals >= 0 else { throw SystemCallError(call: "fcntl(F_GET_SEALS)", errno: .lastCall) }
        return seals
    }

    /// How a file is mapped.
    enum Mapping {
        /// Read and write, shared with every other mapping (pixels the compositor reads).
        case sharedReadWrite
        /// Read only, private: later writes to the file by others need not show (wl_keyboard v7
        /// requires MAP_PRIVATE for keymaps).
        case privateReadOnly
    }

    /// Maps `byteCount` bytes of `fd` from offset 0; release with `unmap`.
    static func map(_ fd: FileDescriptor, byteCount: Int, _ mapping: Mapping) throws(SystemCallError) -> UnsafeMutableRawPointer {
        let (protection, flags) = switch mapping {
        case .sharedReadWrite: (PROT_READ | PROT_WRITE, MAP_SHARED)
        case .privateReadOnly: (PROT_READ, MAP_PRIVATE)
        }
        guard let base = mmap(nil, byteCount, protection, flags, fd.rawValue, 0), base != MAP_FAILED else {
            throw SystemCallError(call: "mmap(\(byteCount) bytes)", errno: .lastCall)
        }
        return base
    }

    /// Releases a mapping made by `map`.
    static func unmap(_ base: UnsafeMutableRawPointer, byteCount: Int) {
        munmap(base, byteCount)
    }

    /// 23: `MADV_POPULATE_WRITE` (Linux 5.14, <linux/mman.h>), spelled out for C libraries
    /// whose headers predate it.
    static let populateWrite: Int32 = 23

    /// Faults every page of a shared mapping in, writable, without changing its bytes
    /// (`madvise(MADV_POPULATE_WRITE)`); false when the kernel cannot (before 5.14), and the
    /// pages then fault in when first written, as without it.
    @discardableResult
    static func populateForWriting(_ base: UnsafeMutableRawPointer, byteCount: Int) -> Bool {
        madvise(base, byteCount, populateWrite) == 0
    }

    /// A non-blocking, close-on-exec eventfd with a count of 0.
    static func eventFile() throws(SystemCallError) -> FileDescriptor {
        let fd = sk_eventfd()
        guard fd >= 0 else { throw SystemCallError(call: "eventfd", errno: .lastCall) }
        return FileDescriptor(rawValue: fd)
    }

    /// Milliseconds on CLOCK_MONOTONIC (which cannot fail for this clock).
    static func monotonicMilliseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
    }
}
