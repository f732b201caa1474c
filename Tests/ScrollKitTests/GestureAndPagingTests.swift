// Touch slop, directional lock and the paging choice.
import Foundation
import Testing
@testable import ScrollKit

@Suite("Pan recognizer")
struct PanGestureRecognizerTests {
    @Test("movement within the slop is not a pan; past it the content follows from the slop circle")
    func slop() {
        var pan = PanGestureRecognizer()
        pan.touchBegan(at: CGPoint(x: 100, y: 300), time: 0)
        #expect(pan.touchMoved(to: CGPoint(x: 100, y: 294), time: 8) == .none)
        #expect(pan.touchMoved(to: CGPoint(x: 100, y: 291), time: 16) == .none)
        #expect(pan.touchMoved(to: CGPoint(x: 100, y: 285), time: 24) == .began(delta: CGPoint(x: 0, y: -5)))
        #expect(pan.touchMoved(to: CGPoint(x: 100, y: 275), time: 32) == .changed(delta: CGPoint(x: 0, y: -10)))
        #expect(pan.translation == CGPoint(x: 0, y: -15))
        #expect(pan.state == .changed)
    }

    @Test("a tap fails and has no velocity; a cancelled pan has none either")
    func tapAndCancel() {
        var tap = PanGestureRecognizer()
        tap.touchBegan(at: .zero, time: 0)
        _ = tap.touchMoved(to: CGPoint(x: 3, y: 4), time: 10)
        #expect(tap.touchEnded(at: 20) == .zero)
        #expect(tap.state == .failed)

        var pan = PanGestureRecognizer()
        pan.touchBegan(at: .zero, time: 0)
        _ = pan.touchMoved(to: CGPoint(x: 0, y: 40), time: 10)
        pan.cancel()
        #expect(pan.state == .cancelled)
    }

    // (movement, expected lock)
    static let lockCases: [(CGPoint, ScrollAxis?)] = [
        (CGPoint(x: 0, y: -30), .vertical),
        (CGPoint(x: 6, y: -30), .vertical),
        (CGPoint(x: 40, y: 8), .horizontal),
        (CGPoint(x: 30, y: 30), nil),
        (CGPoint(x: -25, y: 20), nil),
    ]

    @Test("directional lock: clearly horizontal or vertical starts lock, diagonal ones stay free", arguments: lockCases)
    func directionalLock(move: CGPoint, expected: ScrollAxis?) {
        var pan = PanGestureRecognizer(isDirectionalLockEnabled: true)
        pan.touchBegan(at: CGPoint(x: 200, y: 200), time: 0)
        _ = pan.touchMoved(to: CGPoint(x: 200 + move.x, y: 200 + move.y), time: 16)
        #expect(pan.lockedAxis == expected)
        // Later movement on the other axis is filtered out when locked.
        let update = pan.touchMoved(to: CGPoint(x: 200 + move.x + 50, y: 200 + move.y + 50), time: 32)
        switch expected {
        case .vertical?: #expect(update == .changed(delta: CGPoint(x: 0, y: 50)))
        case .horizontal?: #expect(update == .changed(delta: CGPoint(x: 50, y: 0)))
        case nil: #expect(update == .changed(delta: CGPoint(x: 50, y: 50)))
        }
    }

    @Test("without directional lock nothing is ever locked")
    func noLock() {
        var pan = PanGestureRecognizer()
        pan.touchBegan(at: .zero, time: 0)
        _ = pan.touchMoved(to: CGPoint(x: 0, y: 40), time: 16)
        #expect(pan.lockedAxis == nil)
    }
}

@Suite("Paging target")
struct PagingTests {
    // (offset, velocity pt/ms, expected) with 400 pt pages over 0...1600
    static let cases: [(Double, Double, Double)] = [
        (0, 0, 0),
        (150, 0, 0),        // less than half: back
        (250, 0, 400),      // more than half: forward
        (60, 0.5, 400),     // a flick turns the page though it moved little
        (340, -0.5, 0),     // a flick back
        (420, 0.2, 400),    // too slow to flick: nearest
        (450, 2.0, 800),    // one page per fling, however fast
        (790, 3.0, 800),
        (1590, 1.0, 1600),  // clamped to the last page
        (-30, -1.0, 0),     // pulled past the start
    ]

    @Test("nearest page, or the next one in a flick's direction", arguments: cases)
    func target(offset: Double, velocity: Double, expected: Double) {
        #expect(Paging.target(offset: offset, velocity: velocity, pageSize: 400, range: 0...1600) == expected)
    }

    @Test("a partial last page rests at the end of the content")
    func partialLastPage() {
        // Content 1000 wide in a 400 pt view: offsets 0...600, pages at 0, 400, then the end.
        #expect(Paging.target(offset: 450, velocity: 1, pageSize: 400, range: 0...600) == 600)
        #expect(Paging.target(offset: 100, velocity: 0, pageSize: 0, range: 0...600) == 100)
    }
}
