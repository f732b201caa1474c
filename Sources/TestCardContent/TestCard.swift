// A generated test card: coloured 100-point cells, grid lines and each cell's coordinates,
// so a screenshot shows exactly which part of the content is on screen. Content for the
// viewer's --test-card and the tests that check screenshots, not part of the pixel library.
import Foundation
import Raster
import ScrollKit

/// A procedural picture of unbounded size whose every pixel is known in closed form,
/// used by the first viewer and by the live tests to check what reached the screen.
public enum TestCard {
    /// Cell edge, in points.
    public static let cell = 100
    /// Grid line colour (opaque, XRGB).
    public static let gridColor: UInt32 = 0xFF20_2020
    /// Label colour (opaque, XRGB).
    public static let labelColor: UInt32 = 0xFFFF_FFFF
    /// Labels start this many points inside the cell's top-left corner.
    public static let labelInset = 6
    /// Label pixel size: each font dot is drawn as a square of this many points.
    public static let labelDot = 2

    /// The background colour of cell (column, row): hues step per cell so neighbours differ.
    public static func cellColor(column: Int, row: Int) -> UInt32 {
        let r = UInt32(40 + (column * 37) % 160)
        let g = UInt32(40 + (row * 53) % 160)
        let b: UInt32 = (column + row) % 2 == 0 ? 150 : 210
        return 0xFF00_0000 | r << 16 | g << 8 | b
    }

    /// The colour at content point (x, y), in points, at scale 1; negative coordinates are grid-coloured.
    public static func color(x: Int, y: Int) -> UInt32 {
        guard x >= 0, y >= 0 else { return gridColor }
        if x % cell == 0 || y % cell == 0 { return gridColor }
        let column = x / cell, row = y / cell
        let lx = x % cell - labelInset, ly = y % cell - labelInset
        if lx >= 0, ly >= 0, labelDot(text: label(column: column, row: row), x: lx / labelDot, y: ly / labelDot) {
            return labelColor
        }
        return cellColor(column: column, row: row)
    }

    /// The label text of a cell: its content coordinates in points, "x,y".
    public static func label(column: Int, row: Int) -> String {
        "\(column * cell),\(row * cell)"
    }

    /// Fills `target` with the card as seen from content offset (`offsetX`, `offsetY`) in
    /// points at scale 1, clipped to `rect` (buffer pixels).
    public static func draw(into target: Framebuffer, rect: PixelRect, offsetX: Int, offsetY: Int) {
        let r = rect.intersection(target.bounds)
        guard !r.isEmpty else { return }
        var labels = LabelCache()
        var line = [UInt32](repeating: 0, count: r.width)
        for y in r.y..<(r.y + r.height) {
            pointRow(y: y + offsetY, x0: r.x + offsetX, into: &line, labels: &labels)
            target.write(line, x: r.x, y: y)
        }
    }

    /// The colours of points `x0 ..< x0 + row.count` of point row `y`, exactly as `color(x:y:)`
    /// gives them, built a cell at a time: the cell colour, its grid line, then the label's dots.
    /// (Per point, `color` builds the label text and looks glyphs up again: a 256² tile took
    /// about 60 million instructions that way, measured with callgrind.)
    static func pointRow(y: Int, x0: Int, into row: inout [UInt32], labels: inout LabelCache) {
        let count = row.count
        guard count > 0 else { return }
        guard y >= 0, y % cell != 0 else {
            for i in 0..<count { row[i] = gridColor }
            return
        }
        let cellRow = y / cell
        // The font row of the labels on this point row, if the row crosses them.
        let ly = y % cell - labelInset
        let fontRow = ly >= 0 && ly / labelDot < 5 ? ly / labelDot : nil
        var x = x0
        let end = x0 + count
        while x < end {
            guard x >= 0 else {
                // Left of the card: grid-coloured up to point 0.
                let stop = min(end, 0)
                for i in (x - x0)..<(stop - x0) { row[i] = gridColor }
                x = stop
                continue
            }
            let column = x / cell
            let cellStart = column * cell, cellEnd = min(cellStart + cell, end)
            let colour = cellColor(column: column, row: cellRow)
            for i in (x - x0)..<(cellEnd - x0) { row[i] = colour }
            if cellStart >= x0 { row[cellStart - x0] = gridColor }
            if let fontRow {
                for dot in labels.dots(column: column, row: cellRow)[fontRow] {
                    // Each font dot covers `labelDot` points; dots past the cell are cut off.
                    for k in 0..<labelDot {
                        let px = cellStart + labelInset + dot * labelDot + k
                        if px >= x, px < cellEnd, px < cellStart + cell { row[px - x0] = labelColor }
                    }
                }
            }
            x = cellEnd
        }
    }

