/* CWaylandProtocols: the wayland-scanner glue for the Protocols/ XML files, plus the few C helpers
 * Swift cannot express. Regenerate the *-protocol.[ch] files with Scripts/gen-protocols.sh. */
#ifndef CWAYLANDPROTOCOLS_H
#define CWAYLANDPROTOCOLS_H

#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "kde-fake-input-client-protocol.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"

/* Swift imports `extern const struct wl_interface x_interface` as a value; libwayland keeps
 * the pointer it is given, so it must be the symbol's real address, taken here in C. */
#define SK_INTERFACE(name) \
    static inline const struct wl_interface *sk_##name##_interface(void) { return &name##_interface; }
SK_INTERFACE(wl_compositor)
SK_INTERFACE(wl_subcompositor)
SK_INTERFACE(wl_shm)
SK_INTERFACE(wl_seat)
SK_INTERFACE(wl_output)
SK_INTERFACE(xdg_wm_base)
SK_INTERFACE(wp_viewporter)
SK_INTERFACE(wp_presentation)
SK_INTERFACE(wp_fractional_scale_manager_v1)
SK_INTERFACE(zxdg_decoration_manager_v1)
SK_INTERFACE(zwp_pointer_gestures_v1)
SK_INTERFACE(zwlr_virtual_pointer_manager_v1)
SK_INTERFACE(zwp_virtual_keyboard_manager_v1)
SK_INTERFACE(org_kde_kwin_fake_input)
SK_INTERFACE(zwp_idle_inhibit_manager_v1)
#undef SK_INTERFACE

/* memfd_create needs _GNU_SOURCE, which Swift's Glibc import does not define.
 * Returns a sealable, close-on-exec anonymous file or -1 with errno set. */
int sk_memfd_create(const char *name);

/* The memfd seals that fix a file's size (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL, from
 * fcntl.h under _GNU_SOURCE): once added, neither side can resize the file and no seal can be
 * added or removed. */
int sk_memfd_size_seals(void);

/* Adds sk_memfd_size_seals() to a memfd created with MFD_ALLOW_SEALING; 0 or -1 with errno set. */
int sk_memfd_seal_size(int fd);

/* The seals of fd (F_GET_SEALS), or -1 with errno set. */
int sk_memfd_seals(int fd);

/* sys/eventfd.h is not part of Swift's Glibc import. Returns a non-blocking, close-on-exec
 * eventfd with a count of 0, or -1 with errno set. */
int sk_eventfd(void);

#endif
