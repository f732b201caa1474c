// The cell plan on its own: under a tile budget, which cells of settled content are made sharp
// (the middle first) and which show a cached stand-in level or their stale tile, with a tile
// store filled by hand and no content drawn.
import Foundation
@testable import Raster
import Testing

@Suite("Cell plan")
struct PlanTests {
    static let window = PixelRect(x: 0, y: 0, width: 800, height: 600)
    /// The window's 256-pixel cells: columns 0…3, rows 0…2.
    static let cells = (0...2).flatMap { row in (0...3).map { CellIndex(column: $0, row: row) } }
    /// The serial of the content in these tests.
    static let view: UInt64 = 5

    static func tile() throws -> Tile {
        Tile(pixels: try #require(OwnedFramebuffer(width: 256, height: 256)), isOpaque: true)
    }

    /// Content of 1000×800 points shown at `scale` from the window's origin, filling it, drawn
    /// from `sourceLevel` with level 0 (scale 1) as its stand-in.
    static func item(scale: Double, sourceLevel: Int?) -> DisplayItem {
        func extent(_ s: Double) -> PixelRect { PixelRect(x: 0, y: 0, width: Int(1000 * s), height: Int(800 * s)) }
        let p = ContentPlacement(view: view, scale: scale, originX: 0, originY: 0, extent: extent(scale), sourceLevel: sourceLevel,
                                 transient: false, opaque: true,
                                 sourceExtent: extent(sourceLevel.map(LevelPolicy.levelScale) ?? scale),
                                 standInLevels: [StandInLevel(level: 0, extent: extent(1))])
        return DisplayItem(id: ItemID(view: view, part: 1), kind: .content(p), bounds: window, opaque: true)
    }

    static func planner(_ store: TileStore, maxTiles: Int, refreshed: Set<TileKey> = []) -> CellPlanner {
        CellPlanner(store: store, frame: 2, stale: store.staleTiles, maxTiles: maxTiles, refreshed: refreshed, refined: [],
                    submitted: [], backgroundPrefetch: false, contents: [:])
    }

    /// A store holding every level-0 (scale 1) tile of the content.
    static func storeWithLevelZero() throws -> TileStore {
        let store = TileStore(budget: Renderer.defaultBudget)
        for key in TileGrid.cells(of: PixelRect(x: 0, y: 0, width: 1000, height: 800), view: view, scale: 1) {
            store.keep(key, try tile(), frame: 1)
        }
        return store
    }

    @Test("Over the budget, cells show the cached stand-in; the middle cell is sharp; the budget holds")
    func standInsUnderBudget() throws {
        let store = try Self.storeWithLevelZero()
        // A zoom settled at 1.6: sharp tiles are resampled from level 1 (scale 2), none made yet.
        let plan = Self.planner(store, maxTiles: 4).plan([Self.item(scale: 1.6, sourceLevel: 1)])
        guard case .content(let p) = plan.items[0].kind else { throw WalkTestError.unexpected }
        let sharp = Self.cells.filter { p.standIns[$0] == nil }
        #expect(plan.provisional)
        #expect(sharp.contains(CellIndex(column: 1, row: 1)), "the cell holding the window's centre is sharp")
        #expect(!sharp.isEmpty && sharp.count < Self.cells.count)
        #expect(Set(p.standIns.values) == [0])
        // What the sharp cells cost: their tiles and the level-1 tiles they are resampled from.
        var sources = Set<TileKey>()
        for cell in sharp {
            let rect = TileGrid.rect(of: TileKey(view: Self.view, scale: 1.6, column: cell.column, row: cell.row))
            sources.formUnion(TileGrid.sourceKeys(p, for: rect.intersection(p.extent)))
        }
        #expect(sharp.count + sources.count <= 4 || sharp.count == 1, "\(sharp.count) cells, \(sources.count) sources")
        // Each stand-in cell's level-0 tiles are held for the frame, straight from the store.
        for (cell, level) in p.standIns {
            let rect = TileGrid.rect(of: TileKey(view: Self.view, scale: 1.6, column: cell.column, row: cell.row))
                .intersection(Self.window)
            let standIn = try #require(p.standInLevels.first { $0.level == level })
            for key in TileGrid.sourceKeys(p.scaled(from: standIn), for: rect) {
                #expect(plan.tiles[key] != nil && plan.tiles[key] === store.anyTile(key, frame: 2))
            }
        }
        #expect(plan.tiles.keys.allSatisfy { $0.scale == 1 }, "no tile at 1.6 or level 1 is cached")
    }

    @Test("Without a budget, or without a cached stand-in, every cell is made sharp")
    func noStandIn() throws {
        let unlimited = Self.planner(try Self.storeWithLevelZero(), maxTiles: .max).plan([Self.item(scale: 1.6, sourceLevel: 1)])
        let empty = Self.planner(TileStore(budget: Renderer.defaultBudget), maxTiles: 1)
            .plan([Self.item(scale: 1.6, sourceLevel: 1)])
        for plan in [unlimited, empty] {
            guard case .content(let p) = plan.items[0].kind else { throw WalkTestError.unexpected }
            #expect(p.standIns.isEmpty)
            #expect(!plan.provisional)
            #expect(plan.remade.isEmpty)
        }
    }

    @Test("Stale tiles over the budget go on showing; the four nearest the middle are made again")
    func staleOverBudget() throws {
        let store = try Self.storeWithLevelZero()
        // Refined content: every level-0 tile is out of date.
        store.refine(Self.view, keepingUpTo: 0.5, outputScale: 1)
        let plan = Self.planner(store, maxTiles: 4).plan([Self.item(scale: 1, sourceLevel: nil)])
        // Doubled distances from the centre (400, 300) order the cells (1, 1), (1, 0), (2, 1), (0, 1).
        let remade = [(1, 1), (1, 0), (2, 1), (0, 1)].map { PixelRect(x: $0.0 * 256, y: $0.1 * 256, width: 256, height: 256) }
        #expect(plan.remade == PixelRegion(remade))
        #expect(plan.provisional, "the other eight still show the old pixels")
        let shown = Set(plan.tiles.keys.map { CellIndex(column: $0.column, row: $0.row) })
        #expect(shown == Set(Self.cells).subtracting([(1, 1), (1, 0), (2, 1), (0, 1)].map { CellIndex(column: $0.0, row: $0.1) }))
        guard case .content(let p) = plan.items[0].kind else { throw WalkTestError.unexpected }
        #expect(p.standIns.isEmpty, "a stale tile shows its own cell, no stand-in is needed")
    }

    @Test("Tiles replaced by prefetch since the last frame repaint their cells, where they show")
    func refreshed() throws {
        let store = try Self.storeWithLevelZero()
        let refreshed: Set = [TileKey(view: Self.view, scale: 1, column: 3, row: 2), TileKey(view: Self.view, scale: 1, column: 0, row: 9),
                              TileKey(view: Self.view + 1, scale: 1, column: 0, row: 0)]
        let plan = Self.planner(store, maxTiles: 4, refreshed: refreshed).plan([Self.item(scale: 1, sourceLevel: nil)])
        #expect(plan.remade == PixelRegion([PixelRect(x: 768, y: 512, width: 32, height: 88)]),
                "the visible part of cell (3, 2); the others are out of sight or of another view")
        #expect(!plan.provisional)
    }
}
