// A Scene made of a view tree: input goes to a scroll view, frames advance every scroll
// view's animations, and the tiled renderer draws only what changed.
import Foundation
import Raster
import ScrollKit

/// Hosts a root `View` for a window: the bridge between a host (Wayland window or offscreen
/// display) and ScrollKit views drawn by `Renderer`.
public final class ViewScene: Scene {
    /// The window's root view; it is resized to the window.
    public let root: View
    /// The renderer drawing `root`.
    public let renderer: Renderer
    /// Shares the window's input among its scroll views, nested ones included.
    public let router: InputRouter
    /// Receives input frames instead of `router` when set.
    public var inputHandler: (([InputEvent]) -> Void)?
    /// Called after a resize so the application lays its views out, with the size in points.
    public var onLayout: ((CGSize) -> Void)?
    /// Set by the host.
    public var onNeedsFrame: (() -> Void)?
    public private(set) var needsRender = true

    /// Sharp tiles a frame makes when scaled stand-ins can show the rest (`Renderer.maxTilesPerFrame`)
    /// in a 1920×1080 window: 8. Measured on the 4000×3000 city picture at 1920×1080 (bench-fling's
    /// zoom): the frame where a Ctrl+wheel zoom settled made up to 184 tiles (126 ms live on two
    /// loaded cores; 240–420 M instructions under callgrind, against ~70 M for a zoom frame).
    /// With 8 the settling spreads over about 20 frames of 11–16 M instructions each.
    public static let tilesPerFrame = 8

    /// The tile budget of a window of `pixels` device pixels: `tilesPerFrame` scaled down with
    /// the pixels a zoom frame repaints, at least 2. At 3840×2160 a zoom frame alone took
    /// 14–17 ms of the 16.7 (bench-fling's zoom, load 2–3), and its frames that made 8 tiles
    /// were the late ones (17–20 ms); 2 leave their share of the frame.
    public static func tilesPerFrame(pixels: Double) -> Int {
        let share = 1920 * 1080 / max(pixels, 1920 * 1080)
        return max(2, Int(Double(tilesPerFrame) * share))
    }

    /// A scene showing `root`, drawn with a cache of `cacheBudget` bytes.
    public init(root: View, cacheBudget: Int = Renderer.defaultBudget) {
        self.root = root
        router = InputRouter(root: root)
        renderer = Renderer(cacheBudget: cacheBudget)
        renderer.maxTilesPerFrame = Self.tilesPerFrame
        // Between frames a host waits for the compositor: tiles ahead are drawn meanwhile.
        renderer.prefetchesInBackground = true
        root.onNeedsFrame = { [unowned self] in
            self.needsRender = true
            self.onNeedsFrame?()
        }
    }

    public func resize(width: Int, height: Int, scale: Double) {
        // Hosts check scales; a scene handed a scale it cannot draw at still draws at 1.
        renderer.outputScale = scale.isFinite && scale > 0 ? scale : 1
        let side = renderer.outputScale
        renderer.maxTilesPerFrame = Self.tilesPerFrame(pixels: Double(max(width, 0)) * side * Double(max(height, 0)) * side)
        let size = CGSize(width: width, height: height)
        root.frame = CGRect(origin: .zero, size: size)
        onLayout?(size)
        needsRender = true
    }

    public func handle(frame events: [InputEvent]) {
        if let inputHandler {
            inputHandler(events)
        } else {
            router.handle(frame: events)
        }
    }

    public func advance(to time: Double) -> FrameRequest {
        let scrollViews = Self.scrollViews(in: root)
        for scrollView in scrollViews { scrollView.advance(to: time) }
        // After a zoom settles the renderer replaces scaled tiles with sharp ones on one more frame.
        if renderer.needsFollowUpFrame {
            needsRender = true
            return .nextFrame
        }
        return Self.request(of: scrollViews)
    }

    /// Set by an application whose own views follow a finger or the pointer outside any scroll
    /// view (the list demo's section index): true while one does.
    public var isFollowingInput: (() -> Bool)?

    /// Predictable while nothing follows a finger: no scroll view has one (or the pointer
    /// button, or the touchpad) on it and `isFollowingInput` says none of the application's
    /// views does. Motions and the renderer's follow-up frames are then functions of time.
    public var isMotionPredictable: Bool {
        !(isFollowingInput?() ?? false) && !Self.scrollViews(in: root).contains(where: \.isTracking)
    }

    /// What `scrollViews` wait for: the next frame while one animates, else the earliest of
    /// their timers (a content-touch delay, an indicator fade).
    public static func request(of scrollViews: [ScrollView]) -> FrameRequest {
        if scrollViews.contains(where: \.isAnimating) { return .nextFrame }
        return FrameRequest.idle.merged(with: scrollViews.map(\.nextWakeTime))
    }

    public func render(into buffer: Framebuffer, bufferAge: Int) -> [PixelRect] {
        needsRender = false
        return renderer.render(root, into: buffer, bufferAge: bufferAge)
    }

    /// The frame as a still one when it is one (`Renderer.stillFrame`).
    public func stillFrame(width: Int, height: Int) -> StillFrame? {
        renderer.stillFrame(of: root, width: width, height: height)
    }

    /// The host showed the frame without drawing it (`Scene.didShowStillFrame`): it counts as
    /// drawn. (The host's next `render` is into a buffer of age 0, which repaints it whole.)
    public func didShowStillFrame() {
        needsRender = false
    }

    /// The tree drawn at half the output scale (see `Scene.renderHalfResolution`): the
    /// renderer's scale goes back afterwards, which repaints the next frame whole.
    public func renderHalfResolution(into buffer: Framebuffer) -> [PixelRect] {
        let full = renderer.outputScale
        renderer.outputScale = full / 2
        defer { renderer.outputScale = full }
        return render(into: buffer, bufferAge: 0)
    }

    /// Every scroll view in the tree, parents before children.
    public static func scrollViews(in view: View) -> [ScrollView] {
        var found: [ScrollView] = []
        var stack = [view]
        while let v = stack.popLast() {
            if let s = v as? ScrollView { found.append(s) }
            stack.append(contentsOf: v.subviews.reversed())
        }
        return found
    }
}
