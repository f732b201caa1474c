// Umbrella header for the CRSVG system library (flags from pkg-config).
#include <librsvg/rsvg.h>
#include <cairo.h>
