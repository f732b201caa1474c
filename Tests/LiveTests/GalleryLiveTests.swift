// The image viewer's gallery under real compositors: the first picture fitted, a swipe to the
// next, zooming around the pointer and the fingers, error cards for bad files, the kiosk's
// idle reset. Screens are compared with the assets as the project's decoders decode them.
import CompositorHarness
import Foundation
import Gallery
import Glibc
import Pictures
import Raster
import ScrollKit
import Testing

/// 01-sunset.png: 1200×800 RGB (Assets/README.md).
let sunsetAsset = "01-sunset.png"
/// 02-bubbles-alpha.png: 800×800 RGBA, composited over the viewer's black page.
let bubblesAsset = "02-bubbles-alpha.png"

/// The sun of 01-sunset.png, a flat disc: Scripts/make-assets.py draws it at
/// (0.68·1200, 0.52·800) with radius 0.13·800, in (255, 236, 170). Hills cover its lower
/// part; the row through its centre and its top are clear sky around it.
enum Sun {
    /// Centre, image pixels.
    static let centerX = 816.0, centerY = 416.0
    /// Radius, image pixels.
    static let radius = 104.0
    /// 40 per channel: sky pixels next to the disc differ from it by more than 60 in green
    /// (make-assets.py's glow adds at most 70 to a sky green below 170), resampled edge
    /// pixels lie between (decision).
    static let tolerance = 40

    /// Whether `pixel` is the sun's colour.
    static func isSun(_ pixel: UInt32) -> Bool {
        abs(Int((pixel >> 16) & 0xFF) - 255) <= tolerance && abs(Int((pixel >> 8) & 0xFF) - 236) <= tolerance
            && abs(Int(pixel & 0xFF) - 170) <= tolerance
    }

    /// The sun on screen, measured from `(x, y)` inside it: the first and last sun pixels of
    /// row `y` and the topmost of column `x`; nil when `(x, y)` is not on the sun.
    static func measure(_ shot: Screenshot, from x: Int, _ y: Int) -> (left: Int, right: Int, top: Int)? {
        guard isSun(shot.pixel(x, y)) else { return nil }
        var left = x, right = x, top = y
        while left > 0 && isSun(shot.pixel(left - 1, y)) { left -= 1 }
        while right < shot.width - 1 && isSun(shot.pixel(right + 1, y)) { right += 1 }
        while top > 0 && isSun(shot.pixel(x, top - 1)) { top -= 1 }
        return (left, right, top)
    }

    /// The sun's scale on screen (its chord through `y` over its diameter), and its centre
    /// found from the chord's middle and the top edge; nil when `(x, y)` is not on the sun.
    /// `y` must be the centre's row (the chord is then the diameter).
    static func locate(_ shot: Screenshot, from x: Int, _ y: Int) -> (scale: Double, x: Double, y: Double)? {
        guard let m = measure(shot, from: x, y) else { return nil }
        let scale = Double(m.right - m.left + 1) / (2 * radius)
        return (scale, Double(m.left + m.right + 1) / 2, Double(m.top) + radius * scale)
    }
}

/// Where tests under sway leave the pointer between gestures: the window's top-right pixel.
/// wlroots draws the cursor into the frame on the headless backend, so grim's screenshots show
/// it; parked here, the arrow lies almost wholly outside the output.
let pointerParking = (x: 799, y: 0)

/// The injector command that moves the pointer to `pointerParking`.
let parkPointer = "abs \(pointerParking.x) \(pointerParking.y)"

/// Whether a screen point may be covered by the parked cursor: 32 px around the parking
/// spot, the size of the largest default cursor image (decision, from the 24 px default theme
/// with room to spare).
func nearParkedCursor(_ p: (Int, Int)) -> Bool {
    abs(p.0 - pointerParking.x) < 32 && abs(p.1 - pointerParking.y) < 32
}

/// Every 7 px over an 800×600 screen: about 10 000 points, dense enough that every edge of
/// the pictures crosses many of them (decision).
let fineGrid = gridPoints(width: 800, height: 600, step: 7).filter { !nearParkedCursor($0) }
/// Every 19 px: a quicker comparison for waiting on a screen and for searching placements.
let coarseGrid = gridPoints(width: 800, height: 600, step: 19).filter { !nearParkedCursor($0) }

