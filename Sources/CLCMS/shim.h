// Umbrella header for the CLCMS system library (flags from pkg-config).
#include <lcms2.h>
