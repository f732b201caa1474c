// The viewer's scene until images are decoded: the test card, moved by a pointer drag.
import Foundation
import Raster
import ScrollKit

/// Shows `TestCard` at a content offset that a left-button drag moves.
final class TestCardScene: Scene {
    var onNeedsFrame: (() -> Void)?
    private(set) var needsRender = true
    private var width = 0, height = 0
    /// Content offset in points (the part of the card at the window's top-left).
    private(set) var offset = CGPoint.zero
    private var dragAnchor: CGPoint?
    private var pointer = CGPoint.zero
    /// Size of the card that can be scrolled, in points.
    let contentSize = CGSize(width: 10_000, height: 10_000)

    func resize(width: Int, height: Int, scale: Int) {
        self.width = width
        self.height = height
        offset = clamped(offset)
        invalidate()
    }

    func handle(_ event: InputEvent) {
        switch event.kind {
        case .pointerEnter(let p), .pointerMotion(let p):
            pointer = p
            if let anchor = dragAnchor {
                // The content follows the pointer: moving right reveals what is left.
                move(to: CGPoint(x: anchor.x - p.x, y: anchor.y - p.y))
            }
        case .pointerButton(.left, let pressed):
            dragAnchor = pressed ? CGPoint(x: offset.x + pointer.x, y: offset.y + pointer.y) : nil
        case .pointerLeave:
            break  // a drag survives leaving the window until the button is released
        default:
            break
        }
    }

    func advance(to time: Double) -> FrameRequest { .idle }

    func render(into buffer: Framebuffer, bufferAge: Int) -> [PixelRect] {
        needsRender = false
        let all = PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)
        TestCard.draw(into: buffer, rect: all, offsetX: Int(offset.x.rounded()), offsetY: Int(offset.y.rounded()))
        return [all]
    }

    private func move(to p: CGPoint) {
        let new = clamped(p)
        guard new != offset else { return }
        offset = new
        invalidate()
    }

    private func clamped(_ p: CGPoint) -> CGPoint {
        CGPoint(x: min(max(p.x, 0), max(contentSize.width - CGFloat(width), 0)),
                y: min(max(p.y, 0), max(contentSize.height - CGFloat(height), 0)))
    }

    private func invalidate() {
        needsRender = true
        onNeedsFrame?()
    }
}
