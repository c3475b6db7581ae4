// SPDX-License-Identifier: MIT
/*
 * bench_fixed.c -- the selftest benchmark "fixed": a time per iteration
 * that does not depend on the machine, for tests of the host's statistics
 * (runs: auto, docs/statistics.md section 8.3).
 *
 * It times itself (BHOST_BENCH_MANUAL_TIMING): run(N) waits on the
 * monotonic clock until at least N x time_ns x f nanoseconds have passed
 * and reports exactly that (rounded to whole ns), so a sample's ns per
 * iteration is time_ns x f whatever the load of the machine. f is 1 with
 * noise_pct 0; else it is drawn once per run (per worker process),
 * uniformly in [1, 1 + noise_pct / 100), from the seed mixed with the
 * process id and the clock: deliberately not repeatable, it stands for the
 * between-run noise of a real machine (every run of a case gets the same
 * seed, so a seed-only draw would give every run the same f). Within a run
 * every sample reports the same value. No bytes, no FLOPs, no ceiling.
 */
#include "selftest.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

struct fixed {
    bhost_host *h;
    double ns;      /* reported ns per iteration: time_ns x f */
    uint64_t calls; /* run() calls, for verify */
};

static const bhost_param_desc fixed_params[] = {
    {
        .struct_size = sizeof(bhost_param_desc),
        .type = BHOST_PARAM_I64,
        .key = "time_ns",
        .summary = "Reported time per iteration in ns (waited for on the clock)",
        .default_value = "1000",
        .min = 1,
        .max = 1000000000,
    },
    {
        .struct_size = sizeof(bhost_param_desc),
        .type = BHOST_PARAM_F64,
        .key = "noise_pct",
        .summary = "Between-run noise: each run reports up to this percent more",
        .default_value = "0",
        .min = 0,
        .max = 100,
    },
};

/* Nanoseconds of CLOCK_MONOTONIC. [any-thread] */
static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Reads time_ns and noise_pct and draws the run's factor. [instance] */
static bhost_status BHOST_ABI fixed_create(bhost_host *h, const bhost_backend *be,
                                           bhost_dev *dev, void **inst)
{
    struct fixed *fx;
    int64_t t;
    double pct, f = 1.0;
    bhost_status st;

    st = bh_plugin_i64(h, "", "time_ns", 1, 1000000000, &t);
    if (st != BHOST_OK)
        return st;
    st = bh_plugin_f64(h, "", "noise_pct", 0, &pct);
    if (st != BHOST_OK)
        return st;
    if (!(pct >= 0.0 && pct <= 100.0))
        return bh_plugin_fail(h, BHOST_E_INVALID, "fixed: noise_pct=%g outside [0, 100]", pct);
    if (pct > 0.0) {
        uint64_t s = bh_selftest_api->seed(h) ^ ((uint64_t)getpid() << 32) ^ now_ns();

        f = 1.0 + pct / 100.0 * (double)(bh_rng_next(&s) >> 11) * 0x1.0p-53;
    }
    fx = bh_selftest_api->alloc(h, sizeof(*fx), 0);
    if (fx == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "fixed: out of memory");
    memset(fx, 0, sizeof(*fx));
    fx->h = h;
    fx->ns = (double)t * f;
    *inst = fx;
    return BHOST_OK;
}

/* Nothing to prepare. [instance] */
static bhost_status BHOST_ABI fixed_setup(void *inst, bhost_stream *s)
{
    return BHOST_OK;
}

/* Waits N x ns on the clock and reports that time. [instance] */
static bhost_status BHOST_ABI fixed_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    struct fixed *fx = inst;
    uint64_t want = (uint64_t)(fx->ns * (double)iterations + 0.5);
    uint64_t t0 = now_ns();

    if (want == 0)
        want = 1;
    while (now_ns() - t0 < want)
        ;
    fx->calls++;
    return bh_selftest_api->set_iteration_time_ns(fx->h, want);
}

/* BHOST_E_VERIFY when run() was never called. [instance] */
static bhost_status BHOST_ABI fixed_verify(void *inst)
{
    const struct fixed *fx = inst;

    if (fx->calls == 0)
        return bh_plugin_fail(fx->h, BHOST_E_VERIFY, "fixed: run() was never called");
    return BHOST_OK;
}

/* Frees the instance. [instance] */
static void BHOST_ABI fixed_destroy(void *inst)
{
    struct fixed *fx = inst;

    bh_selftest_api->free(fx->h, fx);
}

const bhost_bench_desc bh_selftest_fixed = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_MANUAL_TIMING,
    .id = "fixed",
    .summary = "Self-timed wait reporting a fixed time per iteration, with optional run noise",
    .params = fixed_params,
    .param_count = sizeof(fixed_params) / sizeof(fixed_params[0]),
    .create = fixed_create,
    .setup = fixed_setup,
    .run = fixed_run,
    .verify = fixed_verify,
    .destroy = fixed_destroy,
    .work_profile = bh_selftest_nothing_profile,
};