    /// Label dot columns by cell for the cell row being drawn, each worked out once.
    struct LabelCache {
        private var row: Int?
        private var byColumn: [Int: [[Int]]] = [:]

        /// For each of the 5 font rows, the font columns set in the label of cell (column, row).
        mutating func dots(column: Int, row: Int) -> [[Int]] {
            if row != self.row {
                self.row = row
                byColumn.removeAll(keepingCapacity: true)
            }
            if let known = byColumn[column] { return known }
            var rows = [[Int]](repeating: [], count: 5)
            for (index, character) in TestCard.label(column: column, row: row).enumerated() {
                guard let glyph = TestCard.glyphs[character] else { continue }
                for fy in 0..<5 {
                    for c in 0..<3 where glyph[fy] & (4 >> UInt8(c)) != 0 { rows[fy].append(index * 4 + c) }
                }
            }
            byColumn[column] = rows
            return rows
        }
    }

    // A 3×5 dot font for the label characters, one row per entry, bit 2 = leftmost column.
    static let glyphs: [Character: [UInt8]] = [
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7],
        "4": [5, 5, 7, 1, 1], "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1],
        "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7], ",": [0, 0, 0, 2, 4], "-": [0, 0, 7, 0, 0],
    ]

    /// Whether font dot (x, y) of `text` is set; glyphs are 3 dots wide plus 1 of spacing.
    static func labelDot(text: String, x: Int, y: Int) -> Bool {
        guard y < 5 else { return false }
        let index = x / 4, column = x % 4
        guard column < 3, index < text.count else { return false }
        let character = text[text.index(text.startIndex, offsetBy: index)]
        guard let rows = glyphs[character] else { return false }
        return rows[y] & (4 >> UInt8(column)) != 0
    }
}

/// The test card as tiled content of any size: the renderer draws it tile by tile at any
/// scale, so the live viewer scrolls and zooms it like a picture.
public final class TestCardView: View, TiledContent {
    /// Draws content pixels: pixel (x, y) at `scale` shows the card's point (⌊x/scale⌋, ⌊y/scale⌋).
    public func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        Self.drawCard(rect, scale: scale, into: target)
    }

    /// The card never changes: any thread may draw it.
    public func concurrentDrawing() -> TileDrawing? {
        TileDrawing { rect, scale, target in TestCardView.drawCard(rect, scale: scale, into: target) }
    }

    /// `draw`, without a view.
    static func drawCard(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        guard scale > 0, scale.isFinite else { return }
        if scale == 1 {
            TestCard.draw(into: target, rect: target.bounds, offsetX: rect.x, offsetY: rect.y)
            return
        }
        let width = min(rect.width, target.width), height = min(rect.height, target.height)
        guard width > 0, height > 0 else { return }
        // The card's point of each pixel column, then each point row built once and spread
        // over the pixels showing it; consecutive pixel rows on the same point row repeat it.
        let columns = (0..<width).map { Int((Double(rect.x + $0) / scale).rounded(.down)) }
        let first = columns[0], last = columns[width - 1]
        var points = [UInt32](repeating: 0, count: last - first + 1)
        var line = [UInt32](repeating: 0, count: width)
        var labels = TestCard.LabelCache()
        var previous: Int?
        for y in 0..<height {
            let py = Int((Double(rect.y + y) / scale).rounded(.down))
            if py != previous {
                TestCard.pointRow(y: py, x0: first, into: &points, labels: &labels)
                for x in 0..<width { line[x] = points[columns[x] - first] }
                previous = py
            }
            target.write(line, x: 0, y: y)
        }
    }

    /// Every pixel of the card is opaque.
    public var isOpaqueContent: Bool { true }
    /// Drawing reads nothing mutable, so tiles may be drawn on both cores.
    public var drawsConcurrently: Bool { true }
}
