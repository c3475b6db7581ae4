// SPDX-License-Identifier: MIT
/*
 * mem_lib.h -- the allocators the memory plugin measures, and how each is
 * reached.
 *
 * glibc is the process's own malloc/free. jemalloc, mimalloc and tcmalloc
 * are loaded from their Debian packages with dlopen(RTLD_NOW |
 * RTLD_LOCAL): nothing in the process binds to them (the host, the plugin
 * and libc keep glibc's malloc), and the plugin calls them only through
 * the pointers dlsym() finds in that library, by their own names where
 * the library has them (mi_malloc/mi_free, tc_malloc/tc_free; Debian's
 * jemalloc is built without a prefix, so malloc/free looked up in its
 * handle, and dladdr() confirms they are jemalloc's). Every run is a fresh
 * worker process that loads one of them, so one run measures exactly one
 * allocator. A library that cannot be opened skips the case naming its
 * package; Debian's jemalloc uses initial-exec TLS, which dlopen can place
 * only when glibc reserves static TLS for it (bhost reserves 16 KiB for its
 * workers unless GLIBC_TUNABLES chose a size): without it the case is
 * unsupported with that remedy.
 * pool and arena are the plugin's own (mem_pool.h, mem_arena.h).
 */
#ifndef MEM_LIB_H
#define MEM_LIB_H

#include <stddef.h>

enum {
    MEM_LIB_GLIBC = 0,
    MEM_LIB_JEMALLOC,
    MEM_LIB_MIMALLOC,
    MEM_LIB_TCMALLOC,
    MEM_LIB_POOL,
    MEM_LIB_ARENA,
    MEM_LIB_COUNT
};

/* What mem_lib_open could not do. */
enum {
    MEM_LIB_OK = 0,
    MEM_LIB_MISSING = 1, /* the library is not installed: skip */
    MEM_LIB_NO_TLS = 2,  /* static TLS exhausted: unsupported */
    MEM_LIB_BROKEN = 3   /* opened, but a symbol is missing: failed */
};

typedef struct mem_lib {
    int kind;            /* MEM_LIB_* */
    const char *name;    /* "glibc", "jemalloc", ... */
    const char *package; /* the Debian package, "" for the own ones */
    void *(*malloc_fn)(size_t);
    void (*free_fn)(void *);
    char version[96];      /* as the library states it */
    double version_number; /* major * 10000 + minor * 100 + patch */
    char path[256];        /* the file loaded ("" for glibc's own) */
} mem_lib;

/* NULL-terminated names, in MEM_LIB_* order (parameter choices). */
extern const char *const mem_lib_names[];

/* Opens allocator kind; library, when not NULL or "", replaces the
 * default soname (a path for tests). MEM_LIB_OK, or another MEM_LIB_*
 * with one line in err. */
int mem_lib_open(mem_lib *l, int kind, const char *library, char *err, size_t cap);

#endif /* MEM_LIB_H */
