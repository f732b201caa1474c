// AVIF pixels through libavif, AOM's reference library for the format: libheif reads the file's
// structure (its pages, size, alpha and colours: HEIFCodec) and libavif decodes the primary
// image. libheif 1.15 leaves dav1d's settings at their defaults, whose frame threading gives a
// still picture no second thread, then converts to RGB on the same thread (a fifth of the
// viewer's samples under perf on the benchmark's 6000×4000 AVIF); libavif asks dav1d for one
// frame in flight and threads within it, and converts with libyuv. Timed here in a C program on
// that file: libheif 709–871 ms to planar RGB; libavif 260–280 ms of decode on two threads
// (495–566 on one) and 65–86 ms to BGRA.
import CAVIF
import Raster

/// Decoding an AVIF's primary image into levels with libavif.
enum AVIFCodec {
    /// Loads libavif on first use: nil when ready, else why not. Swift runs this exactly once.
    private static let library: String? = scrollkit_avif_open().map { String(cString: $0) }

    /// Opens libavif on first use: nil when ready, else why it cannot be used.
    static func openLibrary() -> String? { library }

    /// 64 rows: converted to BGRA at a time (1.5 MiB at 6000 pixels wide), then taken into the
    /// levels. Even, so a band of 4:2:0 pictures starts on a chroma row of its own.
    static let bandRows = 64

    /// Decodes the primary image of the AVIF in `bytes` into `plan`'s levels, its rows
    /// converted from `colour` to sRGB. Nil when libavif does not take the picture, for libheif
    /// to decode as before: libavif missing, a file it refuses or cannot decode (libheif then
    /// names the problem), or one whose image is turned, mirrored or cropped (irot, imir, clap:
    /// libheif applies them, libavif leaves them to the caller), or whose size is not `header`'s.
    static func decodeLevels(_ bytes: UnsafeBufferPointer<UInt8>, file: String, header: CodecHeader,
                             colour: ColorDescription?, plan: LevelPlan, folder: String?) throws(PictureError) -> PixelPyramid? {
        guard openLibrary() == nil, let base = bytes.baseAddress, let decoder = scrollkit_avifDecoderCreate() else { return nil }
        defer { scrollkit_avifDecoderDestroy(decoder) }
        let w = header.width, h = header.height
        guard w > 0, h > 0, let pixels = UInt32(exactly: w * h), let edge = UInt32(exactly: max(w, h)) else { return nil }
        // dav1d's threads: as many as the viewer's other work uses (one under `taskset -c 0`).
        decoder.pointee.maxThreads = Int32(Parallel.defaultWorkers)
        // The primary item, as libheif shows it (an image sequence's track is not a page here).
        decoder.pointee.requestedSource = AVIF_DECODER_SOURCE_PRIMARY_ITEM
        // No larger picture than the header's, checked before libavif allocates its planes.
        decoder.pointee.imageSizeLimit = pixels
        decoder.pointee.imageDimensionLimit = edge
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
        guard scrollkit_avifDecoderSetIOMemory(decoder, base, bytes.count) == AVIF_RESULT_OK,
              scrollkit_avifDecoderParse(decoder) == AVIF_RESULT_OK, let parsed = decoder.pointee.image else { return nil }
        let transforms = AVIF_TRANSFORM_CLAP.rawValue | AVIF_TRANSFORM_IROT.rawValue | AVIF_TRANSFORM_IMIR.rawValue
        guard parsed.pointee.transformFlags & transforms == 0, Int(parsed.pointee.width) == w, Int(parsed.pointee.height) == h,
              scrollkit_avifDecoderNextImage(decoder) == AVIF_RESULT_OK, let image = decoder.pointee.image,
              Int(image.pointee.width) == w, Int(image.pointee.height) == h, image.pointee.yuvPlanes.0 != nil,
              header.hasAlpha || image.pointee.alphaPlane == nil else { return nil }
        guard let builder = LevelBuilder(plan: plan, orientation: .up, folder: folder) else {
            throw PictureError(file: file, kind: .insufficientMemory(width: w, height: h, needed: plan.memoryBytes,
                                                                     available: SystemMemory.available() ?? 0))
        }
        let hasAlpha = header.hasAlpha && image.pointee.alphaPlane != nil
        let premultiplied = !hasAlpha || image.pointee.alphaPremultiplied == AVIF_TRUE
        let transform = colour.flatMap { ColorTransform($0, input: .bgra(premultiplied: premultiplied)) }
        let kind = LevelBuilder.RowAlpha(hasAlpha: hasAlpha, premultiplied: premultiplied)
        let band = UnsafeMutablePointer<UInt32>.allocate(capacity: w * min(bandRows, h))
        defer { band.deallocate() }
        guard let view = scrollkit_avifImageCreateEmpty() else {
            throw PictureError(file: file, kind: .corrupt(.avif, "out of memory"))
        }
        defer { scrollkit_avifImageDestroy(view) }
        var y = 0
        while y < h {
            let rows = min(bandRows, h - y)
            var rect = avifCropRect(x: 0, y: UInt32(y), width: UInt32(w), height: UInt32(rows))
            var rgb = avifRGBImage()
            guard scrollkit_avifImageSetViewRect(view, image, &rect) == AVIF_RESULT_OK else {
                throw PictureError(file: file, kind: .corrupt(.avif, "rows \(y)–\(y + rows) out of the decoded picture"))
            }
            scrollkit_avifRGBImageSetDefaults(&rgb, view)
            // BGRA bytes are the levels' ARGB words on this little-endian machine. Each chroma
            // sample covers its pixels (libheif's conversion did the same): a band's rows
            // then need no chroma rows of the bands beside it.
            rgb.format = AVIF_RGB_FORMAT_BGRA
            rgb.depth = 8
            rgb.chromaUpsampling = AVIF_CHROMA_UPSAMPLING_NEAREST
            // Without an alpha plane libavif fills the alpha bytes opaque.
            rgb.alphaPremultiplied = premultiplied ? AVIF_TRUE : AVIF_FALSE
            rgb.pixels = UnsafeMutableRawPointer(band).assumingMemoryBound(to: UInt8.self)
            rgb.rowBytes = UInt32(w * 4)
            let result = scrollkit_avifImageYUVToRGB(view, &rgb)
            guard result == AVIF_RESULT_OK else {
                throw PictureError(file: file, kind: .corrupt(.avif, String(cString: scrollkit_avifResultToString(result))))
            }
            for r in 0..<rows {
                let source = band + r * w
                builder.take(kind, transform: transform) { row in row.update(from: source, count: w) }
            }
            y += rows
        }
        return builder.finish(complete: true)
    }
}
