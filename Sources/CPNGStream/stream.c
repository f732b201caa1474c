// The inflating thread of CPNGStream.h. Written here rather than taken from a library: libpng,
// the PNG library the viewer uses, inflates and unfilters on one thread and offers no hook to
// split the two, and no maintained PNG library in Debian does (libspng decodes on one thread too).
#include "CPNGStream.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum {
    /// The most data a stored deflate block holds (RFC 1951 §3.2.4: a 16-bit LEN).
    STORED_MAX = 65535,
    /// Before a slot's data: the chunk's length and type (8), the zlib header in the first
    /// (2, RFC 1950 §2.2), the stored block's header (5: BFINAL/BTYPE, LEN, NLEN).
    HEAD_MAX = 8 + 2 + 5,
    /// A slot: one rewritten IDAT chunk, or up to this many bytes of other chunks.
    SLOT_BYTES = HEAD_MAX + STORED_MAX + 4,
    /// Slots between the thread and libpng: 8 × 64 KiB, enough that neither waits on the other
    /// for a row's worth of data, little beside the picture.
    SLOTS = 8,
    /// Compressed data read from the file at a time (as libpng's reads of a file in place).
    INPUT_BYTES = 1 << 16,
};

/// "read beyond end of data": the same words as libpng's own reader's, so that a cut file is
/// told as cut (Pictures' PNGCodec.endOfDataMessages).
static const char end_of_data[] = "read beyond end of data";

/// All threads' inflated bytes (scrollkit_png_stream_total_inflated).
static _Atomic unsigned long long total_inflated;

typedef struct {
    size_t used;
    unsigned char bytes[SLOT_BYTES];
} slot;

struct scrollkit_png_stream {
    // The file.
    const unsigned char *data;
    size_t size;
    int fd;
    size_t needed;

    // Shared, under `lock`: slot `n % SLOTS` is the n-th filled; `consumed` of them are read.
    pthread_mutex_t lock;
    pthread_cond_t filled, emptied;
    unsigned long produced, consumed;
    int finished, stopping;
    char message[160];
    size_t inflated;
    slot slots[SLOTS];

    // libpng's side only.
    size_t read_offset;

    // The thread's side only.
    pthread_t thread;
    z_stream z;
    int z_started, z_ended, zlib_header_sent;
    slot *open;
    size_t open_head, open_used;
    unsigned char input[INPUT_BYTES];
};

// MARK: the thread's side

