// libwebp and libwebpdemux, opened on first use: their types from their own headers, their
// functions through the wrappers below (scrollkit_ + the libwebp name), which call into the
// libraries `scrollkit_webp_open` loaded. Neither is linked, so a direct call fails to link:
// the headers' inline functions too (WebPGetFeatures and the like call versioned ...Internal
// functions), whose equivalents are scrollkit_ functions below.
#ifndef SCROLLKIT_WEBP_H
#define SCROLLKIT_WEBP_H

#include <webp/decode.h>
#include <webp/demux.h>

#include "CDynamicLibrary.h"

/// Every libwebp function the viewer calls (see SCROLLKIT_DECLARE in CDynamicLibrary.h).
#define SCROLLKIT_WEBP_FUNCTIONS(X, V)                                                                     \
    X(VP8StatusCode, WebPGetFeaturesInternal,                                                             \
      (const uint8_t *data, size_t size, WebPBitstreamFeatures *features, int version),                   \
      (data, size, features, version))                                                                    \
    X(int, WebPInitDecoderConfigInternal, (WebPDecoderConfig *config, int version), (config, version))    \
    X(WebPIDecoder *, WebPIDecode, (const uint8_t *data, size_t size, WebPDecoderConfig *config),         \
      (data, size, config))                                                                               \
    X(VP8StatusCode, WebPIUpdate, (WebPIDecoder *decoder, const uint8_t *data, size_t size),              \
      (decoder, data, size))                                                                              \
    X(uint8_t *, WebPIDecGetRGB, (const WebPIDecoder *decoder, int *last_y, int *width, int *height, int *stride), \
      (decoder, last_y, width, height, stride))                                                           \
    V(WebPIDelete, (WebPIDecoder *decoder), (decoder))

/// Every libwebpdemux function the viewer calls.
#define SCROLLKIT_WEBP_DEMUX_FUNCTIONS(X, V)                                                               \
    X(WebPDemuxer *, WebPDemuxInternal, (const WebPData *data, int partial, WebPDemuxState *state, int version), \
      (data, partial, state, version))                                                                    \
    V(WebPDemuxDelete, (WebPDemuxer *demuxer), (demuxer))                                                 \
    X(uint32_t, WebPDemuxGetI, (const WebPDemuxer *demuxer, WebPFormatFeature feature), (demuxer, feature)) \
    X(int, WebPDemuxGetFrame, (const WebPDemuxer *demuxer, int frame, WebPIterator *iterator),            \
      (demuxer, frame, iterator))                                                                         \
    V(WebPDemuxReleaseIterator, (WebPIterator *iterator), (iterator))                                     \
    X(int, WebPDemuxGetChunk, (const WebPDemuxer *demuxer, const char fourcc[4], int chunk, WebPChunkIterator *iterator), \
      (demuxer, fourcc, chunk, iterator))                                                                 \
    V(WebPDemuxReleaseChunkIterator, (WebPChunkIterator *iterator), (iterator))                           \
    X(int, WebPAnimDecoderOptionsInitInternal, (WebPAnimDecoderOptions *options, int version), (options, version)) \
    X(WebPAnimDecoder *, WebPAnimDecoderNewInternal,                                                      \
      (const WebPData *data, const WebPAnimDecoderOptions *options, int version), (data, options, version)) \
    X(int, WebPAnimDecoderGetInfo, (const WebPAnimDecoder *decoder, WebPAnimInfo *info), (decoder, info)) \
    X(int, WebPAnimDecoderGetNext, (WebPAnimDecoder *decoder, uint8_t **canvas, int *timestamp),          \
      (decoder, canvas, timestamp))                                                                       \
    X(int, WebPAnimDecoderHasMoreFrames, (const WebPAnimDecoder *decoder), (decoder))                     \
    V(WebPAnimDecoderReset, (WebPAnimDecoder *decoder), (decoder))                                        \
    V(WebPAnimDecoderDelete, (WebPAnimDecoder *decoder), (decoder))

/// Loads libwebp and libwebpdemux once (any thread): NULL when both are ready, else a message
/// saying why one cannot be used.
const char *scrollkit_webp_open(void);

SCROLLKIT_WEBP_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)
SCROLLKIT_WEBP_DEMUX_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)

// The headers' inline functions, as they are there: the ...Internal call with the ABI version
// this was compiled against, which the library checks.

/// WebPGetFeatures (decode.h).
VP8StatusCode scrollkit_WebPGetFeatures(const uint8_t *data, size_t size, WebPBitstreamFeatures *features);
/// WebPInitDecoderConfig (decode.h).
int scrollkit_WebPInitDecoderConfig(WebPDecoderConfig *config);
/// WebPDemux (demux.h): a complete file.
WebPDemuxer *scrollkit_WebPDemux(const WebPData *data);
/// WebPDemuxPartial (demux.h): as much of a file as there is.
WebPDemuxer *scrollkit_WebPDemuxPartial(const WebPData *data, WebPDemuxState *state);
/// WebPAnimDecoderOptionsInit (demux.h).
int scrollkit_WebPAnimDecoderOptionsInit(WebPAnimDecoderOptions *options);
/// WebPAnimDecoderNew (demux.h).
WebPAnimDecoder *scrollkit_WebPAnimDecoderNew(const WebPData *data, const WebPAnimDecoderOptions *options);

#endif
