// The formats benchmark of pictures-bench: one photo-like picture in every format image-viewer
// and swayimg both read, each file shown by both viewers under their own headless sway several
// times, with the medians of the first frame and the peak memory side by side.
import CompositorHarness
import Foundation
import Glibc
import Pictures
import SafeOutput

/// A file format of the benchmark: the name make-corpus.py takes and the file's extension.
struct BenchFormat: Equatable {
    /// make-corpus.py's name for it, and swayimg's in its "Supported formats" line (except
    /// jpeg's, which swayimg also calls jpeg).
    let name: String
    /// The extension given to the file (the viewers detect formats by content, not by it).
    let fileExtension: String

    /// Every format image-viewer reads, in the order the figures are printed.
    static let all = [
        BenchFormat(name: "jpeg", fileExtension: "jpg"), BenchFormat(name: "png", fileExtension: "png"),
        BenchFormat(name: "webp", fileExtension: "webp"), BenchFormat(name: "gif", fileExtension: "gif"),
        BenchFormat(name: "tiff", fileExtension: "tif"), BenchFormat(name: "heif", fileExtension: "heic"),
        BenchFormat(name: "avif", fileExtension: "avif"), BenchFormat(name: "jxl", fileExtension: "jxl"),
        BenchFormat(name: "svg", fileExtension: "svg"), BenchFormat(name: "bmp", fileExtension: "bmp"),
    ]

    /// The formats named in `list` ("all", or names separated by commas), or the error naming
    /// the first name that is not one.
    static func parse(_ list: String) -> Result<[BenchFormat], BenchError> {
        if list == "all" { return .success(all) }
        var chosen: [BenchFormat] = []
        for name in list.lowercased().split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let format = all.first(where: { $0.name == name }) else {
                let names = all.map(\.name).joined(separator: ", ")
                return .failure(BenchError(description: "--formats: no format \"\(name)\" (known: all, \(names))"))
            }
            if !chosen.contains(format) { chosen.append(format) }
        }
        return chosen.isEmpty ? .failure(BenchError(description: "--formats names no format")) : .success(chosen)
    }
}

/// The medians of one format's live runs.
struct FormatFigures {
    let format: BenchFormat
    /// The file's size in bytes.
    let fileBytes: Int
    /// Medians: first frame in ms, peak resident memory in KiB.
    let ourFirstMs: Double, theirFirstMs: Double
    let ourPeakKiB: Double, theirPeakKiB: Double
    /// Whether every first frame of image-viewer showed the whole photo.
    let ourFirstShowsPhoto: Bool
    /// The photo's size on screen once settled (the last run's screenshot), width × height;
    /// nil when it was not found. The viewers need not show it alike: swayimg 1.10 draws every
    /// SVG into 1024×1024 pixels and shows those at 1:1, image-viewer fits the drawing to the
    /// window at the scale shown.
    let ourShown: (width: Int, height: Int)?, theirShown: (width: Int, height: Int)?

    /// 5 %: shown areas this close count as the same size (a fit rounded, a border).
    static let shownTolerance = 0.05

    /// "shown 1620×1080 against 1024×683 (2.50× the pixels)", when the two areas differ by more
    /// than `shownTolerance`: the figures then compare different work.
    var shownDifference: String? {
        guard let ours = ourShown, let theirs = theirShown else { return nil }
        let ratio = Double(ours.width * ours.height) / Double(max(1, theirs.width * theirs.height))
        guard abs(ratio - 1) > Self.shownTolerance else { return nil }
        return String(format: "shown %d×%d against %d×%d (%.2f× the pixels)", ours.width, ours.height,
                      theirs.width, theirs.height, ratio)
    }

    var firstFrameRatio: Double { ourFirstMs / max(theirFirstMs, 1) }
    var memoryRatio: Double { ourPeakKiB / max(theirPeakKiB, 1) }
    /// First frame and memory each at most swayimg's, and the first frame the photo.
    var withinBudget: Bool {
        firstFrameRatio <= FormatsBenchmark.budget && memoryRatio <= FormatsBenchmark.budget && ourFirstShowsPhoto
    }
}

/// Runs the formats benchmark and prints as it goes.
struct FormatsBenchmark {
    /// 1.0: first frame and peak memory each at most swayimg's (issue 13's budget).
    static let budget = 1.0

    let formats: [BenchFormat]
    let width: Int, height: Int
    let runs: Int
    /// make-corpus.py, which writes the photo in each format.
    let makeCorpus: String
    /// Where the pictures are kept between runs (nil: a private folder removed at the end).
    let picturesFolder: String?
    let viewer: String
    let swayimg: String
    let settings: LiveSettings

