// The libwebp wrappers (see CWebP.h), calling into the library scrollkit_webp_open loaded;
// libwebpdemux's are in demux.c, a library of its own.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libwebpdemux when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CWebP.h"

// decode.h gives no library version, only its decoder ABI's (the major in the high byte),
// which libwebp checks at each ...Internal call: ABI 2.x is what libwebp.so.7 takes (libwebp
// 1.x); a new major version would come with a new soname here.
_Static_assert((WEBP_DECODER_ABI_VERSION >> 8) == 2, "libwebp decoder ABI 2.x: soname libwebp.so.7");

SCROLLKIT_LIBRARY(SCROLLKIT_WEBP_FUNCTIONS, "libwebp.so.7")

/// Loads libwebpdemux (demux.c).
const char *scrollkit_webp_demux_open(void);

const char *scrollkit_webp_open(void) {
    const char *problem = scrollkit_library_open(&library);
    return problem ? problem : scrollkit_webp_demux_open();
}

VP8StatusCode scrollkit_WebPGetFeatures(const uint8_t *data, size_t size, WebPBitstreamFeatures *features) {
    return scrollkit_WebPGetFeaturesInternal(data, size, features, WEBP_DECODER_ABI_VERSION);
}

int scrollkit_WebPInitDecoderConfig(WebPDecoderConfig *config) {
    return scrollkit_WebPInitDecoderConfigInternal(config, WEBP_DECODER_ABI_VERSION);
}
