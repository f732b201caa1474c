// Umbrella header for the CWaylandCursor system library (flags from pkg-config).
#include <wayland-cursor.h>
