// SPDX-License-Identifier: MIT
/*
 * roof_plugin.c -- entry point, benchmark list and the small helpers of
 * the roof plugin (roof.h).
 */
#include "roof.h"

const bhost_host_api *bh_roof_api;

static const bhost_bench_desc *const benches[] = {&bh_roof_bw, &bh_roof_peak};

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_roof_api, "org.bhost.roof", "roof", BH_PLUGIN_VERSION,
                "Ceilings of the machine in the same run: bandwidth per memory level and "
                "access, multiply-add peak per arithmetic type",
                bh_plugin_no_setup)

bhost_status bh_roof_threads(bhost_host *h, const char *prefix, unsigned *out)
{
    int64_t t = 0;
    bhost_status st = bh_plugin_i64(h, prefix, "threads", 0, 256, &t);

    if (st == BHOST_OK)
        *out = t == 0 ? bh_plugin_cpu_threads() : (unsigned)t;
    return st;
}

void *bh_roof_alloc(bhost_host *h, size_t bytes)
{
    return bh_roof_api->alloc(h, bytes, 64);
}

void bh_roof_free(bhost_host *h, void *p)
{
    if (p != NULL)
        bh_roof_api->free(h, p);
}
