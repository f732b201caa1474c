// The giflib wrappers (see CGIF.h), calling into the library scrollkit_gif_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libgif when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CGIF.h"

// giflib 5.1 took the soname libgif.so.7, with DGifCloseFile's error argument; a new major
// version would need a new soname here.
_Static_assert(GIFLIB_MAJOR == 5 && GIFLIB_MINOR >= 1, "giflib 5.1 or a later 5.x: soname libgif.so.7");

SCROLLKIT_LIBRARY(SCROLLKIT_GIF_FUNCTIONS, "libgif.so.7")

const char *scrollkit_gif_open(void) { return scrollkit_library_open(&library); }
