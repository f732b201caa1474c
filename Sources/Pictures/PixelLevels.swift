// A picture kept as levels (its stored size halved again and again), the finer ones in a private
// file when memory would not hold them, so a picture of any size is drawn within a memory budget.
#if canImport(Glibc)
import Glibc
#endif
import Raster
import SystemPackage

/// How much of a picture a decode keeps.
public enum PictureDetail: Sendable, Equatable {
    /// Enough to show the whole picture on a screen of `DecodeLimits.screenWidth`×
    /// `screenHeight` pixels (a gallery's neighbours).
    case screen
    /// As much as `DecodeLimits.memoryBudget` holds in memory: the full picture when it fits,
    /// else the finest reduction that does.
    case memory
    /// Full resolution: what `.memory` keeps, and the finer levels in a private file
    /// (`DecodeLimits.levelFolder`) beyond it; `.memory` when the format has no levels.
    case full
}

extension PictureDetail {
    /// The scale of the screen level of a `width`×`height` picture on a `screenWidth`×
    /// `screenHeight` screen (device pixels): the pixels per picture pixel a `.screen` decode
    /// keeps (1 for a picture the screen shows enlarged).
    public static func screenScale(width: Int, height: Int, screenWidth: Int, screenHeight: Int) -> Double {
        1 / Double(1 << LevelPlan.screenLevel(width: width, height: height, screenWidth: screenWidth, screenHeight: screenHeight))
    }
}

/// Where a decode keeps one level of a picture.
enum LevelPlace: Equatable {
    /// In memory, as ARGB.
    case memory
    /// In the picture's private level file, read a tile's rows at a time.
    case file
    /// Not kept: only passed through on the way to coarser levels.
    case none
}

/// Which levels of a picture a decode keeps, and where. Level k is the stored picture at
/// 1/2ᵏ of its size (each side rounded up), so each is a 2×2 average of the one before.
struct LevelPlan: Equatable {
    /// Stored size of each level, finest (the full picture) first.
    let widths: [Int]
    let heights: [Int]
    /// Where each level goes; the coarsest is always kept in memory.
    let places: [LevelPlace]

    /// Bytes of level `k` as ARGB.
    func bytes(_ k: Int) -> Int { widths[k] * heights[k] * 4 }

    /// Bytes the plan keeps in memory.
    var memoryBytes: Int { places.indices.filter { places[$0] == .memory }.reduce(0) { $0 + bytes($1) } }

    /// Bytes the plan writes to the level file.
    var fileBytes: Int { places.indices.filter { places[$0] == .file }.reduce(0) { $0 + bytes($1) } }

    /// The finest level kept.
    var first: Int { places.firstIndex { $0 != .none } ?? places.count - 1 }

    /// The plan for a picture stored as `width`×`height` (checked against the pixel limit),
    /// whose levels run from the full picture down to level `last`, the one a whole-screen
    /// view draws from.
    ///
    /// `.screen` keeps that level alone. `.memory` and `.full` keep every level in memory when
    /// they fit `memoryBudget` bytes, else the full picture and the screen level; past that the
    /// coarse levels stay in memory as far as the budget goes and, for `.full`, the finer ones
    /// go to the level file (when `canUseFile`).
    static func make(width: Int, height: Int, last: Int, detail: PictureDetail, memoryBudget: Int,
                     canUseFile: Bool) -> LevelPlan {
        var widths = [width], heights = [height]
        while widths.count <= last, widths.last! > 1 || heights.last! > 1 {
            widths.append((widths.last! + 1) / 2)
            heights.append((heights.last! + 1) / 2)
        }
        let count = widths.count, last = count - 1
        var places = [LevelPlace](repeating: .none, count: count)
        places[last] = .memory
        let bytes = { (k: Int) in widths[k] * heights[k] * 4 }
        if detail != .screen, count > 1 {
            if (0..<count).reduce(0, { $0 + bytes($1) }) <= memoryBudget {
                places = [LevelPlace](repeating: .memory, count: count)
            } else if bytes(0) + bytes(last) <= memoryBudget {
                places[0] = .memory
            } else {
                var used = bytes(last)
                var k = last - 1
                while k >= 0, used + bytes(k) <= memoryBudget {
                    places[k] = .memory
                    used += bytes(k)
                    k -= 1
                }
                while k >= 0, canUseFile, detail == .full {
                    places[k] = .file
                    k -= 1
                }
            }
        }
        return LevelPlan(widths: widths, heights: heights, places: places)
    }
}

