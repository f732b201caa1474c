// What a user sees when opening the gallery and touching it: the first image fitted and
// centred, swipes turning pages, pinches and double taps zooming around the fingers.
import Foundation
import Gallery
import Pictures
import Raster
import ScrollKit
import Testing

/// The decoded asset's colour at image pixel (x, y), straight RGB over black.
func assetColor(_ path: String, _ x: Int, _ y: Int) throws -> (Int, Int, Int) {
    let picture = try ImageDecoder(path: path).decode()
    let p = picture.pixel(x: x, y: y)
    return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
}

@Suite("Gallery gestures")
struct GalleryGestureTests {
    // 800×400 window: the 1200×800 sunset fits at 0.5, 600×400 points from x = 100.
    let files = [Assets.sunset, Assets.bubbles, Assets.mosaic]

    @Test("The first image opens fitted and centred, its known pixels where the fit puts them")
    func firstImageFitted() throws {
        let h = Harness(files: files)
        h.run([])
        let page = try #require(h.scene.currentPage)
        #expect(h.scene.currentIndex == 0)
        #expect(abs(page.zoomScale - 0.5) < 1e-9)
        #expect(page.contentInset.left == 100 && page.contentInset.top == 0)
        // Assets/README.md: (0…15, 0…15) = (12, 34, 56), (1184…1199, 784…799) = (250, 128, 4).
        #expect(h.problems([(100, 0, (12, 34, 56)), (107, 7, (12, 34, 56)), (692, 392, (250, 128, 4)),
                            (699, 399, (250, 128, 4)),
                            // Beside the image: the black page.
                            (99, 200, (0, 0, 0)), (700, 200, (0, 0, 0)), (20, 20, (0, 0, 0)), (780, 380, (0, 0, 0))]).isEmpty,
                "\(h.problems([(100, 0, (12, 34, 56)), (692, 392, (250, 128, 4)), (99, 200, (0, 0, 0)), (700, 200, (0, 0, 0))]))")
        // A pixel in the middle is the decoded image's, averaged 2:1.
        let middle = try assetColor(Assets.sunset, 600, 400)
        #expect(h.shows(400, 200, middle, tolerance: 8), "\(h.rgb(400, 200)) vs \(middle)")
    }

    @Test("A tall image in a wide window is centred horizontally, a wide one in a tall window vertically")
    func centredBothWays() throws {
        // The EXIF-rotated arrow is displayed 800×1200: in 800×400 it fits at 1/3.
        let tall = Harness(files: [Assets.arrow], width: 800, height: 400)
        tall.run([])
        let page = try #require(tall.scene.currentPage)
        #expect(abs(page.zoomScale - 1.0 / 3) < 1e-9)
        #expect(abs(page.contentInset.left - (800 - 800.0 / 3) / 2) < 1e-9 && page.contentInset.top == 0)
        // The sunset in a 400×800 window fits at 1/3 too, centred vertically.
        let wide = Harness(files: [Assets.sunset], width: 400, height: 800)
        wide.run([])
        let second = try #require(wide.scene.currentPage)
        #expect(abs(second.contentInset.top - (800 - 800.0 / 3) / 2) < 1e-9 && second.contentInset.left == 0)
        #expect(wide.shows(200, 100, (0, 0, 0)) && wide.shows(200, 700, (0, 0, 0)))
        #expect(!wide.shows(200, 400, (0, 0, 0), tolerance: 2))
    }

    @Test("A quick swipe left turns to the second image; a slow short drag springs back")
    func swipeTurnsPage() throws {
        let h = Harness(files: files)
        h.run(Step.drag(0, from: CGPoint(x: 600, y: 200), to: CGPoint(x: 300, y: 210)))
        #expect(h.scene.currentIndex == 1)
        #expect(h.scene.pager.contentOffset == CGPoint(x: 820, y: 0))
        // The bubbles (800×800) fit at 0.5 from x = 200, on the checkerboard (8 px squares from
        // the picture's corner, the first #808080, the next #CCCCCC): the translucent corner
        // disc shows its straight (200, 100, 50, α 128) over the light square of column 49,
        // 100 + 204·127/255 = 202 and so on; the transparent corner shows the dark square; left
        // of the picture the page is black.
        let checks = [(592, 0, (202, 152, 127)), (599, 7, (202, 152, 127)), (200, 0, (128, 128, 128)),
                      (208, 0, (204, 204, 204)), (199, 200, (0, 0, 0))]
        #expect(h.problems(checks, tolerance: 2).isEmpty, "\(h.problems(checks, tolerance: 2))")
        // A slow drag by a quarter of the page, held before lifting: back to where it was.
        h.run(Step.drag(2000, from: CGPoint(x: 600, y: 200), to: CGPoint(x: 400, y: 200), hold: 200))
        #expect(h.scene.currentIndex == 1 && h.scene.pager.contentOffset.x == 820)
        // Swipe right: back to the first image, and a flick at the first stays there.
        h.run(Step.drag(4000, from: CGPoint(x: 200, y: 200), to: CGPoint(x: 500, y: 200)))
        #expect(h.scene.currentIndex == 0 && h.scene.pager.contentOffset.x == 0)
        h.run(Step.drag(6000, from: CGPoint(x: 200, y: 200), to: CGPoint(x: 500, y: 200)))
        #expect(h.scene.currentIndex == 0 && h.scene.pager.contentOffset.x == 0)
        #expect(h.shows(100, 0, (12, 34, 56)))
    }

    @Test("A pinch magnifies around the fingers and keeps the point under them")
    func pinchZoomsAroundFingers() throws {
        let h = Harness(files: files)
        var steps = [Step.down(0, 1, 350, 200), Step.down(10, 2, 450, 200)]
        for i in 1...10 {
            let spread = 50 + 10 * Double(i)  // each finger 50 → 150 pt from the middle
            steps.append(.move(10 + 8 * Double(i), 1, 400 - spread, 200))
            steps.append(.move(12 + 8 * Double(i), 2, 400 + spread, 200))
        }
        steps += [.up(200, 1), .up(200, 2)]
        h.run(steps)
        let page = try #require(h.scene.currentPage)
        #expect(h.scene.currentIndex == 0 && h.scene.pager.contentOffset.x == 0, "a pinch does not turn the page")
        // Three times the spread: three times the fit.
        #expect(abs(page.zoomScale - 1.5) < 0.01, "scale \(page.zoomScale)")
        // The image point under the fingers' midpoint before (600, 400) is still under it.
        let under = page.pictureView.convert(CGPoint(x: 400, y: 200), from: nil)
        #expect(abs(under.x - 600) < 2 && abs(under.y - 400) < 2, "\(under)")
        let expected = try assetColor(Assets.sunset, 600, 400)
        #expect(h.shows(400, 200, expected, tolerance: 8), "\(h.rgb(400, 200)) vs \(expected)")
    }

    @Test("A double tap zooms to 1:1 at the tapped point, another returns to the fit")
    func doubleTapToggles() throws {
        let h = Harness(files: files)
        h.run(Step.doubleTap(0, 300, 100))
        let page = try #require(h.scene.currentPage)
        #expect(page.zoomScale == 1, "scale \(page.zoomScale)")
        // Image point (400, 200) was tapped at (300, 100) and stays there.
        #expect(abs(page.contentOffset.x - 100) < 0.5 && abs(page.contentOffset.y - 100) < 0.5, "\(page.contentOffset)")
        let tapped = try assetColor(Assets.sunset, 400, 200)
        #expect(h.shows(300, 100, tapped, tolerance: 2), "\(h.rgb(300, 100)) vs \(tapped)")
        #expect(page.contentInset == .zero)
        h.run(Step.doubleTap(2000, 500, 300))
        #expect(abs(page.zoomScale - 0.5) < 1e-9)
        #expect(page.contentOffset == CGPoint(x: -100, y: 0))
        #expect(h.shows(100, 0, (12, 34, 56)) && h.shows(99, 200, (0, 0, 0)))
    }

    @Test("A double tap near a corner zooms as far into the corner as the image's edges allow")
    func doubleTapAtCorner() throws {
        let h = Harness(files: files)
        h.run(Step.doubleTap(0, 105, 5))
        let page = try #require(h.scene.currentPage)
        #expect(page.zoomScale == 1)
        // Image point (10, 10) was tapped at (105, 5): it stays under the finger where the
        // image's left edge allows (x), exactly (y).
        #expect(page.contentOffset == CGPoint(x: 0, y: 5), "\(page.contentOffset)")
        #expect(h.shows(0, 0, (12, 34, 56)))
    }

    @Test("Zoomed in, a drag pans the image; at its edge a continued push turns the page")
    func panThenHandOff() throws {
        let h = Harness(files: files)
        h.run(Step.doubleTap(0, 400, 200))
        let page = try #require(h.scene.currentPage)
        #expect(page.zoomScale == 1)
        let before = page.contentOffset
        // A slow drag left by 100 pt pans the image by 90 pt (it follows the finger once past
        // the 10 pt slop); the page does not turn.
        h.run(Step.drag(2000, from: CGPoint(x: 500, y: 200), to: CGPoint(x: 400, y: 200), hold: 200))
        #expect(h.scene.currentIndex == 0 && h.scene.pager.contentOffset.x == 0)
        #expect(abs(page.contentOffset.x - (before.x + 90)) < 0.5, "\(before) → \(page.contentOffset)")
        // The image's right edge is 400 − 90 = 310 pt further: a fast swipe of 600 pt
        // reaches it and carries on into the next page.
        h.run(Step.drag(4000, from: CGPoint(x: 700, y: 200), to: CGPoint(x: 100, y: 200), steps: 20))
        #expect(h.scene.currentIndex == 1, "offset \(h.scene.pager.contentOffset)")
        #expect(h.scene.pager.contentOffset.x == 820)
    }

    @Test("Zoom resets when the page leaves the screen")
    func zoomResetsOffscreen() throws {
        let h = Harness(files: files)
        h.run(Step.doubleTap(0, 400, 200))
        let first = try #require(h.scene.page(at: 0))
        #expect(first.isZoomedIn)
        h.run(Step.key(1000, "Next"))
        #expect(h.scene.currentIndex == 1)
        #expect(!first.isZoomedIn && first.zoomScale == 0.5)
        h.run(Step.key(2000, "Prior"))
        #expect(h.scene.currentIndex == 0)
        #expect(h.shows(100, 0, (12, 34, 56)) && h.shows(99, 200, (0, 0, 0)))
    }

    @Test("Ctrl+wheel zooms around the pointer; a touchpad pinch too")
    func wheelAndTouchpadZoom() throws {
        let h = Harness(files: files)
        let control = InputEvent.Kind.key(.control, pressed: true)
        h.run([Step(time: 0, kind: .pointerMotion(location: CGPoint(x: 300, y: 100))),
               Step(time: 10, kind: control),
               Step(time: 20, kind: .pointerAxis(source: .wheel, dx: 0, dy: -60, value120X: nil, value120Y: -480)),
               Step(time: 400, kind: .key(.control, pressed: false), modifiers: [.ctrl])])
        let page = try #require(h.scene.currentPage)
        // Four notches toward the start: twice the scale, image point (400, 200) kept under the pointer.
        #expect(abs(page.zoomScale - 1) < 1e-6, "scale \(page.zoomScale)")
        let under = page.pictureView.convert(CGPoint(x: 300, y: 100), from: nil)
        #expect(abs(under.x - 400) < 1 && abs(under.y - 200) < 1, "\(under)")
        #expect(h.scene.currentIndex == 0)

        let pad = Harness(files: files)
        pad.run([Step(time: 0, kind: .pointerMotion(location: CGPoint(x: 300, y: 100))),
                 Step(time: 10, kind: .pinch(phase: .begin, scale: 1, dx: 0, dy: 0)),
                 Step(time: 20, kind: .pinch(phase: .update, scale: 1.5, dx: 0, dy: 0)),
                 Step(time: 30, kind: .pinch(phase: .update, scale: 2, dx: 0, dy: 0)),
                 Step(time: 40, kind: .pinch(phase: .end, scale: 2, dx: 0, dy: 0))])
        let zoomed = try #require(pad.scene.currentPage)
        #expect(abs(zoomed.zoomScale - 1) < 1e-6, "scale \(zoomed.zoomScale)")
        let point = zoomed.pictureView.convert(CGPoint(x: 300, y: 100), from: nil)
        #expect(abs(point.x - 400) < 1 && abs(point.y - 200) < 1, "\(point)")
    }
}

