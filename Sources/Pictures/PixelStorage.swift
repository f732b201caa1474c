// Owned decoded pixels (packed ARGB, planar YCbCr, or a vector document) and the raw-memory loops that draw them.
#if canImport(Glibc)
import Glibc
#endif
import CFileMapping
import Raster

/// Premultiplied ARGB8888 pixels in stored (not yet oriented) order, owned by this object.
///
/// Immutable once the decoder has filled it, which is what makes sharing across threads
/// safe; only the decoder writes, through `base`, before the object is published.
final class ARGBPixels: SharedPixelFile, @unchecked Sendable {
    let width: Int
    let height: Int
    let base: UnsafeMutablePointer<UInt32>
    /// Gives back memory this object adopted from a C library (see `init(adopting:…)`) or made
    /// shared (`init(sharedWidth:…)`); nil for memory from malloc, which `deinit` frees.
    private let release: (() -> Void)?
    /// The memfd holding the pixels when they were made shared, for the compositor to map.
    let sharedFile: Int32?
    /// Whether every pixel is opaque: found by `noteOpacity` before the pixels are published,
    /// false until then.
    private(set) var isOpaque = false

    /// Allocates zeroed storage; callers checked the size against the limits first, so the
    /// multiplication cannot overflow. `zeroed: false` skips the zeroing for a decoder that
    /// writes every pixel before anything reads them (a full-size decode saves a pass over
    /// hundreds of megabytes).
    ///
    /// Zeroed storage comes from calloc, whose large blocks are fresh zero pages from the
    /// kernel: memory becomes resident only as the decoder writes rows, so a file that
    /// declares a huge size and fails after a few rows never costs the whole size.
    ///
    /// Nil when the system refuses the memory (the budget said it was there, but limits such
    /// as `ulimit -v` can still say no).
    init?(width: Int, height: Int, zeroed: Bool = true) {
        self.width = width
        self.height = height
        let count = max(1, width * height)
        guard let raw = zeroed ? calloc(count, 4) : malloc(count * 4) else { return nil }
        base = raw.bindMemory(to: UInt32.self, capacity: count)
        release = nil
        sharedFile = nil
    }

    /// Zeroed pixels in a memfd another process can map (`SharedPixelFile`): an SVG's render,
    /// which a window at rest hands to the compositor as it is. Nil when the system refuses.
    init?(sharedWidth width: Int, height: Int) {
        let length = max(1, width * height) * 4
        var bytes: UnsafeMutableRawPointer?
        let file = scrollkit_shared_memory(length, &bytes)
        guard file >= 0, let bytes else { return nil }
        self.width = width
        self.height = height
        base = bytes.bindMemory(to: UInt32.self, capacity: max(1, width * height))
        sharedFile = file
        release = { scrollkit_shared_memory_free(file, bytes, length) }
    }

    /// Adopts `width`×`height` pixels a C library decoded into memory of its own (rows of
    /// exactly `width` pixels), so a picture is not copied once more; `release` gives that
    /// memory back when these pixels go.
    init(adopting memory: UnsafeMutableRawPointer, width: Int, height: Int, release: @escaping () -> Void) {
        self.width = width
        self.height = height
        base = memory.bindMemory(to: UInt32.self, capacity: max(1, width * height))
        self.release = release
        sharedFile = nil
    }

    /// Finds whether every pixel is opaque (`isOpaque`); the maker calls it once it has written
    /// them, before anything else sees them.
    func noteOpacity() {
        var opaque = true
        for i in 0..<(width * height) where base[i] >> 24 != 0xFF {
            opaque = false
            break
        }
        isOpaque = opaque
    }

    /// Pixels for a decoder: as `init`, but a refusal is the file's error, with the figures.
    static func make(width: Int, height: Int, zeroed: Bool = true, file: String) throws(PictureError) -> ARGBPixels {
        guard let pixels = ARGBPixels(width: width, height: height, zeroed: zeroed) else {
            throw PictureError(file: file, kind: .insufficientMemory(width: width, height: height, needed: width * height * 4,
                                                                     available: SystemMemory.available() ?? 0))
        }
        return pixels
    }

