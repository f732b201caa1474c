// PNG through libpng's full API, row by row (the C shim keeps libpng's longjmp out of Swift):
// a cut or corrupt file keeps the rows that decoded, and the colour chunks come out for
// LittleCMS (iCCP, sRGB, gAMA with cHRM, cICP). A large file's image data is inflated on a
// second core while libpng unfilters (CPNGStream).
import CPNG
import CPNGStream
import Raster

/// PNG header reading and decoding to straight-alpha ARGB.
enum PNGCodec {
    /// libpng's message when the data stopped early: our reader's, or libpng's own when
    /// the image data ends before the last row ("Not enough image data").
    static let endOfDataMessages = ["read beyond end of data", "Not enough image data"]

    /// 1032: deflate's largest expansion (a 258-byte match coded in 2 bits, RFC 1951), the
    /// most raw PNG bytes one compressed byte can yield.
    static let deflateMaxRatio = 1032

    /// 1 KiB: how much image data libpng reads at a time (see Reader.init).
    static let imageDataReadBytes = 1024
    /// 64 KiB: the same from a file read in place (decision: a system call per 64 KiB costs
    /// little beside inflating it).
    static let streamReadBytes = 1 << 16

    /// 256 KiB: image data from which a decode inflates it on a thread of its own (CPNGStream),
    /// when the viewer has two cores or more. (Decision: starting a thread costs tens of
    /// microseconds, inflating 256 KiB a few milliseconds; smaller files gain nothing to notice.)
    static let inflateAheadBytes = 1 << 18

    /// The bytes of image data a decode of a file with `chunks` inflates ahead on another thread
    /// needs for every row (`inflatedBytes`), nil when it inflates on libpng's thread: `request`
    /// when given, else when the file holds `inflateAheadBytes` of image data and the viewer
    /// has two cores or more.
    static func inflateAhead(_ chunks: ContainerInfo, header: CodecHeader, request: Bool?) -> Int? {
        guard request ?? (chunks.imageDataBytes >= inflateAheadBytes && Parallel.defaultWorkers > 1),
              chunks.width == header.width, chunks.height == header.height else { return nil }
        return inflatedBytes(width: header.width, height: header.height, bitDepth: chunks.bitDepth,
                             colorType: chunks.colorType, interlaced: chunks.interlaced)
    }

