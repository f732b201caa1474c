// The libwebpdemux wrappers (see CWebP.h), calling into the library scrollkit_webp_open loaded.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no libwebpdemux when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CWebP.h"

// As for libwebp (webp.c): demux.h gives only its ABI version, which libwebpdemux checks at
// each ...Internal call; ABI 1.x is what libwebpdemux.so.2 takes (libwebp 1.x).
_Static_assert((WEBP_DEMUX_ABI_VERSION >> 8) == 1, "libwebpdemux ABI 1.x: soname libwebpdemux.so.2");

// libwebpdemux needs libwebp (its own dependency), which the loader brings with it.
SCROLLKIT_LIBRARY(SCROLLKIT_WEBP_DEMUX_FUNCTIONS, "libwebpdemux.so.2")

// Called by scrollkit_webp_open once libwebp is open.
const char *scrollkit_webp_demux_open(void) { return scrollkit_library_open(&library); }

WebPDemuxer *scrollkit_WebPDemux(const WebPData *data) {
    return scrollkit_WebPDemuxInternal(data, 0, NULL, WEBP_DEMUX_ABI_VERSION);
}

WebPDemuxer *scrollkit_WebPDemuxPartial(const WebPData *data, WebPDemuxState *state) {
    return scrollkit_WebPDemuxInternal(data, 1, state, WEBP_DEMUX_ABI_VERSION);
}

int scrollkit_WebPAnimDecoderOptionsInit(WebPAnimDecoderOptions *options) {
    return scrollkit_WebPAnimDecoderOptionsInitInternal(options, WEBP_DEMUX_ABI_VERSION);
}

WebPAnimDecoder *scrollkit_WebPAnimDecoderNew(const WebPData *data, const WebPAnimDecoderOptions *options) {
    return scrollkit_WebPAnimDecoderNewInternal(data, options, WEBP_DEMUX_ABI_VERSION);
}
