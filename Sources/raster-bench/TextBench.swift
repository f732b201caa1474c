// The text figures: a 1080p screen of 60 lines in several scripts, shaped and laid out, drawn
// straight into a frame, and drawn by the renderer as 60 labels, against a 60 Hz frame's time
// and a full-frame memcpy measured in the same run.
import Foundation
import Raster
import ScrollKit

extension Bench {
    /// 1000 / 60 ms: one refresh of a 60 Hz display, the time a frame has.
    static let frameBudgetMs = 1000.0 / 60

    /// 60 lines of the kind a list or an information panel shows: Latin with accents, Greek,
    /// Cyrillic, Arabic, Hebrew, CJK and emoji, each long enough to cross a 1080p screen.
    static func textScreen(lines: Int) -> [String] {
        let samples = [
            "Urlaub ünïcödé 写真 2023.webp — 4032×3024, 3.2 MB, f/1.8, 1/120 s, ISO 100",
            "The quick brown fox jumps over the lazy dog; Sphinx of black quartz, judge my vow.",
            "Ελληνικά: Γαζέες καὶ μυρτιὲς δὲν θὰ βρῶ πιὰ στὸ χρυσαφὶ ξέφωτο",
            "Русский: Съешь же ещё этих мягких французских булок, да выпей чаю",
            "العربية: نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر",
            "עברית: דג סקרן שט בים מאוכזב ולפתע מצא חברה",
            "日本語: いろはにほへと ちりぬるを わかよたれそ つねならむ 東京の写真",
            "中文: 我能吞下玻璃而不伤身体。한국어: 다람쥐 헌 쳇바퀴에 타고파 😀👍🏽",
        ]
        return (0..<lines).map { i in
            var line = "\(i + 1). "
            var k = i
            while line.count < 240 {
                line += samples[k % samples.count] + "  "
                k += 3
            }
            return line
        }
    }

    mutating func runText() {
        let width = 1920, height = 1080, lineCount = 60
        let lines = Self.textScreen(lines: lineCount)
        let text = lines.joined(separator: "\n")
        // 12 pt: lines mixing Noto Sans, Noto Sans CJK and emoji are 17–18 pt apart, so 60 of
        // them fill the 1080 rows.
        let font = Font.systemFont(ofSize: 12)
        var layout = TextLayout(text: text, font: font, maxWidth: 1900, numberOfLines: lineCount,
                                lineBreakMode: .byTruncatingTail)
        print(String(format: "text screen: %d lines, %d characters, %.0f × %.0f pt", layout.lines.count, text.count,
                     layout.size.width, layout.size.height))
        let a = OwnedFramebuffer(width: width, height: height)!, b = OwnedFramebuffer(width: width, height: height)!
        let direct = OwnedFramebuffer(width: width, height: height)!
        // The renderer's way: the screen as one label over a black window, and as one label per
        // line (as a list shows rows), each redrawn whenever the labels' colour changes: every
        // tile of text drawn again, glyphs from the cache.
        var frames: [(name: String, body: () -> Void)] = []
        for (name, scale, perLine) in [("text_frame_1080p", 1.0, false), ("text_frame_2160p_scale2", 2.0, false),
                                       ("text_frame_1080p_60_labels", 1.0, true)] {
            let root = View(frame: CGRect(x: 0, y: 0, width: width, height: height))
            root.backgroundColor = .black
            let labels: [Label]
            if perLine {
                labels = lines.enumerated().map { i, line in
                    Label(text: line, frame: CGRect(x: 10, y: Double(i) * 18, width: 1900, height: 18))
                }
            } else {
                let label = Label(text: text, frame: CGRect(x: 10, y: 0, width: 1900, height: 1080))
                label.numberOfLines = lineCount
                labels = [label]
            }
            for label in labels {
                label.font = font
                label.textColor = .white
                label.textAlignment = .left
                root.addSubview(label)
            }
            let renderer = Renderer()
            renderer.outputScale = scale
            let target = OwnedFramebuffer(width: Int(Double(width) * scale), height: Int(Double(height) * scale))!
            renderer.render(root, into: target, bufferAge: 0)
            var bright = true
            frames.append((name, {
                bright.toggle()
                for label in labels { label.textColor = bright ? .white : Color(rgb: 0xE0E0E0) }
                renderer.render(root, into: target, bufferAge: 1)
            }))
        }
        measure([
            ("memcpy_1080p", { a.withFramebuffer { src in b.withFramebuffer { dst in memcpyFrame(from: src, to: dst) } } }),
            ("text_shape_1080p", {
                layout = TextLayout(text: text, font: font, maxWidth: 1900, numberOfLines: lineCount,
                                    lineBreakMode: .byTruncatingTail)
            }),
            ("text_draw_1080p", {
                direct.withFramebuffer { fb in
                    fb.fill(fb.bounds, with: 0xFF00_0000)
                    layout.draw(at: CGPoint(x: 10, y: 0), color: .white, rect: fb.bounds, scale: 1, into: fb)
                }
            }),
        ] + frames)
        medians["frame_60Hz"] = Self.frameBudgetMs
        for name in ["text_shape_1080p", "text_draw_1080p", "text_frame_1080p", "text_frame_2160p_scale2",
                     "text_frame_1080p_60_labels"] {
            ratio(name, "frame_60Hz")
            ratio(name, "memcpy_1080p")
        }
    }
}
