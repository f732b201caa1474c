// Decoding within the memory budget: rows into levels as each library hands them out, whole
// pictures within an allowance for the libraries that only decode whole, JPEG reduced by DCT
// scaling; refused when even that would not fit.
import CTurboJPEG
#if canImport(Glibc)
import Glibc
#endif

/// Where a decode's levels stop.
enum LevelFloor {
    /// At the level a view of the whole picture on the screen of `DecodeLimits` draws from.
    case screen
    /// At the first level of at most this many pixels (`decodePreview`).
    case pixels(Int)
}

extension ImageDecoder {
    /// What the budget leaves for pixels beside the encoded bytes held, in bytes.
    private var pixelBudget: Int { limits.memoryBudget == .max ? .max : max(0, limits.memoryBudget - data.count) }

    /// Refuses a decode that would hold more than `limits.memoryBudget` bytes with the
    /// encoded bytes (`needed` is the rest).
    func checkBudget(_ needed: Int, _ header: PictureHeader) throws(PictureError) {
        guard needed > pixelBudget else { return }
        throw PictureError(file: file, kind: .overBudget(width: header.width, height: header.height,
                                                         needed: needed + data.count, budget: limits.memoryBudget))
    }

    /// A baseline JPEG's 1/8 decode on threads (JPEGPreviewDecoder), with its colour profile
    /// applied: at 1/8 the Huffman decoding is nearly all the work, and libjpeg-turbo does it
    /// on one thread. A file read in place is mapped whole for it (read whole where it cannot
    /// be mapped). Nil when the file's bytes, the decoder's planes and records and `held` bytes
    /// would not fit the budget or memory, or for a file the decoder does not take: the caller
    /// decodes with libjpeg-turbo. Nil too once `isCancelled` says so, asked as the decode goes
    /// (a 100 MP scan takes ~110 ms).
    func decodeEighthOnThreads(_ i: Inspection, held: Int, isCancelled: () -> Bool = { false }) -> ARGBPixels? {
        guard let jpeg = i.jpeg, !i.header.isProgressive else { return nil }
        let needed = held + JPEGPreviewDecoder.workingBytes(jpeg) + (stream?.size ?? 0)
        guard (try? checkBudget(needed, i.header)) != nil, (try? checkMemory(needed, i.header)) != nil else { return nil }
        // A second thread pays from a few hundred kilobytes on (starting one costs ~0.1 ms).
        func decode(_ bytes: some SharedBytes) -> ARGBPixels? {
            let threads = bytes.count >= JPEGPreviewDecoder.bytesPerExtraThread ? 2 : 1
            var report = JPEGPreviewDecoder.Report()
            return JPEGPreviewDecoder.decode(bytes, header: jpeg, threads: threads, report: &report, isCancelled: isCancelled)
        }
        let decoded: ARGBPixels?
        if let stream {
            // Mapped rather than read: no copy, and no page faults on one (~30 ms at 100 MP).
            // A file that shrank meanwhile decodes again with libjpeg-turbo, which names the damage.
            if let mapping = FileMapping(fd: stream.fd, count: stream.size) {
                decoded = decode(mapping)
                guard !mapping.isDamaged else { return nil }
            } else {
                guard let all = stream.bytes(at: 0, count: stream.size) else { return nil }
                decoded = decode(all)
            }
        } else {
            decoded = decode(data)
        }
        guard let pixels = decoded else { return nil }
        JPEGCodec.transform(i.icc, header: jpeg)?.apply(to: pixels)
        return pixels
    }

    /// Refuses a decode its library makes whole that would hold more than
    /// `limits.wholeDecodeAllowance` with the encoded bytes (`needed` is the rest).
    func checkWholeDecode(_ needed: Int, _ header: PictureHeader) throws(PictureError) {
        let allowance = limits.wholeDecodeAllowance
        guard allowance != .max, needed > allowance - data.count else { return }
        throw PictureError(file: file, kind: .overAllowance(width: header.width, height: header.height,
                                                            needed: needed + data.count, allowance: allowance))
    }

    /// Refuses a decode whose levels kept (`kept` bytes) pass the budget, or that with the
    /// buffers it holds only while it runs (`transient` bytes) passes the allowance for whole
    /// decodes or the memory available.
    func checkDecode(kept: Int, transient: Int, _ header: PictureHeader) throws(PictureError) {
        try checkBudget(kept, header)
        try checkWholeDecode(kept + transient, header)
        try checkMemory(kept + transient, header)
    }

