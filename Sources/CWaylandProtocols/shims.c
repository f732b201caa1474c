/* C helpers for the Wayland module: things Swift's Glibc import cannot reach. */
#define _GNU_SOURCE
#include <sys/eventfd.h>
#include <sys/mman.h>
#include "CWaylandProtocols.h"

int sk_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int sk_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}
