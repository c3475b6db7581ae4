// SPDX-License-Identifier: MIT
/* One case of the result view: identity, summary, runs, metrics,
 * throughput and roofline (see result_view.h; verdicts: view_verdict.c). */
#include "view_internal.h"

#include "bh_mem.h"
#include "result_read.h"
#include "view_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Group ("plugin/benchmark"), rest and op of a case from its id. */
static void split_id(bh_rv_case *c)
{
    const char *close = strrchr(c->id, ']');
    const char *at = strchr(close ? close : c->id, '@');
    size_t gl;

    if (*c->bench)
        c->group = bh_xasprintf("%s/%s", c->plugin, c->bench);
    else
        c->group = bh_xstrndup(c->id, strcspn(c->id, "[@"));
    gl = strlen(c->group);
    if (strncmp(c->id, c->group, gl) == 0) {
        c->rest = c->id + gl;
    } else {
        free(c->group);
        c->group = bh_xstrndup(c->id, strcspn(c->id, "[@"));
        c->rest = c->id + strlen(c->group);
    }
    c->at = at ? at : "";
    c->op = bh_xstrndup(c->id, at ? (size_t)(at - c->id) : strlen(c->id));
}

/* The summary object s into out. */
static void read_summary(const cJSON *s, bh_rv_summary *out)
{
    out->json = cJSON_IsObject(s) ? s : NULL;
    out->n = bh_vj_num(s, "n");
    out->runs = bh_vj_num(s, "runs");
    out->min = bh_vj_num(s, "min");
    out->max = bh_vj_num(s, "max");
    out->mean = bh_vj_num(s, "mean");
    out->sd = bh_vj_num(s, "sd");
    out->cv = bh_vj_num(s, "cv");
    out->median = bh_vj_num(s, "median");
    out->mad = bh_vj_num(s, "mad");
    out->q1 = bh_vj_num(s, "q1");
    out->q3 = bh_vj_num(s, "q3");
    out->p5 = bh_vj_num(s, "p5");
    out->p95 = bh_vj_num(s, "p95");
    out->p99 = bh_vj_num(s, "p99");
    out->median_ci_lo = bh_vj_num(s, "median_ci_lo");
    out->median_ci_hi = bh_vj_num(s, "median_ci_hi");
    out->median_ci_level = bh_vj_num(s, "median_ci_level");
    out->within_run_cv = bh_vj_num(s, "within_run_cv");
    out->between_run_cv = bh_vj_num(s, "between_run_cv");
    out->mde = bh_vj_num(s, "mde");
    out->low_severe = bh_vj_num(bh_vj_obj(s, "tukey"), "low_severe");
    out->low_mild = bh_vj_num(bh_vj_obj(s, "tukey"), "low_mild");
    out->high_mild = bh_vj_num(bh_vj_obj(s, "tukey"), "high_mild");
    out->high_severe = bh_vj_num(bh_vj_obj(s, "tukey"), "high_severe");
    out->flags = bh_vj_arr(s, "flags");
    out->present = out->json && isfinite(out->median);
    out->spread_cv = out->runs > 1 && isfinite(out->between_run_cv) ? out->between_run_cv
                                                                    : out->cv;
}

/* The metrics a run reported (runs[].metrics[]). */
static void read_run_metrics(const cJSON *ms, bh_rv_run *r)
{
    size_t cap = ms ? (size_t)cJSON_GetArraySize(ms) : 0;
    const cJSON *m;

    r->metrics = cap ? bh_xcalloc(cap, sizeof(bh_rv_run_metric)) : NULL;
    if (!cap)
        return;
    cJSON_ArrayForEach(m, ms) {
        bh_rv_run_metric *o;

        if (!cJSON_IsObject(m))
            continue;
        o = &r->metrics[r->n_metrics++];
        o->name = bh_vj_str(m, "name", "");
        o->unit = bh_vj_str(m, "unit", "");
        o->higher_better = strcmp(bh_vj_str(m, "direction", "lower"), "higher") == 0;
        o->value = bh_vj_num(m, "value");
    }
}

