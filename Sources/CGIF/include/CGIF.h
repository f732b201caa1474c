// giflib, opened on first use: its types from its own header, its functions through the
// wrappers below (scrollkit_ + the giflib name), which call into the library
// `scrollkit_gif_open` loaded. giflib is not linked, so a direct call fails to link.
#ifndef SCROLLKIT_GIF_H
#define SCROLLKIT_GIF_H

#include <gif_lib.h>

#include "CDynamicLibrary.h"

/// Every giflib function the viewer calls (see SCROLLKIT_DECLARE in CDynamicLibrary.h).
#define SCROLLKIT_GIF_FUNCTIONS(X, V)                                                                      \
    X(GifFileType *, DGifOpen, (void *user, InputFunc read, int *error), (user, read, error))             \
    X(int, DGifCloseFile, (GifFileType *gif, int *error), (gif, error))                                   \
    X(int, DGifGetRecordType, (GifFileType *gif, GifRecordType *type), (gif, type))                       \
    X(int, DGifGetExtension, (GifFileType *gif, int *code, GifByteType **extension), (gif, code, extension)) \
    X(int, DGifGetExtensionNext, (GifFileType *gif, GifByteType **extension), (gif, extension))           \
    X(int, DGifExtensionToGCB, (const size_t length, const GifByteType *extension, GraphicsControlBlock *control), \
      (length, extension, control))                                                                       \
    X(int, DGifGetImageHeader, (GifFileType *gif), (gif))                                                 \
    X(int, DGifGetLine, (GifFileType *gif, GifPixelType *line, int length), (gif, line, length))          \
    X(const char *, GifErrorString, (int error), (error))

/// Loads giflib once (any thread): NULL when ready, else a message saying why it cannot be used.
const char *scrollkit_gif_open(void);

SCROLLKIT_GIF_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

#endif
