// The libsystemd wrappers (see CSystemd.h), calling into the library scrollkit_systemd_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libsystemd when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CSystemd.h"

// sd-daemon.h gives no version to check: libsystemd.so.0 is the soname systemd has kept since
// it merged its libraries into libsystemd (systemd 209), adding functions without breaking any.
static const char *const names[] = {SCROLLKIT_SYSTEMD_FUNCTIONS(SCROLLKIT_NAME, SCROLLKIT_NAME_VOID)};
enum { SCROLLKIT_SYSTEMD_FUNCTIONS(SCROLLKIT_INDEX, SCROLLKIT_INDEX_VOID) function_count };
static void *functions[function_count];
static scrollkit_library library = {"libsystemd.so.0", names, functions, function_count, 0, {0}};

const char *scrollkit_systemd_open(void) { return scrollkit_library_open(&library); }

SCROLLKIT_SYSTEMD_FUNCTIONS(SCROLLKIT_WRAP, SCROLLKIT_WRAP_VOID)
