// How the gallery presents pictures beyond their pixels: transparency on a checkerboard or a
// chosen colour, small pictures at 1:1, damaged files with a banner, multi-page files turned
// page by page. Offscreen, with real decodes, checked by the pixels drawn.
import Foundation
import Gallery
import Pictures
import Raster
import ScrollKit
import Testing
import TestSupport

/// The checkerboard's colours (PictureBackground: eog's #808080 and #CCCCCC).
private let dark = (128, 128, 128), light = (204, 204, 204)

@Suite("Gallery backgrounds and fit")
struct BackgroundTests {
    @Test("A black logo on a transparent PNG shows on the checkerboard, at 1:1 in the middle of the page")
    func blackLogoOnChecker() throws {
        let folder = try TemporaryFolder()
        let logo = try PillowPictures.blackLogo(in: folder.path)
        let h = Harness(files: [logo], width: 200, height: 100)
        h.run([])
        // 40×40 at 1:1, centred: from (80, 30); the logo is its middle 20×20, from (90, 40).
        let page = try #require(h.scene.currentPage)
        #expect(page.zoomScale == 1 && page.backdropView != nil)
        // 8 px squares from the picture's corner: dark at (80, 30), light one square right or down.
        let checks = [(80, 30, dark), (87, 37, dark), (88, 30, light), (80, 38, light), (96, 30, dark), (119, 69, dark),
                      (90, 40, (0, 0, 0)), (109, 59, (0, 0, 0)), (100, 50, (0, 0, 0)),
                      // Around the picture: the black page.
                      (79, 30, (0, 0, 0)), (120, 50, (0, 0, 0)), (100, 29, (0, 0, 0)), (100, 70, (0, 0, 0))]
        #expect(h.problems(checks, tolerance: 0).isEmpty, "\(h.problems(checks, tolerance: 0))")
        // The logo stands out: every logo pixel is black, every transparent one grey.
        #expect(!h.shows(89, 45, (0, 0, 0), tolerance: 60) && !h.shows(110, 45, (0, 0, 0), tolerance: 60))
    }

    @Test("Zoomed in, the squares keep their 8 px on screen and start at the picture's corner")
    func checkerKeepsScreenSize() throws {
        let folder = try TemporaryFolder()
        let logo = try PillowPictures.blackLogo(in: folder.path)
        let h = Harness(files: [logo], width: 200, height: 100)
        h.run(Step.key(100, "plus") + Step.key(1000, "plus"))
        let page = try #require(h.scene.currentPage)
        // Two √2 steps: 2×, 80×80 from (60, 10).
        #expect(abs(page.zoomScale - 2) < 1e-9)
        let x0 = Int((-page.contentOffset.x).rounded()), y0 = Int((-page.contentOffset.y).rounded())
        #expect(x0 == 60 && y0 == 10, "the picture at (\(x0), \(y0))")
        let checks = [(x0, y0, dark), (x0 + 7, y0 + 7, dark), (x0 + 8, y0, light), (x0 + 16, y0, dark),
                      (x0, y0 + 8, light), (x0 + 8, y0 + 8, dark), (x0 + 40, y0 + 40, (0, 0, 0))]
        #expect(h.problems(checks, tolerance: 0).isEmpty, "\(h.problems(checks, tolerance: 0))")
    }

    @Test("Other backgrounds fill the transparent parts with their colour", arguments: [
        ("white", (255, 255, 255)), ("#1e90ff", (0x1E, 0x90, 0xFF)), ("#FF8000", (255, 128, 0)), ("black", (0, 0, 0)),
    ] as [(String, (Int, Int, Int))])
    func solidBackgrounds(argument: String, color: (Int, Int, Int)) throws {
        let folder = try TemporaryFolder()
        let logo = try PillowPictures.blackLogo(in: folder.path)
        var options = GalleryScene.Options.synchronous
        let background = try #require(PictureBackground(argument: argument))
        options.background = background
        let h = Harness(files: [logo], width: 200, height: 100, options: options)
        h.run([])
        let checks = [(80, 30, color), (88, 30, color), (119, 69, color), (100, 50, (0, 0, 0)), (79, 30, (0, 0, 0))]
        #expect(h.problems(checks, tolerance: 0).isEmpty, "\(h.problems(checks, tolerance: 0))")
    }

