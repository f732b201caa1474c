// The list demo offscreen: 10,000 made-up rows the same every run, each row's text where its
// offset puts it (compared with the text layer drawing the same row alone), only the tiles on
// screen drawn and only the rows near them laid out, and the section index jumping.
import Foundation
import Raster
import Replay
import ScrollKit
import Testing
@testable import Gallery

/// The list demo in an offscreen window, the renderer drawing only what a frame needs.
final class ListRun {
    let demo: ListDemo
    let window: OffscreenWindow
    var now = 0.0

    init(width: Int = 800, height: Int = 600) {
        demo = ListDemo()
        // No tiles drawn ahead between frames: what is drawn is what the frames needed.
        demo.scene.renderer.prefetchesInBackground = false
        window = OffscreenWindow(scene: demo.scene, width: width, height: height)!
        settle()
    }

    /// Ticks 60 Hz frames until nothing is left to draw (the renderer makes a few tiles per frame).
    func settle() {
        var frames = 0
        repeat {
            now += 1000.0 / 60
            window.tick(frameTime: now)
            frames += 1
        } while (demo.scene.needsRender || demo.scene.renderer.needsFollowUpFrame || demo.scrollView.isAnimating) && frames < 600
    }

    /// Delivers events at the current time.
    func send(_ kinds: [InputEvent.Kind]) {
        window.perform(kinds.map { InputEvent(time: now, kind: $0) }, at: now)
    }

    var offset: CGFloat { demo.scrollView.contentOffset.y }
}

@Suite("List demo")
struct ListDemoTests {
    @Test("10,000 rows in 34 sections of every script, made the same every run")
    func content() {
        let a = ListDemoContent(), b = ListDemoContent()
        #expect(a.rowCount == 10_000 && a.sections.count == 34)
        #expect(a.sections.map(\.title).prefix(3) == ["A", "B", "C"] && a.sections.last?.title == "😀")
        #expect(zip(a.sections, b.sections).allSatisfy { s, t in zip(s.rows, t.rows).allSatisfy { $0 == $1 } })
        let text = a.sections.flatMap { $0.rows.map { $0.title + $0.subtitle } }.joined()
        // Greek, Cyrillic, Hebrew, Arabic, kana, Han, Hangul, emoji.
        let missing = ["Θ", "Д", "ש", "س", "さ", "東", "서", "🌍"].filter { !text.contains($0) }
        #expect(missing.isEmpty, "no \(missing) in the rows")
        #expect(a.sections[0].rows[0].title.hasPrefix("A") && a.sections[0].rows[0].title.hasSuffix(" 1"))
        #expect(a.sections[33].rows.last!.title.hasSuffix(" 10000"))
    }

    @Test("Rows are drawn at their offsets: each row's text as the text layer draws it, its separator below it")
    func rowsAtTheirOffsets() throws {
        let run = ListRun()
        let geometry = run.demo.list.geometry
        // Deep in the list, mid-row: section 20 ("U"), row 100, 20 pt scrolled past its top.
        let top = geometry.rowTop(section: 20, row: 100)
        run.demo.scrollView.setContentOffset(CGPoint(x: 0, y: top + 20), animated: false)
        run.settle()
        let fb = run.window.buffer.framebuffer
        let content = run.demo.list.content
        let textWidth = 800 - 2 * Double(ListGeometry.inset) - Double(SectionIndexView.width)
        var checked = 0
        for row in 101...108 {
            let rowTop = geometry.rowTop(section: 20, row: row) - run.offset
            // The separator: from the 16 pt inset to the edge, one pixel above the row's bottom.
            let separatorY = Int(rowTop + ListGeometry.rowHeight) - 1
            guard separatorY < 600 else { continue }
            #expect(fb[400, separatorY] == ListDrawing.separator && fb[8, separatorY] == ListDrawing.background)
            #expect(fb[400, separatorY - 1] != ListDrawing.separator)
            // The title, drawn alone by the text layer on white at the same place.
            let title = TextLayout(text: content.sections[20].rows[row].title, font: ListDrawing.titleFont, maxWidth: textWidth,
                                   numberOfLines: 1, lineBreakMode: .byTruncatingTail, alignment: .left)
            let box = PixelRect(x: 0, y: Int(rowTop), width: 740, height: 8 + Int(title.size.height.rounded(.up)))
            guard box.y >= 0, box.y + box.height <= 600 else { continue }
            let reference = OwnedFramebuffer(width: box.width, height: box.height)!
            reference.framebuffer.fill(reference.framebuffer.bounds, with: ListDrawing.background)
            title.draw(at: CGPoint(x: ListGeometry.inset, y: 8), color: ListDrawing.titleColor,
                       rect: PixelRect(x: 0, y: 0, width: box.width, height: box.height), scale: 1, into: reference.framebuffer)
            var wrong = 0, ink = 0
            for y in 0..<box.height {
                for x in 0..<box.width {
                    let expected = reference.framebuffer[x, y]
                    if expected != ListDrawing.background { ink += 1 }
                    if fb[box.x + x, box.y + y] != expected { wrong += 1 }
                }
            }
            #expect(ink > 100 && wrong == 0, "row \(row): \(wrong) pixels differ from the title drawn alone (\(ink) ink)")
            checked += 1
        }
        #expect(checked >= 7)
    }

