// libjxl (JPEG XL), opened on first use: its types from its own header, its functions through
// the wrappers below (scrollkit_ + the libjxl name), which call into the library
// `scrollkit_jxl_open` loaded. libjxl is not linked, so a direct call fails to link.
#ifndef SCROLLKIT_JXL_H
#define SCROLLKIT_JXL_H

#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <jxl/version.h>

#include "CDynamicLibrary.h"

// The sonames of libjxl and libjxl_threads carry the minor version while the major one is 0
// (libjxl.so.0.7): SCROLLKIT_JXL_SONAME("libjxl").
#define SCROLLKIT_JXL_TEXT(value) #value
#define SCROLLKIT_JXL_VERSION_TEXT(value) SCROLLKIT_JXL_TEXT(value)
#if JPEGXL_MAJOR_VERSION == 0
#define SCROLLKIT_JXL_SONAME(base) base ".so.0." SCROLLKIT_JXL_VERSION_TEXT(JPEGXL_MINOR_VERSION)
#else
#define SCROLLKIT_JXL_SONAME(base) base ".so." SCROLLKIT_JXL_VERSION_TEXT(JPEGXL_MAJOR_VERSION)
#endif

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
    X(JxlDecoderStatus, JxlDecoderFlushImage, (JxlDecoder *decoder), (decoder))                         \
    X(JxlDecoderStatus, JxlDecoderSetParallelRunner,                                                      \
      (JxlDecoder *decoder, JxlParallelRunner runner, void *opaque), (decoder, runner, opaque))

/// Loads libjxl once (any thread): NULL when ready, else a message saying why it cannot be used.
const char *scrollkit_jxl_open(void);

SCROLLKIT_JXL_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

/// The libjxl_threads functions the viewer calls: its pool of worker threads, which decodes a
/// picture's groups on several cores (`scrollkit_JxlThreadParallelRunner` is the runner
/// JxlDecoderSetParallelRunner takes).
#define SCROLLKIT_JXL_THREADS_FUNCTIONS(X, V)                                                              \
    X(void *, JxlThreadParallelRunnerCreate, (const JxlMemoryManager *manager, size_t workers),           \
      (manager, workers))                                                                                 \
    V(JxlThreadParallelRunnerDestroy, (void *runner), (runner))                                           \
    X(JxlParallelRetCode, JxlThreadParallelRunner,                                                        \
      (void *runner, void *opaque, JxlParallelRunInit init, JxlParallelRunFunction function,              \
       uint32_t start, uint32_t end),                                                                     \
      (runner, opaque, init, function, start, end))

/// Loads libjxl_threads once (any thread): NULL when ready, else a message saying why it
/// cannot be used (pictures then decode on one thread).
const char *scrollkit_jxl_threads_open(void);

SCROLLKIT_JXL_THREADS_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

#endif