/* The runs of a case, and their total wall time. */
static void read_runs(const cJSON *runs, bh_rv_case *c)
{
    size_t cap = runs ? (size_t)cJSON_GetArraySize(runs) : 0;
    const cJSON *j;

    c->runs = cap ? bh_xcalloc(cap, sizeof(bh_rv_run)) : NULL;
    c->wall_s = 0;
    if (!cap)
        return;
    cJSON_ArrayForEach(j, runs) {
        bh_rv_run *r;
        const cJSON *samples = bh_vj_arr(j, "samples");

        if (!cJSON_IsObject(j))
            continue;
        r = &c->runs[c->n_runs++];
        r->json = j;
        r->index = bh_vj_index(j, "index");
        r->status = bh_vj_str(j, "status", "unknown");
        r->message = bh_vj_str(j, "message", "");
        r->ok = strcmp(r->status, "ok") == 0;
        r->samples = samples;
        r->median_ns = samples ? bh_result_run_median(samples, &r->n_samples, &r->iters) : NAN;
        r->timing = bh_vj_str(j, "timing", "");
        r->wall_ns = bh_vj_num(j, "wall_ns");
        r->peak_rss_kb = bh_vj_num(j, "peak_rss_kb");
        r->worker_maxrss_kb = bh_vj_num(j, "worker_maxrss_kb");
        r->iters_per_sample = bh_vj_num(j, "iters_per_sample");
        r->flops_per_iter = bh_vj_num(j, "flops_per_iter");
        r->bytes_per_iter = bh_vj_num(j, "bytes_per_iter");
        r->items_per_iter = bh_vj_num(j, "items_per_iter");
        r->warning = bh_vj_str(j, "warning", NULL);
        r->log = bh_vj_str(j, "log", NULL);
        r->log_truncated = bh_vj_bool(j, "log_truncated") == 1;
        read_run_metrics(bh_vj_arr(j, "metrics"), r);
        if (isfinite(r->wall_ns) && r->wall_ns > 0)
            c->wall_s += r->wall_ns * 1e-9;
    }
}

/* The extra metrics of a case (cases[].metrics, by name). */
static void read_metrics(const cJSON *ms, bh_rv_case *c)
{
    size_t cap = ms ? (size_t)cJSON_GetArraySize(ms) : 0;
    const cJSON *m;

    c->metrics = cap ? bh_xcalloc(cap, sizeof(bh_rv_metric)) : NULL;
    if (!cap)
        return;
    cJSON_ArrayForEach(m, ms) {
        bh_rv_metric *o;

        if (!cJSON_IsObject(m) || !m->string)
            continue;
        o = &c->metrics[c->n_metrics++];
        o->name = m->string;
        o->json = m;
        o->unit = bh_vj_str(m, "unit", "");
        o->higher_better = strcmp(bh_vj_str(m, "direction", "lower"), "higher") == 0;
        o->median = bh_vj_array_median(bh_vj_arr(m, "values"), &o->values, &o->n_values);
        o->kind = bh_vj_str(m, "kind", "performance");
        o->compared = strcmp(o->kind, "performance") == 0;
        o->limit = bh_vj_num(m, "limit");
    }
}

/* The first metric with a finite median whose unit is unit (or, for
 * unit NULL, any rate: a unit ending in "/s"); NULL when none. */
static const bh_rv_metric *rate_metric(const bh_rv_case *c, const char *unit)
{
    for (size_t i = 0; i < c->n_metrics; i++) {
        const bh_rv_metric *m = &c->metrics[i];
        size_t ul = strlen(m->unit);

        if (!isfinite(m->median))
            continue;
        if (unit ? strcmp(m->unit, unit) == 0 : ul >= 3 && strcmp(m->unit + ul - 2, "/s") == 0)
            return m;
    }
    return NULL;
}

/* The headline throughput: a tokens/s metric first, then FLOP/s, B/s,
 * items/s, then any other metric whose unit is a rate. */
