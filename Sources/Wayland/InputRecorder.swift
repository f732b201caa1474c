// Writes a live session's input to a trace file that scroll-replay reproduces: the setup
// line when the first event arrives (the window is laid out by then), then one line per event.
import Foundation
import Glibc
import ScrollKit
// Recording's public API (`Application.record(to:setup:)`) takes the trace format's
// `TraceSetupDescription`, so code that imports Wayland sees it without another import.
import TraceFormat

/// Why a recording could not be written; `description` is the one-line message users see.
public enum RecordingError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The trace file could not be created; `reason` is the errno text.
    case cannotOpen(path: String, reason: String)
    /// Writing failed part-way (disk full, file system gone); recording stops there.
    case writeFailed(path: String, reason: String)
    /// The scene has no scroll view to describe in the setup line, and none was given.
    case noScrollView

    /// The one-line message, naming the file and the reason.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "--record: cannot create the trace file \(path): \(reason)"
        case .writeFailed(let path, let reason):
            return "--record: writing the trace file \(path) failed, the recording stops here: \(reason)"
        case .noScrollView:
            return "--record: the window shows no scroll view, so there is nothing for a trace's setup line to describe"
        }
    }

    /// The same line, for code that prints `localizedDescription`.
    public var errorDescription: String? { description }
}

/// Records every `InputEvent` it is given into a trace file, line by line as they happen,
/// so a session that is killed still leaves a replayable file.
public final class InputRecorder {
    /// The trace file.
    public let path: String
    /// The first write error, after which nothing more is written.
    public private(set) var failure: RecordingError?
    /// Lines written so far, the setup line included.
    public private(set) var linesWritten = 0
    /// Called once with the write error (the application prints it; input goes on).
    public var onFailure: ((RecordingError) -> Void)?

    private let handle: FileHandle
    private var formatter = TraceLineFormatter()
    private let describe: () -> TraceSetupDescription
    private let windowSize: () -> CGSize
    private var wroteSetup = false

    /// Creates (or truncates) the file at `path`. `setup` is asked for the scroll view's
    /// description when the first event arrives; `windowSize` gives the viewport when the
    /// description has none. Throws `RecordingError.cannotOpen` naming the file.
    public init(path: String, setup: @escaping () -> TraceSetupDescription,
                windowSize: @escaping () -> CGSize) throws(RecordingError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        self.handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        self.describe = setup
        self.windowSize = windowSize
        write("# ScrollKit input recording: replay it with `scroll-replay \(path.replacingOccurrences(of: "\n", with: " "))`")
    }

    /// Writes `event` (and the setup line before the first one).
    public func record(_ event: InputEvent) {
        writeSetupIfNeeded()
        write(formatter.line(for: event))
    }

    /// Writes the setup line if no event came, so even an empty session is a valid trace,
    /// then a comment saying where the scroll view rests now (`TraceLineFormatter.endComment`).
    public func finish() {
        writeSetupIfNeeded()
        write(TraceLineFormatter.endComment(describe()))
        try? handle.synchronize()
    }

    private func writeSetupIfNeeded() {
        guard !wroteSetup else { return }
        wroteSetup = true
        let setup = describe()
        formatter.origin = setup.origin
        write(TraceLineFormatter.setupLine(setup, viewport: setup.viewport ?? windowSize()))
    }

    private func write(_ line: String) {
        guard failure == nil else { return }
        do {
            try handle.write(contentsOf: Data((line + "\n").utf8))
            linesWritten += 1
        } catch {
            let problem = RecordingError.writeFailed(path: path, reason: error.localizedDescription)
            failure = problem
            onFailure?(problem)
        }
    }
}