/// The viewer's error card for `title` and `message` on a black page `pageWidth` points wide,
/// drawn by the Gallery's own card at scale 1, and where the page centres it.
func expectedCard(title: String, message: String, pageWidth: Int, pageHeight: Int)
    -> (x: Int, y: Int, width: Int, height: Int, pixels: [UInt32]) {
    let card = CardView(title: title, message: message)
    // PageView lays its card out 16 pt inside each side of the page and centres it, rounded.
    card.layout(maxWidth: CGFloat(pageWidth) - 32, maxHeight: CGFloat(pageHeight) - 32)
    let width = Int(card.frame.width), height = Int(card.frame.height)
    // The card and its labels, rendered by the renderer over the black page.
    let page = View(frame: CGRect(x: 0, y: 0, width: width, height: height))
    page.backgroundColor = .black
    page.addSubview(card)
    let buffer = OwnedFramebuffer(width: width, height: height)!
    Renderer().render(page, into: buffer, bufferAge: 0)
    let x = Int(((CGFloat(pageWidth) - card.frame.width) / 2).rounded())
    let y = Int(((CGFloat(pageHeight) - card.frame.height) / 2).rounded())
    return (x, y, width, height, buffer.pixels)
}

/// 3 per channel: the card's antialiased corners blend over the page in the compositor's
/// premultiplied arithmetic, the reference over opaque black in one step (decision).
let cardTolerance = 3

/// Compares the screenshot with the expected card and the black page a few pixels around it.
func errorCardProblems(_ shot: Screenshot, _ card: (x: Int, y: Int, width: Int, height: Int, pixels: [UInt32])) -> [String] {
    var problems: [String] = []
    func close(_ a: UInt32, _ b: UInt32) -> Bool {
        (0..<3).allSatisfy { c in
            let shift = UInt32(8 * c)
            return abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) <= cardTolerance
        }
    }
    var wrong = 0
    for y in 0..<card.height {
        for x in 0..<card.width {
            let expected = card.pixels[y * card.width + x], got = shot.pixel(card.x + x, card.y + y)
            if !close(got, expected) {
                wrong += 1
                if problems.count < 6 { problems.append("card pixel (\(x), \(y)) at (\(card.x + x), \(card.y + y)) is \(hex(got)), expected \(hex(expected))") }
            }
        }
    }
    if wrong > problems.count { problems.append("… \(wrong) card pixels differ") }
    // The page around the card is black: a frame 8 px outside it.
    for x in (card.x - 8)...(card.x + card.width + 7) {
        for y in [card.y - 8, card.y + card.height + 7] where shot.pixel(x, y) & 0xFF_FFFF != 0 {
            problems.append("page pixel (\(x), \(y)) beside the card is \(hex(shot.pixel(x, y))), expected black")
            return problems
        }
    }
    return problems
}

/// A gallery under sway headless with one pointer-and-keyboard injector, connected first.
struct DesktopRun {
    let sway: SwayHeadless
    let inject: Injector
    let viewer: ClientProcess
    /// The first-frame stats line's fields.
    let firstFrame: [String: Double]

