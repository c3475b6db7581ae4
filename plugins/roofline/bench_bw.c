// SPDX-License-Identifier: MIT
/*
 * bench_bw.c -- bw: the bandwidth ceiling of one memory level (l1, l2,
 * l3, dram) for one access kind on `threads` threads, each streaming its
 * own slice of the arrays (core/roof_bw.h):
 *
 *   read   the sum of a (the sum is the checked result)
 *   write  a fill of a (every element checked)
 *   triad  a = b + s c (every element checked)
 *
 * The working set comes from the machine's data caches (hwloc) by
 * roof_level_working_set(): half the L1 on these threads, a higher cache
 * level at its low end (1.25 times the level below, where it is fastest), and
 * for dram at least twice the last level and 64 MiB; create()
 * refuses (unsupported) a level this machine cannot place a working set
 * on, checked with the host's own placement rule.
 *
 * Counting: bytes_per_iter is the bytes the program reads and writes,
 * n*8 for read and write, 3*n*8 for triad, for every thread's slice. The
 * write-allocate read that an ordinary store causes on a line not in the
 * cache is not counted: the cases held against these ceilings count their
 * bytes the same way (what the program moves), so the ceiling must be the
 * rate such counting reaches, write-allocate cost included. Stores are
 * ordinary, not non-temporal, for the same reason.
 */
#include "roof.h"

#include "bh_pool.h"
#include "bh_rng.h"
#include "roof_bw.h"
#include "roof_caches.h"
#include "roof_levels.h"

#include <stdio.h>
#include <string.h>

/* The triad's scalar: with small-integer inputs every result is exact. */
#define TRIAD_S 3.0

/* Per-thread read sums sit a cache line apart. */
#define SUM_STRIDE 8

/* Bytes of each thread's verify message. */
#define NOTE_BYTES 200

enum { ACCESS_READ, ACCESS_WRITE, ACCESS_TRIAD };

static const char *const level_names[] = {"l1", "l2", "l3", "dram", NULL};
static const char *const access_names[] = {"read", "write", "triad", NULL};

typedef struct bw_inst {
    bhost_host *h;
    unsigned level; /* 1, 2, 3 or ROOF_DRAM */
    int access;
    unsigned threads;
    unsigned arrays;
    size_t n;    /* doubles per array */
    uint64_t ws; /* bytes of all arrays */
    uint64_t seed;
    const roof_bw_kernels *k;
    bh_pool *pool;
    double *a, *b, *c;
    double *sums; /* threads x SUM_STRIDE */
    char *notes;  /* threads x NOTE_BYTES: what verify found wrong, "" when nothing */
    uint64_t passes;
} bw_inst;

static const bhost_param_desc bw_params[] = {
    BH_PARAM_STR("level", "Memory level: l1, l2, l3 or dram", "l1", level_names),
    BH_PARAM_STR("access", "Access: read (sum), write (fill) or triad (a = b + s c)", "read",
                 access_names),
    BH_ROOF_PARAM_THREADS,
};

/* Element i of input array `which` (1 = b or the read array, 2 = c): a
 * small integer 0..15 from the seed. */
static double input_value(uint64_t seed, unsigned which, size_t i)
{
    return (double)(bh_rng_mix(seed ^ ((uint64_t)which << 56) ^ (uint64_t)i) & 15);
}

static void BHOST_ABI bw_destroy(void *inst);

/* The parameter name of a level (1, 2, 3 or ROOF_DRAM); "l4+" beyond. */
static const char *level_name(unsigned level)
{
    return level == ROOF_DRAM ? "dram" : level <= 3 ? level_names[level - 1] : "l4+";
}

/* The working set for the level on these threads, rounded to whole lines
 * per slice, into b->n and b->ws; BHOST_E_UNSUPPORTED when the machine has
 * no such level or it would not land there. */
static bhost_status choose_working_set(bw_inst *b)
{
    roof_caches caches;
    char why[256];
    uint64_t ws;
    unsigned lands;

    if (roof_caches_read(&caches, why, sizeof(why)) != 0)
        return bh_plugin_fail(b->h, BHOST_E_UNSUPPORTED, "bw: %s", why);
    if (roof_level_working_set(&caches, b->level, b->threads, &ws, why, sizeof(why)) != 0)
        return bh_plugin_fail(b->h, BHOST_E_UNSUPPORTED, "bw: %s", why);
    b->ws = roof_round_working_set(ws, b->arrays, b->threads, &b->n);
    lands = roof_level_of(&caches, b->ws, b->threads);
    if (b->n == 0 || lands != b->level)
        return bh_plugin_fail(b->h, BHOST_E_UNSUPPORTED,
                              "bw: a working set of %llu bytes on %u threads lands on %s, not %s",
                              (unsigned long long)b->ws, b->threads, level_name(lands),
                              level_name(b->level));
    return BHOST_OK;
}

