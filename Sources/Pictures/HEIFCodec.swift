// HEIF (HEVC) and AVIF (AV1) through libheif: pages are the top-level images, primary first;
// libheif applies the file's rotation, mirroring and crop, so pixels come out upright. An AVIF
// of one image not turned, mirrored or cropped is decoded by libavif instead (AVIFCodec).
import CHEIF
import Raster

/// HEIF/AVIF header reading and decoding to straight-alpha ARGB.
enum HEIFCodec {
    /// Loads libheif and registers its decoders (heif_init; without it, the first contexts
    /// made on two threads at once would both set up the registry), then the viewer's HEVC
    /// decoder, which runs libde265 on the cores the process may use (`Parallel.defaultWorkers`,
    /// as for JPEG XL; de265.c; without libde265, libheif's own decoder serves, on one): nil
    /// when ready, else why not. Swift runs this exactly once.
    private static let library: String? = {
        if let problem = scrollkit_heif_open() { return String(cString: problem) }
        let initialised = scrollkit_heif_init(nil)
        guard initialised.code == heif_error_Ok else {
            return "libheif did not start: \(initialised.message.map { String(cString: $0) } ?? "no reason given")"
        }
        _ = scrollkit_heif_register_threaded_hevc(Int32(clamping: Parallel.defaultWorkers))
        return nil
    }()

    /// HEVC pictures the viewer's own decoder (de265.c) has decoded, for tests.
    static var threadedHEVCPictures: Int { scrollkit_heif_threaded_hevc_pictures() }

    /// Opens libheif on first use: nil when ready, else why it cannot be used.
    static func openLibrary() -> String? { library }

    /// An open HEIF context over bytes the caller keeps alive, freed with this object.
    final class Context {
        let raw: OpaquePointer
        init(_ bytes: UnsafeBufferPointer<UInt8>, file: String, format: ImageFormat) throws(PictureError) {
            guard let ctx = scrollkit_heif_context_alloc() else { throw PictureError(file: file, kind: .corrupt(format, "out of memory")) }
            raw = ctx
            let error = scrollkit_heif_context_read_from_memory_without_copy(ctx, bytes.baseAddress, bytes.count, nil)
            if error.code != heif_error_Ok { throw HEIFCodec.failure(error, file: file, format: format) }
        }
        deinit { scrollkit_heif_context_free(raw) }
    }

    /// An image handle, released with this object.
    final class Handle {
        let raw: OpaquePointer
        init(_ raw: OpaquePointer) { self.raw = raw }
        deinit { scrollkit_heif_image_handle_release(raw) }
    }

    /// libheif's error as a PictureError: data that ends early is `.truncated`, a codec
    /// that is not installed is `.unsupportedVariant`.
    static func failure(_ error: heif_error, file: String, format: ImageFormat) -> PictureError {
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        if error.subcode == heif_suberror_End_of_data { return PictureError(file: file, kind: .truncated) }
        if error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype {
            return PictureError(file: file, kind: .unsupportedVariant(format, message))
        }
        return PictureError(file: file, kind: .corrupt(format, message))
    }

    /// Top-level image IDs, the primary first (what a viewer shows for the file) and then
    /// the rest in file order: burst shots, image collections.
    static func pages(_ ctx: Context) -> [heif_item_id] {
        let count = Int(scrollkit_heif_context_get_number_of_top_level_images(ctx.raw))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let got = Int(scrollkit_heif_context_get_list_of_top_level_image_IDs(ctx.raw, &ids, Int32(count)))
        ids = Array(ids.prefix(got))
        var primary: heif_item_id = 0
        if scrollkit_heif_context_get_primary_image_ID(ctx.raw, &primary).code == heif_error_Ok, let i = ids.firstIndex(of: primary) {
            ids.remove(at: i)
            ids.insert(primary, at: 0)
        }
        return ids
    }

    private static func handle(_ ctx: Context, page: Int, file: String, format: ImageFormat) throws(PictureError) -> (Handle, Int) {
        let ids = pages(ctx)
        guard page >= 0, page < ids.count else {
            if ids.isEmpty { throw PictureError(file: file, kind: .corrupt(format, "no image in the file")) }
            throw PictureError(file: file, kind: .noSuchPage(page: page, count: ids.count))
        }
        var raw: OpaquePointer?
        let error = scrollkit_heif_context_get_image_handle(ctx.raw, ids[page], &raw)
        guard error.code == heif_error_Ok, let raw else { throw failure(error, file: file, format: format) }
        return (Handle(raw), ids.count)
    }

    static func header(_ data: [UInt8], file: String, format: ImageFormat, page: Int) throws(PictureError) -> CodecHeader {
        try data.withBytes { (buffer) throws(PictureError) -> CodecHeader in
            let ctx = try Context(buffer, file: file, format: format)
            let (h, count) = try handle(ctx, page: page, file: file, format: format)
            // Sizes after rotation and crop, from the ispe/irot/clap properties: no decoding.
            var header = CodecHeader(width: Int(scrollkit_heif_image_handle_get_width(h.raw)),
                                     height: Int(scrollkit_heif_image_handle_get_height(h.raw)),
                                     hasAlpha: scrollkit_heif_image_handle_has_alpha_channel(h.raw) != 0)
            header.pageCount = count
            // What libheif 1.15 holds while it decodes to planar RGB (its conversion from the
            // codec's YCbCr), measured on 24- and 18-megapixel pictures: with libde265, 6.6 bytes
            // a pixel in all (9.5 when it interleaves RGBA); with dav1d, whose own buffers peak
            // first, 8 (and 5.4 for 4:2:0 blocks); an alpha plane a byte more.
            header.workingBytesPerPixel = (format == .avif ? 8 : 7) + (header.hasAlpha ? 1 : 0)
            return header
        }
    }

