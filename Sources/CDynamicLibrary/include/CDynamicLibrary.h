// Opening a shared library on first use (dlopen) and finding its functions, for the picture
// formats' libraries that most runs never need: linked, libheif, libjxl and librsvg brought
// some 45 more libraries, 12 ms of start-up and 9 MB of resident memory to every start.
#ifndef SCROLLKIT_DYNAMIC_LIBRARY_H
#define SCROLLKIT_DYNAMIC_LIBRARY_H

#include <stddef.h>

/// One library opened on first use: its soname, the names of the functions it must have, and
/// where their addresses go (in the same order). Define one per library, statically, with
/// `state` zero; `scrollkit_library_open` fills the rest.
typedef struct scrollkit_library {
    const char *soname;
    const char *const *names;
    void **functions;
    size_t count;
    /// 0: not tried yet; 1: open, every function found; 2: failed, `error` says why. Read and
    /// written with the compiler's atomic built-ins (Swift cannot import an _Atomic field).
    int state;
    char error[320];
} scrollkit_library;

/// Opens `library` once, from any thread: NULL when it is open and has every function, else a
/// message naming the library and what is missing (the same message on every later call).
const char *scrollkit_library_open(scrollkit_library *library);

/// The address of function `index` of an open library. Calling a wrapper before a successful
/// `scrollkit_library_open` is a programming error: it stops the process with a message.
void *scrollkit_library_function(scrollkit_library *library, size_t index);

/// X-macros over a library's list of functions, X(return type, name, parameters, arguments)
/// and V(name, parameters, arguments) for those returning nothing: the wrappers' declarations
/// (scrollkit_ + the library's name for the function), their names and indices, and their
/// definitions, which call through a pointer of the library function's own declared type
/// (so a wrapper whose parameters do not fit the library's header does not compile). The
/// definitions use the file's `static scrollkit_library library`.
#define SCROLLKIT_DECLARE(type, name, parameters, arguments) type scrollkit_##name parameters;
#define SCROLLKIT_DECLARE_VOID(name, parameters, arguments) void scrollkit_##name parameters;
#define SCROLLKIT_NAME(type, name, parameters, arguments) #name,
#define SCROLLKIT_NAME_VOID(name, parameters, arguments) #name,
#define SCROLLKIT_INDEX(type, name, parameters, arguments) scrollkit_index_##name,
#define SCROLLKIT_INDEX_VOID(name, parameters, arguments) scrollkit_index_##name,
#define SCROLLKIT_WRAP(type, name, parameters, arguments)                                                   \
    type scrollkit_##name parameters {                                                                      \
        return ((__typeof__(&name))scrollkit_library_function(&library, scrollkit_index_##name)) arguments; \
    }
#define SCROLLKIT_WRAP_VOID(name, parameters, arguments)                                             \
    void scrollkit_##name parameters {                                                               \
        ((__typeof__(&name))scrollkit_library_function(&library, scrollkit_index_##name)) arguments; \
    }

/// What a wrapper file defines for the library `soname` whose functions the X-macro FUNCTIONS
/// lists: their names, indices and pointer table, the file's `static scrollkit_library library`,
/// and every wrapper. The file adds its own open function (`scrollkit_library_open(&library)`).
#define SCROLLKIT_LIBRARY(FUNCTIONS, soname)                                                 \
    static const char *const names[] = {FUNCTIONS(SCROLLKIT_NAME, SCROLLKIT_NAME_VOID)};      \
    enum { FUNCTIONS(SCROLLKIT_INDEX, SCROLLKIT_INDEX_VOID) function_count };                 \
    static void *functions[function_count];                                                  \
    static scrollkit_library library = {soname, names, functions, function_count, 0, {0}};   \
    FUNCTIONS(SCROLLKIT_WRAP, SCROLLKIT_WRAP_VOID)

#endif
