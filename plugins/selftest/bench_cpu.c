// SPDX-License-Identifier: MIT
/*
 * bench_cpu.c -- the host-only selftest benchmarks: noop, spin and memcpy.
 *
 * Counting: noop and spin declare no bytes and no FLOPs (spin's items are
 * its 'work' steps of integer xorshift); memcpy moves 2 x bytes per
 * iteration (bytes read from src plus bytes written to dst; no
 * write-allocate traffic), the whole of both buffers. Work profiles: noop
 * and spin touch nothing worth a ceiling (working set 0, compute none);
 * memcpy is a read-write stream of 2 x bytes on one thread. noop is not a
 * ceiling: as the per-call floor it would mark every host case
 * latency-bound.
 */
#include "selftest.h"

#include <inttypes.h>
#include <string.h>

#define CANARY_BYTES 64u
#define CANARY_BYTE 0xA5u

/* ---- noop: the host's per-iteration overhead ------------------------------ */

struct noop {
    bhost_host *h;
    uint64_t counter;  /* incremented once per iteration */
    uint64_t expected; /* iterations requested over all run() calls */
};

/* Allocates a zeroed instance for case h. [instance] */
static bhost_status BHOST_ABI noop_create(bhost_host *h, const bhost_backend *be,
                                          bhost_dev *dev, void **inst)
{
    struct noop *n = bh_selftest_api->alloc(h, sizeof(*n), 0);

    if (n == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "noop: out of memory");
    memset(n, 0, sizeof(*n));
    n->h = h;
    *inst = n;
    return BHOST_OK;
}

/* Nothing to prepare. [instance] */
static bhost_status BHOST_ABI noop_setup(void *inst, bhost_stream *s)
{
    return BHOST_OK;
}

/* Increments the counter once per iteration, observably. [instance] */
static bhost_status BHOST_ABI noop_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    struct noop *n = inst;

    for (uint64_t i = 0; i < iterations; i++) {
        n->counter++;
        bhost_do_not_optimize(&n->counter);
    }
    n->expected += iterations;
    return BHOST_OK;
}

/* BHOST_E_VERIFY unless every requested iteration ran. [instance] */
static bhost_status BHOST_ABI noop_verify(void *inst)
{
    const struct noop *n = inst;

    if (n->counter != n->expected)
        return bh_plugin_fail(n->h, BHOST_E_VERIFY,
                              "noop: counter %" PRIu64 " != %" PRIu64
                              " iterations run",
                              n->counter, n->expected);
    return BHOST_OK;
}

/* Frees the instance. [instance] */
static void BHOST_ABI noop_destroy(void *inst)
{
    struct noop *n = inst;

    bh_selftest_api->free(n->h, n);
}

/* See selftest.h. [instance] */
bhost_status BHOST_ABI bh_selftest_nothing_profile(void *inst, bhost_work_profile *out)
{
    (void)inst;
    return bh_plugin_profile(out, BHOST_ACCESS_UNKNOWN, BHOST_COMPUTE_NONE, 1, 0);
}

const bhost_bench_desc bh_selftest_noop = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "noop",
    .summary = "Empty iteration: measures the host's timing overhead",
    .create = noop_create,
    .setup = noop_setup,
    .run = noop_run,
    .verify = noop_verify,
    .destroy = noop_destroy,
    .work_profile = bh_selftest_nothing_profile,
};

/* ---- spin: a calibrated, dependent integer recurrence -------------------- */

struct spin {
    bhost_host *h;
    uint64_t seed;  /* starting state of every iteration, never 0 */
    uint64_t steps; /* recurrence steps per iteration, slowdown included */
    uint64_t out;   /* final state of the last iteration; 0 = never run */
    int64_t work;   /* the 'work' parameter */
};

