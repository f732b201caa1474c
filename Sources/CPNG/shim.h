// Umbrella header for the CPNG system library (flags from pkg-config).
#include <png.h>
