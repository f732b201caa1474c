// The lcms2 wrappers (see CLCMS.h), calling into the library scrollkit_lcms_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no lcms2 when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CLCMS.h"

// LCMS_VERSION is major × 1000 + minor × 10 (2140: 2.14); lcms2 2.x keeps one soname, a new
// major version would need a new one here.
_Static_assert(LCMS_VERSION / 1000 == 2, "lcms2 2.x: soname liblcms2.so.2");

SCROLLKIT_LIBRARY(SCROLLKIT_LCMS_FUNCTIONS, "liblcms2.so.2")

const char *scrollkit_lcms_open(void) { return scrollkit_library_open(&library); }
