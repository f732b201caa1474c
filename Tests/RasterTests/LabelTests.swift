// Label, the view tree's text: drawn by the renderer at the output scale itself (sharp at 1.5
// and 2), the same in tiles as whole, scrolling with its content without being redrawn, sized
// to its text like UILabel.
import Foundation
@testable import Raster
import Host
import ScrollKit
import TestSupport
import Testing

@Suite("Label: text in the view tree", .oneRenderThread)
struct LabelTests {
    /// A window of `size` points holding `label` at (10, 10) over black.
    func scene(_ label: Label, size: CGSize) -> ViewScene {
        let root = View(frame: CGRect(origin: .zero, size: size))
        root.backgroundColor = .black
        root.addSubview(label)
        return ViewScene(root: root)
    }

    @Test("Through the renderer at output scales 1.5 and 2, glyphs are FreeType's at the scaled pixel size, not resampled",
          arguments: [1.5, 2.0])
    func sharpAtScale(scale: Double) throws {
        let text = "Sharp glyphs: Hamburgefonstiv 0123"
        let label = Label(text: text, frame: CGRect(x: 10, y: 10, width: 380, height: 30))
        label.font = Font(family: "DejaVu Sans", size: 15)
        label.textColor = .white
        label.textAlignment = .left
        let window = scene(label, size: CGSize(width: 400, height: 50))
        window.resize(width: 400, height: 50, scale: scale)
        let width = Int(400 * scale), height = Int(50 * scale)
        let frame = try #require(OwnedFramebuffer(width: width, height: height))
        _ = window.render(into: frame.framebuffer, bufferAge: 0)
        // White on black: the red channel is the coverage.
        let ours = frame.pixels.map { UInt8(($0 >> 16) & 0xFF) }
        let line = try #require(label.textLayout.lines.first)
        let top = 10 + (30 - Double(label.textLayout.size.height)) / 2
        let reference = try #require(ReferenceFont(family: "DejaVu Sans"))
        let sharp = reference.render(text, pixelSize: 15 * scale, left: 10 * scale,
                                     baseline: Int(((top + line.baseline) * scale).rounded()), width: width, height: height)
        let diff = differences(ours, sharp, width: width)
        #expect(diff.count == 0, "\(diff.count) pixels differ from FreeType at \(15 * scale) px, first \(diff.first)")
        // Rasterising at 15 px and enlarging would look different: many pixels would differ.
        let small = reference.render(text, pixelSize: 15, left: 10, baseline: Int((top + line.baseline).rounded()),
                                     width: 400, height: 50)
        let enlarged = (0..<height).flatMap { y in
            (0..<width).map { x in small[min(Int(Double(y) / scale), 49) * 400 + min(Int(Double(x) / scale), 399)] }
        }
        #expect(differences(ours, enlarged, width: width).count > 500)
    }

    @Test("A label drawn in tiles equals the label drawn whole, at 1 and 1.5", arguments: [1.0, 1.5])
    func tiles(scale: Double) throws {
        let label = Label(text: "Urlaub ünïcödé 写真 2023.webp مرحبا بالعالم 😀 and a long tail to wrap", frame:
                            CGRect(x: 0, y: 0, width: 230, height: 90))
        label.numberOfLines = 0
        label.lineBreakMode = .byWordWrapping
        label.textColor = Color(rgb: 0xFFEECC)
        label.textInsets = EdgeInsets(top: 6, left: 12, bottom: 6, right: 12)
        label.roundedBackground = RoundedBackground(color: Color(rgb: 0x000000, alpha: 0.6), cornerRadius: 10)
        let w = Int(230 * scale), h = Int(90 * scale)
        let whole = try #require(OwnedFramebuffer(width: w, height: h))
        label.draw(PixelRect(x: 0, y: 0, width: w, height: h), scale: scale, into: whole.framebuffer)
        #expect(whole.pixels.filter { $0 >> 24 == 255 && $0 & 0xFF > 0x80 }.count > 200, "no text drawn")
        for ty in stride(from: 0, to: h, by: 48) {
            for tx in stride(from: 0, to: w, by: 48) {
                let part = try #require(OwnedFramebuffer(width: 48, height: 48))
                // The background drawing takes the other path: both must agree.
                let drawing = try #require(label.concurrentDrawing())
                drawing.draw(PixelRect(x: tx, y: ty, width: 48, height: 48), scale, part.framebuffer)
                for y in ty..<min(ty + 48, h) {
                    for x in tx..<min(tx + 48, w) where part.framebuffer[x - tx, y - ty] != whole.framebuffer[x, y] {
                        Issue.record("pixel (\(x), \(y)) differs between tile and whole")
                        return
                    }
                }
            }
        }
    }

