// The kernel's notices of changes in folders (inotify(7)), through Glibc's inotify_init1 and
// inotify_add_watch (swift-system wraps neither), and the poll that waits for them: the one file
// of the folder watcher that holds descriptors and reads the kernel's event records.
import Glibc
import SafeOutput
import SystemPackage

/// An inotify instance and a pipe that ends its wait, for one thread to wait on.
///
/// The watching thread calls `wait`, `events`, `addWatch` and `removeWatch`; any thread may
/// call `stop`. While nothing changes the thread sleeps in `poll` without a timeout: an idle
/// watch costs no wakeup.
final class Inotify: Sendable {
    /// One change the kernel reported.
    struct Event: Equatable, Sendable {
        /// The watch (folder) it happened in; −1 for a queue overflow.
        var watch: Int32
        /// `IN_*` bits.
        var mask: UInt32
        /// The name in the folder, empty for the folder itself.
        var name: [UInt8]
    }

    /// What one wait ended with.
    enum Wake: Equatable {
        /// Events are waiting.
        case events
        /// The timeout passed.
        case timeout
        /// `stop` was called.
        case stopped
    }

    /// The changes watched in a folder: files written and closed, created, changed in place,
    /// removed or renamed in and out; attributes (a file made readable); the folder itself
    /// removed or moved.
    static let folderMask: UInt32 = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_MODIFY | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
                                           | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    private let file: FileDescriptor
    private let stopReader: FileDescriptor
    private let stopWriter: FileDescriptor

    /// A new instance; throws the errno of `inotify_init1` (EMFILE past the per-user limit of
    /// instances) or `pipe2`.
    init() throws(Errno) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .lastCall }
        file = FileDescriptor(rawValue: fd)
        do {
            (stopReader, stopWriter) = try FileDescriptor.pipe(options: [.nonBlocking, .closeOnExec])
        } catch {
            try? file.close()
            throw error
        }
    }

    deinit {
        try? file.close()
        try? stopReader.close()
        try? stopWriter.close()
    }

    /// Watches `folder` for `folderMask`; the watch's number, or the errno (ENOSPC past
    /// fs.inotify.max_user_watches, ENOTDIR, EACCES).
    func addWatch(_ folder: RawPath) -> Result<Int32, Errno> {
        let watch = folder.withCString { inotify_add_watch(file.rawValue, $0, Inotify.folderMask) }
        return watch >= 0 ? .success(watch) : .failure(.lastCall)
    }

    /// Stops watching (the kernel answers with IN_IGNORED).
    func removeWatch(_ watch: Int32) {
        _ = inotify_rm_watch(file.rawValue, watch)
    }

    /// Ends a `wait` now or the next one (any thread).
    func stop() {
        // EAGAIN: the pipe is full of earlier stops, so the wait ends anyway (EINTR is retried).
        _ = try? stopWriter.writeAll([1])
    }

    /// Waits until events arrive, `timeout` ms pass (−1: no limit) or `stop` is called.
    func wait(timeout: Int32) -> Wake {
        var requests = [SystemCalls.PollRequest(file.rawValue, events: SystemCalls.readable),
                        SystemCalls.PollRequest(stopReader.rawValue, events: SystemCalls.readable)]
        while true {
            do {
                try SystemCalls.poll(&requests, timeout: timeout)
            } catch .interrupted {
                continue
            } catch {
                // A failed poll (it cannot, with valid descriptors) ends the watch rather than spinning.
                return .stopped
            }
            if requests[1].returned != 0 { return .stopped }
            return requests[0].returned == 0 ? .timeout : .events
        }
    }

    /// 64 KiB: room for at least 240 events of the longest name (NAME_MAX 255 bytes, 16 of header).
    private static let bufferBytes = 1 << 16

    /// Every event waiting, in the kernel's order (without blocking).
    func events() -> [Event] {
        var result: [Event] = []
        var buffer = [UInt8](repeating: 0, count: Self.bufferBytes)
        let header = MemoryLayout<inotify_event>.size
        while true {
            // EAGAIN: nothing more waiting (EINTR is retried).
            guard let n = try? buffer.withUnsafeMutableBytes({ try file.read(into: $0) }), n > 0 else { return result }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset + header <= n {
                    let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let end = min(offset + header + length, n)
                    // The name is padded with NULs to a multiple of the record alignment.
                    let name = raw[(offset + header)..<end].prefix { $0 != 0 }
                    result.append(Event(watch: watch, mask: mask, name: Array(name)))
                    offset += header + length
                }
            }
        }
    }
}
