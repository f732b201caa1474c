// The decoding entry point: sniff, read the header, check limits, then decode or preview.

/// Ceilings that protect the process from files declaring absurd sizes.
public struct DecodeLimits: Sendable {
    /// 268,435,456 pixels (2²⁸ = 16384²): 1 GiB as ARGB8888, the same ceiling as
    /// `OwnedFramebuffer.maxPixels`, and above any camera sensor sold today.
    public static let defaultMaxPixels = 1 << 28
    /// 1 GiB: the largest encoded file read into memory, in bytes.
    public static let defaultMaxFileBytes = 1 << 30
    /// 16,777,216 pixels (16 MP, 64 MiB as ARGB): JPEGs this large or larger are kept as
    /// YCbCr planes (1.5 bytes per pixel for 4:2:0) and converted per tile.
    public static let defaultPlanarThreshold = 1 << 24

    /// Largest decoded image accepted, in pixels.
    public var maxPixels: Int
    /// Largest encoded file accepted, in bytes.
    public var maxFileBytes: Int
    /// Pixel count from which automatic storage picks YCbCr planes for JPEG.
    public var planarThreshold: Int
    /// Bytes the process may still allocate, or nil when unknown (no memory check).
    public var availableMemory: @Sendable () -> Int?
    /// Bytes one decoded picture may hold in memory, its decode's own buffers included. A
    /// larger picture keeps reduced levels in memory and its finer ones in a file in
    /// `levelFolder` (PNG, and formats whose libraries decode in parts), or is decoded reduced
    /// (JPEG, by DCT scaling) or refused (`PictureError.Kind.overBudget`). Unlimited by default:
    /// only `availableMemory` bounds a decode.
    public var memoryBudget: Int
    /// Bytes a decode may hold while it runs when its library makes the whole picture at once
    /// (libheif's planes, libwebp's lossless picture, an interlaced PNG), the encoded bytes and
    /// the library's buffers included; afterwards the picture keeps what `memoryBudget` holds.
    /// Three times the budget, 192 MiB of the viewer's default 64 (decision: what a 24-megapixel
    /// AVIF needs, dav1d holding 8 bytes a pixel; loads run one at a time, so one decode at most
    /// passes its picture's share, and with the tile cache's 96 MiB beside it the viewer stays at
    /// issue 12.8's 300 MB over its idle figure). Unlimited when the budget is.
    public var wholeDecodeAllowance: Int {
        let (threefold, overflow) = memoryBudget.multipliedReportingOverflow(by: 3)
        return overflow ? .max : threefold
    }

    /// Makes (once) and names a private folder where a picture over `memoryBudget` keeps its
    /// finer levels, in a file unlinked as soon as it is made; asked only when a decode needs
    /// one. Nil keeps only what memory holds.
    public var levelFolder: @Sendable () -> String?
    /// The screen a whole picture is shown on, in device pixels: every picture keeps the level
    /// that fits it there (1920×1080 unless told).
    public var screenWidth: Int
    public var screenHeight: Int

    /// Creates limits; the defaults suit the image viewer.
    public init(
        maxPixels: Int = DecodeLimits.defaultMaxPixels,
        maxFileBytes: Int = DecodeLimits.defaultMaxFileBytes,
        planarThreshold: Int = DecodeLimits.defaultPlanarThreshold,
        availableMemory: @escaping @Sendable () -> Int? = { SystemMemory.available() },
        memoryBudget: Int = .max,
        levelFolder: @escaping @Sendable () -> String? = { nil },
        screenWidth: Int = 1920,
        screenHeight: Int = 1080
    ) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
        self.planarThreshold = planarThreshold
        self.availableMemory = availableMemory
        self.memoryBudget = memoryBudget
        self.levelFolder = levelFolder
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
    }

    /// The viewer's limits: 268 megapixels, 1 GiB files, memory from the kernel.
    public static let standard = DecodeLimits()
}