    @Test("--background takes checker, black, white and #rrggbb, and nothing else", arguments: [
        ("checker", true), ("black", true), ("WHITE", true), ("#a0b1c2", true), ("#A0B1C2", true),
        ("", false), ("grey", false), ("#abc", false), ("#abcdefa", false), ("a0b1c2", false), ("#ghijkl", false),
        ("#+12345", false), ("# 12345", false), ("#１２３４５６", false),
    ])
    func parsing(argument: String, valid: Bool) {
        #expect((PictureBackground(argument: argument) != nil) == valid)
        if valid, argument.hasPrefix("#") { #expect(PictureBackground(argument: argument) == .color(Color(rgb: 0xA0B1C2))) }
    }

    @Test("An opaque picture gets no backdrop; without a background none is drawn")
    func opaqueNeedsNone() throws {
        let h = Harness(files: [Assets.sunset])
        h.run([])
        #expect(h.scene.currentPage?.backdropView == nil)
        var options = GalleryScene.Options.synchronous
        options.background = nil
        let bubbles = Harness(files: [Assets.bubbles], options: options)
        bubbles.run([])
        #expect(bubbles.scene.currentPage?.backdropView == nil)
        // The transparent corner shows the black page.
        #expect(bubbles.shows(200, 0, (0, 0, 0), tolerance: 0))
    }

    @Test("Small pictures rest at 1:1 and still zoom in; --upscale fills the window")
    func smallPictures() throws {
        let folder = try TemporaryFolder()
        let logo = try PillowPictures.blackLogo(in: folder.path)
        let h = Harness(files: [logo], width: 200, height: 100)
        h.run([])
        let page = try #require(h.scene.currentPage)
        #expect(page.zoomScale == 1 && page.fitScale == 1 && !page.isZoomedIn)
        // A double tap zooms to twice the 1:1 around the tap; another returns.
        h.run(Step.doubleTap(1000, 100, 50))
        #expect(page.zoomScale == 2)
        h.run(Step.doubleTap(3000, 100, 50))
        #expect(page.zoomScale == 1)
        var options = GalleryScene.Options.synchronous
        options.upscalesToFit = true
        let filled = Harness(files: [logo], width: 200, height: 100, options: options)
        filled.run([])
        // 40×40 in 200×100: 2.5×, 100×100 from (50, 0); the logo from (75, 25) to (124, 74).
        #expect(filled.scene.currentPage?.zoomScale == 2.5)
        // (Inside the edges, which the scaling blends.)
        let checks = [(78, 28, (0, 0, 0)), (121, 71, (0, 0, 0)), (51, 1, dark), (48, 50, (0, 0, 0))]
        #expect(filled.problems(checks, tolerance: 0).isEmpty, "\(filled.problems(checks, tolerance: 0))")
    }
}

@Suite("Gallery damaged and multi-page files")
struct DamageAndPagesTests {
    /// A 64×64 opaque PNG, rows of colour by band, cut after `share` of its bytes.
    private func cutPNG(in folder: TemporaryFolder, share: Double) throws -> (path: String, damage: PictureDamage) {
        try PillowPictures.make("""
            im = Image.new("RGB", (64, 64))
            im.putdata([(200, 40 + (y // 8) * 20, 30) for y in range(64) for x in range(64)])
            im.save(os.path.join(out, "whole.png"), compress_level=0)
            """, in: folder.path)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/whole.png")))
        let path = try folder.write("cut.png", Array(whole.prefix(Int(Double(whole.count) * share))))
        let damage = try #require(try ImageDecoder(path: path).decode(acceptsDamage: true).damage)
        return (path, damage)
    }

