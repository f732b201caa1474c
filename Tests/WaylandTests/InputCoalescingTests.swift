// Frames read together reach the scene merged only where nothing is lost: wheel sums, the last
// pointer position; everything else in order, untouched.
import Foundation
import ScrollKit
import Testing
@testable import Wayland

@Suite("Input coalescing")
struct InputCoalescingTests {
    private func wheel(_ t: Double, notches: Int, at location: CGPoint? = CGPoint(x: 10, y: 10),
                       modifiers: InputEvent.Modifiers = []) -> [InputEvent] {
        [InputEvent(time: t, kind: .pointerAxis(source: .wheel, dx: 0, dy: CGFloat(notches) * 15, value120X: nil,
                                                value120Y: notches * 120),
                    modifiers: modifiers, pointerLocation: location)]
    }

    @Test("10,000 wheel frames become one event with every notch, at the last time")
    func wheelBurst() {
        let frames = (0..<10_000).map { wheel(Double($0), notches: 1) }
        let out = InputCoalescing.coalesced(frames)
        #expect(out == [wheel(9_999, notches: 10_000)])
        #expect(out.first?.first?.wheelNotches == CGPoint(x: 0, y: 10_000))
    }

    @Test("Motion keeps the last position; a button between motions keeps its place")
    func motion() {
        let move = { (t: Double, x: CGFloat) in [InputEvent(time: t, kind: .pointerMotion(location: CGPoint(x: x, y: 0)))] }
        let press = [InputEvent(time: 3, kind: .pointerButton(button: .left, pressed: true))]
        let out = InputCoalescing.coalesced([move(1, 1), move(2, 2), press, move(4, 4), move(5, 5), move(6, 6)])
        #expect(out == [move(2, 2), press, move(6, 6)])
    }

    @Test("What must stay apart stays apart", arguments: [
        ("a modifier changed (Ctrl+wheel zooms)", [InputEvent.Modifiers.ctrl, []]),
    ])
    func modifiers(_ what: String, _ sets: [InputEvent.Modifiers]) {
        let frames = sets.enumerated().map { wheel(Double($0.offset), notches: 1, modifiers: $0.element) }
        #expect(InputCoalescing.coalesced(frames) == frames, "\(what)")
    }

    @Test("Different sources, pointer positions, amount kinds and multi-event frames are kept")
    func keptApart() {
        let finger = { (t: Double) in
            [InputEvent(time: t, kind: .pointerAxis(source: .finger, dx: 0, dy: 3, value120X: nil, value120Y: nil))]
        }
        #expect(InputCoalescing.coalesced([finger(1), finger(2)]) == [finger(1), finger(2)], "touchpad samples feed the glide")
        let moved = [wheel(1, notches: 1), wheel(2, notches: 1, at: CGPoint(x: 300, y: 10))]
        #expect(InputCoalescing.coalesced(moved) == moved, "the pointer moved onto another view")
        let plain = [InputEvent(time: 3, kind: .pointerAxis(source: .wheel, dx: 0, dy: 15, value120X: nil, value120Y: nil),
                                pointerLocation: CGPoint(x: 10, y: 10))]
        #expect(InputCoalescing.coalesced([wheel(1, notches: 1), plain]) == [wheel(1, notches: 1), plain])
        let pair = wheel(1, notches: 1) + [InputEvent(time: 1, kind: .axisStop(axis: .vertical))]
        #expect(InputCoalescing.coalesced([pair, wheel(2, notches: 1)]) == [pair, wheel(2, notches: 1)])
        let key = [InputEvent(time: 2, kind: .key(.pageDown, pressed: true))]
        #expect(InputCoalescing.coalesced([wheel(1, notches: 1), key, wheel(3, notches: 2)])
                == [wheel(1, notches: 1), key, wheel(3, notches: 2)])
    }
}
