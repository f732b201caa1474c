// Decorations as a user sees them: under GNOME's mutter and weston, which draw none, the viewer's
// window has libdecor's title bar naming the file, moves when the bar is dragged, grows when its
// edges are dragged and quits from its close button; fullscreen and kiosk windows have no bar;
// under sway, which draws its own, the window has none of libdecor's and the plugin is not even
// loaded.
import CompositorHarness
import Foundation
import Glibc
import SafeOutput
import Testing
import TestSupport

/// Two pictures of one colour each, 1600×1200: fitted into the viewer's 800×600 window (or any 4:3
/// one up to their size) they fill it exactly, so the window's content is where the colour is.
/// (The gallery shows a picture smaller than its window at 1:1, not enlarged.)
private struct ColourPictures {
    static let first: UInt32 = 0xD0_2090, second: UInt32 = 0x20_B040
    let folder: PrivateFolder
    let paths: [String]

    init() throws {
        folder = try PrivateFolder(prefix: "decorations")
        paths = [folder.appending("first picture.png"), folder.appending("second.png")]
        try pngData(width: 1600, height: 1200) { _, _ in Self.first }.write(to: URL(fileURLWithPath: paths[0]))
        try pngData(width: 1600, height: 1200) { _, _ in Self.second }.write(to: URL(fileURLWithPath: paths[1]))
    }
}

/// Which desktop a parameterised test runs on.
enum DecoratingDesktop: String, CustomTestStringConvertible, CaseIterable {
    case mutter, weston

    var testDescription: String { rawValue }

    /// Starts it at 1024×768.
    func start() throws -> any Desktop {
        switch self {
        case .mutter: try MutterHeadless(width: 1024, height: 768)
        case .weston: try WestonInSway(width: 1024, height: 768)
        }
    }
}

/// How long a screen may take to show what the viewer drew, in seconds. One screenshot (grim of
/// the sway weston is nested in, mutter's screen cast) takes up to 12 s on a loaded machine
/// (measured at load 11 on 2 cores), and a wait must see more than one.
private let screenWait: Double = 30

/// The viewer's content found by the first picture's colour, filling an 800×600 window.
private func contentProblems(_ shot: Screenshot, colour: UInt32 = ColourPictures.first) -> (ScreenRect?, [String]) {
    guard let content = boundingBox(of: colour, in: shot) else { return (nil, ["no pixel of \(hex(colour)) on screen"]) }
    guard content.width == 800, content.height == 600 else { return (content, ["the content is \(content), not 800×600"]) }
    return (content, [])
}

/// The viewer with `--stats` and `arguments` on the compositor `environment` reaches, once it
/// has drawn its first frame (it ends when the value is released).
private func startViewer(_ arguments: [String], environment: [String: String]) throws -> ClientProcess {
    let viewer = try ClientProcess("image-viewer", ["--stats"] + arguments, environment: environment)
    try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") }
    return viewer
}

/// Where the first picture fills the viewer's 800×600 window on `desktop`, once it does.
private func awaitFirstPicture(on desktop: any Desktop) throws -> ScreenRect {
    let (problems, shot) = try awaitShot(timeout: screenWait, desktop.screenshot) { contentProblems($0).1 }
    guard problems.isEmpty, let content = contentProblems(shot).0 else {
        throw HarnessError(description: "\(desktop.name): \(problems)")
    }
    return content
}

