// Hostile text, as file names can carry it: random mixes of scripts, stacked marks, bidi
// controls nested past their limit, joiners, flags, noncharacters and control characters, laid
// out at odd widths and limits and drawn at odd scales. Every case ends in sane lines and
// validly premultiplied pixels.
import Foundation
@testable import Raster
import ScrollKit
import Testing

@Suite("Text: hostile input")
struct TextFuzzTests {
    /// Scalars that break naive text code, by kind.
    static let pools: [[UInt32]] = [
        Array(0x20...0x7E).map(UInt32.init),                           // ASCII
        [0x00, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0xA0, 0x2028, 0x2029, 0x3000, 0x200B],  // controls, spaces
        Array(0x300...0x36F).map(UInt32.init),                         // combining marks, to stack
        [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x61C],  // bidi controls
        Array(0x621...0x64A).map(UInt32.init) + Array(0x5D0...0x5EA).map(UInt32.init),  // Arabic, Hebrew letters
        Array(0x4E00...0x4E40).map(UInt32.init) + Array(0x3041...0x3060).map(UInt32.init) + [0x3001, 0x3002],  // CJK
        [0x1F600, 0x1F44D, 0x1F3FD, 0x200D, 0xFE0F, 0xFE0E, 0x1F1E9, 0x1F1EA, 0x2764, 0x1F469, 0x1F467],  // emoji parts
        [0xE01, 0xE02, 0xE31, 0xE34, 0xE48, 0x1000, 0x102B, 0xAC00, 0x1100, 0x1161],  // Thai, Myanmar, Hangul
        [0xFFFF, 0xFFFE, 0xFFFD, 0xFDD0, 0xE000, 0xF8FF, 0x10FFFF, 0xE0001, 0xE0041, 0x1D11E, 0x2026, 0xAD],  // odd ones
    ]

