// The text layer against the libraries' own rendering: glyphs where HarfBuzz puts them, pixels
// as FreeType rasterises them at the device size, for Latin, Arabic, CJK and combining marks,
// at scales 1, 1.5 and 2; then line breaking, truncation, fallback fonts and the glyph cache.
import Foundation
@testable import Raster
import ScrollKit
import Testing

/// Our text's coverage: `layout` drawn in white at `scale` into a transparent `width`×`height`
/// image with its top-left at (`x`, 0) points, read back as alpha.
func coverage(_ layout: TextLayout, x: Double = 0, scale: Double, width: Int, height: Int) throws -> [UInt8] {
    let image = try #require(OwnedFramebuffer(width: width, height: height))
    layout.draw(at: CGPoint(x: x, y: 0), color: .white, rect: PixelRect(x: 0, y: 0, width: width, height: height),
                scale: scale, into: image.framebuffer)
    return image.pixels.map { UInt8($0 >> 24) }
}

/// The first pixels where two coverage images differ by more than 1, and how many do.
func differences(_ a: [UInt8], _ b: [UInt8], width: Int) -> (count: Int, first: [String]) {
    var count = 0
    var first: [String] = []
    for i in a.indices where abs(Int(a[i]) - Int(b[i])) > 1 {
        count += 1
        if first.count < 5 { first.append("(\(i % width), \(i / width)): \(a[i]) vs \(b[i])") }
    }
    return (count, first)
}

@Suite("Text: shaped by HarfBuzz, drawn from FreeType")
struct TextTests {
    /// A sample per script: the family it is set in and the text.
    static let samples: [(name: String, family: String, size: Double, text: String)] = [
        ("Latin", "DejaVu Sans", 18, "Sphinx of black quartz, judge my vow: AVAWAY 1.5 ff"),
        ("Arabic", "Noto Sans Arabic", 24, "مرحبا بالعالم الجميل"),
        ("CJK", "Noto Sans CJK JP", 20, "写真と日本語の文字、漢字"),
        // No precomposed forms exist for these, so HarfBuzz positions the marks (GPOS).
        ("combining marks", "Noto Sans", 28, "q\u{0301}x\u{0308}w\u{0323}\u{0302} g\u{0303}"),
    ]

    @Test("Each script draws as the libraries draw it, at scales 1, 1.5 and 2", arguments: [1.0, 1.5, 2.0])
    func matchesLibraries(scale: Double) throws {
        for sample in Self.samples {
            let reference = try #require(ReferenceFont(family: sample.family), "\(sample.family) is not installed")
            let layout = TextLayout(text: sample.text, font: Font(family: sample.family, size: sample.size), alignment: .left)
            let line = try #require(layout.lines.first)
            #expect(layout.lines.count == 1)
            let width = Int((line.width * scale).rounded(.up)) + 8, height = Int((line.height * scale).rounded(.up)) + 8
            let ours = try coverage(layout, x: 2, scale: scale, width: width, height: height)
            let theirs = reference.render(sample.text, pixelSize: sample.size * scale, left: 2 * scale,
                                          baseline: Int((line.baseline * scale).rounded()), width: width, height: height)
            let diff = differences(ours, theirs, width: width)
            #expect(diff.count == 0, "\(sample.name) at \(scale): \(diff.count) pixels differ, first \(diff.first)")
            // There is text: a good part of the line is inked.
            let inked = theirs.filter { $0 > 128 }.count
            #expect(inked > sample.text.count * Int(scale * scale) * 10, "\(sample.name): only \(inked) inked pixels")
        }
    }

    @Test("Arabic is shaped right to left with joined forms, not the isolated letters")
    func arabicJoins() throws {
        let word = "مرحبا"
        let reference = try #require(ReferenceFont(family: "Noto Sans Arabic"))
        let shaped = reference.shape(word)
        // Right to left: the first letter's glyph comes last in visual (left-to-right) order.
        #expect(shaped.last?.cluster == 0 && shaped.first?.cluster == word.unicodeScalars.count - 1)
        let isolated = word.unicodeScalars.map { reference.nominalGlyph($0.value) }
        let joined = shaped.sorted { $0.cluster < $1.cluster }.map(\.id)
        #expect(isolated.count == joined.count)
        #expect(zip(isolated, joined).filter { $0 != $1 }.count >= 3, "joined \(joined), isolated \(isolated)")
        // Our layout has the joined glyphs, in the same visual order.
        let layout = TextLayout(text: word, font: Font(family: "Noto Sans Arabic", size: 24))
        let ours = try #require(layout.lines.first).runs.flatMap { $0.glyphs.map(\.id) }
        #expect(ours == shaped.map(\.id))
        // A right-to-left paragraph sits against the right edge by default.
        let aligned = TextLayout(text: word, font: Font(family: "Noto Sans Arabic", size: 24), maxWidth: 300)
        let line = try #require(aligned.lines.first)
        #expect(line.isRightToLeft && abs(line.x + line.width - 300) < 0.001)
    }

