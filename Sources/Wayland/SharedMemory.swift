// Pixel memory shared with the compositor: a memfd of a fixed size, sealed against resizing
// and mapped read-write. The only file holding that memory's raw pointer and descriptor.
import SystemPackage

/// A sealed anonymous file of `byteCount` bytes, mapped for drawing.
///
/// The compositor maps the same file to read the pixels. Were the file shrunk later, its reads
/// past the new end would fault (SIGBUS): the size is sealed (F_SEAL_SHRINK, F_SEAL_GROW and
/// F_SEAL_SEAL, as foot and smithay-client-toolkit do), so neither side can change it.
final class SharedMemory {
    /// The mapped bytes; valid until `deinit`.
    let base: UnsafeMutableRawPointer
    /// Size of the file and the mapping, in bytes.
    let byteCount: Int
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
            base = try SystemCalls.map(file, byteCount: byteCount, .sharedReadWrite)
        } catch {
            try? file.close()
            throw error
        }
        self.byteCount = byteCount
        self.file = file
    }

    deinit {
        SystemCalls.unmap(base, byteCount: byteCount)
        closeFile()
    }

    /// Closes the file; the mapping stays.
    func closeFile() {
        try? file?.close()
        file = nil
    }
}
