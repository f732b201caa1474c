// The produce and paint stages on their own: which tiles a repaint makes and in what order,
// and painting with occlusion culling and in bands on two threads against painting every item
// in order on one.
import Foundation
@testable import Raster
import ScrollKit
import Testing

@Suite("Produce and paint")
struct ProduceAndPaintTests {
    static let window = PixelRect(x: 0, y: 0, width: 800, height: 600)

    /// Content of 2000×2000 points (serial 1) at `scale`, from `sourceLevel`, filling the window.
    static func item(scale: Double = 1, sourceLevel: Int? = nil, transient: Bool = false, opaque: Bool = true,
                     standIns: [CellIndex: Int] = [:]) -> DisplayItem {
        func extent(_ s: Double) -> PixelRect { PixelRect(x: 0, y: 0, width: Int(2000 * s), height: Int(2000 * s)) }
        var p = ContentPlacement(view: 1, scale: scale, originX: 0, originY: 0, extent: extent(scale), sourceLevel: sourceLevel,
                                 transient: transient, opaque: opaque,
                                 sourceExtent: extent(sourceLevel.map(LevelPolicy.levelScale) ?? scale),
                                 standInLevels: [StandInLevel(level: 0, extent: extent(1))])
        p.standIns = standIns
        return DisplayItem(id: ItemID(view: 1, part: 1), kind: .content(p), bounds: window, opaque: opaque)
    }

    static func key(_ column: Int, _ row: Int, scale: Double = 1) -> TileKey {
        TileKey(view: 1, scale: scale, column: column, row: row)
    }

