// When a window keeps its placeholder frame back for the scene's content, without a compositor:
// only at a size the compositor chose, for at most ContentWait.maxWait, once per window.
import Testing
@testable import Wayland

/// One thing a window does: draw a frame at a time (ms) while the scene does or does not await
/// its content, at a size the compositor chose or its own; or commit a frame.
private enum Step {
    case draw(Double, awaits: Bool, chosen: Bool)
    case commit(chosen: Bool)
}

/// Runs `steps` through one window's wait: whether each frame drawn was kept back, in order,
/// and the wait afterwards.
private func decisions(_ steps: [Step]) -> (kept: [Bool], wait: ContentWait) {
    var wait = ContentWait()
    var kept: [Bool] = []
    for step in steps {
        switch step {
        case .draw(let time, let awaits, let chosen): kept.append(wait.holds(at: time, awaitsContent: awaits, sizeChosenByCompositor: chosen))
        case .commit(let chosen): wait.committed(sizeChosenByCompositor: chosen)
        }
    }
    return (kept, wait)
}

@Suite("Keeping the placeholder back for the content")
struct ContentWaitTests {
    @Test("sway's order: the mapping frame of the window's own size is committed; the tile's frames are kept back until the one with the content")
    func tiledWindow() {
        let mapped = decisions([.draw(10, awaits: true, chosen: false), .commit(chosen: false)])
        // 0×0 first: the window picks 800×600 and must map, or sway never tiles it.
        #expect(mapped.kept == [false] && !mapped.wait.isHolding && mapped.wait.deadline == nil)
        let tiled = decisions([.draw(10, awaits: true, chosen: false), .commit(chosen: false),
                               // The tile's configure, then the loader's progress waking the window.
                               .draw(15, awaits: true, chosen: true), .draw(30, awaits: true, chosen: true)])
        #expect(tiled.kept == [false, true, true])
        #expect(tiled.wait.isHolding && tiled.wait.deadline == 15 + ContentWait.maxWait, "the wait runs from the first frame kept back")
        // The picture arrives: its frame is committed, and that is the end of waiting.
        let shown = decisions([.draw(10, awaits: true, chosen: false), .commit(chosen: false),
                               .draw(15, awaits: true, chosen: true), .draw(40, awaits: false, chosen: true), .commit(chosen: true),
                               // Another page loading later is not waited for.
                               .draw(50, awaits: true, chosen: true)])
        #expect(shown.kept == [false, true, false, false])
        #expect(!shown.wait.isHolding && shown.wait.deadline == nil)
    }

    @Test("Content slower than maxWait: the frame drawn at the deadline is committed, and none is kept back after it")
    func deadline() {
        let late = decisions([.draw(1000, awaits: true, chosen: true), .draw(1000 + ContentWait.maxWait - 0.5, awaits: true, chosen: true),
                              .draw(1000 + ContentWait.maxWait, awaits: true, chosen: true), .commit(chosen: true),
                              .draw(1200, awaits: true, chosen: true)])
        #expect(late.kept == [true, true, false, false])
        #expect(!late.wait.isHolding)
    }

    @Test("A kiosk (its first configure names the output's size) keeps even its first frame back; a scene with its content at hand never waits")
    func kioskAndReadyScene() {
        #expect(decisions([.draw(0, awaits: true, chosen: true)]).kept == [true])
        let ready = decisions([.draw(0, awaits: false, chosen: true), .commit(chosen: true), .draw(5, awaits: true, chosen: true)])
        #expect(ready.kept == [false, false], "a load after the first frame at the compositor's size")
    }

    @Test("A size handed back to the window (floating again) during a wait: its frame is committed, and the wait is over")
    func sizeBackToWindow() {
        let floated = decisions([.draw(0, awaits: true, chosen: true), .draw(10, awaits: true, chosen: false), .commit(chosen: false),
                                 .draw(20, awaits: true, chosen: true)])
        #expect(floated.kept == [true, false, false])
        #expect(!floated.wait.isHolding)
    }
}
