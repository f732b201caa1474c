// Umbrella header for the CZlib system library (flags from pkg-config): the tests deflate the
// rows of the large PNG files they write.
#include <zlib.h>