extension LevelPlan {
    /// The level of a `width`×`height` picture a whole-screen view draws from: the coarsest
    /// whose scale is still at least the power of two nearest the scale that fits the picture
    /// on a `screenWidth`×`screenHeight` screen, turned either way (the renderer draws a
    /// settled view from that power of two). 0 for pictures the screen shows enlarged.
    static func screenLevel(width: Int, height: Int, screenWidth: Int, screenHeight: Int) -> Int {
        let (w, h) = (Double(max(width, 1)), Double(max(height, 1)))
        let (sw, sh) = (Double(max(screenWidth, 1)), Double(max(screenHeight, 1)))
        let fit = max(min(sw / w, sh / h), min(sw / h, sh / w))
        // The finer of two equally near powers of two; the tolerance absorbs rounding.
        let level = (-log2(fit) - 0.5 - 1e-9).rounded(.up)
        return level.isFinite ? max(0, min(Int(level), 62)) : 0
    }

    /// The first level of a `width`×`height` picture with at most `maxPixels` pixels.
    static func level(width: Int, height: Int, maxPixels: Int) -> Int {
        var (w, h, k) = (width, height, 0)
        while w * h > max(1, maxPixels), w > 1 || h > 1 {
            (w, h, k) = ((w + 1) / 2, (h + 1) / 2, k + 1)
        }
        return k
    }
}

/// A private file holding the levels memory cannot: made with mkstemp in a private folder and
/// unlinked at once, so only its descriptor names it and nothing is left behind, however the
/// process ends. Sized up front: rows never written (a damaged picture's) read as transparent
/// without taking disk space.
final class LevelFile: Sendable {
    private let fd: FileDescriptor

    /// A new file of `bytes` bytes in `folder`; nil when it cannot be made.
    init?(folder: String, bytes: Int) {
        var template = Array((folder + "/levels.XXXXXX").utf8CString)
        // mkstemp: created with O_EXCL and mode 0600 (swift-system makes no unique names, and
        // mkostemp, which would also set O_CLOEXEC, is not in Glibc's Swift overlay).
        let raw = mkstemp(&template)
        guard raw >= 0 else { return nil }
        unlink(template)
        _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
        let fd = FileDescriptor(rawValue: raw)
        do {
            try fd.resize(to: Int64(bytes))
        } catch {
            try? fd.close()
            return nil
        }
        self.fd = fd
    }

    deinit { try? fd.close() }

    /// Writes `count` bytes at `offset`; false when the system refused (a full disk).
    func write(_ bytes: UnsafeRawPointer, count: Int, at offset: Int) -> Bool {
        (try? fd.writeAll(toAbsoluteOffset: Int64(offset), UnsafeRawBufferPointer(start: bytes, count: count))) == count
    }

    /// Reads `count` bytes at `offset`; false when they cannot all be read.
    func read(into bytes: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Bool {
        var done = 0
        while done < count {
            let buffer = UnsafeMutableRawBufferPointer(start: bytes + done, count: count - done)
            guard let n = try? fd.read(fromAbsoluteOffset: Int64(offset + done), into: buffer), n > 0 else { return false }
            done += n
        }
        return true
    }
}

/// One level's pixels, premultiplied ARGB in stored orientation.
enum LevelPixels: Sendable {
    /// In memory.
    case memory(ARGBPixels)
    /// In a level file, row after row from `offset`.
    case file(LevelFile, offset: Int, width: Int, height: Int)

