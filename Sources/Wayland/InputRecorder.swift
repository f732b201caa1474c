// Writes a live session's input to a trace file that scroll-replay reproduces: the setup
// line when the first event arrives (the window is laid out by then), then one line per event.
import Foundation
import SafeOutput
import ScrollKit
// Recording's public API (`Application.record(to:setup:)`) takes the trace format's
// `TraceSetupDescription`, so code that imports Wayland sees it without another import.
import TraceFormat

/// Why a recording could not be written; `description` is the one-line message users see.
public enum RecordingError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The trace file could not be created; `reason` is the errno text.
    case cannotOpen(path: String, reason: String)
    /// Something is at the path already and replacing it was not asked for.
    case exists(path: String)
    /// The path is a symbolic link (never followed) or not a regular file (a FIFO, a device).
    case notAFile(path: String, reason: String)
    /// Writing failed part-way (disk full, file system gone); recording stops there.
    case writeFailed(path: String, reason: String)
    /// The scene has no scroll view to describe in the setup line, and none was given.
    case noScrollView

    /// The one-line message, naming the file and the reason.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "--record: cannot create the trace file \(path): \(reason)"
        case .exists(let path):
            return "--record: \(path) already exists; name a new file, or add --force to replace it"
        case .notAFile(let path, let reason):
            return "--record: \(path) \(reason); a recording is written to a regular file only"
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

    private let file: OutputFile
    private var formatter = TraceLineFormatter()
    private let describe: () -> TraceSetupDescription
    /// The viewport for a setup description without one (the window's size); the
    /// application that records sets it.
    public var windowSize: () -> CGSize
    private var wroteSetup = false

    /// Creates the file at `path` (see `OutputFile`: a new file, or with `replacing` an
    /// existing regular file emptied; never through a symbolic link, never a FIFO or device)
    /// and writes its first line. `setup` is asked for the scroll view's description when the
    /// first event arrives; `windowSize` gives the viewport when the description has none.
    /// Throws `RecordingError` naming the file when it cannot be created or that first line
    /// cannot be written (a full disk): a recording that cannot be written fails at once.
    public init(path: String, replacing: Bool = false, setup: @escaping () -> TraceSetupDescription,
                windowSize: @escaping () -> CGSize = { .zero }) throws(RecordingError) {
        do {
            file = try OutputFile(creating: path, replacing: replacing)
        } catch {
            switch error.reason {
            case .exists: throw .exists(path: path)
            case .symbolicLink: throw .notAFile(path: path, reason: "is a symbolic link (never followed)")
            case .notRegularFile: throw .notAFile(path: path, reason: "is not a regular file")
            case .system(let errno): throw .cannotOpen(path: path, reason: errno.description)
            }
        }
        self.path = path
        self.describe = setup
        self.windowSize = windowSize
        write("# ScrollKit input recording: replay it with `scroll-replay \(path.replacingOccurrences(of: "\n", with: " "))`")
        if let failure {
            // Nothing of the session can be kept: leave no empty file behind.
            file.unlink()
            throw failure
        }
    }

    /// Removes the file, for a session that ends before it began (the compositor could not be
    /// reached): no empty recording is left behind.
    public func discard() {
        failure = failure ?? .writeFailed(path: path, reason: "discarded")
        file.unlink()
    }

    /// Whether the scene reports what each key did through `record(_:at:)` (a method call, a
    /// key it handed to a nested scroll view, or the key itself), so key events from the seat
    /// are not written again: an app whose keys are its own commands (the gallery's) records
    /// their effect, which a replay can reproduce.
    public var sceneReportsKeys = false

    /// Input frames written so far: each frame's lines carry its number, so a replay delivers
    /// them together as the seat did.
    private var frames = 0

    /// Writes the events of one input frame (and the setup line before the first one).
    public func record(frame events: [InputEvent]) {
        let kept = sceneReportsKeys ? events.filter { if case .key = $0.kind { false } else { true } } : events
        guard !kept.isEmpty else { return }
        writeSetupIfNeeded()
        frames += 1
        for event in kept { write(formatter.line(for: event, frame: frames)) }
    }

    /// Writes `event`, a frame of its own.
    public func record(_ event: InputEvent) {
        record(frame: [event])
    }

    /// Writes what the app did at `time` (the events' clock, ms): a method call, a nested
    /// view's new content, or a key (see `TraceLineFormatter.line(for:at:)`).
    public func record(_ action: TraceAction, at time: Double) {
        writeSetupIfNeeded()
        write(formatter.line(for: action, at: time))
    }

    /// Writes the setup line if no event came, so even an empty session is a valid trace,
    /// then a comment saying where the scroll view rests now (`TraceLineFormatter.endComment`).
    public func finish() {
        writeSetupIfNeeded()
        write(TraceLineFormatter.endComment(describe()))
        try? file.synchronize()
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
            try file.write(Array((line + "\n").utf8))
            linesWritten += 1
        } catch {
            let problem = RecordingError.writeFailed(path: path, reason: error.description)
            failure = problem
            onFailure?(problem)
        }
    }
}
