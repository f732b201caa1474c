// image-viewer: the ScrollKit demo, a paging gallery of zoomable pictures on a Wayland desktop or
// kiosk, or offscreen driven by an input trace.
import ArgumentParser
import Foundation
import Glibc
import Gallery
import Raster
import SafeOutput

@main
struct ImageViewer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image-viewer",
        abstract: "View pictures with iOS-like scrolling and zooming on a Wayland desktop or kiosk.",
        discussion: """
            Swipe or drag between pictures; pinch, double-tap, Ctrl+wheel or a touchpad pinch to zoom. \
            Keys: Left/Right, Page Up/Down and Space for previous/next (arrows pan a zoomed picture), \
            Home/End for first/last, + - 0 1 to zoom in, out, to fit and to 1:1, F or F11 for \
            fullscreen, Escape to leave it, Q to quit.

            With no path the bundled pictures are shown: $SCROLLKIT_ASSETS, or Assets/ of the package \
            that built the viewer when it runs from that package's build folder, or \
            ../share/scrollkit/Assets next to its folder. Folders contribute their regular PNG and \
            JPEG files; FIFOs, devices and sockets are left out with a message. File names need not \
            be UTF-8.

            --record and --screenshot write new files: an existing path is refused unless --force \
            is given, and a symbolic link, FIFO or device never. A recording that cannot be written \
            is reported when it fails and again at exit (status 1). SIGINT and SIGTERM end the \
            viewer as closing its window does (the recording gets its end comment, --stats its \
            summary), with status 128 + the signal.

            --offscreen limits: windows up to \(OffscreenLimits.side)×\(OffscreenLimits.side) pixels, \
            \(OffscreenLimits.frames) frame ticks, \(OffscreenLimits.pixels / 1_000_000) megapixels drawn, \
            \(OffscreenLimits.loads) picture loads; past one the run stops with status 3 (2: a \
            malformed trace; 1: still animating 60 s after the last input).
            """,
        version: "0.2.0")

    @Argument(help: ArgumentHelp("Image files and folders (folders: their PNG and JPEG files in natural order).",
                                 valueName: "path"))
    var paths: [String] = []

    @Flag(help: "Ask the compositor for fullscreen.")
    var fullscreen = false

    @Flag(help: "Kiosk: fullscreen, touch-first, pointer hidden, quit keys ignored.")
    var kiosk = false

    @Option(help: ArgumentHelp("Show the next picture every so many seconds (paused while touched).", valueName: "seconds"))
    var slideshow: Double?

    @Option(help: ArgumentHelp("Return to the first picture at fit after so many seconds without input.",
                               valueName: "seconds"))
    var idleReset: Double?

    @Option(name: .customLong("cache-mb"), help: ArgumentHelp("Tile cache budget in MiB (default 192).", valueName: "n"))
    var cacheMB: Int?

    @Option(help: ArgumentHelp(
        "Record the session's input into this trace file; `scroll-replay FILE` replays it (the gallery's page swipes, or the test card's scrolling).",
        valueName: "file"))
    var record: String?

    @Flag(help: "Print one JSON line per frame on stderr, and a summary at exit.")
    var stats = false

    @Flag(help: "Show the generated test card instead of pictures.")
    var testCard = false

    @Option(name: .customLong("offscreen"), help: ArgumentHelp(
        "Run without a compositor: replay the input of this trace file (its setup's viewport is the window size) on a simulated display.",
        valueName: "trace"))
    var offscreenTrace: String?

    @Option(help: ArgumentHelp("With --offscreen: write the last frame to this file (binary PPM).", valueName: "file"))
    var screenshot: String?

    @Flag(help: "Let --record and --screenshot replace an existing regular file. Without it they refuse an existing path; they never write through a symbolic link or into a FIFO or device.")
    var force = false

    /// 86 400 s: a slideshow or idle delay longer than a day is a typo (decision).
    static let longestDelay = 86_400.0
    /// 65 536 MiB: larger tile caches are a typo on any machine this runs on (decision).
    static let largestCacheMB = 65_536

    static func main() { safeMain() }

    func validate() throws {
        var taken = Set<Int>()
        for case let (name, value?) in utf8Options where RawPath.argument(shownAs: value, taken: &taken).string == nil {
            throw ValidationError("\(name): the file name \(RawPath.argument(shownAs: value, taken: &taken)) is not UTF-8; give a UTF-8 name")
        }
        if force && record == nil && screenshot == nil {
            throw ValidationError("--force lets --record or --screenshot replace an existing file: give one of them")
        }
        if screenshot != nil && offscreenTrace == nil {
            throw ValidationError("--screenshot needs --offscreen (in a session, use your compositor's screenshot tool)")
        }
        if record != nil && offscreenTrace != nil {
            throw ValidationError("--record records live input: with --offscreen the input is already a trace")
        }
        if testCard && !paths.isEmpty {
            throw ValidationError("--test-card shows the generated card: leave out the paths")
        }
        for (name, value) in [("--slideshow", slideshow), ("--idle-reset", idleReset)] {
            if let value, !(value.isFinite && value > 0 && value <= Self.longestDelay) {
                throw ValidationError("\(name) must be a number of seconds above 0 and at most \(Int(Self.longestDelay)), not \(value)")
            }
        }
        if let cacheMB, !(1...Self.largestCacheMB).contains(cacheMB) {
            throw ValidationError("--cache-mb must be between 1 and \(Self.largestCacheMB) (MiB), not \(cacheMB)")
        }
    }

    mutating func run() throws {
        let launch = processStart()
        // A closed stderr or a recording past the file size limit must fail a write, not end
        // the viewer.
        Diagnostics.ignoreOutputSignals()
        if let offscreenTrace {
            try runOffscreen(tracePath: offscreenTrace)
            return
        }
        try runLive(launch: launch)
    }

    /// The tile cache budget in bytes.
    var cacheBudget: Int { cacheMB.map { $0 << 20 } ?? Renderer.defaultBudget }

    /// The gallery's options from the command line.
    func galleryOptions(loading: PageLoader.Mode) -> GalleryScene.Options {
        var options = GalleryScene.Options()
        options.isKiosk = kiosk
        options.slideshowInterval = slideshow
        options.idleResetDelay = idleReset
        options.cacheBudget = cacheBudget
        options.loading = loading
        return options
    }

    /// The files to show: the paths given (as the command line's bytes, so names that are not
    /// UTF-8 open too), or the bundled assets; problems go to stderr.
    func listFiles() -> [String] {
        var roots: [RawPath]
        if paths.isEmpty {
            guard let assets = BundledAssets.folder() else {
                emit("image-viewer: no path given and the bundled Assets/ folder was not found (set \(BundledAssets.environmentVariable))")
                return []
            }
            roots = [RawPath(assets)]
        } else {
            var taken = Set<Int>()
            roots = paths.map { RawPath.argument(shownAs: $0, taken: &taken) }
        }
        let listing = ImageListing.list(raw: roots)
        for problem in listing.problems { emit("image-viewer: \(problem)") }
        if listing.entries.isEmpty { emit("image-viewer: no pictures in \(roots.map(\.description).joined(separator: ", "))") }
        return listing.entries.map { $0.string ?? PictureAliases.shared.path(for: $0) }
    }

    /// The options whose file names must be UTF-8 (they are opened through String APIs), with
    /// their values as given.
    private var utf8Options: [(String, String?)] {
        [("--record", record), ("--screenshot", screenshot), ("--offscreen", offscreenTrace)]
    }
}

