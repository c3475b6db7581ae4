// SPDX-License-Identifier: MIT
/*
 * test_coll_timing.c -- the time behind the algbw and busbw metrics
 * (coll_timing.c) against a stub host: only the calls made with the last
 * call's iteration count count (the host's calibrated samples), the
 * slowest rank of each call (the other ranks' records come through the
 * stub's allgather), the median over those calls, this rank's own times
 * without a ranks extension, and the metrics derived from them.
 */
#include "coll_plugin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const bhost_host_api *bh_coll_api;

static int failures;
static int g_with_ranks;
static coll_times g_other; /* rank 1's record, served by the allgather */
static double g_busbw, g_algbw;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* coll_bench.c's, which this test does not link. */
bhost_status coll_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    (void)h;
    fprintf(stderr, "coll_fail: %s\n", fmt);
    failures++;
    return st;
}

static void BHOST_ABI h_set_error(bhost_host *h, const char *msg)
{
    (void)h;
    fprintf(stderr, "set_error: %s\n", msg);
}

static void *BHOST_ABI h_alloc(bhost_host *h, uint64_t size, uint64_t align)
{
    (void)h;
    (void)align;
    return malloc(size);
}

static void BHOST_ABI h_free(bhost_host *h, void *p)
{
    (void)h;
    free(p);
}

static bhost_status BHOST_ABI r_allgather(bhost_host *h, const void *in, uint32_t bytes, void *out)
{
    (void)h;
    memcpy(out, in, bytes);
    memcpy((char *)out + bytes, &g_other, bytes);
    return BHOST_OK;
}

static const bhost_host_ranks g_ranks = {sizeof(bhost_host_ranks), 0, NULL, r_allgather, NULL};

static const void *BHOST_ABI h_ext(bhost_host *h, const char *id)
{
    (void)h;
    return g_with_ranks && strcmp(id, BHOST_HOST_EXT_RANKS) == 0 ? &g_ranks : NULL;
}

static bhost_status BHOST_ABI h_metric(bhost_host *h, const char *name, const char *unit,
                                       bhost_direction d, double v)
{
    (void)h;
    (void)unit;
    (void)d;
    if (strcmp(name, "busbw") == 0)
        g_busbw = v;
    if (strcmp(name, "algbw") == 0)
        g_algbw = v;
    return BHOST_OK;
}

static const bhost_host_api g_api = {
    .struct_size = sizeof(bhost_host_api),
    .abi_minor = BHOST_ABI_MINOR,
    .set_error = h_set_error,
    .alloc = h_alloc,
    .free = h_free,
    .report_metric = h_metric,
    .get_extension = h_ext,
};

/* Calibration calls (1, 10, 100 iterations, slow per iteration), then
 * five samples of 1000 iterations at `per_iter` ns (one outlier). */
static void fill(coll_times *t, double per_iter)
{
    static const double scale[5] = {1.0, 1.0, 1.0, 1.0, 9.0};

    *t = (coll_times){0};
    coll_times_add(t, 1, 1000000);
    coll_times_add(t, 10, 1000000);
    coll_times_add(t, 100, 1000000);
    for (int i = 0; i < 5; i++)
        coll_times_add(t, 1000, (uint64_t)(1000 * per_iter * scale[i]));
}

int main(void)
{
    coll_times mine;
    double ns = -1;
    coll_case c = {.kind = COLL_ALLREDUCE, .nranks = 2, .sz = {.size_bytes = 1000000}};

    bh_coll_api = &g_api;
    bh_plugin_bind(&g_api, "collectives");
    fill(&mine, 500.0);
    CHECK(coll_times_median(NULL, &mine, 1, &ns) == BHOST_OK && fabs(ns - 500.0) < 1e-9);
    g_with_ranks = 1;
    fill(&g_other, 800.0); /* the slower rank sets every call's time */
    CHECK(coll_times_median(NULL, &mine, 2, &ns) == BHOST_OK && fabs(ns - 800.0) < 1e-9);
    CHECK(coll_report(NULL, &c, ns) == BHOST_OK);
    CHECK(fabs(g_algbw - 1000000 / 1e9 / 800e-9) < 1e-9 && fabs(g_busbw - g_algbw) < 1e-12);
    /* more calls than kept: the ring holds the last COLL_TIMES */
    for (int i = 0; i < COLL_TIMES + 7; i++)
        coll_times_add(&mine, 50, 50 * 300);
    g_with_ranks = 0;
    CHECK(coll_times_median(NULL, &mine, 2, &ns) == BHOST_OK && fabs(ns - 300.0) < 1e-9);
    mine = (coll_times){0};
    CHECK(coll_times_median(NULL, &mine, 1, &ns) == BHOST_OK && ns == 0.0);
    if (failures) {
        fprintf(stderr, "test_coll_timing: %d failures\n", failures);
        return 1;
    }
    printf("test_coll_timing: ok\n");
    return 0;
}
