// Loading under a host that can be woken: the scene asks for no polling ticks while pictures
// decode, and the loader's wake alone brings every result to the frame loop.
import Dispatch
import Foundation
import Gallery
import Host
import Raster
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
        var options = GalleryScene.Options()
        options.loading = .background
        // 512×384 pictures; a 32×24 window (a compositor's placeholder) on a 64×48 screen.
        let scene = GalleryScene(files: try DetailLoadingTests.files(in: folder), options: options)
        let probe = WakeProbe()
        scene.onNeedsFrameFromAnyThread = { probe.wake() }
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
