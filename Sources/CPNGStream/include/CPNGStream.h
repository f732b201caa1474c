// A PNG file handed to libpng with its image data already inflated, by a thread of its own.
//
// libpng inflates a PNG's image data (zlib) and undoes the row filters on the one thread that
// calls it, one after the other; a large PNG spends about two thirds of its decode in zlib.
// libpng has no way to take image data inflated elsewhere, but it reads any zlib stream, and
// a stream of stored (uncompressed) deflate blocks costs it only a copy. So a second thread
// walks the file's chunks and inflates its IDAT chunks with zlib, checking their CRCs as
// libpng would, and libpng reads from it the same file with those chunks rewritten as stored
// blocks: inflating on one core while libpng unfilters the rows before on the other.
//
// The rewritten IDAT chunks carry no CRC and no Adler-32 (the thread checked the originals):
// the reader sets `png_set_crc_action(png, PNG_CRC_QUIET_USE, …)` and `PNG_IGNORE_ADLER32`.
// Every other chunk is passed on as it is, the critical ones after their CRC is checked here.
#ifndef SCROLLKIT_PNG_STREAM_H
#define SCROLLKIT_PNG_STREAM_H

#include <stddef.h>

typedef struct scrollkit_png_stream scrollkit_png_stream;

/// Starts the inflating thread over a whole PNG file: `size` bytes at `data` when `data` is not
/// NULL, else the first `size` bytes of the open file `fd` (read with pread; the caller keeps it
/// open until `scrollkit_png_stream_stop`). `needed`: the bytes of inflated data libpng reads for
/// every row; a zlib error found after more than these only ends the data, as libpng only warns
/// of one there.
/// NULL when out of memory or no thread can start.
scrollkit_png_stream *scrollkit_png_stream_start(const unsigned char *data, size_t size, int fd, size_t needed);

/// Copies the next `length` bytes of the rewritten file to `out`, waiting for the thread as
/// needed. 1 on success; 0 when the file ends or went wrong before then, with the reason in
/// `scrollkit_png_stream_message` ("read beyond end of data" when the file is cut short).
int scrollkit_png_stream_read(void *stream, unsigned char *out, size_t length);

/// Why the last read failed (libpng's wording for the same problem), valid until the stop.
const char *scrollkit_png_stream_message(void *stream);

/// Bytes of image data the threads of this process inflated so far, for tests.
unsigned long long scrollkit_png_stream_total_inflated(void);

/// Stops the thread wherever it is, waits for it and frees everything.
void scrollkit_png_stream_stop(scrollkit_png_stream *stream);

#endif
