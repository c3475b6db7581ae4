// SPDX-License-Identifier: MIT
/* Peak RSS and host-API allocations as compared metrics (see
 * memory_compare.h). */
#include "memory_compare.h"

#include "bh_mem.h"
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const bh_regress_memory_metrics[] = {BH_REGRESS_RSS, BH_REGRESS_ALLOC_BYTES,
                                                 BH_REGRESS_ALLOC_COUNT};

/* See memory_compare.h. */
int bh_regress_is_memory_metric(const char *metric)
{
    for (size_t i = 0; i < BH_REGRESS_N_MEMORY; i++)
        if (strcmp(metric, bh_regress_memory_metrics[i]) == 0)
            return 1;
    return 0;
}

/* See memory_compare.h. */
const char *bh_regress_memory_unit(const char *metric)
{
    if (strcmp(metric, BH_REGRESS_RSS) == 0)
        return "KiB";
    if (strcmp(metric, BH_REGRESS_ALLOC_BYTES) == 0)
        return "B";
    if (strcmp(metric, BH_REGRESS_ALLOC_COUNT) == 0)
        return "allocations";
    return "";
}

/* See memory_compare.h. */
double bh_regress_memory_run_value(const bh_rv_run *r, const char *metric)
{
    const cJSON *alloc, *v;

    if (!r->ok)
        return NAN;
    if (strcmp(metric, BH_REGRESS_RSS) == 0)
        return isfinite(r->peak_rss_kb) && r->peak_rss_kb >= 0 ? r->peak_rss_kb : NAN;
    alloc = r->json ? cJSON_GetObjectItemCaseSensitive(r->json, "alloc") : NULL;
    v = cJSON_GetObjectItemCaseSensitive(
        alloc, strcmp(metric, BH_REGRESS_ALLOC_BYTES) == 0 ? "bytes" : "count");
    if (!bh_regress_is_memory_metric(metric) || !cJSON_IsNumber(v) ||
        !isfinite(v->valuedouble) || v->valuedouble < 0)
        return NAN;
    return v->valuedouble;
}

/* How many ok runs of c have a value of metric, and whether one is not 0. */
static size_t values_of(const bh_rv_case *c, const char *metric, int *nonzero)
{
    size_t n = 0;

    for (size_t i = 0; i < c->n_runs; i++) {
        double v = bh_regress_memory_run_value(&c->runs[i], metric);

        if (isnan(v))
            continue;
        n++;
        *nonzero |= v != 0;
    }
    return n;
}

/* See memory_compare.h. */
int bh_regress_memory_compared(const bh_regress_config *cfg, const bh_rv_case *base,
                               const bh_rv_case *cand, const char *metric, int counted)
{
    const bh_regress_metric_cfg *mc = bh_regress_metric_find(cfg, metric);
    int nonzero = 0;

    if (!cfg->memory || (mc && mc->ignore) || bh_rv_case_metric(cand, metric) ||
        bh_rv_case_metric(base, metric))
        return 0;
    if (counted && strcmp(metric, BH_REGRESS_RSS) == 0)
        return 0; /* the RSS of Valgrind, not of the benchmark */
    if (values_of(base, metric, &nonzero) == 0 || values_of(cand, metric, &nonzero) == 0)
        return 0;
    return nonzero;
}

/* See memory_compare.h. */
void bh_regress_memory_thresholds(const bh_regress_config *cfg, const char *metric,
                                  bh_regress_thresholds *th)
{
    const bh_regress_metric_cfg *mc = bh_regress_metric_find(cfg, metric);
    double f;

    if (!bh_regress_is_memory_metric(metric))
        return;
    if (mc && !isnan(mc->noise_floor))
        f = mc->noise_floor;
    else
        f = strcmp(metric, BH_REGRESS_RSS) == 0 ? cfg->rss_floor : cfg->alloc_floor;
    th->noise_floor = f;
    if (th->warning < f)
        th->warning = f;
    if (th->critical < f)
        th->critical = f;
}

/* See memory_compare.h. */
size_t bh_regress_adjust_family(bh_regress_report *r, int (*in)(const bh_regress_item *))
{
    double *p = bh_xcalloc(r->n ? r->n : 1, sizeof(double));
    size_t m = 0;

    for (size_t i = 0; i < r->n; i++)
        if (r->items[i].tested && in(&r->items[i]))
            p[m++] = r->items[i].st.p;
    if (m > 0 && bh_stats_adjust_bh(p, m, p) == 0) {
        m = 0;
        for (size_t i = 0; i < r->n; i++)
            if (r->items[i].tested && in(&r->items[i]))
                r->items[i].st.q = p[m++];
    }
    free(p);
    return m;
}

/* True for a memory item. */
static int is_memory(const bh_regress_item *it)
{
    return it->memory;
}

/* See memory_compare.h. */
void bh_regress_memory_adjust(bh_regress_report *r)
{
    r->n_memory_tests = bh_regress_adjust_family(r, is_memory);
}
