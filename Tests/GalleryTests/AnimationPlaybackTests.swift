// Animated GIFs in the gallery, driven by hand on the scene's clock: frames change when their
// delays say, only on the current page of a visible window, nothing is asked for while paused,
// and a background decoder's frames arrive by wake-ups instead of polling.
import Dispatch
import Foundation
import Gallery
import Host
import Raster
import ScrollKit
import Synchronization
import Testing
import TestSupport

/// A scene ticked at times the test chooses, as a host obeying its requests would, drawing
/// whenever it changed.
private final class ManualHost {
    let scene: GalleryScene
    let buffer: OwnedFramebuffer
    /// Frames drawn.
    private(set) var renders = 0
    /// `onNeedsFrame` calls since the last `resetCounts`.
    private(set) var frameRequests = 0

    init(files: [String], options: GalleryScene.Options = .synchronous, width: Int = 200, height: Int = 100) {
        scene = GalleryScene(files: files, options: options)
        buffer = OwnedFramebuffer(width: width, height: height)!
        scene.onNeedsFrame = { [unowned self] in self.frameRequests += 1 }
        scene.resize(width: width, height: height, scale: 1)
    }

    /// Advances to `time` and draws if anything changed; the scene's request.
    @discardableResult
    func tick(_ time: Double) -> FrameRequest {
        let request = scene.advance(to: time)
        if scene.needsRender {
            _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
            renders += 1
        }
        return request
    }

    func press(_ name: String, at time: Double) {
        scene.handle(frame: [InputEvent(time: time, kind: .key(Key(keysymName: name), pressed: true))])
        scene.handle(frame: [InputEvent(time: time, kind: .key(Key(keysymName: name), pressed: false))])
    }

    func resetCounts() {
        renders = 0
        frameRequests = 0
    }

    /// The (r, g, b) drawn at (x, y).
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let p = buffer.framebuffer[x, y]
        return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
    }
}

private let red = (250, 0, 0), green = (0, 250, 0), blue = (0, 0, 250)

