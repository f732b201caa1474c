// Umbrella header for the CFontconfig system library (flags from pkg-config).
#include <fontconfig/fontconfig.h>
