// Umbrella header for the CTIFF system library (flags from pkg-config).
#include <tiffio.h>
