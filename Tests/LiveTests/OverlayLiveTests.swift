// The viewer's overlays under sway headless: the page overlay after a swipe, the information
// panel and the help appearing and going with their keys, each compared pixel for pixel with the
// Gallery's own overlay view rendered offscreen over the same screen without it; and a kiosk
// showing none of them.
import CompositorHarness
import Foundation
import Gallery
import Pictures
import Raster
import ScrollKit
import Testing

/// A screenshot as tiled content: the screen an overlay is expected over.
private final class ScreenshotView: View, TiledContent {
    let shot: Screenshot

    init(_ shot: Screenshot) {
        self.shot = shot
        super.init(frame: CGRect(x: 0, y: 0, width: shot.width, height: shot.height))
    }

    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        for y in 0..<rect.height {
            for x in 0..<rect.width where rect.x + x < shot.width && rect.y + y < shot.height {
                target[x, y] = shot.pixel(rect.x + x, rect.y + y)
            }
        }
    }

    var isOpaqueContent: Bool { true }
}

/// What the screen should show in `overlay`'s frame: the overlay (placed, laid out) rendered by
/// the renderer over `screen`.
private struct ExpectedOverlay {
    let frame: PixelRect
    let pixels: [UInt32]

    init(_ overlay: View, over screen: Screenshot) {
        let root = View(frame: CGRect(x: 0, y: 0, width: screen.width, height: screen.height))
        root.addSubview(ScreenshotView(screen))
        overlay.isHidden = false
        root.addSubview(overlay)
        let buffer = OwnedFramebuffer(width: screen.width, height: screen.height)!
        Renderer().render(root, into: buffer, bufferAge: 0)
        let f = overlay.frame
        frame = PixelRect(x: Int(f.minX), y: Int(f.minY), width: Int(f.width.rounded(.up)), height: Int(f.height.rounded(.up)))
        var pixels: [UInt32] = []
        for y in frame.y..<(frame.y + frame.height) {
            for x in frame.x..<(frame.x + frame.width) { pixels.append(buffer.framebuffer[x, y]) }
        }
        self.pixels = pixels
    }

    /// Where `shot` differs from the expected overlay by more than `cardTolerance` in a channel
    /// (a few, then the count); empty when it shows it.
    func problems(_ shot: Screenshot) -> [String] {
        var problems: [String] = [], wrong = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let want = pixels[y * frame.width + x], got = shot.pixel(frame.x + x, frame.y + y)
                func channel(_ p: UInt32, _ c: Int) -> Int { Int((p >> UInt32(8 * c)) & 0xFF) }
                let close = (0..<3).allSatisfy { abs(channel(want, $0) - channel(got, $0)) <= cardTolerance }
                if !close {
                    wrong += 1
                    if problems.count < 4 { problems.append("(\(frame.x + x), \(frame.y + y)) is \(hex(got)), expected \(hex(want))") }
                }
            }
        }
        if wrong > problems.count { problems.append("… \(wrong) of \(frame.width * frame.height) pixels differ") }
        return problems
    }
}

/// The window's size in the live tests.
private let window = CGSize(width: 800, height: 600)

/// The page overlay the viewer shows over page `index` of `count` at `zoom`.
private func pageOverlay(_ name: String, _ detail: String) -> PageOverlayView {
    let overlay = PageOverlayView()
    overlay.show(name: name, detail: detail)
    overlay.layout(in: window)
    return overlay
}

/// A panel laid out as the viewer lays its panels out: within the window less 16 pt margins,
/// at the top left (information) or centred (help).
private func panel(title: String, rows: [(key: String, value: String)], boldKeys: Bool, centred: Bool) -> PanelView {
    let panel = PanelView(title: title, boldKeys: boldKeys)
    panel.set(title: title, rows: rows)
    panel.layout(maxSize: CGSize(width: window.width - 32, height: window.height - 32))
    let size = panel.frame.size
    panel.frame.origin = centred
        ? CGPoint(x: ((window.width - size.width) / 2).rounded(), y: ((window.height - size.height) / 2).rounded())
        : CGPoint(x: 16, y: 16)
    return panel
}

