// The walk and the placement on their own: what a view tree turns into (entries, serials,
// invalidations, refinements, damage, content just outside), and content placed at its level
// from what each view showed before; no tile is drawn.
import Foundation
@testable import Raster
import ScrollKit
import Testing

@Suite("Walk and placement")
struct WalkTests {
    static let target = PixelRect(x: 0, y: 0, width: 400, height: 300)

    /// What the walk's entries are, in order: fills by colour, content by serial, indicators.
    static func describe(_ walk: WalkResult) -> [String] {
        walk.entries.map { entry in
            switch entry {
            case .item(let item):
                switch item.kind {
                case .fill(let colour): return "fill \(String(colour, radix: 16)) \(item.id.view).\(item.id.part)"
                case .checker(_, let x, let y, let side): return "checker \(side) at \(x), \(y) \(item.id.view).\(item.id.part)"
                case .indicator: return "indicator \(item.id.view).\(item.id.part)"
                case .content: return "placed content"
                }
            case .content(let s): return "content \(s.serial)"
            }
        }
    }

    @Test("Entries back to front with serials in walk order; a second walk knows every view")
    func entriesAndSerials() throws {
        let scene = Scene1(viewport: CGSize(width: 400, height: 300), contentSize: CGSize(width: 1000, height: 800))
        scene.scroller.indicators = [bar(CGRect(x: 390, y: 10, width: 4, height: 40), alpha: 1)]
        var registry = ViewRegistry()
        let first = ViewWalk.walk(scene.root, target: Self.target, outputScale: 1, clearColor: 0xFF00_0000, registry: registry)
        #expect(first.newViews.map(\.serial) == [1, 2, 3])
        #expect(first.newViews.map { ObjectIdentifier($0.view) } == [scene.root, scene.scroller, scene.content].map(ObjectIdentifier.init))
        #expect(Self.describe(first) == ["fill ff000000 0.0", "fill ff336699 1.0", "content 3", "indicator 2.2"])
        guard case .content(let sighting) = first.entries[2] else { throw WalkTestError.unexpected }
        #expect(sighting.visible == Self.target && sighting.extent == PixelRect(x: 0, y: 0, width: 1000, height: 800))
        #expect(first.invalidations.isEmpty && first.refinements.isEmpty)
        #expect(first.contentDamage == PixelRegion([Self.target]), "setting the root's background invalidated it")
        // The walk changed nothing of the registry: a second walk with it finds the same views new.
        let again = ViewWalk.walk(scene.root, target: Self.target, outputScale: 1, clearColor: 0xFF00_0000, registry: registry)
        #expect(again.newViews.map(\.serial) == [1, 2, 3])
        for (view, serial) in first.newViews { #expect(registry.admit(view, serial: serial) == nil) }
        let known = ViewWalk.walk(scene.root, target: Self.target, outputScale: 1, clearColor: 0xFF00_0000, registry: registry)
        #expect(known.newViews.isEmpty)
        #expect(Self.describe(known) == Self.describe(first))
        // A view added later gets the next serial.
        let badge = View(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
        badge.backgroundColor = .white
        scene.root.addSubview(badge)
        let added = ViewWalk.walk(scene.root, target: Self.target, outputScale: 1, clearColor: 0xFF00_0000, registry: registry)
        #expect(added.newViews.map(\.serial) == [4])
        #expect(Self.describe(added).last == "fill ffffffff 4.0")
    }

    @Test("Invalidations and refinements are taken from the views and reported, with the pixels they change")
    func observations() throws {
        let content = RefiningView(frame: CGRect(x: 10, y: 20, width: 200, height: 100), sharpFrom: 1)
        let plain = View(frame: CGRect(x: 250, y: 0, width: 50, height: 50))
        plain.backgroundColor = .white
        let root = View(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        root.addSubview(content)
        root.addSubview(plain)
        let target = PixelRect(x: 0, y: 0, width: 800, height: 600)
        var registry = ViewRegistry()
        for (view, serial) in ViewWalk.walk(root, target: target, outputScale: 2, clearColor: 0, registry: registry).newViews {
            _ = registry.admit(view, serial: serial)
        }
        content.setNeedsDisplay(CGRect(x: 4, y: 5, width: 10, height: 10))
        content.refine()
        plain.setNeedsDisplay()
        let walk = ViewWalk.walk(root, target: target, outputScale: 2, clearColor: 0, registry: registry)
        let serial = try #require(registry.serial(of: content))
        #expect(walk.invalidations == [Invalidation(serial: serial, rect: CGRect(x: 4, y: 5, width: 10, height: 10))])
        #expect(walk.refinements == [Refinement(serial: serial, unchangedUpTo: 1)])
        // At scale 2 the changed points are device pixels 28…48 × 50…70, grown by the filters'
        // reach of 2; the plain view has no tiles, so all of it changes.
        #expect(walk.contentDamage == PixelRegion([PixelRect(x: 26, y: 48, width: 24, height: 24),
                                                   PixelRect(x: 500, y: 0, width: 100, height: 100)]))
        // Taken: the next walk sees nothing.
        let next = ViewWalk.walk(root, target: target, outputScale: 2, clearColor: 0, registry: registry)
        #expect(next.invalidations.isEmpty && next.refinements.isEmpty && next.contentDamage.isEmpty)
    }