    static func hostileString(_ rng: inout TestRandom) -> String {
        let length = Int(rng.next() % 120)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let pool = pools[Int(rng.next() % UInt64(pools.count))]
            let repeats = rng.next() % 8 == 0 ? Int(rng.next() % 40) + 1 : 1
            let value = pool[Int(rng.next() % UInt64(pool.count))]
            for _ in 0..<repeats { if let s = Unicode.Scalar(value) { scalars.append(s) } }
        }
        return String(scalars)
    }

    /// The scalars of `s` as lines show them (control characters replaced), less whitespace.
    static func withoutWhitespace(_ s: String) -> [UInt32] {
        s.unicodeScalars.map(\.value).filter { !ShapedParagraph.isWhitespace($0) }.map(ShapedParagraph.shown)
    }

    @Test("Random hostile strings lay out within their width and limit, lose no text, and draw valid pixels")
    func hostile() throws {
        var rng = TestRandom(state: 0x7E57_5EED)
        let widths: [Double] = [0, 1, 13.5, 80, 240, .infinity, .nan, -5]
        let modes: [LineBreakMode] = [.byWordWrapping, .byCharWrapping, .byClipping, .byTruncatingHead, .byTruncatingTail,
                                      .byTruncatingMiddle]
        let alignments: [TextAlignment] = [.natural, .left, .center, .right]
        let image = try #require(OwnedFramebuffer(width: 64, height: 40))
        for round in 0..<400 {
            let text = Self.hostileString(&rng)
            let width = widths[Int(rng.next() % UInt64(widths.count))]
            let limit = Int(rng.next() % 4)
            let mode = modes[Int(rng.next() % UInt64(modes.count))]
            let size = [0.5, 9, 15, 40][Int(rng.next() % 4)]
            let layout = TextLayout(text: text, font: .systemFont(ofSize: size), maxWidth: width, numberOfLines: limit,
                                    lineBreakMode: mode, alignment: alignments[Int(rng.next() % 4)])
            let context = "round \(round), width \(width), limit \(limit), \(mode), size \(size): \(text.unicodeScalars.map { String($0.value, radix: 16) })"
            if limit > 0 { #expect(layout.lines.count <= limit, "\(context)") }
            // (Widths are not checked here: in sequences like these, marks after controls or
            // orphan regional indicators, HarfBuzz's clusters depend on the text around them, so
            // what cannot be cut in one place can be cut in another. `words` checks them.)
            if limit == 0 && mode != .byClipping {
                #expect(Self.withoutWhitespace(layout.lines.map(\.text).joined()) == Self.withoutWhitespace(text), "\(context)")
            }
            #expect(layout.lines.allSatisfy { $0.x.isFinite && $0.baseline.isFinite && $0.height >= 0 }, "\(context)")
            // Drawn anywhere near the image at 1, 1.5 or 2: premultiplied pixels only.
            image.framebuffer.fill(image.framebuffer.bounds, with: 0)
            let scale = [1.0, 1.5, 2][Int(rng.next() % 3)]
            let origin = CGPoint(x: Double(Int(rng.next() % 80)) - 40, y: Double(Int(rng.next() % 60)) - 30)
            layout.draw(at: origin, color: Color(rgb: 0x80FF40, alpha: 0.8), rect: PixelRect(x: 0, y: 0, width: 64, height: 40),
                        scale: scale, into: image.framebuffer)
            let bad = image.pixels.first { p in
                let a = p >> 24
                return (p >> 16) & 0xFF > a || (p >> 8) & 0xFF > a || p & 0xFF > a
            }
            #expect(bad == nil, "\(context): pixel \(String(bad ?? 0, radix: 16)) is not premultiplied")
        }
    }

    @Test("Random words in many scripts wrap within the width: only what cannot be cut is wider")
    func words() throws {
        let words = ["photo", "Urlaub", "ünïcödé", "写真", "東京の夜", "مرحبا", "بالعالم", "שלום", "Ελληνικά", "Привет",
                     "q\u{301}x\u{308}", "👍🏽", "👩‍👩‍👧", "🇩🇪", "2023.webp", "a-very-long-file-name", "…", "—", "(1/3)", "ผู้ใหญ่",
                     "한국어", "supercalifragilisticexpialidocious"]
        var rng = TestRandom(state: 0xC0FF_EE00_1234)
        let modes: [LineBreakMode] = [.byWordWrapping, .byCharWrapping, .byTruncatingHead, .byTruncatingTail, .byTruncatingMiddle]
        for round in 0..<300 {
            let count = Int(rng.next() % 30) + 1
            let text = (0..<count).map { _ in words[Int(rng.next() % UInt64(words.count))] }.joined(separator: " ")
            let room = [8, 30, 75, 160, 333][Int(rng.next() % 5)] as Double
            let mode = modes[Int(rng.next() % UInt64(modes.count))]
            let limit = Int(rng.next() % 3)
            let font = Font.systemFont(ofSize: [9, 15, 24][Int(rng.next() % 3)])
            let layout = TextLayout(text: text, font: font, maxWidth: room, numberOfLines: limit, lineBreakMode: mode)
            for line in layout.lines where line.width > room + 0.01 {
                // An ellipsis alone, or text that laid out on its own stays one line (one word,
                // one cluster for character wrapping).
                let alone = TextLayout(text: line.text, font: font, maxWidth: room, lineBreakMode: mode)
                #expect(line.text == "…" || alone.lines.count <= 1,
                        "round \(round): \"\(line.text)\" is \(line.width) wide in \(room), \(mode), limit \(limit): \(text)")
            }
            if limit == 0 {
                #expect(Self.withoutWhitespace(layout.lines.map(\.text).joined()) == Self.withoutWhitespace(text), "round \(round)")
            }
        }
    }

    @Test("Deep bidi nesting, a thousand stacked marks, and a 100 000-character line")
    func extremes() {
        let nested = String(repeating: "\u{202B}a\u{202A}ب", count: 200) + "end"
        let deep = TextLayout(text: nested, font: .systemFont(ofSize: 12), maxWidth: 300)
        #expect(Self.withoutWhitespace(deep.lines.map(\.text).joined()) == Self.withoutWhitespace(nested))
        let zalgo = "e" + String(repeating: "\u{301}\u{316}\u{35C}", count: 340)
        let stacked = TextLayout(text: zalgo, font: .systemFont(ofSize: 12), maxWidth: 50)
        #expect(stacked.lines.count == 1 && stacked.lines[0].text == zalgo)
        let long = String(repeating: "word ", count: 20_000)
        let wrapped = TextLayout(text: long, font: .systemFont(ofSize: 12), maxWidth: 400, numberOfLines: 3,
                                 lineBreakMode: .byTruncatingMiddle)
        #expect(wrapped.lines.count == 3 && wrapped.lines[2].text.contains("…") && wrapped.lines.allSatisfy { $0.width <= 400 })
    }
}