    /// Pixels for a small picture (a preview within its pixel budget, an animation frame
    /// whose canvas was just allocated): failing there means the process is out of memory
    /// altogether, which nothing can recover from.
    static func small(width: Int, height: Int, zeroed: Bool = true) -> ARGBPixels {
        guard let pixels = ARGBPixels(width: width, height: height, zeroed: zeroed) else {
            fatalError("out of memory for a \(width)×\(height) picture")
        }
        return pixels
    }

    deinit {
        if let release { release() } else { free(base) }
    }

    /// Bytes held.
    var byteCount: Int { width * height * 4 }

    /// The pixels as a framebuffer, for decoders and resamplers that write into them.
    var framebuffer: Framebuffer { Framebuffer(base: base, width: width, height: height, stride: width) }

    /// The pixels as a mutable span, for a decoder written without pointers
    /// (JPEGPreviewDecoder); the span lives only as long as `body`.
    func withMutableSpan<R>(_ body: (inout MutableSpan<UInt32>) -> R) -> R {
        var span = UnsafeMutableBufferPointer(start: base, count: width * height).mutableSpan
        return body(&span)
    }

    /// Rows `rows` of the pixels as a mutable span, so that threads can fill disjoint rows.
    func withMutableSpan<R>(rows: Range<Int>, _ body: (inout MutableSpan<UInt32>) -> R) -> R {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows \(rows) of \(height)")
        var span = UnsafeMutableBufferPointer(start: base + rows.lowerBound * width, count: rows.count * width).mutableSpan
        return body(&span)
    }

    /// Raw bytes for C decoders that write 4 bytes per pixel.
    var rawBytes: UnsafeMutablePointer<UInt8> {
        UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt8.self)
    }

    /// Premultiplies straight-alpha pixels in place: c' = (c·a + 127) / 255 per channel,
    /// the rounding that keeps an opaque pixel unchanged and a transparent one zero.
    func premultiply() {
        for i in 0..<(width * height) {
            let p = base[i]
            let a = p >> 24
            if a == 255 { continue }
            if a == 0 { base[i] = 0; continue }
            let r = ((p >> 16 & 0xFF) * a + 127) / 255
            let g = ((p >> 8 & 0xFF) * a + 127) / 255
            let b = ((p & 0xFF) * a + 127) / 255
            base[i] = a << 24 | r << 16 | g << 8 | b
        }
    }

    /// Lowers any colour channel above its pixel's alpha to the alpha: files that declare
    /// premultiplied (associated) alpha can still hold colours that exceed it, which would
    /// blend as light out of nothing.
    func clampToAlpha() { Self.clampToAlpha(base, count: width * height) }

    /// The same for `count` pixels at `pixels` (a decoder's row).
    static func clampToAlpha(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count {
            let p = pixels[i]
            let a = p >> 24
            if a == 255 { continue }
            let r = min(p >> 16 & 0xFF, a), g = min(p >> 8 & 0xFF, a), b = min(p & 0xFF, a)
            pixels[i] = a << 24 | r << 16 | g << 8 | b
        }
    }

    /// Makes rows `from`… transparent: the part of a damaged picture that did not decode.
    func clearRows(from row: Int) {
        guard row < height else { return }
        (base + max(0, row) * width).update(repeating: 0, count: (height - max(0, row)) * width)
    }

    /// Swaps the first and third byte of each pixel in the first `rows` rows: R, G, B, A as
    /// libtiff, libjxl and libheif deliver them, to B, G, R, A (little-endian ARGB).
    func swapRedBlue(rows: Int) { Self.swapRedBlue(base, count: min(rows, height) * width) }

    /// The same for `count` pixels at `pixels`.
    static func swapRedBlue(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count {
            let p = pixels[i]
            pixels[i] = p & 0xFF00_FF00 | (p & 0xFF) << 16 | (p >> 16) & 0xFF
        }
    }

    /// Converts Adobe-style CMYK (as libjpeg delivers it: 255 means no ink, so the values
    /// are inverted) to opaque RGB: R = C·K/255, the conversion libjpeg-turbo itself uses.
    func convertInvertedCMYK() {
        let bytes = rawBytes
        for i in 0..<(width * height) {
            let c = UInt32(bytes[4 * i]), m = UInt32(bytes[4 * i + 1])
            let y = UInt32(bytes[4 * i + 2]), k = UInt32(bytes[4 * i + 3])
            let r = (c * k + 127) / 255, g = (m * k + 127) / 255, b = (y * k + 127) / 255
            base[i] = 0xFF00_0000 | r << 16 | g << 8 | b
        }
    }
}

