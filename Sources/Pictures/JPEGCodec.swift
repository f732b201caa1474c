// libjpeg-turbo through the TurboJPEG 2.1 API, whose errors come back as codes and strings, not longjmp.
import CTurboJPEG

/// JPEG header reading and decoding to ARGB or to YCbCr planes.
enum JPEGCodec {
    /// What TurboJPEG says about the file before decoding.
    struct Header: Sendable {
        var width: Int
        var height: Int
        /// TJSAMP_* value.
        var subsampling: Int32
        /// TJCS_* value.
        var colorspace: Int32

        /// CMYK and YCCK files: only the CMYK pixel format can receive them.
        var isCMYK: Bool {
            colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        }
        /// Grayscale files decode to a single plane.
        var isGray: Bool { colorspace == Int32(TJCS_GRAY.rawValue) }
        /// Three components libjpeg takes for YCbCr (not RGB).
        var isYCbCr: Bool { colorspace == Int32(TJCS_YCbCr.rawValue) }
    }

    /// libjpeg's JWRN_JPEG_EOF text: the data ended before the last scan did.
    static let prematureEnd = "Premature end of JPEG file"

    /// Decoder flags: TJFLAG_LIMITSCANS caps progressive scans at 500 so a crafted file
    /// cannot make decoding take quadratic time (libjpeg-turbo 2.1 documentation).
    static let flags = Int32(TJFLAG_LIMITSCANS)

