// --wrap: the last page leads on to the first and back, by keys, by a swipe that shows the first
// page sliding in, and by the slideshow, through the pager's copies of the end pages.
import Foundation
@testable import Gallery
import Testing
import TestSupport

/// Solid pictures of the window's size (800×400), so each fills its page at 1:1: red, green, blue.
private func solidPictures(_ folder: TemporaryFolder, count: Int = 3) throws -> [String] {
    let colours: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF]
    return try (0..<count).map { i in
        let path = folder.path + "/\(i).png"
        try pngData(width: 800, height: 400) { _, _ in colours[i] }.write(to: URL(fileURLWithPath: path))
        return path
    }
}

private let red = (255, 0, 0), green = (0, 255, 0), blue = (0, 0, 255)

@Suite("Gallery wrap")
struct WrapTests {
    private func wrapping() -> GalleryScene.Options {
        var options = GalleryScene.Options.synchronous
        options.wraps = true
        return options
    }

    @Test("Right on the last page slides on to the first, Left on the first to the last")
    func keys() throws {
        let folder = try TemporaryFolder()
        let h = Harness(files: try solidPictures(folder), options: wrapping())
        h.run(Step.key(100, "End"))
        #expect(h.scene.currentIndex == 2 && h.shows(400, 200, blue))
        h.run(Step.key(1000, "Right"))
        #expect(h.scene.currentIndex == 0 && h.shows(400, 200, red))
        // Resting on the first page itself (slot 1 after the copy of the last), not on its copy.
        #expect(h.scene.pager.contentOffset.x == 820)
        h.run(Step.key(2000, "Left"))
        #expect(h.scene.currentIndex == 2 && h.shows(400, 200, blue) && h.scene.pager.contentOffset.x == 3 * 820)
        // Home and End do not wrap.
        h.run(Step.key(3000, "End"))
        #expect(h.scene.currentIndex == 2)
        // Keys faster than the slide go on past the end: Right, Right from the second reaches the first.
        h.run(Step.key(4000, "Left") + Step.key(4600, "Right") + Step.key(4660, "Right"))
        #expect(h.scene.currentIndex == 0 && h.shows(400, 200, red), "\(h.scene.currentIndex)")
    }

    @Test("A swipe past the last page shows the first sliding in and rests on it; without --wrap it springs back")
    func swipe() throws {
        let folder = try TemporaryFolder()
        let files = try solidPictures(folder)
        for wraps in [true, false] {
            let h = Harness(files: files, options: wraps ? wrapping() : .synchronous)
            h.run(Step.key(100, "End"))
            // Halfway through the swipe, finger still down: the last page on the left, and
            // with --wrap the first coming in on the right (black past the end without).
            var steps = [Step.down(1000, 0, 700, 200)]
            for i in 1...10 { steps.append(.move(1000 + 8 * Double(i), 0, 700 - 40 * Double(i), 200)) }
            h.run(steps)
            #expect(h.shows(100, 200, blue))
            #expect(h.shows(700, 200, wraps ? red : (0, 0, 0)), "wraps \(wraps): \(h.rgb(700, 200))")
            h.run([.move(1100, 0, 250, 200), .up(1108, 0)])
            #expect(h.scene.currentIndex == (wraps ? 0 : 2))
            #expect(h.shows(400, 200, wraps ? red : blue))
            if wraps {
                // And on: the next swipe goes to the second page.
                h.run(Step.drag(3000, from: CGPoint(x: 600, y: 200), to: CGPoint(x: 300, y: 200)))
                #expect(h.scene.currentIndex == 1 && h.shows(400, 200, green))
            }
        }
    }

    @Test("The slideshow slides on from the last picture to the first")
    func slideshow() throws {
        let folder = try TemporaryFolder()
        var options = wrapping()
        options.slideshowInterval = 1
        let h = Harness(files: try solidPictures(folder, count: 2), options: options)
        var sawBoth = false, sawLast = false
        h.window.onFrame = { _, _ in
            if h.scene.currentIndex == 1 && h.scene.pager.contentOffset.x == 2 * 820 { sawLast = true }
            if sawLast && h.shows(100, 200, green) && h.shows(700, 200, red) { sawBoth = true }
            // Slid on from the last and settled on the first page itself: enough (the show goes on).
            if sawLast && h.scene.currentIndex == 0 && h.scene.pager.contentOffset.x == 820 { h.display.stop() }
        }
        let outcome = h.run(Step.key(100, "End"))
        #expect(outcome == .stopped(time: h.display.now), "\(outcome)")
        #expect(h.scene.currentIndex == 0 && h.shows(400, 200, red) && sawBoth)
    }

    @Test("Two pictures wrap both ways; a page made for a copy shows the picture already loaded")
    func twoPictures() throws {
        let folder = try TemporaryFolder()
        let h = Harness(files: try solidPictures(folder, count: 2), options: wrapping())
        let loads = h.scene.loadsStarted
        h.run(Step.key(100, "Left"))
        #expect(h.scene.currentIndex == 1 && h.shows(400, 200, green))
        h.run(Step.key(1000, "Right") + Step.key(2000, "Right"))
        #expect(h.scene.currentIndex == 1 && h.shows(400, 200, green))
        // Slots: copy of 1, 0, 1, copy of 0: each picture decoded once, shown in two pages.
        #expect(h.scene.loadsStarted - loads <= 1, "\(h.scene.loadsStarted - loads) more loads")
    }
}
