// A generated test card: coloured 100-point cells, grid lines and each cell's coordinates,
// so a screenshot shows exactly which part of the content is on screen.
import Foundation
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
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) {
                target[x, y] = color(x: x + offsetX, y: y + offsetY)
            }
        }
    }

    // A 3×5 dot font for the label characters, one row per entry, bit 2 = leftmost column.
    private static let glyphs: [Character: [UInt8]] = [
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
        guard scale > 0, scale.isFinite else { return }
        if scale == 1 {
            TestCard.draw(into: target, rect: target.bounds, offsetX: rect.x, offsetY: rect.y)
            return
        }
        for y in 0..<min(rect.height, target.height) {
            let py = Int((Double(rect.y + y) / scale).rounded(.down))
            for x in 0..<min(rect.width, target.width) {
                target[x, y] = TestCard.color(x: Int((Double(rect.x + x) / scale).rounded(.down)), y: py)
            }
        }
    }

    /// Every pixel of the card is opaque.
    public var isOpaqueContent: Bool { true }
    /// Drawing reads nothing mutable, so tiles may be drawn on both cores.
    public var drawsConcurrently: Bool { true }
}
