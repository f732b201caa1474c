// What the gallery's tile cache holds: pages shown enlarged from their screen-size pictures are
// painted from those pictures' own pixels, so at rest and while swiping no tile copies them.
import Foundation
import Gallery
import Raster
import ScrollKit
import Testing
import TestSupport

@Suite("Gallery tiles")
struct TileMemoryTests {
    /// Three 512×384 pictures of one colour each.
    static let colours = [(200, 40, 40), (40, 180, 60), (50, 70, 210)]

    static func files(in folder: TemporaryFolder) throws -> [String] {
        try colours.enumerated().map { file, c in
            let png = pngData(width: 512, height: 384) { _, _ in UInt32(c.0) << 16 | UInt32(c.1) << 8 | UInt32(c.2) }
            return try folder.write("plain-\(file).png", Array(png))
        }
    }

    @Test("Pictures enlarged from their screen-size level keep no tiles at the scale shown, at rest or in a swipe, and show whole")
    func noSharpTilesOfScreenPictures() throws {
        let folder = try TemporaryFolder()
        // 90×60: the fit is 60/384 = 0.15625, enlarged from the screen-size picture (1/8, 64×48).
        let h = Harness(files: try Self.files(in: folder), width: 90, height: 60)
        h.run([])
        h.scene.renderer.waitForBackgroundPrefetch(timeout: 10)
        h.run([])
        let fit = 60.0 / 384
        let page = try #require(h.scene.page(at: 0)), next = try #require(h.scene.page(at: 1))
        #expect(Double(page.zoomScale) == fit)
        for p in [page, next] { #expect(p.pictureView.picture?.width == 64, "the screen-size picture") }
        var keys = h.scene.renderer.cachedKeys
        #expect(!keys.contains { $0.scale == fit }, "no tile at the scale shown")
        #expect(keys.contains { $0.scale == 0.125 }, "the screen-size level's tiles, which hold no pixels of their own")
        #expect(h.problems([(10, 30, Self.colours[0]), (45, 5, Self.colours[0]), (80, 55, Self.colours[0])], tolerance: 0).isEmpty)

        // A finger holds the pager halfway to the second picture: both show whole, and still
        // no tile copies them.
        let steps = [Step.down(1000, 0, 80, 30)] + (1...10).map { Step.move(1000 + 8 * Double($0), 0, 80 - 5.5 * Double($0), 30) }
        h.run(steps)
        #expect(h.problems([(2, 30, Self.colours[0]), (30, 10, Self.colours[0]), (80, 30, Self.colours[1]),
                            (88, 55, Self.colours[1])], tolerance: 0).isEmpty)
        keys = h.scene.renderer.cachedKeys
        #expect(!keys.contains { $0.scale == fit })
        h.run([Step.up(1200, 0)])
        #expect(!h.scene.renderer.cachedKeys.contains { $0.scale == fit }, "nor once it rests again")
    }

    @Test("A large picture shown from its screen-size level keeps no backstop: at rest its tiles hold no pixels, halfway to the next neither page has tiles of its own")
    func noBackstopOfStoredLevel() throws {
        let folder = try TemporaryFolder()
        // 2100×1400 in 1155×770: the fit 0.55 is enlarged from level -1 (1050×700, the
        // screen-size picture); its backstop, level -2 (525×350), would be 3×2 tiles drawn.
        let files = try Self.colours.prefix(2).enumerated().map { file, c in
            try folder.write("large-\(file).png", Array(pngData(width: 2100, height: 1400) { _, _ in
                UInt32(c.0) << 16 | UInt32(c.1) << 8 | UInt32(c.2) }))
        }
        let h = Harness(files: files, width: 1155, height: 770)
        h.run([])
        h.scene.renderer.waitForBackgroundPrefetch(timeout: 10)
        h.run([])
        let page = try #require(h.scene.page(at: 0))
        #expect(abs(Double(page.zoomScale) - 0.55) < 1e-9 && page.pictureView.picture?.width == 1050)
        let shown = [(10, 30, Self.colours[0]), (600, 400, Self.colours[0]), (1150, 765, Self.colours[0])]
        #expect(h.problems(shown, tolerance: 0).isEmpty)
        #expect(h.scene.renderer.cacheBytes == 0, "\(h.scene.renderer.cachedKeys.filter { $0.scale != 0.5 })")
        let steps = [Step.down(1000, 0, 1000, 300)]
            + (1...10).map { Step.move(1000 + 8 * Double($0), 0, 1000 - 60 * Double($0), 300) }
        h.run(steps)
        h.scene.renderer.waitForBackgroundPrefetch(timeout: 10)
        #expect(h.problems([(2, 300, Self.colours[0]), (1150, 300, Self.colours[1])], tolerance: 0).isEmpty)
        // The overlays (the page's name and number) show while the pager moves, drawn in tiles
        // at the output's scale; the pictures still have none of their own.
        let pictureTiles = h.scene.renderer.cachedKeys.filter { $0.scale != 0.5 && $0.scale != 1 }
        #expect(pictureTiles.isEmpty, "\(pictureTiles)")
        h.run([Step.up(1200, 0)])
    }
}
