// SPDX-License-Identifier: MIT
/*
 * bench_alloc.c -- alloc.latency and alloc.throughput: allocation and free
 * of one size class through the allocator under test, on 1 or more
 * threads (each with its own pool or arena for the plugin's own kinds).
 *
 * alloc.latency: an iteration is, on every thread at once, one allocation
 * of `size` bytes, a store to its first and last byte, and its free: the
 * time per iteration is the latency of an allocate + free pair under
 * `threads`-way concurrency. alloc.throughput: an iteration allocates
 * live_bytes / size blocks (1 to 65536) per thread, storing to each, then
 * frees them in a seeded random order. Counting: items = allocations
 * (pairs) per iteration over all threads; no bytes (allocation is not
 * traffic), so the work profile has no stream. verify() checks that every
 * requested pair ran and then, per thread, holds up to 64 blocks live at
 * once, each written whole with its own byte, and checks their alignment
 * (16 bytes) and that no block overwrote another.
 */
#include "mem.h"

#include "bh_pool.h"
#include "bh_rng.h"

#include <inttypes.h>
#include <string.h>

#define MAX_BATCH     65536u
#define VERIFY_BLOCKS 64u
#define VERIFY_BYTES  ((uint64_t)256 << 20)

typedef struct alloc_slot {
    uint64_t done; /* pairs completed by this task */
    int failed;    /* an allocation returned NULL */
    char pad[64 - sizeof(uint64_t) - sizeof(int)];
} alloc_slot;

typedef struct alloc_inst {
    bhost_host *h;
    mem_alloc a;
    bh_pool *pool;
    size_t size;
    unsigned threads;
    unsigned batch;    /* 1: alloc.throughput */
    size_t count;      /* blocks per batch */
    void **blocks;     /* [threads][count] */
    uint32_t *order;   /* free order of a batch */
    uint64_t iters;    /* this run() call's iterations */
    uint64_t expected; /* pairs requested over all run() calls */
    alloc_slot slot[MEM_MAX_THREADS];
} alloc_inst;

static const bhost_param_desc latency_params[] = {
    MEM_PARAM_ALLOCATOR,
    MEM_PARAM_LIBRARY,
    BH_PARAM_I64("size", "Bytes per allocation (16 B .. 64 MiB)", "64", 1, 1 << 30),
    BH_PARAM_I64("threads", "Threads allocating at once", "1", 1, MEM_MAX_THREADS),
};

static const bhost_param_desc throughput_params[] = {
    MEM_PARAM_ALLOCATOR,
    MEM_PARAM_LIBRARY,
    BH_PARAM_I64("size", "Bytes per allocation (16 B .. 64 MiB)", "64", 1, 1 << 30),
    BH_PARAM_I64("threads", "Threads allocating at once", "1", 1, MEM_MAX_THREADS),
    BH_PARAM_I64("live_bytes", "Bytes held live per thread in a batch", "16777216", 1,
                 (double)((uint64_t)1 << 32)),
};

static void BHOST_ABI alloc_destroy(void *inst);

/* Fills in the batch size and its seeded free order. [instance] */
static bhost_status setup_batch(alloc_inst *x, uint64_t live)
{
    uint64_t seed = bh_mem_api->seed(x->h);
    uint64_t n = live / x->size;

    x->count = n < 1 ? 1 : n > MAX_BATCH ? MAX_BATCH : (size_t)n;
    x->blocks = mem_zalloc(x->h, (uint64_t)x->threads * x->count * sizeof(void *));
    x->order = mem_zalloc(x->h, x->count * sizeof(uint32_t));
    if (x->blocks == NULL || x->order == NULL)
        return BHOST_E_NOMEM;
    for (size_t i = 0; i < x->count; i++)
        x->order[i] = (uint32_t)i;
    for (size_t i = x->count; i > 1; i--) { /* Fisher-Yates */
        size_t j = (size_t)(bh_rng_next(&seed) % i);
        uint32_t t = x->order[i - 1];

        x->order[i - 1] = x->order[j];
        x->order[j] = t;
    }
    return BHOST_OK;
}

