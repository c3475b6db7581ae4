// SPDX-License-Identifier: MIT
/* The drift floor from recorded history (see drift.h). */
#include "drift.h"

#include "bh_mem.h"
#include "descriptive.h"
#include "distributions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double bh_regress_drift_sd(const double *v, size_t n)
{
    double *d, med;

    if (n < 3)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]) || v[i] <= 0)
            return NAN;
    d = bh_xcalloc(n - 1, sizeof(*d));
    for (size_t i = 0; i + 1 < n; i++)
        d[i] = fabs(log(v[i + 1]) - log(v[i]));
    bh_stats_sort(d, n - 1);
    med = bh_stats_median_sorted(d, n - 1);
    free(d);
    return 1.482602218505602 * med / M_SQRT2;
}

double bh_regress_drift_floor(double sd, double alpha)
{
    if (!isfinite(sd) || sd <= 0 || !(alpha > 0 && alpha < 1))
        return 0.0;
    return expm1(bh_stats_norm_quantile(1.0 - alpha / 2.0) * M_SQRT2 * sd);
}

/* The history of (case_id, metric) in h, or NULL. */
static const bh_store_recent *find(const bh_store_recent *h, size_t n, const char *case_id,
                                   const char *metric)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(h[i].case_id, case_id) == 0 && strcmp(h[i].metric, metric) == 0)
            return &h[i];
    return NULL;
}

void bh_regress_apply_drift(bh_regress_report *r, const bh_regress_config *cfg,
                            const bh_store_recent *h, size_t n)
{
    size_t m = 0;
    double alpha;

    if (cfg->drift_window == 0)
        return;
    for (size_t i = 0; i < r->n; i++)
        m += (size_t)r->items[i].tested;
    alpha = cfg->fdr / (double)(m + r->family_extra ? m + r->family_extra : 1);
    r->n_drift = 0;
    for (size_t i = 0; i < r->n; i++) {
        bh_regress_item *it = &r->items[i];
        const bh_store_recent *x = find(h, n, it->base_id ? it->base_id : it->case_id, it->metric);
        size_t k;
        double sd, floor;

        if (!it->tested || !x)
            continue;
        k = x->n < cfg->drift_window ? x->n : cfg->drift_window;
        if (k < cfg->drift_min_runs || !isfinite(sd = bh_regress_drift_sd(x->values, k)))
            continue;
        floor = bh_regress_drift_floor(sd, alpha);
        if (it->drift.runs == 0)
            it->drift.config_floor = it->th.noise_floor;
        it->drift.runs = k;
        it->drift.sd = sd;
        it->drift.floor = floor;
        it->th.noise_floor = fmax(it->drift.config_floor, floor);
        r->n_drift += floor > it->drift.config_floor;
    }
    bh_regress_finalize(r, cfg);
}
