// SPDX-License-Identifier: MIT
/* Building the result document of a run from its executed plan
 * (result_build.h): the run pipeline's half of the document; writing and
 * reading it are host/results'. */
#define _GNU_SOURCE
#include "result_build.h"
#include "ratio_build.h"
#include "scaling_build.h"
#include "result_env.h"
#include "result_summary.h"

#include "leak_check.h"
#include "roofline.h"
#include "runs_auto_limits.h"
#include "variant_speedup.h"

#include "bh_mem.h"
#include "expect.h"
#include "ipc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BHOST_VERSION
#define BHOST_VERSION "0.0.0"
#endif

static cJSON *run_json(const bh_run *r)
{
    cJSON *o = cJSON_CreateObject();
    const cJSON *res = r->result;
    static const char *const copy_keys[] = {
        "timing", "iters_per_sample", "warmup_samples", "timer_resolution_ns",
        "timer_overhead_ns", "budget_exhausted", "peak_rss_kb", "alloc",
        "metrics", "flops_per_iter", "bytes_per_iter", "items_per_iter", "work_profile",
        "counters", "energy", "ranks"};

    cJSON_AddNumberToObject(o, "index", r->index);
    cJSON_AddStringToObject(o, "status", bh_status_name(r->status));
    if (r->message)
        cJSON_AddStringToObject(o, "message", r->message);
    if (r->warning)
        cJSON_AddStringToObject(o, "warning", r->warning);
    cJSON_AddItemToObject(o, "samples",
                          r->samples ? cJSON_Duplicate(r->samples, 1)
                                     : cJSON_CreateArray());
    for (unsigned i = 0; i < sizeof(copy_keys) / sizeof(*copy_keys); i++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(res, copy_keys[i]);
        if (it)
            cJSON_AddItemToObject(o, copy_keys[i], cJSON_Duplicate(it, 1));
    }
    cJSON_AddNumberToObject(o, "wall_ns", (double)r->wall_ns);
    cJSON_AddNumberToObject(o, "worker_maxrss_kb", (double)r->maxrss_kb);
    bh_result_run_env(o, r);
    if (r->log && *r->log)
        cJSON_AddStringToObject(o, "log", r->log);
    if (r->log_truncated)
        cJSON_AddBoolToObject(o, "log_truncated", 1);
    return o;
}

/* The first ok run's result message, or NULL. */
static const cJSON *first_ok(const bh_case *c)
{
    for (uint32_t r = 0; r < c->n_runs; r++)
        if (c->runs[r].status == BH_ST_OK && c->runs[r].result)
            return c->runs[r].result;
    return NULL;
}

/* The work profile and the ceiling flag of the first ok run (the same in
 * every run of a case: they come from its parameters). */
static void add_profile(cJSON *o, const bh_case *c)
{
    const cJSON *res = first_ok(c);
    const cJSON *p = res ? cJSON_GetObjectItemCaseSensitive(res, "work_profile") : NULL;

    if (cJSON_IsObject(p))
        cJSON_AddItemToObject(o, "work_profile", cJSON_Duplicate(p, 1));
    if (res && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "ceiling")))
        cJSON_AddTrueToObject(o, "ceiling");
}

/* The first ok run's value of a work-per-iteration key, or NaN. */
static double per_iter(const bh_case *c, const char *key)
{
    for (uint32_t r = 0; r < c->n_runs; r++)
        if (c->runs[r].status == BH_ST_OK && c->runs[r].result)
            return bh_json_num(c->runs[r].result, key, NAN);
    return NAN;
}

/* Throughput from the median time per iteration. */
static void add_throughput(cJSON *o, const bh_case *c)
{
    cJSON *t = cJSON_AddObjectToObject(o, "throughput");
    double sec = c->summary.median * 1e-9;
    double flops = per_iter(c, "flops_per_iter");
    double bytes = per_iter(c, "bytes_per_iter");
    double items = per_iter(c, "items_per_iter");

    if (!(sec > 0))
        return;
    if (isfinite(flops) && flops > 0)
        cJSON_AddNumberToObject(t, "flop_per_s", flops / sec);
    if (isfinite(bytes) && bytes > 0)
        cJSON_AddNumberToObject(t, "bytes_per_s", bytes / sec);
    if (isfinite(items) && items > 0)
        cJSON_AddNumberToObject(t, "items_per_s", items / sec);
}