    init(_ arguments: [String]) throws {
        sway = try SwayHeadless(width: 800, height: 600)
        do {
            inject = try Injector(environment: sway.clientEnvironment, options: ["--extent", "800x600"])
            viewer = try ClientProcess("image-viewer", arguments + ["--stats"], environment: sway.clientEnvironment)
            firstFrame = statsFields(try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") })
            // A motion into the window gives the viewer pointer focus.
            try inject.run(["abs 400 300", "sleep 50", parkPointer])
        } catch {
            sway.stop()
            throw error
        }
    }

    func stop() {
        viewer.terminate()
        inject.stop()
        sway.stop()
    }

    func shot() throws -> Screenshot { try sway.screenshot() }

    /// A fast leftward pointer drag across the window (the next page), then the pointer parked.
    func swipeLeft() throws {
        try inject.run(["drag 700 300 150 300 150 10", parkPointer])
    }

    /// Waits until the screen shows `image` at `placement` on the fine grid; returns the problems
    /// left. Each screenshot is checked on the coarse grid first, the fine one only when that
    /// passes. Waiting on the coarse grid alone and checking the fine one once returned during
    /// the last frames of a fade: a 3 px scroll indicator or an overlay at a few percent passes
    /// the coarse grid, and the fine grid then failed on pixels a moment from being right (an
    /// indicator strip at x 794 after a double click, an overlay's last shade at its bottom).
    /// A picture that never came is named with what the viewer printed last (its frame lines
    /// say whether it drew at all, and what).
    func waitFor(_ image: DecodedImage, _ placement: Placement, timeout: Double = 10) throws -> [String] {
        let problems = try awaitShot(timeout: timeout, self.shot) { shot in
            let coarse = placementProblems(shot, image, placement, points: coarseGrid)
            return coarse.isEmpty ? placementProblems(shot, image, placement, points: fineGrid) : coarse
        }.problems
        guard !problems.isEmpty else { return [] }
        return problems + ["image-viewer's last lines:\n" + viewer.stderr.lines.suffix(15).joined(separator: "\n")]
    }
}

/// A double click (or double tap) a user makes: two presses 80 ms apart.
func doubleClick(atX x: Int, _ y: Int) -> [String] {
    ["abs \(x) \(y)", "button left press", "button left release", "sleep 80", "button left press", "button left release"]
}

/// What a zoom left on screen: the picture's placement found near the expected one, and the
/// sun measured around the anchor point.
struct ZoomOutcome {
    var placement: Placement
    var problems: [String]
    var sun: (scale: Double, x: Double, y: Double)?
}

/// Waits until `viewer` has stopped committing frames (the zoom animation and the indicators'
/// fade ended), then takes screenshots until the picture shows at `expected`'s scale within
/// `anchorTolerance` of its place with the sun's centre still at `point`, or 10 s pass;
/// returns what the last screenshot showed. One screenshot is not enough: after a Ctrl+wheel
/// zoom, sway showed the scroll indicator 0.6 s after the viewer's last commit had removed it,
/// and no longer 1 s later with no commit in between.
func awaitZoom(_ viewer: ClientProcess, _ take: () throws -> Screenshot, _ image: DecodedImage, expected: Placement,
               at point: (Int, Int)) throws -> ZoomOutcome {
    try awaitQuiet(viewer)
    let radius = Int(anchorTolerance)
    var outcome = ZoomOutcome(placement: expected, problems: ["no screenshot"], sun: nil)
    _ = try awaitShot(timeout: 10, take) { shot in
        let found = bestPlacement(shot, image, near: expected, radius: radius, points: coarseGrid, verify: fineGrid)
        outcome = ZoomOutcome(placement: found.placement, problems: found.problems, sun: Sun.locate(shot, from: point.0, point.1))
        guard found.problems.isEmpty else { return found.problems }
        guard let sun = outcome.sun, abs(sun.x - Double(point.0)) <= anchorTolerance + 1,
              abs(sun.y - Double(point.1)) <= anchorTolerance + 1 else { return ["sun \(String(describing: outcome.sun))"] }
        return []
    }
    return outcome
}

/// Checks a zoom's outcome: the picture at `expected`'s scale placed within `anchorTolerance`
/// of it (the image point under `point` stayed there), and the sun magnified as the scale says
/// with its centre still at `point`.
func expectZoom(_ outcome: ZoomOutcome, expected: Placement, point: (Int, Int),
                sunBefore: (scale: Double, x: Double, y: Double)) throws {
    #expect(outcome.problems.isEmpty, "no placement within \(anchorTolerance) px of \(expected) matches: \(outcome.problems)")
    let drift = max(abs(outcome.placement.originX - expected.originX), abs(outcome.placement.originY - expected.originY))
    #expect(drift <= anchorTolerance, "the picture is at \(outcome.placement), \(drift) px from \(expected)")
    let sun = try #require(outcome.sun, "the anchor point \(point) is no longer on the sun")
    let magnification = sun.scale / sunBefore.scale
    let wanted = expected.scale / sunBefore.scale
    // 5 %: the sun's chord is measured to a pixel or two of about 140-280 (decision).
    #expect(abs(magnification - wanted) < 0.05 * wanted, "the sun grew \(magnification)×, expected \(wanted)×")
    #expect(abs(sun.x - Double(point.0)) <= anchorTolerance + 1 && abs(sun.y - Double(point.1)) <= anchorTolerance + 1,
            "the sun's centre moved from (\(sunBefore.x), \(sunBefore.y)) to (\(sun.x), \(sun.y)); anchor at \(point)")
}