/* Shared create of both benchmarks. [instance] */
static bhost_status alloc_create(bhost_host *h, void **inst, unsigned batch)
{
    int64_t size = 0, threads = 1, live = 0;
    alloc_inst *x;
    bhost_status st = bh_plugin_i64(h, MEM_PREFIX, "size", 1, 1 << 30, &size);

    if (st == BHOST_OK)
        st = bh_plugin_i64(h, MEM_PREFIX, "threads", 1, MEM_MAX_THREADS, &threads);
    if (st == BHOST_OK && batch)
        st = bh_plugin_i64(h, MEM_PREFIX, "live_bytes", 1, INT64_MAX, &live);
    if (st != BHOST_OK)
        return st;
    x = mem_zalloc(h, sizeof(*x));
    if (x == NULL)
        return BHOST_E_NOMEM;
    x->h = h;
    x->size = (size_t)size;
    x->threads = (unsigned)threads;
    x->batch = batch;
    x->count = 1;
    st = mem_open(h, &x->a, x->threads, x->size);
    if (st == BHOST_OK && batch)
        st = setup_batch(x, (uint64_t)live);
    if (st == BHOST_OK && x->threads > 1 && (x->pool = bh_pool_create(x->threads, 0)) == NULL)
        st = mem_fail(h, BHOST_E_NOMEM, "cannot start %u threads", x->threads);
    if (st != BHOST_OK) {
        alloc_destroy(x);
        return st;
    }
    *inst = x;
    return BHOST_OK;
}

static bhost_status BHOST_ABI latency_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                             void **inst)
{
    (void)be;
    (void)dev;
    return alloc_create(h, inst, 0);
}

static bhost_status BHOST_ABI throughput_create(bhost_host *h, const bhost_backend *be,
                                                bhost_dev *dev, void **inst)
{
    (void)be;
    (void)dev;
    return alloc_create(h, inst, 1);
}

/* Reports the allocator before any timing. [instance] */
static bhost_status BHOST_ABI alloc_setup(void *inst, bhost_stream *s)
{
    (void)s;
    return mem_report_allocator(((alloc_inst *)inst)->h, &((alloc_inst *)inst)->a);
}

/* The pairs of one task: allocate, store, free, iters times. */
static void latency_task(alloc_inst *x, unsigned t)
{
    size_t n = x->size;

    for (uint64_t i = 0; i < x->iters; i++) {
        unsigned char *p = mem_alloc_get(&x->a, t, n);

        if (p == NULL) {
            x->slot[t].failed = 1;
            return;
        }
        p[0] = (unsigned char)i;
        p[n - 1] = (unsigned char)i;
        bhost_do_not_optimize(p);
        mem_alloc_put(&x->a, t, p, n);
        x->slot[t].done++;
    }
}

/* The batches of one task: count allocations, then count frees. */
static void batch_task(alloc_inst *x, unsigned t)
{
    void **b = x->blocks + (size_t)t * x->count;
    size_t n = x->size;

    for (uint64_t i = 0; i < x->iters; i++) {
        for (size_t j = 0; j < x->count; j++) {
            unsigned char *p = mem_alloc_get(&x->a, t, n);

            if (p == NULL) {
                x->slot[t].failed = 1;
                while (j-- > 0)
                    mem_alloc_put(&x->a, t, b[j], n);
                return;
            }
            p[0] = (unsigned char)j;
            b[j] = p;
        }
        bhost_clobber_memory();
        for (size_t j = 0; j < x->count; j++)
            mem_alloc_put(&x->a, t, b[x->order[j]], n);
        x->slot[t].done += x->count;
    }
}

/* bh_pool task: task index = allocator thread slot. */
static void alloc_task(void *arg, uint32_t task, uint32_t tasks, uint32_t thread)
{
    alloc_inst *x = arg;

    (void)tasks;
    (void)thread;
    if (x->batch)
        batch_task(x, task);
    else
        latency_task(x, task);
}

/* Every thread does `iterations` iterations at once. [instance] */
static bhost_status BHOST_ABI alloc_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    alloc_inst *x = inst;

    (void)s;
    x->iters = iterations;
    x->expected += iterations * x->threads * x->count;
    bh_pool_run(x->pool, x->threads, alloc_task, x);
    for (unsigned t = 0; t < x->threads; t++)
        if (x->slot[t].failed)
            return mem_fail(x->h, BHOST_E_NOMEM, "%s returned NULL for %zu bytes", x->a.lib.name,
                            x->size);
    return BHOST_OK;
}

