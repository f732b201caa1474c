// The keyboard: paging keys, arrows that pan a zoomed image, zoom keys, and the window keys
// that a kiosk ignores.
import Foundation
import Gallery
import ScrollKit
import Testing

@Suite("Gallery keyboard")
struct GalleryKeyboardTests {
    let files = [Assets.sunset, Assets.bubbles, Assets.mosaic]

    @Test("Paging keys move one image at a time and stop at the ends",
          arguments: [
            (["Right"], 1), (["Right", "Right", "Right", "Right"], 2), (["Right", "Left"], 0), (["Left"], 0),
            (["Next"], 1), (["Page_Down", "Prior"], 0), (["End"], 2), (["End", "Home"], 0), (["space"], 1),
            (["KP_Right", "KP_Right", "BackSpace"], 1),
          ])
    func pagingKeys(keys: [String], page: Int) throws {
        let h = Harness(files: files)
        var steps: [Step] = []
        // Half a second apart: each slide (300 ms) is over before the next key.
        for (i, key) in keys.enumerated() { steps += Step.key(100 + 500 * Double(i), key) }
        h.run(steps)
        #expect(h.scene.currentIndex == page)
        #expect(h.scene.pager.contentOffset == CGPoint(x: 820 * Double(page), y: 0))
    }

    @Test("Keys pressed faster than the slide add up: three quick Rights from the first reach the third")
    func quickKeysAddUp() throws {
        let h = Harness(files: files)
        h.run(Step.key(100, "Right") + Step.key(160, "Right") + Step.key(220, "Right"))
        #expect(h.scene.currentIndex == 2 && h.scene.pager.contentOffset.x == 1640)
    }

    @Test("Shift+space goes back")
    func shiftSpace() throws {
        let h = Harness(files: files)
        h.run(Step.key(100, "End") + Step.key(600, "space", modifiers: [.shift]))
        #expect(h.scene.currentIndex == 1)
    }

    @Test("Zoomed in, arrows pan the image; where it cannot pan further Left and Right turn the page")
    func arrowsPanWhenZoomed() throws {
        let h = Harness(files: [Assets.bubbles, Assets.sunset, Assets.mosaic])
        // The sunset at 1:1 with its left edge at the window's: tapped at image (10, 10).
        h.run(Step.key(100, "Right") + Step.doubleTap(600, 105, 5))
        let page = try #require(h.scene.currentPage)
        #expect(h.scene.currentIndex == 1 && page.zoomScale == 1)
        #expect(page.contentOffset == CGPoint(x: 0, y: 5))
        h.run(Step.key(2000, "Right") + Step.key(2500, "Down"))
        #expect(h.scene.currentIndex == 1)
        #expect(page.contentOffset == CGPoint(x: 40, y: 45), "\(page.contentOffset)")
        h.run(Step.key(3000, "Left") + Step.key(3500, "Up"))
        #expect(page.contentOffset == CGPoint(x: 0, y: 5) && h.scene.currentIndex == 1)
        // At the left edge, Left turns to the previous image.
        h.run(Step.key(4000, "Left"))
        #expect(h.scene.currentIndex == 0)
        // The bubbles at 1:1 are exactly as wide as the window: Right turns the page at once.
        h.run(Step.doubleTap(5000, 400, 200))
        let first = try #require(h.scene.currentPage)
        #expect(first.zoomScale == 1)
        h.run(Step.key(6000, "Right"))
        #expect(h.scene.currentIndex == 1)
    }

    @Test("+ and - zoom by √2 around the middle, 0 fits, 1 shows pixels 1:1")
    func zoomKeys() throws {
        let h = Harness(files: files)
        h.run(Step.key(100, "plus"))
        let page = try #require(h.scene.currentPage)
        #expect(abs(page.zoomScale - 0.5 * 2.0.squareRoot()) < 1e-9, "\(page.zoomScale)")
        // The middle of the image stays in the middle of the window.
        let middle = page.pictureView.convert(CGPoint(x: 400, y: 200), from: nil)
        #expect(abs(middle.x - 600) < 0.5 && abs(middle.y - 400) < 0.5, "\(middle)")
        h.run(Step.key(600, "1"))
        #expect(page.zoomScale == 1)
        h.run(Step.key(1100, "minus"))
        #expect(abs(page.zoomScale - 1 / 2.0.squareRoot()) < 1e-9)
        h.run(Step.key(1600, "0"))
        #expect(page.zoomScale == 0.5 && page.contentOffset == CGPoint(x: -100, y: 0))
        // Not below the fit.
        h.run(Step.key(2100, "minus"))
        #expect(page.zoomScale == 0.5)
        #expect(h.shows(100, 0, (12, 34, 56)))
    }

    @Test("F, F11, Escape and Q ask the window; a kiosk ignores them", arguments: [false, true])
    func windowKeys(kiosk: Bool) throws {
        var options = GalleryScene.Options.synchronous
        options.isKiosk = kiosk
        let h = Harness(files: files, options: options)
        var requests: [GalleryScene.WindowRequest] = []
        h.scene.onWindowRequest = { requests.append($0) }
        h.run(Step.key(100, "f") + Step.key(200, "F11") + Step.key(300, "Escape") + Step.key(400, "q")
              + Step.key(500, "Q", modifiers: [.ctrl]))
        #expect(requests == (kiosk ? [] : [.toggleFullscreen, .toggleFullscreen, .leaveFullscreen, .quit, .quit]))
        #expect(h.scene.hidesPointer == kiosk)
        #expect(h.scene.pointerAppearance == (kiosk ? .hidden : .openHand))
    }

    @Test("Key map: names, modifiers and the kiosk")
    func keyMap() {
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "Right"), modifiers: [], kiosk: false) == .arrow(dx: 1, dy: 0))
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "Up"), modifiers: [], kiosk: true) == .arrow(dx: 0, dy: -1))
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "equal"), modifiers: [], kiosk: false) == .zoomIn)
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "KP_Subtract"), modifiers: [], kiosk: false) == .zoomOut)
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "Right"), modifiers: [.alt], kiosk: false) == nil)
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "q"), modifiers: [.logo], kiosk: false) == nil)
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "a"), modifiers: [], kiosk: false) == nil)
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "q"), modifiers: [], kiosk: true) == nil)
        #expect(GalleryKeyBindings.command(forKey: Key(keysymName: "Next"), modifiers: [], kiosk: true) == .next)
    }

    @Test("The wheel turns pages of unzoomed images, one per notch, and pans zoomed ones")
    func wheel() throws {
        let h = Harness(files: files)
        func notch(_ t: Double, _ v120: Int) -> Step {
            Step(time: t, kind: .pointerAxis(source: .wheel, dx: 0, dy: CGFloat(v120) / 8, value120X: nil, value120Y: v120))
        }
        // Two half notches make one page; a full notch back returns.
        h.run([Step(time: 0, kind: .pointerMotion(location: CGPoint(x: 400, y: 200))), notch(100, 60), notch(150, 60)])
        #expect(h.scene.currentIndex == 1)
        h.run([notch(1000, -120)])
        #expect(h.scene.currentIndex == 0)
        h.run(Step.doubleTap(2000, 400, 200))
        let page = try #require(h.scene.currentPage)
        let y = page.contentOffset.y
        h.run([notch(3000, 120)])
        #expect(h.scene.currentIndex == 0 && page.contentOffset.y > y)
    }
}