    var width: Int {
        switch self {
        case .memory(let p): return p.width
        case .file(_, _, let w, _): return w
        }
    }

    var height: Int {
        switch self {
        case .memory(let p): return p.height
        case .file(_, _, _, let h): return h
        }
    }

    /// Stored pixels `x..<x+w` of rows `y..<y+h` (inside the level) in a new buffer; rows
    /// the file cannot give stay transparent. Nil when the memory is refused.
    func read(x: Int, y: Int, width w: Int, height h: Int) -> ARGBPixels? {
        guard let out = ARGBPixels(width: w, height: h) else { return nil }
        for row in 0..<h {
            switch self {
            case .memory(let p):
                memcpy(out.base + row * w, p.base + (y + row) * p.width + x, w * 4)
            case .file(let file, let offset, let width, _):
                _ = file.read(into: out.base + row * w, count: w * 4, at: offset + ((y + row) * width + x) * 4)
            }
        }
        return out
    }
}

/// A picture as levels: level k is its stored pixels at 1/2ᵏ, and drawing at a scale reads
/// the coarsest level that still has a pixel for every pixel drawn (so a screen-size view of
/// a gigapixel picture reads a screen's worth). Levels finer than `first` are not kept (a
/// reduced picture); levels in a file are read a tile's footprint at a time.
final class PixelPyramid: Sendable {
    /// The levels, finest first; nil where not kept.
    let levels: [LevelPixels?]
    /// The finest level kept: the picture's pixels, as `PixelStorage` sees them.
    let first: Int
    /// The file's orientation, which maps each level's displayed pixels to stored ones.
    let orientation: Orientation

    init(levels: [LevelPixels?], orientation: Orientation) {
        self.levels = levels
        self.orientation = orientation
        first = levels.firstIndex { $0 != nil } ?? 0
    }

    /// The finest level kept.
    var top: LevelPixels { levels[first]! }

    /// The coarsest level alone, when it is in memory and finer ones are kept too.
    var coarsest: PixelPyramid? {
        guard let last = levels.lastIndex(where: { $0 != nil }), last > first, case .memory? = levels[last] else { return nil }
        return PixelPyramid(levels: levels.indices.map { $0 == last ? levels[last] : nil }, orientation: orientation)
    }

    /// `pixels`, level `level` of a picture, halved into level `level + 1` kept alone (a
    /// quarter of the memory), for `Picture.halved`. The halving is the one every level is
    /// made with (`LevelBuilder`).
    /// Nil for a single pixel, or when memory is refused.
    static func halving(_ pixels: ARGBPixels, level: Int, orientation: Orientation) -> PixelPyramid? {
        guard pixels.width > 1 || pixels.height > 1 else { return nil }
        let plan = LevelPlan(widths: [pixels.width, (pixels.width + 1) / 2], heights: [pixels.height, (pixels.height + 1) / 2],
                             places: [.none, .memory])
        guard let builder = LevelBuilder(plan: plan, orientation: orientation, folder: nil) else { return nil }
        builder.commitRows(of: pixels)
        let halved = builder.finish(complete: true).levels[1]
        return PixelPyramid(levels: (0...(level + 1)).map { $0 == level + 1 ? halved : nil }, orientation: orientation)
    }

    /// Memory held by the levels kept in memory, in bytes.
    var byteCount: Int {
        levels.reduce(0) { sum, level in
            if case .memory(let p)? = level { return sum + p.byteCount }
            return sum
        }
    }

    /// The level to draw from at `scale` (pixels drawn per pixel of `first`): the coarsest
    /// kept level whose pixels are still no larger than those drawn.
    func level(for scale: Double) -> Int {
        var chosen = first
        for k in (first + 1)..<max(first + 1, levels.count) where levels[k] != nil {
            // 1/2^(k - first) of `first`'s size; the tolerance keeps an exact power of two on
            // its own level despite rounding.
            guard Double(1 << (k - first)) * scale <= 1 + 1e-9 else { break }
            chosen = k
        }
        return chosen
    }

