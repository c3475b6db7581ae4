// SPDX-License-Identifier: MIT
/* The Student t prediction interval for the newest value of a series
 * (contracts in history.h). */
#include "history.h"

#include "descriptive.h"
#include "distributions.h"

#include <math.h>
#include <stdlib.h>

/* Sets *out to "no interval" with every number NAN. */
static void pi_none(bh_history_pi *out)
{
    out->n = 0;
    out->center = NAN;
    out->lo = NAN;
    out->hi = NAN;
    out->t = NAN;
    out->df = NAN;
    out->p = NAN;
    out->status = BH_HISTORY_PI_NONE;
}

int bh_history_predict(const double *ref, size_t n, double newest, double level,
                       bh_history_pi *out)
{
    double mean, var, scale, tq;

    pi_none(out);
    if (n < 2 || !ref || !bh_stats_all_finite(ref, n) || !isfinite(newest) ||
        !(level > 0.0 && level < 1.0))
        return -1;
    if (bh_stats_mean_var(ref, n, &mean, &var) != 0)
        return -1;
    out->n = n;
    out->center = mean;
    out->df = (double)(n - 1);
    scale = sqrt(var) * sqrt(1.0 + 1.0 / (double)n);
    if (!(scale > 0.0)) {
        out->lo = mean;
        out->hi = mean;
        return 0;
    }
    tq = bh_stats_t_quantile(0.5 + 0.5 * level, out->df);
    out->lo = mean - tq * scale;
    out->hi = mean + tq * scale;
    out->t = (newest - mean) / scale;
    out->p = bh_stats_t_p2(out->t, out->df);
    if (newest < out->lo)
        out->status = BH_HISTORY_PI_BELOW;
    else if (newest > out->hi)
        out->status = BH_HISTORY_PI_ABOVE;
    else
        out->status = BH_HISTORY_PI_INSIDE;
    return 0;
}

int bh_history_check_newest(const double *x, size_t n, size_t last_cp, size_t min_ref,
                            size_t max_ref, double level, int log_scale, bh_history_pi *out)
{
    size_t from, k;
    double *ref;
    int rc;

    pi_none(out);
    if (n == 0 || !x || last_cp >= n || min_ref < 2 || max_ref < min_ref ||
        !(level > 0.0 && level < 1.0))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0.0) || !isfinite(x[i]))
            return -1;
    from = n - 1 > max_ref && n - 1 - max_ref > last_cp ? n - 1 - max_ref : last_cp;
    k = n - 1 - from;
    out->n = k;
    if (k < min_ref)
        return 0;
    ref = malloc(k * sizeof(double));
    if (!ref)
        return -1;
    for (size_t i = 0; i < k; i++)
        ref[i] = log_scale ? log(x[from + i]) : x[from + i];
    rc = bh_history_predict(ref, k, log_scale ? log(x[n - 1]) : x[n - 1], level, out);
    free(ref);
    if (rc != 0)
        return -1;
    if (log_scale) {
        out->center = exp(out->center);
        out->lo = exp(out->lo);
        out->hi = exp(out->hi);
    }
    return 0;
}
