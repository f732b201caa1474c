// Files that cannot be shown: their page shows a card with the file name and the reason, the
// same line is reported once, and every other image still works.
import Foundation
import Gallery
import Pictures
import Raster
import ScrollKit
import Testing

@Suite("Gallery bad files")
struct GalleryBadFileTests {
    /// A PNG whose header declares 100000×100000 pixels and nothing else.
    static let absurdPNG: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        + Array("IHDR".utf8) + [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 2, 0, 0, 0, 0, 0, 0, 0]

    /// Every white-ish pixel inside `rect`, counted: text drawn on a card.
    private func brightPixels(_ h: Harness, in rect: CGRect) -> Int {
        var count = 0
        for y in Int(rect.minY)..<Int(rect.maxY) {
            for x in Int(rect.minX)..<Int(rect.maxX) {
                let c = h.rgb(x, y)
                if c.0 > 180 && c.1 > 180 && c.2 > 180 { count += 1 }
            }
        }
        return count
    }

    @Test("A bad file's page shows its card; the next image still works",
          arguments: [
            ("empty.jpg", [UInt8](), "empty file"),
            ("notes.png", Array("not a picture at all\n".utf8), "not an image"),
            ("huge.png", GalleryBadFileTests.absurdPNG, "image too large: 100000×100000 exceeds the 4294-megapixel limit"),
          ])
    func cardThenNextImage(name: String, bytes: [UInt8], reason: String) throws {
        let folder = try TemporaryFolder()
        let bad = try folder.write(name, bytes)
        let h = Harness(files: [bad, Assets.sunset])
        var reported: [String] = []
        h.scene.onLoadFailure = { reported.append($0.description) }
        h.run([])
        let page = try #require(h.scene.currentPage)
        #expect(page.loadState == .failed)
        let card = try #require(page.card)
        #expect(card.title == name && card.message == reason)
        #expect(reported == ["\(name): \(reason)"])
        // The card is centred: its panel colour inside, text in it, black around it.
        let frame = card.convert(CGPoint.zero, to: nil)
        let rect = CGRect(origin: frame, size: card.bounds.size)
        #expect(abs(rect.midX - 400) <= 1 && abs(rect.midY - 200) <= 1, "\(rect)")
        #expect(h.shows(Int(rect.midX), Int(rect.minY) + 8, (0x2C, 0x2C, 0x30), tolerance: 0))
        #expect(brightPixels(h, in: rect) > 100)
        #expect(h.shows(Int(rect.minX) - 4, Int(rect.midY), (0, 0, 0), tolerance: 0))
        // A swipe shows the next image, fitted.
        h.run(Step.drag(100, from: CGPoint(x: 600, y: 200), to: CGPoint(x: 300, y: 200)))
        #expect(h.scene.currentIndex == 1)
        #expect(h.shows(100, 0, (12, 34, 56)) && h.shows(692, 392, (250, 128, 4)))
        // A double tap on the card does nothing; pinching it neither. (The swipe's run ends when
        // the page overlay has faded, about 2 s in.)
        h.run(Step.key(3000, "Left") + Step.doubleTap(4000, 400, 200))
        #expect(h.scene.currentIndex == 0 && page.zoomScale == 1 && page.contentOffset == .zero)
        #expect(reported.count == 1)
    }

    @Test("A truncated JPEG shows what decoded with the decoder's words on a banner; a missing file gets its card")
    func truncatedAndMissing() throws {
        let folder = try TemporaryFolder()
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Assets.arrow)))
        let cut = try folder.write("cut.jpg", Array(whole.prefix(whole.count / 3)))
        let missing = folder.path + "/missing.png"
        let h = Harness(files: [cut, missing, Assets.sunset])
        var reported: [String] = [], damaged: [String] = []
        h.scene.onLoadFailure = { reported.append($0.description) }
        h.scene.onLoadDamage = { damaged.append("\($0.error.file): \($0)") }
        h.run([])
        // The banner carries exactly the decoder's own account of the cut file, decoded as the
        // page first loads it: at the size of the harness's 800×400 window.
        var limits = DecodeLimits.standard
        (limits.screenWidth, limits.screenHeight) = (800, 400)
        let damage = try #require(try ImageDecoder(path: cut, limits: limits).decode(detail: .screen, acceptsDamage: true).damage,
                                  "a third of a JPEG must be damaged")
        let page = try #require(h.scene.page(at: 0))
        #expect(page.card == nil && page.pictureView.picture?.damage == damage)
        #expect(page.banner?.text == damage.description && damage.description.hasPrefix("truncated: "))
        h.run(Step.key(100, "Right"))
        #expect(reported == ["missing.png: cannot read: No such file or directory"])
        #expect(damaged == ["cut.jpg: \(damage)"])
        #expect(h.scene.page(at: 1)?.card?.message == "cannot read: No such file or directory")
    }

    @Test("A failed page made again shows its card without decoding again or reporting twice")
    func failureRemembered() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.write("zero.png", [])
        let h = Harness(files: [bad, Assets.sunset, Assets.bubbles, Assets.mosaic])
        var reported = 0
        h.scene.onLoadFailure = { _ in reported += 1 }
        h.run(Step.key(100, "End"))
        #expect(h.scene.currentIndex == 3 && h.scene.page(at: 0) == nil)
        h.run(Step.key(1000, "Home"))
        #expect(h.scene.page(at: 0)?.card?.message == "empty file")
        #expect(reported == 1)
    }

    @Test("With no files at all the gallery says so")
    func emptyGallery() throws {
        let h = Harness(files: [])
        var frames = 0
        h.window.onFrame = { _, _ in frames += 1 }
        h.run(Step.drag(0, from: CGPoint(x: 600, y: 200), to: CGPoint(x: 300, y: 200)) + Step.key(300, "Right"))
        let card = try #require(h.scene.emptyCard)
        #expect(card.title == "No pictures to show")
        #expect(card.message == "Give image-viewer pictures (PNG, JPEG, WebP, GIF, TIFF, HEIF, AVIF, JPEG XL, SVG or BMP) or folders holding them.")
        #expect(h.scene.currentIndex == 0 && h.scene.currentPage == nil)
        #expect(h.shows(400, Int(card.frame.minY) + 8, (0x2C, 0x2C, 0x30), tolerance: 0))
        #expect(frames >= 1)
    }
}