    /// The colours' description: an ICC profile if the file has one, else nclx codes.
    private static func color(_ h: Handle) -> ColorDescription? {
        switch scrollkit_heif_image_handle_get_color_profile_type(h.raw) {
        case heif_color_profile_type_prof, heif_color_profile_type_rICC:
            let size = scrollkit_heif_image_handle_get_raw_color_profile_size(h.raw)
            guard size > 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: size)
            guard scrollkit_heif_image_handle_get_raw_color_profile(h.raw, &bytes).code == heif_error_Ok else { return nil }
            return .icc(bytes)
        case heif_color_profile_type_nclx:
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            guard scrollkit_heif_image_handle_get_nclx_color_profile(h.raw, &nclx).code == heif_error_Ok, let nclx else { return nil }
            defer { scrollkit_heif_nclx_color_profile_free(nclx) }
            return .cicp(primaries: Int(nclx.pointee.color_primaries.rawValue),
                         transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
        default:
            return nil
        }
    }

    /// Decodes `page` into `plan`'s levels: libheif converts the codec's planes to planar RGB
    /// (and hands out an alpha plane beside them), and each row is interleaved into the levels,
    /// so no whole RGBA picture is made (libheif's own takes 4 bytes a pixel more, and peaked
    /// at 252 MB for the benchmark's 24-megapixel HEIC against 159 MB for planes).
    static func decodeLevels(_ data: [UInt8], file: String, format: ImageFormat, page: Int, header: CodecHeader,
                             plan: LevelPlan, folder: String?) throws(PictureError) -> PixelPyramid {
        try data.withBytes { (buffer) throws(PictureError) -> PixelPyramid in
            let ctx = try Context(buffer, file: file, format: format)
            let (h, count) = try handle(ctx, page: page, file: file, format: format)
            // An AVIF of one image: libavif decodes it (see AVIFCodec), libheif what it leaves.
            if format == .avif, count == 1,
               let pyramid = try AVIFCodec.decodeLevels(buffer, file: file, header: header, colour: color(h), plan: plan, folder: folder) {
                return pyramid
            }
            let codec = format == .avif ? heif_compression_AV1 : heif_compression_HEVC
            guard scrollkit_heif_have_decoder_for_format(codec) != 0 else {
                throw PictureError(file: file, kind: .unsupportedVariant(format, "libheif has no \(format == .avif ? "AV1" : "HEVC") decoder"))
            }
            let options = scrollkit_heif_decoding_options_alloc()
            defer { scrollkit_heif_decoding_options_free(options) }
            // 10- and 12-bit pictures (HDR phones, AVIF) come out as 8 bits per sample.
            options?.pointee.convert_hdr_to_8bit = 1
            var image: OpaquePointer?
            // An AVIF is decoded on one CPU: dav1d's second thread only adds memory (see heif.c).
            let error = format == .avif
                ? scrollkit_heif_decode_image_on_one_cpu(h.raw, &image, heif_colorspace_RGB, heif_chroma_444, options)
                : scrollkit_heif_decode_image(h.raw, &image, heif_colorspace_RGB, heif_chroma_444, options)
            guard error.code == heif_error_Ok, let image else { throw failure(error, file: file, format: format) }
            defer { scrollkit_heif_image_release(image) }
            let w = Int(scrollkit_heif_image_get_width(image, heif_channel_R)), ht = Int(scrollkit_heif_image_get_height(image, heif_channel_R))
            guard w == header.width, ht == header.height else {
                throw PictureError(file: file, kind: .corrupt(format, "decoded \(w)×\(ht), declared \(header.width)×\(header.height)"))
            }
            var strides: [Int32] = [0, 0, 0, 0]
            let channels = [heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha]
            let planes = channels.indices.map { i in
                scrollkit_heif_image_get_bits_per_pixel_range(image, channels[i]) == 8 && scrollkit_heif_image_get_width(image, channels[i]) == w
                    && scrollkit_heif_image_get_height(image, channels[i]) == ht ? scrollkit_heif_image_get_plane_readonly(image, channels[i], &strides[i]) : nil
            }
            guard let r = planes[0], let g = planes[1], let b = planes[2] else {
                throw PictureError(file: file, kind: .corrupt(format, "no decoded pixels"))
            }
            let alpha = header.hasAlpha ? planes[3] : nil
            guard let builder = LevelBuilder(plan: plan, orientation: .up, folder: folder) else {
                throw PictureError(file: file, kind: .insufficientMemory(width: w, height: ht, needed: plan.memoryBytes,
                                                                         available: SystemMemory.available() ?? 0))
            }
            let premultiplied = alpha == nil || scrollkit_heif_image_handle_is_premultiplied_alpha(h.raw) != 0
            let transform = color(h).flatMap { ColorTransform($0, input: .bgra(premultiplied: premultiplied)) }
            let kind = LevelBuilder.RowAlpha(hasAlpha: alpha != nil, premultiplied: premultiplied)
            for y in 0..<ht {
                let (rr, gr, br) = (r + y * Int(strides[0]), g + y * Int(strides[1]), b + y * Int(strides[2]))
                let ar = alpha.map { $0 + y * Int(strides[3]) }
                builder.take(kind, transform: transform) { row in
                    for x in 0..<w {
                        let a = ar.map { UInt32($0[x]) } ?? 255
                        row[x] = a << 24 | UInt32(rr[x]) << 16 | UInt32(gr[x]) << 8 | UInt32(br[x])
                    }
                }
            }
            return builder.finish(complete: true)
        }
    }
}