@Suite("Live overlays under sway headless", .timeLimit(.minutes(4)), .ownThreads)
struct OverlayLiveTests {
    @Test("A swipe shows the new page's name, position and zoom over it, as the Gallery draws them; then it fades away")
    func pageChangeOverlay() throws {
        let sunsetPath = DecodedImage.assetPath(sunsetAsset), bubblesPath = DecodedImage.assetPath(bubblesAsset)
        let run = try DesktopRun([sunsetPath, bubblesPath])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset), bubbles = try DecodedImage.asset(bubblesAsset)
        let sunsetFit = Placement.fit(sunset, width: 800, height: 600), bubblesFit = Placement.fit(bubbles, width: 800, height: 600)
        #expect(try run.waitFor(sunset, sunsetFit).isEmpty)
        // The overlay holds 1.5 s after the page changes; grim took 0.3-1.9 s a screenshot on a
        // loaded machine, so a page change whose overlay no screenshot caught is tried again
        // (back and forth, each a page change of its own), up to three times.
        var caught: String?
        var misses: [String] = []
        for attempt in 0..<3 where caught == nil {
            let forward = attempt % 2 == 0
            try run.inject.run([forward ? "drag 700 300 150 300 150 10" : "drag 150 300 700 300 150 10", parkPointer])
            let swiped = Date()
            var shots: [Screenshot] = []
            while Date().timeIntervalSince(swiped) < 1.4 { shots.append(try run.shot()) }
            // The page at rest, the overlay gone: what the overlay is drawn over.
            let (image, fit) = forward ? (bubbles, bubblesFit) : (sunset, sunsetFit)
            let rest = try run.waitFor(image, fit)
            #expect(rest.isEmpty, "after the overlay's fade, \(image.name) is not at its fit: \(rest)")
            // 800×800 at 3/4, 1200×800 at 2/3.
            let expected = ExpectedOverlay(forward ? pageOverlay("02-bubbles-alpha.png", "2 / 2 · 75%")
                                                   : pageOverlay("01-sunset.png", "1 / 2 · 67%"), over: try run.shot())
            #expect(expected.frame.y + expected.frame.height == 600 - 24 && abs(expected.frame.x * 2 + expected.frame.width - 800) <= 1)
            let problems = shots.map(expected.problems)
            if problems.contains(where: \.isEmpty) {
                caught = forward ? "page 2" : "page 1"
            } else {
                misses.append("attempt \(attempt + 1): \(shots.count) screenshots, the closest: \(problems.min { $0.count < $1.count } ?? [])")
            }
        }
        #expect(caught != nil, "no screenshot showed the page overlay: \(misses)")
        #expect(run.viewer.isRunning)
    }

    @Test("I shows the information panel at the top left and hides it again; ? and H show and hide the help in the middle")
    func panels() throws {
        let sunsetPath = DecodedImage.assetPath(sunsetAsset)
        let run = try DesktopRun([sunsetPath, DecodedImage.assetPath(bubblesAsset)])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset)
        let fit = Placement.fit(sunset, width: 800, height: 600)
        #expect(try run.waitFor(sunset, fit).isEmpty)
        let screen = try run.shot()

        var facts = PageFacts(path: sunsetPath, index: 0, count: 2)
        facts.format = "PNG"
        facts.pixelWidth = 1200
        facts.pixelHeight = 800
        let info = ExpectedOverlay(panel(title: "01-sunset.png", rows: InformationRows.rows(facts, PictureDetails.read(path: sunsetPath)),
                                         boldKeys: false, centred: false), over: screen)
        try run.inject.run(["tap i"])
        let shown = try awaitShot(timeout: 10, run.shot) { info.problems($0) }
        #expect(shown.problems.isEmpty, "the information panel: \(shown.problems)")
        #expect(info.frame.x == 16 && info.frame.y == 16 && info.frame.width > 250 && info.frame.height > 150, "\(info.frame)")
        // Beside it, the picture as it was.
        #expect(placementProblems(shown.shot, sunset, fit, points: coarseGrid.filter { p in
            p.0 > info.frame.x + info.frame.width + 4 || p.1 > info.frame.y + info.frame.height + 4 }).isEmpty)
        try run.inject.run(["tap i"])
        #expect(try run.waitFor(sunset, fit).isEmpty, "the panel did not go")

        let rows = GalleryKeyBindings.helpRows(in: GalleryKeyBindings.Context(isKiosk: false)).map { (key: $0.keys, value: $0.summary) }
        let help = ExpectedOverlay(panel(title: "Keys and gestures", rows: rows, boldKeys: true, centred: true), over: screen)
        try run.inject.run(["tap question"])
        let problems = try awaitShot(timeout: 10, run.shot) { help.problems($0) }.problems
        #expect(problems.isEmpty, "the help: \(problems)")
        #expect(abs(help.frame.x * 2 + help.frame.width - 800) <= 1 && help.frame.height > 300, "\(help.frame)")
        try run.inject.run(["tap h"])
        #expect(try run.waitFor(sunset, fit).isEmpty, "the help did not go")
    }

    @Test("A kiosk shows none of them: a swipe leaves the picture bare, and O, I, ? and H draw nothing")
    func kioskShowsNothing() throws {
        let run = try DesktopRun(["--kiosk", DecodedImage.assetPath(sunsetAsset), DecodedImage.assetPath(bubblesAsset)])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset), bubbles = try DecodedImage.asset(bubblesAsset)
        let bubblesFit = Placement.fit(bubbles, width: 800, height: 600)
        #expect(try run.waitFor(sunset, .fit(sunset, width: 800, height: 600)).isEmpty)
        try run.swipeLeft()
        let swiped = Date()
        // Once the page rests, every screenshot until well past the overlay's hold is the bare
        // picture, its bottom (where the overlay goes) included.
        #expect(try run.waitFor(bubbles, bubblesFit).isEmpty)
        // At least one shot even when the page took longer than that to rest (a loaded machine).
        repeat {
            let problems = placementProblems(try run.shot(), bubbles, bubblesFit, points: fineGrid)
            #expect(problems.isEmpty, "\(Date().timeIntervalSince(swiped)) s after the swipe: \(problems)")
        } while Date().timeIntervalSince(swiped) < 2.5
        // The keys change nothing: no frame is committed for them.
        try awaitQuiet(run.viewer)
        let frames = run.viewer.stderr.lines.filter { isStats($0, "frame") }.count
        try run.inject.run(["tap o", "tap i", "tap question", "tap h", "sleep 500"])
        #expect(run.viewer.stderr.lines.filter { isStats($0, "frame") }.count == frames, "the kiosk drew frames for O, I, ? and H")
        #expect(placementProblems(try run.shot(), bubbles, bubblesFit, points: fineGrid).isEmpty)
    }
}
