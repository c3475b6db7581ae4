// SPDX-License-Identifier: MIT
/*
 * bench_scenario.c -- load scenarios after MLPerf LoadGen, driving the
 * engine with continuous batching (up to `batch` sequences decode
 * together; a query is prefilled as soon as it is issued and a slot is
 * free, then joins the next decode step):
 *   single_stream  queries issued one at a time, the next when the
 *                  previous completes; constraint percentile 90
 *   server         queries arrive as a Poisson process at `qps` (seeded
 *                  from the run's seed); percentile 99
 *   offline        all queries issued at once; throughput; percentile 99
 * Each query is a `prompt`-token prompt and `gen` greedy output tokens.
 *
 * Timing: host-timed (no BHOST_BENCH_MANUAL_TIMING): one iteration is one
 * complete pass of `queries` queries, so the host's time per iteration is
 * the pass's makespan and items_per_iter (queries x gen tokens) gives
 * tokens/s. Latencies are measured per query from its issue time with the
 * host clock and reported as metrics: TTFT, TPOT, request latency (e2e)
 * and per-token gaps at p50/p90/p95/p99, the constrained percentile, and
 * constraint_met (1 when that percentile of the `constraint` metric is
 * <= latency_ms, or when latency_ms is 0: no constraint).
 *
 * Counting: items only (a pass's forward calls depend on the arrivals, so
 * no fixed bytes or FLOPs per iteration). Work profile: a read stream
 * over one pass's weights (ie_model_step_bytes, read again by every
 * forward call), their type's compute class, the engine's threads.
 *
 * verify(): the last forward call's first row (logits of the sequence it
 * belongs to) against the double-precision reference (ie_ref_check).
 */
#include "ip.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

enum { SC_SINGLE, SC_SERVER, SC_OFFLINE };
enum { C_E2E, C_TTFT, C_TPOT };

static const char *const scenarios[] = {"single_stream", "server", "offline",
                                        NULL};
static const char *const constraints[] = {"e2e", "ttft", "tpot", NULL};

typedef struct query {
    uint64_t arrival, first, done, last;
    int slot, gen;
    int32_t next;
} query;

typedef struct scenario {
    ip_base b;
    int kind, queries, prompt, gen, cons;
    double qps, latency_ms, pct;
    int32_t *tok;     /* [queries, prompt] */
    uint64_t *arr;    /* Poisson schedule */
    query *q;
    int *slot_q;      /* slot -> query, -1 free */
    int *act, *last_slots;
    int32_t *act_tok;
    int last_n;
    double *ttft, *e2e, *tpot; /* [queries] of the last pass */
    ip_lat gaps;
} scenario;

static const bhost_param_desc scenario_params[] = {
    IP_COMMON_PARAMS("gpt2"),
    IP_PARAM_STR("scenario", "single_stream, server or offline", "server",
                 scenarios),
    IP_PARAM(BHOST_PARAM_I64, "queries", "Queries per pass", "4", 1, 100000),
    IP_PARAM(BHOST_PARAM_I64, "prompt", "Prompt tokens per query", "16", 1,
             65536),
    IP_PARAM(BHOST_PARAM_I64, "gen", "Generated tokens per query", "4", 1,
             65536),
    IP_PARAM(BHOST_PARAM_F64, "qps", "server: target queries per second",
             "8", 1e-3, 1e6),
    IP_PARAM(BHOST_PARAM_F64, "latency_ms",
             "Latency bound at the scenario's percentile; 0 = none", "0", 0,
             1e9),
    IP_PARAM_STR("constraint", "Which latency the bound applies to", "e2e",
                 constraints),
};

/* Index of s in a NULL-terminated list, or 0. */
static int pick(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return i;
    return 0;
}