/// The sun's centre at the fit in an 800×600 window, rounded to the pixel a pointer aims at.
func sunPointer(_ fit: Placement) -> (x: Int, y: Int) {
    let p = fit.screenPoint(Sun.centerX, Sun.centerY)
    return (Int(p.x.rounded()), Int(p.y.rounded()))
}

/// 2 px: how far the image point under the pointer (or the fingers' centre) may drift from
/// it across a zoom (decision: the renderer snaps the picture to whole pixels, and the zoom
/// keeps the point in floating point).
let anchorTolerance = 2.0

@Suite("Live gallery under sway headless", .timeLimit(.minutes(3)), .ownThreads)
struct GalleryLiveTests {
    @Test("The first picture is fitted and centred: its pixels where the fit puts them, black letterbox above and below")
    func firstPictureFitted() throws {
        let run = try DesktopRun([DecodedImage.assetPath(sunsetAsset), DecodedImage.assetPath(bubblesAsset)])
        defer { run.stop() }
        #expect(run.firstFrame["width"] == 800 && run.firstFrame["height"] == 600, "first frame \(run.firstFrame)")
        let sunset = try DecodedImage.asset(sunsetAsset)
        // 1200×800 in 800×600: scale 2/3, 800×533.3 at y = 33.3.
        let fit = Placement.fit(sunset, width: 800, height: 600)
        #expect(abs(fit.scale - 2.0 / 3) < 1e-9 && fit.originX == 0 && abs(fit.originY - 100.0 / 3) < 1e-9)
        let problems = try run.waitFor(sunset, fit)
        #expect(problems.isEmpty, "\(fit): \(problems)")
        let shot = try run.shot()
        // The known pixels of Assets/README.md: the (12, 34, 56) square at the image's top-left
        // (image 0…15 → screen 0…10, 33…43) and the (250, 128, 4) one at its bottom-right.
        #expect(shot.pixel(5, 38) & 0xFF_FFFF == 0x0C_2238, "top-left patch: \(hex(shot.pixel(5, 38)))")
        #expect(shot.pixel(794, 561) & 0xFF_FFFF == 0xFA_8004, "bottom-right patch: \(hex(shot.pixel(794, 561)))")
        // The letterbox: rows 0…32 and 567…599 are the black page (but for the parked cursor).
        let letterbox = (0..<800).flatMap { x in [0, 16, 32, 567, 583, 599].map { (x, $0) } }
            .filter { !nearParkedCursor($0) && shot.pixel($0.0, $0.1) & 0xFF_FFFF != 0 }
        #expect(letterbox.isEmpty, "letterbox pixels not black: \(letterbox.prefix(5))")
        // The comparison is sharp enough to see the picture 3 px off.
        #expect(!placementProblems(shot, sunset, fit.shifted(3, 0), points: fineGrid).isEmpty)
        #expect(!placementProblems(shot, sunset, fit.shifted(0, -3), points: fineGrid).isEmpty)
    }

