// Loading under a host that can be woken: the scene asks for no polling ticks while pictures
// decode, and the loader's wake alone brings every result to the frame loop.
import Dispatch
import Foundation
@testable import Gallery
import Host
import Pictures
import Raster
import ScrollKit
import Synchronization
import Testing

/// Counts a gallery's wakes and lets a test sleep until the next one, as an idle event loop does
/// (the loading and the animation tests').
final class WakeProbe: Sendable {
    private let signal = DispatchSemaphore(value: 0)
    private let wakes = Mutex(0)
    var count: Int { wakes.withLock { $0 } }
    func wake() {
        wakes.withLock { $0 += 1 }
        signal.signal()
    }
    /// Waits up to `seconds` for a wake.
    func wait(seconds: Double) -> Bool { signal.wait(timeout: .now() + seconds) == .success }
}

@Suite("Gallery loading with a wakeable host")
struct LoadWakeTests {
    /// A gallery of the three 512×384 block pictures (`DetailLoadingTests.files`), written in
    /// `folder`, loading them in the background and waking `probe` with their news.
    static func blockGallery(in folder: TemporaryFolder) throws -> (GalleryScene, WakeProbe) {
        var options = GalleryScene.Options()
        options.loading = .background
        let scene = GalleryScene(files: try DetailLoadingTests.files(in: folder), options: options)
        let probe = WakeProbe()
        scene.onNeedsFrameFromAnyThread = { probe.wake() }
        return (scene, probe)
    }

