// Pixel memory a compositor can read: a sealed memfd mapped read-write (see CFileMapping.h).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CFileMapping.h"

int scrollkit_shared_memory(size_t length, void **bytes) {
    *bytes = NULL;
    if (length == 0 || length > (size_t)0x7fffffff) return -EINVAL;  // wl_shm pools are int32-sized
    int fd = memfd_create("scrollkit-picture", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -errno;
    if (ftruncate(fd, (off_t)length) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    // Neither side can change its size once shared: a shrunk file would fault the reader.
    (void)fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
    void *mapped = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) {
        int error = errno;
        close(fd);
        return -error;
    }
    *bytes = mapped;
    return fd;
}

void scrollkit_shared_memory_free(int fd, void *bytes, size_t length) {
    if (bytes) munmap(bytes, length);
    if (fd >= 0) close(fd);
}