/* Reads parameters. [instance] */
static bhost_status BHOST_ABI sc_create(bhost_host *h, const bhost_backend *be,
                                        bhost_dev *dev, void **inst)
{
    scenario *c = bh_inf_api->alloc(h, sizeof(*c), 64);
    int64_t queries = 0, prompt = 0, gen = 0;
    char kind[24], cons[8];
    bhost_status st;

    if (c == NULL)
        return BHOST_E_NOMEM;
    memset(c, 0, sizeof(*c));
    st = bh_inf_base_create(&c->b, "scenario", h, be, dev);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, IP_PREFIX, "scenario", kind, sizeof(kind));
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "queries", 1, 100000, &queries);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "prompt", 1, 65536, &prompt);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, IP_PREFIX, "gen", 1, 65536, &gen);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, IP_PREFIX, "qps", 1e-3, 1e6, &c->qps);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, IP_PREFIX, "latency_ms", 0, 1e9, &c->latency_ms);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, IP_PREFIX, "constraint", cons, sizeof(cons));
    if (st == BHOST_OK && c->b.cfg.arch == IE_ARCH_BERT)
        st = bh_plugin_fail(h, BHOST_E_SKIP, "scenario: %s is an encoder",
                            c->b.cfg.name);
    if (st != BHOST_OK) {
        bh_inf_api->free(h, c);
        return st;
    }
    c->kind = pick(scenarios, kind);
    c->cons = pick(constraints, cons);
    c->queries = (int)queries;
    c->prompt = (int)prompt;
    c->gen = (int)gen;
    c->pct = c->kind == SC_SINGLE ? 90.0 : 99.0;
    if (c->kind == SC_SINGLE)
        c->b.batch = 1;
    *inst = c;
    return BHOST_OK;
}

/* Model, state, prompts, the arrival schedule. [instance] */
static bhost_status BHOST_ABI sc_setup(void *inst, bhost_stream *s)
{
    scenario *c = inst;
    ip_base *b = &c->b;
    int B = b->batch, n = c->queries;
    bhost_status st = bh_inf_base_setup(b, s, B, c->prompt + c->gen,
                                        c->prompt > B ? c->prompt : B);

    if (st != BHOST_OK)
        return st;
    if (c->tok == NULL) {
        c->tok = bh_inf_alloc(b, (size_t)n * (size_t)c->prompt * 4u);
        c->arr = bh_inf_alloc(b, (size_t)n * sizeof(uint64_t));
        c->q = bh_inf_alloc(b, (size_t)n * sizeof(query));
        c->slot_q = bh_inf_alloc(b, (size_t)B * sizeof(int));
        c->act = bh_inf_alloc(b, (size_t)B * sizeof(int));
        c->last_slots = bh_inf_alloc(b, (size_t)B * sizeof(int));
        c->act_tok = bh_inf_alloc(b, (size_t)B * sizeof(int32_t));
        c->ttft = bh_inf_alloc(b, (size_t)n * sizeof(double));
        c->e2e = bh_inf_alloc(b, (size_t)n * sizeof(double));
        c->tpot = bh_inf_alloc(b, (size_t)n * sizeof(double));
        if (!c->tok || !c->arr || !c->q || !c->slot_q || !c->act ||
            !c->last_slots || !c->act_tok || !c->ttft || !c->e2e || !c->tpot ||
            bh_inf_lat_init(b, &c->gaps))
            return bh_plugin_fail(b->h, BHOST_E_NOMEM, "scenario: out of memory");
    }
    for (int i = 0; i < n; i++)
        bh_inf_tokens(b, (uint64_t)i, c->tok + (size_t)i * c->prompt, c->prompt);
    ie_poisson_arrivals(b->seed, c->qps, n, c->arr);
    return BHOST_OK;
}

/* Sleeps until t0 + at (host clock). */
static void sleep_until(const ip_base *b, uint64_t t0, uint64_t at)
{
    uint64_t now = bh_inf_now(b) - t0;

    if (at > now) {
        struct timespec ts = {(time_t)((at - now) / 1000000000u),
                              (long)((at - now) % 1000000000u)};

        nanosleep(&ts, NULL);
    }
}

/* Records a finished query. */
static void finish(scenario *c, query *q, uint64_t now)
{
    q->done = now;
    c->slot_q[q->slot] = -1;
}

/* Issue time of query i, or UINT64_MAX when it is not issued yet. */
static uint64_t issue_time(const scenario *c, int i)
{
    if (c->kind == SC_OFFLINE)
        return 0;
    if (c->kind == SC_SERVER)
        return c->arr[i];
    if (i == 0)
        return 0;
    return c->q[i - 1].gen == c->gen ? c->q[i - 1].done : UINT64_MAX;
}