/* Advances the xorshift64 state x by steps steps. x != 0 stays != 0. */
static uint64_t xorshift(uint64_t x, uint64_t steps)
{
    for (uint64_t i = 0; i < steps; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

static const bhost_param_desc spin_params[] = {
    {
        .struct_size = sizeof(bhost_param_desc),
        .type = BHOST_PARAM_I64,
        .key = "work",
        .summary = "Recurrence steps per iteration",
        .default_value = "1000",
        .min = 1,
        .max = BH_PLUGIN_I64_MAX,
    },
    {
        .struct_size = sizeof(bhost_param_desc),
        .type = BHOST_PARAM_F64,
        .key = "slowdown_pct",
        .summary = "Extra work in percent, to simulate a regression",
        .default_value = "0",
        .min = 0,
        .max = 1000,
    },
};

/* Reads work and slowdown_pct; steps = round(work * (1 + pct / 100)).
 * BHOST_E_INVALID for values outside the declared ranges. [instance] */
static bhost_status BHOST_ABI spin_create(bhost_host *h, const bhost_backend *be,
                                          bhost_dev *dev, void **inst)
{
    struct spin *sp;
    int64_t work;
    double pct;
    bhost_status st;

    st = bh_plugin_i64(h, "", "work", INT64_MIN, INT64_MAX, &work);
    if (st != BHOST_OK)
        return st;
    st = bh_plugin_f64(h, "", "slowdown_pct", 0, &pct);
    if (st != BHOST_OK)
        return st;
    if (work < 1 || (double)work > BH_PLUGIN_I64_MAX)
        return bh_plugin_fail(h, BHOST_E_INVALID,
                              "spin: work=%" PRId64 " outside [1, 2^53]",
                              work);
    if (!(pct >= 0.0 && pct <= 1000.0))
        return bh_plugin_fail(h, BHOST_E_INVALID,
                              "spin: slowdown_pct=%g outside [0, 1000]", pct);

    sp = bh_selftest_api->alloc(h, sizeof(*sp), 0);
    if (sp == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "spin: out of memory");
    memset(sp, 0, sizeof(*sp));
    sp->h = h;
    sp->work = work;
    sp->steps = (uint64_t)work + (uint64_t)((double)work * pct / 100.0 + 0.5);
    sp->seed = bh_selftest_api->seed(h);
    sp->seed = bh_rng_next(&sp->seed) | 1u;
    *inst = sp;
    return BHOST_OK;
}

/* Nothing to prepare. [instance] */
static bhost_status BHOST_ABI spin_setup(void *inst, bhost_stream *s)
{
    return BHOST_OK;
}

/* Each iteration runs the recurrence from the seed; the asm barrier forces
 * the seed to be re-read, so no iteration can be folded away. [instance] */
static bhost_status BHOST_ABI spin_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    struct spin *sp = inst;

    for (uint64_t i = 0; i < iterations; i++) {
        sp->out = xorshift(sp->seed, sp->steps);
        bhost_do_not_optimize(&sp->out);
    }
    return BHOST_OK;
}

/* Recomputes one iteration from the seed and compares with the last run's
 * final state. [instance] */
static bhost_status BHOST_ABI spin_verify(void *inst)
{
    const struct spin *sp = inst;
    uint64_t want = xorshift(sp->seed, sp->steps);

    if (sp->out != want)
        return bh_plugin_fail(sp->h, BHOST_E_VERIFY,
                              "spin: final state %016" PRIx64
                              " != expected %016" PRIx64,
                              sp->out, want);
    return BHOST_OK;
}

/* Frees the instance. [instance] */
static void BHOST_ABI spin_destroy(void *inst)
{
    struct spin *sp = inst;

    bh_selftest_api->free(sp->h, sp);
}

/* The 'work' parameter: slowdown shows up as lower throughput. [instance] */
static double BHOST_ABI spin_items(void *inst)
{
    return (double)((const struct spin *)inst)->work;
}

const bhost_bench_desc bh_selftest_spin = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "spin",
    .summary = "Calibrated busy loop (xorshift64 chain) with optional slowdown",
    .params = spin_params,
    .param_count = sizeof(spin_params) / sizeof(spin_params[0]),
    .create = spin_create,
    .setup = spin_setup,
    .run = spin_run,
    .verify = spin_verify,
    .destroy = spin_destroy,
    .items_per_iter = spin_items,
    .work_profile = bh_selftest_nothing_profile,
};

/* ---- memcpy: host memory bandwidth ---------------------------------------- */

struct mcpy {
    bhost_host *h;
    uint64_t bytes;
    unsigned char *src; /* bytes, seeded pattern */
    unsigned char *dst; /* bytes + CANARY_BYTES, canary at the end */
};

static const bhost_param_desc bytes_param[] = {
    {
        .struct_size = sizeof(bhost_param_desc),
        .type = BHOST_PARAM_I64,
        .key = "bytes",
        .summary = "Bytes copied per iteration",
        .default_value = "1048576",
        .min = 1,
        .max = BH_PLUGIN_I64_MAX,
    },
};