    @Test("Mixed directions: a Hebrew word inside English runs right to left, the English around it left to right")
    func bidiRuns() throws {
        let text = "abc אבג def"
        let layout = TextLayout(text: text, font: Font(family: "DejaVu Sans", size: 20))
        let line = try #require(layout.lines.first)
        #expect(!line.isRightToLeft)
        let reference = try #require(ReferenceFont(family: "DejaVu Sans"))
        let x = { (scalar: Character) -> Double? in
            let id = reference.nominalGlyph(scalar.unicodeScalars.first!.value)
            return line.runs.flatMap(\.glyphs).first { $0.id == id }?.x
        }
        let a = try #require(x("a")), alef = try #require(x("א")), gimel = try #require(x("ג")), d = try #require(x("d"))
        #expect(a < gimel && gimel < alef && alef < d, "a \(a), gimel \(gimel), alef \(alef), d \(d)")
    }

    @Test("Lines break at word boundaries and between ideographs, each within the width")
    func lineBreaking() throws {
        let english = "the quick brown fox jumps over the lazy dog again and again"
        let layout = TextLayout(text: english, font: Font(family: "DejaVu Sans", size: 16), maxWidth: 120)
        #expect(layout.lines.count > 3)
        #expect(layout.lines.allSatisfy { $0.width <= 120 })
        #expect(layout.lines.map(\.text).joined(separator: " ") == english)
        let japanese = "日本語の文章は単語の間に空白がありません。それでも行は折り返されます。"
        let cjk = TextLayout(text: japanese, font: Font(family: "Noto Sans CJK JP", size: 16), maxWidth: 100)
        #expect(cjk.lines.count > 3)
        #expect(cjk.lines.allSatisfy { $0.width <= 100 })
        #expect(cjk.lines.map(\.text).joined() == japanese)
        // UAX #14: closing punctuation never starts a line.
        #expect(cjk.lines.allSatisfy { !$0.text.hasPrefix("。") && !$0.text.hasPrefix("、") })
        // Paragraphs end at newlines; a word longer than the line is broken between letters.
        let long = TextLayout(text: "first\nsupercalifragilistic", font: Font(family: "DejaVu Sans", size: 16), maxWidth: 60)
        #expect(long.lines.first?.text == "first")
        #expect(long.lines.dropFirst().map(\.text).joined() == "supercalifragilistic")
        #expect(long.lines.allSatisfy { $0.width <= 60 })
    }