    /// The screen level of a picture stored as `width`×`height`.
    private func screenLevel(width: Int, height: Int) -> Int {
        LevelPlan.screenLevel(width: width, height: height, screenWidth: limits.screenWidth, screenHeight: limits.screenHeight)
    }

    /// The levels `detail` keeps of a picture stored as `width`×`height` down to `last`, with
    /// the level folder made only when the plan writes to it; without one, the finer levels
    /// are left out.
    private func plan(width: Int, height: Int, last: Int, detail: PictureDetail, beside: Int = 0) -> (LevelPlan, folder: String?) {
        let budget = max(0, pixelBudget - beside)
        let plan = LevelPlan.make(width: width, height: height, last: last, detail: detail, memoryBudget: budget, canUseFile: true)
        guard plan.fileBytes > 0 else { return (plan, nil) }
        if let folder = limits.levelFolder() { return (plan, folder) }
        return (LevelPlan.make(width: width, height: height, last: last, detail: detail, memoryBudget: budget, canUseFile: false), nil)
    }

    /// Decodes a raster format other than JPEG with `detail`, its levels down to `floor`.
    /// PNG (not interlaced), TIFF, BMP, GIF and JPEG XL stream their rows into the levels; WebP
    /// decodes the smallest level asked for whole (libwebp scaling it as it decodes); HEIF, AVIF
    /// and interlaced PNG, whose libraries make the whole picture, decode it within the allowance
    /// for whole decodes and then keep the levels the budget holds.
    func decodeLevels(_ i: Inspection, detail: PictureDetail, floor: LevelFloor, acceptsDamage: Bool,
                      isCancelled: () -> Bool = { false }) throws(PictureError) -> Picture {
        let header = i.header
        guard let codec = i.codec else { preconditionFailure("decodeLevels without a codec header") }
        let (w, h) = (header.storedWidth, header.storedHeight)
        let last: Int
        switch floor {
        case .screen: last = screenLevel(width: w, height: h)
        case .pixels(let count): last = LevelPlan.level(width: w, height: h, maxPixels: count)
        }
        if header.format == .png, !header.isProgressive {
            let (plan, folder) = plan(width: w, height: h, last: last, detail: detail)
            try checkMemory(plan.memoryBytes + codec.workingTotal, header)
            let (pyramid, damage) = try PNGCodec.decodeLevels(data, file: file, stream: stream, header: codec, plan: plan,
                                                              folder: folder, isCancelled: isCancelled)
            if let damage, !acceptsDamage { throw damage.error }
            return Picture(storage: .pyramid(pyramid), header: header, isOpaque: !header.hasAlpha, damage: damage)
        }
        if header.format == .tiff {
            // Chunks of rows beside the levels while it decodes (a whole picture for a file of
            // one strip, as Pillow writes them): counted against the allowance for whole decodes.
            let (chunking, chunks) = try TIFFCodec.decodeMemory(data, file: file, stream: stream, page: header.page)
            let (plan, folder) = plan(width: w, height: h, last: last, detail: detail)
            try checkDecode(kept: plan.memoryBytes, transient: chunks + codec.workingTotal, header)
            let (pyramid, damage) = try TIFFCodec.decodeLevels(data, file: file, stream: stream, page: header.page, header: codec,
                                                               plan: plan, folder: folder, threads: chunking.threads,
                                                               isCancelled: isCancelled)
            if let damage, !acceptsDamage { throw damage.error }
            return Picture(storage: .pyramid(pyramid), header: header, isOpaque: !header.hasAlpha, damage: damage)
        }
        if header.format == .bmp || header.format == .gif || header.format == .jxl {
            // Rows straight into the levels, beside the codec's own buffers: a block of BMP rows,
            // a GIF line, libjxl's own memory, or a whole canvas for run-length BMP data and
            // interlaced GIF indices.
            let (plan, folder) = plan(width: w, height: h, last: last, detail: detail)
            try checkDecode(kept: plan.memoryBytes, transient: codec.workingTotal, header)
            let (pyramid, damage): (PixelPyramid, PictureDamage?)
            switch header.format {
            case .bmp:
                (pyramid, damage) = try BMPCodec.decodeLevels(BMPCodec.Source(data: data, stream: stream), file: file, header: codec,
                                                              plan: plan, folder: folder, isCancelled: isCancelled)
            case .gif:
                (pyramid, damage) = try GIFCodec.decodeLevels(data, file: file, header: codec, plan: plan, folder: folder,
                                                              isCancelled: isCancelled)
            default:
                (pyramid, damage) = try JXLCodec.decodeLevels(data, file: file, header: codec, plan: plan, folder: folder)
            }
            if let damage, !acceptsDamage { throw damage.error }
            return Picture(storage: .pyramid(pyramid), header: header, isOpaque: !header.hasAlpha, damage: damage)
        }
        if header.format == .heif || header.format == .avif {
            // libheif decodes whole pictures only: its planes are held beside the levels while
            // their rows go in, within the allowance for whole decodes.
            let (plan, folder) = plan(width: w, height: h, last: last, detail: detail)
            try checkDecode(kept: plan.memoryBytes, transient: codec.workingTotal, header)
            let pyramid = try HEIFCodec.decodeLevels(data, file: file, format: header.format, page: header.page, header: codec,
                                                     plan: plan, folder: folder)
            return Picture(storage: .pyramid(pyramid), header: header, isOpaque: !header.hasAlpha)
        }
        if header.format == .webp {
            return try decodeWebP(i, detail: detail, last: last, acceptsDamage: acceptsDamage)
        }
        // An interlaced PNG, whose last pass completes every row: the whole picture, and beside
        // it the coarser levels kept (the whole one is level 0), within the allowance for whole
        // decodes; the levels then keep what the budget holds.
        precondition(header.format == .png, "\(header.format.name) has no whole decode")
        let whole = header.pixelCount * 4 + codec.workingTotal
        let levels = coarserLevelBytes(width: w, height: h, last: last, detail: detail)
        try checkWholeDecode(whole + levels, header)
        try checkMemory(whole + levels, header)
        let output = try PNGCodec.decode(data, file: file, stream: stream, header: codec)
        if let damage = output.damage, !acceptsDamage { throw damage.error }
        let picture = finish(output, header: header)
        guard case .argb(let pixels) = picture.storage else { preconditionFailure("codecs decode to ARGB") }
        return levelPicture(pixels, header: header, detail: detail, last: last, damage: output.damage)
    }

