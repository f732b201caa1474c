// The libjxl_threads wrappers (see CJXL.h), calling into the library
// scrollkit_jxl_threads_open loaded: a file of their own, since the wrappers use the file's
// `library`.
#include "CJXL.h"

SCROLLKIT_LIBRARY(SCROLLKIT_JXL_THREADS_FUNCTIONS, SCROLLKIT_JXL_SONAME("libjxl_threads"))

const char *scrollkit_jxl_threads_open(void) { return scrollkit_library_open(&library); }
