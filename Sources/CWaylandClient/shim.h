// Umbrella header for the CWaylandClient system library (flags from pkg-config).
#include <wayland-client.h>