    /// Bytes of the levels coarser than level 0 that `detail` keeps in memory of a picture
    /// stored as `width`×`height`, down to `last`, within the budget: what a decode of level 0
    /// whole holds beside it while the levels are made.
    private func coarserLevelBytes(width: Int, height: Int, last: Int, detail: PictureDetail) -> Int {
        let plan = LevelPlan.make(width: width, height: height, last: last, detail: detail, memoryBudget: pixelBudget,
                                  canUseFile: true)
        return (1..<plan.places.count).filter { plan.places[$0] == .memory }.reduce(0) { $0 + plan.bytes($1) }
    }

    /// A WebP still, or an animation's first frame, with `detail`, its levels down to `last`.
    /// libwebp decodes a picture whole (no rows are handed out), so the level decoded is the
    /// smallest asked for: for `.screen` the screen level itself, scaled by libwebp as it
    /// decodes; else full size, or when that would pass the allowance for whole decodes, the
    /// finest level that does not (a reduction). A frame short of its canvas decodes full size.
    private func decodeWebP(_ i: Inspection, detail: PictureDetail, last: Int, acceptsDamage: Bool) throws(PictureError) -> Picture {
        let header = i.header
        guard let codec = i.codec else { preconditionFailure("decodeWebP without a codec header") }
        let still = try WebPCodec.still(data, file: file, header: codec)
        let scalable = still.covers(codec)
        let plan = LevelPlan.make(width: codec.width, height: codec.height, last: last, detail: .screen,
                                  memoryBudget: .max, canUseFile: false)
        let last = plan.widths.count - 1
        /// What decoding level `k` holds: its pixels, libwebp's own buffers, the coarser levels kept.
        func needed(_ k: Int) -> Int {
            plan.bytes(k) + still.workingBytes + coarserLevelBytes(width: plan.widths[k], height: plan.heights[k], last: last - k,
                                                                  detail: detail)
        }
        var level = detail == .screen && scalable ? last : 0
        while scalable, level < last, needed(level) + data.count > limits.wholeDecodeAllowance { level += 1 }
        try checkWholeDecode(needed(level), header)
        try checkMemory(needed(level), header)
        let output = try WebPCodec.decode(data, file: file, header: codec, still: still, width: plan.widths[level],
                                          height: plan.heights[level])
        if let damage = output.damage, !acceptsDamage { throw damage.error }
        let picture = finish(output, header: header)
        guard case .argb(let pixels) = picture.storage else { preconditionFailure("codecs decode to ARGB") }
        return levelPicture(pixels, header: header, detail: detail, last: last - level, damage: output.damage)
    }

