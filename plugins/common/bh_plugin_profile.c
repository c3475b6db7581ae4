// SPDX-License-Identifier: MIT
/*
 * bh_plugin_profile.c -- filling a work profile (ABI 1.1
 * bhost_bench_desc.work_profile) for the in-tree plugins (contract in
 * bh_plugin.h; what the host does with it: plugin-api/README.md section
 * 6.1).
 */
#include "bh_plugin.h"

#include <stddef.h>

/* Whether a profile of struct_size bytes holds member m. */
#define HOLDS(out, m) ((out)->struct_size >= offsetof(bhost_work_profile, m) + sizeof((out)->m))

bhost_status bh_plugin_profile(bhost_work_profile *out, bhost_access access,
                               bhost_compute compute, unsigned threads,
                               double working_set_bytes)
{
    if (out == NULL)
        return BHOST_E_INVALID;
    /* the host sets struct_size; a member past it is not ours to write */
    if (HOLDS(out, access))
        out->access = access;
    if (HOLDS(out, compute))
        out->compute = compute;
    if (HOLDS(out, threads))
        out->threads = threads;
    if (HOLDS(out, working_set_bytes))
        out->working_set_bytes = working_set_bytes >= 1.0 && working_set_bytes < 1.8e19
                                     ? (uint64_t)working_set_bytes
                                     : 0;
    return BHOST_OK;
}
