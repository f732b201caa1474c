// Umbrella header for the CJXL system library (flags from pkg-config).
#include <jxl/decode.h>
