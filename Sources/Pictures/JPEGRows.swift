// JPEG a few rows at a time through libjpeg's scanline API (TurboJPEG 2.1 decodes whole pictures
// only), DCT-scaled when a view needs fewer pixels: rows go straight into a picture's levels, so
// neither the picture nor, for a file read in place, the file is ever held whole.
import CJPEG

/// Scanline decoding of YCbCr, grayscale and RGB JPEGs into levels.
enum JPEGRows {
    /// Whether `header`'s colour space decodes to BGRA rows here (CMYK takes TurboJPEG's
    /// whole-picture path).
    static func supports(_ header: JPEGCodec.Header) -> Bool { !header.isCMYK }

    /// Decodes `data` (or `stream`, read in place, when there is one) at DCT scale `scale`
    /// into the levels of `plan`, whose level 0 is the scaled picture. Each row is converted
    /// with `transform` (the embedded profile) as it arrives. A file cut short, or corrupt
    /// part-way, keeps the rows before the trouble (the rest transparent) and says so in the
    /// damage; `isCancelled` is polled every few rows.
    static func decodeLevels(
        _ data: [UInt8], stream: PictureFile?, file: String, scale: (num: Int, denom: Int), plan: LevelPlan,
        folder: String?, orientation: Orientation, transform: ColorTransform?, isCancelled: () -> Bool
    ) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) {
        try data.withBytes { (bytes) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) in
            let jpeg = UnsafeMutablePointer<scrollkit_jpeg>.allocate(capacity: 1)
            jpeg.initialize(to: scrollkit_jpeg())
            defer {
                scrollkit_jpeg_close(jpeg)
                jpeg.deallocate()
            }
            if let stream {
                jpeg.pointee.fd = stream.fd
            } else {
                jpeg.pointee.data = bytes.baseAddress
                jpeg.pointee.size = bytes.count
            }
            guard scrollkit_jpeg_open(jpeg) != 0 else { throw problem(jpeg, file: file) }
            jpeg.pointee.info.scale_num = UInt32(scale.num)
            jpeg.pointee.info.scale_denom = UInt32(scale.denom)
            // BGRA bytes read as a little-endian UInt32 are 0xAARRGGBB with A = 255.
            jpeg.pointee.info.out_color_space = JCS_EXT_BGRA
            guard scrollkit_jpeg_start(jpeg) != 0 else { throw problem(jpeg, file: file) }
            let w = Int(jpeg.pointee.info.output_width), h = Int(jpeg.pointee.info.output_height)
            guard w == plan.widths[0], h == plan.heights[0], jpeg.pointee.info.output_components == 4 else {
                throw PictureError(file: file, kind: .corrupt(.jpeg, "unexpected scaled size \(w)×\(h)"))
            }
            guard let builder = LevelBuilder(plan: plan, orientation: orientation, folder: folder) else {
                throw PictureError(file: file, kind: .insufficientMemory(width: w, height: h, needed: plan.memoryBytes,
                                                                         available: SystemMemory.available() ?? 0))
            }
            for y in 0..<h {
                // 64 rows: a few milliseconds of a wide picture between looks.
                if y % 64 == 0, isCancelled() { throw PictureError(file: file, kind: .cancelled) }
                let row = UnsafeMutableRawPointer(builder.nextRow).assumingMemoryBound(to: UInt8.self)
                let read = scrollkit_jpeg_read_row(jpeg, row)
                // libjpeg goes on past the end of a cut file with made-up grey rows: the rows
                // from its warning on are left transparent.
                let cut = jpeg.pointee.warned != 0 && message(jpeg).contains(JPEGCodec.prematureEnd)
                guard read != 0, !cut else {
                    let error = problem(jpeg, file: file)
                    guard y > 0 else { throw error }
                    return (builder.finish(complete: false), PictureDamage(error: error, decodedFraction: Double(y) / Double(h)))
                }
                transform?.apply(row: row, count: w)
                builder.commitRow()
            }
            // A warning libjpeg went past: corrupt data somewhere, or stray bytes (harmless).
            let damage: PictureDamage? = jpeg.pointee.warned != 0 && !message(jpeg).contains("extraneous bytes")
                ? PictureDamage(error: problem(jpeg, file: file), decodedFraction: nil) : nil
            return (builder.finish(complete: true), damage)
        }
    }

    /// libjpeg's message: the first error, or the first warning.
    private static func message(_ jpeg: UnsafeMutablePointer<scrollkit_jpeg>) -> String {
        withUnsafeBytes(of: jpeg.pointee.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The file's problem as TurboJPEG's decodes word it: truncation, else corrupt data.
    private static func problem(_ jpeg: UnsafeMutablePointer<scrollkit_jpeg>, file: String) -> PictureError {
        let text = message(jpeg)
        if text.contains(JPEGCodec.prematureEnd) { return PictureError(file: file, kind: .truncated) }
        let prefix = "Corrupt JPEG data: "
        let detail = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
        return PictureError(file: file, kind: .corrupt(.jpeg, detail.isEmpty ? "unknown error" : detail))
    }
}
