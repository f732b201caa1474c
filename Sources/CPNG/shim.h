// Umbrella header for the CPNG system library (flags from pkg-config), with the few C
// functions libpng's full API needs around it.
//
// libpng reports errors by longjmp-ing to a setjmp point, and a longjmp must never cross a
// Swift frame. So every call that can fail is wrapped here, in C, with its own setjmp, and
// the data source and error callbacks are C too: from Swift's side each wrapper simply
// returns 0 with the message in the state struct. (The simplified png_image API avoids
// longjmp but cannot say how many rows decoded before an error, nor give the iCCP profile.)
#include <png.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

/// One read: the bytes libpng reads from (in memory, or with `from_file` the first `size` bytes
/// of the file `fd`, read in place), and the first error message.
typedef struct {
    const unsigned char *data;
    size_t size;
    size_t position;
    int from_file;
    int fd;
    /// When set, the bytes come from `pull` instead (1 when it gave all `length`; else 0, with
    /// `pull_message` saying why): Pictures' CPNGStream, the file with its image data inflated
    /// on another thread.
    int (*pull)(void *context, unsigned char *out, size_t length);
    const char *(*pull_message)(void *context);
    void *pull_context;
    char message[256];
} scrollkit_png_state;

static void scrollkit_png_error(png_structp png, png_const_charp message) {
    scrollkit_png_state *state = (scrollkit_png_state *)png_get_error_ptr(png);
    if (state && state->message[0] == 0) {
        strncpy(state->message, message ? message : "unknown error", sizeof state->message - 1);
    }
    png_longjmp(png, 1);
}

/// Warnings (a bad ancillary chunk, a CRC in one) are not the user's concern: the picture shows.
static void scrollkit_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// Reads from the state's memory or file; running out is an error libpng's own memory reader
/// words the same way ("read beyond end of data"), and so is a file that cannot be read.
static void scrollkit_png_read(png_structp png, png_bytep out, size_t length) {
    scrollkit_png_state *state = (scrollkit_png_state *)png_get_io_ptr(png);
    if (state->pull) {
        if (!state->pull(state->pull_context, out, length)) png_error(png, state->pull_message(state->pull_context));
        return;
    }
    if (length > state->size - state->position) png_error(png, "read beyond end of data");
    if (!state->from_file) {
        memcpy(out, state->data + state->position, length);
        state->position += length;
        return;
    }
    size_t done = 0;
    while (done < length) {
        ssize_t got = pread(state->fd, out + done, length - done, (off_t)(state->position + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) png_error(png, "read beyond end of data");
        done += (size_t)got;
    }
    state->position += length;
}

/// A read struct whose errors and input go through `state`; NULL when out of memory.
static inline png_structp scrollkit_png_create(scrollkit_png_state *state) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, scrollkit_png_error, scrollkit_png_warning);
    if (png) png_set_read_fn(png, state, scrollkit_png_read);
    return png;
}

/// png_read_info (signature, IHDR, everything up to the first IDAT); 0 on error.
static inline int scrollkit_png_read_info(png_structp png, png_infop info) {
    if (setjmp(png_jmpbuf(png))) return 0;
    png_read_info(png, info);
    return 1;
}

/// png_read_update_info after the transformations are set; 0 on error.
static inline int scrollkit_png_read_update_info(png_structp png, png_infop info) {
    if (setjmp(png_jmpbuf(png))) return 0;
    png_read_update_info(png, info);
    return 1;
}

/// One row into `display` (rows of an interlaced image are revisited by each pass and
/// filled as rectangles, so a cut file shows blurred rather than sparse); 0 on error.
static inline int scrollkit_png_read_row(png_structp png, png_bytep display) {
    if (setjmp(png_jmpbuf(png))) return 0;
    png_read_row(png, NULL, display);
    return 1;
}
