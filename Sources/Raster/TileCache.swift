// Rendered tiles kept between frames, evicted least-recently-used under a byte budget.
import Foundation

/// Identifies a tile: which view, at which scale, which cell of the grid.
public struct TileKey: Hashable, Sendable {
    /// The renderer's serial number for the content view (never reused, unlike addresses).
    public var view: UInt64
    /// Device pixels per point of the tile's pixels, as its bit pattern (a power of two for
    /// tiles the content draws, the exact zoom scale for resampled ones).
    public var scaleBits: UInt64
    /// Column of the tile: it covers content pixels `column·size ..< (column+1)·size`.
    public var column: Int
    /// Row of the tile.
    public var row: Int

    /// Creates a key.
    public init(view: UInt64, scale: Double, column: Int, row: Int) {
        self.view = view
        self.scaleBits = scale.bitPattern
        self.column = column
        self.row = row
    }

    /// Device pixels per point of the tile.
    public var scale: Double { Double(bitPattern: scaleBits) }
}

/// The pixels of one tile and what the renderer needs to know about them.
final class Tile: @unchecked Sendable {
    /// The tile's pixels, content pixel (column·size, row·size) at (0, 0): `TileGrid.size`²
    /// pixels of its own, or a window onto content's stored pixels that may end at the
    /// content's edge (nothing reads a tile beyond the content). Immutable once published.
    let framebuffer: Framebuffer
    /// Every pixel of the tile is opaque: blit by copying instead of blending.
    let isOpaque: Bool
    /// The memory `framebuffer` is in: the tile's own, or the content's (`StoredPixels.owner`).
    private let owner: AnyObject
    /// The tile shows content's stored pixels instead of holding a copy.
    let isBorrowed: Bool

    init(pixels: OwnedFramebuffer, isOpaque: Bool) {
        framebuffer = pixels.framebuffer
        owner = pixels
        self.isOpaque = isOpaque
        isBorrowed = false
    }

    /// A tile showing `window`, content pixels of `stored` (`window(onto:cell:)`).
    init(borrowing stored: StoredPixels, window: Framebuffer, isOpaque: Bool) {
        framebuffer = window
        owner = stored.owner
        self.isOpaque = isOpaque
        isBorrowed = true
    }

    /// The part of `stored` that `cell` covers, as a framebuffer over the same memory.
    static func window(onto stored: StoredPixels, cell: PixelRect) -> Framebuffer {
        let fb = stored.framebuffer
        precondition(cell.x >= 0 && cell.y >= 0 && cell.x < fb.width && cell.y < fb.height, "cell outside the stored pixels")
        return Framebuffer(base: fb.pointer(x: cell.x, y: cell.y), width: min(cell.width, fb.width - cell.x),
                           height: min(cell.height, fb.height - cell.y), stride: fb.stride)
    }

    /// Bytes of memory the tile holds: its pixels, or nothing when they are the content's
    /// (whoever keeps the content budgets those).
    var bytes: Int { isBorrowed ? 0 : framebuffer.width * framebuffer.height * 4 }
}

/// Least-recently-used tile storage that never holds more than `budget` bytes.
final class TileCache {
    /// Most bytes of tile pixels kept (0 keeps nothing).
    var budget: Int {
        didSet { evict(toFit: 0, olderThan: .max) }
    }
    /// Bytes of tile pixels currently kept.
    private(set) var bytes = 0

    private struct Node {
        var key: TileKey
        var tile: Tile
        var lastUse: UInt64
        var newer: Int   // towards the most recently used end, -1 at it
        var older: Int   // towards the least recently used end, -1 at it
    }

    private var nodes: [Node?] = []
    private var free: [Int] = []
    private var index: [TileKey: Int] = [:]
    private var newest = -1, oldest = -1

    init(budget: Int) {
        self.budget = max(budget, 0)
    }

    /// Number of tiles kept.
    var count: Int { index.count }

    /// Whether a tile is kept, without counting as a use.
    func contains(_ key: TileKey) -> Bool { index[key] != nil }

    /// The tile for `key`, without counting as a use.
    func peek(_ key: TileKey) -> Tile? { index[key].flatMap { nodes[$0]?.tile } }

    /// The tile for `key`, marked as used in frame `frame`.
    func lookup(_ key: TileKey, frame: UInt64) -> Tile? {
        guard let i = index[key], var node = nodes[i] else { return nil }
        node.lastUse = frame
        nodes[i] = node
        unlink(i)
        link(i)
        return node.tile
    }

    /// Keeps `tile` if it fits the budget after evicting tiles last used before `protectFrom`
    /// (pass `.max` to allow evicting anything). Returns whether the tile was kept.
    @discardableResult
    func insert(_ key: TileKey, _ tile: Tile, frame: UInt64, protectFrom: UInt64 = .max) -> Bool {
        remove(key)
        guard budget > 0, tile.bytes <= budget, evict(toFit: tile.bytes, olderThan: protectFrom) else { return false }
        let node = Node(key: key, tile: tile, lastUse: frame, newer: -1, older: -1)
        let i: Int
        if let slot = free.popLast() { i = slot; nodes[i] = node } else { i = nodes.count; nodes.append(node) }
        index[key] = i
        link(i)
        bytes += tile.bytes
        return true
    }

    /// Whether `extra` more bytes would fit after evicting only tiles last used before
    /// `protectFrom`.
    func canFit(_ extra: Int, protectFrom: UInt64) -> Bool {
        var free = budget - bytes
        var i = oldest
        while free < extra, i >= 0, let node = nodes[i], node.lastUse < protectFrom {
            free += node.tile.bytes
            i = node.newer
        }
        return free >= extra
    }

    /// Bytes that could be stored after evicting only tiles last used before `protectFrom`.
    func spareBytes(protectFrom: UInt64) -> Int {
        var spare = budget - bytes
        var i = oldest
        while i >= 0, let node = nodes[i], node.lastUse < protectFrom {
            spare += node.tile.bytes
            i = node.newer
        }
        return max(spare, 0)
    }

    /// The keys of the kept tiles that match.
    func keys(where predicate: (TileKey) -> Bool) -> [TileKey] { index.keys.filter(predicate) }

    /// Drops the tile for `key`, if kept.
    func remove(_ key: TileKey) {
        guard let i = index.removeValue(forKey: key), let node = nodes[i] else { return }
        unlink(i)
        bytes -= node.tile.bytes
        nodes[i] = nil
        free.append(i)
    }

    /// Drops every tile whose key matches.
    func removeAll(where predicate: (TileKey) -> Bool) {
        for key in index.keys where predicate(key) { remove(key) }
    }

    /// Evicts least-recently-used tiles last used before `olderThan` until `extra` more bytes
    /// fit the budget; false when they cannot.
    @discardableResult
    private func evict(toFit extra: Int, olderThan: UInt64) -> Bool {
        while bytes + extra > budget {
            guard oldest >= 0, let node = nodes[oldest], node.lastUse < olderThan else { return false }
            remove(node.key)
        }
        return true
    }

    private func link(_ i: Int) {
        nodes[i]!.older = newest
        nodes[i]!.newer = -1
        if newest >= 0 { nodes[newest]!.newer = i }
        newest = i
        if oldest < 0 { oldest = i }
    }

    private func unlink(_ i: Int) {
        let node = nodes[i]!
        if node.older >= 0 { nodes[node.older]!.newer = node.newer } else { oldest = node.newer }
        if node.newer >= 0 { nodes[node.newer]!.older = node.older } else { newest = node.older }
        nodes[i]!.older = -1
        nodes[i]!.newer = -1
    }
}
