// The libheif wrappers (see CHEIF.h), calling into the library scrollkit_heif_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libheif when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#define _GNU_SOURCE  // sched_getcpu, cpu_set_t
#include <sched.h>

#include "CHEIF.h"

// libheif 1.x keeps one soname; a new major version would need a new one here.
_Static_assert((LIBHEIF_NUMERIC_VERSION >> 24) == 1, "libheif 1.x: soname libheif.so.1");

SCROLLKIT_LIBRARY(SCROLLKIT_HEIF_FUNCTIONS, "libheif.so.1")

const char *scrollkit_heif_open(void) { return scrollkit_library_open(&library); }

// libheif 1.15 gives no way to set dav1d's threads, and dav1d starts as many as the calling
// thread may run on (sched_getaffinity), with a frame-threading buffer that a still picture never
// gains from: so the calling thread is bound to the CPU it is on while it decodes, and unbound
// after. Measured on a 6000×4000 AVIF (heif-enc -A -q 90) on 2 CPUs: peak 191 MB and 0.31 s
// as libheif decodes it, 115 MB and 0.31 s on one CPU.
struct heif_error scrollkit_heif_decode_image_on_one_cpu(const struct heif_image_handle *handle,
                                                         struct heif_image **image,
                                                         enum heif_colorspace colorspace,
                                                         enum heif_chroma chroma,
                                                         const struct heif_decoding_options *options) {
    cpu_set_t before;
    int bound = 0;
    int cpu = sched_getcpu();
    if (cpu >= 0 && cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof before, &before) == 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        bound = sched_setaffinity(0, sizeof one, &one) == 0;
    }
    struct heif_error error = scrollkit_heif_decode_image(handle, image, colorspace, chroma, options);
    if (bound) sched_setaffinity(0, sizeof before, &before);
    return error;
}