/* Reads level, access and threads, chooses the working set and starts the
 * pool; nothing is left allocated on failure. [instance] */
static bhost_status BHOST_ABI bw_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                        void **inst)
{
    bw_inst *b = bh_roof_alloc(h, sizeof(*b));
    int level = 0;
    bhost_status st;

    (void)be;
    (void)dev;
    if (b == NULL)
        return BHOST_E_NOMEM;
    memset(b, 0, sizeof(*b));
    b->h = h;
    b->seed = bh_roof_api->seed(h);
    st = bh_plugin_choice(h, "bw: ", "level", level_names, &level);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, "bw: ", "access", access_names, &b->access);
    if (st == BHOST_OK)
        st = bh_roof_threads(h, "bw: ", &b->threads);
    if (st == BHOST_OK) {
        b->level = level == 3 ? ROOF_DRAM : (unsigned)level + 1;
        b->arrays = b->access == ACCESS_TRIAD ? 3 : 1;
        b->k = roof_bw_best();
        st = choose_working_set(b);
    }
    if (st == BHOST_OK && (b->pool = bh_pool_create(b->threads, 0)) == NULL)
        st = bh_plugin_fail(h, BHOST_E_NOMEM, "bw: cannot start %u threads", b->threads);
    if (st != BHOST_OK) {
        bw_destroy(b);
        return st;
    }
    *inst = b;
    return BHOST_OK;
}

/* The slice [*begin, *end) of thread t. */
static void slice_of(const bw_inst *b, uint32_t t, size_t *begin, size_t *end)
{
    bh_split(b->n, 8, t, b->threads, begin, end);
}

/* Pool task: fills thread t's slice of the arrays (first touch by the
 * thread that streams it): inputs from the seed, a with -1 so that a run
 * that never stored is caught. */
static void fill_task(void *arg, uint32_t t, uint32_t tasks, uint32_t thread)
{
    bw_inst *b = arg;
    size_t begin, end;

    (void)tasks;
    (void)thread;
    slice_of(b, t, &begin, &end);
    for (size_t i = begin; i < end; i++) {
        b->a[i] = b->access == ACCESS_READ ? input_value(b->seed, 1, i) : -1.0;
        if (b->access == ACCESS_TRIAD) {
            b->b[i] = input_value(b->seed, 1, i);
            b->c[i] = input_value(b->seed, 2, i);
        }
    }
}

/* Allocates and fills the arrays. [instance] */
static bhost_status BHOST_ABI bw_setup(void *inst, bhost_stream *s)
{
    bw_inst *b = inst;
    size_t bytes = b->n * sizeof(double);

    (void)s;
    if (b->a == NULL) {
        b->a = bh_roof_alloc(b->h, bytes);
        b->sums = bh_roof_alloc(b->h, (size_t)b->threads * SUM_STRIDE * sizeof(double));
        b->notes = bh_roof_alloc(b->h, (size_t)b->threads * NOTE_BYTES);
        if (b->access == ACCESS_TRIAD) {
            b->b = bh_roof_alloc(b->h, bytes);
            b->c = bh_roof_alloc(b->h, bytes);
        }
    }
    if (b->a == NULL || b->sums == NULL || b->notes == NULL ||
        (b->access == ACCESS_TRIAD && (!b->b || !b->c)))
        return bh_plugin_fail(b->h, BHOST_E_NOMEM, "bw: cannot allocate %llu bytes",
                              (unsigned long long)b->ws);
    memset(b->sums, 0, (size_t)b->threads * SUM_STRIDE * sizeof(double));
    b->passes = 0;
    bh_pool_run(b->pool, b->threads, fill_task, b);
    return BHOST_OK;
}

/* Pool task: b->passes passes of the kernel over thread t's slice. */
static void stream_task(void *arg, uint32_t t, uint32_t tasks, uint32_t thread)
{
    bw_inst *b = arg;
    size_t begin, end;

    (void)tasks;
    (void)thread;
    slice_of(b, t, &begin, &end);
    switch (b->access) {
    case ACCESS_READ:
        b->sums[t * SUM_STRIDE] = b->k->read(b->a + begin, end - begin, b->passes);
        break;
    case ACCESS_WRITE:
        b->k->write(b->a + begin, end - begin, b->passes);
        break;
    default:
        b->k->triad(b->a + begin, b->b + begin, b->c + begin, TRIAD_S, end - begin, b->passes);
        break;
    }
}

