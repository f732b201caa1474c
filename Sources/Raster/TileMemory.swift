// Tiles' pixel memory faulted in before the frame that needs it: a renderer with time on its
// hands (its host waits for a decoder) writes it now, and the next tiles made take it.
import Synchronization

/// Pixel memory for a renderer's next tiles, made ready ahead of need (`Renderer.reserveTiles`).
///
/// A new tile's 256 KB come from the kernel as 64 fresh pages, each faulted in and cleared at
/// its first write: the 55 tiles of a 2560×1600 photo's first frame at 1920×1080 are 14 MB,
/// 11–12 ms of one core here (measured touching a fresh anonymous mapping of that size), paid
/// while that frame is drawn. Written while the decoder still works, the blocks are in memory
/// when the frame takes them. Tiles made beyond the reserve get fresh memory as before.
final class TileMemory: Sendable {
    /// One tile's pixels, allocated and zeroed; owned by the reserve until taken.
    private struct Block: @unchecked Sendable {
        let pixels: UnsafeMutablePointer<UInt32>
    }

    /// Pixels of one tile.
    private static let tilePixels = TileGrid.size * TileGrid.size
    private let blocks = Mutex<[Block]>([])

    /// An empty reserve.
    init() {}

    deinit { release() }

    /// Blocks waiting to be taken.
    var count: Int { blocks.withLock { $0.count } }

    /// Fills the reserve up to `count` blocks, each written now (zero: transparent black, as
    /// `OwnedFramebuffer(width:height:)` gives a tile).
    func reserve(_ count: Int) {
        let missing = count - self.count
        guard missing > 0 else { return }
        let made = (0..<missing).map { _ in
            let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.tilePixels)
            pixels.initialize(repeating: 0, count: Self.tilePixels)
            return Block(pixels: pixels)
        }
        blocks.withLock { $0.append(contentsOf: made) }
    }

    /// A zeroed tile-sized framebuffer: a reserved block while there is one, fresh memory after.
    func tile() -> OwnedFramebuffer {
        if let block = blocks.withLock({ $0.popLast() }) {
            return OwnedFramebuffer(adopting: block.pixels, width: TileGrid.size, height: TileGrid.size)
        }
        return OwnedFramebuffer(width: TileGrid.size, height: TileGrid.size)!
    }

    /// Gives the blocks not taken back to the allocator; returns how many there were.
    @discardableResult
    func release() -> Int {
        let left = blocks.withLock { b in defer { b.removeAll() }; return b }
        for block in left { block.pixels.deallocate() }
        return left.count
    }
}