/// How chroma planes are upsampled back to luma resolution.
enum ChromaUpsampling: Sendable {
    /// Full-resolution chroma (4:4:4) or no chroma at all.
    case none
    /// libjpeg's "fancy" triangle filters (jdsample.c), so tiles match a full decode.
    case h2v1, h1v2, h2v2
    /// Pixel replication by integer factors (4:1:1 and other layouts).
    case replicate(h: Int, v: Int)
}

/// A JPEG's decoded samples kept as planes (Y, or Y + Cb + Cr): 1.5 bytes per pixel for
/// 4:2:0 instead of 4, converted to ARGB only for the tiles that are drawn.
final class PlanarPixels: @unchecked Sendable {
    let width: Int
    let height: Int
    let planes: [UnsafeMutablePointer<UInt8>]
    let planeWidths: [Int]
    let planeHeights: [Int]
    let upsampling: ChromaUpsampling
    // The hot loops read these scalars rather than the arrays above (no bounds checks or
    // reference counting per pixel).
    private let luma: UnsafeMutablePointer<UInt8>
    private let cb: UnsafeMutablePointer<UInt8>?
    private let cr: UnsafeMutablePointer<UInt8>?
    private let lumaStride: Int
    private let chromaStride: Int
    private let chromaRows: Int

    /// Allocates planes of the given sizes (one for grayscale, three for YCbCr).
    /// The embedded profile's conversion to sRGB, applied to each converted span (planes
    /// stay as the file coded them, so the colour conversion happens per tile too).
    let transform: ColorTransform?

