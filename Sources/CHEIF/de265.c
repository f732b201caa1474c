// HEVC pictures for libheif, decoded by libde265 with a worker thread for each core the viewer
// uses, registered as a libheif decoder plugin ahead of libheif's own.
//
// Why: libheif 1.15's own libde265 decoder starts one worker thread, so a HEIC photo (what
// phones save) was decoded on one core while the other idled; x265, which encodes HEIC, writes
// its rows for wavefront decoding, which libde265 spreads over its workers. Measured on the
// formats benchmark's 24 MP HEIC (heif-enc -q 80) on two CPUs, heif_decode_image to planar RGB
// in a C program: 3.9–4.1 s through libheif's decoder, 2.0–2.1 s through this one. libde265 is
// opened on first use like libheif (its functions through the wrappers below).
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libheif or libde265 when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <libde265/de265.h>

#include "CHEIF.h"

// libde265 1.x keeps one soname.
_Static_assert((LIBDE265_NUMERIC_VERSION >> 24) == 1, "libde265 1.x: soname libde265.so.0");

/// Every libde265 function the decoder calls.
#define SCROLLKIT_DE265_FUNCTIONS(X, V)                                                                  \
    X(de265_decoder_context *, de265_new_decoder, (void), ())                                            \
    X(de265_error, de265_free_decoder, (de265_decoder_context * context), (context))                     \
    X(de265_error, de265_start_worker_threads, (de265_decoder_context * context, int count), (context, count)) \
    X(de265_error, de265_push_NAL,                                                                       \
      (de265_decoder_context * context, const void *data, int length, de265_PTS pts, void *user),       \
      (context, data, length, pts, user))                                                                \
    X(de265_error, de265_flush_data, (de265_decoder_context * context), (context))                       \
    X(de265_error, de265_decode, (de265_decoder_context * context, int *more), (context, more))          \
    X(const struct de265_image *, de265_get_next_picture, (de265_decoder_context * context), (context))  \
    X(int, de265_isOK, (de265_error error), (error))                                                     \
    X(const char *, de265_get_error_text, (de265_error error), (error))                                  \
    X(enum de265_chroma, de265_get_chroma_format, (const struct de265_image *image), (image))            \
    X(int, de265_get_image_width, (const struct de265_image *image, int channel), (image, channel))      \
    X(int, de265_get_image_height, (const struct de265_image *image, int channel), (image, channel))     \
    X(int, de265_get_bits_per_pixel, (const struct de265_image *image, int channel), (image, channel))   \
    X(const uint8_t *, de265_get_image_plane, (const struct de265_image *image, int channel, int *stride), \
      (image, channel, stride))                                                                          \
    X(int, de265_get_image_full_range_flag, (const struct de265_image *image), (image))                  \
    X(int, de265_get_image_colour_primaries, (const struct de265_image *image), (image))                 \
    X(int, de265_get_image_transfer_characteristics, (const struct de265_image *image), (image))         \
    X(int, de265_get_image_matrix_coefficients, (const struct de265_image *image), (image))

SCROLLKIT_DE265_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)
SCROLLKIT_LIBRARY(SCROLLKIT_DE265_FUNCTIONS, "libde265.so.0")

/// 200: ahead of libheif 1.15's own libde265 decoder, which answers 100 for HEVC; libheif picks
/// the highest (ThreadedHEVCTests checks that this one decodes).
enum { priority = 200 };
/// libde265's worker threads per picture, set once at registration (0: the calling thread
/// decodes alone).
static int workers;

static atomic_long pictures_decoded;

/// One picture's decoder: libde265's context and how many NAL units it was given.
typedef struct {
    de265_decoder_context *context;
    long units;
} decoder;

static struct heif_error failure(const char *message) {
    struct heif_error error = {heif_error_Decoder_plugin_error, heif_suberror_Unspecified, message};
    return error;
}

static struct heif_error success(void) {
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    return ok;
}