@Suite("Live decorations under weston, mutter and sway", .timeLimit(.minutes(4)), .ownThreads)
struct DecorationLiveTests {
    @Test("weston headless: the window has libdecor's title bar with the file's name over its content")
    func westonHeadlessTitleBar() throws {
        let pictures = try ColourPictures()
        let weston = try WestonHeadless(width: 1024, height: 768, shell: .desktop, pixman: true)
        defer { weston.stop() }
        let viewer = try startViewer(pictures.paths, environment: weston.clientEnvironment)
        defer { viewer.terminate() }
        var content: ScreenRect?
        let (problems, shot) = try awaitShot(timeout: screenWait, weston.screenshot) { shot in
            let found = contentProblems(shot)
            content = found.0
            guard found.1.isEmpty, let rect = found.0 else { return found.1 }
            return CairoTitleBar.problems(shot, above: rect)
        }
        #expect(problems.isEmpty, "\(problems)")
        if !problems.isEmpty { try? shot.write(to: URL(fileURLWithPath: "/tmp/scrollkit-weston-decorations.ppm")) }
        // The bar is weston's window, not the viewer's: weston draws no decoration of its own.
        #expect(content.map { $0.y >= CairoTitleBar.height } ?? false)
        #expect(try mapsDecorationPlugin(viewer.process.processIdentifier), "libdecor's plugin is not loaded under weston")
    }

