// The libtiff wrappers (see CTIFF.h), calling into the library scrollkit_tiff_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libtiff-4 when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CTIFF.h"

// libtiff 4.5 took the soname libtiff.so.6 (4.0 to 4.4 were libtiff.so.5), and brought the
// TIFFOpenOptions calls used here; a new major version would need a new soname here.
_Static_assert(TIFFLIB_MAJOR_VERSION == 4 && TIFFLIB_MINOR_VERSION >= 5,
               "libtiff 4.5 or a later 4.x: soname libtiff.so.6");

SCROLLKIT_LIBRARY(SCROLLKIT_TIFF_FUNCTIONS, "libtiff.so.6")

const char *scrollkit_tiff_open(void) { return scrollkit_library_open(&library); }