    @Test("Only the cells under the repaint are made, each once, then kept")
    func repaintOnly() throws {
        let content = PatternView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000))
        let store = TileStore(budget: Renderer.defaultBudget)
        let producer = TileProducer(store: store, frame: 1, contents: [1: content], workers: 1)
        var tiles: [TileKey: Tile] = [:]
        // Device pixels 300…600 × 10…30 and 700…720 × 590…600: cells (1, 0), (2, 0) and (2, 2).
        let repaint = PixelRegion([PixelRect(x: 300, y: 10, width: 300, height: 20),
                                   PixelRect(x: 700, y: 590, width: 20, height: 10)])
        let made = producer.produce(for: repaint, items: [Self.item()], into: &tiles)
        #expect(made == ProducedTiles(drawn: [Self.key(1, 0), Self.key(2, 0), Self.key(2, 2)], resampled: 0))
        #expect(content.drawn.map(\.rect) == [PixelRect(x: 256, y: 0, width: 256, height: 256),
                                              PixelRect(x: 512, y: 0, width: 256, height: 256),
                                              PixelRect(x: 512, y: 512, width: 256, height: 256)])
        #expect(Set(tiles.keys) == Set(made.drawn) && made.drawn.allSatisfy(store.contains))
        let tile = try #require(tiles[Self.key(2, 2)])
        #expect(tile.framebuffer[3, 5] == PatternView.pixel(x: 512 + 3, y: 512 + 5, scale: 1, alpha: 255))
        // The same repaint again: everything is in the store.
        var again: [TileKey: Tile] = [:]
        #expect(producer.produce(for: repaint, items: [Self.item()], into: &again) == ProducedTiles())
        #expect(content.drawn.count == 3 && again.count == 3)
    }

    @Test("Zoom frames make their level's tiles; settled zooms resample after their sources; stand-in cells make nothing")
    func levels() throws {
        let content = PatternView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000))
        let corner = PixelRegion([PixelRect(x: 0, y: 0, width: 100, height: 100)])
        var tiles: [TileKey: Tile] = [:]
        // A pinch at 1.5 scales level 0: content pixels 0…100 read source pixels 0…67.
        let pinch = TileProducer(store: TileStore(budget: Renderer.defaultBudget), frame: 1, contents: [1: content], workers: 1)
        #expect(pinch.produce(for: corner, items: [Self.item(scale: 1.5, sourceLevel: 0, transient: true)], into: &tiles) ==
                ProducedTiles(drawn: [Self.key(0, 0)], resampled: 0))
        // Settled at 1.5 from level 1: cell (0, 0) covers points 0…171, level-1 pixels 0…342.
        tiles = [:]
        let settled = TileProducer(store: TileStore(budget: Renderer.defaultBudget), frame: 1, contents: [1: content], workers: 1)
        let made = settled.produce(for: corner, items: [Self.item(scale: 1.5, sourceLevel: 1)], into: &tiles)
        #expect(made == ProducedTiles(drawn: [Self.key(0, 0, scale: 2), Self.key(1, 0, scale: 2), Self.key(0, 1, scale: 2),
                                              Self.key(1, 1, scale: 2)], resampled: 1))
        #expect(tiles[Self.key(0, 0, scale: 1.5)] != nil)
        // The same cell shown by a stand-in: nothing to make.
        tiles = [:]
        let standing = TileProducer(store: TileStore(budget: Renderer.defaultBudget), frame: 1, contents: [1: content], workers: 1)
        let item = Self.item(scale: 1.5, sourceLevel: 1, standIns: [CellIndex(column: 0, row: 0): 0])
        #expect(standing.produce(for: corner, items: [item], into: &tiles) == ProducedTiles())
    }

    @Test("Memory reserved for tiles is handed out zeroed, as a fresh tile is, one block a tile; past the reserve, fresh memory")
    func tileMemory() {
        let memory = TileMemory()
        memory.reserve(2)
        memory.reserve(1)
        #expect(memory.count == 2, "a reserve is filled up to the count, not added to")
        let tiles = (0..<3).map { _ in memory.tile() }
        #expect(memory.count == 0)
        for tile in tiles {
            let fb = tile.framebuffer
            #expect(fb.width == TileGrid.size && fb.height == TileGrid.size)
            #expect(tile.pixels.allSatisfy { $0 == 0 })
        }
        memory.reserve(4)
        memory.release()
        #expect(memory.count == 0)
    }

    @Test("Two threads make the same tiles as one, in the same order")
    func concurrentProduction() throws {
        var results: [[UInt32]] = []
        var orders: [[TileKey]] = []
        for workers in [1, 2] {
            let content = PatternView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000))
            content.concurrent = true
            let producer = TileProducer(store: TileStore(budget: Renderer.defaultBudget), frame: 1, contents: [1: content],
                                        workers: workers)
            var tiles: [TileKey: Tile] = [:]
            // Device pixels 0…520 × 0…300: a 3×2 grid of cells at 0.7.
            let repaint = PixelRegion([PixelRect(x: 0, y: 0, width: 520, height: 300)])
            let made = producer.produce(for: repaint, items: [Self.item(scale: 0.7, sourceLevel: -1)], into: &tiles)
            orders.append(made.drawn)
            results.append(tiles.keys.sorted { ($0.scaleBits, $0.row, $0.column) < ($1.scaleBits, $1.row, $1.column) }
                .flatMap { key in
                    let fb = tiles[key]!.framebuffer
                    return (0..<fb.height).flatMap { y in (0..<fb.width).map { x in fb[x, y] } }
                })
            #expect(made.resampled == 6)
        }
        #expect(orders[0] == orders[1])
        #expect(results[0] == results[1])
    }

    /// A display list of the clear colour and `count` random fills, opaque and translucent.
    static func randomFills(_ count: Int, in area: PixelRect, seed: UInt64) -> [DisplayItem] {
        var rng = TestRandom(state: seed)
        var items = [DisplayItem(id: ItemID(view: 0, part: 0), kind: .fill(0xFF10_2030), bounds: area, opaque: true)]
        for k in 0..<count {
            let x = Int(rng.next() % UInt64(area.width)), y = Int(rng.next() % UInt64(area.height))
            let rect = PixelRect(x: x, y: y, width: Int(rng.next() % 90) + 1, height: Int(rng.next() % 70) + 1).intersection(area)
            let colour = rng.pixel()
            items.append(DisplayItem(id: ItemID(view: UInt64(k + 1), part: 0), kind: .fill(colour), bounds: rect,
                                     opaque: colour >> 24 == 255))
        }
        return items
    }

    /// Every item drawn over `area` in order, nothing culled: what painting must equal.
    static func painterly(_ items: [DisplayItem], area: PixelRect, tiles: [TileKey: Tile] = [:]) throws -> [UInt32] {
        let fb = try #require(OwnedFramebuffer(width: area.width, height: area.height))
        let painter = Painter(items: items, tiles: tiles, target: fb.framebuffer, scratch: ScratchPixels())
        for item in items { painter.draw(item, clip: area) }
        return fb.pixels
    }

    @Test("Occlusion culling paints what drawing every item in order paints", arguments: [1, 2, 3] as [UInt64])
    func occlusion(seed: UInt64) throws {
        let area = PixelRect(x: 0, y: 0, width: 240, height: 180)
        // 60 fills: deep enough for culling to reach its recursion limit.
        let items = Self.randomFills(60, in: area, seed: seed)
        let fb = try #require(OwnedFramebuffer(width: area.width, height: area.height))
        FramePainter().paint(items, over: PixelRegion([area]), into: fb.framebuffer, tiles: [:], workers: 1,
                             parallelMinimumPixels: .max)
        #expect(fb.pixels == (try Self.painterly(items, area: area)))
    }

    @Test("A partial repaint paints inside its region only")
    func partial() throws {
        let area = PixelRect(x: 0, y: 0, width: 240, height: 180)
        let items = Self.randomFills(20, in: area, seed: 9)
        let fb = try #require(OwnedFramebuffer(width: area.width, height: area.height))
        fb.framebuffer.fill(area, with: 0xFF12_3456)
        let region = PixelRegion([PixelRect(x: 10, y: 20, width: 50, height: 40), PixelRect(x: 100, y: 90, width: 130, height: 5)])
        FramePainter().paint(items, over: region, into: fb.framebuffer, tiles: [:], workers: 1, parallelMinimumPixels: .max)
        let whole = try Self.painterly(items, area: area), pixels = fb.pixels
        var wrong: [String] = []
        for y in 0..<area.height {
            for x in 0..<area.width {
                let i = y * area.width + x
                if pixels[i] != (region.contains(x: x, y: y) ? whole[i] : 0xFF12_3456) { wrong.append("(\(x), \(y))") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("Two threads painting in bands paint what one thread paints, tiles and fills alike")
    func bands() throws {
        let content = PatternView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000))
        content.opaque = false
        var tiles: [TileKey: Tile] = [:]
        let area = PixelRect(x: 0, y: 0, width: 520, height: 300)
        var item = Self.item(scale: 0.7, sourceLevel: -1, opaque: false)
        item.bounds = area
        _ = TileProducer(store: TileStore(budget: Renderer.defaultBudget), frame: 1, contents: [1: content], workers: 1)
            .produce(for: PixelRegion([area]), items: [item], into: &tiles)
        // The clear colour, the content, then translucent and opaque fills over it.
        let fills = Self.randomFills(30, in: area, seed: 5)
        let items = [fills[0], item] + fills.dropFirst()
        var frames: [[UInt32]] = []
        for workers in [1, 2] {
            let fb = try #require(OwnedFramebuffer(width: area.width, height: area.height))
            FramePainter().paint(items, over: PixelRegion([area]), into: fb.framebuffer, tiles: tiles, workers: workers,
                                 parallelMinimumPixels: 0)
            frames.append(fb.pixels)
        }
        #expect(frames[0] == frames[1])
        #expect(frames[0] == (try Self.painterly(items, area: area, tiles: tiles)))
    }

    @Test("Translucent content painted from its level is resampled band by band into scratch memory and drawn over: what gathering its sources into a band of its own gives")
    func translucentFromLevel() throws {
        let content = PatternView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000))
        content.opaque = false
        let area = PixelRect(x: 0, y: 0, width: 520, height: 300)
        var item = Self.item(scale: 0.7, sourceLevel: -1, opaque: false)
        item.bounds = area
        var tiles: [TileKey: Tile] = [:]
        _ = TileProducer(store: TileStore(budget: Renderer.defaultBudget), frame: 1, contents: [1: content], workers: 1)
            .produce(for: PixelRegion([area]), items: [item], into: &tiles)
        guard case .content(let p) = item.kind else { return }
        // Over an opaque background, 150 rows: three bands of at most 64.
        let output = PixelRect(x: 13, y: 7, width: 480, height: 150)
        var shots: [[UInt32]] = []
        for scratch in [ScratchPixels(), nil] {
            let fb = try #require(OwnedFramebuffer(width: area.width, height: area.height))
            fb.framebuffer.fill(area, with: 0xFF20_6040)
            TileGrid.resample(p, output: output, sources: tiles, into: fb.framebuffer, at: (output.x, output.y), blend: true,
                              scratch: scratch)
            shots.append(fb.pixels)
        }
        var worst = 0
        for (a, b) in zip(shots[0], shots[1]) {
            for shift in stride(from: 0, to: 32, by: 8) { worst = max(worst, abs(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF))) }
        }
        #expect(worst <= 1, "band by band and gathered differ by \(worst) levels")
        #expect(shots[0][20 * area.width + 20] != 0xFF20_6040, "the content was drawn")
        #expect(shots[0][200 * area.width + 20] == 0xFF20_6040, "below the output nothing was")
    }
}