    @Test("The title bar shows the title: its glyphs change and narrow when the page turns to a shorter name",
          arguments: DecoratingDesktop.allCases)
    func titleBarShowsTitle(_ kind: DecoratingDesktop) throws {
        let pictures = try ColourPictures()
        let desktop = try kind.start()
        defer { desktop.stop() }
        var environment = desktop.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"  // libwayland logs every request: the titles libdecor sends
        let viewer = try startViewer(pictures.paths, environment: environment)
        defer { viewer.terminate() }
        let content = try awaitFirstPicture(on: desktop)
        // A click on the content gives the window the keyboard (and makes it the active one).
        try desktop.perform(DesktopInput.click(content.x + 400, content.y + 300) + DesktopInput.park(desktop.size))
        let (barProblems, before) = try awaitShot(timeout: screenWait, desktop.screenshot) { CairoTitleBar.problems($0, above: content) }
        #expect(barProblems.isEmpty, "\(kind): \(barProblems)")
        let firstGlyphs = CairoTitleBar.glyphPixels(before, above: content)
        try desktop.perform([.key("Right"), .pause(100)])
        // The second picture fills the same place, and the bar's text is another one.
        let (secondShown, after) = try awaitShot(timeout: screenWait, desktop.screenshot) { shot in
            let (rect, problems) = contentProblems(shot, colour: ColourPictures.second)
            return problems.isEmpty && rect != content ? ["the second picture is at \(rect!), not \(content)"] : problems
        }
        #expect(secondShown.isEmpty, "\(kind): \(secondShown)")
        let secondGlyphs = CairoTitleBar.glyphPixels(after, above: content)
        #expect(CairoTitleBar.problems(after, above: content).isEmpty)
        let changed = firstGlyphs.symmetricDifference(secondGlyphs).count
        // "first picture.png (1/2)" and "second.png (2/2)" share few pixels where they are drawn.
        #expect(changed > firstGlyphs.count / 2, "\(kind): \(changed) of \(firstGlyphs.count) glyph pixels changed")
        // Both centred alike, the second 7 characters shorter: at least 20 pixels narrower at the
        // bar's font (about 6 to 8 pixels a character), around the same middle.
        let first = try #require(CairoTitleBar.span(of: firstGlyphs)), second = try #require(CairoTitleBar.span(of: secondGlyphs))
        #expect(first.count - second.count >= 20, "\(kind): title glyphs span \(first) then \(second)")
        #expect(abs((first.lowerBound + first.upperBound) - (second.lowerBound + second.upperBound)) <= 8,
                "\(kind): title glyphs span \(first) then \(second), not around one middle")
        // The same titles reach the compositor (task lists, window switchers) through libdecor.
        let titles = viewer.stderr.lines.filter { $0.contains("xdg_toplevel@") && $0.contains(".set_title(") }
        #expect(titles.contains { $0.hasSuffix("set_title(\"first picture.png (1/2) — ScrollKit\")") }, "\(kind): \(titles)")
        #expect(titles.last?.hasSuffix("set_title(\"second.png (2/2) — ScrollKit\")") == true, "\(kind): \(titles)")
        #expect(try mapsDecorationPlugin(viewer.process.processIdentifier))
    }

    @Test("Dragged by its title bar the window moves, dragged by its right and bottom edges it grows, and its close button quits",
          arguments: DecoratingDesktop.allCases)
    func moveResizeClose(_ kind: DecoratingDesktop) throws {
        let pictures = try ColourPictures()
        let desktop = try kind.start()
        defer { desktop.stop() }
        let viewer = try startViewer(pictures.paths, environment: desktop.clientEnvironment)
        defer { viewer.terminate() }
        let start = try awaitFirstPicture(on: desktop)
        // To the top left, clear of the edges (where compositors snap), leaving room to grow.
        let moved = ScreenRect(x: 40, y: 60, width: 800, height: 600)
        let grab = CairoTitleBar.grabPoint(above: start)
        try desktop.perform(DesktopInput.drag(from: grab, to: (grab.0 + moved.x - start.x, grab.1 + moved.y - start.y))
                            + DesktopInput.park(desktop.size))
        // The first picture, unscrolled, at the new place: the drag went to the bar, not the pager.
        let (moveProblems, movedShot) = try awaitShot(timeout: screenWait, desktop.screenshot) { shot in
            let (rect, problems) = contentProblems(shot)
            return problems.isEmpty && rect != moved ? ["the content is at \(rect!) after the drag, not \(moved)"] : problems
        }
        #expect(moveProblems.isEmpty, "\(kind): \(moveProblems)")
        #expect(CairoTitleBar.problems(movedShot, above: moved).isEmpty, "\(kind): the bar did not move with the window")
        // The right edge, then the bottom one, each grabbed in the shadow just outside the
        // content, where libdecor takes resizes: each side grows on its own.
        let wider = try resize(viewer, on: desktop, from: (moved.maxX + 6, moved.y + 300), by: (80, 0))
        #expect((870...890).contains(wider.width) && wider.height == 600,
                "\(kind): after an (80, 0) drag on the right edge the window's buffer is \(wider.width)×\(wider.height)")
        let taller = try resize(viewer, on: desktop, from: (moved.x + wider.width / 2, moved.maxY + 6), by: (0, 60))
        #expect(taller.width == wider.width && (650...670).contains(taller.height),
                "\(kind): after a (0, 60) drag on the bottom edge the window's buffer is \(taller.width)×\(taller.height)")
        // The close button of the grown window: the viewer quits as when Q is pressed.
        let resized = ScreenRect(x: moved.x, y: moved.y, width: taller.width, height: taller.height)
        let shot = try desktop.screenshot()
        #expect(CairoTitleBar.problems(shot, above: resized).isEmpty, "\(kind): no bar above the grown window \(resized)")
        try desktop.perform(DesktopInput.click(CairoTitleBar.closeButton(above: resized).0, CairoTitleBar.closeButton(above: resized).1))
        let status = viewer.waitForExit(timeout: 10)
        #expect(status == 0, "\(kind): status \(String(describing: status)) after the close button")
        #expect(viewer.stderr.lines.filter { !$0.hasPrefix("{") }.isEmpty, "\(kind): \(viewer.stderr.lines.suffix(5))")
    }

    @Test("Fullscreen hides the bar and F brings it back; a kiosk has none and never loads libdecor's plugin",
          arguments: DecoratingDesktop.allCases)
    func fullscreenAndKioskUndecorated(_ kind: DecoratingDesktop) throws {
        let pictures = try ColourPictures()
        let desktop = try kind.start()
        defer { desktop.stop() }
        let whole = ScreenRect(x: 0, y: 0, width: desktop.size.width, height: desktop.size.height)
        // 4:3 pictures fill a 4:3 output edge to edge: no bar, border or shadow anywhere.
        func fillsOutput(_ shot: Screenshot) -> [String] {
            let rect = boundingBox(of: ColourPictures.first, in: shot)
            return rect == whole ? [] : ["the picture covers \(rect.map(\.description) ?? "nothing"), not the whole \(whole)"]
        }
        let fullscreen = try startViewer(["--fullscreen"] + pictures.paths, environment: desktop.clientEnvironment)
        defer { fullscreen.terminate() }
        let (full, _) = try awaitShot(timeout: screenWait, desktop.screenshot, fillsOutput)
        #expect(full.isEmpty, "\(kind), --fullscreen: \(full)")
        // F leaves fullscreen: the window comes back with libdecor's bar above its content.
        try desktop.perform(DesktopInput.click(whole.width / 2, whole.height / 2) + [.key("f"), .pause(100)]
                            + DesktopInput.park(desktop.size))
        let (windowed, _) = try awaitShot(timeout: screenWait, desktop.screenshot) { shot in
            guard let content = boundingBox(of: ColourPictures.first, in: shot) else { return ["no picture on screen"] }
            guard content != whole else { return ["still fullscreen"] }
            return CairoTitleBar.problems(shot, above: content)
        }
        #expect(windowed.isEmpty, "\(kind), after F: \(windowed)")
        try desktop.perform([.key("q"), .pause(100)])
        #expect(fullscreen.waitForExit(timeout: 10) == 0, "\(kind): the fullscreen viewer did not quit on Q")

        let kiosk = try startViewer(["--kiosk"] + pictures.paths, environment: desktop.clientEnvironment)
        defer { kiosk.terminate() }
        let (kioskProblems, _) = try awaitShot(timeout: screenWait, desktop.screenshot, fillsOutput)
        #expect(kioskProblems.isEmpty, "\(kind), --kiosk: \(kioskProblems)")
        #expect(try !mapsDecorationPlugin(kiosk.process.processIdentifier), "\(kind): a kiosk loaded libdecor's plugin")
    }

    @Test("Under sway the compositor decorates: the content fills the output, with nothing of libdecor's, whose plugin stays unloaded")
    func swayDrawsItsOwn() throws {
        let pictures = try ColourPictures()
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        var environment = sway.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"  // libwayland logs every request and event on stderr
        let viewer = try startViewer(pictures.paths, environment: environment)
        defer { viewer.terminate() }
        let (problems, _) = try awaitShot(timeout: screenWait, sway.screenshot) { shot in
            let (rect, problems) = contentProblems(shot)
            return problems.isEmpty && rect != ScreenRect(x: 0, y: 0, width: 800, height: 600)
                ? ["the content is at \(rect!), not over the whole output"] : problems
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(try !mapsDecorationPlugin(viewer.process.processIdentifier), "libdecor's plugin was loaded under sway")
        // Server-side decorations asked for and granted (mode 2); this sway's config draws no border.
        let granted = viewer.stderr.lines.contains { $0.contains("zxdg_toplevel_decoration_v1@") && $0.contains(".configure(2)") }
        #expect(granted, "no server-side decoration mode from sway")
    }
}