/// What a file declares about itself, read without decoding any pixel.
public struct PictureHeader: Sendable, Equatable {
    /// Encoded format, from the magic bytes.
    public let format: ImageFormat
    /// Width as stored in the file, in pixels.
    public let storedWidth: Int
    /// Height as stored in the file, in pixels.
    public let storedHeight: Int
    /// EXIF orientation to apply (`.up` when the file has none).
    public let orientation: Orientation
    /// True when the image has an alpha channel or transparency (tRNS).
    public let hasAlpha: Bool
    /// True for progressive JPEG or Adam7-interlaced PNG.
    public let isProgressive: Bool
    /// Pages in the file: TIFF directories, HEIF/AVIF top-level images; 1 for the others.
    public var pageCount = 1
    /// The page this header describes, 0-based.
    public var page = 0
    /// Frames of an animation (GIF, WebP); 1 for a still picture. Play them with
    /// `AnimationDecoder`; `ImageDecoder.decode` gives the first.
    public var frameCount = 1

    /// Width as displayed, after orientation, in pixels.
    public var width: Int { orientation.displaySize(storedWidth: storedWidth, storedHeight: storedHeight).width }
    /// Height as displayed, after orientation, in pixels.
    public var height: Int { orientation.displaySize(storedWidth: storedWidth, storedHeight: storedHeight).height }
    /// Number of pixels.
    public var pixelCount: Int { storedWidth * storedHeight }
}

/// How decoded pixels are kept in memory.
public enum StoragePreference: Sendable {
    /// Planar YCbCr for JPEGs from `DecodeLimits.planarThreshold` pixels, ARGB otherwise.
    case automatic
    /// Premultiplied ARGB8888: 4 bytes per pixel, fastest to draw.
    case argb
    /// YCbCr planes where the file allows it (not CMYK), ARGB otherwise.
    case planar
}

/// Decodes one encoded picture held in memory, in any format `ImageFormat` recognises.
///
/// Every method checks the declared size against `limits` before allocating pixels, and
/// reports problems as `PictureError` values naming the file; none of them traps on bad
/// input. Safe to use from any thread; each call does its own work.
public struct ImageDecoder: Sendable {
    /// Name used in error messages (the file's last path component).
    public let file: String
    /// The encoded bytes.
    public let data: [UInt8]
    /// The size and memory ceilings in force.
    public let limits: DecodeLimits
    /// The file read in place, when `data` holds only its headers (see `init(streaming:)`).
    let stream: PictureFile?
    /// The SVG document the header was read from, which the decode then shows rather than parse
    /// the file a second and third time (1–2.5 ms each for a drawing of 400 shapes).
    private let parsedSVG = ParsedSVG()

    /// The file's SVG document, parsed on the first call.
    private func svgDocument() throws(PictureError) -> SVGDocument {
        try parsedSVG.document { () throws(PictureError) in try SVGCodec.document(data, file: file) }
    }

    /// Wraps bytes already in memory; `file` names them in errors.
    public init(data: [UInt8], file: String, limits: DecodeLimits = .standard) {
        self.data = data
        self.file = file
        self.limits = limits
        stream = nil
    }

    /// Decodes `stream` in place: `data` holds its headers (`headerBytes`), and PNG, JPEG, TIFF
    /// and BMP rows are read from the file as they are decoded, so the file is never held whole.
    init(streaming stream: PictureFile, headerBytes: [UInt8], limits: DecodeLimits) {
        data = headerBytes
        file = stream.name
        self.limits = limits
        self.stream = stream
    }

    /// The encoded size: the file's when it is read in place.
    var encodedSize: Int { stream?.size ?? data.count }

    /// Reads the file at `path` (refusing files over `limits.maxFileBytes` before
    /// allocating), naming errors by its last path component.
    public init(path: String, limits: DecodeLimits = .standard) throws(PictureError) {
        self.init(data: try FileSource.read(path: path, maxBytes: limits.maxFileBytes),
                  file: FileSource.displayName(path), limits: limits)
    }

    /// Everything `readHeader` learns, plus what the decode paths need.
    struct Inspection {
        var header: PictureHeader
        var jpeg: JPEGCodec.Header?
        /// JPEG: the embedded ICC profile.
        var icc: [UInt8]?
        /// The codec's own header, for the formats beyond PNG and JPEG.
        var codec: CodecHeader?
    }

    /// Reads format, size and orientation of `page` (0-based) without decoding pixels, and
    /// checks the size against the pixel limit and against the file's length (a file far
    /// too short for its declared size is reported as truncated without decoding it).
    public func readHeader(page: Int = 0) throws(PictureError) -> PictureHeader { try inspect(page: page).header }