static void headline_rate(bh_rv_case *c)
{
    const double rates[] = {c->flop_per_s, c->bytes_per_s, c->items_per_s};
    static const char *const units[] = {"FLOP/s", "B/s", "items/s"};
    const bh_rv_metric *m = rate_metric(c, "tokens/s");

    c->rate = NAN;
    c->rate_unit = "";
    if (!m) {
        for (int k = 0; k < 3; k++)
            if (isfinite(rates[k]) && rates[k] > 0) {
                c->rate = rates[k];
                c->rate_unit = units[k];
                return;
            }
        m = rate_metric(c, NULL);
    }
    if (m) {
        c->rate = m->median;
        c->rate_unit = m->unit;
    }
}

/* Throughput and roofline of a case. */
static void read_rates(const cJSON *j, bh_rv_case *c)
{
    const cJSON *tp = bh_vj_obj(j, "throughput");
    const cJSON *roof = bh_vj_obj(j, "roofline");

    c->flop_per_s = bh_vj_num(tp, "flop_per_s");
    c->bytes_per_s = bh_vj_num(tp, "bytes_per_s");
    c->items_per_s = bh_vj_num(tp, "items_per_s");
    headline_rate(c);
    c->roof.fraction = bh_vj_num(roof, "fraction");
    c->roof.attainable = bh_vj_num(roof, "attainable");
    c->roof.intensity = bh_vj_num(roof, "intensity_flop_per_byte");
    c->roof.bound = bh_vj_str(roof, "bound", "");
    c->roof.unit = bh_vj_str(roof, "unit", "");
    c->roof.level = bh_vj_str(roof, "level", NULL);
    c->roof.memory_ceiling = bh_vj_str(roof, "memory_ceiling", NULL);
    c->roof.compute_ceiling = bh_vj_str(roof, "compute_ceiling", NULL);
    c->roof.above = bh_vj_bool(roof, "above_ceiling") == 1;
}

/* The settings object s into out. */
static void read_settings(const cJSON *s, bh_rv_settings *out)
{
    out->json = s;
    out->warmup_ns = bh_vj_num(s, "warmup_ns");
    out->sample_time_ns = bh_vj_num(s, "sample_time_ns");
    out->timeout_ns = bh_vj_num(s, "timeout_ns");
    out->max_time_ns = bh_vj_num(s, "max_time_ns");
    out->samples = bh_vj_num(s, "samples");
    out->runs = bh_vj_num(s, "runs");
    out->pin = bh_vj_str(s, "pin", NULL);
}

/* See result_view.h. */
int bh_rv_case_read(const cJSON *j, bh_rv_case *c)
{
    double dev;

    memset(c, 0, sizeof(*c));
    if (!cJSON_IsObject(j) || !bh_vj_str(j, "id", NULL))
        return 0;
    c->json = j;
    c->id = bh_vj_str(j, "id", "");
    c->plugin = bh_vj_str(j, "plugin", "");
    c->bench = bh_vj_str(j, "benchmark", "");
    c->backend = bh_vj_str(j, "backend", "");
    dev = bh_vj_num(j, "device");
    c->device = isfinite(dev) && dev >= 0 && dev < 1e9 ? (long)dev : -1;
    c->status = bh_vj_str(j, "status", "unknown");
    c->message = bh_vj_str(j, "message", "");
    c->ok = strcmp(c->status, "ok") == 0;
    c->params = bh_vj_obj(j, "params");
    split_id(c);
    read_settings(bh_vj_obj(j, "settings"), &c->settings);
    read_summary(bh_vj_obj(j, "summary"), &c->summary);
    c->memory_peak_rss_kb = bh_vj_num(bh_vj_obj(j, "memory"), "peak_rss_kb");
    read_runs(bh_vj_arr(j, "runs"), c);
    read_metrics(bh_vj_obj(j, "metrics"), c);
    read_rates(j, c);
    bh_rv_verdict_read(bh_vj_obj(j, "verdict"), c);
    return 1;
}

/* See result_view.h. */
void bh_rv_case_free(bh_rv_case *c)
{
    for (size_t i = 0; i < c->n_runs; i++)
        free(c->runs[i].metrics);
    for (size_t i = 0; i < c->n_metrics; i++)
        free(c->metrics[i].values);
    free(c->runs);
    free(c->metrics);
    free(c->changes);
    free(c->group);
    free(c->op);
    memset(c, 0, sizeof(*c));
}