    /// `pixels` (the decoded picture, premultiplied, stored orientation, perhaps already
    /// reduced) as a picture with the levels `detail` keeps down to `last`: the pixels alone
    /// when they are the screen level themselves.
    func levelPicture(_ pixels: ARGBPixels, header: PictureHeader, detail: PictureDetail, last: Int,
                      damage: PictureDamage?) -> Picture {
        let (plan, folder) = plan(width: pixels.width, height: pixels.height, last: last, detail: detail)
        let opaque = !header.hasAlpha
        guard plan.places.count > 1,
              let builder = LevelBuilder(plan: plan, orientation: header.orientation, folder: folder, adopting: pixels) else {
            return Picture(storage: .argb(pixels), header: header, isOpaque: opaque, damage: damage)
        }
        builder.commitRows(of: pixels)
        return Picture(storage: .pyramid(builder.finish(complete: true)), header: header, isOpaque: opaque, damage: damage)
    }

    /// A JPEG decoded row by row into levels (see `JPEGRows`): for `.screen` DCT-scaled to the
    /// smallest factor (n/8) that still covers the screen level, then halved down to it; else
    /// at full size, kept as `detail` says. For `decodePreview`, `maxPixels` stops the levels at
    /// the first of at most that many pixels instead.
    func decodeJPEGLevels(_ i: Inspection, detail: PictureDetail, maxPixels: Int? = nil, acceptsDamage: Bool,
                          isCancelled: () -> Bool = { false }) throws(PictureError) -> Picture {
        guard let jpeg = i.jpeg else { preconditionFailure("JPEG inspection without its header") }
        let level = maxPixels.map { LevelPlan.level(width: jpeg.width, height: jpeg.height, maxPixels: $0) }
            ?? screenLevel(width: jpeg.width, height: jpeg.height)
        let wanted = 1 / Double(1 << min(level, 30))
        let scale = detail == .screen ? JPEGCodec.scale(atLeast: wanted) : (num: 1, denom: 1)
        let w = JPEGCodec.scaled(jpeg.width, scale), h = JPEGCodec.scaled(jpeg.height, scale)
        // Halvings of the scaled pixels that keep at least the wanted level's scale.
        let factor = Double(scale.num) / Double(scale.denom)
        let halvings = max(0, Int((log2(factor / wanted) + 1e-9).rounded(.down)))
        // A progressive file's coefficients are held beside the levels, whatever the scale.
        let (plan, folder) = plan(width: w, height: h, last: halvings, detail: detail, beside: coefficientBytes(i))
        let needed = plan.memoryBytes + coefficientBytes(i)
        if needed > pixelBudget, stream == nil, detail != .screen {
            // Not even the screen level fits (a budget smaller than a screen): the whole
            // picture DCT-scaled to what does.
            return try decodeJPEGWithinBudget(i, acceptsDamage: acceptsDamage)
        }
        try checkBudget(needed, i.header)
        try checkMemory(needed, i.header)
        // The viewer's first frame of a huge JPEG: its screen level at 1/8, on threads.
        if detail == .screen, scale == (1, 8), let pixels = decodeEighthOnThreads(i, held: needed, isCancelled: isCancelled),
           let builder = LevelBuilder(plan: plan, orientation: i.header.orientation, folder: folder, adopting: pixels) {
            builder.commitRows(of: pixels)
            return Picture(storage: .pyramid(builder.finish(complete: true)), header: i.header, isOpaque: true, damage: nil)
        }
        if isCancelled() { throw PictureError(file: file, kind: .cancelled) }
        let (pyramid, damage) = try JPEGRows.decodeLevels(
            data, stream: stream, file: file, scale: scale, plan: plan, folder: folder, orientation: i.header.orientation,
            transform: JPEGCodec.transform(i.icc, header: jpeg), isCancelled: isCancelled)
        if let damage, !acceptsDamage { throw damage.error }
        return Picture(storage: .pyramid(pyramid), header: i.header, isOpaque: true, damage: damage)
    }

