// The libsystemd wrappers (see CSystemd.h), calling into the library scrollkit_systemd_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libsystemd when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CSystemd.h"

// sd-daemon.h gives no version to check: libsystemd.so.0 is the soname systemd has kept since
// it merged its libraries into libsystemd (systemd 209), adding functions without breaking any.
SCROLLKIT_LIBRARY(SCROLLKIT_SYSTEMD_FUNCTIONS, "libsystemd.so.0")

const char *scrollkit_systemd_open(void) { return scrollkit_library_open(&library); }
