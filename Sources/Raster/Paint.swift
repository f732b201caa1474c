// The paint stage: a frame's display list painted over its repaint region from tiles in hand,
// skipping what opaque items hide, cut into bands across cores for large repaints.
import Foundation
import Synchronization

/// Paints display lists into targets, keeping scratch memory for the pieces painting at once
/// between frames.
final class FramePainter {
    /// Recursion depth of occlusion culling; deeper, items are simply drawn in order.
    static let occlusionDepth = 8
    /// Bands a large repaint is cut into per thread: 4 (decision: enough for threads that come
    /// free at different times to share the rest; each band of a 1080p frame still spans
    /// about 135 rows).
    static let bandsPerWorker = 4

    /// Memory the painting of a frame's pieces gathers resampling sources into, one per piece
    /// painting at once (at most one per thread): each piece takes one and puts it back. One
    /// per piece, kept for later frames, grew to 24 (8 bands of 3 repainted rects) holding
    /// 11 MB at 1920×1080 while the gallery paged (heaptrack).
    private let scratches = Mutex<[ScratchPixels]>([])

    /// Paints `items` over `repaint` into `target` from `tiles`, on up to `workers` threads
    /// when the repaint covers at least `parallelMinimumPixels`.
    func paint(_ items: [DisplayItem], over repaint: PixelRegion, into target: Framebuffer, tiles: [TileKey: Tile],
               workers: Int, parallelMinimumPixels: Int) {
        var pieces = repaint.rects
        let parallel = workers > 1 && repaint.area >= parallelMinimumPixels
        if parallel {
            // Horizontal bands: each thread writes its own rows. Four per thread, handed out
            // as threads come free: on a machine shared with the compositor and other work, one
            // band per thread left the frame waiting for whichever thread was held up.
            pieces = pieces.flatMap { r -> [PixelRect] in
                let bands = min(workers * Self.bandsPerWorker, max(r.height, 1))
                return (0..<bands).map { b in
                    let y0 = r.y + r.height * b / bands, y1 = r.y + r.height * (b + 1) / bands
                    return PixelRect(x: r.x, y: y0, width: r.width, height: y1 - y0)
                }
            }
        }
        Parallel.forEachBalanced(pieces.count, workers: parallel ? workers : 1) { i in
            let scratch = scratches.withLock { $0.popLast() } ?? ScratchPixels()
            Painter(items: items, tiles: tiles, target: target, scratch: scratch).paint(pieces[i], upTo: items.count, depth: 0)
            scratches.withLock { $0.append(scratch) }
        }
    }
}

/// Paints display items into a target; pure and read-only apart from the target's pixels
/// inside the rect it is given, so several painters may run on disjoint rects at once.
struct Painter {
    let items: [DisplayItem]
    let tiles: [TileKey: Tile]
    let target: Framebuffer
    /// Memory for resampling sources, this painter's alone.
    let scratch: ScratchPixels

    /// Paints items `0..<n` clipped to `rect`, skipping what an opaque item hides.
    func paint(_ rect: PixelRect, upTo n: Int, depth: Int) {
        guard !rect.isEmpty else { return }
        var top = n - 1
        while top >= 0 && !(items[top].opaque && items[top].bounds.intersects(rect)) { top -= 1 }
        if top < 0 || depth >= FramePainter.occlusionDepth {
            for j in 0..<n { draw(items[j], clip: rect) }
            return
        }
        let covered = items[top].bounds.intersection(rect)
        draw(items[top], clip: covered)
        for piece in rect.subtracting(covered) { paint(piece, upTo: top, depth: depth + 1) }
        for j in (top + 1)..<n { draw(items[j], clip: rect) }
    }

    func draw(_ item: DisplayItem, clip: PixelRect) {
        let r = item.bounds.intersection(clip)
        guard !r.isEmpty else { return }
        switch item.kind {
        case .fill(let color):
            target.blendFill(r, with: color)
        case .checker(let pattern, let originX, let originY, let side):
            target.fillChecker(r, pattern, side: side, originX: originX, originY: originY)
        case .content(let p):
            drawContent(p, in: r)
        case .indicator(let indicator, let rect, let pointScale):
            indicator.draw(in: rect, pointScale: pointScale, clip: r, into: target)
        }
    }

    private func drawContent(_ p: ContentPlacement, in r: PixelRect) {
        let visible = r.offsetBy(dx: -p.originX, dy: -p.originY).intersection(p.extent)
        guard !visible.isEmpty else { return }
        if (p.transient || p.paintsLevel) && p.standIns.isEmpty {
            drawScaled(p, visible)
            return
        }
        // One band per tile row, written destination row by destination row. The tiles
        // stay alive in `tiles` while their framebuffers are read. Stand-in cells are
        // scaled from their level's tiles, exactly as a zoom frame scales them; a zoom frame's
        // other cells from its own level, runs of neighbours at once.
        let size = TileGrid.size
        for row in floorDiv(visible.y, size)...floorDiv(visible.maxY - 1, size) {
            let y0 = max(visible.y, row * size), y1 = min(visible.maxY, (row + 1) * size)
            var spans: [RowSpan] = []
            var scaled: [(part: PixelRect, level: Int?)] = []
            for column in floorDiv(visible.x, size)...floorDiv(visible.maxX - 1, size) {
                let x0 = max(visible.x, column * size), x1 = min(visible.maxX, (column + 1) * size)
                let standIn = p.standIns[CellIndex(column: column, row: row)]
                if standIn != nil || p.transient {
                    // nil: the zoom frame's own level.
                    if let last = scaled.last, last.level == standIn, last.part.maxX == x0 {
                        scaled[scaled.count - 1].part.width += x1 - x0
                    } else {
                        scaled.append((PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), standIn))
                    }
                    continue
                }
                guard let tile = tiles[TileKey(view: p.view, scale: p.scale, column: column, row: row)] else { continue }
                spans.append(RowSpan(source: tile.framebuffer, sx: x0 - column * size, sy: y0 - row * size,
                                     dx: x0 + p.originX, width: x1 - x0, opaque: tile.isOpaque))
            }
            if !spans.isEmpty { target.composeBand(spans, dy: y0 + p.originY, rows: y1 - y0) }
            for (part, level) in scaled {
                guard let level else {
                    drawScaled(p, part)
                    continue
                }
                guard let standIn = p.standInLevels.first(where: { $0.level == level }) else { continue }
                drawScaled(p.scaled(from: standIn), part)
            }
        }
    }

    /// Content pixels `rect` of `p` resampled from its level's tiles.
    private func drawScaled(_ p: ContentPlacement, _ rect: PixelRect) {
        TileGrid.resample(p, output: rect, sources: tiles, into: target, at: (rect.x + p.originX, rect.y + p.originY),
                          blend: !p.opaque, scratch: scratch)
    }
}
