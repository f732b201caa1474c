// Umbrella header for glibc's allocator controls (malloc.h, which the Glibc module leaves out):
// the gallery gives free pages back with malloc_trim once it comes to rest.
#include <malloc.h>
