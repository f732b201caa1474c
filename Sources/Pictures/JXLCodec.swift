// JPEG XL through libjxl's event-driven decoder: basic info first (sizes checked before any
// buffer), then colour encoding, then the first frame in stored orientation.
import CJXL
import Raster
import Synchronization

/// JPEG XL header reading and decoding to ARGB.
enum JXLCodec {
    private static let library: String? = scrollkit_jxl_open().map { String(cString: $0) }

    /// Opens libjxl on first use: nil when ready, else why it cannot be used.
    static func openLibrary() -> String? { library }

    /// libjxl_threads, opened with the first decode that can use more than one core: nil when
    /// ready, else why not (the decode then runs on one thread).
    private static let threadsLibrary: String? = scrollkit_jxl_threads_open().map { String(cString: $0) }

    /// Opens libjxl_threads: nil when ready, else why it cannot be used.
    static func openThreadsLibrary() -> String? { threadsLibrary }

    /// Whether a decoder made for `workers` threads renders on a pool of them.
    static func decodesInParallel(workers: Int) -> Bool {
        openLibrary() == nil && Decoder(workers: workers)?.isParallel == true
    }

    /// A libjxl decoder, with its pool of worker threads when it has one; both destroyed with
    /// this object.
    private final class Decoder {
        let raw: OpaquePointer
        private var runner: UnsafeMutableRawPointer?

        /// A decoder that renders on `workers` threads of libjxl_threads' pool (libjxl splits
        /// a frame into groups of 256×256 and renders them in parallel); on the calling thread
        /// alone for 1, or when libjxl_threads cannot be opened.
        init?(workers: Int) {
            guard let d = scrollkit_JxlDecoderCreate(nil) else { return nil }
            raw = d
            guard workers > 1, JXLCodec.threadsLibrary == nil,
                  let pool = scrollkit_JxlThreadParallelRunnerCreate(nil, workers) else { return }
            guard scrollkit_JxlDecoderSetParallelRunner(d, scrollkit_JxlThreadParallelRunner, pool) == JXL_DEC_SUCCESS else {
                scrollkit_JxlThreadParallelRunnerDestroy(pool)
                return
            }
            runner = pool
        }

        /// Whether the decoder renders on a pool of threads.
        var isParallel: Bool { runner != nil }

        deinit {
            scrollkit_JxlDecoderDestroy(raw)
            if let runner { scrollkit_JxlThreadParallelRunnerDestroy(runner) }
        }
    }

    /// What libjxl 0.7 holds while it decodes, handing out float rows group by group: about
    /// 2.5 bytes a pixel for a lossy (VarDCT) file on one thread, less for a lossless one
    /// (measured on 6, 24 and 54 megapixels: 21, 68 and 142 MB with the process), about 3 on
    /// two (the groups in flight: the viewer's peak on the 24 MP file went from 108 to 121 MB,
    /// `taskset -c 0` against both cores).
    static let workingBytesPerPixel = 3

    private static func corrupt(_ file: String, _ message: String) -> PictureError {
        PictureError(file: file, kind: .corrupt(.jxl, message))
    }

    /// Runs a decoder on `workers` threads (see `Decoder`) over `data` until `handle` says to
    /// stop, calling it for each event.
    private static func run(
        _ data: UnsafeBufferPointer<UInt8>, file: String, events: JxlDecoderStatus, workers: Int = 1,
        _ handle: (OpaquePointer, JxlDecoderStatus) throws(PictureError) -> Bool
    ) throws(PictureError) {
        guard let decoder = Decoder(workers: workers) else { throw corrupt(file, "cannot create a decoder") }
        // Alive until the loop ends, not only until its pointer was read.
        defer { withExtendedLifetime(decoder) {} }
        let dec = decoder.raw
        guard scrollkit_JxlDecoderSubscribeEvents(dec, Int32(events.rawValue)) == JXL_DEC_SUCCESS,
              scrollkit_JxlDecoderSetKeepOrientation(dec, 1) == JXL_DEC_SUCCESS,
              scrollkit_JxlDecoderSetInput(dec, data.baseAddress, data.count) == JXL_DEC_SUCCESS else {
            throw corrupt(file, "cannot set up the decoder")
        }
        // The input is not closed: given everything there is, a decoder that asks for more
        // has met the end of a cut file (closed input turns that into a generic error).
        while true {
            let status = scrollkit_JxlDecoderProcessInput(dec)
            switch status {
            case JXL_DEC_ERROR: throw corrupt(file, "invalid codestream")
            case JXL_DEC_SUCCESS: return
            default: if try !handle(dec, status) { return }
            }
        }
    }

