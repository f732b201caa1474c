// Umbrella header for the CXKBCommon system library (flags from pkg-config).
#include <xkbcommon/xkbcommon.h>
