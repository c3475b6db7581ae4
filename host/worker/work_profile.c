// SPDX-License-Identifier: MIT
/* A benchmark instance's work profile (see work_profile.h). */
#include "work_profile.h"

#include <stdio.h>
#include <string.h>

/* See work_profile.h. */
const char *bh_work_access_name(bhost_access a)
{
    static const char *const names[] = {"unknown", "read", "write", "read-write"};

    return a < sizeof(names) / sizeof(*names) ? names[a] : NULL;
}

/* See work_profile.h. */
const char *bh_work_compute_name(bhost_compute c)
{
    static const char *const names[] = {"none", "f64", "f32", "f16", "bf16", "int8"};

    return c < sizeof(names) / sizeof(*names) ? names[c] : NULL;
}

/* See work_profile.h. */
int bh_work_profile_get(const bhost_bench_desc *d, void *inst, cJSON **out, char *why,
                        size_t cap)
{
    bhost_work_profile p;
    bhost_status st;
    const char *access, *compute;

    *out = NULL;
    if (!BHOST_HAS(bhost_bench_desc, d, work_profile) || !d->work_profile)
        return 0;
    memset(&p, 0, sizeof(p));
    p.struct_size = (uint32_t)sizeof(p);
    st = d->work_profile(inst, &p);
    if (st != BHOST_OK) {
        snprintf(why, cap, "work_profile returned status %d", (int)st);
        return -1;
    }
    access = bh_work_access_name(p.access);
    compute = bh_work_compute_name(p.compute);
    if (!access || !compute) {
        snprintf(why, cap, "work_profile gave access %u and compute %u (expected %s)", p.access,
                 p.compute, access ? "a bhost_compute value 0..5" : "a bhost_access value 0..3");
        return -1;
    }
    *out = cJSON_CreateObject();
    cJSON_AddNumberToObject(*out, "working_set_bytes", (double)p.working_set_bytes);
    cJSON_AddStringToObject(*out, "access", access);
    cJSON_AddStringToObject(*out, "compute", compute);
    cJSON_AddNumberToObject(*out, "threads", p.threads);
    return 0;
}