    static func header(_ data: [UInt8], file: String) throws(PictureError) -> CodecHeader {
        try data.withBytes { (buffer) throws(PictureError) -> CodecHeader in
            var info = JxlBasicInfo()
            var found = false
            try run(buffer, file: file, events: JXL_DEC_BASIC_INFO) { (dec, status) throws(PictureError) -> Bool in
                switch status {
                case JXL_DEC_BASIC_INFO:
                    guard scrollkit_JxlDecoderGetBasicInfo(dec, &info) == JXL_DEC_SUCCESS else { throw corrupt(file, "unreadable header") }
                    found = true
                    return false
                case JXL_DEC_NEED_MORE_INPUT: throw PictureError(file: file, kind: .truncated)
                default: return true
                }
            }
            guard found else { throw PictureError(file: file, kind: .truncated) }
            var header = CodecHeader(width: Int(info.xsize), height: Int(info.ysize), hasAlpha: info.alpha_bits > 0)
            header.orientation = Orientation(rawValue: Int(info.orientation.rawValue)) ?? .up
            header.workingBytesPerPixel = workingBytesPerPixel
            return header
        }
    }

    /// Decodes the first frame into `plan`'s levels: libjxl hands out the pixels a piece of a
    /// row at a time as it renders them (group by group), and each row goes into the levels as
    /// soon as all its pieces are in, so only the rows still being filled are held beside them.
    /// A cut file keeps what libjxl can render of it (its progressive passes), with damage of
    /// unknown share.
    ///
    /// On `workers` threads (the renderer's, one per core by default): swayimg sets libjxl's
    /// pool to the cores too, and a 24-megapixel lossy file took 1.54–1.72 s on one thread
    /// here, where swayimg showed it after 1.08–1.28 s (`Scripts/bench-formats.sh --formats jxl`).
    static func decodeLevels(_ data: [UInt8], file: String, header: CodecHeader, plan: LevelPlan, folder: String?,
                             workers: Int = Parallel.defaultWorkers) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) {
        try data.withBytes { (buffer) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) in
            guard let builder = LevelBuilder(plan: plan, orientation: header.orientation, folder: folder) else {
                throw PictureError(file: file, kind: .insufficientMemory(width: header.width, height: header.height,
                                                                         needed: plan.memoryBytes, available: SystemMemory.available() ?? 0))
            }
            var info = JxlBasicInfo()
            var color: ColorDescription?
            var gray = false
            var rows: RowAssembler?
            var complete = false
            var damage: PictureDamage?
            let events = JxlDecoderStatus(rawValue: JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue
                                          | JXL_DEC_FULL_IMAGE.rawValue)
            try run(buffer, file: file, events: events, workers: workers) { (dec, status) throws(PictureError) -> Bool in
                switch status {
                case JXL_DEC_BASIC_INFO:
                    guard scrollkit_JxlDecoderGetBasicInfo(dec, &info) == JXL_DEC_SUCCESS,
                          Int(info.xsize) == header.width, Int(info.ysize) == header.height else {
                        throw corrupt(file, "header changed between reads")
                    }
                    gray = info.num_color_channels == 1
                    return true
                case JXL_DEC_COLOR_ENCODING:
                    color = colorDescription(dec, info: info, gray: gray)
                    return true
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    let premultiplied = info.alpha_premultiplied != 0
                    let alpha = LevelBuilder.RowAlpha(hasAlpha: info.alpha_bits != 0, premultiplied: premultiplied)
                    let transform = color.flatMap { ColorTransform($0, input: gray ? .grayInBGRA : .bgra(premultiplied: premultiplied)) }
                    let assembler = RowAssembler(builder: builder, width: header.width, height: header.height, alpha: alpha,
                                                 transform: transform)
                    rows = assembler
                    // Floats: libjxl 0.7 renders 8-bit output for a callback into a whole
                    // picture first (350 MB at 24 megapixels, measured), floats a group at a
                    // time (68 MB with the whole process).
                    var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_FLOAT, endianness: JXL_NATIVE_ENDIAN, align: 0)
                    guard scrollkit_JxlDecoderSetImageOutCallback(dec, &format, jxlRows, Unmanaged.passUnretained(assembler).toOpaque())
                            == JXL_DEC_SUCCESS else {
                        throw corrupt(file, "cannot take the decoded rows")
                    }
                    return true
                case JXL_DEC_FULL_IMAGE:
                    complete = true
                    return false  // the first frame of an animation is the still picture
                case JXL_DEC_NEED_MORE_INPUT:
                    // The input is all there is: the file is cut. Keep what renders of it.
                    let problem = PictureError(file: file, kind: .truncated)
                    guard rows != nil, scrollkit_JxlDecoderFlushImage(dec) == JXL_DEC_SUCCESS else { throw problem }
                    damage = PictureDamage(error: problem, decodedFraction: nil)
                    return false
                default:
                    return true
                }
            }
            guard let rows, complete || damage != nil else { throw PictureError(file: file, kind: .truncated) }
            // The rows libjxl did not render, or only in part, go in as they are (transparent where empty).
            rows.finish()
            return (builder.finish(complete: complete), damage)
        }
    }

    /// Rows of a picture put together from the pieces libjxl hands out, in any order; each
    /// goes into the levels once it is whole and every row above it has gone.
    fileprivate final class RowAssembler {
        let builder: LevelBuilder
        let width: Int
        let height: Int
        let alpha: LevelBuilder.RowAlpha
        let transform: ColorTransform?
        /// Rows being filled: their pixels (R, G, B, A bytes) and how many are in.
        var pending: [Int: (pixels: UnsafeMutablePointer<UInt32>, filled: Int)] = [:]
        /// Row buffers no longer in use.
        var spare: [UnsafeMutablePointer<UInt32>] = []
        /// The next row the levels take.
        var next = 0
        /// libjxl's worker threads hand out pieces at once: the rows' bookkeeping and the
        /// levels are changed under this lock, the pixels converted outside it.
        private let lock = Mutex(())

        init(builder: LevelBuilder, width: Int, height: Int, alpha: LevelBuilder.RowAlpha, transform: ColorTransform?) {
            self.builder = builder
            self.width = width
            self.height = height
            self.alpha = alpha
            self.transform = transform
        }

        deinit { (pending.values.map(\.pixels) + spare).forEach { $0.deallocate() } }

        /// `count` pixels of row `y` from `x` (R, G, B, A floats of nominal range 0…1, rounded
        /// to bytes); rows already taken (a flush's second visit) are left alone.
        func put(x: Int, y: Int, count: Int, _ pixels: UnsafeRawPointer) {
            guard y < height, x >= 0, count > 0, x <= width - count else { return }
            // A row is taken only once all its pieces are counted in, so its buffer stays while
            // a piece is converted into it.
            // (Its address, as a number: a pointer may not leave the lock's region.)
            let address = lock.withLock { _ -> Int in
                guard y >= next else { return 0 }
                if let row = pending[y] { return Int(bitPattern: row.pixels) }
                let row = spare.popLast() ?? .allocate(capacity: width)
                row.initialize(repeating: 0, count: width)
                pending[y] = (row, 0)
                return Int(bitPattern: row)
            }
            guard let target = UnsafeMutablePointer<UInt32>(bitPattern: address) else { return }
            LevelBuilder.convertFloats(pixels, to: target + x, count: count)
            lock.withLock { _ in
                pending[y]?.filled += count
                while let ready = pending[next], ready.filled >= width { take() }
            }
        }

        /// Row `next` into the levels, as far as it was filled.
        private func take() {
            let row = pending.removeValue(forKey: next)
            builder.take(alpha, transform: transform) { target in
                if let row {
                    target.update(from: row.pixels, count: width)
                } else {
                    target.update(repeating: 0, count: width)
                }
            }
            if let row { spare.append(row.pixels) }
            next += 1
        }

        /// Takes every row still pending, and those between, as they are.
        func finish() {
            lock.withLock { _ in
                guard let last = pending.keys.max() else { return }
                while next <= last { take() }
            }
        }
    }

    /// For XYB-coded (lossy) files libjxl converts to sRGB itself when asked; files kept in
    /// their original space (lossless) come with that space's ICC profile for LittleCMS.
    private static func colorDescription(_ dec: OpaquePointer, info: JxlBasicInfo, gray: Bool) -> ColorDescription? {
        if info.uses_original_profile == 0 {
            var srgb = JxlColorEncoding()
            srgb.color_space = gray ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB
            srgb.white_point = JXL_WHITE_POINT_D65
            srgb.primaries = JXL_PRIMARIES_SRGB
            srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB
            srgb.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL
            if scrollkit_JxlDecoderSetPreferredColorProfile(dec, &srgb) == JXL_DEC_SUCCESS { return nil }
        }
        // Pixels already in sRGB (most lossless files) need no conversion.
        var encoded = JxlColorEncoding()
        if scrollkit_JxlDecoderGetColorAsEncodedProfile(dec, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoded) == JXL_DEC_SUCCESS,
           encoded.white_point == JXL_WHITE_POINT_D65, encoded.transfer_function == JXL_TRANSFER_FUNCTION_SRGB,
           encoded.color_space == JXL_COLOR_SPACE_GRAY || encoded.primaries == JXL_PRIMARIES_SRGB {
            return nil
        }
        var size = 0
        guard scrollkit_JxlDecoderGetICCProfileSize(dec, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS, size > 0 else {
            return nil
        }
        var icc = [UInt8](repeating: 0, count: size)
        guard scrollkit_JxlDecoderGetColorAsICCProfile(dec, nil, JXL_COLOR_PROFILE_TARGET_DATA, &icc, size) == JXL_DEC_SUCCESS else {
            return nil
        }
        return .icc(icc)
    }
}

/// libjxl's image-out callback: pieces of rows for the `RowAssembler` passed as `opaque`. Called
/// from the worker threads of the decoder's pool, several at once (the assembler locks).
private let jxlRows: JxlImageOutCallback = { opaque, x, y, count, pixels in
    guard let opaque, let pixels else { return }
    Unmanaged<JXLCodec.RowAssembler>.fromOpaque(opaque).takeUnretainedValue().put(x: x, y: y, count: count, pixels)
}
