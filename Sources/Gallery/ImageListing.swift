// Turning the command line's paths into the gallery's pages: files as given, folders listed in
// natural order with non-images skipped, and the bundled Assets/ when no path is given.
import Foundation
import Pictures
import SafeOutput

/// The list of files a gallery shows, and the problems met while making it.
public struct ImageListing: Sendable, Equatable {
    /// Files to show, in order, as the kernel names them; each becomes a page (a bad one
    /// shows an error card).
    public var entries: [RawPath]
    /// One line per path that could not be listed or was left out ("photos: cannot list:
    /// Permission denied", "notes: not a regular file …").
    public var problems: [String]

    /// The entries as Strings: each path itself when it is UTF-8, else its escaped spelling
    /// (for display; such a file is opened through its `entries` bytes).
    public var files: [String] { entries.map { $0.string ?? $0.description } }

    /// The page to open on: the named file's when one file was given alone, else 0.
    public var start = 0
    /// The folders whose changes change this listing (for `FolderWatcher`): every folder
    /// listed, and the folders of the files named.
    public var watchedFolders: [RawPath] = []

    /// Creates a listing.
    public init(entries: [RawPath], problems: [String] = [], start: Int = 0, watchedFolders: [RawPath] = []) {
        self.entries = entries
        self.problems = problems
        self.start = start
        self.watchedFolders = watchedFolders
    }

    /// File name extensions taken as images when listing a folder, lower case: those of every
    /// format `Pictures` decodes.
    public static let imageExtensions: Set<String> = ImageFormat.fileExtensions

    /// Enough bytes for `ImageFormat.recognise` to tell every binary signature.
    static let sniffLength = ImageFormat.signatureLength

    /// Lists `paths` (see `list(raw:)`).
    public static func list(_ paths: [String]) -> ImageListing {
        list(raw: paths.map(RawPath.init))
    }

    /// Lists `paths` in the order given, as bytes, so names that are not UTF-8 are kept. A
    /// regular file is kept whatever it holds, since the user named it (a bad one gets its
    /// error card); so is a path that does not exist, which then shows "cannot read". A FIFO,
    /// device or socket is left out with a problem line: reading one can block forever. A
    /// folder contributes its regular files that are images, sorted in natural order ("img2"
    /// before "img10"), not recursing into subfolders; a file counts as an image when its
    /// extension is one of `imageExtensions` or its first bytes are a picture's signature.
    /// Hidden files (leading dot) are skipped in folders. Only folders are opened while
    /// listing, and files without an image extension for their first bytes, never blocking.
    /// `options` sort by time or size, reverse and recurse (see `ListingOptions`); one regular
    /// file named alone is shown among the pictures of its folder (see `ListingSource`).
    public static func list(raw paths: [RawPath], options: ListingOptions = ListingOptions()) -> ImageListing {
        ListingSource(paths: paths, options: options).list()
    }

    /// Whether a folder entry is shown: by extension, or else by its first bytes.
    static func isImage(name: [UInt8], path: RawPath) -> Bool {
        if let dot = name.lastIndex(of: UInt8(ascii: ".")),
           let ext = String(validating: name[(dot + 1)...], as: UTF8.self), imageExtensions.contains(ext.lowercased()) {
            return true
        }
        return hasImageSignature(path.head(sniffLength) ?? [])
    }

    /// A signature `Pictures.ImageFormat` recognises.
    static func hasImageSignature(_ head: [UInt8]) -> Bool { ImageFormat.recognise(head) != nil }
}

