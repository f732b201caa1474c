// Umbrella header for the CJPEG system library (libjpeg-turbo's libjpeg API, flags from
// pkg-config), with the few C functions a scanline decode needs around it.
//
// TurboJPEG decodes whole pictures from memory only; a picture too large for memory is decoded
// here a few rows at a time, from memory or straight from its file. libjpeg reports errors by
// calling error_exit, which must not return: it longjmps to a setjmp point in these wrappers,
// never across a Swift frame, and each wrapper returns 0 with the message in the error struct.
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <jpeglib.h>
#include <jerror.h>

/// One decode: libjpeg's structs, the error's jump point and messages, and the source.
typedef struct {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr error;
    struct jpeg_source_mgr source;
    jmp_buf jump;
    /// The first error, or else the first warning (corrupt data libjpeg went past).
    char message[JMSG_LENGTH_MAX];
    int warned;
    /// Bytes in memory, or a file read from `position` in blocks of `block`.
    const unsigned char *data;
    size_t size;
    int fd;
    long long position;
    unsigned char block[65536];
} scrollkit_jpeg;

static void scrollkit_jpeg_error_exit(j_common_ptr info) {
    scrollkit_jpeg *jpeg = (scrollkit_jpeg *)info->client_data;
    if (!jpeg->message[0] || jpeg->warned) (*info->err->format_message)(info, jpeg->message);
    jpeg->warned = 0;
    longjmp(jpeg->jump, 1);
}

/// Warnings (level -1) are kept, the first one, for the damage report; traces are dropped.
static void scrollkit_jpeg_emit(j_common_ptr info, int level) {
    scrollkit_jpeg *jpeg = (scrollkit_jpeg *)info->client_data;
    if (level < 0 && !jpeg->message[0]) {
        (*info->err->format_message)(info, jpeg->message);
        jpeg->warned = 1;
    }
    if (level < 0) info->err->num_warnings++;
}

static void scrollkit_jpeg_init_source(j_decompress_ptr info) { (void)info; }
static void scrollkit_jpeg_term_source(j_decompress_ptr info) { (void)info; }

/// The next block of the file; at its end an EOI marker, as libjpeg's own sources do, so a cut
/// file ends in a warning and grey rows rather than an error.
static boolean scrollkit_jpeg_fill(j_decompress_ptr info) {
    scrollkit_jpeg *jpeg = (scrollkit_jpeg *)info->client_data;
    ssize_t got;
    do { got = pread(jpeg->fd, jpeg->block, sizeof jpeg->block, (off_t)jpeg->position); } while (got < 0 && errno == EINTR);
    if (got <= 0) {
        WARNMS(info, JWRN_JPEG_EOF);
        jpeg->block[0] = 0xFF;
        jpeg->block[1] = JPEG_EOI;
        got = 2;
    } else {
        jpeg->position += got;
    }
    jpeg->source.next_input_byte = jpeg->block;
    jpeg->source.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void scrollkit_jpeg_skip(j_decompress_ptr info, long count) {
    scrollkit_jpeg *jpeg = (scrollkit_jpeg *)info->client_data;
    if (count <= 0) return;
    if ((size_t)count <= jpeg->source.bytes_in_buffer) {
        jpeg->source.next_input_byte += count;
        jpeg->source.bytes_in_buffer -= (size_t)count;
        return;
    }
    jpeg->position += count - (long)jpeg->source.bytes_in_buffer;
    jpeg->source.bytes_in_buffer = 0;
}

/// Sets up `jpeg` (zeroed by the caller, with `data`/`size` or `fd` set) and reads the header;
/// 0 on error.
static inline int scrollkit_jpeg_open(scrollkit_jpeg *jpeg) {
    jpeg->info.err = jpeg_std_error(&jpeg->error);
    jpeg->error.error_exit = scrollkit_jpeg_error_exit;
    jpeg->error.emit_message = scrollkit_jpeg_emit;
    jpeg->info.client_data = jpeg;
    if (setjmp(jpeg->jump)) return 0;
    jpeg_create_decompress(&jpeg->info);
    if (jpeg->data) {
        jpeg_mem_src(&jpeg->info, jpeg->data, (unsigned long)jpeg->size);
    } else {
        jpeg->source.init_source = scrollkit_jpeg_init_source;
        jpeg->source.fill_input_buffer = scrollkit_jpeg_fill;
        jpeg->source.skip_input_data = scrollkit_jpeg_skip;
        jpeg->source.resync_to_restart = jpeg_resync_to_restart;
        jpeg->source.term_source = scrollkit_jpeg_term_source;
        jpeg->info.src = &jpeg->source;
    }
    jpeg_read_header(&jpeg->info, TRUE);
    return 1;
}

/// jpeg_start_decompress after the output parameters are set; 0 on error.
static inline int scrollkit_jpeg_start(scrollkit_jpeg *jpeg) {
    if (setjmp(jpeg->jump)) return 0;
    jpeg_start_decompress(&jpeg->info);
    return 1;
}

/// One output row into `row`; 0 on error.
static inline int scrollkit_jpeg_read_row(scrollkit_jpeg *jpeg, unsigned char *row) {
    if (setjmp(jpeg->jump)) return 0;
    JSAMPROW rows[1] = { row };
    return jpeg_read_scanlines(&jpeg->info, rows, 1) == 1;
}

/// Frees libjpeg's memory (safe after an error).
static inline void scrollkit_jpeg_close(scrollkit_jpeg *jpeg) {
    jpeg_destroy_decompress(&jpeg->info);
}
