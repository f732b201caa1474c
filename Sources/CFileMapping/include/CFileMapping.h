// A picture file mapped read-only, its pages shared with the page cache: reading a 24 MB JPEG
// into the heap costs 25–35 ms here, mostly first-touch page faults of the copy, where mapping
// it costs 2 ms. A file that shrinks while mapped would stop the process with SIGBUS at the
// first access past its new end; this target's SIGBUS handler puts a page of zeros there
// instead and marks the mapping damaged, and the reader then throws its result away. Also the
// other way round: pixel memory in a sealed memfd that a compositor can map (an SVG's render).
#ifndef SCROLLKIT_FILE_MAPPING_H
#define SCROLLKIT_FILE_MAPPING_H

#include <stddef.h>

/// A mapping made by `scrollkit_map`; `bytes` is NULL when there is none.
typedef struct scrollkit_mapping {
    const unsigned char *bytes;
    size_t length;
    /// Its place in the table the SIGBUS handler reads.
    int slot;
} scrollkit_mapping;

/// Maps the first `length` bytes (at least 1) of `fd` read-only into `out`: 0, or an errno
/// (EBUSY when every slot of the handler's table is in use; the caller reads the file instead).
int scrollkit_map(int fd, size_t length, scrollkit_mapping *out);

/// Whether an access found a page missing (the file shrank) since the mapping was made: its
/// bytes read since then include made-up zeros.
int scrollkit_mapping_damaged(scrollkit_mapping mapping);

/// Unmaps and frees the slot; `mapping` then holds no mapping.
void scrollkit_unmap(scrollkit_mapping *mapping);

/// Pixel memory another process can map: a memfd of `length` bytes (at most INT32_MAX, as
/// wl_shm pools are), its size sealed, mapped read-write and shared into `*bytes` (zeros).
/// Returns the file descriptor (close-on-exec), or a negative errno with `*bytes` NULL.
int scrollkit_shared_memory(size_t length, void **bytes);

/// Unmaps `length` bytes at `bytes` and closes `fd`, as `scrollkit_shared_memory` made them.
void scrollkit_shared_memory_free(int fd, void *bytes, size_t length);

#endif
