// Umbrella header for the CTurboJPEG system library (flags from pkg-config).
#include <turbojpeg.h>
