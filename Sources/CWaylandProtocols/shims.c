/* C helpers for the Wayland module: things Swift's Glibc import cannot reach. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include "CWaylandProtocols.h"

int sk_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int sk_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int sk_memfd_size_seals(void) {
    return F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;
}

int sk_memfd_seal_size(int fd) {
    return fcntl(fd, F_ADD_SEALS, sk_memfd_size_seals());
}

int sk_memfd_seals(int fd) {
    return fcntl(fd, F_GET_SEALS);
}