/* Holds up to 64 blocks live on thread slot t, each written whole, and
 * checks alignment and that none overwrote another. [instance] */
static bhost_status check_blocks(alloc_inst *x, unsigned t)
{
    void *b[VERIFY_BLOCKS];
    uint64_t fit = VERIFY_BYTES / x->size;
    unsigned n = fit < 1 ? 1 : fit > VERIFY_BLOCKS ? VERIFY_BLOCKS : (unsigned)fit, got = 0;
    size_t align = x->size >= 16 ? 16 : 8;
    bhost_status st = BHOST_OK;

    for (; got < n && st == BHOST_OK; got++) {
        b[got] = mem_alloc_get(&x->a, t, x->size);
        if (b[got] == NULL)
            st = mem_fail(x->h, BHOST_E_VERIFY, "verify: %s returned NULL", x->a.lib.name);
        else if ((uintptr_t)b[got] % align != 0)
            st = mem_fail(x->h, BHOST_E_VERIFY, "verify: %s block %p not %zu-byte aligned",
                          x->a.lib.name, b[got], align);
        else
            memset(b[got], (int)(got * 37u + t + 1u) & 0xFF, x->size);
        if (st != BHOST_OK && b[got] == NULL)
            break;
    }
    for (unsigned i = 0; i < got && st == BHOST_OK; i++) {
        const unsigned char *p = b[i];
        unsigned char v = (unsigned char)((i * 37u + t + 1u) & 0xFF);

        for (size_t k = 0; k < x->size && st == BHOST_OK; k++)
            if (p[k] != v)
                st = mem_fail(x->h, BHOST_E_VERIFY,
                              "verify: %s block %u byte %zu overwritten (blocks overlap)",
                              x->a.lib.name, i, k);
    }
    while (got-- > 0)
        if (b[got] != NULL)
            mem_alloc_put(&x->a, t, b[got], x->size);
    return st;
}

/* Every requested pair ran; blocks are aligned and disjoint. [instance] */
static bhost_status BHOST_ABI alloc_verify(void *inst)
{
    alloc_inst *x = inst;
    uint64_t done = 0;
    bhost_status st = BHOST_OK;

    for (unsigned t = 0; t < x->threads; t++)
        done += x->slot[t].done;
    if (done != x->expected)
        return mem_fail(x->h, BHOST_E_VERIFY, "verify: %" PRIu64 " of %" PRIu64 " pairs ran", done,
                        x->expected);
    for (unsigned t = 0; t < x->threads && st == BHOST_OK; t++)
        st = check_blocks(x, t);
    return st;
}

static void BHOST_ABI alloc_destroy(void *inst)
{
    alloc_inst *x = inst;

    bh_pool_destroy(x->pool);
    mem_alloc_fini(&x->a);
    mem_free(x->h, x->blocks);
    mem_free(x->h, x->order);
    mem_free(x->h, x);
}

/* Allocations per iteration over all threads. [instance] */
static double BHOST_ABI alloc_items(void *inst)
{
    const alloc_inst *x = inst;

    return (double)x->threads * (double)x->count;
}

/* No memory stream, on the case's threads. [instance] */
static bhost_status BHOST_ABI alloc_profile(void *inst, bhost_work_profile *out)
{
    return mem_profile_none(out, ((alloc_inst *)inst)->threads);
}

/* The two descriptors differ only in id, summary, parameters and create. */
#define ALLOC_DESC(id_, summary_, params_, create_)                                                \
    {                                                                                              \
        .struct_size = sizeof(bhost_bench_desc), .id = (id_), .summary = (summary_),               \
        .params = (params_), .param_count = BH_PLUGIN_COUNT(params_), .create = (create_),         \
        .setup = alloc_setup, .run = alloc_run, .verify = alloc_verify, .destroy = alloc_destroy,  \
        .items_per_iter = alloc_items, .work_profile = alloc_profile,                              \
    }

const bhost_bench_desc bh_mem_alloc_latency =
    ALLOC_DESC("alloc.latency", "malloc + free of one size back to back, per thread",
               latency_params, latency_create);

const bhost_bench_desc bh_mem_alloc_throughput = ALLOC_DESC(
    "alloc.throughput", "A batch of blocks allocated, then freed in a seeded order, per thread",
    throughput_params, throughput_create);
