// What `image-viewer -` reads from standard input: a list of paths, one per line or separated by
// NUL bytes (as `find` and `find -print0` write them), or one picture's bytes.
import Glibc
import Pictures
import SafeOutput
import SystemPackage

/// Standard input as the gallery takes it.
public enum StandardInput {
    /// What standard input held.
    public enum Content: Equatable, Sendable {
        /// Paths to list as if named on the command line, in order.
        case paths([RawPath])
        /// A picture, copied into this file (named "stdin", so messages call it that).
        case picture(String)
    }

    /// 4096 bytes: PATH_MAX, the longest path Linux opens; a longer line is left out.
    public static let maxLineBytes = Int(PATH_MAX)
    /// 64 MiB of list: about 600 000 paths of 100 bytes; the rest is not read (decision: a
    /// runaway pipe, say `yes`, cannot fill the memory).
    public static let maxListBytes = 64 << 20
    /// 20: at most this many problem lines about one list; the rest are counted (a binary
    /// fed as a list would otherwise print thousands).
    public static let maxProblemLines = 20
    /// How many bytes are looked at to tell a picture from a list.
    static let sniffBytes = 64 << 10

    /// Reads `fd` to its end (or its limit). When its first bytes are a picture's signature
    /// the picture is copied into a file `stdin` in `folder` (made when needed), refused past
    /// `maxPictureBytes`; otherwise the bytes are a list of paths separated by `separator`
    /// (newline, or NUL for `-0`), read up to `maxListBytes`. Problems (a line too long, a
    /// NUL inside a line, input that cannot be read) are appended to `problems`, naming the line.
    public static func read(fd: Int32, separator: UInt8, maxPictureBytes: Int = DecodeLimits.standard.maxFileBytes,
                            maxListBytes: Int = StandardInput.maxListBytes,
                            folder: () -> String?, problems: inout [String]) -> Content {
        let fd = FileDescriptor(rawValue: fd)
        var head: [UInt8] = []
        let headDone = readChunks(fd, limit: sniffBytes) { head.append(contentsOf: $0) }
        if case .failure(let error) = headDone {
            problems.append("stdin: cannot read: \(error)")
            return .paths([])
        }
        if ImageListing.hasImageSignature(Array(head.prefix(ImageListing.sniffLength))) {
            return copyPicture(fd, head: head, limit: maxPictureBytes, folder: folder, problems: &problems)
        }
        var bytes = head
        if head.count == sniffBytes {
            let rest = readChunks(fd, limit: maxListBytes - head.count) { bytes.append(contentsOf: $0) }
            switch rest {
            case .failure(let error): problems.append("stdin: cannot read past byte \(bytes.count): \(error)")
            case .success(let ended) where !ended:
                problems.append("stdin: the list is longer than \(maxListBytes) bytes; the rest is ignored")
                // The last entry was cut: it names no file the user meant.
                bytes.removeSubrange((bytes.lastIndex(of: separator) ?? bytes.startIndex)...)
            default: break
            }
        }
        return .paths(paths(in: bytes, separator: separator, problems: &problems))
    }

    /// The paths of a list: empty entries skipped, entries longer than `maxLineBytes` or
    /// holding a NUL (in a newline-separated list) left out with a problem line naming them
    /// by number.
    public static func paths(in bytes: [UInt8], separator: UInt8, problems: inout [String]) -> [RawPath] {
        let what = separator == 0 ? "entry" : "line"
        var found: [RawPath] = []
        var reported = 0, unreported = 0
        func problem(_ text: String) {
            if reported < maxProblemLines { problems.append(text); reported += 1 } else { unreported += 1 }
        }
        for (number, entry) in bytes.split(separator: separator, omittingEmptySubsequences: false).enumerated() {
            if entry.isEmpty { continue }
            if entry.count > maxLineBytes {
                problem("stdin \(what) \(number + 1): \(entry.count) bytes, longer than a path can be (\(maxLineBytes)), left out")
            } else if entry.contains(0) {
                problem("stdin \(what) \(number + 1): holds a NUL byte, which no path can (for NUL-separated paths give -0), left out")
            } else {
                found.append(RawPath(bytes: Array(entry)))
            }
        }
        if unreported > 0 { problems.append("stdin: \(unreported) more entries left out") }
        return found
    }

    private static func copyPicture(_ fd: FileDescriptor, head: [UInt8], limit: Int, folder: () -> String?,
                                    problems: inout [String]) -> Content {
        guard let folder = folder() else {
            problems.append("stdin: no private folder for the picture could be made")
            return .paths([])
        }
        let path = folder + "/stdin"
        let file: OutputFile
        do {
            file = try OutputFile(creating: path, mode: 0o600)
        } catch {
            problems.append("stdin: \(error)")
            return .paths([])
        }
        var written = 0
        var failure: String?
        func write(_ chunk: ArraySlice<UInt8>) -> Bool {
            do {
                try file.write(Array(chunk))
                written += chunk.count
                return true
            } catch {
                failure = "stdin: writing \(path) failed: \(error)"
                return false
            }
        }
        if head.count > limit {
            failure = "stdin: the picture is larger than \(limit) bytes, not shown"
        } else if write(head[...]), head.count == sniffBytes {
            // One byte past the limit tells a picture that is too large.
            let rest = readChunks(fd, limit: limit - written + 1) { chunk in _ = write(chunk[...]) }
            if case .failure(let error) = rest { failure = "stdin: cannot read past byte \(written): \(error)" }
            if written > limit { failure = "stdin: the picture is larger than \(limit) bytes, not shown" }
        }
        if let failure {
            file.unlink()
            problems.append(failure)
            return .paths([])
        }
        return .picture(path)
    }

    /// Reads `fd` in chunks until its end or `limit` bytes; true when it ended first.
    private static func readChunks(_ fd: FileDescriptor, limit: Int, _ take: ([UInt8]) -> Void) -> Result<Bool, Errno> {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while total < limit {
            let want = min(buffer.count, limit - total)
            let n: Int
            do {
                n = try SystemCalls.typed { try buffer.withUnsafeMutableBytes { try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) } }
            } catch {
                return .failure(error)
            }
            if n == 0 { return .success(true) }
            take(Array(buffer.prefix(n)))
            total += n
        }
        return .success(false)
    }
}
