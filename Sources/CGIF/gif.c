// The giflib wrappers (see CGIF.h), calling into the library scrollkit_gif_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libgif when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CGIF.h"

// giflib 5.1 took the soname libgif.so.7, with DGifCloseFile's error argument; a new major
// version would need a new soname here.
_Static_assert(GIFLIB_MAJOR == 5 && GIFLIB_MINOR >= 1, "giflib 5.1 or a later 5.x: soname libgif.so.7");

static const char *const names[] = {SCROLLKIT_GIF_FUNCTIONS(SCROLLKIT_NAME, SCROLLKIT_NAME_VOID)};
enum { SCROLLKIT_GIF_FUNCTIONS(SCROLLKIT_INDEX, SCROLLKIT_INDEX_VOID) function_count };
static void *functions[function_count];
static scrollkit_library library = {"libgif.so.7", names, functions, function_count, 0, {0}};

const char *scrollkit_gif_open(void) { return scrollkit_library_open(&library); }

SCROLLKIT_GIF_FUNCTIONS(SCROLLKIT_WRAP, SCROLLKIT_WRAP_VOID)
