// The damage stage: what a frame changed since the one before (from the display lists alone,
// plus content changed inside views), and what a buffer drawn some frames ago must repaint.
import Foundation

/// The damage of the last frames, for buffers of any age up to `length`.
struct DamageHistory {
    /// Damage of this many past frames is kept, for buffer ages up to that (Wayland hosts
    /// rotate 2–4 buffers).
    static let length = 8
    /// Damage of the last frames, oldest first.
    private(set) var frames: [PixelRegion] = []
    /// Size of the last frame's target; nil before the first frame or when the next frame must
    /// change everything (a new output scale).
    private var targetSize: (width: Int, height: Int)?

    /// Makes the next frame change every pixel of its target.
    mutating func forgetTarget() {
        targetSize = nil
    }

    /// Records the damage of a frame drawn into `target` that shows `items` where the previous
    /// frame showed `previous`, with `changes` inside content views (invalidated and remade
    /// cells): the pixels that differ from the previous frame, within `target`. A target of
    /// another size changes everything, and forgets older damage.
    mutating func record(_ changes: PixelRegion, items: [DisplayItem], previous: [DisplayItem],
                         target: PixelRect) -> PixelRegion {
        var damage = changes
        if targetSize.map({ $0 != (target.width, target.height) }) ?? true {
            targetSize = (target.width, target.height)
            frames.removeAll()
            damage = PixelRegion([target])
        } else {
            damage.formUnion(items.damage(since: previous))
        }
        damage.clip(to: target)
        frames.append(damage)
        if frames.count > Self.length { frames.removeFirst(frames.count - Self.length) }
        return damage
    }

    /// The pixels to paint into a buffer that holds what was drawn `bufferAge` frames before
    /// the frame just recorded (0, or older than the history: unknown, all of `target`).
    func repaint(bufferAge: Int, target: PixelRect) -> PixelRegion {
        var repaint = PixelRegion()
        if bufferAge <= 0 || bufferAge > frames.count {
            repaint.add(target)
        } else {
            for d in frames.suffix(bufferAge) { repaint.formUnion(d) }
        }
        return repaint
    }
}

extension Array where Element == DisplayItem {
    /// The pixels that differ between a frame showing `old` and one showing `self`, judged
    /// from the items alone (content changes inside a view are added by the caller).
    func damage(since old: [DisplayItem]) -> PixelRegion {
        var region = PixelRegion()
        let oldByID = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let newIDs = Set(map(\.id))
        // Stacking order of the items both frames share: a change repaints all of them.
        let sharedOld = old.filter { newIDs.contains($0.id) }.map(\.id)
        let sharedNew = filter { oldByID[$0.id] != nil }.map(\.id)
        if sharedOld != sharedNew {
            for item in old { region.add(item.bounds) }
            for item in self { region.add(item.bounds) }
            return region
        }
        for item in self {
            if let before = oldByID[item.id] {
                if before != item {
                    if case .content(let a) = before.kind, case .content(let b) = item.kind, before.bounds == item.bounds,
                       before.opaque == item.opaque, a.sameGeometry(b) {
                        // Content in place (a zoom settling, stand-ins sharpening): only cells
                        // whose source changed differ.
                        region.formUnion(Self.changedCells(a, b, bounds: item.bounds))
                    } else {
                        region.add(before.bounds)
                        region.add(item.bounds)
                    }
                }
            } else {
                region.add(item.bounds)
            }
        }
        for item in old where !newIDs.contains(item.id) { region.add(item.bounds) }
        return region
    }

    /// The device pixels of the visible cells whose source differs between `a` and `b`, two
    /// placements of the same geometry shown within `bounds`. Changed cells are merged into
    /// runs along each tile row, and equal runs of consecutive rows into one rect, so the
    /// region stays small (all cells changed: the bounds, one rect).
    static func changedCells(_ a: ContentPlacement, _ b: ContentPlacement, bounds: PixelRect) -> PixelRegion {
        var rects: [PixelRect] = []
        let visible = bounds.offsetBy(dx: -b.originX, dy: -b.originY).intersection(b.extent)
        guard !visible.isEmpty else { return PixelRegion() }
        let t = TileGrid.size
        var open: [PixelRect] = []  // the previous row's runs, still growing downwards
        for row in floorDiv(visible.y, t)...floorDiv(visible.maxY - 1, t) {
            var runs: [PixelRect] = []
            var run: PixelRect?
            for column in floorDiv(visible.x, t)...floorDiv(visible.maxX - 1, t) {
                let cell = CellIndex(column: column, row: row)
                guard a.source(of: cell) != b.source(of: cell) else {
                    if let r = run { runs.append(r) }
                    run = nil
                    continue
                }
                let r = PixelRect(x: column * t, y: row * t, width: t, height: t)
                run = run.map { $0.union(r) } ?? r
            }
            if let r = run { runs.append(r) }
            var next: [PixelRect] = []
            for r in runs {
                if let k = open.firstIndex(where: { $0.x == r.x && $0.width == r.width && $0.maxY == r.y }) {
                    next.append(open.remove(at: k).union(r))
                } else {
                    next.append(r)
                }
            }
            rects.append(contentsOf: open)
            open = next
        }
        rects.append(contentsOf: open)
        return PixelRegion(rects.map { $0.offsetBy(dx: b.originX, dy: b.originY).intersection(bounds) })
    }
}