    /// A JPEG whose full decode would pass the budget, at the largest DCT scale (n/8) that
    /// fits it: a reduction (`Picture.isPreview`), drawn enlarged when zoomed in closer.
    /// A progressive file keeps coefficients for every block whatever the scale, so one whose
    /// coefficients alone pass the budget is refused.
    func decodeJPEGWithinBudget(_ i: Inspection, acceptsDamage: Bool) throws(PictureError) -> Picture {
        guard let jpeg = i.jpeg else { preconditionFailure("JPEG inspection without its header") }
        let coefficients = coefficientBytes(i)
        let room = pixelBudget - coefficients
        let scale = JPEGCodec.previewScale(width: jpeg.width, height: jpeg.height, maxPixels: max(1, room / 4))
        let w = JPEGCodec.scaled(jpeg.width, scale), h = JPEGCodec.scaled(jpeg.height, scale)
        try checkBudget(w * h * 4 + coefficients, i.header)
        try checkMemory(w * h * 4 + coefficients, i.header)
        let (pixels, damage) = try JPEGCodec.decodeARGB(data, file: file, header: jpeg, scale: scale,
                                                        transform: JPEGCodec.transform(i.icc, header: jpeg))
        if let damage, !acceptsDamage { throw damage.error }
        return Picture(storage: .argb(pixels), header: i.header, isOpaque: true, damage: damage)
    }
}

extension ImageDecoder {
    /// 16 MiB: the most of a JPEG's headers (EXIF, ICC profile) read to find its first scan.
    static let streamedHeaderBytes = 16 << 20

    /// A decoder reading `file` in place, when it is a PNG, JPEG, TIFF or BMP larger than a quarter of
    /// `limits.memoryBudget` (what the bytes would take of the budget), or than `threshold`
    /// bytes when given; nil otherwise, and the
    /// caller reads the file into memory. Its headers are read now: a PNG's or TIFF's signature
    /// (libpng and libtiff read the rest from the file), a JPEG's markers up to its first scan, a
    /// BMP's first 4 KiB.
    static func streaming(_ file: PictureFile, limits: DecodeLimits, above threshold: Int? = nil) -> ImageDecoder? {
        guard limits.memoryBudget != .max, file.size > threshold ?? limits.memoryBudget / 4,
              let signature = file.bytes(at: 0, count: 8) else { return nil }
        // PNG and TIFF: their libraries read the rest of the headers from the file.
        let tiff = signature.starts(with: [0x49, 0x49]) || signature.starts(with: [0x4D, 0x4D])
        if signature == ImageFormat.pngSignature || (tiff && (try? ImageFormat.sniff(signature, file: file.name)) == .tiff) {
            return ImageDecoder(streaming: file, headerBytes: signature, limits: limits)
        }
        // BMP: its headers and palette (BMPCodec reads the rows, and a profile past them, itself).
        if signature.starts(with: [0x42, 0x4D]), let prefix = file.bytes(at: 0, count: min(file.size, BMPCodec.headerBytes)),
           ImageFormat.recognise(prefix) == .bmp {
            return ImageDecoder(streaming: file, headerBytes: prefix, limits: limits)
        }
        guard signature.starts(with: [0xFF, 0xD8, 0xFF]) else { return nil }
        var count = 1 << 16
        while true {
            let prefix = file.bytes(at: 0, count: min(count, file.size)) ?? signature
            if Metadata.jpeg(prefix).reachedScan || count >= min(file.size, streamedHeaderBytes) {
                return ImageDecoder(streaming: file, headerBytes: prefix, limits: limits)
            }
            count *= 2
        }
    }
}

extension JPEGCodec {
    /// The smallest DCT scaling factor libjpeg-turbo offers (n/8, at most 1) that is at least
    /// `scale`; the smallest of all when none is.
    static func scale(atLeast scale: Double) -> (num: Int, denom: Int) {
        var count: Int32 = 0
        var best: (num: Int, denom: Int) = (1, 1)
        var smallest: (num: Int, denom: Int) = (1, 1)
        if let factors = tjGetScalingFactors(&count) {
            for f in UnsafeBufferPointer(start: factors, count: Int(count)) where f.num <= f.denom {
                let factor = (num: Int(f.num), denom: Int(f.denom))
                let value = Double(factor.num) / Double(factor.denom)
                if value < Double(smallest.num) / Double(smallest.denom) { smallest = factor }
                if value >= scale - 1e-12, value < Double(best.num) / Double(best.denom) { best = factor }
            }
        }
        return Double(best.num) / Double(best.denom) >= scale - 1e-12 ? best : smallest
    }
}