static const char *plugin_name(void) { return "ScrollKit libde265, threaded"; }
static void plugin_init(void) {}
static void plugin_deinit(void) {}

static int supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? priority : 0; }

static struct heif_error new_decoder(void **out) {
    decoder *d = calloc(1, sizeof *d);
    if (!d) return failure("out of memory");
    d->context = scrollkit_de265_new_decoder();
    if (!d->context) {
        free(d);
        return failure("libde265 could not make a decoder");
    }
    if (workers > 0) {
        de265_error started = scrollkit_de265_start_worker_threads(d->context, workers);
        if (!scrollkit_de265_isOK(started)) {
            scrollkit_de265_free_decoder(d->context);
            free(d);
            return failure(scrollkit_de265_get_error_text(started));
        }
    }
    *out = d;
    return success();
}

static void free_decoder(void *opaque) {
    decoder *d = opaque;
    if (!d) return;
    scrollkit_de265_free_decoder(d->context);
    free(d);
}

/// libheif hands the parameter sets and then the picture's data as NAL units, each after its
/// length in four bytes, most significant first (as libheif's own decoder reads them). Every
/// length is checked against what is left before a unit is passed on.
static struct heif_error push_data(void *opaque, const void *data, size_t size) {
    decoder *d = opaque;
    const uint8_t *bytes = data;
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) return failure("a NAL unit's length is cut short");
        size_t length = (size_t)bytes[at] << 24 | (size_t)bytes[at + 1] << 16 | (size_t)bytes[at + 2] << 8 | bytes[at + 3];
        at += 4;
        if (length > size - at) return failure("a NAL unit is longer than the data left");
        if (length > INT_MAX) return failure("a NAL unit is too long");
        de265_error pushed = scrollkit_de265_push_NAL(d->context, bytes + at, (int)length, 0, NULL);
        if (!scrollkit_de265_isOK(pushed)) return failure(scrollkit_de265_get_error_text(pushed));
        d->units += 1;
        at += length;
    }
    return success();
}

/// The decoded picture's colour description (its VUI) as the picture's nclx profile, which
/// libheif uses for the YCbCr conversion when the file has no colr box of its own.
static void describe_colours(const struct de265_image *image, struct heif_image *out) {
    struct heif_color_profile_nclx *nclx = scrollkit_heif_nclx_color_profile_alloc();
    if (!nclx) return;
    nclx->color_primaries = (enum heif_color_primaries)scrollkit_de265_get_image_colour_primaries(image);
    nclx->transfer_characteristics =
        (enum heif_transfer_characteristics)scrollkit_de265_get_image_transfer_characteristics(image);
    nclx->matrix_coefficients = (enum heif_matrix_coefficients)scrollkit_de265_get_image_matrix_coefficients(image);
    nclx->full_range_flag = (uint8_t)(scrollkit_de265_get_image_full_range_flag(image) != 0);
    (void)scrollkit_heif_image_set_nclx_color_profile(out, nclx);
    scrollkit_heif_nclx_color_profile_free(nclx);
}

