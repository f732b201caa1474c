// image-viewer: the ScrollKit demo, a paging gallery of zoomable pictures on a Wayland desktop or
// kiosk, or offscreen driven by an input trace.
import ArgumentParser
import Foundation
import Glibc
import Gallery
import Raster
import SafeOutput

extension ListingOptions.Order: ExpressibleByArgument {}

@main
struct ImageViewer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image-viewer",
        abstract: "View pictures with iOS-like scrolling and zooming on a Wayland desktop or kiosk.",
        discussion: """
            Swipe or drag between pictures; pinch, double-tap, Ctrl+wheel or a touchpad pinch to zoom. \
            A page change shows the picture's name, position and zoom for a moment. Keys and gestures \
            (the help overlay, ? or H, lists the same):

            \(GalleryKeyBindings.helpText(in: GalleryKeyBindings.Context(isKiosk: false)))

            --kiosk ignores the window and quit keys and shows no information unless --show-info is \
            given. --demo list shows 10,000 rows of text in many scripts with a section index \
            instead of pictures.

            While a slideshow plays (and while a finger is down) the viewer asks the compositor not to \
            blank the screen (idle-inhibit-unstable-v1), and lets it go when the show is paused or the \
            window is hidden.

            Started by systemd (Type=notify), it says READY=1 once its first picture is drawn, naming \
            itself the service's main process (MAINPID=: under cage, the viewer's failure is what \
            systemd must see), and with WatchdogSec= it sends WATCHDOG=1 from its event loop every \
            half of that, so a hung viewer is restarted (Scripts/kiosk/ holds the kiosk's service).

            Pictures smaller than the window show at 1:1, centred (--upscale fills the window \
            instead); larger ones are shrunk to fit. Transparent pictures show on a checkerboard \
            (--background). A file that decoded only in part (truncated, corrupt) shows what did \
            decode with a banner naming the problem ("truncated: 47% of the picture"), and the \
            same words on stderr. A multi-page file shows its page number on the same plate.

            With no path the bundled pictures are shown: $SCROLLKIT_ASSETS, or Assets/ of the package \
            that built the viewer when it runs from that package's build folder, or \
            ../share/scrollkit/Assets next to its folder. One file named alone opens among the \
            pictures of its folder. Folders contribute their regular picture files; FIFOs, \
            devices and sockets are left out with a message. File names need not be UTF-8. - reads \
            paths from standard input, one per line (NUL-separated with -0), or one picture's bytes.

            Folders are watched: pictures copied in appear in their place once written and closed, \
            removed ones go, and a picture rewritten reloads; the viewer never needs a restart.

            --record and --screenshot write new files: an existing path is refused unless --force \
            is given, and a symbolic link, FIFO or device never. A recording that cannot be written \
            is reported when it fails and again at exit (status 1). SIGINT and SIGTERM end the \
            viewer as closing its window does (the recording gets its end comment, --stats its \
            summary), with status 128 + the signal.

            --offscreen limits: windows up to \(OffscreenLimits.side)×\(OffscreenLimits.side) pixels, \
            \(OffscreenLimits.frames) frame ticks, \(OffscreenLimits.pixels / 1_000_000) megapixels drawn, \
            \(OffscreenLimits.loads) picture loads; past one the run stops with status 3 (2: a \
            malformed trace; 1: still animating 60 s after the last input). Animations play until the \
            trace's last event; the last frame shows the animation as it was then.
            """,
        version: "0.2.0")

    @Argument(help: ArgumentHelp("Image files and folders (folders: their pictures in natural order); - reads paths or a picture from standard input.",
                                 valueName: "path"))
    var paths: [String] = []

    @Flag(name: [.short, .long], help: "List the pictures of folders' subfolders too.")
    var recursive = false

    @Option(help: ArgumentHelp("Order of a folder's pictures: name (natural order), mtime (oldest first) or size (smallest first).",
                               valueName: "key"))
    var sort: ListingOptions.Order = .name

    @Flag(help: "Reverse the order of --sort.")
    var reverse = false

    @Flag(help: "Go on from the last picture to the first and back (keys, swipes and the slideshow).")
    var wrap = false

    @Flag(name: .customShort("0"), help: "With -: the paths on standard input are separated by NUL bytes (find -print0), not newlines.")
    var nulSeparated = false

    @Flag(help: "Ask the compositor for fullscreen.")
    var fullscreen = false

    @Flag(help: "Kiosk: fullscreen, touch-first, pointer hidden, quit keys ignored.")
    var kiosk = false

    @Option(help: ArgumentHelp("Show the next picture every so many seconds (held while touched; P pauses and resumes).", valueName: "seconds"))
    var slideshow: Double?

    @Option(help: ArgumentHelp("Return to the first picture at fit after so many seconds without input.",
                               valueName: "seconds"))
    var idleReset: Double?

    @Option(help: ArgumentHelp("What shows through transparent pictures: checker (the default), black, white or #rrggbb.",
                               valueName: "background"))
    var background: String?

    @Flag(help: "Enlarge pictures smaller than the window to fill it (by default they show at 1:1).")
    var upscale = false

    @Option(name: .customLong("memory-mb"), help: ArgumentHelp(
        "Memory for pictures and their tiles in MiB (default \(GalleryScene.defaultMemoryBudget >> 20)): the tile cache takes 3/8, the picture shown up to 2/5 of the rest; larger pictures keep reduced levels in memory and their finer ones in a private file in $TMPDIR or /var/tmp.",
        valueName: "n"))
    var memoryMB: Int?

    @Option(name: .customLong("cache-mb"), help: ArgumentHelp(
        "Tile cache budget in MiB, part of --memory-mb for pictures (default 3/8 of it; \(Renderer.defaultBudget >> 20) for --test-card and --demo).",
        valueName: "n"))
    var cacheMB: Int?

    @Option(help: ArgumentHelp(
        "Record the session's input into this trace file; `scroll-replay FILE` replays it (the gallery's page swipes, or the test card's scrolling).",
        valueName: "file"))
    var record: String?

    @Flag(help: "Print one JSON line per frame on stderr, and a summary at exit.")
    var stats = false

    @Flag(help: "Draw every frame when the compositor asks for it, never ahead of its callback: the reference bench-fling --compare measures drawing ahead against.")
    var noDrawAhead = false

    @Flag(help: "Show the generated test card instead of pictures.")
    var testCard = false

    @Option(help: ArgumentHelp("Show a demo instead of pictures: list (10,000 rows of text in many scripts with a section index).",
                               valueName: "name"))
    var demo: Demo?

    @Flag(help: "With --kiosk: show the page overlay after page changes, and let I, ? and O show information (a desktop window always does).")
    var showInfo = false

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
    /// 32 MiB: the least memory budget, and the least the tile cache must leave of it for
    /// pictures (a screen-size picture of a 4K screen, decision).
    static let smallestMemoryMB = 32

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
        let dashes = paths.filter { $0 == "-" }.count
        if dashes > 1 {
            throw ValidationError("- (standard input) can be given once")
        }
        if nulSeparated && dashes == 0 {
            throw ValidationError("-0 says how the paths on standard input are separated: give - too")
        }
        if dashes > 0 && isatty(STDIN_FILENO) == 1 {
            throw ValidationError("- reads standard input, which is a terminal: pipe a list of paths or a picture into it")
        }
        if let demo {
            if testCard { throw ValidationError("--demo \(demo.rawValue) and --test-card are two different scenes: give one") }
            if !paths.isEmpty { throw ValidationError("--demo \(demo.rawValue) shows generated content: leave out the paths") }
        }
        if showInfo && (testCard || demo != nil) {
            throw ValidationError("--show-info shows information about pictures: it does not go with --test-card or --demo")
        }
        for (name, value) in [("--slideshow", slideshow), ("--idle-reset", idleReset)] {
            if let value, !(value.isFinite && value > 0 && value <= Self.longestDelay) {
                throw ValidationError("\(name) must be a number of seconds above 0 and at most \(Int(Self.longestDelay)), not \(value)")
            }
        }
        if let background, PictureBackground(argument: background) == nil {
            throw ValidationError(PictureBackground.invalidArgumentMessage(background))
        }
        if let cacheMB, !(1...Self.largestCacheMB).contains(cacheMB) {
            throw ValidationError("--cache-mb must be between 1 and \(Self.largestCacheMB) (MiB), not \(cacheMB)")
        }
        if let memoryMB, !(Self.smallestMemoryMB...Self.largestCacheMB).contains(memoryMB) {
            throw ValidationError("--memory-mb must be between \(Self.smallestMemoryMB) and \(Self.largestCacheMB) (MiB), not \(memoryMB)")
        }
        if let cacheMB, testCard == false, demo == nil, memoryBudget - (cacheMB << 20) < Self.smallestMemoryMB << 20 {
            throw ValidationError("--cache-mb \(cacheMB) leaves less than \(Self.smallestMemoryMB) MiB of --memory-mb \(memoryBudget >> 20) for pictures")
        }
    }

    mutating func run() throws {
        let launch = processStart()
        // A closed stderr or a recording past the file size limit must fail a write, not end
        // the viewer.
        Diagnostics.ignoreOutputSignals()
        FreeMemory.mapLargeBlocksApart()
        if let offscreenTrace {
            try runOffscreen(tracePath: offscreenTrace)
            return
        }
        try runLive(launch: launch)
    }

    /// The tile cache budget in bytes of the test card and the list demo, which hold no pictures.
    var cacheBudget: Int { cacheMB.map { $0 << 20 } ?? Renderer.defaultBudget }

    /// The gallery's memory budget in bytes (pictures and tiles).
    var memoryBudget: Int { memoryMB.map { $0 << 20 } ?? GalleryScene.defaultMemoryBudget }

    /// The gallery's options from the command line.
    func galleryOptions(loading: PageLoader.Mode) -> GalleryScene.Options {
        var options = GalleryScene.Options()
        options.isKiosk = kiosk
        options.showsInformation = showInfo ? true : nil
        options.slideshowInterval = slideshow
        options.idleResetDelay = idleReset
        options.memoryBudget = memoryBudget
        options.cacheBudget = cacheMB.map { $0 << 20 } ?? memoryBudget / 8 * 3
        options.loading = loading
        options.wraps = wrap
        options.background = background.flatMap(PictureBackground.init(argument:)) ?? .checkerboard
        options.upscalesToFit = upscale
        return options
    }

    /// The files to show: the paths given (as the command line's bytes, so names that are not
    /// UTF-8 open too; `-` standing for what standard input names or holds), or the bundled
    /// assets; problems go to stderr. Also what to list again when the folders change.
    func listFiles() -> (source: ListingSource?, listing: ImageListing) {
        var roots: [RawPath]
        var fromStandardInput = false
        if paths.isEmpty {
            guard let assets = BundledAssets.folder() else {
                emit("image-viewer: no path given and the bundled Assets/ folder was not found (set \(BundledAssets.environmentVariable))")
                return (nil, ImageListing(entries: []))
            }
            roots = [RawPath(assets)]
        } else {
            var taken = Set<Int>()
            roots = []
            for path in paths {
                guard path == "-" else {
                    roots.append(RawPath.argument(shownAs: path, taken: &taken))
                    continue
                }
                fromStandardInput = true
                var problems: [String] = []
                let content = StandardInput.read(fd: STDIN_FILENO, separator: nulSeparated ? 0 : UInt8(ascii: "\n"),
                                                 folder: { PathAliases.shared.newFolder() }, problems: &problems)
                for problem in problems { emit("image-viewer: \(problem)") }
                switch content {
                case .paths(let listed): roots += listed
                case .picture(let file): roots.append(RawPath(file))
                }
            }
        }
        let options = ListingOptions(order: sort, reversed: reverse, recursive: recursive)
        // A list from standard input is shown as given, even when it names a single file.
        let source = ListingSource(paths: roots, options: options, opensFolderOfSingleFile: !fromStandardInput)
        let listing = source.list()
        for problem in listing.problems { emit("image-viewer: \(problem)") }
        if listing.entries.isEmpty {
            let named = fromStandardInput && roots.isEmpty ? "standard input" : roots.map(\.description).joined(separator: ", ")
            emit("image-viewer: no pictures in \(named)")
        }
        return (source, listing)
    }

    /// The gallery of the listed files, opening on the listing's start page.
    func makeGallery(_ listing: ImageListing, loading: PageLoader.Mode) -> GalleryScene {
        let gallery = GalleryScene(files: listing.entries.map { PathAliases.shared.path(for: $0) },
                                   options: galleryOptions(loading: loading), startingAt: listing.start)
        gallery.onLoadFailure = { emit("image-viewer: \($0.description)") }
        gallery.onLoadDamage = { emit("image-viewer: \($0.error.file): \($0.description)") }
        return gallery
    }

    /// The options whose file names must be UTF-8 (they are opened through String APIs), with
    /// their values as given.
    private var utf8Options: [(String, String?)] {
        [("--record", record), ("--screenshot", screenshot), ("--offscreen", offscreenTrace)]
    }
}

/// The demos `--demo` shows instead of pictures.
enum Demo: String, ExpressibleByArgument, CaseIterable {
    /// A long list of text with a section index (ListDemo).
    case list
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
