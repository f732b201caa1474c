// ViewScene answers its host from its scroll views: frames while one moves, a timer for the
// indicators' fade, then nothing.
import Foundation
import Host
import Raster
import ScrollKit
import Testing

@Suite("View scene")
struct ViewSceneTests {
    @Test("The tile budget shrinks with the window's device pixels: 8 up to 1080p, 2 at 4K")
    func tileBudgetFollowsWindow() {
        let scene = ViewScene(root: View(frame: .zero), cacheBudget: 1 << 20)
        var budgets: [Int] = []
        for (width, height, scale) in [(1280, 720, 1.0), (1920, 1080, 1), (2560, 1440, 1), (3840, 2160, 1), (1920, 1080, 2),
                                       (7680, 4320, 1)] {
            scene.resize(width: width, height: height, scale: scale)
            budgets.append(scene.renderer.maxTilesPerFrame)
        }
        #expect(budgets == [8, 8, 4, 2, 2, 2])
    }

    @Test("At half resolution the tree is drawn at half its scale into a buffer of half the size; the next frame, at the full scale, repaints all of it")
    func halfResolution() throws {
        let root = View(frame: .zero)
        root.backgroundColor = Color(rgb: 0x000000)
        // 40×20 points at (20, 10): device pixels 40…119 × 20…59 at scale 2, 20…59 × 10…29 at 1.
        let square = View(frame: CGRect(x: 20, y: 10, width: 40, height: 20))
        square.backgroundColor = Color(rgb: 0xFF0000)
        root.addSubview(square)
        let scene = ViewScene(root: root, cacheBudget: 1 << 20)
        scene.resize(width: 100, height: 50, scale: 2)
        #expect(!scene.prefersHalfResolution, "a view scene has no coarse rendition to prefer it for")
        let half = try #require(OwnedFramebuffer(width: 100, height: 50))
        let halfDamage = PixelRegion(scene.renderHalfResolution(into: half.framebuffer))
        #expect(halfDamage.area == 100 * 50 && halfDamage.bounds == PixelRect(x: 0, y: 0, width: 100, height: 50))
        let colour = { (f: Framebuffer, x: Int, y: Int) -> UInt32 in f[x, y] & 0xFF_FFFF }
        #expect(colour(half.framebuffer, 20, 10) == 0xFF0000 && colour(half.framebuffer, 59, 29) == 0xFF0000)
        #expect(colour(half.framebuffer, 19, 10) == 0 && colour(half.framebuffer, 60, 29) == 0 && colour(half.framebuffer, 20, 30) == 0)
        #expect(scene.renderer.outputScale == 2, "the scale goes back once the frame is drawn")
        // A buffer holding the frame before: at the full scale none of it can stay.
        let full = try #require(OwnedFramebuffer(width: 200, height: 100))
        let fullDamage = PixelRegion(scene.render(into: full.framebuffer, bufferAge: 1))
        #expect(fullDamage.area == 200 * 100 && fullDamage.bounds == PixelRect(x: 0, y: 0, width: 200, height: 100))
        #expect(colour(full.framebuffer, 40, 20) == 0xFF0000 && colour(full.framebuffer, 119, 59) == 0xFF0000)
        #expect(colour(full.framebuffer, 39, 20) == 0 && colour(full.framebuffer, 120, 59) == 0 && colour(full.framebuffer, 40, 60) == 0)
    }

    @Test("An animated scroll asks for frames, then a timer for the indicator fade, then sleeps")
    func requestsFollowTheScrollView() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let scrollView = ScrollView(frame: root.bounds)
        scrollView.contentSize = CGSize(width: 100, height: 1000)
        root.addSubview(scrollView)
        let scene = ViewScene(root: root, cacheBudget: 1 << 20)
        var invalidations = 0
        scene.onNeedsFrame = { invalidations += 1 }
        scene.resize(width: 100, height: 100, scale: 1)
        #expect(scene.advance(to: 0) == .idle)

        scrollView.setContentOffset(CGPoint(x: 0, y: 300), animated: true)
        #expect(invalidations > 0, "starting an animation asks the host for a frame")
        var time = 0.0
        var requests: [FrameRequest] = []
        while time < 5000 {
            time += 1000 / 60
            let request = scene.advance(to: time)
            requests.append(request)
            if request == .idle { break }
            if case .at(let wake) = request { time = wake - 1000 / 60 }
        }
        #expect(scrollView.contentOffset == CGPoint(x: 0, y: 300))
        #expect(requests.last == .idle, "the scene sleeps once the indicators are gone")
        let timer = requests.firstIndex { if case .at = $0 { true } else { false } }
        #expect(timer != nil, "the indicators wait on a timer before they fade: \(requests)")
        #expect(timer.map { requests[..<$0].allSatisfy { $0 == .nextFrame } } == true,
                "frames run until the scroll ends, then the fade waits on a timer: \(requests)")
    }

    @Test("Scroll views' requests: any animation asks for the next frame, else the earliest timer")
    func requestOfScrollViews() {
        #expect(ViewScene.request(of: []) == .idle)
        let idle = ScrollView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(ViewScene.request(of: [idle]) == .idle)
        let moving = ScrollView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        moving.contentSize = CGSize(width: 10, height: 100)
        moving.setContentOffset(CGPoint(x: 0, y: 50), animated: true)
        #expect(ViewScene.request(of: [idle, moving]) == .nextFrame)
    }

    @Test("Motion is predictable while no finger is on a scroll view: a fling's glide and a wheel step are, the drag is not")
    func predictableMotion() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let outer = ScrollView(frame: root.bounds)
        outer.contentSize = CGSize(width: 100, height: 2000)
        let inner = ScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        inner.contentSize = CGSize(width: 400, height: 50)
        outer.addSubview(inner)
        root.addSubview(outer)
        let scene = ViewScene(root: root, cacheBudget: 1 << 20)
        scene.resize(width: 100, height: 100, scale: 1)
        #expect(scene.isMotionPredictable, "at rest nothing depends on input")
        // A vertical flick below the nested view.
        scene.handle(InputEvent(time: 0, kind: .touchDown(id: 1, location: CGPoint(x: 50, y: 90))))
        #expect(!scene.isMotionPredictable, "a finger is down")
        var y = 90.0
        for step in 1...6 {
            y -= 12
            scene.handle(InputEvent(time: Double(step) * 8, kind: .touchMotion(id: 1, location: CGPoint(x: 50, y: y))))
            #expect(!scene.isMotionPredictable, "the content follows the finger")
        }
        scene.handle(InputEvent(time: 56, kind: .touchUp(id: 1)))
        #expect(outer.isDecelerating && scene.isMotionPredictable, "the glide is a function of time")
        #expect(scene.advance(to: 72) == .nextFrame)
        // A finger catches it on the nested view: the outer one tracks it too.
        scene.handle(InputEvent(time: 80, kind: .touchDown(id: 2, location: CGPoint(x: 50, y: 20))))
        #expect(!scene.isMotionPredictable)
        scene.handle(InputEvent(time: 90, kind: .touchUp(id: 2)))
        // A wheel notch starts a timed step.
        scene.handle(InputEvent(time: 200, kind: .pointerAxis(source: .wheel, dx: 0, dy: 15, value120X: nil, value120Y: 120),
                                pointerLocation: CGPoint(x: 50, y: 90)))
        #expect(ViewScene.scrollViews(in: root).contains(where: \.isAnimating) && scene.isMotionPredictable)
    }
}