    @Test("Text scrolls with its content: a scroll moves the pixels and draws no tile; a colour change draws again")
    func scrollsWithContent() throws {
        let root = View(frame: CGRect(x: 0, y: 0, width: 300, height: 200))
        root.backgroundColor = .black
        let scroller = ScrollView(frame: root.bounds)
        scroller.contentSize = CGSize(width: 300, height: 2000)
        root.addSubview(scroller)
        let labels = (0..<40).map { i in
            let label = Label(text: "Row \(i): Grüße, 写真, مرحبا", frame: CGRect(x: 0, y: CGFloat(i) * 50, width: 300, height: 50))
            label.textColor = .white
            scroller.addSubview(label)
            return label
        }
        let renderer = Renderer()
        let frame = try #require(OwnedFramebuffer(width: 300, height: 200))
        // Both positions drawn once, so that every row either shows has its tiles.
        scroller.bounds.origin = CGPoint(x: 0, y: 50)
        renderer.render(root, into: frame, bufferAge: 0)
        scroller.bounds.origin = .zero
        renderer.render(root, into: frame, bufferAge: 0)
        let before = frame.pixels
        let drawn = renderer.statistics.tilesDrawn
        scroller.bounds.origin = CGPoint(x: 0, y: 50)
        renderer.render(root, into: frame, bufferAge: 0)
        #expect(renderer.statistics.tilesDrawn == drawn, "scrolling redrew tiles")
        let after = frame.pixels
        // Row 1 now sits where row 0 was... and row 1's pixels are what was 50 px lower.
        #expect(Array(after[0..<(150 * 300)]) == Array(before[(50 * 300)..<(200 * 300)]))
        #expect(before.contains { $0 & 0xFF > 0x80 }, "no text")
        labels[2].textColor = Color(rgb: 0xFF0000)
        renderer.render(root, into: frame, bufferAge: 1)
        #expect(renderer.statistics.tilesDrawn > drawn)
    }

    @Test("sizeThatFits measures the text plus insets; no line limit fills the height with lines, then an ellipsis")
    func sizing() throws {
        let label = Label(text: "The quick brown fox jumps over the lazy dog")
        label.font = Font(family: "DejaVu Sans", size: 16)
        label.textInsets = EdgeInsets(top: 4, left: 8, bottom: 4, right: 8)
        let one = label.sizeThatFits(.zero)
        let line = TextLayout(text: label.text, font: label.font)
        #expect(one.width == (line.size.width + 16).rounded(.up) && one.height == (line.size.height + 8).rounded(.up))
        label.sizeToFit()
        #expect(label.frame.size == one && label.textLayout.lines.count == 1 && !label.textLayout.isTruncated)
        label.numberOfLines = 0
        let narrow = label.sizeThatFits(CGSize(width: 150, height: 0))
        #expect(narrow.width <= 150 && narrow.height > 2 * one.height)
        // Two lines' height: the rest is cut, the last line ends with "…".
        label.frame = CGRect(x: 0, y: 0, width: 150, height: (line.size.height * 2 + 10).rounded(.up))
        let shown = label.textLayout
        #expect(shown.lines.count == 2 && shown.isTruncated && shown.lines[1].text.hasSuffix("…"))
        #expect(label.sizeThatFits(.zero).height == one.height)
        #expect(Label().sizeThatFits(.zero) == .zero)
    }
}
