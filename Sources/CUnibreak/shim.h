// Umbrella header for the CUnibreak system library (libunibreak, UAX #14 line breaking; flags
// from pkg-config).
#include <stddef.h>
#include <linebreak.h>