/// Drags from `start` by `delta` with the left button and returns the size of the viewer's last
/// frame once it has drawn what the compositor asked for. A compositor resizing interactively
/// waits for each size to be drawn before sending the next (mutter), and a debug build on a
/// busy machine draws slowly: the pointer rests at the end, is nudged once the window has caught
/// up, and is released when it has again.
private func resize(_ viewer: ClientProcess, on desktop: any Desktop, from start: (Int, Int), by delta: (Int, Int)) throws
    -> (width: Int, height: Int) {
    let end = (start.0 + delta.0, start.1 + delta.1)
    try desktop.perform(DesktopInput.pressAndMove(from: start, to: end))
    try awaitQuiet(viewer, quiet: 1, timeout: 60)
    try desktop.perform([.move(end.0 - 1, end.1 - 1), .pause(50), .move(end.0, end.1), .pause(100)])
    try awaitQuiet(viewer, quiet: 1, timeout: 60)
    try desktop.perform([.release, .pause(200)] + DesktopInput.park(desktop.size))
    try awaitQuiet(viewer, quiet: 1, timeout: 60)
    let last = statsFields(try #require(viewer.stderr.lines.last { isStats($0, "frame") }))
    return (Int(last["width"] ?? 0), Int(last["height"] ?? 0))
}
