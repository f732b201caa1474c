// BMP decoded here, from the bytes, with every read bounds-checked.
//
// Written for the project because no well-kept library is made for it on Debian: gdk-pixbuf's
// BMP loader is one of the loaders its maintainers call "weakly maintained" and no longer
// build by default (gdk-pixbuf meson_options.txt, "others"), and it would bring GLib's object
// system and a loader cache into the decoder for one format; ImageMagick is a whole image
// toolkit; stb_image says it is not meant for untrusted input. BMP itself is small: headers,
// a palette or bit masks, rows of samples, and two run-length codings.
#if canImport(Glibc)
import Glibc
#endif

/// BMP header reading and decoding, row by row into a picture's levels.
enum BMPCodec {
    /// BI_RGB, BI_RLE8, BI_RLE4, BI_BITFIELDS, BI_JPEG, BI_PNG, BI_ALPHABITFIELDS (wingdi.h).
    enum Compression: Int {
        case rgb = 0, rle8 = 1, rle4 = 2, bitfields = 3, jpeg = 4, png = 5, alphaBitfields = 6
    }

    /// Everything the headers say.
    struct Layout {
        var width: Int
        var height: Int
        var topDown: Bool
        var bitCount: Int
        var compression: Compression
        var pixelOffset: Int
        /// Channel masks for 16- and 32-bit pixels: red, green, blue, alpha.
        var masks: [UInt32]
        /// Palette as opaque ARGB, for 1–8-bit pixels.
        var palette: [UInt32]
        /// True when the file declares an alpha mask (V3+ headers, BI_ALPHABITFIELDS).
        var declaredAlpha: Bool
        /// An embedded ICC profile (V5 header, colour space "MBED").
        var icc: [UInt8]?

        /// Run-length coded (BI_RLE8, BI_RLE4): rows can only be decoded from the first.
        var isRunLength: Bool { compression == .rle8 || compression == .rle4 }
        /// Bytes of one uncompressed row, padded to 4. The size was checked against the pixel
        /// limit, so width × 32 bits cannot overflow.
        var rowBytes: Int { (width * bitCount + 31) / 32 * 4 }
    }

    /// A BMP's bytes: in memory, or its file read in place, of which `data` holds the headers.
    struct Source {
        let data: [UInt8]
        let stream: PictureFile?
        /// Bytes there are.
        var count: Int { stream?.size ?? data.count }

        /// `length` bytes at `offset`, or nil when the file does not hold them all.
        func bytes(at offset: Int, count length: Int) -> [UInt8]? {
            guard offset >= 0, length >= 0, offset <= count - length else { return nil }
            if offset <= data.count - length { return Array(data[offset..<(offset + length)]) }
            return stream?.bytes(at: offset, count: length)
        }
    }

    /// 4 KiB: what is read first of a file read in place, enough for the largest headers, their
    /// masks and a 256-colour palette (14 + 124 + 16 + 1024 bytes).
    static let headerBytes = 4096
    /// 16 MiB: the largest embedded profile read (decision: profiles cameras and editors embed
    /// are 0.5–60 KiB).
    static let maxProfileBytes = 16 << 20
    /// 1 MiB: how much of a file read in place is read at a time, a block of whole rows.
    static let blockBytes = 1 << 20

    /// The 'MBED' colour space type of a V5 header: the profile is in the file (wingdi.h PROFILE_EMBEDDED).
    static let profileEmbedded: UInt32 = 0x4D42_4544

