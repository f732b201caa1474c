// Finds the package's folders and built programs from a test file's #filePath, so tests can
// read fixture files and run the real executables without copying resources.
import Foundation

/// Locations in the package checkout and its build folders.
public enum PackagePaths {
    /// The package root (the folder holding Package.swift) above `filePath`.
    public static func packageRoot(from filePath: String = #filePath) -> URL {
        var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        preconditionFailure("no Package.swift above \(filePath)")
    }

    /// The folder holding the running test binary: SwiftPM puts the package's executables
    /// beside it (`<scratch>/debug/`), whatever `--scratch-path` was used.
    public static var testBinaryFolder: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // On Linux the test binary is `<name>.xctest`; elsewhere it may sit inside a bundle.
        while url.path != "/" {
            url.deleteLastPathComponent()
            if !url.path.hasSuffix(".xctest") && !url.path.contains(".xctest/") { return url }
        }
        return url
    }

    /// The built executable `name` from the same build as the running tests, or nil when it
    /// was not built there. Falls back to the newest `.build*/debug/name` in the package.
    public static func builtExecutable(_ name: String, filePath: String = #filePath) -> URL? {
        let fm = FileManager.default
        let beside = testBinaryFolder.appendingPathComponent(name)
        if fm.isExecutableFile(atPath: beside.path) { return beside }
        let root = packageRoot(from: filePath)
        let scratchFolders = (try? fm.contentsOfDirectory(atPath: root.path))?.filter { $0.hasPrefix(".build") } ?? []
        let candidates = scratchFolders.map { root.appendingPathComponent($0).appendingPathComponent("debug").appendingPathComponent(name) }
            .filter { fm.isExecutableFile(atPath: $0.path) }
        func modified(_ url: URL) -> Date {
            ((try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
        }
        return candidates.max { modified($0) < modified($1) }
    }
}

/// The result of running a program to completion.
public struct ProcessResult: Sendable {
    /// Exit status (or the terminating signal number when killed by a signal).
    public var status: Int32
    /// Everything written to standard output, decoded as UTF-8.
    public var stdout: String
    /// Everything written to standard output, as bytes (screenshots, pictures).
    public var stdoutData: Data
    /// Everything written to standard error, decoded as UTF-8.
    public var stderr: String
}

/// Runs `executable` with `arguments` (in `environment`, or this process's when nil) and
/// waits for it, collecting both output streams; standard output goes to `standardOutput`
/// instead when given (a file, /dev/full), and is then collected empty.
public func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                       standardOutput: FileHandle? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = standardOutput ?? out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    if standardOutput != nil { try? out.fileHandleForWriting.close() }
    // Drain both pipes concurrently with the child so a full pipe cannot deadlock it.
    let errData = LockedBox<Data>(Data())
    let errReader = err.fileHandleForReading
    let errDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        errData.value = errReader.readDataToEndOfFile()
        errDone.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    errDone.wait()
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stdoutData: outData, stderr: String(decoding: errData.value, as: UTF8.self))
}

/// A value shared with another thread under a lock.
private final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
