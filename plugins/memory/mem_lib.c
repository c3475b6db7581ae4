// SPDX-License-Identifier: MIT
/*
 * mem_lib.c -- loading an allocator and reading its version (mem_lib.h).
 */
#define _GNU_SOURCE
#include "mem_lib.h"

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
/* LeakSanitizer's switches: a library's one-time registrations at load
 * (tcmalloc's MallocExtension singleton) are not this process's leaks. */
void __lsan_disable(void);
void __lsan_enable(void);
#define LSAN_DISABLE() __lsan_disable()
#define LSAN_ENABLE()  __lsan_enable()
#else
#define LSAN_DISABLE() ((void)0)
#define LSAN_ENABLE()  ((void)0)
#endif

const char *const mem_lib_names[] = {"glibc", "jemalloc", "mimalloc", "tcmalloc",
                                     "pool",  "arena",    NULL};

/* How each loaded allocator is found: soname, package, entry names. */
typedef struct lib_spec {
    const char *soname, *package, *malloc_name, *free_name;
} lib_spec;

static const lib_spec specs[MEM_LIB_COUNT] = {
    [MEM_LIB_JEMALLOC] = {"libjemalloc.so.2", "libjemalloc2", "malloc", "free"},
    [MEM_LIB_MIMALLOC] = {"libmimalloc.so.2", "libmimalloc2.0", "mi_malloc", "mi_free"},
    [MEM_LIB_TCMALLOC] = {"libtcmalloc.so.4", "libgoogle-perftools4", "tc_malloc", "tc_free"},
};

/* Stores symbol name of h into the function pointer at slot (ISO C has no
 * cast between object and function pointers); 1 when found. */
static int bind(void *h, const char *name, void *slot, size_t size)
{
    void *p = dlsym(h, name);

    memcpy(slot, &p, size);
    return p != NULL;
}

/* "a.b.c..." -> a * 10000 + b * 100 + c (missing parts 0). */
static double version_number(const char *s)
{
    unsigned v[3] = {0, 0, 0};

    while (*s != '\0' && (*s < '0' || *s > '9'))
        s++;
    sscanf(s, "%u.%u.%u", &v[0], &v[1], &v[2]);
    return v[0] * 10000.0 + v[1] * 100.0 + v[2];
}

/* The library's own statement of its version into l->version. */
static void read_version(mem_lib *l, void *h)
{
    if (l->kind == MEM_LIB_JEMALLOC) {
        int (*ctl)(const char *, void *, size_t *, void *, size_t) = NULL;
        const char *v = NULL;
        size_t n = sizeof(v);

        if (bind(h, "mallctl", &ctl, sizeof(ctl)) && ctl("version", &v, &n, NULL, 0) == 0 &&
            v != NULL)
            snprintf(l->version, sizeof(l->version), "%s", v);
    } else if (l->kind == MEM_LIB_MIMALLOC) {
        int (*ver)(void) = NULL;

        if (bind(h, "mi_version", &ver, sizeof(ver))) { /* 209 = 2.0.9 */
            int v = ver();
            snprintf(l->version, sizeof(l->version), "%d.%d.%d", v / 100, v / 10 % 10, v % 10);
        }
    } else if (l->kind == MEM_LIB_TCMALLOC) {
        const char *(*ver)(int *, int *, const char **) = NULL;
        int major, minor;
        const char *patch;

        if (bind(h, "tc_version", &ver, sizeof(ver)))
            snprintf(l->version, sizeof(l->version), "%s", ver(&major, &minor, &patch));
    }
    l->version_number = version_number(l->version);
}

/* Resolves the entry points of a loaded library and checks that they are
 * its own. MEM_LIB_OK or MEM_LIB_BROKEN. */
static int bind_entries(mem_lib *l, void *h, const lib_spec *sp, char *err, size_t cap)
{
    Dl_info mi, hi;
    struct link_map *map = NULL;

    if (!bind(h, sp->malloc_name, &l->malloc_fn, sizeof(l->malloc_fn)) ||
        !bind(h, sp->free_name, &l->free_fn, sizeof(l->free_fn))) {
        snprintf(err, cap, "%s: %s has no %s/%s", l->name, l->path, sp->malloc_name, sp->free_name);
        return MEM_LIB_BROKEN;
    }
    if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map != NULL)
        snprintf(l->path, sizeof(l->path), "%s", map->l_name);
    if (dladdr(dlsym(h, sp->malloc_name), &mi) == 0 || dladdr(dlsym(h, sp->free_name), &hi) == 0 ||
        mi.dli_fbase != hi.dli_fbase || (map != NULL && strcmp(mi.dli_fname, map->l_name) != 0)) {
        snprintf(err, cap, "%s: %s/%s resolve outside %s", l->name, sp->malloc_name, sp->free_name,
                 l->path);
        return MEM_LIB_BROKEN;
    }
    return MEM_LIB_OK;
}

/* dlopen of the library: MEM_LIB_MISSING or MEM_LIB_NO_TLS on failure. */
static int load(mem_lib *l, const char *file, const lib_spec *sp, char *err, size_t cap)
{
    void *h;
    const char *why;

    LSAN_DISABLE();
    h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    LSAN_ENABLE();

    snprintf(l->path, sizeof(l->path), "%s", file);
    if (h != NULL) {
        int rc = bind_entries(l, h, sp, err, cap);

        if (rc == MEM_LIB_OK)
            read_version(l, h);
        return rc;
    }
    why = dlerror();
    if (why != NULL && strstr(why, "static TLS") != NULL) {
        snprintf(err, cap,
                 "%s: %s needs static TLS that glibc did not reserve; run bhost with "
                 "GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384, or without a "
                 "smaller size in it (%s)",
                 l->name, file, why);
        return MEM_LIB_NO_TLS;
    }
    snprintf(err, cap, "%s not installed (Debian package %s): %s", l->name, sp->package,
             why != NULL ? why : file);
    return MEM_LIB_MISSING;
}

int mem_lib_open(mem_lib *l, int kind, const char *library, char *err, size_t cap)
{
    memset(l, 0, sizeof(*l));
    l->kind = kind;
    l->name = mem_lib_names[kind];
    l->package = "";
    if (kind == MEM_LIB_GLIBC || kind == MEM_LIB_POOL || kind == MEM_LIB_ARENA) {
        l->malloc_fn = malloc;
        l->free_fn = free;
        snprintf(l->version, sizeof(l->version), "%s",
                 kind == MEM_LIB_GLIBC ? gnu_get_libc_version() : "own");
        l->version_number = kind == MEM_LIB_GLIBC ? version_number(l->version) : 0;
        return MEM_LIB_OK;
    }
    l->package = specs[kind].package;
    return load(l, library != NULL && library[0] != '\0' ? library : specs[kind].soname,
                &specs[kind], err, cap);
}