    func inspect(page: Int = 0) throws(PictureError) -> Inspection {
        let format = try ImageFormat.sniff(data, file: file)
        switch format {
        case .jpeg:
            try checkSinglePage(page)
            let info = Metadata.jpeg(data)
            if let w = info.width, let h = info.height { try checkPixelLimit(w, h) }
            let jpeg = try JPEGCodec.header(data, file: file, headerComplete: info.reachedScan)
            // libjpeg answers a stream that ends inside its headers with a zero size.
            if (jpeg.width <= 0 || jpeg.height <= 0) && !info.reachedScan {
                throw PictureError(file: file, kind: .truncated)
            }
            try checkPixelLimit(jpeg.width, jpeg.height)
            // Huffman coding spends at least one bit per 8×8 block on the first scan's DC
            // code (T.81 §F.1.2.1); arithmetic coding can go lower, so it is not checked.
            let blocks = ((jpeg.width + 7) / 8) * ((jpeg.height + 7) / 8)
            if !info.arithmetic, blocks > encodedSize * 8 { throw PictureError(file: file, kind: .truncated) }
            let header = PictureHeader(format: .jpeg, storedWidth: jpeg.width, storedHeight: jpeg.height,
                                       orientation: info.orientation, hasAlpha: false,
                                       isProgressive: info.progressive)
            return Inspection(header: header, jpeg: jpeg, icc: info.icc)
        case .png, .webp, .gif, .tiff, .heif, .avif, .jxl, .svg, .bmp:
            let codec = try codecHeader(format, page: page)
            try checkPixelLimit(codec.width, codec.height)
            var header = PictureHeader(format: format, storedWidth: codec.width, storedHeight: codec.height,
                                       orientation: codec.orientation, hasAlpha: codec.hasAlpha,
                                       isProgressive: codec.isProgressive)
            header.pageCount = codec.pageCount
            header.page = page
            header.frameCount = codec.frameCount
            return Inspection(header: header, jpeg: nil, codec: codec)
        }
    }

    /// The header of `page` from the format's codec; each checks sizes it reads before
    /// allocating anything sized by them.
    private func codecHeader(_ format: ImageFormat, page: Int) throws(PictureError) -> CodecHeader {
        switch format {
        case .png:
            try checkSinglePage(page)
            return try PNGCodec.header(data, file: file, stream: stream) { (w, h) throws(PictureError) in try checkPixelLimit(w, h) }
        case .webp:
            try checkSinglePage(page)
            try open(format, WebPCodec.openLibrary)
            return try WebPCodec.header(data, file: file)
        case .gif:
            try checkSinglePage(page)
            try open(format, GIFCodec.openLibrary)
            return try GIFCodec.header(data, file: file)
        case .tiff:
            try open(format, TIFFCodec.openLibrary)
            return try TIFFCodec.header(data, file: file, stream: stream, page: page)
        case .heif, .avif:
            try open(format, HEIFCodec.openLibrary)
            return try HEIFCodec.header(data, file: file, format: format, page: page)
        case .jxl:
            try checkSinglePage(page)
            try open(format, JXLCodec.openLibrary)
            return try JXLCodec.header(data, file: file)
        case .svg:
            try checkSinglePage(page)
            try open(format, SVGCodec.openLibrary)
            let document = try svgDocument()
            return CodecHeader(width: document.width, height: document.height, hasAlpha: true)
        case .bmp: try checkSinglePage(page); return try BMPCodec.header(BMPCodec.Source(data: data, stream: stream), file: file)
        case .jpeg: preconditionFailure("JPEG is inspected by inspect()")
        }
    }

    /// Opens the library of a format that is not linked (the first file of the format pays its
    /// loading; see Sources/CDynamicLibrary): every decode of the file follows its header, so
    /// the codec's calls find it open.
    private func open(_ format: ImageFormat, _ library: () -> String?) throws(PictureError) {
        if let problem = library() { throw PictureError(file: file, kind: .libraryMissing(format, problem)) }
    }

    private func checkSinglePage(_ page: Int) throws(PictureError) {
        if page != 0 { throw PictureError(file: file, kind: .noSuchPage(page: page, count: 1)) }
    }