    @Test("A leftward drag turns to the second picture, fitted and centred")
    func swipeShowsSecond() throws {
        let run = try DesktopRun([DecodedImage.assetPath(sunsetAsset), DecodedImage.assetPath(bubblesAsset)])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset), bubbles = try DecodedImage.asset(bubblesAsset)
        #expect(try run.waitFor(sunset, .fit(sunset, width: 800, height: 600)).isEmpty)
        try run.swipeLeft()
        // 800×800 in 800×600: scale 3/4, 600×600 at x = 100.
        let fit = Placement.fit(bubbles, width: 800, height: 600)
        let problems = try run.waitFor(bubbles, fit)
        #expect(problems.isEmpty, "\(fit): \(problems)")
        let shot = try run.shot()
        // Assets/README.md: the top-right square is straight (200, 100, 50) at alpha 128, over
        // the checkerboard's dark square there (8 px squares from the picture's corner at
        // (100, 0): column 74, row 0), 100 + 128·127/255 = 164 and so on; the top-left one is
        // transparent, the dark square itself.
        let orange = shot.pixel(695, 5)
        #expect(abs(Int(orange >> 16 & 0xFF) - 164) <= 2 && abs(Int(orange >> 8 & 0xFF) - 114) <= 2
            && abs(Int(orange & 0xFF) - 89) <= 2, "top-right patch: \(hex(orange))")
        #expect(shot.pixel(105, 5) & 0xFF_FFFF == 0x80_8080, "top-left patch: \(hex(shot.pixel(105, 5)))")
        #expect(shot.pixel(109, 5) & 0xFF_FFFF == 0xCC_CCCC, "the next square: \(hex(shot.pixel(109, 5)))")
        #expect(placementProblems(shot, sunset, .fit(sunset, width: 800, height: 600), points: coarseGrid).count > 0)
    }

    @Test("A double click zooms to 1:1 around the pointer; a second one returns to the fit")
    func doubleClickZoom() throws {
        let run = try DesktopRun([DecodedImage.assetPath(sunsetAsset), DecodedImage.assetPath(bubblesAsset)])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset)
        let fit = Placement.fit(sunset, width: 800, height: 600)
        #expect(try run.waitFor(sunset, fit).isEmpty)
        let (px, py) = sunPointer(fit)  // (544, 311)
        let before = try #require(Sun.locate(try run.shot(), from: px, py), "no sun under the pointer at the fit")
        try run.inject.run(doubleClick(atX: px, py) + [parkPointer])
        // The image point under the pointer at the fit stays under it at scale 1.
        let anchor = fit.imagePoint(Double(px), Double(py))
        let expected = Placement.keeping(anchor.x, anchor.y, at: Double(px), Double(py), scale: 1)
        let outcome = try awaitZoom(run.viewer, run.shot, sunset, expected: expected, at: (px, py))
        try expectZoom(outcome, expected: expected, point: (px, py), sunBefore: before)
        try run.inject.run(doubleClick(atX: px, py) + [parkPointer])
        let back = try run.waitFor(sunset, fit)
        #expect(back.isEmpty, "after the second double click, not at the fit: \(back)")
    }

    @Test("Ctrl and four wheel notches up double the scale around the pointer")
    func ctrlWheelZoom() throws {
        try ctrlWheelZoom(afterRest: false)
    }

    @Test("At rest the window keeps one buffer; a Ctrl+wheel zoom after the rest draws as one before it")
    func zoomAfterRest() throws {
        try ctrlWheelZoom(afterRest: true)
    }

    /// Four Ctrl+wheel notches at the sun, from the fit; `afterRest`: once the window has given
    /// its spare buffers back (Window.restDelay, 2 s after its last commit), which it checks.
    private func ctrlWheelZoom(afterRest: Bool) throws {
        let run = try DesktopRun([DecodedImage.assetPath(sunsetAsset), DecodedImage.assetPath(bubblesAsset)])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset)
        let fit = Placement.fit(sunset, width: 800, height: 600)
        #expect(try run.waitFor(sunset, fit).isEmpty)
        if afterRest {
            let pid = run.viewer.process.processIdentifier
            let buffers = { () -> Int in
                let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
                return maps.split(separator: "\n").filter { $0.contains("/memfd:scrollkit-buffer") }.count
            }
            #expect(awaitTrue(timeout: 6) { buffers() == 1 }, "buffers mapped after the rest: \(buffers())")
        }
        let (px, py) = sunPointer(fit)
        let before = try #require(Sun.locate(try run.shot(), from: px, py), "no sun under the pointer at the fit")
        // ScrollView.wheelZoomFactorPerNotch is 2^(1/4): four notches double the scale.
        try run.inject.run(["abs \(px) \(py)", "sleep 30", "key Control_L press", "wheel vertical -4", "key Control_L release",
                            parkPointer])
        let anchor = fit.imagePoint(Double(px), Double(py))
        let expected = Placement.keeping(anchor.x, anchor.y, at: Double(px), Double(py), scale: fit.scale * 2)
        let outcome = try awaitZoom(run.viewer, run.shot, sunset, expected: expected, at: (px, py))
        try expectZoom(outcome, expected: expected, point: (px, py), sunBefore: before)
    }

    @Test("Bad files show their error card, a cut one what decoded with a banner, one stderr line each; a swipe still reaches the next good picture")
    func badFiles() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("scrollkit-gallery-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fm = FileManager.default
        try fm.copyItem(atPath: DecodedImage.assetPath(sunsetAsset), toPath: folder.appendingPathComponent("01-sunset.png").path)
        #expect(fm.createFile(atPath: folder.appendingPathComponent("02-empty.png").path, contents: Data()))
        // The bubbles PNG cut after 40 % of its bytes: a valid header, data ending early; its
        // name in three scripts.
        let whole = try Data(contentsOf: URL(fileURLWithPath: DecodedImage.assetPath(bubblesAsset)))
        let cutName = "03-Urlaub ünïcödé 写真 2023.png"
        let truncated = folder.appendingPathComponent(cutName)
        try whole.prefix(whole.count * 2 / 5).write(to: truncated)
        try fm.copyItem(atPath: DecodedImage.assetPath(bubblesAsset), toPath: folder.appendingPathComponent("04-bubbles.png").path)
        // What the project's decoder makes of the truncated file: the rows that decoded, and the
        // banner's and stderr's words.
        let damage = try #require(try ImageDecoder(path: truncated.path).decode(acceptsDamage: true).damage)
        let partial = try DecodedImage(path: truncated.path, acceptsDamage: true)

        let run = try DesktopRun([folder.path])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset), bubbles = try DecodedImage.asset(bubblesAsset)
        #expect(try run.waitFor(sunset, .fit(sunset, width: 800, height: 600)).isEmpty)

        try run.swipeLeft()
        let empty = expectedCard(title: "02-empty.png", message: "empty file", pageWidth: 800, pageHeight: 600)
        var (problems, shot) = try awaitShot(timeout: 10, run.shot) { errorCardProblems($0, empty) }
        #expect(problems.isEmpty, "the empty file's card: \(problems)")
        // Independently of the reference drawing: the card's border (muted red, 0xB03A3A) in
        // its top edge's middle and its fill (dark grey, 0x2C2C30) in its bottom padding.
        #expect(shot.pixel(400, empty.y) & 0xFF_FFFF == 0xB0_3A3A, "card border: \(hex(shot.pixel(400, empty.y)))")
        #expect(shot.pixel(400, empty.y + empty.height - 10) & 0xFF_FFFF == 0x2C_2C30,
                "card fill: \(hex(shot.pixel(400, empty.y + empty.height - 10)))")
        #expect(empty.y > 200 && empty.height < 200, "card at y \(empty.y), \(empty.height) high")

        try run.swipeLeft()
        // The rows that decoded, the checkerboard where the rest would be, and below the banner
        // (16 pt from the top, about 30 high) nothing else covers them.
        let belowBanner = fineGrid.filter { $0.1 >= 60 }
        (problems, shot) = try awaitShot(timeout: 10, run.shot) {
            placementProblems($0, partial, .fit(partial, width: 800, height: 600), points: belowBanner)
        }
        #expect(problems.isEmpty, "the truncated file's decoded part: \(problems)")
        // The banner's plate: the error card's muted red border at the top, in the middle.
        #expect(shot.pixel(400, 16) & 0xFF_FFFF == 0xB0_3A3A, "banner border: \(hex(shot.pixel(400, 16)))")

        try run.swipeLeft()
        let next = try run.waitFor(bubbles, .fit(bubbles, width: 800, height: 600))
        #expect(next.isEmpty, "the good picture after the bad ones: \(next)")
        #expect(run.viewer.isRunning)
        let errors = run.viewer.stderr.lines.filter { !$0.hasPrefix("{") }
        #expect(errors == ["image-viewer: 02-empty.png: empty file", "image-viewer: \(cutName): \(damage)"],
                "stderr: \(errors)")
    }

    @Test("Kiosk idle reset: after a swipe to the second picture, 3 s without input bring back the first at the fit")
    func kioskIdleReset() throws {
        let run = try DesktopRun(["--kiosk", "--idle-reset", "3", DecodedImage.assetPath(sunsetAsset),
                                  DecodedImage.assetPath(bubblesAsset)])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset), bubbles = try DecodedImage.asset(bubblesAsset)
        let sunsetFit = Placement.fit(sunset, width: 800, height: 600), bubblesFit = Placement.fit(bubbles, width: 800, height: 600)
        #expect(try run.waitFor(sunset, sunsetFit).isEmpty)
        // The viewer writes a stats line per committed frame; the line's arrival is the
        // commit's time on this test's clock (screenshots are too slow to time it: grim took
        // 0.3-1.9 s each on a loaded 2-core machine).
        let before = run.viewer.stderr.stampedLines.count
        try run.swipeLeft()
        let released = monotonicMilliseconds()
        func sinceRelease() -> Double { (monotonicMilliseconds() - released) / 1000 }
        // The swipe's paging animation settles in about 0.5 s; the second picture must show
        // in a screenshot taken before the reset is due (grim is slow on a loaded machine, so
        // the search goes on until then rather than a fixed time). The reset waits 3 s, not 2:
        // with 2, under the whole live suite's load, no screenshot caught the second picture
        // between the swipe's end and the reset once.
        var secondSeen = false
        while !secondSeen && sinceRelease() < 2.9 {
            secondSeen = placementProblems(try run.shot(), bubbles, bubblesFit, points: coarseGrid).isEmpty
        }
        #expect(secondSeen, "the second picture did not show in the 2.9 s after the swipe")
        // The reset's frame: the first after 2.5 s that follows at least 0.3 s of quiet. The
        // swipe's frames ended before 1.5 s in every run measured on a loaded machine (the last
        // at 1.34-1.47 s; debug builds draw the new picture's tiles in frames up to 0.45 s apart).
        var frames: [Double] = []
        var reset: Double?
        while reset == nil && sinceRelease() < 7 {
            frames = run.viewer.stderr.stampedLines.dropFirst(before).filter { isStats($0.text, "frame") }
                .map { ($0.ms - released) / 1000 }
            reset = zip(frames, frames.dropFirst()).first { $1 > 2.5 && $1 - $0 >= 0.3 }?.1
            usleep(10_000)
        }
        let timeline = frames.map { String(format: "%.3f", $0) }.joined(separator: ", ")
        let back = try #require(reset, "no frame after a quiet spell within 7 s of the release; frames at \(timeline) s")
        // Due 3 s after the release: the release reaches the viewer a few ms before `released`
        // is taken, its timer wakes it within a frame (16.7 ms at 60 Hz) and the commit takes
        // well under 0.3 s on a debug build (decision: 0.5 s of slack).
        #expect(back >= 2.9 && back <= 3.5, "the reset frame was committed \(back) s after the release; frames at \(timeline) s")
        let problems = try run.waitFor(sunset, sunsetFit, timeout: 5)
        #expect(problems.isEmpty, "after the reset, not the first picture at the fit: \(problems)")
    }
}

