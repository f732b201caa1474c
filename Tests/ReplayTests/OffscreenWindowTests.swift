// OffscreenWindow hosts a scene like the live window: frames only when something changed or
// animates, buffer age 0 then 1, and the scene's timers honoured on the simulated clock.
import Foundation
import Host
import Raster
import Replay
import ScrollKit
import Testing

/// A scene that records what its host asks of it: it changes on every input and animates
/// for `animateUntil` ms after it, then asks to be woken at `wakeAt`.
private final class ProbeScene: Scene {
    var onNeedsFrame: (() -> Void)?
    var needsRender = true
    var ages: [Int] = []
    var advances: [Double] = []
    var animateUntil: Double = -1
    var wakeAt: Double?
    var color: UInt32 = 0xFF00_0000

    func resize(width: Int, height: Int, scale: Double) {}
    func handle(frame events: [InputEvent]) {
        guard let event = events.last else { return }
        color &+= 1
        animateUntil = event.time + 50
        needsRender = true
        onNeedsFrame?()
    }
    func advance(to time: Double) -> FrameRequest {
        advances.append(time)
        if time < animateUntil {
            needsRender = true
            return .nextFrame
        }
        if let w = wakeAt, w > time { return .at(w) }
        return .idle
    }
    func render(into buffer: Framebuffer, bufferAge: Int) -> [PixelRect] {
        ages.append(bufferAge)
        needsRender = false
        buffer.fill(buffer.bounds, with: color)
        return [buffer.bounds]
    }
}

@Suite("Offscreen window")
struct OffscreenWindowTests {
    @Test("Draws once at start, then only while input animates; ages are 0 then 1")
    func framesOnlyWhenNeeded() throws {
        let scene = ProbeScene()
        let window = try #require(OffscreenWindow(scene: scene, width: 4, height: 3))
        let display = SimulatedDisplay(frameRate: 100)  // a frame every 10 ms
        let outcome = display.run([TimedAction(time: 200, action: [InputEvent(time: 200, kind: .pointerMotion(location: .zero))])], on: window)
        #expect(outcome == .settled(time: 250))
        // Frame at 0 (first draw), then 200 (the input's frame) through 240 animating, 250 ends it.
        #expect(scene.advances == [0, 200, 210, 220, 230, 240, 250])
        #expect(scene.ages == [0, 1, 1, 1, 1, 1])
        #expect(window.buffer.framebuffer[3, 2] == 0xFF00_0001)
        #expect(window.lastDamage == [PixelRect(x: 0, y: 0, width: 4, height: 3)])
    }

    @Test("A scene's wake-up time is honoured without frames in between")
    func wakeTimer() throws {
        let scene = ProbeScene()
        scene.wakeAt = 500
        let window = try #require(OffscreenWindow(scene: scene, width: 2, height: 2))
        let display = SimulatedDisplay(frameRate: 60)
        _ = display.run([], on: window)
        #expect(scene.advances.count == 2, "ticks: \(scene.advances)")
        #expect(scene.advances.first == 0)
        #expect((scene.advances.last ?? 0) >= 500 && (scene.advances.last ?? 0) < 500 + 1000 / 60.0)
    }

    @Test("Sizes that cannot be allocated are refused, not crashed on")
    func absurdSize() {
        #expect(OffscreenWindow(scene: ProbeScene(), width: 0, height: 10) == nil)
        #expect(OffscreenWindow(scene: ProbeScene(), width: 1 << 20, height: 1 << 20) == nil)
    }
}
