// pictures-bench: the huge-JPEG benchmark. In one run it generates a photo-like 100-MP JPEG,
// times the viewer's first-frame pipeline against a full libjpeg-turbo decode of that file,
// then shows the file with the real image-viewer and with swayimg, each under its own headless
// sway, and prints their first frames and peak memory side by side. With --formats it does the
// same for a 24-MP photo in every format both viewers read (FormatsBenchmark.swift).
import ArgumentParser
import CompositorHarness
import Foundation
import Glibc
import Pictures
import SafeOutput

struct PicturesBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pictures-bench",
        abstract: "Huge-JPEG figures (first frame against a full decode, peak memory against swayimg), or every format's against swayimg.",
        discussion: """
            Needs a release build of image-viewer (by default the one beside this executable), and \
            sway, grim and swayimg (Scripts/install-deps.sh installs them). Scripts/bench-huge-image.sh \
            builds both and runs this. Figures are printed; the exit status is 0 when every budget \
            holds, 2 when one does not, 1 when something could not be measured.

            --formats shows a 24-MP photo (by default) in each format named, made by \
            Scripts/make-corpus.py --bench, with both viewers --runs times each, and prints the \
            medians of their first frames and peak memory (VmHWM, the process's whole life up to \
            its end) side by side; the budget is each at most swayimg's. Scripts/bench-formats.sh \
            builds and runs it.
            """)

    @Option(help: "Width of the generated photo, in pixels (default 12288; 6000 with --formats).")
    var width: Int?

    @Option(help: "Height of the generated photo, in pixels (default 8192; 4000 with --formats).")
    var height: Int?

    @Option(help: ArgumentHelp("Formats to compare with swayimg: all, or names separated by commas (jpeg, png, webp, gif, tiff, heif, avif, jxl, svg, bmp).",
                               valueName: "list"))
    var formats: String?

    @Option(help: ArgumentHelp("Scripts/make-corpus.py, which writes the photo in each format (--formats).", valueName: "path"))
    var makeCorpus: String?

    /// The formats benchmark's in-process figures for one file, printed by a fresh process.
    @Option(help: .hidden)
    var decodeOnly: String?

    @Option(help: ArgumentHelp("Keep the --formats pictures in this folder and use again those already there (AVIF takes minutes to encode).",
                               valueName: "folder"))
    var pictures: String?

    @Option(help: ArgumentHelp("The image-viewer to measure (default: the one beside pictures-bench).", valueName: "path"))
    var viewer: String?

    @Option(help: ArgumentHelp("Size of sway's headless output.", valueName: "WxH"))
    var output = "1920x1080"

    @Option(help: ArgumentHelp("Seconds without new frames, peak memory growth or CPU use that mean a viewer is done loading.",
                               valueName: "seconds"))
    var settle = 1.5

    @Option(help: ArgumentHelp("Live runs of each viewer (huge JPEG: 1; --formats: 5). First frames: medians; peaks: the highest.",
                               valueName: "n"))
    var runs: Int?

    @Flag(help: "Only the in-process decode figures: no sway, no image-viewer, no swayimg.")
    var inProcessOnly = false

    @Option(help: ArgumentHelp("Also keep the generated JPEG at this path (a new file: an existing one, a symbolic link or a FIFO is refused).", valueName: "file"))
    var keepJPEG: String?

    /// 16 384 pixels: the longest side accepted for sway's output (decision: larger is a typo).
    static let outputLimit = 16_384
    /// 60 s for a viewer to show and settle: five times swayimg's whole load here (decision).
    static let liveTimeout = 60.0
    /// 0.8: the first frame's budget against a full decode (the viewer issue's benchmark).
    static let firstFrameBudget = 0.8
    /// 1.0: the peak memory budget against swayimg's (the viewer issue's benchmark).
    static let memoryBudget = 1.0
    /// 24 levels per channel: the photo's grain (up to 16) plus JPEG loss and each viewer's
    /// scaling, between the photo's formula and its displayed centre (decision; 0–5 measured here).
    static let centreTolerance = 24

    /// The photo's size and the runs, defaults filled in for the mode.
    var photoWidth: Int { width ?? (formats == nil ? 12_288 : 6_000) }
    var photoHeight: Int { height ?? (formats == nil ? 8_192 : 4_000) }
    var liveRuns: Int { runs ?? (formats == nil ? 1 : 5) }

    func validate() throws {
        guard (16...65_535).contains(photoWidth), (16...65_535).contains(photoHeight) else {
            throw ValidationError("--width and --height must be 16…65535 pixels, not \(photoWidth)×\(photoHeight)")
        }
        if let formats {
            if case .failure(let error) = BenchFormat.parse(formats) { throw ValidationError(error.description) }
            guard let makeCorpus, FileManager.default.isReadableFile(atPath: makeCorpus) else {
                throw ValidationError("--formats needs --make-corpus PATH, the readable Scripts/make-corpus.py (Scripts/bench-formats.sh passes it)")
            }
            guard !inProcessOnly else { throw ValidationError("--formats measures live runs only: drop --in-process-only") }
        }
        guard outputSize != nil else {
            throw ValidationError("--output must be WIDTHxHEIGHT with each side 64…\(Self.outputLimit), not \(output)")
        }
        guard settle.isFinite, settle >= 0.2, settle <= 30 else {
            throw ValidationError("--settle must be 0.2…30 seconds, not \(settle)")
        }
        guard (1...20).contains(liveRuns) else { throw ValidationError("--runs must be 1…20, not \(liveRuns)") }
    }

    var outputSize: (width: Int, height: Int)? {
        let parts = output.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ (64...Self.outputLimit).contains($0) }) else { return nil }
        return (parts[0], parts[1])
    }

    func run() throws {
        if let decodeOnly {
            say(FormatsBenchmark.decodeFigures(decodeOnly))
            return
        }
        let cleanup = GroupProcess.killAllOnSignals()
        defer { withExtendedLifetime(cleanup) {} }
        do {
            let withinBudget = try measure()
            if !withinBudget { throw ExitCode(2) }
        } catch let error as ExitCode {
            throw error
        } catch {
            Diagnostics.lines("pictures-bench: \(error)")
            throw ExitCode.failure
        }
    }

    /// Runs everything and prints as it goes; returns whether every budget holds.
    private func measure() throws -> Bool {
        // Everything live is checked before minutes go into generating and decoding.
        let live = inProcessOnly ? nil : try liveTools()
        if let formats, let live, let makeCorpus {
            return try FormatsBenchmark(formats: try BenchFormat.parse(formats).get(), width: photoWidth, height: photoHeight,
                                        runs: liveRuns, makeCorpus: makeCorpus, picturesFolder: pictures,
                                        viewer: live.viewer, swayimg: live.swayimg, settings: live.settings).run()
        }
        // A folder made by mkdtemp (mode 0700): a name fixed by the pid let anyone plant a
        // symbolic link there beforehand and have the photo written where it points. sway's uid
        // reads nothing here; the clients run as this user.
        let folder = try PrivateFolder(prefix: "pictures-bench")
        defer { folder.remove() }
        let file = folder.appending("photo-\(photoWidth)x\(photoHeight).jpg")
        let jpeg = try PictureBenchmark.makePhotoJPEG(width: photoWidth, height: photoHeight)
        try OutputFile(creating: file).write(jpeg)
        if let keepJPEG { try OutputFile(creating: keepJPEG).write(jpeg) }

        let figures = try PictureBenchmark.run(path: file)
        say("In process (best of 3):")
        say(figures.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        let pipelineOK = figures.firstFrameRatio <= Self.firstFrameBudget
        guard let live else { return pipelineOK }

        let fullMs = figures.fullDecodeSeconds * 1000
        let decodedKiB = figures.pixels * 4 / 1024
        say("Live, each viewer alone under a fresh headless sway \(output) (pixman), the same file:")
        var ours: [LiveFigures] = [], theirs: [LiveFigures] = []
        for run in 1...liveRuns {
            let a = try LiveRun.viewer(live.viewer, file: file, settings: live.settings)
            say("  run \(run) image-viewer: " + describe(a, fullMs: fullMs, decodedKiB: decodedKiB))
            let b = try LiveRun.swayimg(live.swayimg, file: file, settings: live.settings)
            say("  run \(run) swayimg:      " + describe(b, fullMs: fullMs, decodedKiB: decodedKiB))
            ours.append(a)
            theirs.append(b)
        }
        // Times: the median of the runs (a run the shared machine slowed counts as much as a
        // lucky one); memory: the highest peak of each.
        let ourTimes = ours.compactMap(\.firstFrameMs), theirTimes = theirs.compactMap(\.firstFrameMs)
        let ourFirst = ourTimes.count == ours.count ? median(ourTimes) : .infinity
        let theirFirst = theirTimes.isEmpty ? nil : median(theirTimes)
        let ourFirstShowsPhoto = ours.allSatisfy { $0.firstFrame?.isPhoto == true }
        let ourPeak = ours.map(\.peakKiB).max() ?? 0, theirPeak = theirs.map(\.peakKiB).max() ?? 0
        let memoryRatio = Double(ourPeak) / Double(max(theirPeak, 1))
        let memoryOK = memoryRatio <= Self.memoryBudget
        func verdict(_ ok: Bool) -> String { ok ? "holds" : "MISSED" }
        say("Summary (full decode reference \(Int(fullMs.rounded())) ms: the faster of the two above):")
        say(String(format: "  (a) first frame, the viewer's pipeline: %.0f ms = %.2f× the full decode (≤ %.2f: ",
                   figures.firstFrameSeconds * 1000, figures.firstFrameRatio, Self.firstFrameBudget) + verdict(pipelineOK) + ")")
        say("      image-viewer's first frame on screen shows the photo: "
            + (ourFirstShowsPhoto ? "yes" : "no (MISSED)"))
        say(String(format: "      from launch, with process start and Wayland set-up (median of %d): image-viewer %.0f ms = %.2f×",
                   liveRuns, ourFirst, ourFirst / fullMs)
            + (theirFirst.map { String(format: ", swayimg %.0f ms = %.2f×", $0, $0 / fullMs) } ?? ""))
        say(String(format: "  (b) peak memory: image-viewer %d KiB, swayimg %d KiB, ratio %.2f (≤ %.2f: ",
                   ourPeak, theirPeak, memoryRatio, Self.memoryBudget) + verdict(memoryOK) + ")")
        return pipelineOK && ourFirstShowsPhoto && memoryOK
    }

    private func describe(_ f: LiveFigures, fullMs: Double, decodedKiB: Int) -> String {
        var parts: [String] = []
        if let first = f.firstFrameMs {
            parts.append(String(format: "first frame %.0f ms (%.2f× the full decode) showing ", first, first / fullMs)
                         + (f.firstFrame.map(String.init(describing:)) ?? "nothing"))
        }
        if let last = f.lastFrameMs { parts.append(String(format: "last frame %.0f ms", last)) }
        parts.append("settled showing \(f.settled)")
        parts.append(String(format: "peak VmHWM %d KiB (%.2f× the RGBA size)", f.peakKiB, Double(f.peakKiB) / Double(decodedKiB)))
        if let reported = f.reportedPeakKiB { parts.append("--stats peakMemoryKiB \(reported)") }
        return parts.joined(separator: ", ")
    }

    /// The programs the live runs need, each checked, with the settings they share.
    private func liveTools() throws -> (viewer: String, swayimg: String, settings: LiveSettings) {
        func need(_ name: String, _ package: String) throws -> String {
            guard let path = findExecutable(name) else {
                throw BenchError(description: "\(name) is not installed (Debian package \(package); Scripts/install-deps.sh installs it), or use --in-process-only")
            }
            return path
        }
        let sway = try need("sway", "sway"), swaymsg = try need("swaymsg", "sway")
        _ = try need("grim", "grim")
        let swayimg = try need("swayimg", "swayimg")
        let viewerPath = viewer ?? Self.besideThisExecutable("image-viewer")
        guard FileManager.default.isExecutableFile(atPath: viewerPath) else {
            throw BenchError(description: "no image-viewer at \(viewerPath): build it with `swift build -c release --product image-viewer`, or pass --viewer PATH")
        }
        let size = outputSize!
        let settings = LiveSettings(
            sway: sway, swaymsg: swaymsg, width: size.width, height: size.height, settle: settle,
            timeout: Self.liveTimeout,
            photo: PhotoOnScreen.Expectation(aspect: Double(photoWidth) / Double(photoHeight),
                                             centre: PictureBenchmark.photoColour(u: 0.5, v: 0.5),
                                             tolerance: Self.centreTolerance, background: LiveRun.background))
        return (viewerPath, swayimg, settings)
    }

    /// `name` in the folder of the running executable.
    private static func besideThisExecutable(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return ((me as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
    }
}

/// Prints `line` at once (unbuffered), so a long run shows its figures as they come; ends the
/// run with `outputFailureStatus` when standard output cannot take it.
func say(_ line: String) {
    do {
        try Descriptor.writeAll(Array((line + "\n").utf8), to: STDOUT_FILENO)
    } catch {
        Diagnostics.line("pictures-bench: writing standard output failed: \(error)")
        exit(outputFailureStatus)
    }
}

PicturesBench.safeMain()
