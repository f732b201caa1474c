// TIFF through libtiff, reading from memory: pages are the full-resolution directories, and
// pixels come from libtiff's RGBA interface one strip or tile row at a time (on two threads,
// each with its own handle, for a page of many strips), so a damaged file keeps the rows
// before the damage.
import CTIFF
import Dispatch
import Foundation
import Raster
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// TIFF header reading and decoding to premultiplied ARGB.
enum TIFFCodec {
    private static let library: String? = scrollkit_tiff_open().map { String(cString: $0) }

    /// Opens libtiff on first use: nil when ready, else why it cannot be used.
    static func openLibrary() -> String? { library }

    /// 256 MiB: the largest single buffer libtiff may allocate for one file (a strip, a
    /// tile, a tag's values), whatever sizes the file declares.
    static let maxSingleAllocation = 256 << 20

    /// An open TIFF over bytes in memory, with libtiff's messages captured instead of
    /// printed on stderr. Closed with this object.
    final class Handle {
        let tif: OpaquePointer
        private let source: MemorySource
        private let messages: Messages

        /// libtiff's error and warning texts for one file: the first error is what the
        /// user is told.
        final class Messages {
            var firstError: String?
        }

        /// The memory libtiff reads, or the file read in place (`stream`), with its read
        /// position.
        final class MemorySource {
            let bytes: UnsafeBufferPointer<UInt8>
            let stream: PictureFile?
            var position = 0
            init(_ bytes: UnsafeBufferPointer<UInt8>, stream: PictureFile?) {
                self.bytes = bytes
                self.stream = stream
            }
            /// Bytes there are to read.
            var size: Int { stream?.size ?? bytes.count }
        }

        init(_ bytes: UnsafeBufferPointer<UInt8>, file: String, stream: PictureFile? = nil) throws(PictureError) {
            source = MemorySource(bytes, stream: stream)
            messages = Messages()
            guard let options = scrollkit_TIFFOpenOptionsAlloc() else {
                throw PictureError(file: file, kind: .corrupt(.tiff, "out of memory"))
            }
            defer { scrollkit_TIFFOpenOptionsFree(options) }
            scrollkit_TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(TIFFCodec.maxSingleAllocation))
            let user = Unmanaged.passUnretained(messages).toOpaque()
            scrollkit_TIFFOpenOptionsSetErrorHandlerExtR(options, tiffError, user)
            scrollkit_TIFFOpenOptionsSetWarningHandlerExtR(options, tiffWarning, user)
            // "r": read; "M"/"m" unset: the map procedure below hands libtiff the bytes in
            // place, so strips are decoded straight from them.
            guard let tif = scrollkit_TIFFClientOpenExt(file, "r", Unmanaged.passUnretained(source).toOpaque(),
                                                        tiffRead, tiffWrite, tiffSeek, tiffClose, tiffSize,
                                                        tiffMap, tiffUnmap, options) else {
                throw TIFFCodec.failure(messages.firstError, file: file)
            }
            self.tif = tif
        }

        deinit { scrollkit_TIFFClose(tif) }

        /// The first error libtiff reported, and forgets it.
        func takeError() -> String? {
            defer { messages.firstError = nil }
            return messages.firstError
        }

        /// Reads a tag's value through TIFFVGetField (TIFFGetField is variadic, which Swift
        /// cannot call). Returns false when the tag is absent.
        func field<A>(_ tag: Int32, _ a: inout A) -> Bool {
            withUnsafeMutablePointer(to: &a) { pa in withVaList([pa]) { scrollkit_TIFFVGetField(tif, UInt32(tag), $0) } } != 0
        }