    @Test("A line limit ends the last line with an ellipsis at the tail, head or middle")
    func truncation() throws {
        let name = "Urlaub ünïcödé 写真 2023 am Meer.webp"
        let font = Font.systemFont(ofSize: 16)
        let tail = TextLayout(text: name, font: font, maxWidth: 150, numberOfLines: 1, lineBreakMode: .byTruncatingTail)
        #expect(tail.isTruncated && tail.lines.count == 1)
        #expect(tail.lines[0].text.hasSuffix("…") && tail.lines[0].text.hasPrefix("Urlaub"))
        #expect(tail.lines[0].width <= 150)
        let middle = TextLayout(text: name, font: font, maxWidth: 150, numberOfLines: 1, lineBreakMode: .byTruncatingMiddle)
        #expect(middle.lines[0].text.hasPrefix("Urlaub") && middle.lines[0].text.hasSuffix(".webp")
                && middle.lines[0].text.contains("…"))
        #expect(middle.lines[0].width <= 150)
        let head = TextLayout(text: name, font: font, maxWidth: 150, numberOfLines: 1, lineBreakMode: .byTruncatingHead)
        #expect(head.lines[0].text.hasPrefix("…") && head.lines[0].text.hasSuffix("Meer.webp"))
        let two = TextLayout(text: name, font: font, maxWidth: 150, numberOfLines: 2, lineBreakMode: .byTruncatingTail)
        #expect(two.lines.count == 2 && two.lines[1].text.hasSuffix("…") && two.isTruncated)
        let wraps = TextLayout(text: name, font: font, maxWidth: 150, numberOfLines: 2, lineBreakMode: .byWordWrapping)
        #expect(wraps.lines.count == 2 && !wraps.lines[1].text.contains("…") && wraps.isTruncated)
        let fits = TextLayout(text: "short", font: font, maxWidth: 150, numberOfLines: 1)
        #expect(!fits.isTruncated && fits.lines[0].text == "short")
    }

    @Test("Fallback: a name in several scripts finds a font for each character, none missing")
    func fallback() throws {
        let name = "Urlaub ünïcödé 写真 2023.webp"
        let layout = TextLayout(text: name, font: .systemFont(ofSize: 18))
        let line = try #require(layout.lines.first)
        #expect(line.text == name)
        let glyphs = line.runs.flatMap(\.glyphs)
        #expect(glyphs.count >= name.count && glyphs.allSatisfy { $0.id != 0 })
        // The ideographs come from a CJK font, the Latin letters from another.
        let faces = line.runs.map(\.face.source.path)
        #expect(faces.contains { $0.contains("CJK") } && faces.contains { !$0.contains("CJK") }, "\(faces)")
    }

    @Test("Colour emoji are drawn in colour from Noto Color Emoji's bitmaps, scaled to the text size")
    func emoji() throws {
        let layout = TextLayout(text: "😀", font: .systemFont(ofSize: 20))
        let run = try #require(layout.lines.first?.runs.first)
        #expect(run.face.isColor && run.glyphs.allSatisfy { $0.id != 0 })
        let image = try #require(OwnedFramebuffer(width: 60, height: 60))
        layout.draw(at: CGPoint(x: 10, y: 10), color: .black, rect: PixelRect(x: 0, y: 0, width: 60, height: 60), scale: 1,
                    into: image.framebuffer)
        let inked = image.pixels.enumerated().filter { $0.element >> 24 > 0 }.map { (x: $0.offset % 60, y: $0.offset / 60) }
        let colourful = image.pixels.filter { p in
            let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
            return max(r, g, b) - min(r, g, b) > 60
        }
        #expect(colourful.count > 50, "the emoji is not in colour")
        // About one em across (the 136-pixel strike scaled to 20 px), not the strike's size.
        let span = (inked.map(\.x).max() ?? 0) - (inked.map(\.x).min() ?? 0)
        #expect(span >= 16 && span <= 26, "emoji is \(span) px wide")
    }

    @Test("Glyphs are cached within their budget, and drawing again asks FreeType for nothing")
    func glyphCache() throws {
        let cache = GlyphCache(budget: 40_000)
        let text = "日本語の文章は単語の間に空白がありません漢字仮名交じり文東京大阪京都名古屋札幌福岡広島仙台"
        let layout = TextLayout(text: text, font: Font(family: "Noto Sans CJK JP", size: 30))
        let image = try #require(OwnedFramebuffer(width: 1600, height: 60))
        layout.draw(at: .zero, color: .white, rect: PixelRect(x: 0, y: 0, width: 1600, height: 60), scale: 1,
                    into: image.framebuffer, cache: cache)
        let after = cache.statistics
        #expect(after.bytes <= 40_000 && after.count < text.count, "\(after)")
        let small = TextLayout(text: "abc", font: Font(family: "DejaVu Sans", size: 12))
        small.draw(at: .zero, color: .white, rect: PixelRect(x: 0, y: 0, width: 100, height: 30), scale: 1,
                   into: image.framebuffer, cache: cache)
        let misses = cache.statistics.misses
        small.draw(at: .zero, color: .white, rect: PixelRect(x: 0, y: 0, width: 100, height: 30), scale: 1,
                   into: image.framebuffer, cache: cache)
        #expect(cache.statistics.misses == misses && cache.statistics.hits >= 3)
    }

    @Test("Line breaking takes every code point, flags included, and never splits a grapheme cluster")
    func everyScalar() throws {
        // Every scalar value once, in blocks (libunibreak 1.1 aborted the process on flags).
        let all = (0...0x10FFFF).filter { !(0xD800...0xDFFF).contains($0) }.map { UInt32($0) }
        for start in stride(from: 0, to: all.count, by: 65_536) {
            let block = Array(all[start..<min(start + 65_536, all.count)])
            #expect(LineBreaks.opportunities(block).count == block.count)
        }
        let flags = "🇩🇪🇫🇷🇯🇵 👩‍👩‍👧 👍🏽👍🏽"
        let layout = TextLayout(text: flags, font: .systemFont(ofSize: 20), maxWidth: 1)
        #expect(layout.lines.map(\.text).joined() == flags.filter { $0 != " " })
        #expect(layout.lines.allSatisfy { $0.text.count == 1 }, "\(layout.lines.map(\.text))")
    }

    @Test("Odd input: no font size, no width, empty text, absurd sizes")
    func oddInput() {
        #expect(TextLayout(text: "", font: .systemFont(ofSize: 12)).lines.isEmpty)
        #expect(TextLayout(text: "x", font: .systemFont(ofSize: 0)).lines.isEmpty)
        #expect(TextLayout(text: "x", font: .systemFont(ofSize: .nan)).lines.isEmpty)
        // No room: a cluster per line.
        #expect(TextLayout(text: "abc", font: .systemFont(ofSize: 12), maxWidth: 0).lines.map(\.text) == ["a", "b", "c"])
        #expect(TextLayout(text: "abc", font: .systemFont(ofSize: 12), maxWidth: .nan).lines.count == 1)
        // A glyph too large to rasterise is skipped, the layout still measures.
        let huge = TextLayout(text: "W", font: .systemFont(ofSize: 100_000))
        #expect(huge.size.width > 50_000)
        let image = OwnedFramebuffer(width: 16, height: 16)!
        huge.draw(at: .zero, color: .white, rect: PixelRect(x: 0, y: 0, width: 16, height: 16), scale: 1, into: image.framebuffer)
        let unknown = TextLayout(text: "x", font: Font(family: "No Such Family 123", size: 12))
        #expect(unknown.lines.count == 1 && unknown.lines[0].runs.allSatisfy { $0.glyphs.allSatisfy { $0.id != 0 } })
    }
}
