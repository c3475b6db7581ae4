// SPDX-License-Identifier: MIT
/*
 * bench_frag.c -- frag.replay: a tensor-allocation trace (mem_trace.h:
 * the gpt2 decode step or the optimizer step) replayed through the
 * allocator under test on one thread.
 *
 * setup() generates the trace, checks it, and replays it once measured
 * (untimed, the first replay in this fresh worker process): every block
 * written whole and checked whole at its free, the resident set sampled
 * after every allocation. The fragmentation ratio is the growth of the
 * resident set over the replay's start (peak RSS - RSS before) over the
 * trace's peak live bytes: 1 is no overhead; pages an allocator keeps
 * after a free, slack in its size classes and the holes between live
 * blocks raise it. With glibc the start already holds the host's own heap,
 * which the trace's blocks may reuse. Then run(N) replays the trace N
 * times (blocks written whole, checked at three bytes at their free), and
 * verify() replays it once more checked whole. Counting: items = the
 * trace's allocations, bytes = the bytes they write (each block once), so
 * the work profile is a write stream over the peak live bytes. The pool
 * serves one size, so it is skipped here (the arena is the plugin's own
 * entry).
 */
#include "mem.h"
#include "mem_replay.h"

#include <inttypes.h>
#include <string.h>

typedef struct frag_inst {
    bhost_host *h;
    mem_alloc a;
    mem_trace trace;
    mem_replay replay;
    uint64_t bytes; /* bytes allocated per replay */
    uint64_t runs;  /* replays timed */
    uint64_t seed;
    double ratio; /* peak RSS growth / peak live bytes */
    uint64_t rss_growth;
    int measured; /* the measured replay ran */
    int reserved;
} frag_inst;

static const char *const traces[] = {"decode", "optimizer", NULL};

static const bhost_param_desc frag_params[] = {
    MEM_PARAM_ALLOCATOR,
    MEM_PARAM_LIBRARY,
    BH_PARAM_STR("trace", "decode (gpt2 decode steps) or optimizer (Adam steps)", "decode", traces),
    BH_PARAM_STR("model", "Inference preset (decode) or optimizer layout (optimizer)", "gpt2",
                 NULL),
    BH_PARAM_I64("context", "decode: tokens cached before the first step", "128", 1, 1 << 20),
    BH_PARAM_I64("steps", "Decode steps, or optimizer steps", "4", 1, 1000),
    BH_PARAM_I64("scale", "optimizer: every tensor's elements divided by this", "16", 1, 1 << 20),
};

static void BHOST_ABI frag_destroy(void *inst);

/* Generates the trace the parameters name into x->trace. [instance] */
static bhost_status make_trace(frag_inst *x)
{
    char model[64], err[256];
    int which = 0, rc;
    int64_t context = 0, steps = 0, scale = 0;
    bhost_status st = bh_plugin_choice(x->h, MEM_PREFIX, "trace", traces, &which);

    if (st == BHOST_OK)
        st = bh_plugin_str(x->h, MEM_PREFIX, "model", model, sizeof(model));
    if (st == BHOST_OK)
        st = bh_plugin_i64(x->h, MEM_PREFIX, "context", 1, 1 << 20, &context);
    if (st == BHOST_OK)
        st = bh_plugin_i64(x->h, MEM_PREFIX, "steps", 1, 1000, &steps);
    if (st == BHOST_OK)
        st = bh_plugin_i64(x->h, MEM_PREFIX, "scale", 1, 1 << 20, &scale);
    if (st != BHOST_OK)
        return st;
    rc = which == 0
             ? mem_trace_decode(&x->trace, model, (int)context, (int)steps, err, sizeof(err))
             : mem_trace_optimizer(&x->trace, model, (int)steps, (int)scale, err, sizeof(err));
    if (rc != 0)
        return mem_fail(x->h, BHOST_E_INVALID, "%s trace: %s", traces[which], err);
    for (size_t i = 0; i < x->trace.count; i++)
        if (x->trace.ev[i].op == MEM_EV_ALLOC)
            x->bytes += x->trace.ev[i].bytes;
    return BHOST_OK;
}

/* Reads the parameters, opens the allocator, generates the trace.
 * BHOST_E_SKIP for the pool. [instance] */
static bhost_status BHOST_ABI frag_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **inst)
{
    frag_inst *x = mem_zalloc(h, sizeof(*x));
    bhost_status st;

    (void)be;
    (void)dev;
    if (x == NULL)
        return BHOST_E_NOMEM;
    x->h = h;
    x->seed = bh_mem_api->seed(h);
    st = mem_open(h, &x->a, 1, 16);
    if (st == BHOST_OK && x->a.lib.kind == MEM_LIB_POOL)
        st = mem_fail(h, BHOST_E_SKIP, "the pool serves one size; a trace has many (use arena)");
    if (st == BHOST_OK)
        st = make_trace(x);
    if (st == BHOST_OK && mem_replay_init(&x->replay, &x->trace) != 0)
        st = mem_fail(h, BHOST_E_NOMEM, "cannot hold the replay's %u slots", x->trace.slots);
    if (st != BHOST_OK) {
        frag_destroy(x);
        return st;
    }
    *inst = x;
    return BHOST_OK;
}