/// Natural ordering of file names: digit runs compare by value, everything else by character
/// without regard to case, so "img2.png" sorts before "img10.png" (what file managers show).
public enum NaturalOrder {
    /// Whether `a` sorts before `b`. Ties between equal-valued digit runs ("img007" and
    /// "img7") and between names equal but for case are broken by a plain comparison, so the
    /// order is total and stable from run to run.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        Key(a) < Key(b)
    }

    /// A name cut into chunks once, for sorting many names (`precedes` compares two keys).
    public struct Key: Comparable, Sendable {
        /// The chunks, text lower-cased once here rather than in every comparison.
        let chunks: [Chunk]
        let text: String

        /// The key of `text`.
        public init(_ text: String) {
            chunks = NaturalOrder.chunks(text).map { chunk in
                if case .text(let t) = chunk { return .text(t.lowercased()) }
                return chunk
            }
            self.text = text
        }

        /// Whether `x`'s name sorts before `y`'s (see `precedes`).
        public static func < (x: Key, y: Key) -> Bool {
            for (p, q) in zip(x.chunks, y.chunks) where p != q {
                switch (p, q) {
                case (.number(let m, _), .number(let n, _)):
                    if m != n { return m.count != n.count ? m.count < n.count : m < n }
                case (.number, .text):
                    return true
                case (.text, .number):
                    return false
                case (.text(let s), .text(let t)):
                    if s != t { return s < t }
                }
            }
            if x.chunks.count != y.chunks.count { return x.chunks.count < y.chunks.count }
            return x.text < y.text
        }

        /// Keys are equal when their names are.
        public static func == (x: Key, y: Key) -> Bool { x.text == y.text }
    }

    /// The bytes of a path (its components, each a file name) whose plain comparison orders
    /// paths as comparing their components' `Key`s one by one does, when every byte is
    /// printable ASCII (0x20–0x7E: what `TerminalText.escaped` leaves as it is); nil otherwise.
    ///
    /// Sorting a folder of thousands of names compares their keys tens of thousands of times;
    /// comparing bytes instead of `Key`'s chunks of `String`s is several times faster. Each
    /// component is written as its chunks, a digit run as 0x01, its length without leading
    /// zeros and those digits (so runs compare by value), other text as 0x02 and its
    /// characters lower-cased; then 0x00 and the name as it is (the tie-break), and 0x00 before
    /// the next component. The markers sort below every printable character and 0x00 below the
    /// markers, so a name whose chunks run out first, and a path whose components do, come first.
    static func collation(of components: [[UInt8]]) -> [UInt8]? {
        var key: [UInt8] = []
        key.reserveCapacity(components.reduce(0) { $0 + 2 * $1.count + 4 })
        for (n, name) in components.enumerated() {
            guard name.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
            if n > 0 { key.append(0) }
            var i = 0
            while i < name.count {
                let digits = isDigit(name[i])
                var end = i
                while end < name.count, isDigit(name[end]) == digits { end += 1 }
                if digits {
                    var first = i
                    while first < end - 1, name[first] == UInt8(ascii: "0") { first += 1 }
                    key.append(0x01)
                    key.append(UInt8(end - first))
                    key.append(contentsOf: name[first..<end])
                } else {
                    key.append(0x02)
                    for byte in name[i..<end] {
                        key.append((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte)
                    }
                }
                i = end
            }
            key.append(0)
            key.append(contentsOf: name)
        }
        return key
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// A run of digits (value as its digits without leading zeros, and the original text) or
    /// of other characters.
    enum Chunk: Equatable, Sendable {
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

    /// The package this program was built from: the folder two levels above this source
    /// file when it was compiled (Sources/Gallery/ImageListing.swift).
    public static let buildPackageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The folder of bundled pictures: `$SCROLLKIT_ASSETS` if set; else `Assets/` of the
    /// package that built the program (`packageRoot`), when the executable lies inside that
    /// package (a build in the checkout, `.build/<config>/image-viewer`); else the installed
    /// copy, `../share/scrollkit/Assets` relative to the executable's folder (`/usr/local/bin` →
    /// `/usr/local/share/…`). Nil when none exists. No other folder is searched: walking up
    /// from the executable looking for any `Package.swift` took a folder planted above a
    /// binary in a shared tree.
    public static func folder(executablePath: String = CommandLine.arguments.first ?? "",
                              environment: [String: String] = ProcessInfo.processInfo.environment,
                              packageRoot: String = buildPackageRoot,
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
        let root = URL(fileURLWithPath: packageRoot).standardized.path
        if executable.standardized.path.hasPrefix(root + "/"),
           fileManager.fileExists(atPath: root + "/Package.swift"), isFolder(root + "/Assets") {
            return root + "/Assets"
        }
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/scrollkit/Assets").path
        return isFolder(installed) ? installed : nil
    }
}
