// SVG documents through librsvg and cairo, opened on first use (neither is linked: with them
// came pango, libxml2, ICU and X11's client libraries). A small C interface of its own, so the
// GLib and cairo headers stay in svg.c and the Swift side needs no include flags.
#ifndef SCROLLKIT_RSVG_H
#define SCROLLKIT_RSVG_H

#include <stddef.h>
#include <stdint.h>

/// A parsed SVG document (an RsvgHandle). One thread at a time may use it.
typedef struct scrollkit_svg scrollkit_svg;

/// Loads librsvg once (any thread): NULL when ready, else a message saying why it cannot be used.
const char *scrollkit_svg_open(void);

/// Parses `length` bytes of SVG, lengths in inches and points measured at `dpi`; NULL when the
/// document cannot be parsed, with librsvg's message in `error` (at most `capacity` bytes with
/// its terminating zero: a longer message is cut, which may split a UTF-8 sequence).
scrollkit_svg *scrollkit_svg_parse(const uint8_t *data, size_t length, double dpi, char *error, size_t capacity);

/// The document's size in pixels when its width and height are absolute: 1, else 0.
int scrollkit_svg_size(scrollkit_svg *svg, double *width, double *height);

/// The size of the document's viewBox when it has one: 1, else 0.
int scrollkit_svg_view_box(scrollkit_svg *svg, double *width, double *height);

/// Renders the document, scaled to `document_width`×`document_height` pixels and moved by
/// (-`x`, -`y`), into `width`×`height` premultiplied ARGB pixels (`stride` bytes a row), over
/// what they hold; clipped to the document. Returns 0 when cairo cannot wrap the pixels or
/// librsvg stopped part-way (what it drew stays).
int scrollkit_svg_render(scrollkit_svg *svg, uint32_t *pixels, int width, int height, int stride, double x, double y,
                         double document_width, double document_height);

/// Frees the document.
void scrollkit_svg_free(scrollkit_svg *svg);

#endif
