// Pixel memory shared with the compositor: a memfd of a fixed size, sealed against resizing
// and mapped read-write. The only file holding that memory's raw pointer and descriptor.
import Dispatch
import Synchronization
import SystemPackage

/// A sealed anonymous file of `byteCount` bytes, mapped for drawing.
///
/// The compositor maps the same file to read the pixels. Were the file shrunk later, its reads
/// past the new end would fault (SIGBUS): the size is sealed (F_SEAL_SHRINK, F_SEAL_GROW and
/// F_SEAL_SEAL, as foot and smithay-client-toolkit do), so neither side can change it.
final class SharedMemory {
    /// The mapping, shared with the thread that faults its pages in (`prefaultInBackground`),
    /// which so keeps it mapped until it is done. Immutable but for `faultedIn`, behind its
    /// lock; unmapped in `deinit` only.
    private final class Mapping: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let byteCount: Int
        /// Set once `prefaultInBackground` has faulted every page in.
        let faultedIn = Mutex(false)

        init(base: UnsafeMutableRawPointer, byteCount: Int) {
            self.base = base
            self.byteCount = byteCount
        }

        deinit { SystemCalls.unmap(base, byteCount: byteCount) }
    }

    private let mapping: Mapping
    /// The mapped bytes; valid until `deinit`.
    var base: UnsafeMutableRawPointer { mapping.base }
    /// Size of the file and the mapping, in bytes.
    var byteCount: Int { mapping.byteCount }
    /// The file, open until `closeFile()`: the compositor gets its own copy with
    /// `wl_shm.create_pool`, after which this one is not needed.
    private(set) var file: FileDescriptor?

    /// Creates, sizes, seals and maps the file; throws naming the call that failed.
    init(name: String, byteCount: Int) throws(SystemCallError) {
        let file = try SystemCalls.memoryFile(name: name)
        do throws(SystemCallError) {
            do {
                try file.resize(to: Int64(byteCount))
            } catch {
                throw SystemCallError(call: "ftruncate(\(byteCount) bytes)", errno: error as? Errno ?? .ioError)
            }
            // A kernel without sealing (before 3.17) has no memfd_create either: this does not fail
            // in practice; were it to, the buffer would still work, unprotected, as in foot.
            try? SystemCalls.sealSize(file)
            mapping = Mapping(base: try SystemCalls.map(file, byteCount: byteCount, .sharedReadWrite), byteCount: byteCount)
        } catch {
            try? file.close()
            throw error
        }
        self.file = file
    }

    deinit {
        closeFile()
    }

    /// A serial queue: its thread comes from libdispatch's overcommit pool, which, unlike the
    /// global queues, starts no once-a-second pool monitor (idle must cost nothing).
    private static let prefaulting = DispatchQueue(label: "scrollkit.buffer-prefault", qos: .userInitiated)

    /// Faults the pages in on another thread, so that the first frame drawn into them does not
    /// (a 3840×2160 buffer is 8,100 pages: drawing the first frame into a new one took 17–30 ms
    /// against 8–9 ms for the frames after it, measured with bench-fling's zoom at 4K). The
    /// pixels are not changed, so drawing may begin before it is done; it is only slower then.
    /// `done` runs on that thread once the pages are in (`pagesAreIn`).
    func prefaultInBackground(then done: (@Sendable () -> Void)? = nil) {
        let mapping = self.mapping
        Self.prefaulting.async {
            SystemCalls.populateForWriting(mapping.base, byteCount: mapping.byteCount)
            mapping.faultedIn.withLock { $0 = true }
            done?()
        }
    }

    /// Whether `prefaultInBackground` has faulted every page in.
    var pagesAreIn: Bool { mapping.faultedIn.withLock { $0 } }

    /// Closes the file; the mapping stays.
    func closeFile() {
        try? file?.close()
        file = nil
    }
}