    private func checkPixelLimit(_ w: Int, _ h: Int) throws(PictureError) {
        let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
        if w <= 0 || h <= 0 {
            throw PictureError(file: file, kind: .corrupt((try? ImageFormat.sniff(data, file: file)) ?? .png,
                                                          "invalid size \(w)×\(h)"))
        }
        if overflow || pixels > limits.maxPixels {
            throw PictureError(file: file, kind: .tooLarge(width: w, height: h, limit: limits.maxPixels))
        }
    }

    /// Refuses a decode needing more than the available memory, in bytes.
    func checkMemory(_ needed: Int, _ header: PictureHeader) throws(PictureError) {
        guard let available = limits.availableMemory(), needed > available else { return }
        throw PictureError(file: file, kind: .insufficientMemory(
            width: header.width, height: header.height, needed: needed, available: available))
    }

    /// Whole-image coefficient buffers a progressive JPEG decode keeps: one 2-byte
    /// coefficient per sample (jdcoefct.c), in bytes.
    func coefficientBytes(_ i: Inspection) -> Int {
        guard i.header.format == .jpeg, i.header.isProgressive, let jpeg = i.jpeg else { return 0 }
        return 2 * (jpeg.isCMYK ? 4 * i.header.pixelCount : JPEGCodec.planarBytes(jpeg))
    }

    /// Decodes `page` (0-based; see `PictureHeader.pageCount`) of the image at full size.
    /// An animation gives its first frame (`AnimationDecoder` plays them all).
    ///
    /// - Parameters:
    ///   - storage: how to keep the pixels; `.automatic` keeps huge JPEGs planar.
    ///   - acceptsDamage: when the file is truncated or corrupt part-way, return what did
    ///     decode, with `Picture.damage` saying what went wrong, instead of throwing. Files
    ///     of which nothing decodes still throw.
    ///   - detail: how much of the picture to keep (see `PictureDetail`); a picture kept
    ///     reduced is `Picture.isPreview`.
    ///   - isCancelled: polled while a picture is decoded in parts (PNG); true stops the
    ///     decode with `.cancelled`.
    ///
    /// A picture over `limits.memoryBudget` keeps what the budget holds, its finer levels in
    /// `limits.levelFolder` (a JPEG without one a DCT-scaled reduction); a format its library
    /// decodes whole may pass the budget while it decodes, up to `limits.wholeDecodeAllowance`.
    public func decode(page: Int = 0, storage: StoragePreference = .automatic, detail: PictureDetail = .full,
                       acceptsDamage: Bool = false, isCancelled: () -> Bool = { false }) throws(PictureError) -> Picture {
        let inspection = try inspect(page: page)
        let header = inspection.header
        switch header.format {
        case .jpeg where (detail == .screen || stream != nil) && JPEGRows.supports(inspection.jpeg!):
            return try decodeJPEGLevels(inspection, detail: detail, acceptsDamage: acceptsDamage, isCancelled: isCancelled)
        case .jpeg:
            guard let jpeg = inspection.jpeg else { preconditionFailure("JPEG inspection without its header") }
            let planar: Bool
            switch storage {
            case .argb: planar = false
            case .planar: planar = JPEGCodec.supportsPlanar(jpeg)
            case .automatic: planar = JPEGCodec.supportsPlanar(jpeg) && header.pixelCount >= limits.planarThreshold
            }
            let output = planar ? JPEGCodec.planarBytes(jpeg) : header.pixelCount * 4
            if limits.memoryBudget != .max, output + coefficientBytes(inspection) + encodedSize > limits.memoryBudget {
                if JPEGRows.supports(jpeg) {
                    return try decodeJPEGLevels(inspection, detail: detail, acceptsDamage: acceptsDamage, isCancelled: isCancelled)
                }
                return try decodeJPEGWithinBudget(inspection, acceptsDamage: acceptsDamage)
            }
            try checkMemory(output + coefficientBytes(inspection), header)
            let transform = JPEGCodec.transform(inspection.icc, header: jpeg)
            if planar {
                let (pixels, damage) = try JPEGCodec.decodePlanar(data, file: file, header: jpeg, transform: transform)
                if let damage, !acceptsDamage { throw damage.error }
                return Picture(storage: .planar(pixels), header: header, isOpaque: true, damage: damage)
            }
            let (pixels, damage) = try JPEGCodec.decodeARGB(data, file: file, header: jpeg, transform: transform)
            if let damage, !acceptsDamage { throw damage.error }
            return Picture(storage: .argb(pixels), header: header, isOpaque: true, damage: damage)
        case .svg:
            let document = try svgDocument()
            return Picture(storage: .vector(document), header: header, isOpaque: false)
        case .png, .webp, .gif, .tiff, .heif, .avif, .jxl, .bmp:
            return try decodeLevels(inspection, detail: detail, floor: .screen, acceptsDamage: acceptsDamage,
                                    isCancelled: isCancelled)
        }
    }