/* Memory over all runs: the largest peaks and allocation totals. */
static void add_memory(cJSON *o, const bh_case *c)
{
    double rss = 0, count = 0, bytes = 0, peak = 0, leaked = 0, leaks = 0;
    cJSON *m;

    for (uint32_t r = 0; r < c->n_runs; r++) {
        const cJSON *res = c->runs[r].result;
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(res, "alloc");
        double lb, lc;

        rss = fmax(rss, bh_json_num(res, "peak_rss_kb", 0));
        count = fmax(count, bh_json_num(a, "count", 0));
        bytes = fmax(bytes, bh_json_num(a, "bytes", 0));
        peak = fmax(peak, bh_json_num(a, "peak_bytes", 0));
        bh_leak_of(&c->runs[r], &lb, &lc);
        leaked = fmax(leaked, lb);
        leaks = fmax(leaks, lc);
    }
    m = cJSON_AddObjectToObject(o, "memory");
    cJSON_AddNumberToObject(m, "peak_rss_kb", rss);
    cJSON_AddNumberToObject(m, "alloc_count", count);
    cJSON_AddNumberToObject(m, "alloc_bytes", bytes);
    cJSON_AddNumberToObject(m, "alloc_peak_bytes", peak);
    /* what destroy left behind, in the run that left the most */
    cJSON_AddNumberToObject(m, "leaked_bytes", leaked);
    cJSON_AddNumberToObject(m, "leaked_count", leaks);
}

/* Extra metrics reported by the plugin: per name, the values of each ok
 * run and their median. */
static void add_metrics(cJSON *o, const bh_case *c)
{
    cJSON *out = cJSON_AddObjectToObject(o, "metrics");

    for (uint32_t r = 0; r < c->n_runs; r++) {
        const cJSON *m;

        if (c->runs[r].status != BH_ST_OK)
            continue;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(
                                  c->runs[r].result, "metrics")) {
            const char *name = bh_json_str(m, "name", "");
            cJSON *slot = cJSON_GetObjectItemCaseSensitive(out, name);

            if (!slot) {
                slot = cJSON_AddObjectToObject(out, name);
                cJSON_AddStringToObject(slot, "unit",
                                        bh_json_str(m, "unit", ""));
                cJSON_AddStringToObject(slot, "direction",
                                        bh_json_str(m, "direction", "lower"));
                if (bh_json_str(m, "kind", NULL))
                    cJSON_AddStringToObject(slot, "kind", bh_json_str(m, "kind", ""));
                if (isfinite(bh_json_num(m, "limit", NAN)))
                    cJSON_AddNumberToObject(slot, "limit", bh_json_num(m, "limit", 0));
                cJSON_AddArrayToObject(slot, "values");
            }
            cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(slot,
                                                                  "values"),
                                 cJSON_CreateNumber(bh_json_num(m, "value",
                                                                0)));
        }
    }
}

/* The counters and energy records (run_meters.h) of the first ok run, or
 * of the first run that has them. */
static void add_meters(cJSON *o, const bh_case *c)
{
    static const char *const keys[] = {"counters", "energy"};

    for (unsigned k = 0; k < 2; k++) {
        const cJSON *it = NULL;

        for (uint32_t r = 0; r < c->n_runs && !it; r++)
            if (c->runs[r].status == BH_ST_OK)
                it = cJSON_GetObjectItemCaseSensitive(c->runs[r].result, keys[k]);
        for (uint32_t r = 0; r < c->n_runs && !it; r++)
            it = cJSON_GetObjectItemCaseSensitive(c->runs[r].result, keys[k]);
        if (cJSON_IsObject(it))
            cJSON_AddItemToObject(o, keys[k], cJSON_Duplicate(it, 1));
    }
}

cJSON *bh_result_case(const bh_case *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *runs;
    cJSON *set;

    cJSON_AddStringToObject(o, "id", c->id);
    cJSON_AddStringToObject(o, "plugin", c->plugin);
    if (c->bench)
        cJSON_AddStringToObject(o, "benchmark", c->bench);
    cJSON_AddItemToObject(o, "params", c->params_plain
                                           ? cJSON_Duplicate(c->params_plain, 1)
                                           : cJSON_CreateObject());
    if (c->backend) {
        cJSON_AddStringToObject(o, "backend", c->backend);
        cJSON_AddNumberToObject(o, "device", c->device);
    }
    cJSON_AddStringToObject(o, "status", bh_status_name(c->status));
    if (c->message)
        cJSON_AddStringToObject(o, "message", c->message);
    if (c->skip_cause && (c->status == BH_ST_SKIPPED || c->status == BH_ST_UNSUPPORTED))
        cJSON_AddStringToObject(o, "skip_cause", c->skip_cause);
    set = cJSON_AddObjectToObject(o, "settings");
    cJSON_AddNumberToObject(set, "warmup_ns", (double)c->settings.warmup_ns);
    cJSON_AddNumberToObject(set, "sample_time_ns",
                            (double)c->settings.sample_time_ns);
    cJSON_AddNumberToObject(set, "samples", c->settings.samples);
    cJSON_AddNumberToObject(set, "runs", c->settings.runs);
    cJSON_AddNumberToObject(set, "timeout_ns",
                            (double)c->settings.timeout_ns);
    cJSON_AddNumberToObject(set, "max_time_ns",
                            (double)c->settings.max_time_ns);
    cJSON_AddStringToObject(set, "pin",
                            c->settings.pin ? c->settings.pin : "none");
    if (c->settings.measure == BH_MEASURE_INSTRUCTIONS) {
        cJSON_AddStringToObject(set, "measure", "instructions");
        cJSON_AddNumberToObject(set, "iterations", c->settings.iterations);
    }
    if (c->settings.n_expect)
        cJSON_AddItemToObject(set, "expect",
                              bh_expect_spec_json(c->settings.expect, c->settings.n_expect));
    if (c->settings.leaks_fail)
        cJSON_AddStringToObject(set, "leaks", "fail");
    if (c->settings.runs_auto)
        cJSON_AddItemToObject(o, "runs_auto", bh_runs_auto_json(c));
    runs = cJSON_AddArrayToObject(o, "runs");
    for (uint32_t r = 0; r < c->n_runs; r++)
        if (c->runs[r].done)
            cJSON_AddItemToArray(runs, run_json(&c->runs[r]));
    if (c->has_summary) {
        cJSON_AddItemToObject(o, "summary", bh_result_summary_json(&c->summary));
        add_throughput(o, c);
    } else {
        cJSON_AddNullToObject(o, "summary");
    }
    add_memory(o, c);
    add_metrics(o, c);
    add_profile(o, c);
    bh_result_case_env(o, c);
    add_meters(o, c);
    cJSON_AddNullToObject(o, "verdict");
    return o;
}

