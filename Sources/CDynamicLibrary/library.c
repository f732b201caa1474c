// dlopen and dlsym, once per library, behind one lock. glibc has no lazy loading of linked
// libraries (Solaris' -z lazyload), and no packaged tool generates these stubs, so this is the
// small part written here.
#include "CDynamicLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/// One lock for every library: each is opened once, so it is never contended for long.
static pthread_mutex_t opening = PTHREAD_MUTEX_INITIALIZER;

const char *scrollkit_library_open(scrollkit_library *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&opening);
        state = __atomic_load_n(&library->state, __ATOMIC_RELAXED);
        if (state == 0) {
            // RTLD_LOCAL: its symbols stay out of the global scope, so they can never stand in
            // for another library's; RTLD_NOW: a missing symbol shows now, not mid-decode.
            void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
            if (handle == NULL) {
                const char *why = dlerror();
                snprintf(library->error, sizeof library->error, "%s cannot be loaded (%s)", library->soname,
                         why ? why : "no reason given");
                state = 2;
            } else {
                state = 1;
                for (size_t i = 0; i < library->count; i++) {
                    // dlsym through the handle searches the library and its own dependencies
                    // (librsvg's cairo and GObject among them).
                    library->functions[i] = dlsym(handle, library->names[i]);
                    if (library->functions[i] == NULL) {
                        snprintf(library->error, sizeof library->error, "%s has no function %s", library->soname,
                                 library->names[i]);
                        state = 2;
                        break;
                    }
                }
                // A library that lacks a function is not used, but stays loaded: closing one
                // that may have started threads or registered handlers is not safe.
            }
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&opening);
    }
    return state == 1 ? NULL : library->error;
}

void *scrollkit_library_function(scrollkit_library *library, size_t index) {
    if (__atomic_load_n(&library->state, __ATOMIC_ACQUIRE) != 1 || index >= library->count) {
        fprintf(stderr, "scrollkit: %s used before it was opened\n", library->soname);
        abort();
    }
    return library->functions[index];
}
