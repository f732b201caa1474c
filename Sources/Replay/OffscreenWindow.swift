// The offscreen render target: a window's scene drawn into a memory framebuffer on the
// simulated display's frame clock, so a whole program runs without a compositor.
import Foundation
import Host
import Raster
import SafeOutput
import ScrollKit

/// A `Scene` hosted the way `Wayland.Window` hosts it, but into memory: input is delivered
/// as timed events, frames tick on the `SimulatedDisplay` grid and are drawn only when the
/// scene changed, with the same buffer-age contract (one buffer, reused every frame).
public final class OffscreenWindow: DisplayClient {
    /// The scene shown.
    public let scene: Scene
    /// The window's pixels after the last frame.
    public let buffer: OwnedFramebuffer
    /// Frames drawn (ticks where the scene had changed).
    public private(set) var framesRendered = 0
    /// The damage the last drawn frame reported, in buffer pixels.
    public private(set) var lastDamage: [PixelRect] = []
    /// Called after each drawn frame with its time in ms.
    public var onFrame: ((Framebuffer, Double) -> Void)?
    /// When set, the window counts as hidden (`Scene.isWindowVisible` false) from the first
    /// timer or tick after this time, in ms: a run that ends with its input then stops what
    /// only plays for a viewer (an endless animation) and comes to rest, showing what was on
    /// screen at that time.
    public var hidesAfter: Double?

    /// The frame loop's state, as the live window keeps it (a first frame is due at once).
    private var scheduler: FrameScheduler = {
        var scheduler = FrameScheduler()
        scheduler.invalidate()
        return scheduler
    }()

    /// A `width`×`height` window (points, scale 1) showing `scene`; nil when the size is not
    /// positive or too large to allocate (`OwnedFramebuffer.maxPixels`).
    public init?(scene: Scene, width: Int, height: Int) {
        guard width > 0, height > 0, let buffer = OwnedFramebuffer(width: width, height: height) else { return nil }
        self.scene = scene
        self.buffer = buffer
        scene.onNeedsFrame = { [unowned self] in self.scheduler.invalidate() }
        scene.resize(width: width, height: height, scale: 1)
    }

    /// Delivers one input frame (see `InputFrameBuilder`) at `time` ms.
    public func perform(_ frame: [InputEvent], at time: Double) {
        scene.handle(frame: frame)
    }

    /// A frame is due after a change or while the scene animates.
    public var wantsFrame: Bool { scheduler.wantsFrame }

    /// The time the scene asked to be woken at, if any.
    public var nextWakeTime: Double? { scheduler.wakeTime }

    /// The scene's timer is due: tick it on the next frame.
    public func wake(at time: Double) {
        hideIfDue(at: time)
        scheduler.timerFired()
    }

    /// Advances the scene to the frame time and draws it if anything changed.
    public func tick(frameTime time: Double) {
        hideIfDue(at: time)
        scheduler.frameStarts()
        scheduler.sceneRequests(scene.advance(to: time))
        guard scene.needsRender || framesRendered == 0 else { return }
        // The single buffer holds the previous frame: age 1, or 0 (unknown) the first time.
        lastDamage = scene.render(into: buffer.framebuffer, bufferAge: framesRendered == 0 ? 0 : 1)
        framesRendered += 1
        onFrame?(buffer.framebuffer, time)
    }

    private func hideIfDue(at time: Double) {
        if let hidesAfter, time > hidesAfter, scene.isWindowVisible { scene.isWindowVisible = false }
    }

    /// The current pixels as a binary PPM (P6), alpha dropped.
    public func ppm() -> [UInt8] {
        let fb = buffer.framebuffer
        var bytes = Array("P6\n\(fb.width) \(fb.height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + fb.width * fb.height * 3)
        for y in 0..<fb.height {
            for x in 0..<fb.width {
                let p = fb[x, y]
                bytes.append(UInt8(truncatingIfNeeded: p >> 16))
                bytes.append(UInt8(truncatingIfNeeded: p >> 8))
                bytes.append(UInt8(truncatingIfNeeded: p))
            }
        }
        return bytes
    }

    /// Writes the current pixels as a binary PPM (`ppm()`) into `file` (see `OutputFile`: it
    /// never overwrites or follows a link unless made to replace); throws the system's error.
    public func writePPM(to file: OutputFile) throws(OutputError) {
        try file.write(ppm())
    }
}