    static func layout(_ source: Source, file: String) throws(PictureError) -> Layout {
        let b = source.data
        func u16(_ o: Int) -> Int? { Metadata.uint(b, o, 2, bigEndian: false) }
        func u32(_ o: Int) -> Int? { Metadata.uint(b, o, 4, bigEndian: false) }
        func i32(_ o: Int) -> Int? { u32(o).map { Int(Int32(bitPattern: UInt32($0))) } }
        func corrupt(_ message: String) -> PictureError { PictureError(file: file, kind: .corrupt(.bmp, message)) }
        let truncated = PictureError(file: file, kind: .truncated)
        guard let pixelOffset = u32(10), let infoSize = u32(14) else { throw truncated }
        guard b.count >= 14 + infoSize else { throw truncated }
        var layout: Layout
        let paletteEntryBytes: Int
        if infoSize == 12 {
            // OS/2 1.x BITMAPCOREHEADER: 16-bit sizes, 3-byte palette entries.
            guard let w = u16(18), let h = u16(20), let bits = u16(24) else { throw truncated }
            layout = Layout(width: w, height: h, topDown: false, bitCount: bits, compression: .rgb,
                            pixelOffset: pixelOffset, masks: [], palette: [], declaredAlpha: false)
            paletteEntryBytes = 3
        } else {
            guard infoSize >= 16, let w = i32(18), let h = i32(22), let bits = u16(28) else { throw truncated }
            let rawCompression = infoSize >= 20 ? (u32(30) ?? 0) : 0
            guard let compression = Compression(rawValue: rawCompression), infoSize != 64 || rawCompression < 3 else {
                // OS/2 2.x reuses 3 and 4 for Huffman 1D and RLE24, which nothing writes today.
                throw PictureError(file: file, kind: .unsupportedVariant(.bmp, "compression \(rawCompression)"))
            }
            guard h != Int(Int32.min) else { throw corrupt("invalid height") }
            layout = Layout(width: w, height: abs(h), topDown: h < 0, bitCount: bits, compression: compression,
                            pixelOffset: pixelOffset, masks: [], palette: [], declaredAlpha: false)
            paletteEntryBytes = 4
        }
        guard layout.width > 0, layout.height > 0 else { throw corrupt("invalid size \(layout.width)×\(layout.height)") }
        switch (layout.compression, layout.bitCount) {
        case (.rgb, 1), (.rgb, 4), (.rgb, 8), (.rgb, 16), (.rgb, 24), (.rgb, 32), (.rle8, 8), (.rle4, 4),
             (.bitfields, 16), (.bitfields, 32), (.alphaBitfields, 16), (.alphaBitfields, 32):
            break
        case (.jpeg, _), (.png, _):
            throw PictureError(file: file, kind: .unsupportedVariant(.bmp, "embedded \(layout.compression == .jpeg ? "JPEG" : "PNG")"))
        default:
            throw corrupt("\(layout.bitCount) bits per pixel with compression \(layout.compression.rawValue)")
        }

        // Masks: inside V2+ headers (offset 54), or right after a 40-byte header.
        var next = 14 + infoSize
        if layout.compression == .bitfields || layout.compression == .alphaBitfields {
            let count = layout.compression == .alphaBitfields ? 4 : 3
            let at = infoSize >= 52 ? 54 : next
            if infoSize < 52 { next += 4 * count }
            for i in 0..<count {
                guard let m = u32(at + 4 * i) else { throw truncated }
                layout.masks.append(UInt32(m))
            }
            if layout.masks.count == 3, infoSize >= 56, let a = u32(66) { layout.masks.append(UInt32(a)) }
        } else if layout.bitCount == 16 {
            layout.masks = [0x7C00, 0x03E0, 0x001F]  // 5-5-5, the BI_RGB default
        } else if layout.bitCount == 32 {
            layout.masks = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF]
            // BI_RGB leaves the fourth byte undefined, but V3+ headers may declare it alpha.
            if infoSize >= 56, let a = u32(66), a != 0 { layout.masks.append(UInt32(a)) }
        }
        while layout.masks.count < 4 { layout.masks.append(0) }
        layout.declaredAlpha = layout.masks[3] != 0
        for m in layout.masks where m != 0 {
            // Each mask must be one run of bits, or the channel's scale is meaningless.
            let shifted = m >> UInt32(m.trailingZeroBitCount)
            guard shifted & (shifted &+ 1) == 0 else { throw corrupt("non-contiguous bit mask") }
        }