    @Test("Only the tiles on screen are drawn, and only the rows near them laid out")
    func onlyVisibleTiles() throws {
        let run = ListRun()
        let renderer = run.demo.scene.renderer
        let y: CGFloat = 300_000
        let laidOutAtTop = run.demo.list.laidOutRows
        run.demo.scrollView.setContentOffset(CGPoint(x: 0, y: y), animated: false)
        let drawnBefore = renderer.statistics.tilesDrawn
        run.settle()
        // The list's tiles lie far down its content (the index's near the top of its own).
        let listTiles = renderer.statistics.drawnKeys.filter { $0.row > 100 }
        let rows = Set(listTiles.map(\.row)), columns = Set(listTiles.map(\.column))
        let firstRow = Int(y) / Renderer.tileSize, lastRow = (Int(y) + 599) / Renderer.tileSize
        #expect(rows == Set(firstRow...lastRow), "tile rows \(rows.sorted()), on screen \(firstRow)...\(lastRow)")
        #expect(columns == Set(0...3), "columns \(columns.sorted())")
        #expect(listTiles.count == (lastRow - firstRow + 1) * 4, "\(listTiles.count) list tiles drawn")
        #expect(renderer.statistics.tilesDrawn - drawnBefore == listTiles.count, "other tiles drawn too")
        // The content is 10,000 rows (over half a million points); the tiles drawn cover about
        // 768 pt of it, 14 rows and their neighbours.
        #expect(run.demo.list.frame.height > 500_000)
        // Exactly the rows the drawn tiles cross, at the top and down the list.
        func rowsCrossing(_ band: Range<CGFloat>) -> Int {
            let g = run.demo.list.geometry
            return g.sectionTops.indices.reduce(0) { sum, s in
                sum + (0..<g.sectionCounts[s]).filter { r in
                    let top = g.rowTop(section: s, row: r)
                    return top < band.upperBound && top + ListGeometry.rowHeight > band.lowerBound
                }.count
            }
        }
        let tile = CGFloat(Renderer.tileSize)
        #expect(laidOutAtTop == rowsCrossing(0..<3 * tile))
        let laidOut = run.demo.list.laidOutRows - laidOutAtTop
        #expect(laidOut == rowsCrossing(CGFloat(firstRow) * tile..<CGFloat(lastRow + 1) * tile),
                "\(laidOut) rows laid out down the list")
    }

    @Test("The section index: a tap jumps to the section, a drag along it follows, past its ends it stays on them")
    func sectionIndex() throws {
        let run = ListRun()
        let index = run.demo.index
        let tops = run.demo.list.geometry.sectionTops
        func point(_ entry: Int) -> CGPoint { index.convert(index.center(of: entry), to: nil) }
        #expect(index.frame.minX == 800 - SectionIndexView.width && index.titles.count == 34)
        // Tap "Ω" (section 26).
        let omega = point(26)
        run.send([.touchDown(id: 0, location: omega)])
        run.send([.touchUp(id: 0)])
        run.settle()
        #expect(run.offset == tops[26], "tapped Ω: at \(run.offset), its header at \(tops[26])")
        // Drag from "C" up past the top: C, B, A, and A stays.
        run.send([.touchDown(id: 1, location: point(2))])
        #expect(run.offset == tops[2])
        run.send([.touchMotion(id: 1, location: point(1))])
        #expect(run.offset == tops[1])
        run.send([.touchMotion(id: 1, location: CGPoint(x: omega.x, y: 2))])
        #expect(run.offset == 0)
        run.send([.touchUp(id: 1)])
        // Past the bottom: the last section, as far as the list scrolls.
        run.send([.touchDown(id: 2, location: CGPoint(x: omega.x, y: 598)), .touchUp(id: 2)])
        let lowest = run.demo.list.geometry.height - 600
        #expect(run.offset == min(tops[33], lowest))
        // A fling is stopped where the index sends it; a drag on the rows still scrolls.
        run.send([.touchDown(id: 3, location: CGPoint(x: 400, y: 500))])
        for i in 1...6 {
            run.now += 8
            run.send([.touchMotion(id: 3, location: CGPoint(x: 400, y: 500 + 40 * CGFloat(i)))])
        }
        run.send([.touchUp(id: 3)])
        #expect(run.offset < lowest && run.demo.scrollView.isDecelerating)
        run.send([.touchDown(id: 4, location: point(0)), .touchUp(id: 4)])
        #expect(run.offset == 0 && !run.demo.scrollView.isDecelerating)
    }

    @Test("A finger on the index or the rows is followed as it moves; the fling after it is motion a window may draw ahead")
    func predictableMotion() {
        let run = ListRun()
        let scene = run.demo.scene
        let entry = run.demo.index.convert(run.demo.index.center(of: 2), to: nil)
        #expect(scene.isMotionPredictable)
        run.send([.touchDown(id: 1, location: entry)])
        #expect(!scene.isMotionPredictable, "the list jumps with the finger on the index")
        run.send([.touchUp(id: 1)])
        #expect(scene.isMotionPredictable)
        run.send([.touchDown(id: 2, location: CGPoint(x: 400, y: 500))])
        #expect(!scene.isMotionPredictable)
        for i in 1...6 {
            run.now += 8
            run.send([.touchMotion(id: 2, location: CGPoint(x: 400, y: 500 - 40 * CGFloat(i)))])
        }
        run.send([.touchUp(id: 2)])
        #expect(run.demo.scrollView.isDecelerating && scene.isMotionPredictable)
    }
}

