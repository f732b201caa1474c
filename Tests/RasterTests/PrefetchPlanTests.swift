// The prefetch plan on its own: the rings a scroll reaches next, and the order of a whole plan
// (provisional cells, rings, content just outside the window), with nothing drawn.
import Foundation
@testable import Raster
import Testing

@Suite("Prefetch plan")
struct PrefetchPlanTests {
    /// A ring case: the visible content pixels, the content's extent, how it last moved, and
    /// the cells expected, nearest first.
    struct Ring: Sendable, CustomTestStringConvertible {
        var name: String
        var visible: PixelRect
        var extent = PixelRect(x: 0, y: 0, width: 5000, height: 5000)
        var ahead: (x: Int, y: Int)
        var motion: (x: Int, y: Int)
        var cells: [(column: Int, row: Int)]
        var testDescription: String { name }
    }

    static let rings: [Ring] = [
        Ring(name: "before any motion: one ring all round, row by row",
             visible: PixelRect(x: 300, y: 300, width: 600, height: 500), ahead: (0, 0), motion: (0, 0),
             cells: [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1), (4, 1), (0, 2), (4, 2), (0, 3), (4, 3),
                     (0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]),
        Ring(name: "40 px a frame down: 320 px in 8 frames, two rows below",
             visible: PixelRect(x: 300, y: 380, width: 600, height: 500), ahead: (0, 1), motion: (0, 40),
             cells: [(1, 4), (2, 4), (3, 4), (1, 5), (2, 5), (3, 5)]),
        Ring(name: "1 px a frame right: at least one ring",
             visible: PixelRect(x: 300, y: 300, width: 600, height: 500), ahead: (1, 0), motion: (1, 0),
             cells: [(4, 1), (4, 2), (4, 3)]),
        Ring(name: "at the content's right edge: nothing beyond it, the row below only",
             visible: PixelRect(x: 4400, y: 0, width: 600, height: 500), ahead: (1, 1), motion: (200, 0),
             cells: [(17, 2), (18, 2), (19, 2)]),
        Ring(name: "in the content's last corner: nothing at all",
             visible: PixelRect(x: 4400, y: 4500, width: 600, height: 500), ahead: (1, 1), motion: (200, 200), cells: []),
    ]

    @Test("Rings ahead of the motion", arguments: rings)
    func ring(_ case: Ring) {
        let history = ViewHistory(zoom: ZoomHistory(), lastOrigin: (0, 0), ahead: `case`.ahead, motion: `case`.motion)
        let cells = PrefetchPlanner.ring(around: `case`.visible, within: `case`.extent, history: history)
        #expect(cells.map { [$0.column, $0.row] } == `case`.cells.map { [$0.column, $0.row] })
    }

    @Test("Fast motion: at most four rings, on the sides it moves towards, nearest ring first")
    func fastRing() {
        let history = ViewHistory(zoom: ZoomHistory(), lastOrigin: (0, 0), ahead: (-1, -1), motion: (130, 130))
        let cells = PrefetchPlanner.ring(around: PixelRect(x: 3370, y: 3370, width: 600, height: 500),
                                         within: PixelRect(x: 0, y: 0, width: 5000, height: 5000), history: history)
        // Visible: columns and rows 13…15; 130 px a frame reaches 1040 px, capped at 4 tiles.
        #expect(cells.count == 7 * 7 - 9)
        #expect(Set(cells.map(\.column)) == Set(9...15) && Set(cells.map(\.row)) == Set(9...15))
        #expect(cells.prefix(7).allSatisfy { $0.column == 12 || $0.row == 12 })
        #expect(cells.allSatisfy { $0.column < 13 || $0.row < 13 })
    }

    @Test("A whole plan: stand-in cells, then the ring less what is cached, then the next page nearest the window")
    func order() throws {
        let store = TileStore(budget: Renderer.defaultBudget)
        store.keep(TileKey(view: 1, scale: 1, column: 3, row: 0), Tile(pixels: try #require(OwnedFramebuffer(width: 256, height: 256)),
                                                                      isOpaque: true), frame: 1)
        let whole = PixelRect(x: 0, y: 0, width: 2000, height: 2000)
        var p = ContentPlacement(view: 1, scale: 1, originX: 0, originY: 0, extent: whole, sourceLevel: nil, transient: false,
                                 opaque: true, sourceExtent: whole)
        p.standIns = [CellIndex(column: 1, row: 1): 0, CellIndex(column: 0, row: 0): 0]
        let window = PixelRect(x: 0, y: 0, width: 600, height: 500)
        let item = DisplayItem(id: ItemID(view: 1, part: 1), kind: .content(p), bounds: window, opaque: true)
        let page = PixelRect(x: 0, y: 0, width: 600, height: 400)
        let next = NearbyContent(placement: ContentPlacement(view: 2, scale: 1, originX: 620, originY: 0, extent: page,
                                                             sourceLevel: nil, transient: false, opaque: true, sourceExtent: page),
                                 content: PatternView(frame: .zero), reachable: PixelRect(x: 620, y: 0, width: 580, height: 400))
        let jobs = PrefetchPlanner(store: store).plan(items: [item], contents: [1: PatternView(frame: .zero)],
                                                      histories: [1: ViewHistory()], nearby: [next], window: window)
        #expect(jobs.map { [Int($0.key.view), $0.key.column, $0.key.row] } == [
            [1, 0, 0], [1, 1, 1],
            [1, 3, 1], [1, 0, 2], [1, 1, 2], [1, 2, 2], [1, 3, 2],
            [2, 0, 0], [2, 0, 1], [2, 1, 0], [2, 1, 1], [2, 2, 0], [2, 2, 1],
        ])
        #expect(jobs.allSatisfy { !$0.resampled && $0.key.scale == 1 })
    }
}
