// SPDX-License-Identifier: MIT
/*
 * fx_ab.c -- fx_ab.so, built twice (tests/ab/a and tests/ab/b) with
 * different compile-time settings, so bhost ab has two builds of one
 * plugin to tell apart (tests/ab/test_ab.py).
 *
 *   spin    work (I64, default 20000) dependent multiply-adds per
 *           iteration, times FX_AB_WORK_PERCENT / 100 (the b build: 400,
 *           four times the work)
 *   crash   the same spin; with FX_AB_CRASH (the b build) run() raises
 *           SIGSEGV
 *   extra   only with FX_AB_EXTRA (the b build): a case A lacks
 */
#include <bhost/plugin.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#ifndef FX_AB_WORK_PERCENT
#define FX_AB_WORK_PERCENT 100
#endif

static const bhost_host_api *api;

struct spin {
    bhost_host *h;
    int64_t steps; /* per iteration */
    uint64_t x;
    uint64_t iters;
};

static const bhost_param_desc spin_params[] = {
    {sizeof(bhost_param_desc), BHOST_PARAM_I64, "work", "Steps per iteration before scaling",
     "20000", NULL, 1, 100000000},
};

/* Reads work and scales it by the build's FX_AB_WORK_PERCENT. [instance] */
static bhost_status BHOST_ABI spin_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **inst)
{
    struct spin *s;
    int64_t work = 0;

    if (api->param_i64(h, "work", &work) != BHOST_OK || work < 1) {
        api->set_error(h, "fx_ab: no valid work parameter");
        return BHOST_E_INVALID;
    }
    s = calloc(1, sizeof(*s));
    if (s == NULL) {
        api->set_error(h, "fx_ab: out of memory");
        return BHOST_E_NOMEM;
    }
    s->h = h;
    s->steps = work * FX_AB_WORK_PERCENT / 100;
    s->x = 1;
    *inst = s;
    return BHOST_OK;
}

/* Nothing to prepare. [instance] */
static bhost_status BHOST_ABI spin_setup(void *inst, bhost_stream *st)
{
    return BHOST_OK;
}

/* steps dependent multiply-adds per iteration. [instance] */
static bhost_status BHOST_ABI spin_run(void *inst, bhost_stream *st, uint64_t iterations)
{
    struct spin *s = inst;

    for (uint64_t i = 0; i < iterations; i++) {
        for (int64_t k = 0; k < s->steps; k++)
            s->x = s->x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        bhost_do_not_optimize(&s->x);
    }
    s->iters += iterations;
    return BHOST_OK;
}

/* The b build's crash: SIGSEGV in run(). [instance] */
static bhost_status BHOST_ABI crash_run(void *inst, bhost_stream *st, uint64_t iterations)
{
#ifdef FX_AB_CRASH
    raise(SIGSEGV);
#endif
    return spin_run(inst, st, iterations);
}

/* Passes once run() ran. [instance] */
static bhost_status BHOST_ABI spin_verify(void *inst)
{
    return ((const struct spin *)inst)->iters > 0 ? BHOST_OK : BHOST_E_VERIFY;
}

/* Frees the instance. [instance] */
static void BHOST_ABI spin_destroy(void *inst)
{
    free(inst);
}

#define FX_AB_DESC(ID, RUN, SUMMARY)                                                               \
    {                                                                                              \
        .struct_size = sizeof(bhost_bench_desc), .id = ID, .summary = SUMMARY,                     \
        .params = spin_params, .param_count = 1, .create = spin_create, .setup = spin_setup,       \
        .run = RUN, .verify = spin_verify, .destroy = spin_destroy,                                \
    }

static const bhost_bench_desc descs[] = {
    FX_AB_DESC("spin", spin_run, "Dependent multiply-adds, scaled by the build"),
    FX_AB_DESC("crash", crash_run, "spin, or SIGSEGV in the crashing build"),
#ifdef FX_AB_EXTRA
    FX_AB_DESC("extra", spin_run, "A benchmark only the b build has"),
#endif
};

/* The number of benchmarks of this build. [any-thread] */
static uint32_t BHOST_ABI ab_count(void)
{
    return (uint32_t)(sizeof(descs) / sizeof(descs[0]));
}

/* Descriptor index, static; NULL past the end. [any-thread] */
static const bhost_bench_desc *BHOST_ABI ab_get(uint32_t index)
{
    return index < ab_count() ? &descs[index] : NULL;
}

static const bhost_bench_factory factory = {sizeof(bhost_bench_factory), 0, ab_count, ab_get};

/* The factory for BHOST_IFACE_BENCHMARKS, else NULL. [any-thread] */
static const void *BHOST_ABI ab_interface(const char *id)
{
    return id != NULL && strcmp(id, BHOST_IFACE_BENCHMARKS) == 0 ? &factory : NULL;
}

/* Keeps the host API. [main] */
static bhost_status BHOST_ABI ab_init(const bhost_host_api *host)
{
    if (host == NULL)
        return BHOST_E_VERSION;
    api = host;
    return BHOST_OK;
}

/* Forgets the host API. [main] */
static void BHOST_ABI ab_deinit(void)
{
    api = NULL;
}

const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    "org.bhost.fx_ab",
    "fx_ab",
    "0.0.1",
    "Fixture: one plugin built twice for bhost ab",
    ab_init,
    ab_deinit,
    ab_interface,
};
