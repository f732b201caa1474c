// The SVG interface of CRSVG.h over librsvg and cairo, both reached through librsvg's handle
// (cairo is one of its own dependencies), loaded by scrollkit_svg_open.
#ifdef SCROLLKIT_NO_PKG_CONFIG
#error "pkg-config --cflags found no librsvg-2.0 when the package manifest was read: run Scripts/install-deps.sh, then remove .build and build again"
#endif
#include "CRSVG.h"
#include "CDynamicLibrary.h"

#include <librsvg/rsvg.h>
#include <stdio.h>

_Static_assert(LIBRSVG_MAJOR_VERSION == 2, "librsvg 2.x: soname librsvg-2.so.2");

#define SVG_FUNCTIONS(X, V)                                                                                  \
    X(RsvgHandle *, rsvg_handle_new_from_data, (const guint8 *data, gsize length, GError **error),          \
      (data, length, error))                                                                                \
    V(rsvg_handle_set_dpi, (RsvgHandle *handle, double dpi), (handle, dpi))                                 \
    X(gboolean, rsvg_handle_get_intrinsic_size_in_pixels, (RsvgHandle *handle, gdouble *width, gdouble *height), \
      (handle, width, height))                                                                              \
    V(rsvg_handle_get_intrinsic_dimensions,                                                                 \
      (RsvgHandle *handle, gboolean *has_width, RsvgLength *width, gboolean *has_height, RsvgLength *height, \
       gboolean *has_view_box, RsvgRectangle *view_box),                                                    \
      (handle, has_width, width, has_height, height, has_view_box, view_box))                               \
    X(gboolean, rsvg_handle_render_document,                                                                \
      (RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error),                     \
      (handle, cr, viewport, error))                                                                        \
    V(g_object_unref, (gpointer object), (object))                                                          \
    V(g_error_free, (GError *error), (error))                                                               \
    X(cairo_surface_t *, cairo_image_surface_create_for_data,                                               \
      (unsigned char *data, cairo_format_t format, int width, int height, int stride),                      \
      (data, format, width, height, stride))                                                                \
    X(cairo_status_t, cairo_surface_status, (cairo_surface_t *surface), (surface))                          \
    V(cairo_surface_flush, (cairo_surface_t *surface), (surface))                                           \
    V(cairo_surface_destroy, (cairo_surface_t *surface), (surface))                                         \
    X(cairo_t *, cairo_create, (cairo_surface_t *surface), (surface))                                       \
    V(cairo_destroy, (cairo_t *cr), (cr))                                                                   \
    V(cairo_translate, (cairo_t *cr, double x, double y), (cr, x, y))                                       \
    V(cairo_rectangle, (cairo_t *cr, double x, double y, double width, double height), (cr, x, y, width, height)) \
    V(cairo_clip, (cairo_t *cr), (cr))

SVG_FUNCTIONS(SCROLLKIT_DECLARE, SCROLLKIT_DECLARE_VOID)
SCROLLKIT_LIBRARY(SVG_FUNCTIONS, "librsvg-2.so.2")

const char *scrollkit_svg_open(void) { return scrollkit_library_open(&library); }

scrollkit_svg *scrollkit_svg_parse(const uint8_t *data, size_t length, double dpi, char *error, size_t capacity) {
    GError *failure = NULL;
    RsvgHandle *handle = scrollkit_rsvg_handle_new_from_data(data, length, &failure);
    if (handle == NULL) {
        if (capacity > 0) {
            snprintf(error, capacity, "%s", failure && failure->message ? failure->message : "cannot parse the document");
        }
        if (failure) scrollkit_g_error_free(failure);
        return NULL;
    }
    scrollkit_rsvg_handle_set_dpi(handle, dpi);
    return (scrollkit_svg *)handle;
}

int scrollkit_svg_size(scrollkit_svg *svg, double *width, double *height) {
    return scrollkit_rsvg_handle_get_intrinsic_size_in_pixels((RsvgHandle *)svg, width, height) ? 1 : 0;
}

int scrollkit_svg_view_box(scrollkit_svg *svg, double *width, double *height) {
    gboolean has_width = FALSE, has_height = FALSE, has_view_box = FALSE;
    RsvgLength w = {0}, h = {0};
    RsvgRectangle view_box = {0};
    scrollkit_rsvg_handle_get_intrinsic_dimensions((RsvgHandle *)svg, &has_width, &w, &has_height, &h, &has_view_box,
                                                   &view_box);
    if (!has_view_box) return 0;
    *width = view_box.width;
    *height = view_box.height;
    return 1;
}

int scrollkit_svg_render(scrollkit_svg *svg, uint32_t *pixels, int width, int height, int stride, double x, double y,
                         double document_width, double document_height) {
    // Cairo's ARGB32 is premultiplied native-endian 0xAARRGGBB, the framebuffer's format.
    cairo_surface_t *surface =
        scrollkit_cairo_image_surface_create_for_data((unsigned char *)pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
    if (scrollkit_cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        scrollkit_cairo_surface_destroy(surface);
        return 0;
    }
    cairo_t *cr = scrollkit_cairo_create(surface);
    RsvgRectangle viewport = {0, 0, document_width, document_height};
    scrollkit_cairo_translate(cr, -x, -y);
    scrollkit_cairo_rectangle(cr, viewport.x, viewport.y, viewport.width, viewport.height);
    scrollkit_cairo_clip(cr);
    GError *failure = NULL;
    gboolean drawn = scrollkit_rsvg_handle_render_document((RsvgHandle *)svg, cr, &viewport, &failure);
    if (failure) scrollkit_g_error_free(failure);
    scrollkit_cairo_destroy(cr);
    scrollkit_cairo_surface_flush(surface);
    scrollkit_cairo_surface_destroy(surface);
    return drawn ? 1 : 0;
}

void scrollkit_svg_free(scrollkit_svg *svg) { scrollkit_g_object_unref(svg); }