        /// Reads a tag whose value comes as a count and an array.
        func field<A, B>(_ tag: Int32, _ a: inout A, _ b: inout B) -> Bool {
            withUnsafeMutablePointer(to: &a) { pa in
                withUnsafeMutablePointer(to: &b) { pb in withVaList([pa, pb]) { scrollkit_TIFFVGetField(tif, UInt32(tag), $0) } }
            } != 0
        }
    }

    /// The text in a C character buffer, up to its terminating zero.
    static func text(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A libtiff message as a PictureError: running out of data is `.truncated`.
    static func failure(_ message: String?, file: String) -> PictureError {
        guard let message else { return PictureError(file: file, kind: .corrupt(.tiff, "cannot read the file")) }
        let endOfData = ["Read error", "Cannot read", "EOF", "past end", "Not enough data", "Incorrect count", "Seek error"]
        if endOfData.contains(where: message.contains) { return PictureError(file: file, kind: .truncated) }
        return PictureError(file: file, kind: .corrupt(.tiff, message))
    }

    /// Directories that are pictures of their own: not reduced-resolution copies
    /// (NewSubfileType bit 0, TIFF 6.0 §8), which are thumbnails or pyramid levels.
    static func pages(_ h: Handle) -> [Int] {
        let count = Int(scrollkit_TIFFNumberOfDirectories(h.tif))
        var pages: [Int] = []
        for d in 0..<count {
            guard scrollkit_TIFFSetDirectory(h.tif, tdir_t(d)) != 0 else { break }
            var subfileType: UInt32 = 0
            if h.field(TIFFTAG_SUBFILETYPE, &subfileType), subfileType & 1 != 0 {
                continue
            }
            pages.append(d)
        }
        _ = h.takeError()  // a broken later directory leaves the pages before it
        return pages
    }

    /// Opens `page` and checks libtiff can convert its samples; the handle is left on it.
    private static func open(_ bytes: UnsafeBufferPointer<UInt8>, file: String, stream: PictureFile? = nil,
                             page: Int) throws(PictureError) -> (Handle, CodecHeader) {
        let h = try Handle(bytes, file: file, stream: stream)
        let pages = pages(h)
        guard page >= 0, page < max(pages.count, 1) else {
            throw PictureError(file: file, kind: .noSuchPage(page: page, count: pages.count))
        }
        guard scrollkit_TIFFSetDirectory(h.tif, tdir_t(pages.isEmpty ? 0 : pages[page])) != 0 else {
            throw failure(h.takeError(), file: file)
        }
        var width: UInt32 = 0, height: UInt32 = 0
        guard h.field(TIFFTAG_IMAGEWIDTH, &width),
              h.field(TIFFTAG_IMAGELENGTH, &height) else {
            throw failure(h.takeError() ?? "no image size", file: file)
        }
        var message = [CChar](repeating: 0, count: 1024)
        guard scrollkit_TIFFRGBAImageOK(h.tif, &message) != 0 else {
            let text = text(message)
            throw PictureError(file: file, kind: .unsupportedVariant(.tiff, text.isEmpty ? "unsupported sample layout" : text))
        }
        // Alpha and orientation as the RGBA interface will see them: libtiff takes an extra
        // sample nobody declared as alpha, and replaces invalid orientations.
        var image = TIFFRGBAImage()
        guard scrollkit_TIFFRGBAImageBegin(&image, h.tif, 1, &message) != 0 else {
            throw failure(h.takeError() ?? text(message),
                          file: file)
        }
        let hasAlpha = image.alpha != 0, orientation = image.orientation
        scrollkit_TIFFRGBAImageEnd(&image)
        var header = CodecHeader(width: Int(width), height: Int(height), hasAlpha: hasAlpha)
        header.orientation = Orientation(rawValue: Int(orientation)) ?? .up
        header.pageCount = max(1, pages.count)
        // libtiff decodes a strip or tile into its own buffer before converting it.
        header.workingBytes = Int(scrollkit_TIFFIsTiled(h.tif) != 0 ? scrollkit_TIFFTileSize(h.tif) : scrollkit_TIFFStripSize(h.tif))
        _ = h.takeError()
        return (h, header)
    }

    static func header(_ data: [UInt8], file: String, stream: PictureFile? = nil, page: Int) throws(PictureError) -> CodecHeader {
        try data.withBytes { (buffer) throws(PictureError) -> CodecHeader in try open(buffer, file: file, stream: stream, page: page).1 }
    }

    /// One handle's RGBA interface, begun on its page, decoding bands of rows in the file's own
    /// order (asking for the file's orientation turns off libtiff's flips; the Orientation tag
    /// is applied when drawing, as EXIF orientation is).
    final class BandReader {
        let h: Handle
        private var image = TIFFRGBAImage()
        let width: Int, height: Int, bandRows: Int

        init(_ h: Handle, file: String, header: CodecHeader) throws(PictureError) {
            self.h = h
            var message = [CChar](repeating: 0, count: 1024)
            guard scrollkit_TIFFRGBAImageBegin(&image, h.tif, 1, &message) != 0 else {
                throw failure(h.takeError() ?? text(message), file: file)
            }
            image.req_orientation = image.orientation
            width = header.width
            height = header.height
            bandRows = bandHeight(h, height: header.height)
        }

        deinit { scrollkit_TIFFRGBAImageEnd(&image) }

        /// Decodes rows `first..<first + count` a band at a time into `rows` (`width`-pixel rows,
        /// R, G, B, A from the low byte as libtiff packs them); the rows done before a band failed.
        func decode(_ first: Int, _ count: Int, into rows: UnsafeMutablePointer<UInt32>) -> Int {
            var done = 0
            while done < count {
                let n = min(bandRows, count - done)
                image.row_offset = Int32(first + done)
                image.col_offset = 0
                guard scrollkit_TIFFRGBAImageGet(&image, rows + done * width, UInt32(width), UInt32(n)) != 0 else { break }
                done += n
            }
            return done
        }
    }

    /// How a page's rows are split for decoding: in chunks of whole bands, on one thread or two.
    struct Chunking: Equatable {
        let chunkRows: Int
        let threads: Int

        /// About 1 MiB of pixels a chunk (whole bands): 64 thread hand-overs for the benchmark's
        /// 6000×4000 picture, and three chunks held at once (decision).
        static let targetBytes = 1 << 20

        /// 8 MiB: the largest chunk decoded on two threads, whose three chunks are then held at
        /// once. The benchmark's 1-gigapixel tiled TIFF (31623 pixels wide, 256-row tiles: 32 MB
        /// a band) showed its first frame no sooner on two (6573 against 6392 ms, medians of 3
        /// launches alternating, fresh sway each) and peaked at 181 MB (decision).
        static let maxParallelChunkBytes = 8 << 20

        /// `threads` (the cores the viewer may use) only when there are at least 4 chunks of at
        /// most `maxParallelChunkBytes`: a file of one strip, as Pillow writes them, decodes on
        /// one thread. `targetBytes` other than the default only in tests: 1 makes every band a
        /// chunk.
        init(width: Int, height: Int, bandRows: Int, threads: Int, targetBytes: Int = Chunking.targetBytes) {
            let bandBytes = max(1, bandRows * width * 4)
            chunkRows = max(1, targetBytes / bandBytes) * bandRows
            let chunks = (height + chunkRows - 1) / chunkRows
            self.threads = threads >= 2 && chunks >= 4 && chunkRows * width * 4 <= Self.maxParallelChunkBytes ? 2 : 1
        }
    }

    /// Rows decoded in chunks on two threads (see `decodeRows`): the helper thread's handle and
    /// buffers, and the hand-over between the threads. The caller decodes chunks 0, 2, 4, …
    /// and the helper 1, 3, 5, … into its two buffers in turn; the caller takes every chunk in
    /// order, and a helper buffer is free again once taken.
    private final class Helper: @unchecked Sendable {
        let reader: BandReader
        let buffers: [ARGBPixels]
        /// Made at 0 and signalled once: libdispatch refuses to free a semaphore whose value is
        /// below the one it was made with, which a cancelled decode can leave.
        let free = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let ready = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let finished = DispatchSemaphore(value: 0)
        let stop = Atomic<Bool>(false)
        /// Rows decoded into each buffer; written before `ready` is signalled, read after.
        let decoded = Mutex<[Int]>([0, 0])

        init(reader: BandReader, buffers: [ARGBPixels]) {
            self.reader = reader
            self.buffers = buffers
            free.forEach { $0.signal() }
        }

        /// The helper thread's loop over chunks 1, 3, 5, … of `chunkRows` rows.
        func run(chunkRows: Int) {
            var j = 0
            while 2 * j + 1 < (reader.height + chunkRows - 1) / chunkRows {
                let slot = j % 2
                free[slot].wait()
                if stop.load(ordering: .acquiring) { break }
                let first = (2 * j + 1) * chunkRows, count = min(chunkRows, reader.height - first)
                let done = reader.decode(first, count, into: buffers[slot].base)
                decoded.withLock { $0[slot] = done }
                ready[slot].signal()
                if done < count { break }
                j += 1
            }
            finished.signal()
        }
    }

    /// Decodes the page `reader` is on in chunks of `chunking.chunkRows` rows and hands each to
    /// `take(rows, count)` in order on this thread; `helperReader` makes the second
    /// handle when `chunking` asks for two threads. Returns the rows taken and, when a band
    /// failed, the error; stops early when `isCancelled`.
    static func decodeRows(_ reader: BandReader, chunking: Chunking, file: String,
                           helperReader: () throws(PictureError) -> BandReader,
                           isCancelled: () -> Bool,
                           take: (UnsafeMutablePointer<UInt32>, Int) -> Void) throws(PictureError) -> (rows: Int, problem: PictureError?) {
        let (width, height, chunkRows) = (reader.width, reader.height, chunking.chunkRows)
        let own = try ARGBPixels.make(width: width, height: min(chunkRows, height), zeroed: false, file: file)
        guard chunking.threads == 2 else {
            var row = 0
            while row < height {
                if isCancelled() { throw PictureError(file: file, kind: .cancelled) }
                let count = min(chunkRows, height - row)
                let done = reader.decode(row, count, into: own.base)
                if done > 0 { take(own.base, done) }
                row += done
                if done < count { return (row, failure(reader.h.takeError(), file: file)) }
            }
            return (row, nil)
        }
        let buffers = [try ARGBPixels.make(width: width, height: chunkRows, zeroed: false, file: file),
                       try ARGBPixels.make(width: width, height: chunkRows, zeroed: false, file: file)]
        let helper = Helper(reader: try helperReader(), buffers: buffers)
        let thread = Thread { helper.run(chunkRows: chunkRows) }
        thread.name = "tiff bands"
        thread.start()
        defer {
            // The helper stops at its next chunk (a free buffer lets it see the flag), and its
            // handle and buffers outlive it.
            helper.stop.store(true, ordering: .releasing)
            helper.free.forEach { $0.signal() }
            helper.finished.wait()
        }
        var row = 0
        for c in 0..<((height + chunkRows - 1) / chunkRows) {
            if isCancelled() { throw PictureError(file: file, kind: .cancelled) }
            let count = min(chunkRows, height - row)
            let done: Int
            let h: Handle
            if c % 2 == 0 {
                done = reader.decode(row, count, into: own.base)
                h = reader.h
                if done > 0 { take(own.base, done) }
            } else {
                let slot = (c / 2) % 2
                helper.ready[slot].wait()
                done = helper.decoded.withLock { $0[slot] }
                h = helper.reader.h
                if done > 0 { take(helper.buffers[slot].base, done) }
                if done == count { helper.free[slot].signal() }
            }
            row += done
            if done < count { return (row, failure(h.takeError(), file: file)) }
        }
        return (row, nil)
    }

    /// Rows libtiff decodes at a time: a strip's, or a row of tiles'.
    private static func bandHeight(_ h: Handle, height: Int) -> Int {
        var band: UInt32 = 0
        if scrollkit_TIFFIsTiled(h.tif) != 0 {
            _ = h.field(TIFFTAG_TILELENGTH, &band)
        } else {
            _ = h.field(TIFFTAG_ROWSPERSTRIP, &band)
        }
        return max(1, min(Int(band == 0 ? UInt32(height) : band), height))
    }

    /// How `decodeLevels` splits the page with `threads` cores, and the bytes it holds beside
    /// the levels: its chunk buffers, and a second handle's strip or tile buffer on two threads.
    static func decodeMemory(_ data: [UInt8], file: String, stream: PictureFile?, page: Int,
                             threads: Int = Parallel.defaultWorkers) throws(PictureError) -> (chunking: Chunking, bytes: Int) {
        try data.withBytes { (buffer) throws(PictureError) -> (chunking: Chunking, bytes: Int) in
            let (h, checked) = try open(buffer, file: file, stream: stream, page: page)
            let chunking = Chunking(width: checked.width, height: checked.height,
                                    bandRows: bandHeight(h, height: checked.height), threads: threads)
            let rows = min(chunking.chunkRows, checked.height) * checked.width * 4
            return (chunking, chunking.threads == 2 ? 3 * rows + checked.workingBytes : rows)
        }
    }

    /// Decodes `page` in chunks of bands into `plan`'s levels, on two threads when `threads`
    /// allows (see `decodeRows`): each chunk's rows are converted to sRGB and premultiplied as
    /// they come, so only the chunks in flight are held beside the levels kept (a tiled picture
    /// of any size decodes in bands of its tile height). The file may be read in place
    /// (`stream`); each thread has its own handle, reading the bytes at its own offsets.
    static func decodeLevels(_ data: [UInt8], file: String, stream: PictureFile?, page: Int, header: CodecHeader,
                             plan: LevelPlan, folder: String?, threads: Int = Parallel.defaultWorkers,
                             chunkBytes: Int = Chunking.targetBytes,
                             isCancelled: () -> Bool) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) {
        try data.withBytes { (buffer) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) in
            let (h, checked) = try open(buffer, file: file, stream: stream, page: page)
            let width = checked.width
            let reader = try BandReader(h, file: file, header: checked)
            let chunking = Chunking(width: width, height: checked.height, bandRows: reader.bandRows, threads: threads,
                                    targetBytes: chunkBytes)
            guard let builder = LevelBuilder(plan: plan, orientation: checked.orientation, folder: folder) else {
                throw PictureError(file: file, kind: .insufficientMemory(width: width, height: checked.height,
                                                                         needed: plan.memoryBytes, available: SystemMemory.available() ?? 0))
            }
            // What the rows need, from the page's tags.
            let premultiplied = TIFFCodec.premultiplies(h)
            let straight = checked.hasAlpha && !premultiplied
            let transform = TIFFCodec.iccProfile(h).flatMap {
                ColorTransform(.icc($0), input: TIFFCodec.isGray(h) ? .grayInBGRA : .bgra(premultiplied: premultiplied))
            }
            let helperReader = { () throws(PictureError) -> BandReader in
                let (second, again) = try open(buffer, file: file, stream: stream, page: page)
                return try BandReader(second, file: file, header: again)
            }
            // Red and blue change places as pixman copies each row into the levels.
            let (rows, problem) = try decodeRows(reader, chunking: chunking, file: file, helperReader: helperReader,
                                                 isCancelled: isCancelled) { pixels, count in
                for y in 0..<count {
                    let target = straight ? builder.nextStraightRow : builder.nextRow
                    LevelBuilder.copySwappingRedBlue(pixels + y * width, to: target, count: width)
                    transform?.apply(row: UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt8.self), count: width)
                    if straight {
                        builder.commitStraightRow()
                    } else {
                        if checked.hasAlpha { ARGBPixels.clampToAlpha(target, count: width) }
                        builder.commitRow()
                    }
                }
            }
            guard let problem else { return (builder.finish(complete: true), nil) }
            guard rows > 0 else { throw problem }
            return (builder.finish(complete: false), PictureDamage(error: problem, decodedFraction: Double(rows) / Double(checked.height)))
        }
    }

    /// Whether the RGBA interface premultiplies `h`'s current page (all but gray with
    /// unassociated alpha: tif_getimage.c putagreytile passes those straight).
    static func premultiplies(_ h: Handle) -> Bool {
        var extra: UInt16 = 0
        var types: UnsafeMutablePointer<UInt16>?
        let unassociated = h.field(TIFFTAG_EXTRASAMPLES, &extra, &types) && extra > 0 && types?[0] == UInt16(EXTRASAMPLE_UNASSALPHA)
        return !(unassociated && isGray(h))
    }

    /// Whether `h`'s current page is gray (PhotometricInterpretation 0 or 1).
    static func isGray(_ h: Handle) -> Bool {
        var photometric: UInt16 = 0
        guard h.field(TIFFTAG_PHOTOMETRIC, &photometric) else { return false }
        return photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE
    }

    /// `h`'s embedded ICC profile.
    static func iccProfile(_ h: Handle) -> [UInt8]? {
        var count: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        guard h.field(TIFFTAG_ICCPROFILE, &count, &data), let data, count > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(count)))
    }
}