@Suite("Gallery robustness")
struct GalleryRobustnessTests {
    @Test("Input out of order or with non-finite values changes nothing, and the gallery keeps working")
    func oddInput() throws {
        let h = Harness(files: [Assets.sunset, Assets.bubbles])
        let nan = CGFloat.nan, inf = CGFloat.infinity
        h.run([
            Step(time: 10, kind: .touchUp(id: 7)),
            Step(time: 20, kind: .touchMotion(id: 3, location: CGPoint(x: 5, y: 5))),
            Step(time: 30, kind: .touchDown(id: 1, location: CGPoint(x: nan, y: 100))),
            Step(time: 40, kind: .touchMotion(id: 1, location: CGPoint(x: inf, y: 100))),
            Step(time: 50, kind: .touchUp(id: 1)),
            Step(time: 60, kind: .pointerButton(button: .left, pressed: true)),
            Step(time: 70, kind: .pointerButton(button: .left, pressed: false)),
            Step(time: 80, kind: .pinch(phase: .update, scale: nan, dx: 0, dy: 0)),
            Step(time: 90, kind: .pointerAxis(source: .wheel, dx: inf, dy: nan, value120X: nil, value120Y: nil)),
            Step(time: 100, kind: .axisStop(axis: .vertical)),
            Step(time: 110, kind: .pointerMotion(location: CGPoint(x: -1e300, y: 1e300))),
            Step(time: 120, kind: .pointerAxis(source: .finger, dx: nan, dy: 0, value120X: nil, value120Y: nil)),
            Step(time: 125, kind: .pinch(phase: .begin, scale: 1, dx: 0, dy: 0)),
            Step(time: 130, kind: .pinch(phase: .update, scale: -2, dx: inf, dy: 0)),
            Step(time: 135, kind: .pinch(phase: .end, scale: 1, dx: 0, dy: 0)),
            Step(time: 140, kind: .touchCancel),
            Step(time: 150, kind: .key(Key(keysymName: ""), pressed: true)),
        ])
        #expect(h.scene.currentIndex == 0 && h.scene.pager.contentOffset.x == 0)
        #expect(h.shows(100, 0, (12, 34, 56)))
        h.run(Step.drag(3000, from: CGPoint(x: 600, y: 200), to: CGPoint(x: 300, y: 200)))
        #expect(h.scene.currentIndex == 1 && h.scene.pager.contentOffset.x == 820)
    }
}