    @Test("A cut PNG shows the rows that decoded, on the checkerboard below them, with a banner naming the share")
    func truncatedPNG() throws {
        let folder = try TemporaryFolder()
        let (path, damage) = try cutPNG(in: folder, share: 0.5)
        let fraction = try #require(damage.decodedFraction)
        #expect(fraction > 0.3 && fraction < 0.6, "\(damage)")
        let h = Harness(files: [path], width: 400, height: 200)
        var lines: [String] = []
        h.scene.onLoadDamage = { lines.append("\($0.error.file): \($0)") }
        h.scene.onLoadFailure = { lines.append("failed: \($0)") }
        h.run([])
        let page = try #require(h.scene.currentPage)
        #expect(page.card == nil && page.damage == damage)
        #expect(lines == ["cut.png: \(damage.description)"] && damage.description.hasPrefix("truncated: "))
        let banner = try #require(page.banner)
        #expect(banner.text == damage.description && banner.textLayout.lines.count == 1)
        // The banner: centred at the top, 16 pt down, on the card's red-bordered plate.
        #expect(banner.frame.minY - page.bounds.minY == 16 && abs(banner.frame.midX - page.bounds.minX - 200) <= 1)
        #expect(h.shows(200, 16, (0xB0, 0x3A, 0x3A), tolerance: 2), "banner border: \(h.rgb(200, 16))")
        // The picture, 64×64 at 1:1 from (168, 68), below the one-line banner: its first rows decoded, the last ones did not.
        let decodedRows = Int((fraction * 64).rounded(.down))
        #expect(h.shows(170, 68, (200, 40, 30)) && h.shows(170, 68 + 8, (200, 60, 30)), "\(h.rgb(170, 68)), \(h.rgb(170, 76))")
        #expect(h.shows(170, 68 + decodedRows - 1, (200, 40 + (decodedRows - 1) / 8 * 20, 30)))
        // The missing rows are transparent: the checkerboard (row 63 is in square row 7, column 0: light).
        #expect(h.shows(168, 131, light, tolerance: 0) && h.shows(176, 131, dark, tolerance: 0), "\(h.rgb(168, 131))")
        // Turning away and back does not report the file again.
        h.run(Step.key(100, "Right") + Step.key(1000, "Left"))
        #expect(lines.count == 1)
    }

    @Test("A multi-page TIFF shows 'page 1/3'; . and , turn its pages, within the file; a single-page file ignores them")
    func pages() throws {
        let folder = try TemporaryFolder()
        let tiff = try PillowPictures.multiPageTIFF(pages: [(60, 40, (250, 0, 0)), (30, 50, (0, 250, 0)), (80, 20, (0, 0, 250))],
                                                    in: folder.path)
        let h = Harness(files: [tiff, Assets.sunset], width: 200, height: 100)
        var layouts: [CGSize] = []
        h.scene.onTraceAction = { action, _ in if case .layout(let l) = action, l.view == 1 { layouts.append(l.content) } }
        h.run([])
        let page = try #require(h.scene.currentPage)
        #expect(page.filePageCount == 3 && page.banner?.text == "page 1/3")
        #expect(h.shows(100, 50, (250, 0, 0)) && page.imageSize == CGSize(width: 60, height: 40))
        h.run(Step.key(100, "period"))
        #expect(page.filePage == 1 && page.banner?.text == "page 2/3" && page.imageSize == CGSize(width: 30, height: 50))
        #expect(h.shows(100, 50, (0, 250, 0)) && h.shows(84, 50, (0, 0, 0)))
        h.run(Step.key(1000, "period") + Step.key(2000, "period"))
        #expect(page.filePage == 2 && page.banner?.text == "page 3/3" && h.shows(100, 50, (0, 0, 250)))
        h.run(Step.key(3000, "comma"))
        #expect(page.filePage == 1 && h.shows(100, 50, (0, 250, 0)))
        // F2 and F3 are the same keys; the picture stays at 1:1 and the gallery on its first file.
        h.run(Step.key(4000, "F2"))
        #expect(page.filePage == 0 && h.scene.currentIndex == 0 && page.zoomScale == 1)
        #expect(layouts == [CGSize(width: 60, height: 40), CGSize(width: 30, height: 50), CGSize(width: 80, height: 20),
                            CGSize(width: 30, height: 50), CGSize(width: 60, height: 40)])
        h.run(Step.key(5000, "Right"))
        let sunset = try #require(h.scene.currentPage)
        h.run(Step.key(6000, "period"))
        #expect(sunset.filePage == 0 && sunset.banner == nil && h.scene.currentIndex == 1)
    }
}
