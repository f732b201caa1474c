// What a window shows, independent of where it is shown: a Wayland surface or the offscreen
// display. Hosts deliver input and frame times; the scene animates and draws.
import Foundation
import Raster
import ScrollKit

/// When a scene wants to be ticked again.
public enum FrameRequest: Equatable, Sendable {
    /// Nothing moves: request no frame callback (an idle window costs nothing).
    case idle
    /// Something animates: tick on the next frame.
    case nextFrame
    /// Nothing animates now, but something will happen at this time (ms, the clock passed
    /// to `advance(to:)`), e.g. an indicator that starts fading after a pause.
    case at(Double)

    /// The more urgent of this request and wake-up `times` (ms): a next frame before any
    /// timer, otherwise the earliest time, idle when there is none.
    public func merged(with times: [Double?]) -> FrameRequest {
        if self == .nextFrame { return self }
        var earliest: Double?
        if case .at(let time) = self { earliest = time }
        for case let time? in times { earliest = min(earliest ?? time, time) }
        return earliest.map { .at($0) } ?? .idle
    }
}

/// The content of one window, driven by a host.
public protocol Scene: AnyObject {
    /// The window's size in surface points and its scale in device pixels per point: 1, 2… or
    /// fractional (1.5). Buffers passed to `render` then have about size × scale pixels (the
    /// host rounds), and the scene draws at that density so content stays sharp.
    func resize(width: Int, height: Int, scale: Double)
    /// The events of one input frame (what the seat delivers at once), in surface points,
    /// stamped with the seat's state.
    func handle(frame events: [InputEvent])
    /// Advances animations to `time` (ms, monotonic) and says when to tick next.
    func advance(to time: Double) -> FrameRequest
    /// Whether anything visible changed since the last `render`.
    var needsRender: Bool { get }
    /// Draws into `buffer`, whose pixels are what this scene rendered `bufferAge` frames ago
    /// (0: unknown contents, repaint everything). Returns the changed rects in buffer pixels.
    func render(into buffer: Framebuffer, bufferAge: Int) -> [PixelRect]
    /// Set by the host: call when something changed outside `advance` (input, code) so the
    /// host schedules a frame.
    var onNeedsFrame: (() -> Void)? { get set }
    /// Set by a host whose loop other threads can wake: background work (a decoder) calls it
    /// from any thread when it has a result, and the host ticks the scene soon after. Nil when
    /// the host cannot be woken, in which case the scene must ask to be ticked to see results.
    var onNeedsFrameFromAnyThread: (@Sendable () -> Void)? { get set }
    /// Set by the host: false while nobody can see the window (minimised, on a hidden
    /// workspace: xdg_toplevel's `suspended` state from xdg-shell 6), true again when it shows.
    /// A hidden scene keeps its state but starts no work only a viewer would see (an
    /// animation's next frame). Hosts that cannot tell leave it true.
    var isWindowVisible: Bool { get set }
    /// Whether the frame after the last `advance` depends on time alone: what moves runs on its
    /// own (momentum, a bounce, paging, a scroll or zoom animation, a fade) and nothing follows a
    /// finger, the pointer or the touchpad. A live host may then advance the scene to its next
    /// frame's time and draw that frame before the compositor asks for it (`FrameScheduler`).
    var isMotionPredictable: Bool { get }
    /// Whether what the scene is opened for is on its way and a frame drawn now shows only a
    /// placeholder (the gallery's black page while its first picture decodes). A live host may
    /// keep such a frame back for a short while and commit the one with the content instead,
    /// drawn into the same buffer (see the Wayland window's `ContentWait`); the scene wakes the
    /// host when the content arrives (`onNeedsFrameFromAnyThread`).
    var awaitsContent: Bool { get }
    /// Whether the frame drawn now shows content of at most half its pixels that is about to
    /// be replaced (the gallery: an SVG's quick rendition, enlarged at least twice), so that
    /// drawing it at half resolution loses little. A host that can scale a buffer
    /// (wp_viewporter) then draws it with `renderHalfResolution` into a buffer of a quarter of
    /// the pixels and has the compositor enlarge it.
    var prefersHalfResolution: Bool { get }
    /// Draws everything at half the device pixels per point into `buffer`, whose size is the
    /// full frame's halved and rounded up; every pixel of it is painted. Returns the changed
    /// rects in its pixels. The next `render` repaints everything at the full scale.
    func renderHalfResolution(into buffer: Framebuffer) -> [PixelRect]
    /// The frame `render` would draw now into a `width`×`height` buffer, as a still one when it
    /// is one: a plain background and at most one picture whose pixels another process can map
    /// (see `StillFrame`). A host that can have the compositor put it together (a Wayland
    /// window with subsurfaces and viewports) then shows it so, and needs no buffer of the
    /// window's size for it. Nil: draw with `render`.
    func stillFrame(width: Int, height: Int) -> StillFrame?
    /// The host showed `stillFrame` instead of drawing: the scene counts that frame as drawn.
    /// The next `render` after it is into a buffer of age 0.
    func didShowStillFrame()
}

extension Scene {
    /// One input event: a frame of its own.
    public func handle(_ event: InputEvent) { handle(frame: [event]) }

    /// Scenes without background work ignore the wake: they change only on the host's thread.
    public var onNeedsFrameFromAnyThread: (@Sendable () -> Void)? {
        get { nil }
        set {}
    }

    /// Scenes that do not say are drawn when the compositor asks, never ahead.
    public var isMotionPredictable: Bool { false }

    /// Scenes that do not say have nothing on its way: every frame they draw is committed.
    public var awaitsContent: Bool { false }

    /// Scenes that do not say are always drawn at their full scale.
    public var prefersHalfResolution: Bool { false }

    /// Scenes that cannot draw at half scale draw the full frame (a host asks only scenes that
    /// prefer half resolution).
    public func renderHalfResolution(into buffer: Framebuffer) -> [PixelRect] { render(into: buffer, bufferAge: 0) }

    /// Scenes that do not say are always drawn.
    public func stillFrame(width: Int, height: Int) -> StillFrame? { nil }

    /// Scenes that are always drawn are never shown still.
    public func didShowStillFrame() {}

    /// Scenes without work that only matters while seen are the same hidden or not.
    public var isWindowVisible: Bool {
        get { true }
        set {}
    }
}
