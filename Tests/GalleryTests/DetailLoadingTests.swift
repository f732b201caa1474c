// The gallery within its memory budget (issue 12.8): every page loads a screen-size picture, the
// page in the middle loads full resolution once zoomed in past it, and a page scrolled away goes
// back to its screen-size picture.
import Foundation
import Gallery
import Pictures
import Raster
import ScrollKit
import Synchronization
import Testing
import TestSupport

@Suite("Gallery detail within the memory budget")
struct DetailLoadingTests {
    /// The colour of file `file`'s 8×8 block at (x, y): each level of a 512×384 picture down
    /// to 1/8 is made of whole blocks.
    static func block(_ file: Int, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let bx = x / 8, by = y / 8
        return ((bx * 37 + 11 + 80 * file) & 0xFF, (by * 53 + 7) & 0xFF, ((bx + by) * 11) & 0xFF)
    }

    /// Three 512×384 pictures of blocks (stored deflate: 590 000 bytes each).
    static func files(in folder: TemporaryFolder) throws -> [String] {
        try (0..<3).map { file in
            let png = pngData(width: 512, height: 384) { x, y in
                let c = block(file, x, y)
                return UInt32(c.0) << 16 | UInt32(c.1) << 8 | UInt32(c.2)
            }
            return try folder.write("blocks-\(file).png", Array(png))
        }
    }

    /// A 64×48 window (the screen level of 512×384 is 64×48) and a budget whose picture share
    /// (1.3 MB less the tile cache's 4 MiB, two fifths of it) holds the file and the coarse
    /// levels, not the full picture: full resolution goes to a level file.
    static var options: GalleryScene.Options {
        var options = GalleryScene.Options.synchronous
        options.cacheBudget = 4 << 20
        options.memoryBudget = options.cacheBudget + 1_750_000
        return options
    }

    @Test("Pages load a screen-size picture; the page zoomed to 1:1 loads full resolution and shows it, and gives it up when scrolled away")
    func detailFollowsTheMiddlePage() throws {
        let folder = try TemporaryFolder()
        let h = Harness(files: try Self.files(in: folder), width: 64, height: 48, options: Self.options)
        h.run([])
        let first = try #require(h.scene.page(at: 0)), second = try #require(h.scene.page(at: 1))
        for page in [first, second] {
            let picture = try #require(page.pictureView.picture)
            #expect(picture.width == 64 && picture.height == 48 && picture.fullWidth == 512 && picture.byteCount == 64 * 48 * 4)
        }
        // The fit shows each block at 1/8: window pixel (x, y) is block (8x, 8y).
        #expect(h.problems([(5, 5, Self.block(0, 40, 40)), (60, 40, Self.block(0, 480, 320))]).isEmpty)

        h.run(Step.key(100, "1"))
        let full = try #require(first.pictureView.picture)
        #expect(!full.isPreview && full.width == 512, "\(full.width) of \(full.fullWidth)")
        #expect(full.byteCount < Self.options.pictureBudget, "\(full.byteCount)")
        // 1:1 around the middle: window (32, 24) shows picture pixel (256, 192).
        let checks = [(3, 3), (20, 30), (45, 10), (60, 44)].map { x, y in (x, y, Self.block(0, 224 + x, 168 + y)) }
        #expect(h.problems(checks).isEmpty, "\(h.problems(checks))")

        h.run(Step.key(3000, "Next"))
        #expect(h.scene.currentIndex == 1)
        // Behind the way the pages went, the page keeps its screen-size picture at a quarter size.
        let kept = try #require(first.pictureView.picture)
        #expect(first.isReduced && kept.width == 16 && kept.byteCount == 16 * 12 * 4, "\(kept.width), \(kept.byteCount) bytes")
        #expect(first.pictureView.preview.map { $0.width <= 16 } ?? true, "nothing finer is kept beside it")

        // Back on screen, it loads its screen-size picture again and shows it as before.
        h.run(Step.key(6000, "Prior"))
        #expect(h.scene.currentIndex == 0)
        let back = try #require(first.pictureView.picture)
        #expect(!first.isReduced && back.width == 64 && back.byteCount == 64 * 48 * 4, "\(back.width)")
        #expect(first.pictureView.preview.map { $0 === back } ?? true, "the reduction is not kept as a preview")
        #expect(h.problems([(5, 5, Self.block(0, 40, 40)), (60, 40, Self.block(0, 480, 320))]).isEmpty)
        // Now the second page is behind: reduced in its turn.
        #expect(second.isReduced && second.pictureView.picture?.width == 16)
    }