static cJSON *plugins_json(const bh_catalog *cat)
{
    cJSON *arr = cJSON_CreateArray();

    for (size_t i = 0; i < cat->n; i++) {
        const bh_catalog_entry *en = cat->entries[i];
        cJSON *p = cJSON_CreateObject();

        cJSON_AddStringToObject(p, "requested", en->key);
        if (en->path)
            cJSON_AddStringToObject(p, "path", en->path);
        cJSON_AddStringToObject(p, "status", bh_status_name(en->status));
        if (en->error)
            cJSON_AddStringToObject(p, "error", en->error);
        if (en->warning)
            cJSON_AddStringToObject(p, "warning", en->warning);
        if (en->info) {
            static const char *const keys[] = {"plugin_id", "name", "version",
                                               "sha256", "abi_major",
                                               "abi_minor", "backend"};
            for (unsigned k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
                const cJSON *it =
                    cJSON_GetObjectItemCaseSensitive(en->info, keys[k]);
                if (it && !cJSON_IsNull(it))
                    cJSON_AddItemToObject(p, keys[k], cJSON_Duplicate(it, 1));
            }
        }
        cJSON_AddItemToArray(arr, p);
    }
    return arr;
}

cJSON *bh_result_build(const bh_run_meta *m, const bh_plan *plan,
                       const bh_catalog *cat)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *run = cJSON_AddObjectToObject(doc, "run");
    cJSON *cfg = cJSON_AddObjectToObject(run, "config");
    cJSON *argv = cJSON_AddArrayToObject(run, "command_line");
    cJSON *cases;
    char seed[32];

    cJSON_AddStringToObject(doc, "schema", BH_RESULT_SCHEMA);
    cJSON_AddStringToObject(cfg, "path", m->cfg->path);
    cJSON_AddStringToObject(cfg, "name", m->cfg->name);
    cJSON_AddStringToObject(cfg, "hash", m->cfg->hash ? m->cfg->hash : "");
    cJSON_AddStringToObject(run, "host_version", BHOST_VERSION);
    cJSON_AddNumberToObject(run, "abi_major", BHOST_ABI_MAJOR);
    cJSON_AddNumberToObject(run, "abi_minor", BHOST_ABI_MINOR);
    for (int i = 0; i < m->argc; i++)
        cJSON_AddItemToArray(argv, cJSON_CreateString(m->argv[i]));
    snprintf(seed, sizeof(seed), "0x%llx", (unsigned long long)m->seed);
    cJSON_AddStringToObject(run, "seed", seed);
    cJSON_AddStringToObject(run, "started_at", m->started_at);
    cJSON_AddStringToObject(run, "finished_at", m->finished_at);
    cJSON_AddNumberToObject(run, "duration_s", m->duration_s);
    cJSON_AddBoolToObject(run, "complete", !m->interrupted);
    cJSON_AddItemToObject(run, "git", bh_result_git_json(m->git));
    cJSON_AddItemToObject(run, "plugins", plugins_json(cat));
    cJSON_AddItemToObject(doc, "system",
                          m->system ? cJSON_Duplicate(m->system, 1)
                                    : cJSON_CreateNull());
    cases = cJSON_AddArrayToObject(doc, "cases");
    for (size_t i = 0; i < plan->n; i++)
        cJSON_AddItemToArray(cases, bh_result_case(&plan->cases[i]));
    bh_variant_speedup_apply(doc);
    bh_roofline_apply(doc);
    bh_ratios_apply(doc, m->cfg, plan, m->seed);
    bh_scaling_apply(doc, m->cfg, plan, m->seed);
    return doc;
}
