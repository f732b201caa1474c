// Turning and flipping pictures: the keys, the pixels drawn (on top of EXIF orientation), the
// fit of the turned picture, and each picture keeping its turn for the session.
import Foundation
@testable import Gallery
import Pictures
import ScrollKit
import Testing
import TestSupport

private let red = (255, 0, 0), green = (0, 255, 0), blue = (0, 0, 255), white = (255, 255, 255), black = (0, 0, 0)

/// A 200×100 picture of four quadrants: red top left, green top right, blue bottom left,
/// white bottom right.
private func quadrants(_ folder: TemporaryFolder, name: String = "q.png") throws -> String {
    let path = folder.path + "/" + name
    try pngData(width: 200, height: 100) { x, y in
        switch (x < 100, y < 50) {
        case (true, true): 0xFF0000
        case (false, true): 0x00FF00
        case (true, false): 0x0000FF
        case (false, false): 0xFFFFFF
        }
    }.write(to: URL(fileURLWithPath: path))
    return path
}

@Suite("Gallery rotation")
struct RotationTests {
    /// The quadrants stand in for a picture larger than the window: enlarged to fill it
    /// (`--upscale`), so each turn changes the fit and the quadrants are large on screen.
    private static let filling: GalleryScene.Options = {
        var options = GalleryScene.Options.synchronous
        options.upscalesToFit = true
        return options
    }()

    /// The quadrants shown at (x, y) pairs; the picture fills the middle of an 800×400 window.
    private func corners(_ h: Harness, left: Int, right: Int, top: Int, bottom: Int) -> [(Int, Int, Int)] {
        [h.rgb(left, top), h.rgb(right, top), h.rgb(left, bottom), h.rgb(right, bottom)].map { ($0.0, $0.1, $0.2) }
    }

    private func same(_ a: [(Int, Int, Int)], _ b: [(Int, Int, Int)]) -> Bool {
        zip(a, b).allSatisfy { abs($0.0 - $1.0) <= 2 && abs($0.1 - $1.1) <= 2 && abs($0.2 - $1.2) <= 2 }
    }

    @Test("] and [ turn a quarter right and left, F8 and F7 flip; the turned picture is fitted and drawn turned",
          arguments: [
            (["bracketright"], [blue, red, white, green], true), (["F6"], [blue, red, white, green], true),
            (["bracketleft"], [green, white, red, blue], true), (["F5"], [green, white, red, blue], true),
            (["F8"], [green, red, white, blue], false), (["F7"], [blue, white, red, green], false),
            (["bracketright", "bracketright"], [white, blue, green, red], false),
            (["bracketright", "bracketleft"], [red, green, blue, white], false),
            (["F8", "bracketright"], [white, green, blue, red], true),
          ])
    func turns(keys: [String], expected: [(Int, Int, Int)], upright: Bool) throws {
        let folder = try TemporaryFolder()
        let h = Harness(files: [try quadrants(folder)], options: Self.filling)
        h.run([])
        #expect(same(corners(h, left: 200, right: 600, top: 100, bottom: 300), [red, green, blue, white]))
        var steps: [Step] = []
        for (i, key) in keys.enumerated() { steps += Step.key(100 + 200 * Double(i), key) }
        h.run(steps)
        let page = try #require(h.scene.currentPage)
        if upright {
            // 100×200 fitted into 800×400: 200×400 in the middle.
            #expect(page.imageSize == CGSize(width: 100, height: 200) && page.zoomScale == 2)
            #expect(same(corners(h, left: 350, right: 450, top: 100, bottom: 300), expected),
                    "\(corners(h, left: 350, right: 450, top: 100, bottom: 300))")
            #expect(h.shows(290, 200, black) && h.shows(510, 200, black))
        } else {
            #expect(page.imageSize == CGSize(width: 200, height: 100) && page.zoomScale == 4)
            #expect(same(corners(h, left: 200, right: 600, top: 100, bottom: 300), expected),
                    "\(corners(h, left: 200, right: 600, top: 100, bottom: 300))")
        }
    }

    @Test("A turn is applied on top of EXIF orientation: the sideways-stored arrow turned right")
    func onTopOfExif() throws {
        let h = Harness(files: [Assets.arrow])
        h.run([])
        // EXIF 6 applied: 800×1200 at a third, green top left, red bottom right.
        #expect(h.shows(282, 16, (40, 200, 60), tolerance: 12) && h.shows(517, 384, (220, 40, 40), tolerance: 12))
        h.run(Step.key(100, "bracketright"))
        // Turned a quarter right: 1200×800 at a half, green top right, red bottom left.
        #expect(h.scene.currentPage?.imageSize == CGSize(width: 1200, height: 800))
        #expect(h.shows(676, 24, (40, 200, 60), tolerance: 12), "\(h.rgb(676, 24))")
        #expect(h.shows(124, 376, (220, 40, 40), tolerance: 12), "\(h.rgb(124, 376))")
    }

    @Test("A zoomed picture turned returns to the fit of its turned size")
    func turnRefits() throws {
        let folder = try TemporaryFolder()
        let h = Harness(files: [try quadrants(folder)], options: Self.filling)
        h.run(Step.key(100, "plus") + Step.key(600, "plus"))
        let page = try #require(h.scene.currentPage)
        #expect(page.isZoomedIn)
        h.run(Step.key(1200, "bracketleft"))
        #expect(!page.isZoomedIn && page.zoomScale == 2 && page.contentOffset == CGPoint(x: -300, y: 0))
    }

    @Test("Each picture keeps its own turn for the session, also on a page made again")
    func perPicture() throws {
        let folder = try TemporaryFolder()
        let files = try (0..<4).map { try quadrants(folder, name: "\($0).png") }
        let h = Harness(files: files, options: Self.filling)
        h.run(Step.key(100, "bracketright"))
        #expect(h.scene.orientation(ofFile: files[0]) == .right)
        // The next picture is not turned.
        h.run(Step.key(1000, "Right"))
        #expect(same(corners(h, left: 200, right: 600, top: 100, bottom: 300), [red, green, blue, white]))
        // Away far enough that the first page goes, and back: made again, still turned.
        h.run(Step.key(2000, "End"))
        #expect(h.scene.page(at: 0) == nil)
        h.run(Step.key(3000, "Home"))
        #expect(h.scene.currentPage?.orientation == .right)
        #expect(same(corners(h, left: 350, right: 450, top: 100, bottom: 300), [blue, red, white, green]))
        #expect(h.scene.orientation(ofFile: files[1]) == .up)
    }

    @Test("The rotation keys are swayimg's, kiosk included")
    func keyMap() {
        for kiosk in [false, true] {
            #expect(GalleryKeyBindings.command(forKey: .character("["), modifiers: [], kiosk: kiosk) == .rotateLeft)
            #expect(GalleryKeyBindings.command(forKey: .character("]"), modifiers: [], kiosk: kiosk) == .rotateRight)
            #expect(GalleryKeyBindings.command(forKey: .function(5), modifiers: [], kiosk: kiosk) == .rotateLeft)
            #expect(GalleryKeyBindings.command(forKey: .function(6), modifiers: [], kiosk: kiosk) == .rotateRight)
            #expect(GalleryKeyBindings.command(forKey: .function(7), modifiers: [], kiosk: kiosk) == .flipVertical)
            #expect(GalleryKeyBindings.command(forKey: .function(8), modifiers: [], kiosk: kiosk) == .flipHorizontal)
        }
    }
}
