// Read-only file mappings that survive the file shrinking under them (see CFileMapping.h).
// Written here because no packaged library does this: GNU libsigsegv catches SIGSEGV for
// garbage collectors and stack overflow, not SIGBUS on a shrunken file mapping.
#include "CFileMapping.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/// Mappings alive at once: a picture decoding and its neighbours prefetching need a few.
#define SLOTS 16

/// Each slot's first and last-plus-one address (0, 0 when free) and whether it was damaged,
/// read by the handler with atomic loads; written under `table_lock`.
static uintptr_t slot_start[SLOTS], slot_end[SLOTS];
static int slot_damaged[SLOTS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static struct sigaction previous_action;
static int handler_error;
/// Read once before the handler is installed: sysconf is not async-signal-safe.
static uintptr_t page_size;

/// A fault inside a live mapping (the file ended before the page): a private page of zeros
/// replaces it, and the instruction runs again. Any other SIGBUS goes to the handler that was
/// there before (the Swift runtime's crash report) or to the default action.
static void on_sigbus(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t start = __atomic_load_n(&slot_start[i], __ATOMIC_ACQUIRE);
        uintptr_t end = __atomic_load_n(&slot_end[i], __ATOMIC_ACQUIRE);
        if (start == 0 || address < start || address >= end) continue;
        uintptr_t page = address & ~(page_size - 1);
        int saved = errno;
        // mmap is a plain system call in glibc, safe in a handler in practice.
        void *zeros = mmap((void *)page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        errno = saved;
        if (zeros != MAP_FAILED) {
            __atomic_store_n(&slot_damaged[i], 1, __ATOMIC_RELEASE);
            return;
        }
        break;
    }
    if (previous_action.sa_flags & SA_SIGINFO) {
        previous_action.sa_sigaction(signal, info, context);
    } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
        previous_action.sa_handler(signal);
    } else {
        // The default action: returning runs the access again, which now ends the process.
        struct sigaction fallback;
        memset(&fallback, 0, sizeof fallback);
        fallback.sa_handler = SIG_DFL;
        sigaction(SIGBUS, &fallback, NULL);
    }
}

static void install_handler(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous_action) != 0) handler_error = errno;
}

int scrollkit_map(int fd, size_t length, scrollkit_mapping *out) {
    out->bytes = NULL;
    out->length = 0;
    out->slot = -1;
    if (length == 0) return EINVAL;
    pthread_once(&handler_once, install_handler);
    if (handler_error != 0) return handler_error;
    void *bytes = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (bytes == MAP_FAILED) return errno;
    // Decoders read it from start to end, on two threads: read ahead of both.
    (void)madvise(bytes, length, MADV_WILLNEED);
    pthread_mutex_lock(&table_lock);
    int slot = -1;
    for (int i = 0; i < SLOTS && slot < 0; i++) {
        if (__atomic_load_n(&slot_start[i], __ATOMIC_RELAXED) == 0) slot = i;
    }
    if (slot >= 0) {
        __atomic_store_n(&slot_damaged[slot], 0, __ATOMIC_RELAXED);
        __atomic_store_n(&slot_end[slot], (uintptr_t)bytes + length, __ATOMIC_RELEASE);
        __atomic_store_n(&slot_start[slot], (uintptr_t)bytes, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&table_lock);
    if (slot < 0) {
        munmap(bytes, length);
        return EBUSY;
    }
    out->bytes = bytes;
    out->length = length;
    out->slot = slot;
    return 0;
}

int scrollkit_mapping_damaged(scrollkit_mapping mapping) {
    if (mapping.slot < 0) return 0;
    return __atomic_load_n(&slot_damaged[mapping.slot], __ATOMIC_ACQUIRE);
}

void scrollkit_unmap(scrollkit_mapping *mapping) {
    if (mapping->bytes == NULL) return;
    // Out of the table first: the handler never takes a later mapping at this address for it.
    pthread_mutex_lock(&table_lock);
    __atomic_store_n(&slot_start[mapping->slot], 0, __ATOMIC_RELEASE);
    __atomic_store_n(&slot_end[mapping->slot], 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&table_lock);
    munmap((void *)mapping->bytes, mapping->length);
    mapping->bytes = NULL;
    mapping->length = 0;
    mapping->slot = -1;
}