/* The failure line of a replay that returned rc. [instance] */
static bhost_status replay_fail(frag_inst *x, int rc, const char *when)
{
    const mem_event *e = &x->trace.ev[x->replay.bad_event];

    if (rc == -1)
        return mem_fail(x->h, BHOST_E_NOMEM, "%s: %s returned NULL for %" PRIu64 " bytes", when,
                        x->a.lib.name, e->bytes);
    return mem_fail(x->h, BHOST_E_VERIFY,
                    "%s: the %" PRIu64 "-byte block freed at event %zu did not hold its bytes",
                    when, e->bytes, x->replay.bad_event);
}

/* The measured, checked first replay; reports the fragmentation figures
 * and the allocator. [instance] */
static bhost_status BHOST_ABI frag_setup(void *inst, bhost_stream *s)
{
    frag_inst *x = inst;
    int rc;

    (void)s;
    if (!x->measured) {
        rc = mem_replay_run(&x->replay, &x->a, MEM_REPLAY_MEASURED, x->seed);
        if (rc != 0)
            return replay_fail(x, rc, "measured replay");
        if (x->replay.rss_start == 0)
            return mem_fail(x->h, BHOST_E_UNSUPPORTED, "cannot read /proc/self/statm");
        x->rss_growth = x->replay.rss_peak - x->replay.rss_start;
        x->ratio = (double)x->rss_growth / (double)x->trace.peak_live;
        x->measured = 1;
    }
    return mem_report_allocator(x->h, &x->a);
}

/* iterations replays, blocks written whole. [instance] */
static bhost_status BHOST_ABI frag_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    frag_inst *x = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        int rc = mem_replay_run(&x->replay, &x->a, MEM_REPLAY_TIMED, x->seed + x->runs + i);

        if (rc != 0)
            return replay_fail(x, rc, "replay");
    }
    x->runs += iterations;
    return BHOST_OK;
}

/* One more replay, every block checked whole; the figures. [instance] */
static bhost_status BHOST_ABI frag_verify(void *inst)
{
    frag_inst *x = inst;
    int rc = mem_replay_run(&x->replay, &x->a, MEM_REPLAY_CHECKED, x->seed ^ 0x5bd1e995u);
    bhost_status st;

    if (rc != 0)
        return replay_fail(x, rc, "verify");
    st = bh_plugin_metric(x->h, "frag.ratio", "", BHOST_LOWER_IS_BETTER, x->ratio);
    if (st == BHOST_OK)
        st = bh_plugin_metric_info(x->h, "frag.peak_rss_growth", "B", (double)x->rss_growth);
    if (st == BHOST_OK)
        st = bh_plugin_metric_info(x->h, "frag.peak_live", "B", (double)x->trace.peak_live);
    if (st == BHOST_OK)
        st = bh_plugin_metric_info(x->h, "trace.allocs", "", (double)x->trace.allocs);
    if (st == BHOST_OK)
        st = bh_plugin_metric_info(x->h, "verify.bytes_checked", "B",
                                   (double)x->replay.bytes_checked);
    return st;
}

static void BHOST_ABI frag_destroy(void *inst)
{
    frag_inst *x = inst;

    mem_replay_fini(&x->replay);
    mem_trace_free(&x->trace);
    mem_alloc_fini(&x->a);
    mem_free(x->h, x);
}

/* Allocations per replay. [instance] */
static double BHOST_ABI frag_items(void *inst)
{
    return (double)((const frag_inst *)inst)->trace.allocs;
}

/* Bytes written per replay (every block once). [instance] */
static double BHOST_ABI frag_bytes(void *inst)
{
    return (double)((const frag_inst *)inst)->bytes;
}

/* A write stream over the trace's peak live bytes, one thread.
 * [instance] */
static bhost_status BHOST_ABI frag_profile(void *inst, bhost_work_profile *out)
{
    return bh_plugin_profile(out, BHOST_ACCESS_WRITE, BHOST_COMPUTE_NONE, 1,
                             (double)((const frag_inst *)inst)->trace.peak_live);
}

const bhost_bench_desc bh_mem_frag = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "frag.replay",
    .summary = "Tensor-allocation trace replayed: peak RSS over peak live bytes, time per replay",
    .params = frag_params,
    .param_count = BH_PLUGIN_COUNT(frag_params),
    .create = frag_create,
    .setup = frag_setup,
    .run = frag_run,
    .verify = frag_verify,
    .destroy = frag_destroy,
    .bytes_per_iter = frag_bytes,
    .items_per_iter = frag_items,
    .work_profile = frag_profile,
};
