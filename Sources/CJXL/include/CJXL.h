// libjxl (JPEG XL), opened on first use: its types from its own header, its functions through
// the wrappers below (scrollkit_ + the libjxl name), which call into the library
// `scrollkit_jxl_open` loaded. libjxl is not linked, so a direct call fails to link.
#ifndef SCROLLKIT_JXL_H
#define SCROLLKIT_JXL_H

#include <jxl/decode.h>

#include "CDynamicLibrary.h"

/// Every libjxl function the viewer calls (see SCROLLKIT_DECLARE in CDynamicLibrary.h).
#define SCROLLKIT_JXL_FUNCTIONS(X, V)                                                                      \
    X(JxlDecoder *, JxlDecoderCreate, (const JxlMemoryManager *manager), (manager))                       \
    V(JxlDecoderDestroy, (JxlDecoder *decoder), (decoder))                                                \
    X(JxlDecoderStatus, JxlDecoderSubscribeEvents, (JxlDecoder *decoder, int events), (decoder, events))  \
    X(JxlDecoderStatus, JxlDecoderSetKeepOrientation, (JxlDecoder *decoder, JXL_BOOL keep), (decoder, keep)) \
    X(JxlDecoderStatus, JxlDecoderSetInput, (JxlDecoder *decoder, const uint8_t *data, size_t size),      \
      (decoder, data, size))                                                                              \
    X(JxlDecoderStatus, JxlDecoderProcessInput, (JxlDecoder *decoder), (decoder))                         \
    X(JxlDecoderStatus, JxlDecoderGetBasicInfo, (const JxlDecoder *decoder, JxlBasicInfo *info), (decoder, info)) \
    X(JxlDecoderStatus, JxlDecoderSetPreferredColorProfile,                                               \
      (JxlDecoder *decoder, const JxlColorEncoding *encoding), (decoder, encoding))                       \
    X(JxlDecoderStatus, JxlDecoderGetICCProfileSize,                                                      \
      (const JxlDecoder *decoder, const JxlPixelFormat *format, JxlColorProfileTarget target, size_t *size), \
      (decoder, format, target, size))                                                                    \
    X(JxlDecoderStatus, JxlDecoderGetColorAsICCProfile,                                                   \
      (const JxlDecoder *decoder, const JxlPixelFormat *format, JxlColorProfileTarget target, uint8_t *profile, \
       size_t size),                                                                                      \
      (decoder, format, target, profile, size))                                                           \
    X(JxlDecoderStatus, JxlDecoderGetColorAsEncodedProfile,                                               \
      (const JxlDecoder *decoder, const JxlPixelFormat *format, JxlColorProfileTarget target,            \
       JxlColorEncoding *encoding),                                                                       \
      (decoder, format, target, encoding))                                                                \
    X(JxlDecoderStatus, JxlDecoderSetImageOutCallback,                                                    \
      (JxlDecoder *decoder, const JxlPixelFormat *format, JxlImageOutCallback callback, void *opaque),    \
      (decoder, format, callback, opaque))                                                                \
    X(JxlDecoderStatus, JxlDecoderFlushImage, (JxlDecoder *decoder), (decoder))

/// Loads libjxl once (any thread): NULL when ready, else a message saying why it cannot be used.
const char *scrollkit_jxl_open(void);

SCROLLKIT_JXL_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

#endif