/* iterations passes over every slice, one pool call. [instance] */
static bhost_status BHOST_ABI bw_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    bw_inst *b = inst;

    (void)s;
    b->passes = iterations;
    bh_pool_run(b->pool, b->threads, stream_task, b);
    bhost_clobber_memory();
    return BHOST_OK;
}

/* The first difference of thread t's slice from the reference, as a
 * message into why; 0 when there is none. */
static int check_slice(const bw_inst *b, uint32_t t, char *why, size_t cap)
{
    size_t begin, end;
    uint64_t want_sum = 0;

    slice_of(b, t, &begin, &end);
    for (size_t i = begin; i < end; i++) {
        double want;

        switch (b->access) {
        case ACCESS_READ:
            want_sum += (uint64_t)input_value(b->seed, 1, i);
            continue;
        case ACCESS_WRITE:
            want = (double)b->passes;
            break;
        default:
            want = input_value(b->seed, 1, i) + TRIAD_S * input_value(b->seed, 2, i);
            break;
        }
        if (b->a[i] != want) {
            snprintf(why, cap, "a[%zu] = %.17g, expected %.17g", i, b->a[i], want);
            return -1;
        }
    }
    if (b->access == ACCESS_READ && b->sums[t * SUM_STRIDE] != (double)want_sum) {
        snprintf(why, cap, "thread %u's sum is %.17g, expected %llu", (unsigned)t,
                 b->sums[t * SUM_STRIDE], (unsigned long long)want_sum);
        return -1;
    }
    return 0;
}

/* Pool task: thread t's slice checked, the finding into its note. */
static void check_task(void *arg, uint32_t t, uint32_t tasks, uint32_t thread)
{
    bw_inst *b = arg;
    char *note = b->notes + (size_t)t * NOTE_BYTES;

    (void)tasks;
    (void)thread;
    note[0] = 0;
    check_slice(b, t, note, NOTE_BYTES);
}

/* Checks every element (or every thread's sum) against values recomputed
 * from the seed, each thread its slice, then reports the working set and
 * threads. [instance] */
static bhost_status BHOST_ABI bw_verify(void *inst)
{
    bw_inst *b = inst;

    if (b->a == NULL || b->passes == 0)
        return bh_plugin_fail(b->h, BHOST_E_VERIFY, "bw: verify before a run");
    bh_pool_run(b->pool, b->threads, check_task, b);
    for (uint32_t t = 0; t < b->threads; t++)
        if (b->notes[(size_t)t * NOTE_BYTES] != 0)
            return bh_plugin_fail(b->h, BHOST_E_VERIFY, "bw %s %s (%s): %s", level_name(b->level),
                                  access_names[b->access], b->k->isa,
                                  b->notes + (size_t)t * NOTE_BYTES);
    bh_plugin_metric_info(b->h, "working_set_bytes", "B", (double)b->ws);
    bh_plugin_metric_info(b->h, "threads", "", b->threads);
    return BHOST_OK;
}

/* Joins the pool and frees the arrays. [instance] */
static void BHOST_ABI bw_destroy(void *inst)
{
    bw_inst *b = inst;

    bh_pool_destroy(b->pool);
    bh_roof_free(b->h, b->a);
    bh_roof_free(b->h, b->b);
    bh_roof_free(b->h, b->c);
    bh_roof_free(b->h, b->sums);
    bh_roof_free(b->h, b->notes);
    bh_roof_free(b->h, b);
}

/* Bytes the program moves per pass over all slices. [instance] */
static double BHOST_ABI bw_bytes(void *inst)
{
    const bw_inst *b = inst;

    return (double)b->ws;
}

/* The access kind, no arithmetic class, the threads and all arrays'
 * bytes. [instance] */
static bhost_status BHOST_ABI bw_profile(void *inst, bhost_work_profile *out)
{
    const bw_inst *b = inst;
    bhost_access access = b->access == ACCESS_READ    ? BHOST_ACCESS_READ
                          : b->access == ACCESS_WRITE ? BHOST_ACCESS_WRITE
                                                      : BHOST_ACCESS_READ_WRITE;

    return bh_plugin_profile(out, access, BHOST_COMPUTE_NONE, b->threads, (double)b->ws);
}

const bhost_bench_desc bh_roof_bw = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_CEILING,
    .id = "bw",
    .summary = "Bandwidth ceiling: read, write or triad of f64 at an L1, L2, L3 or DRAM "
               "working set (hwloc cache sizes) on each thread's own slice",
    .params = bw_params,
    .param_count = BH_PLUGIN_COUNT(bw_params),
    .create = bw_create,
    .setup = bw_setup,
    .run = bw_run,
    .verify = bw_verify,
    .destroy = bw_destroy,
    .bytes_per_iter = bw_bytes,
    .work_profile = bw_profile,
};