    /// Colour conversion to sRGB and premultiplication, the last steps of every codec's pixels.
    func finish(_ output: CodecOutput, header: PictureHeader) -> Picture {
        if let color = output.color,
           let transform = ColorTransform(color, input: output.colorInput ?? .bgra(premultiplied: output.premultiplied)) {
            transform.apply(to: output.pixels)
        }
        // Opaque pixels are their own premultiplied form: no pass over them.
        if header.hasAlpha || output.damage != nil {
            if output.premultiplied { output.pixels.clampToAlpha() } else { output.pixels.premultiply() }
        }
        return Picture(storage: .argb(output.pixels), header: header, isOpaque: !header.hasAlpha, damage: output.damage)
    }

    /// Decodes a reduced image of at most `maxPixels` pixels (at least 1×1) for showing
    /// something quickly, or a whole picture on one screen: JPEG through libjpeg-turbo's DCT
    /// scaling (n/8), which skips most of the inverse DCT work; SVG by rendering at the
    /// reduced scale; WebP scaled by libwebp as it decodes; the other formats row by row (or
    /// whole, where their libraries decode only whole pictures), halving as they go.
    /// `Picture.fullWidth/fullHeight` keep the size of the real image.
    /// A vector drawing rendered whole at `scale` (an `SVGDocument.previewScale`, at which its
    /// size is whole pixels) as a reduced picture: the quick rendition shown before the drawing.
    func decodeVectorPreview(scale: Double) throws(PictureError) -> Picture {
        let header = try inspect().header
        guard header.format == .svg else { preconditionFailure("a vector preview of a \(header.format) file") }
        let document = try svgDocument()
        let bytes = Int(Double(document.width) * scale) * Int(Double(document.height) * scale) * 4
        try checkBudget(bytes, header)
        try checkMemory(bytes, header)
        return Picture(storage: .argb(try document.rendered(scale: scale, file: file)), header: header, isOpaque: false)
    }

    public func decodePreview(maxPixels: Int, page: Int = 0) throws(PictureError) -> Picture {
        let inspection = try inspect(page: page)
        let header = inspection.header
        let budget = max(1, maxPixels)
        switch header.format {
        case .jpeg where stream != nil:
            return try decodeJPEGLevels(inspection, detail: .screen, maxPixels: budget, acceptsDamage: false)
        case .jpeg:
            guard let jpeg = inspection.jpeg else { preconditionFailure("JPEG inspection without its header") }
            let scale = JPEGCodec.previewScale(width: jpeg.width, height: jpeg.height, maxPixels: budget)
            let w = JPEGCodec.scaled(jpeg.width, scale), h = JPEGCodec.scaled(jpeg.height, scale)
            try checkBudget(w * h * 4 + coefficientBytes(inspection), header)
            try checkMemory(w * h * 4 + coefficientBytes(inspection), header)
            let transform = JPEGCodec.transform(inspection.icc, header: jpeg)
            let last = LevelPlan.level(width: w, height: h, maxPixels: budget)
            if scale == (1, 8), let pixels = decodeEighthOnThreads(inspection, held: w * h * 4) {
                return levelPicture(pixels, header: header, detail: .screen, last: last, damage: nil)
            }
            let (pixels, damage) = try JPEGCodec.decodeARGB(data, file: file, header: jpeg, scale: scale, transform: transform)
            if let damage { throw damage.error }
            return levelPicture(pixels, header: header, detail: .screen, last: last, damage: nil)
        case .svg:
            let document = try svgDocument()
            return Picture(storage: .argb(document.rendered(maxPixels: budget)), header: header, isOpaque: false)
        case .png, .webp, .gif, .tiff, .heif, .avif, .jxl, .bmp:
            return try decodeLevels(inspection, detail: .screen, floor: .pixels(budget), acceptsDamage: false)
        }
    }
}
