// libsystemd's service notifications, sd_notify(3) and sd_watchdog_enabled(3), opened only
// when the viewer runs as a service: its functions through the wrappers below (scrollkit_ +
// the libsystemd name), which call into the library `scrollkit_systemd_open` loaded.
// libsystemd is not linked (with it came libgcrypt, libgpg-error, liblz4, liblzma, libzstd and
// libcap), so a direct call fails to link.
#ifndef SCROLLKIT_SYSTEMD_H
#define SCROLLKIT_SYSTEMD_H

#include <systemd/sd-daemon.h>

#include "CDynamicLibrary.h"

/// Every libsystemd function the viewer calls (see SCROLLKIT_DECLARE in CDynamicLibrary.h).
#define SCROLLKIT_SYSTEMD_FUNCTIONS(X, V)                                                                  \
    X(int, sd_notify, (int unset_environment, const char *state), (unset_environment, state))             \
    X(int, sd_watchdog_enabled, (int unset_environment, uint64_t *usec), (unset_environment, usec))

/// Loads libsystemd once (any thread): NULL when ready, else a message saying why it cannot be used.
const char *scrollkit_systemd_open(void);

SCROLLKIT_SYSTEMD_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

#endif
