// The damage stage on its own: what buffers of each age repaint, and what two display lists
// differ in, without rendering anything.
import Foundation
@testable import Raster
import Testing

@Suite("Damage history")
struct DamageHistoryTests {
    static let target = PixelRect(x: 0, y: 0, width: 100, height: 80)
    static let a = PixelRect(x: 10, y: 10, width: 20, height: 20)
    static let b = PixelRect(x: 50, y: 40, width: 10, height: 30)

    /// A history of four frames: the first (everything), then `a`, then `b`, then nothing.
    static func fourFrames() -> (DamageHistory, [PixelRegion]) {
        var history = DamageHistory()
        var damages: [PixelRegion] = []
        for changes in [PixelRegion(), PixelRegion([a]), PixelRegion([b]), PixelRegion()] {
            damages.append(history.record(changes, items: [], previous: [], target: target))
        }
        return (history, damages)
    }

    @Test("Each frame's damage: the first changes everything, then only what changed")
    func frameDamage() {
        let (_, damages) = Self.fourFrames()
        #expect(damages == [PixelRegion([Self.target]), PixelRegion([Self.a]), PixelRegion([Self.b]), PixelRegion()])
    }

    @Test("Buffer ages: a buffer repaints the damage of the frames since it was drawn; unknown ages repaint all",
          arguments: [(0, [DamageHistoryTests.target]), (1, []), (2, [DamageHistoryTests.b]),
                      (3, [DamageHistoryTests.a, DamageHistoryTests.b]), (4, [DamageHistoryTests.target]),
                      (5, [DamageHistoryTests.target]), (-1, [DamageHistoryTests.target])])
    func bufferAges(age: Int, expected: [PixelRect]) {
        let (history, _) = Self.fourFrames()
        #expect(history.repaint(bufferAge: age, target: Self.target).area == PixelRegion(expected).area)
        #expect(history.repaint(bufferAge: age, target: Self.target).bounds == PixelRegion(expected).bounds)
    }

    @Test("Eight frames are kept: a buffer nine frames old repaints everything")
    func length() {
        var history = DamageHistory()
        for k in 0..<12 {
            _ = history.record(PixelRegion([PixelRect(x: k, y: 0, width: 1, height: 1)]), items: [], previous: [],
                               target: Self.target)
        }
        #expect(history.frames.count == DamageHistory.length)
        let lastEight = PixelRegion((4..<12).map { PixelRect(x: $0, y: 0, width: 1, height: 1) })
        #expect(history.repaint(bufferAge: 8, target: Self.target) == lastEight)
        #expect(history.repaint(bufferAge: 9, target: Self.target) == PixelRegion([Self.target]))
    }

    @Test("A target of another size, or a forgotten one (a new output scale), changes everything and forgets older damage")
    func newTarget() {
        var (history, _) = Self.fourFrames()
        let larger = PixelRect(x: 0, y: 0, width: 120, height: 80)
        #expect(history.record(PixelRegion([Self.a]), items: [], previous: [], target: larger) == PixelRegion([larger]))
        #expect(history.frames.count == 1)
        #expect(history.repaint(bufferAge: 2, target: larger) == PixelRegion([larger]))
        #expect(history.record(PixelRegion([Self.b]), items: [], previous: [], target: larger) == PixelRegion([Self.b]))
        history.forgetTarget()
        #expect(history.record(PixelRegion([Self.b]), items: [], previous: [], target: larger) == PixelRegion([larger]))
    }

    @Test("Damage is clipped to the target")
    func clipped() {
        var (history, _) = Self.fourFrames()
        let outside = PixelRect(x: 90, y: 70, width: 50, height: 50)
        #expect(history.record(PixelRegion([outside]), items: [], previous: [], target: Self.target) ==
                PixelRegion([PixelRect(x: 90, y: 70, width: 10, height: 10)]))
    }

    static func fill(_ view: UInt64, _ rect: PixelRect, colour: UInt32 = 0xFF00_00FF) -> DisplayItem {
        DisplayItem(id: ItemID(view: view, part: 0), kind: .fill(colour), bounds: rect, opaque: true)
    }

    @Test("Display lists: moved, recoloured, added and removed items damage their old and new bounds")
    func listDiff() {
        let old = [Self.fill(0, Self.target), Self.fill(1, Self.a), Self.fill(2, Self.b)]
        let moved = Self.a.offsetBy(dx: 5, dy: 0)
        #expect([Self.fill(0, Self.target), Self.fill(1, moved), Self.fill(2, Self.b)].damage(since: old) ==
                PixelRegion([Self.a, moved]))
        #expect([Self.fill(0, Self.target), Self.fill(1, Self.a), Self.fill(2, Self.b, colour: 0xFFFF_0000)].damage(since: old) ==
                PixelRegion([Self.b]))
        #expect([Self.fill(0, Self.target), Self.fill(1, Self.a)].damage(since: old) == PixelRegion([Self.b]))
        #expect(old.damage(since: old).isEmpty)
        // Two items changing places in the stacking order: everything they cover is repainted.
        let swapped = [Self.fill(0, Self.target), Self.fill(2, Self.b), Self.fill(1, Self.a)]
        #expect(swapped.damage(since: old).area == Self.target.area)
    }

    @Test("Content in place whose cells change source damages only those cells, merged into rects")
    func changedCells() {
        let bounds = PixelRect(x: 0, y: 0, width: 700, height: 600)
        let settled = ContentPlacement(view: 3, scale: 1.5, originX: 0, originY: 0,
                                       extent: PixelRect(x: 0, y: 0, width: 1500, height: 1500), sourceLevel: 1,
                                       transient: false, opaque: true,
                                       sourceExtent: PixelRect(x: 0, y: 0, width: 2000, height: 2000))
        var standing = settled
        for (column, row) in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)] { standing.standIns[CellIndex(column: column, row: row)] = 0 }
        func item(_ p: ContentPlacement) -> DisplayItem {
            DisplayItem(id: ItemID(view: 3, part: 1), kind: .content(p), bounds: bounds, opaque: true)
        }
        let region = [item(settled)].damage(since: [item(standing)])
        // The 2×2 block merges into one rect; cell (2, 2) is cut at the bounds' bottom edge.
        #expect(region == PixelRegion([PixelRect(x: 0, y: 0, width: 512, height: 512),
                                       PixelRect(x: 512, y: 512, width: 188, height: 88)]))
        #expect(region.rects.count == 2)
    }
}