    /// The level `draw` copies unchanged at `scale` (relative to level `first`), when it is in
    /// memory and exactly that scale of `first` on both axes; nil otherwise.
    func storedPixels(scale: Double) -> StoredPixels? {
        guard scale > 0, scale.isFinite, case .memory(let pixels)? = levels[level(for: scale)] else { return nil }
        let top = self.top
        guard scale * Double(top.width) == Double(pixels.width), scale * Double(top.height) == Double(pixels.height) else {
            return nil
        }
        return StoredPixels(framebuffer: pixels.framebuffer, owner: pixels)
    }

    /// Draws `rect` of the picture scaled by `scaleX`×`scaleY` (relative to level `first`,
    /// displayed) into `target`, as `TileRenderer.draw` does for one level.
    func draw(rect: PixelRect, scaleX: Double, scaleY: Double, into target: Framebuffer) {
        guard scaleX > 0, scaleY > 0, scaleX.isFinite, scaleY.isFinite else { return }
        let k = level(for: min(scaleX, scaleY))
        guard let level = levels[k] else { return }
        let top = self.top
        let swaps = orientation.swapsAxes
        // Each level's size is rounded up, so its scale is the ratio of sizes, per axis.
        let (topW, topH) = swaps ? (top.height, top.width) : (top.width, top.height)
        let (w, h) = swaps ? (level.height, level.width) : (level.width, level.height)
        let sx = scaleX * Double(topW) / Double(w), sy = scaleY * Double(topH) / Double(h)
        let map = orientation.storedMapping(storedWidth: level.width, storedHeight: level.height)
        switch level {
        case .memory(let pixels):
            TileRenderer.draw(.argb(pixels), map, displayWidth: w, displayHeight: h, rect: rect,
                              scaleX: sx, scaleY: sy, into: target)
        case .file:
            // The displayed pixels the tile reads (one more each side than the spans need),
            // read as one stored block, drawn through a mapping moved onto the block.
            let outW = min(rect.width, target.width), outH = min(rect.height, target.height)
            let x0 = max(0, Int((Double(rect.x) / sx).rounded(.down)) - 1)
            let x1 = min(w, Int((Double(rect.x + outW) / sx).rounded(.up)) + 1)
            let y0 = max(0, Int((Double(rect.y) / sy).rounded(.down)) - 1)
            let y1 = min(h, Int((Double(rect.y + outH) / sy).rounded(.up)) + 1)
            guard x1 > x0, y1 > y0 else { return }
            let a = map.stored(x0, y0), b = map.stored(x1 - 1, y1 - 1)
            let bx = min(a.x, b.x), by = min(a.y, b.y)
            guard let block = level.read(x: bx, y: by, width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1) else { return }
            let moved = StoredMapping(origin: (map.origin.x - bx, map.origin.y - by), xStep: map.xStep, yStep: map.yStep)
            TileRenderer.draw(.argb(block), moved, displayWidth: w, displayHeight: h, rect: rect,
                              scaleX: sx, scaleY: sy, into: target)
        }
    }

    /// `count` displayed pixels of level `first` from (dx, dy) along `map` (which is that
    /// level's mapping), for single-pixel reads; drawing goes through `draw`.
    func readRow(_ map: StoredMapping, dx: Int, dy: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        switch top {
        case .memory(let pixels):
            PixelStorage.argb(pixels).readRow(map, dx: dx, dy: dy, count: count, into: out)
        case .file(let file, let offset, let width, _):
            for i in 0..<count {
                let p = map.stored(dx + i, dy)
                out[i] = 0
                _ = file.read(into: out + i, count: 4, at: offset + (p.y * width + p.x) * 4)
            }
        }
    }
}