        if layout.bitCount <= 8 {
            let declared = infoSize >= 36 ? (u32(46) ?? 0) : 0
            let maximum = 1 << layout.bitCount
            // clrUsed 0 means "all"; counts above the maximum are clamped (some writers pad).
            let count = declared == 0 || declared > maximum ? maximum : declared
            for i in 0..<count {
                let at = next + i * paletteEntryBytes
                // A palette cut by the pixel data's offset is read as far as it goes.
                guard at + 3 <= b.count, at + 3 <= max(pixelOffset, next + 3) else { break }
                layout.palette.append(0xFF00_0000 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 1]) << 8 | UInt32(b[at]))
            }
            guard !layout.palette.isEmpty else { throw corrupt("no palette") }
        }
        if infoSize >= 124, let type = u32(70), UInt32(type) == profileEmbedded,
           let offset = u32(14 + 112), let size = u32(14 + 116), size > 0 {
            // The profile offset counts from the info header's start (BITMAPV5HEADER).
            if size <= maxProfileBytes { layout.icc = source.bytes(at: 14 + offset, count: size) }
        }
        return layout
    }

    static func header(_ source: Source, file: String) throws(PictureError) -> CodecHeader {
        let l = try layout(source, file: file)
        // Not a single row in the file: refused before anything is sized by the header.
        if !l.isRunLength, source.count - l.pixelOffset < l.rowBytes { throw PictureError(file: file, kind: .truncated) }
        // Alpha for declared masks; BI_RGB 32-bit may carry it too (decided while decoding),
        // and run-length files may skip pixels, which stay transparent.
        let maybeAlpha = l.declaredAlpha || l.bitCount == 32 || l.isRunLength
        var header = CodecHeader(width: l.width, height: l.height, hasAlpha: maybeAlpha)
        // Run-length data is decoded onto a whole canvas; other files hold a block of rows.
        if l.isRunLength { header.workingBytesPerPixel = 4 } else { header.workingBytes = max(blockBytes, l.rowBytes) }
        return header
    }

    /// Decodes into `plan`'s levels. Uncompressed rows are read a block at a time (from the file
    /// when it is read in place, so it is never held whole), the top row first: bottom-up files,
    /// the usual kind, from their end. Run-length data, which only decodes from the bottom row,
    /// is decoded onto a whole canvas first. A file cut short keeps its rows, the rest
    /// transparent, and says how much decoded.
    static func decodeLevels(_ source: Source, file: String, header: CodecHeader, plan: LevelPlan, folder: String?,
                             isCancelled: () -> Bool) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) {
        let l = try layout(source, file: file)
        guard let builder = LevelBuilder(plan: plan, orientation: .up, folder: folder) else {
            throw PictureError(file: file, kind: .insufficientMemory(width: l.width, height: l.height, needed: plan.memoryBytes,
                                                                     available: SystemMemory.available() ?? 0))
        }
        let transform = l.icc.flatMap { ColorTransform(.icc($0), input: .bgra(premultiplied: false)) }
        let rows: Int
        if l.isRunLength {
            let canvas = try ARGBPixels.make(width: l.width, height: l.height, file: file)
            rows = decodeRLE(RunLengthReader(source), l, into: canvas)
            for y in 0..<l.height {
                builder.take(.straight, transform: transform) { $0.update(from: canvas.base + y * l.width, count: l.width) }
            }
        } else {
            rows = try decodeRows(source, l, file: file, into: builder, transform: transform, isCancelled: isCancelled)
        }
        guard rows < l.height else { return (builder.finish(complete: true), nil) }
        let problem = PictureError(file: file, kind: .truncated)
        guard rows > 0 else { throw problem }
        return (builder.finish(complete: true), PictureDamage(error: problem, decodedFraction: Double(rows) / Double(l.height)))
    }

    /// Uncompressed and bit-field rows into `builder`, top row first, a block of file rows at a
    /// time; returns how many rows the file held. Rows it lacks (the top of a cut bottom-up
    /// file, the bottom of a cut top-down one) are transparent.
    private static func decodeRows(_ source: Source, _ l: Layout, file: String, into builder: LevelBuilder,
                                   transform: ColorTransform?, isCancelled: () -> Bool) throws(PictureError) -> Int {
        let rowBytes = l.rowBytes
        let available = min(l.height, max(0, source.count - l.pixelOffset) / rowBytes)
        // Whole rows per block: at least one.
        let blockRows = max(1, blockBytes / rowBytes)
        let block = source.stream == nil ? nil : UnsafeMutablePointer<UInt8>.allocate(capacity: blockRows * rowBytes)
        defer { block?.deallocate() }
        /// File rows `first..<first + count` (count ≤ blockRows), contiguous, for `body`.
        func withFileRows(_ first: Int, _ count: Int, _ body: (UnsafePointer<UInt8>) -> Void) throws(PictureError) {
            let offset = l.pixelOffset + first * rowBytes
            if let block, let stream = source.stream {
                guard FileSource.read(stream.fd, into: block, count: count * rowBytes, at: offset) else {
                    // The file shrank since its size was taken, or cannot be read there.
                    throw PictureError(file: file, kind: errno == 0 ? .truncated : .unreadable(String(cString: strerror(errno))))
                }
                body(block)
            } else {
                source.data.withUnsafeBufferPointer { body($0.baseAddress! + offset) }
            }
        }
        // 32-bit BI_RGB: the fourth byte is alpha only if some pixel sets it (as Firefox does);
        // files that leave it zero would otherwise vanish. A first pass over the rows finds out.
        var useAlpha = l.declaredAlpha
        if l.bitCount == 32, !l.declaredAlpha, l.compression == .rgb {
            for first in stride(from: 0, to: available, by: blockRows) where !useAlpha {
                let count = min(blockRows, available - first)
                try withFileRows(first, count) { rows in
                    for r in 0..<count where !useAlpha {
                        let row = rows + r * rowBytes
                        useAlpha = stride(from: 3, to: l.width * 4, by: 4).contains { row[$0] != 0 }
                    }
                }
            }
        }
        let convert = RowConverter(l, useAlpha: useAlpha)
        let alpha: LevelBuilder.RowAlpha = useAlpha ? .straight : .premultiplied
        // Stored rows from the top: those the file lacks, then the rest a block at a time (a
        // bottom-up file's blocks from its end, each walked backwards).
        let missing = l.height - available
        if !l.topDown { builder.takeTransparentRows(missing) }
        for y in stride(from: 0, to: available, by: blockRows) {
            if isCancelled() { throw PictureError(file: file, kind: .cancelled) }
            let count = min(blockRows, available - y)
            let first = l.topDown ? y : available - y - count
            try withFileRows(first, count) { rows in
                for r in 0..<count {
                    let row = rows + (l.topDown ? r : count - 1 - r) * rowBytes
                    builder.take(alpha, transform: transform) { convert.row(row, into: $0) }
                }
            }
        }
        if l.topDown { builder.takeTransparentRows(missing) }
        return available
    }

    /// Turns a row of samples into ARGB (straight alpha, or opaque).
    private struct RowConverter {
        let l: Layout
        let useAlpha: Bool
        let shifts: [UInt32]
        let maxima: [UInt64]

        init(_ l: Layout, useAlpha: Bool) {
            self.l = l
            self.useAlpha = useAlpha
            shifts = l.masks.map { UInt32($0 == 0 ? 0 : $0.trailingZeroBitCount) }
            maxima = zip(l.masks, shifts).map { UInt64($0 >> $1) }
        }

        /// A channel's value scaled to 0…255, rounded; 64-bit so a 32-bit-wide mask cannot overflow.
        private func channel(_ v: UInt32, _ i: Int) -> UInt32 {
            let m = maxima[i]
            guard m != 0 else { return 0 }
            return UInt32((UInt64((v & l.masks[i]) >> shifts[i]) * 255 + m / 2) / m)
        }

        func row(_ src: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt32>) {
            switch l.bitCount {
            case 1, 4, 8:
                let perByte = 8 / l.bitCount, mask = (1 << l.bitCount) - 1
                l.palette.withUnsafeBufferPointer { palette in
                    for x in 0..<l.width {
                        let byte = Int(src[x / perByte])
                        let index = byte >> ((perByte - 1 - x % perByte) * l.bitCount) & mask
                        // Indices past the palette show its first colour (the palette may be short).
                        out[x] = index < palette.count ? palette[index] : palette[0]
                    }
                }
            case 24:
                for x in 0..<l.width {
                    out[x] = 0xFF00_0000 | UInt32(src[3 * x + 2]) << 16 | UInt32(src[3 * x + 1]) << 8 | UInt32(src[3 * x])
                }
            case 32 where l.masks == [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0] || l.masks == [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000]:
                // B, G, R and a fourth byte: the pixel as it stands, opaque unless that is alpha.
                let words = UnsafeRawPointer(src)
                for x in 0..<l.width {
                    let v = UInt32(littleEndian: words.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self))
                    out[x] = useAlpha ? v : v | 0xFF00_0000
                }
            default:  // 16 or 32 bits through the masks
                let bytes = l.bitCount / 8
                for x in 0..<l.width {
                    var v = UInt32(src[bytes * x]) | UInt32(src[bytes * x + 1]) << 8
                    if bytes == 4 { v |= UInt32(src[4 * x + 2]) << 16 | UInt32(src[4 * x + 3]) << 24 }
                    let a = useAlpha ? (l.masks[3] != 0 ? channel(v, 3) : v >> 24) : 255
                    out[x] = a << 24 | channel(v, 0) << 16 | channel(v, 1) << 8 | channel(v, 2)
                }
            }
        }
    }

    /// Reads run-length data front to back, from memory or a block at a time from the file.
    private final class RunLengthReader {
        private let source: Source
        private var window: [UInt8] = []
        private var windowStart = 0
        let count: Int

        init(_ source: Source) {
            self.source = source
            count = source.count
        }

        /// The byte at `offset` (< `count`); 0 when the file cannot be read there.
        subscript(offset: Int) -> UInt8 {
            if source.stream == nil { return source.data[offset] }
            if offset < windowStart || offset >= windowStart + window.count {
                windowStart = offset
                window = source.bytes(at: offset, count: min(BMPCodec.blockBytes, count - offset)) ?? [0]
            }
            return window[offset - windowStart]
        }
    }

    /// BI_RLE8 and BI_RLE4 (wingdi documentation, "Bitmap Compression"): runs of one index,
    /// literal runs padded to 16 bits, and escapes for end of line, end of bitmap and a
    /// move. Pixels the data skips stay transparent. Returns the rows finished, the height
    /// when the end-of-bitmap escape was reached.
    private static func decodeRLE(_ b: RunLengthReader, _ l: Layout, into pixels: ARGBPixels) -> Int {
        let four = l.compression == .rle4
        var pos = l.pixelOffset, x = 0, row = 0  // row counts from the bottom (or the top when top-down)
        func put(_ index: Int) {
            guard x < l.width, row < l.height else { return }
            let y = l.topDown ? row : l.height - 1 - row
            pixels.base[y * l.width + x] = index < l.palette.count ? l.palette[index] : l.palette[0]
            x += 1
        }
        while pos + 1 < b.count, row < l.height {
            let count = Int(b[pos]), value = Int(b[pos + 1])
            pos += 2
            if count > 0 {
                for i in 0..<count { put(four ? (i % 2 == 0 ? value >> 4 : value & 0x0F) : value) }
                continue
            }
            switch value {
            case 0: x = 0; row += 1
            case 1: return l.height
            case 2:
                guard pos + 1 < b.count else { return row }
                x += Int(b[pos]); row += Int(b[pos + 1])
                pos += 2
            default:
                // A literal run of `value` indices, padded to a whole number of 16-bit words.
                let bytes = four ? (value + 1) / 2 : value
                guard pos + bytes <= b.count else { return row }
                for i in 0..<value {
                    let byte = Int(b[pos + (four ? i / 2 : i)])
                    put(four ? (i % 2 == 0 ? byte >> 4 : byte & 0x0F) : byte)
                }
                pos += (bytes + 1) & ~1
            }
        }
        // Data that ends without the end-of-bitmap escape: a cut file.
        return min(row, l.height)
    }
}
