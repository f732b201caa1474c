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
    /// beside it (`<scratch>/debug/`, or `release/` as Scripts/test.sh builds), whatever `--scratch-path` was used.
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
