// Umbrella header for the CHEIF system library (flags from pkg-config).
#include <libheif/heif.h>
