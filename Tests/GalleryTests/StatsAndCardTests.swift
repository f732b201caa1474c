// The error card's text layout (the --stats figures are tested with the viewer, in ImageViewerTests).
import Foundation
@testable import Gallery
import Raster
import Testing

@Suite("Stats and cards")
struct StatsAndCardTests {
    /// What a 160×120 window shows for a file named .webp with a name in three scripts that
    /// holds a JPEG 2000 picture (WebP decodes now; JPEG 2000 is still refused, by content).
    static let webpName = "Urlaub ünïcödé 写真 2023.webp"
    static let webpBytes: [UInt8] = [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// Where `lines` split a word of `text`: every line must end at a space, after a hyphen or
    /// beside an ideograph (Chinese and Japanese break between characters); the lines with the
    /// spaces between them must be the text.
    static func wordSplits(_ lines: [String], of text: String) -> [String] {
        func ideograph(_ c: Character?) -> Bool {
            guard let v = c?.unicodeScalars.first?.value else { return false }
            return (0x3040...0x30FF).contains(v) || (0x3400...0x9FFF).contains(v)
        }
        var problems: [String] = []
        var rest = Substring(text)
        for (k, line) in lines.enumerated() {
            guard rest.hasPrefix(line) else { return ["line \(k) \"\(line)\" is not the text's next part"] }
            rest = rest.dropFirst(line.count)
            let spaced = rest.first == " "
            rest = rest.drop { $0 == " " }
            if k < lines.count - 1 && !spaced && line.last != "-" && !ideograph(line.last) && !ideograph(rest.first) {
                problems.append("\"\(line)\" splits a word")
            }
        }
        if !rest.isEmpty { problems.append("\"\(rest)\" is not shown") }
        return problems
    }

    @Test("Cards at any window size wrap at words, name the file in full in its own letters, and draw nothing outside",
          arguments: [(160, 120), (320, 240), (1280, 720), (3840, 2160)])
    func cardsAtWindowSizes(width: Int, height: Int) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(Self.webpName, Self.webpBytes)
        let h = Harness(files: [file], width: width, height: height)
        h.run([])
        let card = try #require(h.scene.currentPage?.card)
        #expect(card.title == Self.webpName && card.message == "unsupported image format: JPEG 2000")
        let labels = card.subviews.compactMap { $0 as? Label }.filter { !$0.isHidden }
        #expect(labels.count == 2, "the reason is not shown")
        for (label, text) in zip(labels, [card.title, card.message]) {
            let layout = label.textLayout
            #expect(Self.wordSplits(layout.lines.map(\.text), of: text).isEmpty, "\(layout.lines.map(\.text))")
            #expect(!layout.isTruncated && layout.missingGlyphs == 0)
            #expect(layout.lines.allSatisfy { $0.width <= Double(label.bounds.width) })
        }
        // The card lies in the window, and the page around it is black.
        let origin = card.convert(CGPoint.zero, to: nil)
        let rect = CGRect(origin: origin, size: card.bounds.size)
        #expect(rect.minX >= 0 && rect.minY >= 0 && rect.maxX <= CGFloat(width) && rect.maxY <= CGFloat(height), "\(rect)")
        var outside = 0, inked = 0
        for y in 0..<height {
            for x in 0..<width {
                let inCard = rect.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
                let c = h.rgb(x, y)
                if !inCard && (c.0 | c.1 | c.2) != 0 { outside += 1 }
                if inCard && c.0 > 180 && c.1 > 180 && c.2 > 180 { inked += 1 }
            }
        }
        #expect(outside == 0, "\(outside) pixels drawn outside the card")
        #expect(inked > 150, "only \(inked) bright text pixels")
    }

    @Test("Card lines wrap at spaces, after hyphens in long names, and a card too low for the reason cuts it")
    func wrapping() throws {
        let card = CardView(title: "x.jpg", message: "truncated file")
        card.layout(maxWidth: 170)
        #expect(card.frame.width <= 170)
        #expect(card.lines == ["x.jpg", "truncated file"])
        let long = CardView(title: "a-very-long-file-name-from-a-camera.jpg", message: "corrupt JPEG data: bogus marker length")
        long.layout(maxWidth: 200)
        #expect(long.frame.width <= 200 && long.lines.count > 3)
        let title = long.lines.prefix { !$0.hasPrefix("corrupt") }
        #expect(title.joined() == long.title && title.dropLast().allSatisfy { $0.hasSuffix("-") }, "\(title)")
        // Room for the name and one line of the reason: the reason ends with an ellipsis.
        long.layout(maxWidth: 200, maxHeight: 85)
        #expect(long.frame.height <= 85)
        #expect(long.lines.last?.hasSuffix("…") == true && long.lines.joined().contains("camera.jpg"), "\(long.lines)")
        // Narrow cards set smaller text, wide ones the full size.
        #expect(long.fontSizes.title < CardView.titleFont.size)
        long.layout(maxWidth: 2000)
        #expect(long.fontSizes == (CardView.titleFont.size, CardView.messageFont.size) && long.frame.width <= CardView.maximumWidth)
    }
}
