// Input normalised once: keys as a type named from keysym names, the seat's state stamped on
// every event, and the events of one frame handled together.
import Foundation
import Testing
@testable import ScrollKit

@Suite("Input normalisation")
struct InputNormalisationTests {
    @Test("Keysym names map onto keys, keypad keys onto the keys they stand for, and back")
    func keysFromNames() {
        let table: [(String, Key)] = [
            ("Page_Down", .pageDown), ("Next", .pageDown), ("KP_Next", .pageDown), ("Prior", .pageUp),
            ("KP_Up", .up), ("Home", .home), ("KP_End", .end), ("space", .space), ("Escape", .escape),
            ("Control_L", .control), ("Control_R", .control), ("Shift_R", .shift), ("Super_L", .logo),
            ("F11", .function(11)), ("plus", .character("+")), ("KP_Add", .character("+")), ("equal", .character("=")),
            ("KP_0", .character("0")), ("q", .character("q")), ("Q", .character("Q")), ("bracketleft", .character("[")),
            ("U00E4", .character("ä")), ("XF86AudioPlay", .other("XF86AudioPlay")), ("F36", .other("F36")),
        ]
        for (name, key) in table { #expect(Key(keysymName: name) == key, "\(name)") }
        // The text xkbcommon gives decides for keysyms the table does not know.
        #expect(Key(keysymName: "udiaeresis", text: "ü") == .character("ü"))
        #expect(Key(keysymName: "Return", text: "\r") == .enter)
        // Names written for a key read back as that key.
        for key: Key in [.pageDown, .up, .space, .control, .function(3), .character("+"), .character("q"),
                         .character("ü"), .other("XF86AudioPlay")] {
            #expect(Key(keysymName: key.keysymName) == key, "\(key) as \(key.keysymName)")
        }
    }

    @Test("The seat stamps modifiers and pointer position on every event, as the events change them")
    func seatStamping() {
        var seat = SeatState()
        let motion = seat.stamp(InputEvent(time: 0, kind: .pointerMotion(location: CGPoint(x: 10, y: 20))))
        #expect(motion.pointerLocation == CGPoint(x: 10, y: 20) && motion.modifiers == [])
        // A Control press states the modifiers before it; everything after it has Ctrl.
        let ctrl = seat.stamp(InputEvent(time: 1, kind: .key(.control, pressed: true)))
        #expect(ctrl.modifiers == [] && ctrl.pointerLocation == CGPoint(x: 10, y: 20))
        let wheel = seat.stamp(InputEvent(time: 2, kind: .pointerAxis(source: .wheel, dx: 0, dy: 15, value120X: nil,
                                                                      value120Y: 120)))
        #expect(wheel.modifiers == .ctrl && wheel.pointerLocation == CGPoint(x: 10, y: 20))
        // A key's stated modifiers become the state; the keyboard's own report wins over both.
        _ = seat.stamp(InputEvent(time: 3, kind: .key(.character("a"), pressed: true), modifiers: [.shift]))
        #expect(seat.modifiers == .shift)
        seat.setModifiers([.alt])
        #expect(seat.stamp(InputEvent(time: 4, kind: .touchUp(id: 0))).modifiers == .alt)
        let leave = seat.stamp(InputEvent(time: 5, kind: .pointerLeave))
        #expect(leave.pointerLocation == nil && seat.pointerLocation == nil)
    }

    @Test("Wheel notches come from value120 when sent, else from the axis value at 15 units a notch")
    func wheelNotches() {
        let high = InputEvent(time: 0, kind: .pointerAxis(source: .wheel, dx: 7.5, dy: 15, value120X: nil, value120Y: 60))
        #expect(high.wheelNotches == CGPoint(x: 0.5, y: 0.5))
        #expect(InputEvent(time: 0, kind: .touchCancel).wheelNotches == nil)
    }

    @Test("Two fingers moving in one frame make one pinch step; the same moves in two frames make two")
    func oneStepPerFrame() throws {
        func pinch(framed: Bool) -> (zooms: Int, scale: CGFloat) {
            let zoomView = View(frame: CGRect(x: 0, y: 0, width: 400, height: 600))
            let h = Harness(content: CGSize(width: 400, height: 600)) { scroll in
                scroll.addSubview(zoomView)
                scroll.maximumZoomScale = 4
            }
            h.recorder.zoomView = zoomView
            h.scrollView.handle(frame: [InputEvent(time: 0, kind: .touchDown(id: 0, location: CGPoint(x: 150, y: 300))),
                                        InputEvent(time: 0, kind: .touchDown(id: 1, location: CGPoint(x: 250, y: 300)))])
            for i in 1...5 {
                let t = Double(i) * 8, d = CGFloat(i) * 10
                let a = InputEvent(time: t, kind: .touchMotion(id: 0, location: CGPoint(x: 150 - d, y: 300)))
                let b = InputEvent(time: t, kind: .touchMotion(id: 1, location: CGPoint(x: 250 + d, y: 300)))
                if framed { h.scrollView.handle(frame: [a, b]) } else { h.scrollView.handle(a); h.scrollView.handle(b) }
            }
            return (h.recorder.count("didZoom"), h.scrollView.zoomScale)
        }
        let framed = pinch(framed: true), split = pinch(framed: false)
        #expect(framed.zooms == 5, "one DidZoom per frame, \(framed.zooms)")
        #expect(split.zooms > framed.zooms)
        // Where the fingers end is what counts: the same scale either way (200 pt apart over 100).
        #expect(abs(framed.scale - 2) < 1e-9 && abs(split.scale - 2) < 1e-9)
    }
}
