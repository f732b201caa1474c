// libheif (HEIF and AVIF), opened on first use: its types from its own header, its functions
// through the wrappers below (scrollkit_ + the libheif name), which call into the library
// `scrollkit_heif_open` loaded. libheif is not linked, so a direct call fails to link.
#ifndef SCROLLKIT_HEIF_H
#define SCROLLKIT_HEIF_H

#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

#include "CDynamicLibrary.h"

/// Every libheif function the viewer calls: X(return type, name, parameters, arguments) and,
/// for those that return nothing, V(name, parameters, arguments).
#define SCROLLKIT_HEIF_FUNCTIONS(X, V)                                                                     \
    X(struct heif_error, heif_init, (struct heif_init_params *params), (params))                          \
    X(int, heif_have_decoder_for_format, (enum heif_compression_format format), (format))                 \
    X(struct heif_context *, heif_context_alloc, (void), ())                                             \
    V(heif_context_free, (struct heif_context *context), (context))                                       \
    X(struct heif_error, heif_context_read_from_memory_without_copy,                                      \
      (struct heif_context *context, const void *memory, size_t size, const struct heif_reading_options *options), \
      (context, memory, size, options))                                                                   \
    X(int, heif_context_get_number_of_top_level_images, (struct heif_context *context), (context))        \
    X(int, heif_context_get_list_of_top_level_image_IDs, (struct heif_context *context, heif_item_id *ids, int count), \
      (context, ids, count))                                                                              \
    X(struct heif_error, heif_context_get_primary_image_ID, (struct heif_context *context, heif_item_id *id), \
      (context, id))                                                                                      \
    X(struct heif_error, heif_context_get_image_handle,                                                  \
      (struct heif_context *context, heif_item_id id, struct heif_image_handle **handle), (context, id, handle)) \
    V(heif_image_handle_release, (const struct heif_image_handle *handle), (handle))                     \
    X(int, heif_image_handle_get_width, (const struct heif_image_handle *handle), (handle))              \
    X(int, heif_image_handle_get_height, (const struct heif_image_handle *handle), (handle))             \
    X(int, heif_image_handle_has_alpha_channel, (const struct heif_image_handle *handle), (handle))      \
    X(int, heif_image_handle_is_premultiplied_alpha, (const struct heif_image_handle *handle), (handle)) \
    X(enum heif_color_profile_type, heif_image_handle_get_color_profile_type,                           \
      (const struct heif_image_handle *handle), (handle))                                                \
    X(size_t, heif_image_handle_get_raw_color_profile_size, (const struct heif_image_handle *handle), (handle)) \
    X(struct heif_error, heif_image_handle_get_raw_color_profile, (const struct heif_image_handle *handle, void *data), \
      (handle, data))                                                                                     \
    X(struct heif_error, heif_image_handle_get_nclx_color_profile,                                       \
      (const struct heif_image_handle *handle, struct heif_color_profile_nclx **profile), (handle, profile)) \
    V(heif_nclx_color_profile_free, (struct heif_color_profile_nclx *profile), (profile))                \
    X(struct heif_decoding_options *, heif_decoding_options_alloc, (void), ())                           \
    V(heif_decoding_options_free, (struct heif_decoding_options *options), (options))                    \
    X(struct heif_error, heif_decode_image,                                                              \
      (const struct heif_image_handle *handle, struct heif_image **image, enum heif_colorspace colorspace, \
       enum heif_chroma chroma, const struct heif_decoding_options *options),                            \
      (handle, image, colorspace, chroma, options))                                                       \
    V(heif_image_release, (const struct heif_image *image), (image))                                     \
    X(int, heif_image_get_width, (const struct heif_image *image, enum heif_channel channel), (image, channel)) \
    X(int, heif_image_get_height, (const struct heif_image *image, enum heif_channel channel), (image, channel)) \
    X(int, heif_image_get_bits_per_pixel_range, (const struct heif_image *image, enum heif_channel channel), \
      (image, channel))                                                                                   \
    X(const uint8_t *, heif_image_get_plane_readonly,                                                    \
      (const struct heif_image *image, enum heif_channel channel, int *stride), (image, channel, stride)) \
    X(struct heif_error, heif_image_create,                                                              \
      (int width, int height, enum heif_colorspace colorspace, enum heif_chroma chroma, struct heif_image **image), \
      (width, height, colorspace, chroma, image))                                                         \
    X(struct heif_error, heif_image_add_plane,                                                           \
      (struct heif_image *image, enum heif_channel channel, int width, int height, int bit_depth),       \
      (image, channel, width, height, bit_depth))                                                         \
    X(uint8_t *, heif_image_get_plane, (struct heif_image *image, enum heif_channel channel, int *stride), \
      (image, channel, stride))                                                                           \
    X(struct heif_color_profile_nclx *, heif_nclx_color_profile_alloc, (void), ())                        \
    X(struct heif_error, heif_image_set_nclx_color_profile,                                              \
      (struct heif_image *image, const struct heif_color_profile_nclx *profile), (image, profile))        \
    X(struct heif_error, heif_register_decoder_plugin, (const struct heif_decoder_plugin *plugin), (plugin))

/// Loads libheif once (any thread): NULL when ready, else a message saying why it cannot be used.
const char *scrollkit_heif_open(void);

SCROLLKIT_HEIF_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

/// heif_decode_image with the calling thread bound to one CPU while it runs (see heif.c: dav1d
/// then keeps no frame-threading buffers); the thread's CPUs are as before when it returns.
struct heif_error scrollkit_heif_decode_image_on_one_cpu(const struct heif_image_handle *handle,
                                                         struct heif_image **image,
                                                         enum heif_colorspace colorspace,
                                                         enum heif_chroma chroma,
                                                         const struct heif_decoding_options *options);

/// Registers with libheif (loaded and initialised) a decoder of HEVC pictures on libde265 with
/// a worker thread for each of `cores` (de265.c): NULL when registered, else why not (libde265
/// missing); libheif's own HEVC decoder then stays in use. Called once.
const char *scrollkit_heif_register_threaded_hevc(int cores);

/// Pictures the registered decoder has handed to libheif, for tests.
long scrollkit_heif_threaded_hevc_pictures(void);

#endif