/// A gallery under sway nested in KWin, with a touch injector on KWin connected first.
private struct TouchRun {
    let session: SwayNestedInKWin
    let touch: Injector
    let viewer: ClientProcess

    init(_ arguments: [String]) throws {
        session = try SwayNestedInKWin(width: 800, height: 600)
        do {
            touch = try Injector(environment: session.kwinClientEnvironment, options: ["--backend", "kwin"])
            try session.waitForTouchDevice()
            // wl-inject's notes: touch sent right after sway binds KWin's wl_touch can be lost.
            try touch.run(["sleep 200"])
            viewer = try ClientProcess("image-viewer", arguments + ["--stats"], environment: session.sway.clientEnvironment)
            try viewer.waitForStderr { isStats($0, "first-frame") }
        } catch {
            session.stop()
            throw error
        }
    }

    func stop() {
        viewer.terminate()
        touch.stop()
        session.stop()
    }

    func shot() throws -> Screenshot { try session.sway.screenshot() }

    func waitFor(_ image: DecodedImage, _ placement: Placement, timeout: Double = 10) throws -> [String] {
        try awaitShot(timeout: timeout, shot) { placementProblems($0, image, placement, points: coarseGrid) }.problems
    }

    /// A double tap at (x, y): two 40 ms touches 100 ms apart.
    func doubleTap(atX x: Int, _ y: Int) throws {
        var commands: [String] = []
        for i in 0..<2 {
            if i > 0 { commands.append("sleep 100") }
            commands += ["touch down 0 \(x) \(y)", "touch frame", "sleep 40", "touch up 0", "touch frame"]
        }
        try touch.run(commands)
    }
}