    /// Counts calls from any thread.
    final class Calls: Sendable {
        private let calls = Mutex(0)
        var count: Int { calls.withLock { $0 } }
        func call() { calls.withLock { $0 += 1 } }
    }

    @Test("Once the gallery rests after memory was let go (pictures replaced or dropped), free memory goes back once each time")
    func freeMemoryAtRest() throws {
        let folder = try TemporaryFolder()
        let h = Harness(files: try Self.files(in: folder), width: 64, height: 48, options: Self.options)
        let rests = Calls()
        h.scene.onRestAfterRelease = { rests.call() }
        h.run([])
        // The first picture is drawn from its screen-size level, 64×48, which its tiles are
        // windows onto: no tile memory was reserved for it, and nothing was let go before the
        // pictures loaded.
        #expect(h.scene.renderer.reservedTileCount == 0)
        #expect(rests.count == 0, "\(rests.count)")
        // Full resolution replaces the screen-size picture; the next page sends the first back
        // to its screen-size picture; the last page drops the first: each once, at rest.
        h.run(Step.key(100, "1"))
        #expect(rests.count == 1, "\(rests.count)")
        h.run(Step.key(3000, "Next"))
        #expect(h.scene.currentIndex == 1 && rests.count == 2, "\(rests.count)")
        h.run(Step.key(6000, "Next"))
        #expect(h.scene.currentIndex == 2 && rests.count == 3, "\(rests.count)")
    }

    @Test("A window that grows has the page in the middle load a screen-size picture again, not full resolution")
    func windowGrows() throws {
        let folder = try TemporaryFolder()
        let scene = GalleryScene(files: [try Self.files(in: folder)[0]], options: Self.options)
        // 32×24 shows 512×384 at 1/16: its screen level is 32×24.
        scene.resize(width: 32, height: 24, scale: 1)
        _ = scene.advance(to: 0)
        let page = try #require(scene.currentPage)
        #expect(page.pictureView.picture?.width == 32)
        scene.resize(width: 64, height: 48, scale: 1)
        for frame in 1...3 { _ = scene.advance(to: Double(frame) * 16) }
        #expect(page.pictureView.picture?.width == 64 && page.shownDetail == .screen,
                "\(String(describing: page.pictureView.picture?.width)), \(String(describing: page.shownDetail))")
    }
}

@Suite("Pages kept while the pager slides")
struct SlidePagesTests {
    @Test("A slide keeps the pages on screen and the neighbours of the page nearest the middle: three pictures, the page behind let go and the one ahead made halfway")
    func threePagesThroughASlide() throws {
        let folder = try TemporaryFolder()
        let files = try (0..<5).map { file in
            try folder.write("page-\(file).png", Array(pngData(width: 64, height: 48) { _, _ in UInt32(file * 40) }))
        }
        let scene = GalleryScene(files: files, options: GalleryScene.Options())
        scene.resize(width: 64, height: 48, scale: 1)
        _ = scene.advance(to: 0)
        scene.show(page: 1, animated: false)
        _ = scene.advance(to: 16)
        #expect(scene.waitForLoads(timeout: 30))
        _ = scene.advance(to: 16)
        let buffer = try #require(OwnedFramebuffer(width: 64, height: 48))
        _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
        func existing() -> [Int] { (0..<5).filter { scene.page(at: $0) != nil } }
        #expect(existing() == [0, 1, 2])
        // The memory of page 0's picture: the tiles of every frame that showed it borrow it.
        weak let behind = scene.page(at: 0)?.pictureView.picture?.storedPixels(scale: 1)?.owner
        #expect(behind != nil)
        scene.show(page: 2, animated: true)
        var seen: Set<[Int]> = []
        var time = 16.0
        while time < 3000, scene.pager.contentOffset.x != scene.pager.bounds.width * 2 || seen.isEmpty {
            time += 16
            _ = scene.advance(to: time)
            let offset = scene.pager.contentOffset.x / scene.pager.bounds.width
            let pages = existing()
            seen.insert(pages)
            // Before halfway page 1 is nearest the middle, after it page 2.
            let expected = offset < 1.5 ? [0, 1, 2] : [1, 2, 3]
            #expect(pages == expected, "at \(offset) pages \(pages)")
            // Let go with its page, before the next frame and before page 3's picture decodes:
            // never four pictures at once. (A tile of it under way in the background is
            // finished first.)
            if !pages.contains(0) {
                scene.renderer.waitForBackgroundPrefetch(timeout: 10)
                #expect(behind == nil, "at \(offset) page 0's picture lives on")
            }
            _ = scene.render(into: buffer.framebuffer, bufferAge: 1)
        }
        #expect(seen == [[0, 1, 2], [1, 2, 3]], "\(seen)")
    }
}
