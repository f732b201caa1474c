// Writing to standard output and standard error with write(2): a full disk or a closed pipe is
// an error value the caller decides about, never a trap (Foundation's FileHandle.write(_:)
// traps on both).
import Glibc
import SystemPackage

/// A failed write: the system's errno.
public typealias OutputError = Errno

/// Raw writes to a descriptor.
public enum Descriptor {
    /// Writes every byte of `bytes` to descriptor number `fd` (STDOUT_FILENO, say): see
    /// `FileDescriptor.writeAllWaiting`.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(OutputError) {
        try FileDescriptor(rawValue: fd).writeAllWaiting(bytes)
    }
}

extension FileDescriptor {
    /// Writes every byte of `bytes`, again after a partial write or EINTR; throws the first
    /// error. A descriptor in non-blocking mode that is full waits in `poll` for room
    /// (swift-system's `writeAll` would throw EAGAIN).
    package func writeAllWaiting(_ bytes: [UInt8]) throws(OutputError) {
        var written = 0
        while written < bytes.count {
            do {
                written += try SystemCalls.typed {
                    try bytes.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[written...])) }
                }
            } catch .resourceTemporarilyUnavailable {
                var waiting = [SystemCalls.PollRequest(rawValue, events: SystemCalls.writable)]
                _ = try? SystemCalls.poll(&waiting, timeout: -1)
            }
        }
    }
}

/// One-line messages on standard error (warnings, errors, `--stats` lines).
public enum Diagnostics {
    /// Writes `text` and a newline to standard error, control characters escaped
    /// (`TerminalText.escaped`). Returns false when standard error cannot take it (a closed
    /// pipe, a full disk): diagnostics are then dropped, and the program goes on.
    @discardableResult
    public static func line(_ text: String) -> Bool {
        (try? Descriptor.writeAll(Array((TerminalText.escaped(text) + "\n").utf8), to: STDERR_FILENO)) != nil
    }

    /// Writes multi-line `text` (a usage text, a compositor's log) to standard error: each
    /// line escaped as `line(_:)` escapes it, the line breaks kept. Returns false when
    /// standard error cannot take it.
    @discardableResult
    public static func lines(_ text: String) -> Bool {
        let escaped = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.escaped(String($0)) }.joined(separator: "\n")
        return (try? Descriptor.writeAll(Array((escaped + "\n").utf8), to: STDERR_FILENO)) != nil
    }

    /// Ignores SIGPIPE (a write to a closed pipe or socket then fails with EPIPE, which the
    /// writers above report, instead of killing the process) and SIGXFSZ (a write past the file
    /// size limit fails with EFBIG instead): how a program that must keep running (the viewer)
    /// or report failed output (the tools) wants them.
    public static func ignoreOutputSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }
}

/// Lines gathered into large writes to a descriptor (a replay's output, which can be millions
/// of lines). After the first failed write nothing more is written and `failure` says why.
public final class BufferedOutput {
    /// The descriptor written to.
    public let fd: Int32
    /// The first failed write, after which the output is closed to further lines.
    public private(set) var failure: OutputError?
    /// Bytes handed to `write` so far (written or waiting in the buffer).
    public private(set) var byteCount = 0
    private var buffer: [UInt8] = []
    private let flushThreshold = 1 << 16

    /// Buffers writes to `fd` (standard output by default).
    public init(fd: Int32 = STDOUT_FILENO) {
        self.fd = fd
        buffer.reserveCapacity(flushThreshold + 512)
    }

    /// Adds `line` and a newline; writes the buffer out once it holds 64 KiB. Returns false
    /// once the output has failed.
    @discardableResult
    public func write(line: String) -> Bool {
        guard failure == nil else { return false }
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        byteCount += line.utf8.count + 1
        if buffer.count >= flushThreshold { flush() }
        return failure == nil
    }

    /// Writes out whatever is buffered. Returns false once the output has failed.
    @discardableResult
    public func flush() -> Bool {
        guard failure == nil else { return false }
        guard !buffer.isEmpty else { return true }
        defer { buffer.removeAll(keepingCapacity: true) }
        do {
            try Descriptor.writeAll(buffer, to: fd)
        } catch {
            failure = error
        }
        return failure == nil
    }
}