/// Up to `count` bytes of the file from `offset` into `out`; fewer at its end or on a read error.
static size_t source_read(scrollkit_png_stream *s, size_t offset, unsigned char *out, size_t count) {
    if (offset >= s->size) return 0;
    if (count > s->size - offset) count = s->size - offset;
    if (s->data) {
        memcpy(out, s->data + offset, count);
        return count;
    }
    size_t done = 0;
    while (done < count) {
        ssize_t got = pread(s->fd, out + done, count - done, (off_t)(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        done += (size_t)got;
    }
    return done;
}

/// The next free slot, waiting while libpng holds all of them; NULL when stopping.
static slot *acquire(scrollkit_png_stream *s) {
    pthread_mutex_lock(&s->lock);
    while (s->produced - s->consumed == SLOTS && !s->stopping) pthread_cond_wait(&s->emptied, &s->lock);
    slot *free_slot = s->stopping ? NULL : &s->slots[s->produced % SLOTS];
    pthread_mutex_unlock(&s->lock);
    return free_slot;
}

/// Hands the slot from `acquire` to libpng with `used` bytes in it.
static void publish(scrollkit_png_stream *s, slot *filled, size_t used, size_t inflated) {
    pthread_mutex_lock(&s->lock);
    filled->used = used;
    s->produced += 1;
    s->inflated += inflated;
    atomic_fetch_add(&total_inflated, inflated);
    pthread_cond_signal(&s->filled);
    pthread_mutex_unlock(&s->lock);
}

/// The end of the file for libpng: after what is published, reads fail with `message`.
static void finish(scrollkit_png_stream *s, const char *message) {
    pthread_mutex_lock(&s->lock);
    snprintf(s->message, sizeof s->message, "%s", message);
    s->finished = 1;
    pthread_cond_signal(&s->filled);
    pthread_mutex_unlock(&s->lock);
}

static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/// Passes `count` bytes of the file from `offset` on unchanged; 0 when stopping or the file
/// ended first (what there was is passed on).
static int pass(scrollkit_png_stream *s, size_t offset, size_t count) {
    while (count > 0) {
        slot *out = acquire(s);
        if (!out) return 0;
        size_t want = count < SLOT_BYTES ? count : SLOT_BYTES;
        size_t got = source_read(s, offset, out->bytes, want);
        publish(s, out, got, 0);
        if (got < want) return 0;
        offset += got;
        count -= got;
    }
    return 1;
}

/// Opens a slot for inflated data: an IDAT chunk whose stored block starts at `open_head`.
static int open_idat(scrollkit_png_stream *s) {
    s->open = acquire(s);
    if (!s->open) return 0;
    s->open_head = 8 + (s->zlib_header_sent ? 0 : 2) + 5;
    s->open_used = 0;
    return 1;
}

/// Writes the open slot's headers around its `open_used` bytes and publishes it; `final` marks
/// the last block, followed by the Adler-32's four bytes (zero: checked here, not by libpng).
static void close_idat(scrollkit_png_stream *s, int final) {
    unsigned char *b = s->open->bytes;
    size_t n = s->open_used, p = 8;
    if (!s->zlib_header_sent) {
        // CMF 0x78 (deflate, 32 KiB window), FLG 0x01: 0x7801 is a multiple of 31 (RFC 1950).
        b[p++] = 0x78;
        b[p++] = 0x01;
        s->zlib_header_sent = 1;
    }
    b[p++] = final ? 1 : 0;  // BFINAL, BTYPE 00: stored
    b[p++] = (unsigned char)n;
    b[p++] = (unsigned char)(n >> 8);
    b[p++] = (unsigned char)~n;
    b[p++] = (unsigned char)(~n >> 8);
    p += n;
    if (final) {
        put32(b + p, 0);
        p += 4;
    }
    put32(b, (uint32_t)(p - 8));
    memcpy(b + 4, "IDAT", 4);
    // The chunk's CRC: not computed (the reader ignores critical chunks' CRCs; see the header).
    memset(b + p, 0, 4);
    publish(s, s->open, p + 4, n);
    s->open = NULL;
}

/// Ends the rewritten image data once the zlib stream ended (or, past every row's data, went
/// wrong): the open slot, then an empty final block.
static int end_idats(scrollkit_png_stream *s) {
    if (s->open) close_idat(s, 0);
    if (!open_idat(s)) return 0;
    close_idat(s, 1);
    return 1;
}

/// Inflates `count` bytes of an IDAT chunk's data into slots. 0 when stopping or on a zlib
/// error (the error then finished the stream).
static int inflate_input(scrollkit_png_stream *s, const unsigned char *in, size_t count) {
    if (s->z_ended) return 1;  // data after the stream's end: libpng ignores it too
    s->z.next_in = (unsigned char *)in;
    s->z.avail_in = (uInt)count;
    for (;;) {
        if (!s->open && !open_idat(s)) return 0;
        s->z.next_out = s->open->bytes + s->open_head + s->open_used;
        s->z.avail_out = (uInt)(STORED_MAX - s->open_used);
        int ret = inflate(&s->z, Z_NO_FLUSH);
        s->open_used = STORED_MAX - s->z.avail_out;
        if (ret == Z_STREAM_END) {
            s->z_ended = 1;
            return 1;
        }
        if (ret != Z_OK && ret != Z_BUF_ERROR && s->inflated + s->open_used > s->needed) {
            // libpng stops inflating for the last row once it is full, and only warns of what it
            // finds in the rest ("checking" the stream): an error found past every row's data
            // ends the data here as if the stream did. One found before zlib gave another byte
            // (a wrong Adler-32 straight after the data) is libpng's error on the last row.
            s->z_ended = 1;
            return 1;
        }
        if (ret != Z_OK && ret != Z_BUF_ERROR) {
            // What decoded before stays readable; libpng's words for the problem follow it.
            char message[160];
            snprintf(message, sizeof message, "IDAT: %s", s->z.msg ? s->z.msg : "zlib error");
            close_idat(s, 0);
            finish(s, message);
            return 0;
        }
        if (s->z.avail_out == 0) {
            close_idat(s, 0);
            continue;  // inflate may hold more output for this input
        }
        return 1;  // all of this input taken
    }
}

/// Reads chunk `type`'s `length` bytes of data from `offset` in pieces, inflating each when
/// `inflating` (an IDAT), then checks its stored CRC against them. 1 when it matches; else 0
/// with the stream finished (the file cut: "read beyond end of data"; "TYPE: CRC error"; a zlib
/// error) or stopping, the data inflated before the problem published first.
static int chunk_data(scrollkit_png_stream *s, size_t offset, const unsigned char *type, uint32_t length, int inflating) {
    uLong crc = crc32(0L, type, 4);
    size_t left = length;
    const char *problem = NULL;
    char message[160];
    while (left > 0 && !problem) {
        size_t want = left < INPUT_BYTES ? left : INPUT_BYTES;
        size_t got = source_read(s, offset, s->input, want);
        crc = crc32(crc, s->input, (uInt)got);
        if (inflating && !inflate_input(s, s->input, got)) return 0;
        if (got < want) problem = end_of_data;
        offset += got;
        left -= got;
    }
    unsigned char stored[4];
    if (!problem && source_read(s, offset, stored, 4) < 4) problem = end_of_data;
    if (!problem && get32(stored) != (uint32_t)crc) {
        snprintf(message, sizeof message, "%.4s: CRC error", (const char *)type);
        problem = message;
    }
    if (!problem) return 1;
    if (s->open) close_idat(s, 0);
    finish(s, problem);
    return 0;
}

/// The thread: the signature, then chunk by chunk to the end of the file.
static void *run(void *argument) {
    scrollkit_png_stream *s = argument;
    if (!pass(s, 0, 8)) {
        finish(s, end_of_data);
        return NULL;
    }
    size_t position = 8;
    enum { BEFORE, IN, AFTER } phase = BEFORE;
    for (;;) {
        unsigned char head[8];
        size_t got = source_read(s, position, head, 8);
        uint32_t length = got == 8 ? get32(head) : 0;
        int is_idat = got == 8 && memcmp(head + 4, "IDAT", 4) == 0;
        if (phase == IN && (!is_idat || length > 0x7FFFFFFFu)) {
            // The IDAT chunks ended before the zlib stream did (it would have ended the
            // rewritten data at once): libpng, reading on for the rest, meets this chunk as it
            // would in the file and says so as it would ("Not enough image data", …).
            if (s->open) close_idat(s, 0);
            phase = AFTER;
        }
        if (got < 8 || length > 0x7FFFFFFFu) {
            // The file's end, or a length libpng refuses ("PNG unsigned integer out of range"):
            // the rest as it is, for libpng to read and judge.
            pass(s, position, s->size - position);
            finish(s, end_of_data);
            break;
        }
        if (is_idat && phase != AFTER) {
            if (phase == BEFORE) {
                if (inflateInit(&s->z) != Z_OK) {
                    finish(s, "IDAT: insufficient memory");
                    break;
                }
                s->z_started = 1;
                phase = IN;
            }
            if (!chunk_data(s, position + 8, head + 4, length, 1)) break;
            if (s->z_ended) {
                // libpng reads no further IDAT once the stream ended (png_read_end would, which
                // the viewer does not call): the data ends with this chunk.
                if (!end_idats(s)) break;
                phase = AFTER;
            }
        } else {
            // A critical chunk's CRC is checked here, since the reader does not check them.
            if ((head[4] & 0x20) == 0 && !chunk_data(s, position + 8, head + 4, length, 0)) break;
            if (!pass(s, position, (size_t)length + 12)) {
                finish(s, end_of_data);
                break;
            }
        }
        position += (size_t)length + 12;
    }
    return NULL;
}

// MARK: libpng's side

scrollkit_png_stream *scrollkit_png_stream_start(const unsigned char *data, size_t size, int fd, size_t needed) {
    scrollkit_png_stream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->data = data;
    s->size = size;
    s->fd = fd;
    s->needed = needed;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->filled, NULL);
    pthread_cond_init(&s->emptied, NULL);
    if (pthread_create(&s->thread, NULL, run, s) != 0) {
        pthread_cond_destroy(&s->emptied);
        pthread_cond_destroy(&s->filled);
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    return s;
}

int scrollkit_png_stream_read(void *stream, unsigned char *out, size_t length) {
    scrollkit_png_stream *s = stream;
    while (length > 0) {
        pthread_mutex_lock(&s->lock);
        while (s->consumed == s->produced && !s->finished) pthread_cond_wait(&s->filled, &s->lock);
        int empty = s->consumed == s->produced;
        slot *next = &s->slots[s->consumed % SLOTS];
        pthread_mutex_unlock(&s->lock);
        if (empty) return 0;
        size_t count = next->used - s->read_offset;
        if (count > length) count = length;
        memcpy(out, next->bytes + s->read_offset, count);
        out += count;
        length -= count;
        s->read_offset += count;
        if (s->read_offset == next->used) {
            pthread_mutex_lock(&s->lock);
            s->consumed += 1;
            s->read_offset = 0;
            pthread_cond_signal(&s->emptied);
            pthread_mutex_unlock(&s->lock);
        }
    }
    return 1;
}

const char *scrollkit_png_stream_message(void *stream) {
    const scrollkit_png_stream *s = stream;
    return s->message[0] ? s->message : end_of_data;
}

unsigned long long scrollkit_png_stream_total_inflated(void) { return atomic_load(&total_inflated); }

void scrollkit_png_stream_stop(scrollkit_png_stream *s) {
    if (!s) return;
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    pthread_cond_broadcast(&s->emptied);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    if (s->z_started) inflateEnd(&s->z);
    pthread_cond_destroy(&s->emptied);
    pthread_cond_destroy(&s->filled);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