@Suite("Live gallery touch under sway nested in KWin", .timeLimit(.minutes(3)), .ownThreads)
struct GalleryTouchLiveTests {
    @Test("A two-finger pinch magnifies around the fingers' centre")
    func pinchZoom() throws {
        let run = try TouchRun([DecodedImage.assetPath(sunsetAsset), DecodedImage.assetPath(bubblesAsset)])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset)
        let fit = Placement.fit(sunset, width: 800, height: 600)
        #expect(try run.waitFor(sunset, fit).isEmpty)
        let (cx, cy) = sunPointer(fit)
        let before = try #require(Sun.locate(try run.shot(), from: cx, cy), "no sun at the fingers' centre")
        // Fingers 80 px apart spreading to 240 px: three times the distance.
        try run.touch.run(["pinch \(cx) \(cy) 40 120 400 20"])
        try awaitQuiet(run.viewer)
        // Screens until the sun shows the pinch's outcome (grim may return an older frame).
        var sun: (scale: Double, x: Double, y: Double)?
        _ = try awaitShot(timeout: 10, run.shot) { shot in
            sun = Sun.locate(shot, from: cx, cy)
            guard let s = sun, abs(s.scale / before.scale - 3) < 0.3,
                  abs(s.x - Double(cx)) <= anchorTolerance + 2, abs(s.y - Double(cy)) <= anchorTolerance + 2 else {
                return ["sun \(String(describing: sun))"]
            }
            return []
        }
        let settled = try #require(sun, "no sun at the fingers' centre after the pinch")
        let magnification = settled.scale / before.scale
        #expect(magnification > 1.5, "the sun is \(magnification)× its fitted size")
        #expect(abs(magnification - 3) < 0.3, "the pinch spread the fingers 3×; the sun grew \(magnification)×")
        #expect(abs(settled.x - Double(cx)) <= anchorTolerance + 2 && abs(settled.y - Double(cy)) <= anchorTolerance + 2,
                "the sun's centre, under the fingers' centre (\(cx), \(cy)) at the fit, is at (\(settled.x), \(settled.y))")
    }

    @Test("A double tap zooms to 1:1 around the finger; a second one returns to the fit")
    func doubleTapZoom() throws {
        let run = try TouchRun([DecodedImage.assetPath(sunsetAsset), DecodedImage.assetPath(bubblesAsset)])
        defer { run.stop() }
        let sunset = try DecodedImage.asset(sunsetAsset)
        let fit = Placement.fit(sunset, width: 800, height: 600)
        #expect(try run.waitFor(sunset, fit).isEmpty)
        let (x, y) = sunPointer(fit)
        let before = try #require(Sun.locate(try run.shot(), from: x, y), "no sun under the finger at the fit")
        try run.doubleTap(atX: x, y)
        let anchor = fit.imagePoint(Double(x), Double(y))
        let expected = Placement.keeping(anchor.x, anchor.y, at: Double(x), Double(y), scale: 1)
        let outcome = try awaitZoom(run.viewer, run.shot, sunset, expected: expected, at: (x, y))
        try expectZoom(outcome, expected: expected, point: (x, y), sunBefore: before)
        try run.doubleTap(atX: x, y)
        let back = try run.waitFor(sunset, fit)
        #expect(back.isEmpty, "after the second double tap, not at the fit: \(back)")
    }
}
