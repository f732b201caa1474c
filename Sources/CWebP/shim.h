// Umbrella header for the CWebP system library (flags from pkg-config).
#include <webp/decode.h>
#include <webp/demux.h>