/// Copies the picture's planes into a new libheif image: YCbCr 4:2:0, 4:2:2 or 4:4:4, or
/// monochrome (an alpha plane is coded as one), 8 to 16 bits a sample. Every plane's size and
/// depth is checked against the luma plane's before libheif allocates it.
static struct heif_error copy_picture(const struct de265_image *image, struct heif_image **out) {
    enum de265_chroma chroma = scrollkit_de265_get_chroma_format(image);
    enum heif_chroma layout;
    switch (chroma) {
    case de265_chroma_mono: layout = heif_chroma_monochrome; break;
    case de265_chroma_420: layout = heif_chroma_420; break;
    case de265_chroma_422: layout = heif_chroma_422; break;
    case de265_chroma_444: layout = heif_chroma_444; break;
    default: return failure("the picture has an unknown chroma format");
    }
    int width = scrollkit_de265_get_image_width(image, 0), height = scrollkit_de265_get_image_height(image, 0);
    if (width <= 0 || height <= 0) return failure("the picture has no size");
    struct heif_image *made = NULL;
    struct heif_error error = scrollkit_heif_image_create(
        width, height, chroma == de265_chroma_mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr, layout, &made);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    int planes = chroma == de265_chroma_mono ? 1 : 3;
    for (int c = 0; c < planes; c++) {
        int w = scrollkit_de265_get_image_width(image, c), h = scrollkit_de265_get_image_height(image, c);
        int depth = scrollkit_de265_get_bits_per_pixel(image, c);
        if (w <= 0 || h <= 0 || w > width || h > height || depth < 8 || depth > 16) {
            scrollkit_heif_image_release(made);
            return failure("a plane of the picture has a size or depth out of range");
        }
        error = scrollkit_heif_image_add_plane(made, channels[c], w, h, depth);
        if (error.code != heif_error_Ok) {
            scrollkit_heif_image_release(made);
            return error;
        }
        int from_stride = 0, to_stride = 0;
        const uint8_t *from = scrollkit_de265_get_image_plane(image, c, &from_stride);
        uint8_t *to = scrollkit_heif_image_get_plane(made, channels[c], &to_stride);
        size_t row = (size_t)w * (depth > 8 ? 2 : 1);
        if (!from || !to || from_stride < 0 || to_stride < 0 || (size_t)from_stride < row || (size_t)to_stride < row) {
            scrollkit_heif_image_release(made);
            return failure("a plane of the picture is missing");
        }
        for (int y = 0; y < h; y++) memcpy(to + (size_t)y * (size_t)to_stride, from + (size_t)y * (size_t)from_stride, row);
    }
    describe_colours(image, made);
    *out = made;
    return success();
}

/// Decodes what was pushed to its first picture. libde265 is called until it hands out a
/// picture, says it has nothing more, or fails; at most a few calls per unit pushed (each call
/// decodes at most one unit's slice), so a stream that never finishes a picture ends too.
static struct heif_error decode_image(void *opaque, struct heif_image **out) {
    decoder *d = opaque;
    de265_error flushed = scrollkit_de265_flush_data(d->context);
    if (!scrollkit_de265_isOK(flushed)) return failure(scrollkit_de265_get_error_text(flushed));
    long limit = 4 * d->units + 64;
    for (long call = 0; call < limit; call++) {
        int more = 0;
        de265_error decoded = scrollkit_de265_decode(d->context, &more);
        const struct de265_image *image = scrollkit_de265_get_next_picture(d->context);
        if (image) {
            struct heif_error copied = copy_picture(image, out);
            if (copied.code == heif_error_Ok) atomic_fetch_add(&pictures_decoded, 1);
            return copied;
        }
        if (!scrollkit_de265_isOK(decoded) && decoded != DE265_ERROR_WAITING_FOR_INPUT_DATA) {
            return failure(scrollkit_de265_get_error_text(decoded));
        }
        if (!more) break;
    }
    return failure("the data holds no whole picture");
}

static const struct heif_decoder_plugin plugin = {
    .plugin_api_version = 1,
    .get_plugin_name = plugin_name,
    .init_plugin = plugin_init,
    .deinit_plugin = plugin_deinit,
    .does_support_format = supports,
    .new_decoder = new_decoder,
    .free_decoder = free_decoder,
    .push_data = push_data,
    .decode_image = decode_image,
};

const char *scrollkit_heif_register_threaded_hevc(int cores) {
    const char *problem = scrollkit_library_open(&library);
    if (problem) return problem;
    // On one core the calling thread decodes alone: a worker would only take turns with it.
    workers = cores > 1 ? cores : 0;
    struct heif_error registered = scrollkit_heif_register_decoder_plugin(&plugin);
    return registered.code == heif_error_Ok ? NULL : "libheif refused the decoder";
}

long scrollkit_heif_threaded_hevc_pictures(void) { return atomic_load(&pictures_decoded); }