/* Prefills query i into a free slot and samples its first token. */
static bhost_status admit(scenario *c, int i, uint64_t t0)
{
    ip_base *b = &c->b;
    query *q = &c->q[i];
    int slot = 0, rc;

    while (c->slot_q[slot] >= 0)
        slot++;
    q->slot = slot;
    c->slot_q[slot] = i;
    ie_state_truncate(b->s, slot, 0);
    rc = ie_forward(b->s, &slot, 1, c->tok + (size_t)i * c->prompt, c->prompt);
    if (rc != IE_OK)
        return bh_inf_engine_fail(b, rc, "prefill");
    c->last_slots[0] = slot;
    c->last_n = 1;
    q->next = bh_inf_argmax(b, 0);
    q->first = q->last = bh_inf_now(b) - t0;
    q->gen = 1;
    if (q->gen == c->gen)
        finish(c, q, q->first);
    return BHOST_OK;
}

/* One decode step of every active query. */
static bhost_status step(scenario *c, int n, uint64_t t0)
{
    ip_base *b = &c->b;
    uint64_t now;
    int rc;

    for (int k = 0; k < n; k++)
        c->act_tok[k] = c->q[c->slot_q[c->act[k]]].next;
    rc = ie_forward(b->s, c->act, n, c->act_tok, 1);
    if (rc != IE_OK)
        return bh_inf_engine_fail(b, rc, "decode");
    now = bh_inf_now(b) - t0;
    memcpy(c->last_slots, c->act, (size_t)n * sizeof(int));
    c->last_n = n;
    for (int k = 0; k < n; k++) {
        query *q = &c->q[c->slot_q[c->act[k]]];

        q->next = bh_inf_argmax(b, k);
        bh_inf_lat_add(&c->gaps, (double)(now - q->last) / 1e6);
        q->last = now;
        if (++q->gen == c->gen)
            finish(c, q, now);
    }
    return BHOST_OK;
}

/* One pass over every query; *makespan in ns. */
static bhost_status pass(scenario *c, uint64_t *makespan)
{
    ip_base *b = &c->b;
    uint64_t t0 = bh_inf_now(b);
    int n = c->queries, next = 0, done = 0;
    bhost_status st = BHOST_OK;

    memset(c->q, 0, (size_t)n * sizeof(query));
    for (int i = 0; i < b->batch; i++)
        c->slot_q[i] = -1;
    while (st == BHOST_OK && done < n) {
        int free_slots = 0, active = 0;

        for (int i = 0; i < b->batch; i++)
            free_slots += c->slot_q[i] < 0;
        while (st == BHOST_OK && next < n && free_slots > 0 &&
               issue_time(c, next) <= bh_inf_now(b) - t0) {
            c->q[next].arrival = issue_time(c, next);
            st = admit(c, next++, t0);
            free_slots--;
        }
        for (int i = 0; i < b->batch; i++)
            if (c->slot_q[i] >= 0)
                c->act[active++] = i;
        if (st == BHOST_OK && active > 0)
            st = step(c, active, t0);
        else if (st == BHOST_OK && active == 0 && next < n)
            sleep_until(b, t0, issue_time(c, next));
        done = 0;
        for (int i = 0; i < next; i++)
            done += c->q[i].gen == c->gen;
    }
    *makespan = bh_inf_now(b) - t0;
    for (int i = 0; st == BHOST_OK && i < n; i++) {
        const query *q = &c->q[i];

        c->ttft[i] = (double)(q->first - q->arrival) / 1e6;
        c->e2e[i] = (double)(q->done - q->arrival) / 1e6;
        c->tpot[i] = c->gen > 1 ? (double)(q->done - q->first) / 1e6 / (c->gen - 1)
                                : 0.0;
    }
    return st;
}

/* p50/p90/p95/p99 of v[0..n) as <name>_pXX_ms; returns the pct one. */
static double report_pcts(scenario *c, double *v, const char *name)
{
    static const double qs[] = {50, 90, 95, 99};
    char key[64];
    double at;

    for (int i = 0; i < 4; i++) {
        snprintf(key, sizeof(key), "%s_p%d_ms", name, (int)qs[i]);
        bh_inf_metric(&c->b, key, "ms", 0, ie_percentile(v, c->queries, qs[i]));
    }
    at = ie_percentile(v, c->queries, c->pct);
    return at;
}

