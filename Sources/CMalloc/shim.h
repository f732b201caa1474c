// Umbrella header for glibc's allocator controls (malloc.h, which the Glibc module leaves out):
// the gallery gives free pages back with malloc_trim once it comes to rest, and the viewer sets
// the size above which blocks are mapped on their own with mallopt.
#include <malloc.h>
