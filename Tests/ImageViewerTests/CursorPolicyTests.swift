// The viewer's cursor over the test card, as the user sees it: a closed hand while dragging, an
// open hand over content that scrolls or zooms, the arrow elsewhere or over content that cannot.
import Foundation
import Host
import Raster
import ScrollKit
import Testing
@testable import image_viewer

@Suite("Cursor policy")
struct CursorPolicyTests {
    @Test("Open hand over the card, closed while dragging, arrow when the pointer is elsewhere")
    func overTheCard() {
        let scene = makeTestCardScene()
        scene.resize(width: 400, height: 300, scale: 1)
        #expect(cursorShape(over: scene, dragging: false, location: CGPoint(x: 200, y: 150)) == .openHand)
        #expect(cursorShape(over: scene, dragging: true, location: CGPoint(x: 200, y: 150)) == .closedHand)
        #expect(cursorShape(over: scene, dragging: false, location: nil) == .arrow)
        #expect(cursorShape(over: scene, dragging: false, location: CGPoint(x: 450, y: 150)) == .arrow, "outside the scroll view")
    }

    @Test("Arrow over a scroll view whose content fits and cannot zoom, or that is disabled")
    func contentThatCannotMove() {
        let root = View()
        let scrollView = ScrollView()
        scrollView.frame = CGRect(x: 50, y: 50, width: 200, height: 200)
        scrollView.contentSize = CGSize(width: 200, height: 200)
        root.addSubview(scrollView)
        let scene = ViewScene(root: root)
        scene.resize(width: 400, height: 300, scale: 1)
        #expect(cursorShape(over: scene, dragging: false, location: CGPoint(x: 100, y: 100)) == .arrow)
        scrollView.contentSize = CGSize(width: 200, height: 900)
        #expect(cursorShape(over: scene, dragging: false, location: CGPoint(x: 100, y: 100)) == .openHand)
        #expect(cursorShape(over: scene, dragging: false, location: CGPoint(x: 40, y: 100)) == .arrow, "left of its frame")
        scrollView.isScrollEnabled = false
        #expect(cursorShape(over: scene, dragging: false, location: CGPoint(x: 100, y: 100)) == .arrow)
    }
}
