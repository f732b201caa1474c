// The libjxl wrappers (see CJXL.h), calling into the library scrollkit_jxl_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libjxl when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CJXL.h"

static const char *const names[] = {SCROLLKIT_JXL_FUNCTIONS(SCROLLKIT_NAME, SCROLLKIT_NAME_VOID)};
enum { SCROLLKIT_JXL_FUNCTIONS(SCROLLKIT_INDEX, SCROLLKIT_INDEX_VOID) function_count };
static void *functions[function_count];
static scrollkit_library library = {SCROLLKIT_JXL_SONAME("libjxl"), names, functions, function_count, 0, {0}};

const char *scrollkit_jxl_open(void) { return scrollkit_library_open(&library); }

SCROLLKIT_JXL_FUNCTIONS(SCROLLKIT_WRAP, SCROLLKIT_WRAP_VOID)