/// Names the picture loader can open for files whose names are not UTF-8: the loader (in
/// Pictures) takes String paths, and a String cannot hold such a name, so each gets a symbolic
/// link in a private folder, named with the file's escaped name ("caf\xE9.jpg") so messages and
/// error cards show it, pointing at the file's real bytes. Removed at exit.
final class PictureAliases: @unchecked Sendable {
    /// The one set of links of this process (used from the main thread only, while listing).
    static let shared = PictureAliases()
    private var folder: PrivateFolder?
    private var count = 0

    /// A UTF-8 path that opens `file`; the escaped name itself when no link can be made (the
    /// load then fails with a message naming the file).
    func path(for file: RawPath) -> String {
        do {
            if folder == nil {
                folder = try PrivateFolder(prefix: "scrollkit-names")
                atexit { PictureAliases.shared.folder?.remove() }
            }
            guard let folder else { return file.description }
            count += 1
            let holder = folder.appending("\(count)")
            guard mkdir(holder, 0o700) == 0 else { return file.description }
            var target = file
            if file.bytes.first != UInt8(ascii: "/") {
                target = RawPath(FileManager.default.currentDirectoryPath).appending(file.bytes)
            }
            let link = holder + "/" + TerminalText.escaped(bytes: file.lastComponent)
            guard target.withCString({ symlink($0, link) }) == 0 else { return file.description }
            return link
        } catch {
            return file.description
        }
    }
}

/// When the process started, ms on the monotonic clock: from the kernel, or now if /proc says nothing.
func processStart() -> Double {
    let now = ProcessInfo.processInfo.systemUptime * 1000
    return ProcessFigures.startTime(monotonicNow: now) ?? now
}

/// One line on stderr, control characters escaped; dropped when stderr cannot take it (the
/// viewer goes on).
func emit(_ line: String) {
    Diagnostics.line(line)
}
