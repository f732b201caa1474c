// libtiff, opened on first use: its types from its own header, its functions through the
// wrappers below (scrollkit_ + the libtiff name), which call into the library
// `scrollkit_tiff_open` loaded. libtiff is not linked, so a direct call fails to link.
#ifndef SCROLLKIT_TIFF_H
#define SCROLLKIT_TIFF_H

#include <tiffio.h>

#include "CDynamicLibrary.h"

/// Every libtiff function the viewer calls (see SCROLLKIT_DECLARE in CDynamicLibrary.h).
/// TIFFGetField is variadic, which Swift cannot call: tags are read through TIFFVGetField.
#define SCROLLKIT_TIFF_FUNCTIONS(X, V)                                                                     \
    X(TIFFOpenOptions *, TIFFOpenOptionsAlloc, (void), ())                                                \
    V(TIFFOpenOptionsFree, (TIFFOpenOptions *options), (options))                                         \
    V(TIFFOpenOptionsSetMaxSingleMemAlloc, (TIFFOpenOptions *options, tmsize_t limit), (options, limit))  \
    V(TIFFOpenOptionsSetErrorHandlerExtR, (TIFFOpenOptions *options, TIFFErrorHandlerExtR handler, void *user), \
      (options, handler, user))                                                                           \
    V(TIFFOpenOptionsSetWarningHandlerExtR, (TIFFOpenOptions *options, TIFFErrorHandlerExtR handler, void *user), \
      (options, handler, user))                                                                           \
    X(TIFF *, TIFFClientOpenExt,                                                                          \
      (const char *name, const char *mode, thandle_t client, TIFFReadWriteProc read, TIFFReadWriteProc write, \
       TIFFSeekProc seek, TIFFCloseProc close, TIFFSizeProc size, TIFFMapFileProc map, TIFFUnmapFileProc unmap, \
       TIFFOpenOptions *options),                                                                         \
      (name, mode, client, read, write, seek, close, size, map, unmap, options))                           \
    V(TIFFClose, (TIFF *tif), (tif))                                                                      \
    X(int, TIFFVGetField, (TIFF *tif, uint32_t tag, va_list arguments), (tif, tag, arguments))            \
    X(tdir_t, TIFFNumberOfDirectories, (TIFF *tif), (tif))                                                \
    X(int, TIFFSetDirectory, (TIFF *tif, tdir_t directory), (tif, directory))                             \
    X(int, TIFFIsTiled, (TIFF *tif), (tif))                                                               \
    X(tmsize_t, TIFFStripSize, (TIFF *tif), (tif))                                                        \
    X(tmsize_t, TIFFTileSize, (TIFF *tif), (tif))                                                         \
    X(int, TIFFRGBAImageOK, (TIFF *tif, char message[1024]), (tif, message))                              \
    X(int, TIFFRGBAImageBegin, (TIFFRGBAImage *image, TIFF *tif, int stop, char message[1024]),          \
      (image, tif, stop, message))                                                                        \
    X(int, TIFFRGBAImageGet, (TIFFRGBAImage *image, uint32_t *raster, uint32_t width, uint32_t height),  \
      (image, raster, width, height))                                                                     \
    V(TIFFRGBAImageEnd, (TIFFRGBAImage *image), (image))

/// Loads libtiff once (any thread): NULL when ready, else a message saying why it cannot be used.
const char *scrollkit_tiff_open(void);

SCROLLKIT_TIFF_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

#endif