/* iterations passes. [instance] */
static bhost_status BHOST_ABI sc_run(void *inst, bhost_stream *s,
                                     uint64_t iterations)
{
    scenario *c = inst;
    ip_base *b = &c->b;
    uint64_t span = 0, total = 0;
    double at[3];

    b->ctx.stream = s;
    for (uint64_t it = 0; it < iterations; it++) {
        bhost_status st = pass(c, &span);

        if (st != BHOST_OK)
            return st;
        total += span;
    }
    at[C_E2E] = report_pcts(c, c->e2e, "e2e");
    at[C_TTFT] = report_pcts(c, c->ttft, "ttft");
    at[C_TPOT] = report_pcts(c, c->tpot, "tpot");
    bh_inf_lat_report(b, &c->gaps, "token_latency");
    bh_inf_metric(b, "achieved_qps", "1/s", 1,
                  (double)c->queries / ((double)span / 1e9));
    bh_inf_metric(b, "tokens_per_s", "1/s", 1,
                  (double)c->queries * c->gen / ((double)span / 1e9));
    if (c->kind == SC_SERVER)
        bh_inf_info(b, "target_qps", "1/s", c->qps);
    bh_inf_info(b, "constraint_percentile", "", c->pct);
    bh_inf_info(b, "constraint_ms", "ms", c->latency_ms);
    bh_inf_metric(b, "constraint_value_ms", "ms", 0, at[c->cons]);
    bh_inf_info(b, "constraint_met", "",
                c->latency_ms <= 0 || at[c->cons] <= c->latency_ms ? 1 : 0);
    bh_inf_info(b, "model_bytes", "B", (double)ie_model_bytes(b->m));
    bh_inf_info(b, "kv_cache_bytes", "B", (double)ie_state_kv_bytes(b->s));
    (void)total;
    return BHOST_OK;
}

/* The last forward call's first row against the reference. [instance] */
static bhost_status BHOST_ABI sc_verify(void *inst)
{
    scenario *c = inst;
    int slot = c->last_slots ? c->last_slots[0] : 0;

    if (c->b.s == NULL || c->last_n == 0)
        return bh_plugin_fail(c->b.h, BHOST_E_VERIFY, "scenario: nothing ran");
    return bh_inf_verify_position(&c->b, slot, ie_state_len(c->b.s, slot) - 1,
                                  ie_logits(c->b.s, 0), 1e-3);
}

/* Frees everything the instance holds. [instance] */
static void BHOST_ABI sc_destroy(void *inst)
{
    scenario *c = inst;
    ip_base *b = &c->b;
    bhost_host *h = b->h;
    void *ps[] = {c->tok,  c->arr, c->q,    c->slot_q, c->act,
                  c->last_slots, c->act_tok, c->ttft, c->e2e, c->tpot};

    for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
        bh_inf_free(b, ps[i]);
    bh_inf_lat_free(b, &c->gaps);
    bh_inf_base_destroy(b);
    bh_inf_api->free(h, c);
}

/* See the counting note at the top. [instance] */
static bhost_status BHOST_ABI sc_profile(void *inst, bhost_work_profile *out)
{
    const scenario *c = inst;

    bh_inf_work_profile(&c->b, BHOST_ACCESS_READ, (double)ie_model_step_bytes(c->b.m), out);
    return BHOST_OK;
}

/* Generated tokens per pass. [instance] */
static double BHOST_ABI sc_items(void *inst)
{
    scenario *c = inst;

    return (double)c->queries * c->gen;
}

const bhost_bench_desc bh_inf_scenario = {
    sizeof(bhost_bench_desc),
    BHOST_BENCH_NEEDS_DEVICE,
    "scenario",
    "LoadGen-style single_stream / server (Poisson) / offline passes with "
    "continuous batching; latency percentiles and constraint_met",
    scenario_params,
    sizeof(scenario_params) / sizeof(scenario_params[0]),
    0,
    BHOST_CAP_KERNEL_GEMM,
    sc_create,
    sc_setup,
    sc_run,
    sc_verify,
    sc_destroy,
    NULL,
    NULL,
    sc_items,
    sc_profile,
};
