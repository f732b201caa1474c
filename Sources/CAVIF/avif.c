// The libavif wrappers (see CAVIF.h), calling into the library scrollkit_avif_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libavif when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif

#include "CAVIF.h"

// libavif 0.11 (Debian 12) is soname 15; another version has another soname and ABI.
_Static_assert(AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11, "libavif 0.11: soname libavif.so.15");

SCROLLKIT_LIBRARY(SCROLLKIT_AVIF_FUNCTIONS, "libavif.so.15")

const char *scrollkit_avif_open(void) { return scrollkit_library_open(&library); }
