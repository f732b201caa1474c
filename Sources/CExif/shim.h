// Umbrella header for the CExif system library (libexif, EXIF tags of camera files; flags from
// pkg-config).
#include <libexif/exif-data.h>
