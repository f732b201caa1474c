// Umbrella header for the CLibdecor system library (flags from pkg-config libdecor-0): client-side
// window decorations drawn by a plugin libdecor loads at run time (Debian 12: the cairo one).
#include <libdecor.h>