/* Reads 'bytes'; buffers are allocated in setup(). [instance] */
static bhost_status BHOST_ABI mcpy_create(bhost_host *h, const bhost_backend *be,
                                          bhost_dev *dev, void **inst)
{
    struct mcpy *m;
    int64_t bytes;
    bhost_status st;

    st = bh_plugin_i64(h, "", "bytes", INT64_MIN, INT64_MAX, &bytes);
    if (st != BHOST_OK)
        return st;
    if (bytes < 1 || (double)bytes > BH_PLUGIN_I64_MAX)
        return bh_plugin_fail(h, BHOST_E_INVALID,
                              "memcpy: bytes=%" PRId64 " outside [1, 2^53]",
                              bytes);
    m = bh_selftest_api->alloc(h, sizeof(*m), 0);
    if (m == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "memcpy: out of memory");
    memset(m, 0, sizeof(*m));
    m->h = h;
    m->bytes = (uint64_t)bytes;
    *inst = m;
    return BHOST_OK;
}

/* Allocates (first call only) and fills src with a seeded pattern, clears
 * dst and writes the canary behind it. BHOST_E_NOMEM when the host's
 * allocator refuses. [instance] */
static bhost_status BHOST_ABI mcpy_setup(void *inst, bhost_stream *s)
{
    struct mcpy *m = inst;
    uint64_t state = bh_selftest_api->seed(m->h);

    if (m->src == NULL)
        m->src = bh_selftest_api->alloc(m->h, m->bytes, 64);
    if (m->dst == NULL)
        m->dst = bh_selftest_api->alloc(m->h, m->bytes + CANARY_BYTES, 64);
    if (m->src == NULL || m->dst == NULL)
        return bh_plugin_fail(m->h, BHOST_E_NOMEM,
                              "memcpy: cannot allocate 2 x %" PRIu64 " bytes",
                              m->bytes);
    for (uint64_t i = 0; i < m->bytes; i += 8) {
        uint64_t v = bh_rng_next(&state);
        uint64_t n = m->bytes - i < 8 ? m->bytes - i : 8;

        memcpy(m->src + i, &v, (size_t)n);
    }
    memset(m->dst, 0, (size_t)m->bytes);
    memset(m->dst + m->bytes, CANARY_BYTE, CANARY_BYTES);
    return BHOST_OK;
}

/* Copies src to dst once per iteration. [instance] */
static bhost_status BHOST_ABI mcpy_run(void *inst, bhost_stream *s,
                                       uint64_t iterations)
{
    struct mcpy *m = inst;

    for (uint64_t i = 0; i < iterations; i++) {
        memcpy(m->dst, m->src, (size_t)m->bytes);
        bhost_do_not_optimize(m->dst);
    }
    return BHOST_OK;
}

/* BHOST_E_VERIFY when dst differs from src or the canary was overwritten.
 * [instance] */
static bhost_status BHOST_ABI mcpy_verify(void *inst)
{
    const struct mcpy *m = inst;

    if (m->src == NULL || m->dst == NULL)
        return bh_plugin_fail(m->h, BHOST_E_VERIFY,
                              "memcpy: verify before setup");
    if (memcmp(m->dst, m->src, (size_t)m->bytes) != 0) {
        uint64_t i = 0;

        while (m->dst[i] == m->src[i])
            i++;
        return bh_plugin_fail(m->h, BHOST_E_VERIFY,
                              "memcpy: dst differs from src at byte %" PRIu64
                              " of %" PRIu64,
                              i, m->bytes);
    }
    for (uint64_t i = 0; i < CANARY_BYTES; i++)
        if (m->dst[m->bytes + i] != CANARY_BYTE)
            return bh_plugin_fail(m->h, BHOST_E_VERIFY,
                                  "memcpy: canary byte %" PRIu64
                                  " past the end overwritten",
                                  i);
    return BHOST_OK;
}

/* Frees the buffers and the instance. [instance] */
static void BHOST_ABI mcpy_destroy(void *inst)
{
    struct mcpy *m = inst;

    bh_selftest_api->free(m->h, m->src);
    bh_selftest_api->free(m->h, m->dst);
    bh_selftest_api->free(m->h, m);
}

/* Read plus write traffic: 2 * bytes. [instance] */
static double BHOST_ABI mcpy_bytes(void *inst)
{
    return 2.0 * (double)((const struct mcpy *)inst)->bytes;
}

/* A read-write stream over both buffers (2 x bytes) on one thread.
 * [instance] */
static bhost_status BHOST_ABI mcpy_profile(void *inst, bhost_work_profile *out)
{
    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_NONE, 1,
                             mcpy_bytes(inst));
}

const bhost_bench_desc bh_selftest_memcpy = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "memcpy",
    .summary = "memcpy between two host buffers (bytes_per_iter = read+write)",
    .params = bytes_param,
    .param_count = 1,
    .create = mcpy_create,
    .setup = mcpy_setup,
    .run = mcpy_run,
    .verify = mcpy_verify,
    .destroy = mcpy_destroy,
    .bytes_per_iter = mcpy_bytes,
    .work_profile = mcpy_profile,
};