    init(width: Int, height: Int, planeWidths: [Int], planeHeights: [Int], upsampling: ChromaUpsampling,
         transform: ColorTransform? = nil) {
        self.transform = transform
        self.width = width
        self.height = height
        self.planeWidths = planeWidths
        self.planeHeights = planeHeights
        self.upsampling = upsampling
        planes = zip(planeWidths, planeHeights).map { w, h in
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, w * h))
            p.initialize(repeating: 0, count: max(1, w * h))
            return p
        }
        luma = planes[0]
        lumaStride = planeWidths[0]
        cb = planes.count == 3 ? planes[1] : nil
        cr = planes.count == 3 ? planes[2] : nil
        chromaStride = planes.count == 3 ? planeWidths[1] : 0
        chromaRows = planes.count == 3 ? planeHeights[1] : 0
    }

    deinit { planes.forEach { $0.deallocate() } }

    /// Bytes held by all planes.
    var byteCount: Int { zip(planeWidths, planeHeights).reduce(0) { $0 + $1.0 * $1.1 } }

    /// Chroma sample of `plane` at luma position (x, y), upsampled like libjpeg-turbo.
    @inline(__always)
    private func chroma(_ plane: UnsafeMutablePointer<UInt8>, _ x: Int, _ y: Int) -> Int {
        let pw = chromaStride, ph = chromaRows
        switch upsampling {
        case .none:
            return Int(plane[y * pw + x])
        case .h2v1:
            let cx = x >> 1, row = plane + y * pw
            let near = Int(row[cx]) * 3
            if x & 1 == 0 { return (near + Int(row[max(cx - 1, 0)]) + 1) >> 2 }
            return (near + Int(row[min(cx + 1, pw - 1)]) + 2) >> 2
        case .h1v2:
            let cy = y >> 1
            let near = Int(plane[cy * pw + x]) * 3
            if y & 1 == 0 { return (near + Int(plane[max(cy - 1, 0) * pw + x]) + 1) >> 2 }
            return (near + Int(plane[min(cy + 1, ph - 1) * pw + x]) + 2) >> 2
        case .h2v2:
            let cx = x >> 1, cy = y >> 1
            let ncy = y & 1 == 0 ? max(cy - 1, 0) : min(cy + 1, ph - 1)
            let ncx = x & 1 == 0 ? max(cx - 1, 0) : min(cx + 1, pw - 1)
            let row = plane + cy * pw, other = plane + ncy * pw
            let this = 3 * Int(row[cx]) + Int(other[cx])
            let side = 3 * Int(row[ncx]) + Int(other[ncx])
            return (3 * this + side + (x & 1 == 0 ? 8 : 7)) >> 4
        case .replicate(let h, let v):
            return Int(plane[(y / v) * pw + x / h])
        }
    }

    /// Writes `count` opaque ARGB pixels of stored pixels (x, y), (x+dx, y+dy), … to `out`,
    /// with JFIF YCbCr→RGB (BT.601 full range) in the fixed-point form of libjpeg's
    /// jdcolor.c, so results match tjDecompress2 exactly.
    func convert(x: Int, y: Int, dx: Int, dy: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        convertYCbCr(x: x, y: y, dx: dx, dy: dy, count: count, into: out)
        transform?.apply(row: UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt8.self), count: count)
    }

    private func convertYCbCr(x: Int, y: Int, dx: Int, dy: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        var x = x, y = y
        guard let cb, let cr else {
            for i in 0..<count {
                let v = UInt32(luma[y * lumaStride + x])
                out[i] = 0xFF00_0000 | v << 16 | v << 8 | v
                x += dx; y += dy
            }
            return
        }
        let t = YCbCrTables.shared
        for i in 0..<count {
            let l = Int(luma[y * lumaStride + x])
            let b = chroma(cb, x, y), r = chroma(cr, x, y)
            let red = clamp255(l + t[r]), blue = clamp255(l + t[256 + b])
            let green = clamp255(l + ((t[512 + b] + t[768 + r]) >> YCbCrTables.scaleBits))
            out[i] = 0xFF00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
            x += dx; y += dy
        }
    }
}

@inline(__always)
private func clamp255(_ v: Int) -> Int { v < 0 ? 0 : (v > 255 ? 255 : v) }

/// libjpeg's YCbCr→RGB lookup tables (jdcolor.c build_ycc_rgb_table), 16 fraction bits,
/// in one immortal allocation: [Cr→R | Cb→B | Cb→G | Cr→G], 256 entries each.
enum YCbCrTables {
    /// 16 bits: SCALEBITS in jdcolor.c.
    static let scaleBits = 16
    static func fix(_ x: Double) -> Int { Int(x * Double(1 << scaleBits) + 0.5) }

    /// The four tables, [Cr→R | Cb→B | Cb→G | Cr→G].
    static let values: [Int] = {
        let half = 1 << (scaleBits - 1)
        var table = [Int](repeating: 0, count: 1024)
        for i in 0..<256 {
            let c = i - 128
            table[i] = (fix(1.40200) * c + half) >> scaleBits   // 1.402: Cr→R (JFIF 1.02)
            table[256 + i] = (fix(1.77200) * c + half) >> scaleBits  // 1.772: Cb→B (JFIF 1.02)
            table[512 + i] = -fix(0.34414) * c + half           // −0.34414: Cb→G, carries the rounding
            table[768 + i] = -fix(0.71414) * c                  // −0.71414: Cr→G
        }
        return table
    }()

