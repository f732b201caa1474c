// The test card drawn a row at a time must show exactly the closed-form colour of every point
// (`TestCard.color`), which the live tests compare screenshots against.
import Foundation
import Raster
import ScrollKit
import TestCardContent
import Testing

@Suite("Test card drawing")
struct TestCardTests {
    /// Pixels of `rect` drawn at `scale` that differ from the card's point colour (first few).
    static func mismatches(_ rect: PixelRect, scale: Double) throws -> [String] {
        let card = TestCardView(frame: .zero)
        let fb = try #require(OwnedFramebuffer(width: rect.width, height: rect.height))
        card.draw(rect, scale: scale, into: fb.framebuffer)
        var wrong: [String] = []
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                let px = Int((Double(rect.x + x) / scale).rounded(.down)), py = Int((Double(rect.y + y) / scale).rounded(.down))
                let expected = TestCard.color(x: px, y: py)
                if fb.framebuffer[x, y] != expected, wrong.count < 5 {
                    wrong.append("pixel (\(rect.x + x), \(rect.y + y)) at \(scale): \(String(fb.framebuffer[x, y], radix: 16)) ≠ \(String(expected, radix: 16))")
                }
            }
        }
        return wrong
    }

    @Test("Every pixel of a tile is the colour of its point: labels, grid lines, cell colours, any scale",
          arguments: [1.0, 2.0, 1.5, 0.5, 0.25, 0.7, 3.0])
    func tilesMatchClosedForm(scale: Double) throws {
        // The card's first cells (labels "0,0", "100,0"…), a tile straddling cell corners further
        // out, and one left of and above the card (grid-coloured there).
        for rect in [PixelRect(x: 0, y: 0, width: 256, height: 256), PixelRect(x: 1280, y: 768, width: 256, height: 256),
                     PixelRect(x: -100, y: -37, width: 230, height: 190)] {
            let wrong = try Self.mismatches(rect, scale: scale)
            #expect(wrong.isEmpty, "\(wrong)")
        }
    }

    @Test("Labels wider than their cell are cut at the cell's edge, as the closed form cuts them")
    func longLabelsClipped() throws {
        // Cell (1234, 5678) is labelled "123400,567800": 13 glyphs, 104 points, past its 100.
        let rect = PixelRect(x: 123_400 - 10, y: 567_800 - 5, width: 230, height: 30)
        let wrong = try Self.mismatches(rect, scale: 1)
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(TestCard.color(x: 123_400 + 8, y: 567_800 + 6) == TestCard.labelColor, "the label (\"1\" first) starts where expected")
    }

    @Test("TestCard.draw at an offset equals the closed form, clipped to its rect")
    func drawAtOffset() throws {
        let fb = try #require(OwnedFramebuffer(width: 300, height: 200))
        fb.framebuffer.fill(fb.framebuffer.bounds, with: 0xFF12_3456)
        let rect = PixelRect(x: 20, y: 10, width: 250, height: 170)
        TestCard.draw(into: fb.framebuffer, rect: rect, offsetX: 95, offsetY: 190)
        var wrong: [String] = []
        for y in 0..<200 {
            for x in 0..<300 {
                let inside = x >= 20 && x < 270 && y >= 10 && y < 180
                let expected = inside ? TestCard.color(x: x + 95, y: y + 190) : 0xFF12_3456
                if fb.framebuffer[x, y] != expected, wrong.count < 5 { wrong.append("(\(x), \(y))") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }
}
