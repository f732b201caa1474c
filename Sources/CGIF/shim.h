// Umbrella header for the CGIF system library (flags from pkg-config).
#include <gif_lib.h>