    /// `values` for the pointer loops.
    nonisolated(unsafe) static let shared: UnsafePointer<Int> = {
        let table = UnsafeMutablePointer<Int>.allocate(capacity: 1024)
        for i in 0..<1024 { table[i] = values[i] }
        return UnsafePointer(table)
    }()
}

/// Decoded pixels in whichever form the decoder chose, or a vector document.
enum PixelStorage: Sendable {
    case argb(ARGBPixels)
    case planar(PlanarPixels)
    /// Shapes rendered per tile at the scale drawn (SVG); width and height are nominal.
    case vector(SVGDocument)
    /// Levels of a picture too large to keep whole, or kept with its screen-size level (see
    /// PixelLevels.swift); width and height are those of its finest level kept.
    case pyramid(PixelPyramid)

    var width: Int {
        switch self {
        case .argb(let p): return p.width
        case .planar(let p): return p.width
        case .vector(let d): return d.width
        case .pyramid(let p): return p.top.width
        }
    }

    var height: Int {
        switch self {
        case .argb(let p): return p.height
        case .planar(let p): return p.height
        case .vector(let d): return d.height
        case .pyramid(let p): return p.top.height
        }
    }

    /// Pixel memory held; a vector document holds none (its parsed form is small).
    var byteCount: Int {
        switch self {
        case .argb(let p): return p.byteCount
        case .planar(let p): return p.byteCount
        case .vector: return 0
        case .pyramid(let p): return p.byteCount
        }
    }

    /// Writes `count` displayed pixels of displayed row `dy`, starting at displayed column
    /// `dx`, into `out`. The caller keeps the span inside the displayed image.
    func readRow(_ map: StoredMapping, dx: Int, dy: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let start = map.stored(dx, dy)
        switch self {
        case .argb(let p):
            let first = p.base + start.y * p.width + start.x
            if map.xStep == (1, 0) {
                out.update(from: first, count: count)
            } else {
                let step = map.xStep.y * p.width + map.xStep.x
                for i in 0..<count { out[i] = first[i * step] }
            }
        case .planar(let p):
            p.convert(x: start.x, y: start.y, dx: map.xStep.x, dy: map.xStep.y, count: count, into: out)
        case .vector(let d):
            // Vector pictures are always upright: the row at scale 1.
            d.draw(PixelRect(x: dx, y: dy, width: count, height: 1), scaleX: 1, scaleY: 1,
                   into: Framebuffer(base: out, width: count, height: 1, stride: count))
        case .pyramid(let p):
            p.readRow(map, dx: dx, dy: dy, count: count, into: out)
        }
    }
}