// libtiff's client procedures over a MemorySource (thandle_t is its unmanaged pointer).

private func memorySource(_ handle: thandle_t?) -> TIFFCodec.Handle.MemorySource {
    Unmanaged<TIFFCodec.Handle.MemorySource>.fromOpaque(handle!).takeUnretainedValue()
}

private let tiffRead: TIFFReadWriteProc = { handle, buffer, size in
    let source = memorySource(handle)
    if let stream = source.stream {
        let wanted = max(0, min(Int(size), stream.size - source.position))
        guard let buffer, wanted > 0 else { return 0 }
        let n = pread(stream.fd, buffer, wanted, off_t(source.position))
        guard n > 0 else { return n < 0 ? -1 : 0 }
        source.position += n
        return tmsize_t(n)
    }
    let n = max(0, min(Int(size), source.bytes.count - source.position))
    if n > 0, let buffer { buffer.copyMemory(from: source.bytes.baseAddress! + source.position, byteCount: n) }
    source.position += n
    return tmsize_t(n)
}

private let tiffWrite: TIFFReadWriteProc = { _, _, _ in 0 }

private let tiffSeek: TIFFSeekProc = { handle, offset, whence in
    let source = memorySource(handle)
    let base: Int
    switch whence {
    case SEEK_CUR: base = source.position
    case SEEK_END: base = source.size
    default: base = 0
    }
    // toff_t is unsigned: an offset past Int.max is a lie, refused as a failed seek.
    guard offset <= UInt64(Int.max), base <= Int.max - Int(offset) else { return toff_t.max }
    source.position = base + Int(offset)
    return toff_t(source.position)
}

private let tiffClose: TIFFCloseProc = { _ in 0 }

private let tiffSize: TIFFSizeProc = { handle in toff_t(memorySource(handle).size) }

private let tiffMap: TIFFMapFileProc = { handle, base, size in
    let source = memorySource(handle)
    // A file read in place is not mapped: libtiff reads each strip or tile it decodes.
    guard source.stream == nil else { return 0 }
    base?.pointee = UnsafeMutableRawPointer(mutating: source.bytes.baseAddress)
    size?.pointee = toff_t(source.bytes.count)
    return 1
}

private let tiffUnmap: TIFFUnmapFileProc = { _, _, _ in }

/// Keeps libtiff's first error message for the file; returning 1 stops libtiff from also
/// printing it on stderr.
private let tiffError: TIFFErrorHandlerExtR = { _, user, module, format, arguments in
    guard let user, let format, let arguments else { return 1 }
    let messages = Unmanaged<TIFFCodec.Handle.Messages>.fromOpaque(user).takeUnretainedValue()
    if messages.firstError == nil {
        var text = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&text, text.count, format, arguments)
        messages.firstError = TIFFCodec.text(text)
    }
    return 1
}

private let tiffWarning: TIFFErrorHandlerExtR = { _, _, _, _, _ in 1 }
