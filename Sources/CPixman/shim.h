// Umbrella header for the CPixman system library (flags from pkg-config).
#include <pixman.h>
