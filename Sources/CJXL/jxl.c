// The libjxl wrappers (see CJXL.h), calling into the library scrollkit_jxl_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libjxl when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CJXL.h"

SCROLLKIT_LIBRARY(SCROLLKIT_JXL_FUNCTIONS, SCROLLKIT_JXL_SONAME("libjxl"))

const char *scrollkit_jxl_open(void) { return scrollkit_library_open(&library); }
