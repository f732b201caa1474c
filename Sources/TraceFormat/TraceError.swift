// Why a trace was rejected: the file, the line and the problem, in the compiler style editors understand.

/// A trace that cannot be replayed (malformed, too large, or beyond the limits).
/// `scroll-replay` prints it on standard error and exits with status 2.
public struct TraceError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The trace file's name as given by the user, or nil for an in-memory trace.
    public var file: String?
    /// 1-based line number, or nil when the problem is the whole file (too big, empty).
    public var line: Int?
    /// What is wrong, naming the field or value at fault.
    public var message: String

    /// Creates an error for `line` of `file`.
    public init(file: String? = nil, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, the form compilers use, so editors can jump to the line.
    public var description: String {
        var location = file ?? "<trace>"
        if let line { location += ":\(line)" }
        return "\(location): \(message)"
    }
}