    @Test("A background load asks for no 16 ms ticks; each wake delivers news until the picture shows")
    func wakeInsteadOfPolling() throws {
        let folder = try TemporaryFolder()
        let large = try LoadingTests.largeJPEG(in: folder)
        var options = GalleryScene.Options()
        options.loading = .background
        let scene = GalleryScene(files: [large], options: options)
        let probe = WakeProbe()
        scene.onNeedsFrameFromAnyThread = { probe.wake() }
        scene.resize(width: 500, height: 300, scale: 1)
        var time = 0.0
        var requests: [FrameRequest] = []
        var idleWaits = 0
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let request = scene.advance(to: time)
            requests.append(request)
            if scene.currentPage?.loadState == .loaded { break }
            time += 16
            // A host ticks again at once only for `.nextFrame`; otherwise it sleeps until woken.
            if request == .nextFrame { continue }
            idleWaits += 1
            guard probe.wait(seconds: 30) else {
                Issue.record("the loader did not wake the host within 30 s; requests \(requests.suffix(5))")
                return
            }
        }
        let page = try #require(scene.currentPage)
        #expect(page.loadState == .loaded)
        // Kept at the size shown: at least a picture pixel per screen pixel of the fit.
        let shown = try #require(page.pictureView.picture)
        #expect(Double(shown.width) >= Double(shown.fullWidth) * Double(page.zoomScale * page.outputScale), "\(shown.width) of \(shown.fullWidth)")
        let timers = requests.filter { if case .at = $0 { return true } else { return false } }
        #expect(timers.isEmpty, "polling ticks requested: \(timers)")
        #expect(idleWaits >= 1, "the scene never went idle while loading")
        #expect(probe.count >= 2, "a large file posts a header, progress and the picture: \(probe.count) wakes")
        #expect(scene.advance(to: time + 5000) == .idle || scene.needsRender)
    }

    @Test("Until the first picture shows, its load is sized for the screen and the neighbours wait; then they load for the window")
    func firstPictureFirst() throws {
        let folder = try TemporaryFolder()
        // 512×384 pictures; a 32×24 window (a compositor's placeholder) on a 64×48 screen.
        let (scene, probe) = try Self.blockGallery(in: folder)
        scene.screenSize = { (64, 48) }
        scene.resize(width: 32, height: 24, scale: 1)
        let buffer = try #require(OwnedFramebuffer(width: 32, height: 24))
        var time = 0.0
        /// Ticks (rendering what changed) until `done`, sleeping until a wake when idle.
        func tick(until done: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                time += 16
                let request = scene.advance(to: time)
                if scene.needsRender { _ = scene.render(into: buffer.framebuffer, bufferAge: 0) }
                if done() { return true }
                if request != .nextFrame, !probe.wait(seconds: 5) { continue }
            }
            return false
        }
        let first = try #require(scene.page(at: 0)), second = try #require(scene.page(at: 1))
        #expect(first.isLoading && !second.isLoading && second.pictureView.picture == nil)
        #expect(tick { first.pictureView.picture != nil })
        // The screen's level of 512×384 on 64×48, not the placeholder's 32×24.
        #expect(first.pictureView.picture?.width == 64, "\(String(describing: first.pictureView.picture?.width))")
        // Drawn: the neighbour loads now, for the window.
        #expect(tick { second.pictureView.picture != nil })
        #expect(second.pictureView.picture?.width == 32, "\(String(describing: second.pictureView.picture?.width))")
    }

    @Test("The overlays' fonts are looked up once the first picture and its neighbours rest, off the frame loop: the scene asks for no wake for them")
    func fontsAfterRest() throws {
        let folder = try TemporaryFolder()
        let (scene, probe) = try Self.blockGallery(in: folder)
        scene.resize(width: 64, height: 48, scale: 1)
        let buffer = try #require(OwnedFramebuffer(width: 64, height: 48))
        var time = 0.0
        var requests: [FrameRequest] = []
        let deadline = Date().addingTimeInterval(30)
        // Until the gallery rests with its first picture drawn (the neighbours loaded after it).
        while !scene.fontsPrepared, Date() < deadline {
            #expect(!scene.hasRenderedContent || scene.currentPage?.pictureView.picture != nil)
            time += 16
            let request = scene.advance(to: time)
            requests.append(request)
            if scene.needsRender { _ = scene.render(into: buffer.framebuffer, bufferAge: 1) }
            if request != .nextFrame, !scene.fontsPrepared { _ = probe.wait(seconds: 1) }
        }
        #expect(scene.fontsPrepared, "the gallery never rested")
        #expect(scene.hasRenderedContent, "not before the first picture shows")
        // Resting: nothing to wake for, the fonts' wait included.
        #expect(requests.last == .idle, "\(requests.suffix(3))")
        #expect(scene.advance(to: time + 1000) == .idle)
    }

    @Test("While the first picture decodes the gallery awaits its content (a live host keeps the black page back); the frame that shows the picture ends that for good")
    func awaitsFirstPicture() throws {
        let folder = try TemporaryFolder()
        // 512×384 pictures of blocks in a 64×48 window: each window pixel is one 8×8 block.
        let (scene, probe) = try Self.blockGallery(in: folder)
        #expect(!scene.awaitsContent, "nothing loads before the window has a size")
        scene.resize(width: 64, height: 48, scale: 1)
        let buffer = try #require(OwnedFramebuffer(width: 64, height: 48))
        // The load started with the size; until its events are taken the page shows nothing.
        #expect(scene.awaitsContent)
        _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
        #expect(buffer.framebuffer[10, 20] & 0xFF_FFFF == 0, "the placeholder is the black page")
        #expect(scene.awaitsContent && !scene.hasRenderedContent)
        var time = 0.0
        let deadline = Date().addingTimeInterval(30)
        while scene.currentPage?.pictureView.picture == nil, Date() < deadline {
            time += 16
            if scene.advance(to: time) != .nextFrame { _ = probe.wait(seconds: 5) }
        }
        // Delivered and not drawn yet: the frame drawn now shows it, so it is not kept back.
        #expect(scene.currentPage?.pictureView.picture != nil)
        #expect(!scene.awaitsContent)
        // Its header gave its size at the fit, 64×48, exactly its level -3, which its tiles are
        // windows onto: it takes no tile memory, so none was written while it decoded.
        #expect(scene.renderer.reservedTileCount == 0)
        _ = scene.render(into: buffer.framebuffer, bufferAge: 1)
        #expect(scene.renderer.reservedTileCount == 0)
        let (r, g, b) = DetailLoadingTests.block(0, 80, 160)
        #expect(buffer.framebuffer[10, 20] & 0xFF_FFFF == UInt32(r << 16 | g << 8 | b),
                "\(String(buffer.framebuffer[10, 20], radix: 16)), expected block (10, 20) of the first picture")
        #expect(scene.hasRenderedContent)
        // The next page loading is no first picture: nothing is waited for any more.
        scene.show(page: 1, animated: false)
        _ = scene.advance(to: time + 16)
        #expect(scene.currentIndex == 1 && !scene.awaitsContent)
    }

    @Test("A first picture drawn from its screen-size level takes no tile memory and has none written while it decodes; one shrunk from a finer level has its tiles' memory written, grown when the window is given its size after the header (a tiling compositor's placeholder first)")
    func reserveFollowsTheWindow() throws {
        // 512×384 in 300×225 on a screen of that size: its fit 0.586 settles on level -1, the
        // 256×192 it is decoded at, and is painted enlarged from it every frame.
        let folder = try TemporaryFolder()
        let (scene, probe) = try Self.blockGallery(in: folder)
        scene.screenSize = { (300, 225) }
        scene.resize(width: 300, height: 225, scale: 1)
        var time = 0.0
        let deadline = Date().addingTimeInterval(30)
        while scene.currentPage?.imageSize == nil, Date() < deadline {
            time += 16
            if scene.advance(to: time) != .nextFrame { _ = probe.wait(seconds: 5) }
        }
        #expect(scene.currentPage?.imageSize != nil)
        #expect(scene.renderer.reservedTileCount == 0, "painted from its level: no tiles of its own")
        #expect(scene.waitForLoads(timeout: 30))
        let buffer = try #require(OwnedFramebuffer(width: 300, height: 225))
        _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
        #expect(scene.hasRenderedContent && scene.renderer.cacheBytes == 0,
                "the frame took \(scene.renderer.cacheBytes) bytes of tiles")

        // 400×300: the fit 0.78 settles on level 0, full size, and is drawn shrunk into tiles
        // of its own: ⌊400/256⌋ + 2 = 3 columns and ⌊300/256⌋ + 2 = 3 rows can cover it off the grid.
        let (shrunk, shrunkProbe) = try Self.blockGallery(in: folder)
        shrunk.screenSize = { (400, 300) }
        shrunk.resize(width: 300, height: 225, scale: 1)
        while shrunk.currentPage?.imageSize == nil, Date() < deadline {
            time += 16
            if shrunk.advance(to: time) != .nextFrame { _ = shrunkProbe.wait(seconds: 5) }
        }
        #expect(shrunk.renderer.reservedTileCount == 0)
        // The window is given its size after the header: the reserve grows to its tiles; smaller
        // again, it is not cut (its blocks are taken first).
        shrunk.resize(width: 400, height: 300, scale: 1)
        #expect(shrunk.renderer.reservedTileCount == 9)
        shrunk.resize(width: 300, height: 225, scale: 1)
        #expect(shrunk.renderer.reservedTileCount == 9)
        shrunk.resize(width: 400, height: 300, scale: 1)
        #expect(shrunk.waitForLoads(timeout: 30))
        let large = try #require(OwnedFramebuffer(width: 400, height: 300))
        _ = shrunk.render(into: large.framebuffer, bufferAge: 0)
        #expect(shrunk.hasRenderedContent && shrunk.renderer.reservedTileCount == 0, "what the frame did not take is freed")
        #expect(shrunk.renderer.cacheBytes > 0, "its tiles are its own")
    }

    @Test("A large SVG first: no tile memory reserved (its tiles borrow one render), its quick rendition on screen, then the drawing, sharp in the frame after")
    func vectorFirstPicture() throws {
        let folder = try TemporaryFolder()
        // 2000×1000: the left half blue, the right half yellow, a 4-pixel white bar at x 998…1001.
        let svg = try folder.write("drawing.svg", Array("""
            <svg xmlns="http://www.w3.org/2000/svg" width="2000" height="1000">
            <rect width="1000" height="1000" fill="#2040c0"/><rect x="1000" width="1000" height="1000" fill="#e0c020"/>
            <rect x="998" width="4" height="1000" fill="#ffffff"/></svg>
            """.utf8))
        var options = GalleryScene.Options()
        options.loading = .background
        options.background = .color(Color(red: 0, green: 0, blue: 0, alpha: 1))
        let scene = GalleryScene(files: [svg], options: options)
        let probe = WakeProbe()
        scene.onNeedsFrameFromAnyThread = { probe.wake() }
        scene.screenSize = { (1600, 800) }
        scene.resize(width: 1600, height: 800, scale: 1)
        var time = 0.0
        let deadline = Date().addingTimeInterval(30)
        while scene.currentPage?.pictureView.picture == nil, Date() < deadline {
            time += 16
            if scene.advance(to: time) != .nextFrame { _ = probe.wait(seconds: 5) }
        }
        let shown = try #require(scene.currentPage?.pictureView.picture)
        #expect(scene.renderer.reservedTileCount == 0, "nothing reserved for a drawing")
        let buffer = try #require(OwnedFramebuffer(width: 1600, height: 800))
        // Fit 0.8: 1600×800. The rendition is at 0.25 (500×250): the bar is a pixel wide there.
        if shown.provisionalLevel != nil {
            // A quarter of the fit's pixels: drawn at half resolution, nothing is lost.
            #expect(scene.prefersHalfResolution)
            let half = try #require(OwnedFramebuffer(width: 800, height: 400))
            _ = scene.renderHalfResolution(into: half.framebuffer)
            #expect(half.framebuffer[200, 200] & 0xFF_FFFF == 0x2040C0 && half.framebuffer[600, 200] & 0xFF_FFFF == 0xE0C020)
            #expect(scene.hasRenderedContent, "the half-resolution frame is the first with content")
            _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
            #expect(buffer.framebuffer[400, 400] & 0xFF_FFFF == 0x2040C0 && buffer.framebuffer[1200, 400] & 0xFF_FFFF == 0xE0C020)
            #expect(!scene.renderer.cachedKeys.contains { $0.scale == 0.8 }, "painted from the rendition's level")
        }
        #expect(scene.waitForLoads(timeout: 30))
        let drawing = try #require(scene.currentPage?.pictureView.picture)
        #expect(drawing.isVector)
        #expect(!scene.prefersHalfResolution, "the drawing itself is drawn at the full scale")
        _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
        // Sharp at 0.8: the bar covers x 798.4…801.6, so 799 and 800 are white.
        #expect(buffer.framebuffer[799, 400] & 0xFF_FFFF == 0xFFFFFF && buffer.framebuffer[800, 400] & 0xFF_FFFF == 0xFFFFFF)
        #expect(buffer.framebuffer[400, 400] & 0xFF_FFFF == 0x2040C0 && buffer.framebuffer[1200, 400] & 0xFF_FFFF == 0xE0C020)
        #expect(scene.renderer.cachedKeys.contains { $0.scale == 0.8 } && scene.renderer.cacheBytes == 0,
                "sharp tiles, all windows onto the render made ahead")
    }

    @Test("A drawing the loader rendered for another fit (a screen larger than the window, --upscale) is rendered at the page's fit before it shows: its first frame draws nothing",
          arguments: [(width: 2000, screen: 2000, upscale: false, fit: 0.8), (width: 200, screen: 1600, upscale: true, fit: 8.0)])
    func vectorRenderedAtWindowFit(width: Int, screen: Int, upscale: Bool, fit: Double) throws {
        // The loader renders ahead (at its fit on the screen, not enlarged: 1) only a drawing
        // with a quick rendition, whose fit there is 1 MP or more: the large one.
        let renderedAhead = width == 2000
        let folder = try TemporaryFolder()
        // width×width/2: the left half blue, the right half yellow.
        let half = width / 2
        let svg = try folder.write("drawing.svg", Array("""
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(half)">
            <rect width="\(half)" height="\(half)" fill="#2040c0"/><rect x="\(half)" width="\(half)" height="\(half)" fill="#e0c020"/></svg>
            """.utf8))
        var options = GalleryScene.Options()
        options.loading = .background
        options.upscalesToFit = upscale
        options.background = .color(Color(red: 0, green: 0, blue: 0, alpha: 1))
        let scene = GalleryScene(files: [svg], options: options)
        let probe = WakeProbe()
        scene.onNeedsFrameFromAnyThread = { probe.wake() }
        scene.screenSize = { (screen, screen / 2) }
        scene.resize(width: 1600, height: 800, scale: 1)
        #expect(scene.waitForLoads(timeout: 30))
        let drawing = try #require(scene.currentPage?.pictureView.picture)
        #expect(drawing.isVector)
        #expect(drawing.isRenderedWhole(scale: 1) == renderedAhead, "rendered ahead for the screen: \(renderedAhead)")
        #expect(drawing.isRenderedWhole(scale: fit), "rendered at the window's fit \(fit) before it shows")
        let buffer = try #require(OwnedFramebuffer(width: 1600, height: 800))
        _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
        #expect(buffer.framebuffer[400, 400] & 0xFF_FFFF == 0x2040C0 && buffer.framebuffer[1200, 400] & 0xFF_FFFF == 0xE0C020)
        #expect(scene.renderer.cachedKeys.contains { $0.scale == fit } && scene.renderer.cacheBytes == 0,
                "tiles at \(fit), all windows onto that render")
    }

    @Test("Loads that finish before they return (offscreen runs) leave nothing to await; a file that fails shows its card at once")
    func nothingAwaitedWhenAtHand() throws {
        let folder = try TemporaryFolder()
        let synchronous = GalleryScene(files: try DetailLoadingTests.files(in: folder), options: .synchronous)
        synchronous.resize(width: 64, height: 48, scale: 1)
        _ = synchronous.advance(to: 0)
        #expect(!synchronous.awaitsContent)
        var options = GalleryScene.Options()
        options.loading = .background
        let broken = GalleryScene(files: [try folder.write("broken.png", [0x89, 0x50, 0x4E, 0x47, 1, 2, 3])], options: options)
        broken.resize(width: 64, height: 48, scale: 1)
        #expect(broken.awaitsContent)
        #expect(broken.waitForLoads(timeout: 30))
        #expect(broken.currentPage?.card != nil && !broken.awaitsContent)
        #expect(!GalleryScene(files: [], options: options).awaitsContent, "the empty gallery's card is its content")
    }

    @Test("Without a wake the scene still polls, so a host that cannot be woken sees results")
    func pollingFallback() throws {
        let folder = try TemporaryFolder()
        let large = try LoadingTests.largeJPEG(in: folder)
        var options = GalleryScene.Options()
        options.loading = .background
        let scene = GalleryScene(files: [large], options: options)
        scene.resize(width: 500, height: 300, scale: 1)
        let request = scene.advance(to: 100)
        #expect(request == .at(100 + GalleryScene.loadPollInterval) || request == .nextFrame, "\(request)")
        #expect(scene.waitForLoads(timeout: 60))
    }
}
