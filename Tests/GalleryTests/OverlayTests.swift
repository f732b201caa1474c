// The gallery's on-screen information offscreen: the page overlay's fade on the frame clock, its
// text and plate in the window's pixels, the information panel's rows from a photo with known
// EXIF, the help generated from the key table, and a kiosk that shows none of it.
import Foundation
import Gallery
import Host
import Pictures
import Raster
import Replay
import SafeOutput
import ScrollKit
import Testing
import TestSupport

/// A gallery in an offscreen window driven frame by frame, so a test can look at any moment
/// of an animation (the harness's `run` goes on until everything rests).
final class FrameStepper {
    let scene: GalleryScene
    let window: OffscreenWindow
    /// 60 Hz.
    let interval = 1000.0 / 60
    private(set) var now = 0.0
    private(set) var lastRequest = FrameRequest.nextFrame
    private var seat = InputFrameBuilder()

    init(files: [String], width: Int = 800, height: Int = 400, options: GalleryScene.Options = .synchronous) {
        scene = GalleryScene(files: files, options: options)
        window = OffscreenWindow(scene: scene, width: width, height: height)!
        tick(until: 500)
    }

    /// Presses and releases `name` at the current time.
    func press(_ name: String, modifiers: InputEvent.Modifiers = []) {
        seat.append(.key(Key(keysymName: name), pressed: true), at: now, modifiers: modifiers)
        seat.append(.key(Key(keysymName: name), pressed: false), at: now, modifiers: modifiers)
        for frame in seat.takeFrames() { window.perform(frame.action, at: frame.time) }
    }

    /// Ticks every frame of the 60 Hz grid up to `time` ms, as a host whose scene keeps asking
    /// would; returns the scene's last request.
    @discardableResult
    func tick(until time: Double) -> FrameRequest {
        while now + interval <= time {
            now += interval
            window.tick(frameTime: now)
        }
        lastRequest = scene.advance(to: now)
        return lastRequest
    }

    /// The window's pixel at (x, y) as (r, g, b).
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let p = window.buffer.framebuffer[x, y]
        return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
    }

    /// The pixels of window rectangle `r`.
    func pixels(_ r: CGRect) -> [UInt32] {
        let fb = window.buffer.framebuffer
        var out: [UInt32] = []
        for y in Int(r.minY)..<Int(r.maxY) { for x in Int(r.minX)..<Int(r.maxX) { out.append(fb[x, y]) } }
        return out
    }
}

extension GalleryScene.Options {
    /// Synchronous loading, in a kiosk, with or without `--show-info`.
    static func kiosk(showingInformation: Bool) -> GalleryScene.Options {
        var options = GalleryScene.Options.synchronous
        options.isKiosk = true
        options.showsInformation = showingInformation ? true : nil
        return options
    }
}

/// How many pixels of `a` and `b` differ by more than `tolerance` in a channel.
func differing(_ a: [UInt32], _ b: [UInt32], tolerance: Int = 2) -> Int {
    func channel(_ p: UInt32, _ c: Int) -> Int { Int((p >> UInt32(8 * c)) & 0xFF) }
    var count = 0
    for (p, q) in zip(a, b) where (0..<3).contains(where: { abs(channel(p, $0) - channel(q, $0)) > tolerance }) { count += 1 }
    return count
}

@Suite("Gallery overlays")
struct OverlayTests {
    let files = [Assets.sunset, Assets.bubbles, Assets.mosaic]

