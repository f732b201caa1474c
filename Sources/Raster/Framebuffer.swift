// A view of 32-bit pixel memory with a stride: shm buffers and offscreen frames alike.
import Foundation

/// A rectangle in device pixels (integer), origin top-left.
public struct PixelRect: Hashable, Sendable {
    /// Left edge, in device pixels.
    public var x: Int
    /// Top edge, in device pixels (y grows downwards).
    public var y: Int
    /// Width, in device pixels; zero or less is empty.
    public var width: Int
    /// Height, in device pixels; zero or less is empty.
    public var height: Int

    /// Creates a pixel rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// True when the rectangle covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// Number of pixels covered (0 when empty).
    public var area: Int { isEmpty ? 0 : width * height }

    /// The overlap of two rectangles (empty when they do not overlap).
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}

/// Premultiplied ARGB8888 pixels (XRGB for opaque windows) in memory the framebuffer does
/// not own: an mmap'd shm buffer or an `OwnedFramebuffer`'s allocation.
///
/// The owner of the memory keeps it alive for as long as the `Framebuffer` is used.
public struct Framebuffer: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Distance between rows, in pixels (≥ width).
    public let stride: Int
    /// First pixel of the first row.
    public let base: UnsafeMutablePointer<UInt32>

    /// Wraps `base` as `height` rows of `width` pixels, `stride` pixels apart.
    public init(base: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int) {
        precondition(width >= 0 && height >= 0 && stride >= width, "invalid framebuffer geometry")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// The whole framebuffer as a pixel rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The pixel at (x, y); callers stay in bounds.
    @inline(__always)
    public subscript(x: Int, y: Int) -> UInt32 {
        get { base[y * stride + x] }
        nonmutating set { base[y * stride + x] = newValue }
    }

    /// Fills `rect`, clipped to the framebuffer, with one premultiplied pixel value.
    public func fill(_ rect: PixelRect, with pixel: UInt32) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<(r.y + r.height) {
            (base + y * stride + r.x).update(repeating: pixel, count: r.width)
        }
    }

    /// Fills `rect`, clipped to the framebuffer, with `pattern`'s squares, each `side` pixels,
    /// the first (`pattern.first`) with its top-left at (`originX`, `originY`).
    func fillChecker(_ rect: PixelRect, _ pattern: CheckerPattern, side: Int, originX: Int, originY: Int) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty, side > 0 else { return }
        // Every row of one parity is the same: each is written once and copied after.
        var written: [Int?] = [nil, nil]
        for y in r.y..<r.maxY {
            let row = base + y * stride + r.x
            let parity = Self.floorDivide(y - originY, side) & 1
            if let first = written[parity] {
                row.update(from: base + first * stride + r.x, count: r.width)
                continue
            }
            var x = r.x
            while x < r.maxX {
                let column = Self.floorDivide(x - originX, side)
                let end = min(r.maxX, originX + (column + 1) * side)
                let colour = (column + parity) & 1 == 0 ? pattern.first : pattern.second
                (base + y * stride + x).update(repeating: colour, count: end - x)
                x = end
            }
            written[parity] = y
        }
    }

    /// `a / b` rounded towards minus infinity (`b` > 0).
    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}

/// A framebuffer that owns its memory (offscreen rendering, tests, screenshots).
public final class OwnedFramebuffer: @unchecked Sendable {
    /// The pixels, valid while this object lives.
    public let framebuffer: Framebuffer
    private let storage: UnsafeMutablePointer<UInt32>
    private let count: Int

    /// Largest framebuffer this type allocates, in pixels (16384², 1 GiB): larger requests
    /// are refused instead of exhausting memory.
    public static let maxPixels = 16384 * 16384

    /// Allocates a zero-filled (transparent black) framebuffer; nil for a size that is
    /// negative or larger than `maxPixels`.
    public init?(width: Int, height: Int) {
        guard width >= 0, height >= 0, width.multipliedReportingOverflow(by: height).overflow == false,
              width * height <= Self.maxPixels else { return nil }
        count = max(width * height, 1)
        storage = .allocate(capacity: count)
        storage.initialize(repeating: 0, count: count)
        framebuffer = Framebuffer(base: storage, width: width, height: height, stride: width)
    }

    /// Allocates a framebuffer whose pixels are left as they happen to be, for a caller that
    /// writes every one of them before reading any; nil as for `init(width:height:)`.
    init?(uninitializedWidth width: Int, height: Int) {
        guard width >= 0, height >= 0, width.multipliedReportingOverflow(by: height).overflow == false,
              width * height <= Self.maxPixels else { return nil }
        count = max(width * height, 1)
        storage = .allocate(capacity: count)
        framebuffer = Framebuffer(base: storage, width: width, height: height, stride: width)
    }

    /// Takes `storage` (allocated for `width`×`height` pixels, all initialised) as its pixels: a
    /// tile's memory written ahead of need (`TileMemory`).
    init(adopting storage: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        count = max(width * height, 1)
        self.storage = storage
        framebuffer = Framebuffer(base: storage, width: width, height: height, stride: width)
    }

    deinit { storage.deallocate() }

    /// A copy of the pixels row by row (for tests and screenshots).
    public var pixels: [UInt32] {
        Array(UnsafeBufferPointer(start: storage, count: framebuffer.width * framebuffer.height))
    }
}

/// Pixel memory kept between frames for one piece of a frame's painting to gather resampling
/// sources into: a zoom frame gathers about a screenful, and fresh allocations of that size
/// come from the kernel as pages to fault in and clear (measured with perf: page faults and
/// clearing took ~5% of an offscreen zoom run).
final class ScratchPixels: @unchecked Sendable {
    private var storage: UnsafeMutablePointer<UInt32>?
    private var capacity = 0

    /// A framebuffer of `width`×`height` pixels in this memory, grown as needed; its pixels
    /// are whatever was left there. Valid until the next call; one thread at a time.
    func framebuffer(width: Int, height: Int) -> Framebuffer? {
        guard width >= 0, height >= 0, width.multipliedReportingOverflow(by: height).overflow == false,
              width * height <= OwnedFramebuffer.maxPixels else { return nil }
        let needed = max(width * height, 1)
        if needed > capacity {
            storage?.deallocate()
            storage = .allocate(capacity: needed)
            capacity = needed
        }
        return Framebuffer(base: storage!, width: width, height: height, stride: width)
    }

    deinit { storage?.deallocate() }
}