    /// The filtered image data of a `width`×`height` PNG: per row of each Adam7 pass (or of
    /// the picture) a filter byte and its samples' bytes (PNG §7.2, §8.2). Nil for a colour
    /// type PNG does not define.
    static func inflatedBytes(width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool) -> Int? {
        // Samples per pixel of colour types 0, 2, 3, 4, 6 (PNG §6.1).
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]
        guard let samples = channels[colorType] else { return nil }
        func bytes(_ w: Int, _ h: Int) -> Int { w > 0 && h > 0 ? h * ((w * samples * bitDepth + 7) / 8 + 1) : 0 }
        guard interlaced else { return bytes(width, height) }
        // Adam7's passes: first column and row, column and row steps (PNG §8.2).
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { total, p in
            total + bytes((width - p.0 + p.2 - 1) / p.2, (height - p.1 + p.3 - 1) / p.3)
        }
    }

    /// Image data inflated ahead by every decode of this process so far (for tests).
    static var inflatedAheadBytes: UInt64 { UInt64(scrollkit_png_stream_total_inflated()) }

    /// The chunk walk of `data`, or of `stream` when the file is read in place.
    static func chunks(_ data: [UInt8], stream: PictureFile?) -> ContainerInfo {
        guard let stream else { return Metadata.png(data) }
        return Metadata.png(size: stream.size) { offset, count in stream.bytes(at: offset, count: count) }
    }

    /// A libpng read over bytes in memory; read and info structs freed with this object.
    private final class Reader {
        var png: png_structp?
        var info: png_infop?
        let state: UnsafeMutablePointer<scrollkit_png_state>
        let file: String
        /// The thread inflating the image data ahead, when there is one.
        private let inflater: OpaquePointer?

        /// A read over `bytes`, or over `stream` (the file read in place) when there is one;
        /// with `inflateAhead`, through a CPNGStream thread that inflates the image data
        /// (`inflateAhead` bytes of it for every row; see `PNGCodec.inflateAhead`).
        init(_ bytes: UnsafeBufferPointer<UInt8>, file: String, stream: PictureFile? = nil,
             inflateAhead: Int? = nil) throws(PictureError) {
            self.file = file
            state = .allocate(capacity: 1)
            state.initialize(to: scrollkit_png_state())
            state.pointee.data = bytes.baseAddress
            state.pointee.size = bytes.count
            if let stream {
                state.pointee.from_file = 1
                state.pointee.fd = stream.fd
                state.pointee.size = stream.size
            }
            if let needed = inflateAhead, stream != nil || bytes.baseAddress != nil {
                inflater = scrollkit_png_stream_start(stream == nil ? bytes.baseAddress : nil, state.pointee.size, stream?.fd ?? -1, needed)
            } else {
                inflater = nil
            }
            if let inflater {
                state.pointee.pull = scrollkit_png_stream_read
                state.pointee.pull_message = scrollkit_png_stream_message
                state.pointee.pull_context = UnsafeMutableRawPointer(inflater)
            }
            guard let png = scrollkit_png_create(state), let info = png_create_info_struct(png) else {
                throw PictureError(file: file, kind: .corrupt(.png, "out of memory"))
            }
            self.png = png
            self.info = info
            if inflater != nil {
                // The rewritten image data carries no CRCs: the thread checked the file's, and
                // those of its other critical chunks (CPNGStream.h). (Its Adler-32: below.)
                png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_DEFAULT)
            }
            // A broken ancillary chunk (a bad iCCP, a wrong CRC in text) is a warning, not
            // a reason to refuse the picture (the default for reading, made explicit).
            png_set_benign_errors(png, 1)
            // libpng reads image data in blocks of this size (8 KiB by default) and cannot
            // use a block it could not read whole: small blocks let a cut file keep the
            // rows of all but its last kilobyte. A file read in place takes larger blocks,
            // each one a system call, and so does data inflated ahead (the thread inflates a
            // cut file's last block, and each read takes its lock).
            let large = stream != nil || inflater != nil
            png_set_compression_buffer_size(png, large ? PNGCodec.streamReadBytes : PNGCodec.imageDataReadBytes)
            guard scrollkit_png_read_info(png, info) != 0 else { throw error() }
            // The rewritten image data carries no Adler-32 either (the thread checked the file's).
            // Set once the chunks before it are read: libpng applies it to every zlib stream it
            // inflates from then on, and an iCCP profile's keeps its check.
            if inflater != nil { png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON) }
        }

        deinit {
            png_destroy_read_struct(&png, &info, nil)
            scrollkit_png_stream_stop(inflater)
            state.deallocate()
        }

        /// The error libpng reported, classified as truncation or corruption.
        func error() -> PictureError {
            let message = withUnsafeBytes(of: state.pointee.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if PNGCodec.endOfDataMessages.contains(where: message.contains) { return PictureError(file: file, kind: .truncated) }
            return PictureError(file: file, kind: .corrupt(.png, message.isEmpty ? "unknown error" : message))
        }
    }

    static func header(_ data: [UInt8], file: String, stream: PictureFile? = nil,
                       checkSize: (Int, Int) throws(PictureError) -> Void) throws(PictureError) -> CodecHeader {
        let chunks = chunks(data, stream: stream)
        // Our own IHDR read comes first so absurd sizes are refused before libpng runs.
        if let w = chunks.width, let h = chunks.height { try checkSize(w, h) }
        return try data.withBytes { (buffer) throws(PictureError) -> CodecHeader in
            let reader = try Reader(buffer, file: file, stream: stream)
            let png = reader.png, info = reader.info
            let w = Int(png_get_image_width(png, info)), h = Int(png_get_image_height(png, info))
            try checkSize(w, h)
            // zlib's own words for image data that is no zlib stream, said before sizing it.
            if chunks.imageDataIsZlib == false { throw PictureError(file: file, kind: .corrupt(.png, "IDAT: incorrect header check")) }
            // The image data present must be able to inflate to every row: a file padded
            // with other chunks, or cut, is refused before its pixels are allocated.
            let rowBytes = (w * Int(png_get_channels(png, info)) * Int(png_get_bit_depth(png, info)) + 7) / 8 + 1
            let (needed, overflow) = rowBytes.multipliedReportingOverflow(by: h)
            if overflow || needed > chunks.imageDataBytes * deflateMaxRatio {
                throw PictureError(file: file, kind: .truncated)
            }
            let colorType = Int32(png_get_color_type(png, info))
            var header = CodecHeader(width: w, height: h,
                                     hasAlpha: colorType & PNG_COLOR_MASK_ALPHA != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0)
            header.orientation = chunks.orientation
            header.isProgressive = png_get_interlace_type(png, info) == PNG_INTERLACE_ADAM7
            return header
        }
    }

    /// The colours' description, in the precedence of PNG 3rd edition §4.3: cICP, iCCP,
    /// sRGB, then gAMA with cHRM. Nil for sRGB and for files that say nothing.
    private static func color(_ reader: Reader, cicp: (primaries: Int, transfer: Int)?) -> ColorDescription? {
        let png = reader.png, info = reader.info
        if let cicp { return .cicp(primaries: cicp.primaries, transfer: cicp.transfer) }
        if png_get_valid(png, info, PNG_INFO_iCCP) != 0 {
            var name: png_charp?
            var compression: Int32 = 0
            var profile: png_bytep?
            var length: png_uint_32 = 0
            if png_get_iCCP(png, info, &name, &compression, &profile, &length) != 0, let profile, length > 0 {
                return .icc(Array(UnsafeBufferPointer(start: profile, count: Int(length))))
            }
        }
        if png_get_valid(png, info, PNG_INFO_sRGB) != 0 { return nil }
        var gamma = 0.0
        guard png_get_gAMA(png, info, &gamma) != 0 else { return nil }
        var wx = 0.0, wy = 0.0, rx = 0.0, ry = 0.0, gx = 0.0, gy = 0.0, bx = 0.0, by = 0.0
        let chromaticities = png_get_cHRM(png, info, &wx, &wy, &rx, &ry, &gx, &gy, &bx, &by) != 0
        return .gamma(gamma, chromaticities: chromaticities ? [wx, wy, rx, ry, gx, gy, bx, by] : nil)
    }

    /// Decodes the whole image to straight-alpha ARGB8888 in stored orientation, row by row.
    ///
    /// 16-bit samples are scaled to 8 bits by rounding (v·255/65535) and taken as encoded
    /// in the file's colour space like 8-bit ones; gray, palette and tRNS are expanded and
    /// Adam7 interlacing is undone by libpng. A cut or corrupt file keeps its decoded rows.
    /// Sets libpng's transformations for ARGB8888 rows (see `decode`) and checks the row
    /// layout; returns the interlace passes and whether the samples are gray.
    private static func prepareARGBRows(_ reader: Reader, header: CodecHeader) throws(PictureError) -> (passes: Int, gray: Bool) {
        let png = reader.png, info = reader.info
        let colorType = Int32(png_get_color_type(png, info))
        png_set_expand(png)               // palette → RGB, gray 1/2/4 → 8, tRNS → alpha
        png_set_scale_16(png)             // 16 → 8 bits, rounded
        png_set_gray_to_rgb(png)
        png_set_bgr(png)                  // B, G, R, A: little-endian ARGB
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER)  // opaque alpha where there is none
        let passes = Int(png_set_interlace_handling(png))
        guard scrollkit_png_read_update_info(png, info) != 0 else { throw reader.error() }
        let w = Int(png_get_image_width(png, info)), h = Int(png_get_image_height(png, info))
        guard w == header.width, h == header.height, png_get_rowbytes(png, info) == w * 4 else {
            throw PictureError(file: reader.file, kind: .corrupt(.png, "unexpected row layout"))
        }
        return (passes, colorType & PNG_COLOR_MASK_COLOR == 0)
    }

    /// `inflateAhead`: whether the image data is inflated on another thread (nil: when worth it).
    static func decode(_ data: [UInt8], file: String, stream: PictureFile? = nil, header: CodecHeader,
                       inflateAhead request: Bool? = nil) throws(PictureError) -> CodecOutput {
        let chunks = chunks(data, stream: stream)
        return try data.withBytes { (buffer) throws(PictureError) -> CodecOutput in
            let reader = try Reader(buffer, file: file, stream: stream,
                                    inflateAhead: inflateAhead(chunks, header: header, request: request))
            let png = reader.png
            let (passes, gray) = try prepareARGBRows(reader, header: header)
            let w = header.width, h = header.height
            let pixels = try ARGBPixels.make(width: w, height: h, file: file)
            let color = self.color(reader, cicp: chunks.cicp)
            let input: ColorTransform.Input? = gray ? .grayInBGRA : nil
            // Adam7 pass p covers this share of the pixels (PNG §8.2: 1/64, 1/64, 1/32, …, 1/2).
            let passShare = [1.0 / 64, 1.0 / 64, 1.0 / 32, 1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2]
            for pass in 0..<passes {
                for y in 0..<h {
                    guard scrollkit_png_read_row(png, pixels.rawBytes + y * w * 4) == 0 else { continue }
                    let problem = reader.error()
                    let done = passes == 1
                        ? Double(y) / Double(h)
                        : passShare.prefix(pass).reduce(0, +) + passShare[min(pass, 6)] * Double(y) / Double(h)
                    guard done > 0 else { throw problem }
                    if passes == 1 { pixels.clearRows(from: y) }
                    return CodecOutput(pixels: pixels, premultiplied: false, color: color, colorInput: input,
                                       damage: PictureDamage(error: problem, decodedFraction: done))
                }
            }
            return CodecOutput(pixels: pixels, premultiplied: false, color: color, colorInput: input)
        }
    }

    /// Decodes a non-interlaced PNG row by row straight into `plan`'s levels: each row is
    /// converted to sRGB and premultiplied as it arrives, so the full picture is never held
    /// unless the plan keeps it. Rows after a cut or corrupt stretch stay transparent, with
    /// the damage reported. `isCancelled` is polled every few rows; `inflateAhead` as in `decode`.
    static func decodeLevels(_ data: [UInt8], file: String, stream: PictureFile?, header: CodecHeader, plan: LevelPlan,
                             folder: String?, inflateAhead request: Bool? = nil,
                             isCancelled: () -> Bool) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) {
        let chunks = chunks(data, stream: stream)
        return try data.withBytes { (buffer) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) in
            let reader = try Reader(buffer, file: file, stream: stream,
                                    inflateAhead: inflateAhead(chunks, header: header, request: request))
            let png = reader.png
            let (passes, gray) = try prepareARGBRows(reader, header: header)
            precondition(passes == 1, "interlaced PNGs are decoded whole")
            let w = header.width, h = header.height
            guard let builder = LevelBuilder(plan: plan, orientation: header.orientation, folder: folder) else {
                throw PictureError(file: file, kind: .insufficientMemory(width: w, height: h, needed: plan.memoryBytes,
                                                                         available: SystemMemory.available() ?? 0))
            }
            let transform = self.color(reader, cicp: chunks.cicp).flatMap {
                ColorTransform($0, input: gray ? .grayInBGRA : .bgra(premultiplied: false))
            }
            for y in 0..<h {
                // 64 rows: a few milliseconds of a wide picture between looks.
                if y % 64 == 0, isCancelled() { throw PictureError(file: file, kind: .cancelled) }
                let row = header.hasAlpha ? builder.nextStraightRow : builder.nextRow
                let bytes = UnsafeMutableRawPointer(row).assumingMemoryBound(to: UInt8.self)
                guard scrollkit_png_read_row(png, bytes) != 0 else {
                    let problem = reader.error()
                    guard y > 0 else { throw problem }
                    return (builder.finish(complete: false), PictureDamage(error: problem, decodedFraction: Double(y) / Double(h)))
                }
                transform?.apply(row: bytes, count: w)
                if header.hasAlpha { builder.commitStraightRow() } else { builder.commitRow() }
            }
            return (builder.finish(complete: true), nil)
        }
    }
}