    @Test("Content outside the clip but within a window's reach is sighted as nearby, not listed")
    func nearby() {
        let scene = PrefetchTests.Pages()
        let walk = ViewWalk.walk(scene.root, target: PixelRect(x: 0, y: 0, width: 600, height: 400), outputScale: 1,
                                 clearColor: 0, registry: ViewRegistry())
        #expect(walk.nearby.map(\.serial) == [walk.newViews[3].serial], "page 1 (the fourth view met)")
        // The pager's reach is its rect grown by the window's size: up to x = 1200.
        #expect(walk.nearby.first?.reachable == PixelRect(x: 620, y: 0, width: 580, height: 400))
        #expect(walk.nearby.first?.visible.isEmpty == true)
        #expect(Self.describe(walk).filter { $0.hasPrefix("content") }.count == 1, "only page 0 is listed")
    }

    @Test("Placement: a zoom's frames are scaled from the kept level, then settle with stand-ins; motion is tracked")
    func placement() throws {
        let scene = Scene1(viewport: CGSize(width: 400, height: 300), contentSize: CGSize(width: 1000, height: 800))
        var registry = ViewRegistry()
        var histories: [UInt64: ViewHistory] = [:]
        func frame() throws -> ContentPlacement {
            let walk = ViewWalk.walk(scene.root, target: Self.target, outputScale: 1, clearColor: 0, registry: registry)
            for (view, serial) in walk.newViews { _ = registry.admit(view, serial: serial) }
            let placed = Placement.place(walk, outputScale: 1, histories: &histories)
            #expect(placed.items.count == 3, "clear colour, background, content")
            guard case .content(let p) = placed.items.last?.kind else { throw WalkTestError.unexpected }
            #expect(placed.contents[p.view] === scene.content)
            return p
        }
        var p = try frame()
        #expect(p.sourceLevel == nil && !p.transient && p.standInLevels.map(\.level) == [-1, -2])
        scene.zoom(1.5)
        p = try frame()
        #expect(p.sourceLevel == 0 && p.transient && p.sourceExtent == PixelRect(x: 0, y: 0, width: 1000, height: 800))
        #expect(p.extent == PixelRect(x: 0, y: 0, width: 1500, height: 1200))
        #expect(p.settlingLevel == StandInLevel(level: 1, extent: PixelRect(x: 0, y: 0, width: 2000, height: 1600)))
        p = try frame()
        #expect(p.sourceLevel == 1 && !p.transient && p.standInLevels.map(\.level) == [0, -1])
        #expect(p.standInLevels.first?.extent == PixelRect(x: 0, y: 0, width: 1000, height: 800))
        // Scrolling down and left by 30 and 50 points: content moves up and right.
        scene.scroller.bounds.origin = CGPoint(x: -30, y: 50)
        p = try frame()
        #expect((p.originX, p.originY) == (30, -50))
        let history = try #require(histories[p.view])
        #expect(history.ahead == (-1, 1) && history.motion == (30, 50))
    }
}

/// A walk that did not produce what a test set up.
enum WalkTestError: Error {
    case unexpected
}
