// Scroll indicators drawn from ScrollKit's model: golden images per style, and their placement.
import Foundation
import Raster
import ScrollKit
import TestSupport
import Testing

@Suite("Scroll indicators", .oneRenderThread)
struct IndicatorTests {
    /// Mid grey under everything, so dark bars and light rings both show.
    static let grey: UInt32 = 0xFF80_8080

    /// A 24×60-point window at output scale 2 holding a scroll view with ten screens of content,
    /// its indicators flashed: the top 8×8 points of the right edge as grey levels, one line per
    /// device row (two hex digits per pixel). Every pixel must be opaque grey (r = g = b).
    func renderTopOfBar(style: ScrollView.IndicatorStyle) -> [String]? {
        let root = View(frame: CGRect(x: 0, y: 0, width: 24, height: 60))
        root.backgroundColor = Color(rgb: 0x808080)
        let scroll = ScrollView(frame: root.bounds)
        scroll.contentSize = CGSize(width: 24, height: 600)
        scroll.indicatorStyle = style
        root.addSubview(scroll)
        scroll.flashScrollIndicators()
        #expect(scroll.indicatorsForDisplay.count == 1, "only the vertical axis scrolls")
        let renderer = Renderer()
        renderer.outputScale = 2
        let fb = OwnedFramebuffer(width: 48, height: 120)!
        renderer.render(root, into: fb, bufferAge: 0)
        let px = fb.pixels
        var lines: [String] = []
        for y in 0..<16 {
            var line = ""
            for x in 32..<48 {
                let p = px[y * 48 + x]
                let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                guard p >> 24 == 0xFF, r == g, g == b else { return nil }
                line += String(format: "%02x", r)
            }
            lines.append(line)
        }
        return lines
    }

    @Test("Golden images: default (dark with a light ring), black and white", arguments: [
        (ScrollView.IndicatorStyle.default, IndicatorGoldens.defaultStyle),
        (.black, IndicatorGoldens.blackStyle),
        (.white, IndicatorGoldens.whiteStyle),
    ])
    func golden(style: ScrollView.IndicatorStyle, expected: [String]) {
        let lines = renderTopOfBar(style: style)
        #expect(lines != nil, "indicator pixels are opaque greys over a grey background")
        let listing = (lines ?? []).map { "\"\($0)\"," }.joined(separator: "\n")
        #expect(lines == expected, "actual:\n\(listing)")
    }

    @Test("What the goldens show: bar body, ring and background where the model puts them")
    func goldenMeaning() {
        // Device columns: the bar spans points 18...21 (3 pt thick, 3 pt from the edge) =
        // pixels 36..<42, i.e. columns 4..<10 of the crop; the top end is rounded.
        guard let d = renderTopOfBar(style: .default), let b = renderTopOfBar(style: .black),
              let w = renderTopOfBar(style: .white) else { Issue.record("non-grey pixels"); return }
        func level(_ lines: [String], _ x: Int, _ y: Int) -> Int {
            let line = Array(lines[y])
            return Int(String(line[2 * x...2 * x + 1]), radix: 16)!
        }
        // Body, well inside the bar: black at 45 % over 0x80 = 0x80 · 0.55 ≈ 0x46.
        #expect(abs(level(b, 7, 14) - 0x46) <= 1)
        #expect(abs(level(d, 7, 14) - 0x46) <= 1)
        // White style body: 0x80 + (0xFF − 0x80) · 0.7 ≈ 0xD9.
        #expect(abs(level(w, 7, 14) - 0xD9) <= 1)
        // Default ring, the outermost device column of the bar: white at 60 % ≈ 0xCC.
        #expect(abs(level(d, 4, 14) - 0xCC) <= 1)
        // Background beyond the bar on both sides, and above its top end.
        for lines in [d, b, w] {
            #expect(level(lines, 1, 14) == 0x80 && level(lines, 13, 14) == 0x80 && level(lines, 7, 0) == 0x80)
        }
        // The plain styles are thinner than the default one.
        let widthD = (0..<16).filter { level(d, $0, 14) != 0x80 }.count
        let widthB = (0..<16).filter { level(b, $0, 14) != 0x80 }.count
        #expect(widthB < widthD)
    }

    @Test("A faded indicator draws nothing; a half-faded one halves its contrast")
    func fade() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        root.backgroundColor = .white
        let scroller = ScrollerView(frame: root.bounds)
        root.addSubview(scroller)
        let fb = OwnedFramebuffer(width: 40, height: 40)!
        let renderer = Renderer()
        let dark = IndicatorAppearance(rect: CGRect(x: 10, y: 5, width: 10, height: 30), alpha: 0, fill: .black, cornerRadius: 0)
        scroller.indicators = [dark]
        renderer.render(root, into: fb, bufferAge: 0)
        #expect(fb.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        scroller.indicators[0].alpha = 0.5
        renderer.render(root, into: fb, bufferAge: 1)
        // Black at alpha 128/255 over white: 255 · 127/255 = 127 per channel.
        #expect(fb.pixels[20 * 40 + 15] == 0xFF7F_7F7F)
        #expect(fb.pixels[20 * 40 + 25] == 0xFFFF_FFFF)
    }
}
