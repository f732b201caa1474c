// Kiosk behaviour: back to the first image at fit after a quiet spell, and a slideshow that
// pauses under a finger.
import Foundation
import Gallery
import Raster
import Replay
import ScrollKit
import Testing

@Suite("Gallery kiosk")
struct KioskTests {
    let files = [Assets.sunset, Assets.bubbles, Assets.mosaic]

    /// The page shown at each drawn frame, by frame time.
    final class PageLog {
        var entries: [(time: Double, page: Int, zoomed: Bool)] = []
        /// The first time at or after `after` that page `page` was shown unzoomed and at rest.
        func firstTime(showing page: Int, after: Double = 0) -> Double? {
            entries.first { $0.time >= after && $0.page == page && !$0.zoomed }?.time
        }
    }

    private func log(_ h: Harness) -> PageLog {
        let log = PageLog()
        h.window.onFrame = { [unowned scene = h.scene] _, time in
            let page = scene.currentPage
            let atRest = scene.pager.contentOffset.x == CGFloat(scene.currentIndex) * 820
            log.entries.append((time, atRest ? scene.currentIndex : -1, page?.isZoomedIn ?? false))
        }
        return log
    }

    @Test("After the idle delay without input the kiosk returns to the first image at fit, not before")
    func idleReset() throws {
        var options = GalleryScene.Options.synchronous
        options.isKiosk = true
        options.idleResetDelay = 5
        let h = Harness(files: files, options: options)
        let frames = log(h)
        // Swipe to the second image and zoom into it; the last input is at 2220 ms.
        h.run(Step.drag(100, from: CGPoint(x: 600, y: 200), to: CGPoint(x: 300, y: 200)) + Step.doubleTap(2000, 400, 200))
        #expect(h.scene.currentIndex == 0)
        let page = try #require(h.scene.currentPage)
        #expect(!page.isZoomedIn && page.zoomScale == page.fitScale)
        #expect(h.shows(100, 0, (12, 34, 56)) && h.shows(99, 200, (0, 0, 0)))
        // Before the reset the zoomed second image was on screen; the reset came 5 s after
        // the last input, on the first frame after that.
        let zoomedSecond = frames.entries.contains { $0.page == 1 && $0.zoomed }
        #expect(zoomedSecond)
        let reset = try #require(frames.firstTime(showing: 0, after: 1000))
        #expect(reset >= 7220 && reset < 7220 + 20, "reset at \(reset)")
        // The second image came back to its fit when it left the screen.
        #expect(h.scene.page(at: 1).map { !$0.isZoomedIn } ?? true)
    }

    @Test("Input during the quiet spell starts it again")
    func inputPostponesReset() throws {
        var options = GalleryScene.Options.synchronous
        options.idleResetDelay = 2
        let h = Harness(files: files, options: options)
        let frames = log(h)
        h.run(Step.key(100, "Right") + Step.key(1500, "Down") + Step.key(3000, "Down"))
        // The last input is the key release at 3050 ms: back to the first image at 5050 ms.
        let reset = try #require(frames.firstTime(showing: 0, after: 1000))
        #expect(reset >= 5050 && reset < 5050 + 20, "reset at \(reset)")
    }

    @Test("The slideshow advances every interval, wraps to the first image, and pauses while touched")
    func slideshow() throws {
        var options = GalleryScene.Options.synchronous
        options.isKiosk = true
        options.slideshowInterval = 2
        let h = Harness(files: files, options: options)
        let frames = log(h)
        // A finger rests on the screen from 5 s to 8 s.
        let touch = InputFrameBuilder.frames([TimedAction(time: 5000, action: .touchDown(id: 0, location: CGPoint(x: 400, y: 200))),
                                              TimedAction(time: 8000, action: .touchUp(id: 0))])
        let outcome = h.display.run(touch, on: h.window, settleLimit: 4500)
        #expect(outcome == .timedOut(time: h.display.now))
        // Slides at 2 s and 4 s (each slides for 300 ms), none while touched, the next 2 s
        // after the lift (10 s), wrapping to the first image at once.
        let second = try #require(frames.firstTime(showing: 1))
        let third = try #require(frames.firstTime(showing: 2))
        #expect(second >= 2000 && second < 2400, "\(second)")
        #expect(third >= 4000 && third < 4400, "\(third)")
        let wrapped = try #require(frames.firstTime(showing: 0, after: 4400))
        #expect(wrapped >= 10_000 && wrapped < 10_050, "\(wrapped)")
        #expect(!frames.entries.contains { $0.time > 4400 && $0.time < 10_000 && $0.page != 2 })
    }

