// libavif (AVIF), opened on first use: its types from its own header, its functions through the
// wrappers below (scrollkit_ + the libavif name), which call into the library
// `scrollkit_avif_open` loaded. libavif is not linked, so a direct call fails to link.
#ifndef SCROLLKIT_AVIF_H
#define SCROLLKIT_AVIF_H

#include <avif/avif.h>

#include "CDynamicLibrary.h"

/// Every libavif function the viewer calls: X(return type, name, parameters, arguments) and,
/// for those that return nothing, V(name, parameters, arguments).
#define SCROLLKIT_AVIF_FUNCTIONS(X, V)                                                                    \
    X(avifDecoder *, avifDecoderCreate, (void), ())                                                     \
    V(avifDecoderDestroy, (avifDecoder *decoder), (decoder))                                            \
    X(avifResult, avifDecoderSetIOMemory, (avifDecoder *decoder, const uint8_t *data, size_t size),     \
      (decoder, data, size))                                                                            \
    X(avifResult, avifDecoderParse, (avifDecoder *decoder), (decoder))                                  \
    X(avifResult, avifDecoderNextImage, (avifDecoder *decoder), (decoder))                              \
    X(const char *, avifResultToString, (avifResult result), (result))                                  \
    X(avifResult, avifImageSetViewRect, (avifImage *dstImage, const avifImage *srcImage, const avifCropRect *rect), \
      (dstImage, srcImage, rect))                                                                       \
    V(avifRGBImageSetDefaults, (avifRGBImage *rgb, const avifImage *image), (rgb, image))               \
    X(avifResult, avifImageYUVToRGB, (const avifImage *image, avifRGBImage *rgb), (image, rgb))        \
    X(avifImage *, avifImageCreateEmpty, (void), ())                                                    \
    V(avifImageDestroy, (avifImage *image), (image))

/// Loads libavif once (any thread): NULL when ready, else a message saying why it cannot be used.
const char *scrollkit_avif_open(void);

SCROLLKIT_AVIF_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

#endif