/// Draws displayed pixels of `storage`, resampled, into a framebuffer.
enum TileRenderer {
    /// Fills `target` with the part of the scaled picture that `rect` covers.
    ///
    /// `rect` is in the coordinates of the picture scaled by `scaleX`×`scaleY` (picture
    /// pixel x covers scaled [x·scale, (x+1)·scale)); it lands at `target`'s origin.
    /// Scaled pixels outside the picture become transparent. Downscaling averages each
    /// output pixel's whole source footprint (box filter on premultiplied values, rounded);
    /// upscaling picks the nearest source pixel, leaving smooth zoom to Raster's resampler.
    static func draw(
        _ storage: PixelStorage, _ map: StoredMapping, displayWidth: Int, displayHeight: Int,
        rect: PixelRect, scaleX: Double, scaleY: Double, into target: Framebuffer
    ) {
        if case .vector(let document) = storage {
            document.draw(rect, scaleX: scaleX, scaleY: scaleY, into: target)
            return
        }
        if case .pyramid(let pyramid) = storage {
            pyramid.draw(rect: rect, scaleX: scaleX, scaleY: scaleY, into: target)
            return
        }
        let outW = min(rect.width, target.width), outH = min(rect.height, target.height)
        guard outW > 0, outH > 0, scaleX > 0, scaleY > 0, scaleX.isFinite, scaleY.isFinite else { return }
        // Source span [lo, hi) of output column/row o; empty when outside the picture.
        func span(_ o: Int, _ limit: Int, _ scale: Double) -> (Int, Int) {
            guard o >= 0 else { return (0, 0) }
            if scale == 1 { return o < limit ? (o, o + 1) : (0, 0) }
            if scale > 1 {
                let s = Int((Double(o) + 0.5) / scale)
                return s < limit ? (s, s + 1) : (0, 0)
            }
            let lo = Int((Double(o) / scale).rounded(.down))
            var hi = Int((Double(o + 1) / scale).rounded(.down))
            if hi <= lo { hi = lo + 1 }
            return lo < limit ? (lo, min(hi, limit)) : (0, 0)
        }
        let columns = (0..<outW).map { span(rect.x + $0, displayWidth, scaleX) }
        let covered = columns.filter { $0.1 > $0.0 }
        let srcX0 = covered.first?.0 ?? 0
        let srcX1 = covered.last?.1 ?? 0
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, srcX1 - srcX0))
        defer { row.deallocate() }
        var sums = [Int](repeating: 0, count: outW * 4)
        let direct = scaleX == 1 && scaleY == 1 && rect.x >= 0 && rect.x + outW <= displayWidth

        for oy in 0..<outH {
            let dst = target.base + oy * target.stride
            let (y0, y1) = span(rect.y + oy, displayHeight, scaleY)
            guard y1 > y0, srcX1 > srcX0 else {
                dst.update(repeating: 0, count: outW)
                continue
            }
            if direct {
                storage.readRow(map, dx: rect.x, dy: y0, count: outW, into: dst)
                continue
            }
            if scaleX >= 1 && y1 - y0 == 1 {
                storage.readRow(map, dx: srcX0, dy: y0, count: srcX1 - srcX0, into: row)
                for ox in 0..<outW {
                    let (x0, x1) = columns[ox]
                    dst[ox] = x1 > x0 ? row[x0 - srcX0] : 0
                }
                continue
            }
            for i in 0..<sums.count { sums[i] = 0 }
            for sy in y0..<y1 {
                storage.readRow(map, dx: srcX0, dy: sy, count: srcX1 - srcX0, into: row)
                for ox in 0..<outW {
                    let (x0, x1) = columns[ox]
                    guard x1 > x0 else { continue }
                    var a = 0, r = 0, g = 0, b = 0
                    for sx in x0..<x1 {
                        let p = row[sx - srcX0]
                        a += Int(p >> 24); r += Int(p >> 16 & 0xFF); g += Int(p >> 8 & 0xFF); b += Int(p & 0xFF)
                    }
                    sums[4 * ox] += a; sums[4 * ox + 1] += r; sums[4 * ox + 2] += g; sums[4 * ox + 3] += b
                }
            }
            for ox in 0..<outW {
                let (x0, x1) = columns[ox]
                let n = (x1 - x0) * (y1 - y0)
                guard n > 0 else { dst[ox] = 0; continue }
                func avg(_ s: Int) -> UInt32 { UInt32((s + n / 2) / n) }
                dst[ox] = avg(sums[4 * ox]) << 24 | avg(sums[4 * ox + 1]) << 16
                    | avg(sums[4 * ox + 2]) << 8 | avg(sums[4 * ox + 3])
            }
        }
    }

    /// Resamples a whole stored image into `target` (stored orientation kept), with
    /// independent factors so the output covers the source edge to edge.
    static func drawAnisotropic(_ storage: PixelStorage, scaleX: Double, scaleY: Double, into target: Framebuffer) {
        let map = Orientation.up.storedMapping(storedWidth: storage.width, storedHeight: storage.height)
        draw(storage, map, displayWidth: storage.width, displayHeight: storage.height,
             rect: target.bounds, scaleX: scaleX, scaleY: scaleY, into: target)
    }

    /// One displayed pixel.
    static func pixel(_ storage: PixelStorage, _ map: StoredMapping, x: Int, y: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutablePointer(to: &value) { storage.readRow(map, dx: x, dy: y, count: 1, into: $0) }
        return value
    }
}