    @Test("Schedule: slides, idle reset, pause while touched")
    func schedule() {
        var s = KioskSchedule(slideInterval: 1000, idleDelay: 3000)
        #expect(s.advance(to: 0) == [])
        #expect(s.nextDeadline == 1000)
        #expect(s.advance(to: 999) == [])
        #expect(s.advance(to: 1000) == [.nextSlide])
        s.noteInput(at: 1500, touching: true)
        #expect(s.nextDeadline == nil)
        #expect(s.advance(to: 9000) == [])
        s.noteInput(at: 9000, touching: false)
        #expect(s.nextDeadline == 10_000)
        #expect(s.advance(to: 10_000) == [.nextSlide])
        #expect(s.advance(to: 11_000) == [.nextSlide])
        #expect(s.advance(to: 12_000) == [.nextSlide, .idleReset])
        #expect(s.nextDeadline == 13_000)
        #expect(s.advance(to: 20_000) == [.nextSlide])
        let off = KioskSchedule(slideInterval: nil, idleDelay: -1)
        #expect(!off.isActive && off.nextDeadline == nil)
    }

    @Test("Schedule: a paused show has no next slide, resumes one interval after the resume, stays paused under a finger and is resumed by the idle reset")
    func schedulePause() {
        var s = KioskSchedule(slideInterval: 1000, idleDelay: 5000)
        #expect(s.advance(to: 0) == [] && s.isPlaying)
        s.setPaused(true, at: 500)
        #expect(!s.isPlaying && s.isPaused && s.nextDeadline == nil)
        #expect(s.advance(to: 3000) == [])
        // Input while paused: the idle count starts again, the show stays paused.
        s.noteInput(at: 3000, touching: true)
        s.noteInput(at: 3100, touching: false)
        #expect(s.isPaused && s.nextDeadline == 8100)
        s.setPaused(false, at: 4000)
        #expect(s.isPlaying && s.nextDeadline == 5000)
        #expect(s.advance(to: 5000) == [.nextSlide])
        s.setPaused(true, at: 5500)
        // The idle reset (5 s after the input at 3100) starts the show over, playing.
        #expect(s.advance(to: 8100) == [.idleReset])
        #expect(s.isPlaying && s.nextDeadline == 9100)
        // Resumed while touched: nothing is due until the finger lifts.
        s.setPaused(true, at: 9000)
        s.noteInput(at: 9050, touching: true)
        s.setPaused(false, at: 9060)
        #expect(s.nextDeadline == nil && s.isPlaying)
        let none = KioskSchedule(slideInterval: nil, idleDelay: 1000)
        #expect(!none.isPlaying)
    }

    @Test("P pauses and resumes the slideshow; the screen is kept on while it plays with pictures to show, or while a finger is down")
    func pauseKeyAndScreen() throws {
        var options = GalleryScene.Options.synchronous
        options.isKiosk = true
        options.slideshowInterval = 2
        let h = Harness(files: files, options: options)
        let frames = log(h)
        #expect(h.scene.keepsScreenOn)
        // Paused at 1 s, resumed at 6 s: the next slide at 8 s, none before.
        h.run(Step.key(1000, "p") + Step.key(6000, "P"), settleLimit: 3000)
        let second = try #require(frames.firstTime(showing: 1))
        #expect(second >= 8000 && second < 8400, "\(second)")
        let later = h.display.now
        h.run(Step.key(later + 100, "p"))
        #expect(!h.scene.keepsScreenOn, "a paused show lets the screen blank")
        // A finger down keeps it on, paused or not; lifted, it may blank again.
        h.run([Step.down(later + 500, 0, 400, 200)])
        #expect(h.scene.keepsScreenOn)
        h.run([Step.up(later + 600, 0)])
        #expect(!h.scene.keepsScreenOn)
        // One picture, or no slideshow: nothing to keep the screen on for.
        #expect(!Harness(files: [Assets.sunset], options: options).scene.keepsScreenOn)
        #expect(!Harness(files: files).scene.keepsScreenOn)
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "p"), modifiers: [], kiosk: true) == .toggleSlideshow)
    }
}
