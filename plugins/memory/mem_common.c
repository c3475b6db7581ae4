// SPDX-License-Identifier: MIT
/*
 * mem_common.c -- what the memory plugin's benchmarks share: failure
 * lines, accounted memory, opening the allocator under test (mem.h).
 */
#include "mem.h"

#include <stdio.h>
#include <string.h>

bhost_status mem_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    st = bh_plugin_vfail(h, st, MEM_PREFIX, fmt, ap);
    va_end(ap);
    return st;
}

void *mem_zalloc(bhost_host *h, uint64_t bytes)
{
    void *p = bh_mem_api->alloc(h, bytes, 64);

    if (p == NULL) {
        mem_fail(h, BHOST_E_NOMEM, "out of memory (%llu bytes)", (unsigned long long)bytes);
        return NULL;
    }
    memset(p, 0, (size_t)bytes);
    return p;
}

void mem_free(bhost_host *h, void *p)
{
    bh_mem_api->free(h, p);
}

/* The bhost status of a mem_lib_open outcome. */
static bhost_status lib_status(int rc)
{
    switch (rc) {
    case MEM_LIB_OK:
        return BHOST_OK;
    case MEM_LIB_MISSING:
        return BHOST_E_SKIP;
    case MEM_LIB_NO_TLS:
        return BHOST_E_UNSUPPORTED;
    default:
        return BHOST_E_INVALID;
    }
}

bhost_status mem_open(bhost_host *h, mem_alloc *a, unsigned threads, size_t pool_size)
{
    char library[256], err[400], line[512];
    int kind = 0, rc;
    mem_lib lib;
    bhost_status st = bh_plugin_choice(h, MEM_PREFIX, "allocator", mem_lib_names, &kind);

    if (st == BHOST_OK)
        st = bh_plugin_str(h, MEM_PREFIX, "library", library, sizeof(library));
    if (st != BHOST_OK)
        return st;
    rc = mem_lib_open(&lib, kind, library, err, sizeof(err));
    if (rc != MEM_LIB_OK)
        return mem_fail(h, lib_status(rc), "%s", err);
    if (mem_alloc_init(a, &lib, threads, pool_size) != 0) {
        mem_alloc_fini(a);
        return mem_fail(h, BHOST_E_NOMEM, "cannot set up %s for %u threads", lib.name, threads);
    }
    snprintf(line, sizeof(line), "memory: allocator %s %s%s%s", lib.name, lib.version,
             lib.path[0] ? " from " : "", lib.path);
    bh_mem_api->log(h, BHOST_LOG_INFO, line);
    return BHOST_OK;
}

bhost_status mem_report_allocator(bhost_host *h, const mem_alloc *a)
{
    return bh_plugin_metric_info(h, "allocator.version", "", a->lib.version_number);
}

bhost_status mem_profile_none(bhost_work_profile *out, unsigned threads)
{
    return bh_plugin_profile(out, BHOST_ACCESS_UNKNOWN, BHOST_COMPUTE_NONE, threads, 0);
}
