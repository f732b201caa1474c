// The libjxl_threads wrappers (see CJXL.h), calling into the library
// scrollkit_jxl_threads_open loaded: a file of their own, since the wrappers use the file's
// `library`.
#include "CJXL.h"

static const char *const names[] = {SCROLLKIT_JXL_THREADS_FUNCTIONS(SCROLLKIT_NAME, SCROLLKIT_NAME_VOID)};
enum { SCROLLKIT_JXL_THREADS_FUNCTIONS(SCROLLKIT_INDEX, SCROLLKIT_INDEX_VOID) function_count };
static void *functions[function_count];
static scrollkit_library library = {SCROLLKIT_JXL_SONAME("libjxl_threads"), names, functions, function_count, 0, {0}};

const char *scrollkit_jxl_threads_open(void) { return scrollkit_library_open(&library); }

SCROLLKIT_JXL_THREADS_FUNCTIONS(SCROLLKIT_WRAP, SCROLLKIT_WRAP_VOID)
