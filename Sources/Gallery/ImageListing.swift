// Turning the command line's paths into the gallery's pages: files as given, folders listed in
// natural order with non-images skipped, and the bundled Assets/ when no path is given.
import Foundation

/// The list of files a gallery shows, and the problems met while making it.
public struct ImageListing: Sendable, Equatable {
    /// Files to show, in order; each becomes a page (a bad one shows an error card).
    public var files: [String]
    /// One line per path that could not be listed ("photos: cannot list: Permission denied").
    public var problems: [String]

    /// Creates a listing.
    public init(files: [String], problems: [String] = []) {
        self.files = files
        self.problems = problems
    }

    /// File name extensions taken as images when listing a folder, lower case. PNG and the
    /// JPEG family are what `Pictures` decodes.
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "jfif"]

    /// 8 bytes: enough to recognise the PNG signature (the longest one checked).
    static let sniffLength = 8

    /// Lists `paths` in the order given. A file is kept whatever it holds, since the user named
    /// it (a bad one gets its error card); so is a path that does not exist, which then
    /// shows "cannot read". A folder contributes its image files, sorted in natural order
    /// ("img2" before "img10"), not recursing into subfolders; a file in a folder counts as an
    /// image when its extension is one of `imageExtensions` or its first bytes are a PNG or
    /// JPEG signature. Hidden files (leading dot) are skipped in folders.
    public static func list(_ paths: [String], fileManager: FileManager = .default) -> ImageListing {
        var listing = ImageListing(files: [])
        for path in paths {
            var isFolder: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                listing.files.append(path)
                continue
            }
            let names: [String]
            do {
                names = try fileManager.contentsOfDirectory(atPath: path)
            } catch {
                listing.problems.append("\(path): cannot list: \(reason(of: error))")
                continue
            }
            let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
            var images: [String] = []
            for name in names where !name.hasPrefix(".") {
                let full = folder.isEmpty ? "/" + name : folder + "/" + name
                var isSubfolder: ObjCBool = false
                guard fileManager.fileExists(atPath: full, isDirectory: &isSubfolder), !isSubfolder.boolValue else { continue }
                if isImage(name: name, path: full) { images.append(name) }
            }
            images.sort { NaturalOrder.precedes($0, $1) }
            listing.files.append(contentsOf: images.map { folder.isEmpty ? "/" + $0 : folder + "/" + $0 })
        }
        return listing
    }

    /// Whether a folder entry is shown: by extension, or else by its first bytes.
    static func isImage(name: String, path: String) -> Bool {
        if let dot = name.lastIndex(of: "."), imageExtensions.contains(name[name.index(after: dot)...].lowercased()) {
            return true
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: sniffLength)).map { [UInt8]($0) } ?? []
        return hasImageSignature(head)
    }

    /// PNG's 8-byte signature or JPEG's SOI plus a marker byte (the same signatures
    /// `Pictures.ImageFormat` sniffs).
    static func hasImageSignature(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) || head.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// The system's reason ("Permission denied") for a failed folder listing.
    static func reason(of error: Error) -> String {
        let ns = error as NSError
        let posix = (ns.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? $0 : nil }
        var text = (posix ?? ns).localizedDescription
        // Foundation prefixes the system's message with a generic sentence; the message alone
        // is what a user needs.
        if let range = text.range(of: "could not be completed. ") { text = String(text[range.upperBound...]) }
        return text
    }
}

/// Natural ordering of file names: digit runs compare by value, everything else by character
/// without regard to case, so "img2.png" sorts before "img10.png" (what file managers show).
public enum NaturalOrder {
    /// Whether `a` sorts before `b`. Ties between equal-valued digit runs ("img007" and
    /// "img7") and between names equal but for case are broken by a plain comparison, so the
    /// order is total and stable from run to run.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        let x = chunks(a), y = chunks(b)
        for (p, q) in zip(x, y) where p != q {
            switch (p, q) {
            case (.number(let m, _), .number(let n, _)):
                if m != n { return m.count != n.count ? m.count < n.count : m < n }
            case (.number, .text):
                return true
            case (.text, .number):
                return false
            case (.text(let s), .text(let t)):
                let ls = s.lowercased(), lt = t.lowercased()
                if ls != lt { return ls < lt }
            }
        }
        if x.count != y.count { return x.count < y.count }
        return a < b
    }

    /// A run of digits (value as its digits without leading zeros, and the original text) or
    /// of other characters.
    enum Chunk: Equatable {
        case number(String, String)
        case text(String)
    }

    static func chunks(_ s: String) -> [Chunk] {
        var result: [Chunk] = []
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            if inDigits {
                // Comparing digit strings without leading zeros by length, then lexically,
                // compares their values with no overflow however long the run is.
                let trimmed = current.drop { $0 == "0" }
                result.append(.number(trimmed.isEmpty ? "0" : String(trimmed), current))
            } else {
                result.append(.text(current))
            }
            current = ""
        }
        for c in s {
            let digit = c.isASCII && c.isNumber
            if digit != inDigits { flush(); inDigits = digit }
            current.append(c)
        }
        flush()
        return result
    }
}

/// Where the bundled demo pictures are.
public enum BundledAssets {
    /// The environment variable that overrides the search (a folder path).
    public static let environmentVariable = "SCROLLKIT_ASSETS"

    /// The folder of bundled pictures: `$SCROLLKIT_ASSETS` if set; else `Assets/` beside the
    /// `Package.swift` found by walking up from the executable (a build inside the checkout,
    /// `.build/<config>/image-viewer`); else the installed copy, `../share/scrollkit/Assets`
    /// relative to the executable's folder (`/usr/local/bin` → `/usr/local/share/…`). Nil
    /// when none exists.
    public static func folder(executablePath: String = CommandLine.arguments.first ?? "",
                              environment: [String: String] = ProcessInfo.processInfo.environment,
                              fileManager: FileManager = .default) -> String? {
        func isFolder(_ path: String) -> Bool {
            var folder: ObjCBool = false
            return fileManager.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
        }
        if let override = environment[environmentVariable], !override.isEmpty {
            return isFolder(override) ? override : nil
        }
        var executable = URL(fileURLWithPath: executablePath)
        if !executablePath.contains("/") {
            // Started through $PATH: find which file that was.
            for dir in (environment["PATH"] ?? "").split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(executablePath)
                if fileManager.isExecutableFile(atPath: candidate.path) { executable = candidate; break }
            }
        }
        executable = executable.resolvingSymlinksInPath()
        var dir = executable.deletingLastPathComponent()
        while dir.path != "/" && !dir.path.isEmpty {
            if fileManager.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                let assets = dir.appendingPathComponent("Assets").path
                if isFolder(assets) { return assets }
            }
            dir.deleteLastPathComponent()
        }
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/scrollkit/Assets").path
        return isFolder(installed) ? installed : nil
    }
}
