// Raw file-descriptor I/O (the only byte-buffer pointers outside the C wrappers): whole
// writes that survive EINTR and partial writes, and chunked reads of standard input.
import Glibc

/// Writes all of `bytes` to `fd`; returns false (errno set) when the descriptor fails.
@discardableResult
func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        offset += n
    }
    return true
}

/// Writes `text` and a newline to a file descriptor in one call, unbuffered, so a test
/// reading a pipe sees the line at once.
func writeLine(_ text: String, to fd: Int32) {
    writeAll(Array((text + "\n").utf8), to: fd)
}

/// Reads what is available from `fd`, at most `limit` bytes: an empty array at end of
/// file, nil on error (errno set; EINTR and EAGAIN are the caller's to retry).
func readAvailable(from fd: Int32, limit: Int) -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: limit)
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n >= 0 else { return nil }
    return Array(chunk[0..<n])
}
