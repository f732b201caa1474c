// The libheif wrappers (see CHEIF.h), calling into the library scrollkit_heif_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libheif when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CHEIF.h"

// libheif 1.x keeps one soname; a new major version would need a new one here.
_Static_assert((LIBHEIF_NUMERIC_VERSION >> 24) == 1, "libheif 1.x: soname libheif.so.1");

static const char *const names[] = {SCROLLKIT_HEIF_FUNCTIONS(SCROLLKIT_NAME, SCROLLKIT_NAME_VOID)};
enum { SCROLLKIT_HEIF_FUNCTIONS(SCROLLKIT_INDEX, SCROLLKIT_INDEX_VOID) function_count };
static void *functions[function_count];
static scrollkit_library library = {"libheif.so.1", names, functions, function_count, 0, {0}};

const char *scrollkit_heif_open(void) { return scrollkit_library_open(&library); }

SCROLLKIT_HEIF_FUNCTIONS(SCROLLKIT_WRAP, SCROLLKIT_WRAP_VOID)
