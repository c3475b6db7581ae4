// SPDX-License-Identifier: MIT
/*
 * coll_timing.c -- the time per iteration behind the algbw and busbw
 * metrics, taken as the host takes a multi-rank sample (the maximum over
 * ranks of each call) and the median over the last calls made with the
 * calibrated iteration count, and the
 * metrics themselves (contracts in coll_plugin.h). The case's own time
 * and throughput are the host's; these metrics restate that time in
 * nccl-tests' and the OSU benchmarks' terms.
 */
#include "coll_plugin.h"

#include "bh_cmp.h"

void coll_times_add(coll_times *t, uint64_t iterations, uint64_t ns)
{
    if (iterations == 0)
        return;
    t->ns_per_iter[t->calls % COLL_TIMES] = (double)ns / (double)iterations;
    t->iterations[t->calls % COLL_TIMES] = iterations;
    t->calls++;
}

/* Every rank's record through the host's allgather (rx), into
 * all[nranks]; BHOST_OK or the host's status. */
static bhost_status gather(bhost_host *h, const bhost_host_ranks *rx, const coll_times *t,
                           unsigned nranks, coll_times *all)
{
    bhost_status st;

    if (nranks < 2) {
        all[0] = *t;
        return BHOST_OK;
    }
    st = rx->allgather(h, t, (uint32_t)sizeof(*t), all);
    if (st != BHOST_OK)
        return coll_fail(h, st, "the host's allgather of the ranks' times failed");
    return BHOST_OK;
}

bhost_status coll_times_median(bhost_host *h, const coll_times *t, unsigned nranks, double *ns)
{
    const bhost_host_ranks *rx = bh_coll_api->get_extension(h, BHOST_HOST_EXT_RANKS);
    unsigned n = rx != NULL && nranks > 1 ? nranks : 1;
    coll_times *all = bh_coll_api->alloc(h, (uint64_t)n * sizeof(*all), 0);
    double worst[COLL_TIMES];
    uint64_t calls = t->calls < COLL_TIMES ? t->calls : COLL_TIMES, last = 0;
    size_t kept = 0;
    bhost_status st;

    *ns = 0;
    if (all == NULL)
        return coll_fail(h, BHOST_E_NOMEM, "no memory for %u ranks' times", n);
    st = gather(h, rx, t, n, all);
    if (t->calls > 0)
        last = t->iterations[(t->calls - 1) % COLL_TIMES];
    for (uint64_t i = 0; st == BHOST_OK && i < calls; i++) {
        if (t->iterations[i] != last)
            continue; /* a calibration call */
        worst[kept] = all[0].ns_per_iter[i];
        for (unsigned r = 1; r < n; r++)
            if (all[r].ns_per_iter[i] > worst[kept])
                worst[kept] = all[r].ns_per_iter[i];
        kept++;
    }
    if (st == BHOST_OK && kept > 0)
        *ns = bh_median_sort(worst, kept);
    bh_coll_api->free(h, all);
    return st;
}

bhost_status coll_report(bhost_host *h, const coll_case *c, double ns)
{
    double algbw = coll_algbw_gbs(c->sz.size_bytes, ns * 1e-9);
    double factor = coll_busbw_factor(c->kind, c->nranks);
    bhost_status st = BHOST_OK;

    if (ns <= 0)
        return BHOST_OK;
    st = bh_plugin_metric(h, "algbw", "GB/s", BHOST_HIGHER_IS_BETTER, algbw);
    if (st == BHOST_OK)
        st = bh_plugin_metric(h, "busbw", "GB/s", BHOST_HIGHER_IS_BETTER, algbw * factor);
    if (st == BHOST_OK)
        st = bh_plugin_metric_info(h, "busbw.factor", "", factor);
    if (st == BHOST_OK)
        st = bh_plugin_metric_info(h, "size", "B", (double)c->sz.size_bytes);
    if (st == BHOST_OK && c->kind == COLL_P2P_LATENCY)
        st = bh_plugin_metric(h, "latency.one_way", "ns", BHOST_LOWER_IS_BETTER, ns / 2.0);
    return st;
}