/// Whether two colours are within 2 levels per channel (GIF palettes are exact; the margin is
/// for nothing but safety).
private func same(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Bool {
    abs(a.0 - b.0) <= 2 && abs(a.1 - b.1) <= 2 && abs(a.2 - b.2) <= 2
}

@Suite("Gallery animation")
struct AnimationPlaybackTests {
    /// Red 100 ms, green 200 ms, blue 300 ms, 40×30, `loops` plays (0: forever).
    private func rgbGIF(in folder: TemporaryFolder, loops: Int = 0, name: String = "rgb.gif") throws -> String {
        try PillowPictures.animatedGIF(name, width: 40, height: 30, colors: [red, green, blue], delays: [100, 200, 300],
                                       loops: loops, in: folder.path)
    }

    @Test("Frames change when their delays say, counted from when each was due, and loop")
    func delays() throws {
        let folder = try TemporaryFolder()
        let host = ManualHost(files: [try rgbGIF(in: folder)])
        #expect(host.tick(0) == .at(100))
        #expect(same(host.rgb(100, 50), red))
        // Just before the change nothing is drawn.
        host.resetCounts()
        #expect(host.tick(99) == .at(100) && host.renders == 0 && same(host.rgb(100, 50), red))
        // A host 30 ms late: green shows, and blue is still due 200 ms after green was, at 300.
        #expect(host.tick(130) == .at(300) && same(host.rgb(100, 50), green) && host.renders == 1)
        #expect(host.tick(300) == .at(600) && same(host.rgb(100, 50), blue))
        // After the last frame the first comes back, 300 ms after blue.
        #expect(host.tick(600) == .at(700) && same(host.rgb(100, 50), red))
        // A host a whole frame late starts counting afresh: green at 950, blue due 200 ms later.
        #expect(host.tick(950) == .at(1150) && same(host.rgb(100, 50), green))
    }

    @Test("S pauses: advance asks for nothing and nothing is drawn; S again resumes with the rest of the delay")
    func pause() throws {
        let folder = try TemporaryFolder()
        let host = ManualHost(files: [try rgbGIF(in: folder)])
        #expect(host.tick(0) == .at(100))
        host.press("s", at: 40)
        #expect(host.scene.animationsPaused)
        host.resetCounts()
        for t in stride(from: 50.0, through: 5000, by: 250) { #expect(host.tick(t) == .idle, "at \(t) ms") }
        #expect(host.renders == 0 && host.frameRequests == 0 && same(host.rgb(100, 50), red))
        // Resumed at 5000 with the 60 ms red had left when paused at 40.
        host.press("F4", at: 5000)
        #expect(!host.scene.animationsPaused)
        #expect(host.tick(5000) == .at(5060))
        #expect(host.tick(5060) == .at(5260) && same(host.rgb(100, 50), green))
    }

    @Test("A hidden window asks for nothing and keeps its frame; shown again, it plays on")
    func hiddenWindow() throws {
        let folder = try TemporaryFolder()
        let host = ManualHost(files: [try rgbGIF(in: folder)])
        #expect(host.tick(0) == .at(100))
        host.scene.isWindowVisible = false
        host.resetCounts()
        #expect(host.tick(100) == .idle && host.tick(10_000) == .idle)
        #expect(host.renders == 0 && same(host.rgb(100, 50), red))
        host.scene.isWindowVisible = true
        #expect(host.frameRequests == 1, "showing the window asks for a frame")
        // The frame was due when the window hid: it shows at once.
        #expect(host.tick(10_000) == .at(10_200) && same(host.rgb(100, 50), green))
    }

    @Test("Only the current page plays: a neighbour keeps its first frame and asks for nothing")
    func onlyCurrentPage() throws {
        let folder = try TemporaryFolder()
        let host = ManualHost(files: [try rgbGIF(in: folder, name: "a.gif"), try rgbGIF(in: folder, name: "b.gif")])
        #expect(host.tick(0) == .at(100))
        let neighbour = try #require(host.scene.page(at: 1))
        #expect(neighbour.pictureView.picture != nil)
        let shown = neighbour.pictureView.picture
        host.tick(100)
        host.tick(300)
        #expect(neighbour.pictureView.picture === shown, "the neighbour changed frame")
        // Turned to the second page: it plays from its start, the first stops.
        host.press("Right", at: 400)
        var t = 400.0
        while host.scene.currentIndex != 1 || host.scene.pager.isAnimating {
            t += 16
            host.tick(t)
            #expect(t < 2000, "the page turn did not end")
            if t >= 2000 { return }
        }
        let second = try #require(host.scene.currentPage)
        let left = host.scene.page(at: 0)?.pictureView.picture, before = second.pictureView.picture
        guard case .at(let due) = host.tick(t) else {
            Issue.record("the second page asks for no frame")
            return
        }
        host.tick(due)
        #expect(second.pictureView.picture !== before, "the second page did not play")
        #expect(host.scene.page(at: 0)?.pictureView.picture === left, "the page turned away from changed frame")
    }

    @Test("A GIF asking for two plays stops on its last frame after them, and asks for nothing more")
    func loopCount() throws {
        let folder = try TemporaryFolder()
        let host = ManualHost(files: [try rgbGIF(in: folder, loops: 2)])
        let times: [Double] = [0, 100, 300, 600, 700, 900]
        let colours = [red, green, blue, red, green, blue]
        for (t, c) in zip(times, colours) {
            host.tick(t)
            #expect(same(host.rgb(100, 50), c), "at \(t) ms: \(host.rgb(100, 50))")
        }
        #expect(host.tick(1200) == .idle && same(host.rgb(100, 50), blue))
        #expect(host.tick(5000) == .idle && same(host.rgb(100, 50), blue))
    }

    @Test("Zoomed in, each new frame redraws the picture's tiles at the zoom")
    func zoomedFrames() throws {
        let folder = try TemporaryFolder()
        let host = ManualHost(files: [try rgbGIF(in: folder)])
        host.tick(0)
        let page = try #require(host.scene.currentPage)
        var t = 0.0
        for _ in 0..<2 {
            host.press("plus", at: t)
            repeat { t += 16; host.tick(t) } while page.isAnimating
        }
        #expect(abs(page.zoomScale - 2) < 1e-9)
        // 80×60 centred in 200×100 from (60, 20): its pixels show the frame shown.
        // After the zoom the renderer sharpens its tiles on a frame or two more.
        var request = host.tick(t)
        while request == .nextFrame { t += 16; request = host.tick(t) }
        guard case .at(let due) = request else {
            Issue.record("the animation asks for no frame: \(request)")
            return
        }
        let before = host.rgb(61, 21)
        let drawn = host.scene.renderer.statistics.tilesDrawn
        host.tick(due)
        #expect(!same(before, host.rgb(61, 21)), "the frame at the zoom did not change: \(before)")
        #expect(same(host.rgb(138, 78), host.rgb(61, 21)) && same(host.rgb(59, 50), (0, 0, 0)))
        #expect(host.scene.renderer.statistics.tilesDrawn > drawn)
    }

    @Test("A cut animated GIF plays the frames it has; when the cut frame shows, the banner names the damage")
    func cutAnimation() throws {
        let folder = try TemporaryFolder()
        // Noise does not compress: the third frame's data is most of the last third of the file.
        try PillowPictures.make("""
            frames = [Image.effect_noise((64, 48), 60 + 20 * i).convert("RGB").quantize(colors=64) for i in range(3)]
            frames[0].save(os.path.join(out, "whole.gif"), save_all=True, append_images=frames[1:], duration=100, loop=0,
                           disposal=1, optimize=False)
            """, in: folder.path)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/whole.gif")))
        let cut = try folder.write("cut.gif", Array(whole.prefix(whole.count * 5 / 6)))
        let host = ManualHost(files: [cut])
        #expect(host.tick(0) == .at(100))
        let page = try #require(host.scene.currentPage)
        #expect(page.damage == nil && page.banner == nil)
        host.tick(100)
        #expect(page.damage == nil, "the second frame is whole")
        host.tick(200)
        let damage = try #require(page.damage, "the third frame is cut")
        #expect(page.pictureView.picture?.damage == damage && page.banner?.text == damage.description)
        // It plays again from the first frame, the banner staying.
        #expect(host.tick(300) == .at(400))
        #expect(page.pictureView.picture?.damage == nil && page.banner?.text == damage.description)
    }

    @Test("Decoded in the background, frames come on time or by a wake, never by polling; paused, nothing wakes")
    func backgroundDecoding() throws {
        let folder = try TemporaryFolder()
        var options = GalleryScene.Options()
        options.loading = .background
        let host = ManualHost(files: [try rgbGIF(in: folder)], options: options)
        let probe = WakeProbe()
        host.scene.onNeedsFrameFromAnyThread = { probe.wake() }
        #expect(host.scene.waitForLoads(timeout: 30))
        var t = 0.0
        var requests: [FrameRequest] = []
        var colours: [(Int, Int, Int)] = []
        while colours.count < 7 {
            let request = host.tick(t)
            requests.append(request)
            let c = host.rgb(100, 50)
            if colours.last.map({ !same($0, c) }) ?? true { colours.append(c) }
            switch request {
            case .at(let due):
                #expect(due > t, "asked for a past time \(due) at \(t)")
                t = due
            case .idle:
                // The frame due is still decoding: its arrival wakes the host.
                guard probe.wait(seconds: 10) else {
                    Issue.record("no wake for a frame due at \(t); requests \(requests.suffix(4))")
                    return
                }
            case .nextFrame:
                t += 16
            }
        }
        #expect(zip(colours, [red, green, blue, red, green, blue, red]).allSatisfy { same($0, $1) }, "\(colours)")
        // Every time asked for is a frame's: 100, 300, 600, 700… (no 16 ms polls).
        let times = requests.compactMap { if case .at(let due) = $0 { due } else { nil } }
        #expect(Set(times).isSubset(of: [100, 300, 600, 700, 900, 1200, 1300, 1500, 1800]), "\(times)")
        // Paused: no wake, no request, for half a second of real time.
        host.press("s", at: t)
        #expect(host.tick(t) == .idle)
        let wakes = probe.count
        Thread.sleep(forTimeInterval: 0.5)
        #expect(host.tick(t + 5000) == .idle && probe.count <= wakes + 1, "wakes while paused: \(probe.count - wakes)")
    }
}