    /// The formats swayimg reads, as its `--version` lists them.
    static func swayimgFormats(_ swayimg: String) throws -> Set<String> {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swayimg)
        process.arguments = ["--version"]
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "Supported formats: bmp, jpeg, png, gif, webp, svg, heif, avif, jxl, tiff." (1.10)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Supported formats:") }) else {
            throw BenchError(description: "swayimg --version lists no supported formats; it said:\n\(text)")
        }
        let names = line.dropFirst("Supported formats:".count).split(separator: ",")
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " .")) }
        return Set(names)
    }

    /// Makes the pictures, measures each format and prints the table; returns whether every
    /// budget holds.
    func run() throws -> Bool {
        let supported = try Self.swayimgFormats(swayimg)
        let shared = formats.filter { supported.contains($0.name) }
        for format in formats where !shared.contains(format) {
            say("\(format.name): swayimg does not read it; not compared")
        }
        // Without a folder to keep them in, the pictures live in a private folder of their own
        // (mkdtemp), removed when the benchmark ends.
        let temporary = picturesFolder == nil ? try PrivateFolder(prefix: "pictures-bench-pictures") : nil
        defer { temporary?.remove() }
        let home = try temporary?.path ?? keptFolder()
        let files = try makePictures(shared, in: home)
        say("Load before the live runs: \(loadAverage())")
        var rows: [FormatFigures] = []
        for format in shared {
            guard let file = files[format.name] else { continue }
            rows.append(try measure(format, file: file))
        }
        say("Load after the live runs: \(loadAverage())")
        printTable(rows)
        return rows.allSatisfy(\.withinBudget)
    }

    /// `picturesFolder`, made when missing.
    private func keptFolder() throws -> String {
        let folder = URL(fileURLWithPath: picturesFolder ?? ".").standardized.path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// /proc/loadavg's three averages: how busy the machine was (the figures are wall-clock).
    private func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ") + " (1, 5, 15 min) on "
            + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs"
    }

    /// The photo as a JPEG, then in every other format through make-corpus.py, in `home`; a
    /// picture already there from an earlier run is used again (AVIF takes minutes to encode).
    private func makePictures(_ formats: [BenchFormat], in home: String) throws -> [String: String] {
        let scratch = try PrivateFolder(prefix: "pictures-bench-formats")
        defer { scratch.remove() }
        // Each picture alone in a folder of its own: image-viewer given one file shows it among
        // its folder's pictures (and loads the neighbours), swayimg shows that file alone.
        func path(_ format: BenchFormat) throws -> String {
            let folder = home + "/\(format.name)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return folder + "/photo-\(width)x\(height).\(format.fileExtension)"
        }
        let photo = try path(BenchFormat.all[0])
        if !Self.isRegularFile(photo) {
            say("Making the \(width)×\(height) photo (JPEG, quality 90)")
            try OutputFile(creating: photo).write(try PictureBenchmark.makePhotoJPEG(width: width, height: height))
        }
        var files: [String: String] = [:]
        for format in formats {
            let target = try path(format)
            files[format.name] = target
            if Self.isRegularFile(target) { continue }
            say("Making the \(format.name) picture")
            let made = scratch.appending("made.\(format.fileExtension)")
            let started = monotonicMilliseconds()
            try runMakeCorpus(["--bench", format.name, photo, made])
            // Into place without following a link planted at the name (OutputFile refuses one).
            try OutputFile(creating: target).write(Array(try Data(contentsOf: URL(fileURLWithPath: made))))
            try? FileManager.default.removeItem(atPath: made)
            say(String(format: "  made in %.0f s", (monotonicMilliseconds() - started) / 1000))
        }
        return files
    }

    /// A regular file (not a link, FIFO or folder) at `path`.
    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Runs make-corpus.py with Debian's python3 (where python3-pil is installed).
    private func runMakeCorpus(_ arguments: [String]) throws {
        let errors = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [makeCorpus] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError(description: "make-corpus.py \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus)): \(message)")
        }
    }

    /// `runs` live runs of each viewer on `file`, alternating which goes first; their medians.
    private func measure(_ format: BenchFormat, file: String) throws -> FormatFigures {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0
        say(String(format: "%@ (%.1f MiB):", format.name, Double(bytes) / 1_048_576))
        say("  in process: " + Self.decodeInProcess(file))
        var ours: [LiveFigures] = [], theirs: [LiveFigures] = []
        for run in 1...runs {
            // Alternating spreads a change in the machine's load over both viewers.
            let order = run % 2 == 1 ? [true, false] : [false, true]
            for isOurs in order {
                if isOurs {
                    let f = try LiveRun.viewer(viewer, file: file, settings: settings)
                    ours.append(f)
                    say("  run \(run) image-viewer: " + Self.describe(f))
                } else {
                    let f = try LiveRun.swayimg(swayimg, file: file, settings: settings)
                    theirs.append(f)
                    say("  run \(run) swayimg:      " + Self.describe(f))
                }
            }
        }
        return FormatFigures(
            format: format, fileBytes: bytes,
            ourFirstMs: median(ours.map { $0.firstFrameMs ?? .infinity }),
            theirFirstMs: median(theirs.map { $0.firstFrameMs ?? .infinity }),
            ourPeakKiB: median(ours.map { Double($0.peakKiB) }), theirPeakKiB: median(theirs.map { Double($0.peakKiB) }),
            ourFirstShowsPhoto: ours.allSatisfy { $0.firstFrame?.isPhoto == true },
            ourShown: ours.last?.settled.box.map { ($0.width, $0.height) },
            theirShown: theirs.last?.settled.box.map { ($0.width, $0.height) })
    }

    /// Reading and decoding `file` as the viewer's loader does (whole file, then the full
    /// picture), in a fresh pictures-bench process (`--decode-only`) so that no memory freed
    /// by an earlier decode is reused: its time and how far resident memory rose, the part
    /// of a viewer's peak that is the picture's (the rest is the process: runtime, window
    /// buffers). One run, before the live ones.
    private static func decodeInProcess(_ file: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: me)
        process.arguments = ["--decode-only", file]
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return "cannot start \(me): \(error)" }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What `decodeInProcess` prints, measured in this process.
    static func decodeFigures(_ file: String) -> String {
        ResidentMemory.resetPeak()
        let base = ResidentMemory.current()
        let started = monotonicMilliseconds()
        do {
            let decoder = try ImageDecoder(path: file)
            let read = ResidentMemory.peak() - base
            let picture = try decoder.decode(acceptsDamage: true)
            let ms = monotonicMilliseconds() - started
            let peak = ResidentMemory.peak() - base
            return withExtendedLifetime(picture) {
                String(format: "read and decoded in %.0f ms; resident memory +%.1f MiB after reading, +%.1f MiB at the decode's peak",
                       ms, Double(read) / 1_048_576, Double(peak) / 1_048_576)
            }
        } catch {
            return "cannot decode: \(error)"
        }
    }

    private static func describe(_ f: LiveFigures) -> String {
        var parts = [f.firstFrameMs.map { String(format: "first frame %.0f ms", $0) } ?? "no first frame"]
        if let first = f.firstFrame, !first.isPhoto { parts.append("first frame shows \(first)") }
        parts.append(String(format: "peak %.1f MiB", Double(f.peakKiB) / 1024))
        if let box = f.settled.box { parts.append("settled showing \(box.width)×\(box.height)") }
        return parts.joined(separator: ", ")
    }

    /// The table of medians, one line per format.
    private func printTable(_ rows: [FormatFigures]) {
        say("Medians of \(runs) run\(runs == 1 ? "" : "s") per viewer, \(width)×\(height) "
            + "(\(String(format: "%.1f", Double(width * height) / 1e6)) MP), each viewer alone under a fresh "
            + "headless sway \(settings.width)x\(settings.height); budget: each ratio ≤ \(String(format: "%.2f", Self.budget))")
        say("  format   file MiB │ first frame ms: image-viewer swayimg ratio │ peak MiB: image-viewer swayimg ratio │")
        for row in rows {
            var notes: [String] = []
            if row.firstFrameRatio > Self.budget { notes.append("first frame MISSED") }
            if row.memoryRatio > Self.budget { notes.append("memory MISSED") }
            if !row.ourFirstShowsPhoto { notes.append("first frame not the photo: MISSED") }
            let name = row.format.name.padding(toLength: 6, withPad: " ", startingAt: 0)
            say("  " + name + String(format: " %10.1f │ %28.0f %7.0f %5.2f │ %22.1f %7.1f %5.2f │ ",
                       Double(row.fileBytes) / 1_048_576,
                       row.ourFirstMs, row.theirFirstMs, row.firstFrameRatio,
                       row.ourPeakKiB / 1024, row.theirPeakKiB / 1024, row.memoryRatio)
                + (notes.isEmpty ? "holds" : notes.joined(separator: ", ")) + (row.shownDifference.map { "; " + $0 } ?? ""))
        }
    }
}

/// The median of `values` (the mean of the middle two for an even count); infinity for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .infinity }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