    /// A TurboJPEG decompressor, destroyed with this object.
    private final class Handle {
        let raw: tjhandle
        init?() {
            guard let h = tjInitDecompress() else { return nil }
            raw = h
        }
        deinit { tjDestroy(raw) }
        var message: String { String(cString: tjGetErrorStr2(raw)) }
        var isWarning: Bool { tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue) }
    }

    private static func makeHandle(file: String) throws(PictureError) -> Handle {
        guard let h = Handle() else {
            throw PictureError(file: file, kind: .corrupt(.jpeg, "cannot create a TurboJPEG decompressor"))
        }
        return h
    }

    /// What a call that returned −1 means for the picture.
    enum Outcome {
        /// Nothing came out.
        case failed(PictureError)
        /// Every row was produced, but part of the picture is not what the file meant: the
        /// data ended (libjpeg fills the rest) or a stretch of it is corrupt.
        case damaged(PictureError)
        /// A warning libjpeg recovered from without loss: extraneous bytes before a marker,
        /// common in camera files.
        case harmless
    }

    /// Turns a failed call's message into an outcome.
    private static func outcome(_ h: Handle, file: String, headerComplete: Bool) -> Outcome {
        let message = h.message
        if !headerComplete { return .failed(PictureError(file: file, kind: .truncated)) }
        // libjpeg starts some messages with "Corrupt JPEG data: "; the reason line says it already.
        let prefix = "Corrupt JPEG data: "
        let detail = message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        guard h.isWarning else {
            return .failed(PictureError(file: file, kind: message.contains(prematureEnd) ? .truncated : .corrupt(.jpeg, detail)))
        }
        if message.contains(prematureEnd) { return .damaged(PictureError(file: file, kind: .truncated)) }
        if message.contains("extraneous bytes") { return .harmless }
        return .damaged(PictureError(file: file, kind: .corrupt(.jpeg, detail)))
    }

    /// Throws for a failed call; returns the damage, if any, for one that produced pixels.
    private static func check(_ status: Int32, _ h: Handle, file: String) throws(PictureError) -> PictureError? {
        guard status != 0 else { return nil }
        switch outcome(h, file: file, headerComplete: true) {
        case .failed(let error): throw error
        case .damaged(let error): return error
        case .harmless: return nil
        }
    }

    /// Rows that decoded from a file whose data ended early: libjpeg decodes the missing
    /// blocks from zero coefficients, one flat mid-grey (jdhuff.c, "insufficient data"), so
    /// the run of bottom rows equal to the last pixel is what it made up. TurboJPEG 2.1 has
    /// no other way to tell; a picture whose real bottom rows are that exact grey is
    /// reported as a little more damaged than it is.
    static func decodedRows(height: Int, width: Int, sample: (Int, Int) -> UInt32) -> Int {
        guard height > 0, width > 0 else { return 0 }
        let fill = sample(width - 1, height - 1)
        var y = height
        while y > 0, (0..<width).allSatisfy({ sample($0, y - 1) == fill }) { y -= 1 }
        return y
    }

    /// The damage report for `problem` given the rows that decoded; truncation with every
    /// row present (a progressive file missing refinement scans) has no share to state.
    static func damage(_ problem: PictureError, rows: Int, height: Int) -> PictureDamage {
        let share = problem.kind == .truncated && rows < height ? Double(rows) / Double(height) : nil
        return PictureDamage(error: problem, decodedFraction: share)
    }

    /// Reads frame size, subsampling and colour space without decoding.
    ///
    /// `headerComplete` is whether the marker walk reached a scan; when it did not, a
    /// failure means the file stops inside its headers.
    static func header(_ data: [UInt8], file: String, headerComplete: Bool) throws(PictureError) -> Header {
        let h = try makeHandle(file: file)
        var w: Int32 = 0, ht: Int32 = 0, ss: Int32 = 0, cs: Int32 = 0
        let status = data.withUnsafeBufferPointer { buf in
            tjDecompressHeader3(h.raw, buf.baseAddress, UInt(buf.count), &w, &ht, &ss, &cs)
        }
        // A warning (stray bytes before a marker, say) still yields a usable header.
        if status != 0, case .failed(let error) = outcome(h, file: file, headerComplete: headerComplete) { throw error }
        return Header(width: Int(w), height: Int(ht), subsampling: ss, colorspace: cs)
    }

    /// The largest DCT scaling factor ≤ 1 (libjpeg-turbo offers n/8) whose output has at
    /// most `maxPixels` pixels; 1/8 when none does.
    static func previewScale(width: Int, height: Int, maxPixels: Int) -> (num: Int, denom: Int) {
        var count: Int32 = 0
        var candidates: [(num: Int, denom: Int)] = []
        if let factors = tjGetScalingFactors(&count) {
            for i in 0..<Int(count) {
                let f = factors[i]
                if f.num <= f.denom { candidates.append((Int(f.num), Int(f.denom))) }
            }
        }
        if candidates.isEmpty { candidates = [(1, 1), (1, 2), (1, 4), (1, 8)] }
        candidates.sort { $0.num * $1.denom > $1.num * $0.denom }  // largest first
        for f in candidates where scaled(width, f) * scaled(height, f) <= maxPixels { return f }
        return candidates.last!
    }

    /// TJSCALED(): a dimension after DCT scaling, rounded up.
    static func scaled(_ dimension: Int, _ f: (num: Int, denom: Int)) -> Int {
        (dimension * f.num + f.denom - 1) / f.denom
    }

    /// Decodes to opaque ARGB at `scale` (a factor from `previewScale`, or 1/1). `zeroed`
    /// clears the pixels before decoding (see `ARGBPixels.init`). A damaged file comes
    /// back with its damage; rows libjpeg made up after the data ended are transparent.
    static func decodeARGB(
        _ data: [UInt8], file: String, header: Header, scale: (num: Int, denom: Int) = (1, 1), zeroed: Bool = true,
        transform: ColorTransform? = nil
    ) throws(PictureError) -> (pixels: ARGBPixels, damage: PictureDamage?) {
        let pixels = try ARGBPixels.make(width: scaled(header.width, scale), height: scaled(header.height, scale),
                                         zeroed: zeroed, file: file)
        let damage = try decodeARGB(data, file: file, header: header, scale: scale, into: pixels, transform: transform)
        return (pixels, damage)
    }

    /// Decodes into `pixels`, which must be the size of the image at `scale`: the
    /// benchmark's decode-only timing reuses a buffer whose pages are already mapped.
    @discardableResult
    static func decodeARGB(
        _ data: [UInt8], file: String, header: Header, scale: (num: Int, denom: Int) = (1, 1), into pixels: ARGBPixels,
        transform: ColorTransform? = nil
    ) throws(PictureError) -> PictureDamage? {
        let h = try makeHandle(file: file)
        let w = scaled(header.width, scale), ht = scaled(header.height, scale)
        precondition(pixels.width == w && pixels.height == ht, "decode target \(pixels.width)×\(pixels.height), image \(w)×\(ht)")
        // BGRA bytes read as a little-endian UInt32 are 0xAARRGGBB with A = 255.
        let format = header.isCMYK ? TJPF_CMYK : TJPF_BGRA
        let status = data.withUnsafeBufferPointer { buf in
            tjDecompress2(h.raw, buf.baseAddress, UInt(buf.count), pixels.rawBytes,
                          Int32(w), Int32(w * 4), Int32(ht), Int32(format.rawValue), flags)
        }
        let problem = try check(status, h, file: file)
        // An embedded profile converts the samples as decoded (CMYK ones included); without
        // one, CMYK takes the naive conversion below and the rest are sRGB already.
        if let transform {
            transform.apply(to: pixels)
        } else if header.isCMYK {
            pixels.convertInvertedCMYK()
        }
        guard let problem else { return nil }
        var rows = ht
        if problem.kind == .truncated {
            rows = decodedRows(height: ht, width: w) { x, y in pixels.base[y * w + x] }
            guard rows > 0 else { throw problem }
            pixels.clearRows(from: rows)
        }
        return damage(problem, rows: rows, height: ht)
    }

    /// The conversion of an embedded profile for the samples TurboJPEG delivers for
    /// `header`'s colour space, or nil when there is nothing to convert.
    static func transform(_ icc: [UInt8]?, header: Header) -> ColorTransform? {
        guard let icc else { return nil }
        let input: ColorTransform.Input = header.isCMYK ? .invertedCMYK : header.isGray ? .grayInBGRA : .bgra(premultiplied: true)
        return ColorTransform(.icc(icc), input: input)
    }

    /// Bytes the planes of `header` take (one sample per byte).
    static func planarBytes(_ header: Header) -> Int {
        planeSizes(header).reduce(0) { $0 + $1.0 * $1.1 }
    }

    private static func planeSizes(_ header: Header) -> [(Int, Int)] {
        let count = header.isGray ? 1 : 3
        return (0..<count).map { id in
            let w = tjPlaneWidth(Int32(id), Int32(header.width), header.subsampling)
            let h = tjPlaneHeight(Int32(id), Int32(header.height), header.subsampling)
            return (Int(max(w, 0)), Int(max(h, 0)))
        }
    }

    /// Whether `decodePlanar` can take this file (YCbCr or grayscale, known subsampling).
    static func supportsPlanar(_ header: Header) -> Bool {
        !header.isCMYK && header.colorspace != Int32(TJCS_RGB.rawValue)
            && header.subsampling >= 0 && header.subsampling < Int32(TJ_NUMSAMP)
    }

    /// Decodes to Y (and Cb, Cr) planes without colour conversion: the memory-lean form
    /// for huge photos, converted tile by tile when drawn.
    static func decodePlanar(_ data: [UInt8], file: String, header: Header,
                             transform: ColorTransform? = nil) throws(PictureError) -> (pixels: PlanarPixels, damage: PictureDamage?) {
        let h = try makeHandle(file: file)
        let sizes = planeSizes(header)
        let chromaWidth = sizes.count == 3 ? sizes[1].0 : 0
        let upsampling: ChromaUpsampling
        // Mirrors jdsample.c's choice: fancy filters except for chroma 2 samples wide or less.
        switch header.subsampling {
        case Int32(TJSAMP_422.rawValue): upsampling = chromaWidth > 2 ? .h2v1 : .replicate(h: 2, v: 1)
        case Int32(TJSAMP_420.rawValue): upsampling = chromaWidth > 2 ? .h2v2 : .replicate(h: 2, v: 2)
        case Int32(TJSAMP_440.rawValue): upsampling = .h1v2
        case Int32(TJSAMP_411.rawValue): upsampling = .replicate(h: 4, v: 1)
        default: upsampling = .none
        }
        let pixels = PlanarPixels(width: header.width, height: header.height,
                                  planeWidths: sizes.map(\.0), planeHeights: sizes.map(\.1), upsampling: upsampling,
                                  transform: transform)
        var planes: [UnsafeMutablePointer<UInt8>?] = pixels.planes.map { $0 }
        while planes.count < 3 { planes.append(nil) }
        let status = data.withUnsafeBufferPointer { buf in
            planes.withUnsafeMutableBufferPointer { planeList in
                tjDecompressToYUVPlanes(h.raw, buf.baseAddress, UInt(buf.count), planeList.baseAddress,
                                        Int32(header.width), nil, Int32(header.height), flags)
            }
        }
        guard let problem = try check(status, h, file: file) else { return (pixels, nil) }
        var rows = header.height
        if problem.kind == .truncated {
            // Luma alone tells the made-up rows (planes cannot be made transparent: they stay grey).
            let luma = pixels.planes[0], stride = sizes[0].0
            rows = decodedRows(height: header.height, width: header.width) { x, y in UInt32(luma[y * stride + x]) }
            guard rows > 0 else { throw problem }
        }
        return (pixels, damage(problem, rows: rows, height: header.height))
    }
}