    @Test("The fade: opaque for 1.5 s, then linear to nothing over 300 ms; a frame each tick while fading, none after")
    func fadeTiming() {
        var fade = OverlayFade()
        #expect(fade.alpha(at: 0) == 0 && fade.frameRequest(at: 0) == .idle && fade.isOver(at: 0))
        fade.show(at: 1000)
        let table: [(Double, Double)] = [(1000, 1), (2000, 1), (2500, 1), (2575, 0.75), (2650, 0.5), (2725, 0.25), (2800, 0), (4000, 0)]
        for (t, alpha) in table { #expect(abs(fade.alpha(at: t) - alpha) < 1e-9, "alpha at \(t): \(fade.alpha(at: t))") }
        #expect(fade.frameRequest(at: 1200) == .at(2500))
        #expect(fade.frameRequest(at: 2500) == .nextFrame && fade.frameRequest(at: 2799) == .nextFrame)
        #expect(fade.frameRequest(at: 2800) == .idle && fade.isOver(at: 2800) && !fade.isOver(at: 2799))
        // Shown again while fading: opaque again, the hold restarts.
        fade.show(at: 2700)
        #expect(fade.alpha(at: 2700) == 1 && fade.frameRequest(at: 2700) == .at(4200))
        fade.hide()
        #expect(fade.alpha(at: 2800) == 0 && fade.frameRequest(at: 2800) == .idle)
    }

    @Test("A page change shows name, position and zoom on a plate at the bottom; it fades on frame time and the window goes idle")
    func pageOverlay() throws {
        let shown = FrameStepper(files: files)
        var plain = GalleryScene.Options.synchronous
        plain.showsInformation = false
        let reference = FrameStepper(files: files, options: plain)
        // Nothing at launch: the first page is no change.
        #expect(shown.scene.pageOverlay.isHidden && shown.lastRequest == .idle)
        #expect(shown.pixels(CGRect(x: 0, y: 0, width: 800, height: 400)) == reference.pixels(CGRect(x: 0, y: 0, width: 800, height: 400)))
        for s in [shown, reference] {
            s.press("Right")
            s.tick(until: 1000)
        }
        let overlay = shown.scene.pageOverlay
        #expect(!overlay.isHidden && overlay.opacity == 1)
        // The bubbles (800×800) fit 800×400 at 1/2.
        #expect(overlay.name == "02-bubbles-alpha.png" && overlay.detail == "2 / 3 · 50%")
        let rect = overlay.frame
        #expect(abs(rect.midX - 400) <= 1 && abs(rect.maxY - (400 - 24)) < 0.5, "\(rect)")
        #expect(rect.width > 120 && rect.width < 400 && rect.height > 30 && rect.height < 80, "\(rect)")
        // Everything outside the plate is the reference's; inside, the plate darkens the picture
        // to 38 % (black at 62 %) and text is drawn on it.
        let whole = CGRect(x: 0, y: 0, width: 800, height: 400)
        let outside = shown.pixels(whole).indices.filter { i in !rect.contains(CGPoint(x: i % 800, y: i / 800)) }
        let a = shown.pixels(whole), b = reference.pixels(whole)
        #expect(outside.filter { a[$0] != b[$0] }.isEmpty)
        let plateX = Int(rect.minX) + 5, plateY = Int(rect.midY)
        let under = reference.rgb(plateX, plateY), over = shown.rgb(plateX, plateY)
        for (u, o) in [(under.0, over.0), (under.1, over.1), (under.2, over.2)] {
            #expect(abs(Double(u) * 0.38 - Double(o)) <= 2, "plate pixel \(over) over \(under)")
        }
        let text = rect.insetBy(dx: 14, dy: 10)
        let bright = shown.pixels(text).filter { p in (0..<3).allSatisfy { (p >> (8 * $0)) & 0xFF > 200 } }.count
        #expect(bright > 100, "\(bright) white text pixels in \(text)")
        // Opaque until 1.5 s after the change, half gone 150 ms into the fade, then gone: no
        // more frames asked for, and the window is the reference's again.
        let start = try #require(shown.scene.pageOverlayFade.shownAt)
        // Right was pressed at 500 ms; the index changes halfway through the 300 ms slide.
        #expect(start > 500 && start < 800, "shown at \(start) ms")
        shown.tick(until: start + 1490)
        #expect(overlay.opacity == 1 && shown.lastRequest == .at(start + OverlayFade.hold))
        shown.tick(until: start + 1650)
        #expect(abs(overlay.opacity - 0.5) <= 1000 / 60 / 300 + 1e-9, "opacity \(overlay.opacity)")
        #expect(shown.lastRequest == .nextFrame)
        shown.tick(until: start + 1850)
        reference.tick(until: start + 1850)
        #expect(overlay.isHidden && shown.lastRequest == .idle)
        #expect(shown.pixels(whole) == reference.pixels(whole))
    }

    @Test("O shows the overlay again; the zoom it shows follows 1 to 100 %")
    func onDemandAndZoom() throws {
        // The mosaic (640×480) fits 800×400 at 5/6.
        let s = FrameStepper(files: [Assets.mosaic, Assets.sunset])
        s.press("o")
        s.tick(until: 700)
        #expect(!s.scene.pageOverlay.isHidden && s.scene.pageOverlay.detail == "1 / 2 · 83%")
        s.press("1")
        s.tick(until: 1200)
        #expect(s.scene.pageOverlay.detail == "1 / 2 · 100%")
        s.press("plus")
        s.tick(until: 1700)
        #expect(s.scene.pageOverlay.detail == "1 / 2 · 141%")
    }

    @Test("I toggles the information panel: the file, its pixels, its camera, exposure and place")
    func informationPanel() throws {
        let folder = try PrivateFolder(prefix: "gallery-info")
        let pixels = [UInt32](repeating: 0xFF30_6090, count: 64 * 48)
        let jpeg = ExifBuilder.inserting([ExifBuilder.cameraPhoto().app1()],
                                         into: try JPEGEncoder.encode(argb: pixels, width: 64, height: 48))
        let path = folder.appending("Urlaub 写真.jpg")
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        // Enlarged to fill the window (--upscale), so the panel lies over the picture.
        var filling = GalleryScene.Options.synchronous
        filling.upscalesToFit = true
        let s = FrameStepper(files: [path, Assets.sunset], options: filling)
        let whole = CGRect(x: 0, y: 0, width: 800, height: 400)
        let before = s.pixels(whole)
        s.press("i")
        s.tick(until: 700)
        let panel = s.scene.informationPanel
        #expect(!panel.isHidden && panel.title == "Urlaub 写真.jpg")
        let lines = panel.lines
        for expected in ["Folder: \(folder.path)", "Format: JPEG", "Dimensions: 64 × 48 pixels",
                         "File size: " + String(format: "%.1f kB (%d,%03d bytes)", Double(jpeg.count) / 1000, jpeg.count / 1000, jpeg.count % 1000),
                         "Colour profile: Adobe RGB", "Camera: Canon EOS 5D Mark IV", "Lens: Canon EF50mm f/1.8 STM",
                         "Taken: 2023-07-14 18:32:05 +02:00", "Exposure: 1/250 s", "Aperture: f/2.8", "ISO: 200",
                         "Focal length: 50 mm (75 mm in 35 mm film)", "Position: 48.858222° N, 2.294500° E, 35 m"] {
            #expect(lines.contains(expected), "\(expected) not in \(lines)")
        }
        #expect(lines.contains { $0.hasPrefix("Modified: ") })
        // At the top left, over the picture; the rest of the window as before.
        let rect = panel.frame
        #expect(rect.minX == 16 && rect.minY == 16 && rect.maxY <= 400, "\(rect)")
        let beforeInRect = before.enumerated().filter { rect.contains(CGPoint(x: $0.offset % 800, y: $0.offset / 800)) }.map(\.element)
        #expect(differing(s.pixels(rect), beforeInRect) > Int(rect.width * rect.height) / 2)
        s.press("I")
        s.tick(until: 1000)
        #expect(panel.isHidden && s.pixels(whole) == before && s.lastRequest == .idle)
        // Open on the next page, it shows that page's file.
        s.press("i")
        s.press("Right")
        s.tick(until: 3500)
        #expect(panel.title == "01-sunset.png" && panel.lines.contains("Dimensions: 1200 × 800 pixels (1.0 MP)"))
        #expect(panel.lines.contains("Colour profile: none stated (shown as sRGB)"))
    }

    @Test("? and H toggle the help, whose rows are the key table's; I replaces it")
    func help() throws {
        let s = FrameStepper(files: files, width: 800, height: 600)
        let help = s.scene.helpOverlay
        s.press("question", modifiers: [.shift])
        s.tick(until: 700)
        #expect(!help.isHidden)
        let rows = GalleryKeyBindings.helpRows(in: s.scene.keyContext)
        #expect(help.rows.map(\.key) == rows.map(\.keys) && help.rows.map(\.value) == rows.map(\.summary))
        #expect(help.visibleRowCount == rows.count, "\(help.visibleRowCount) of \(rows.count) rows fit 800×600")
        // Centred.
        #expect(abs(help.frame.midX - 400) <= 1 && abs(help.frame.midY - 300) <= 1, "\(help.frame)")
        s.press("h")
        s.tick(until: 1000)
        #expect(help.isHidden)
        s.press("h")
        s.press("i")
        s.tick(until: 1300)
        #expect(help.isHidden && !s.scene.informationPanel.isHidden)
    }

    @Test("A kiosk shows none of it; --show-info brings the page overlay and the keys back", arguments: [false, true])
    func kiosk(showingInformation: Bool) throws {
        let s = FrameStepper(files: files, options: .kiosk(showingInformation: showingInformation))
        s.press("Right")
        s.tick(until: 1000)
        #expect(s.scene.currentIndex == 1)
        #expect(s.scene.pageOverlay.isHidden == !showingInformation)
        s.tick(until: 3000)
        s.press("i")
        s.tick(until: 3300)
        #expect(s.scene.informationPanel.isHidden == !showingInformation)
        s.press("i")
        s.press("question", modifiers: [.shift])
        s.tick(until: 3600)
        #expect(s.scene.informationPanel.isHidden && s.scene.helpOverlay.isHidden == !showingInformation)
        #expect(GalleryKeyBindings.command(forKey: .character("i"), modifiers: [], context: s.scene.keyContext)
                == (showingInformation ? .toggleInfo : nil))
    }
}
