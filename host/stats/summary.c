// SPDX-License-Identifier: MIT
#include "summary.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "compare.h"
#include "descriptive.h"
#include "distributions.h"
#include "quantile.h"
#include "runs.h"

void bh_summary_opts_default(bh_summary_opts *o)
{
    o->ci_level = 0.99;
    o->boot_level = 0.95;
    o->boot_resamples = 10000;
    o->seed = 0;
    o->max_cv = 0.05;
    o->min_sample_ns = 1e6;
    o->alpha = 0.01;
    o->power = 0.8;
}

static bool in_unit(double x)
{
    return x > 0.0 && x < 1.0;
}

static bool opts_valid(const bh_summary_opts *o)
{
    if (!in_unit(o->ci_level) || !in_unit(o->alpha) || !in_unit(o->power))
        return false;
    if (o->boot_resamples > 0 && !in_unit(o->boot_level))
        return false;
    return o->max_cv >= 0.0 && o->min_sample_ns >= 0.0;
}

/* Everything that depends on the pooled, sorted samples only. */
static void pooled_stats(const double *s, size_t n, const bh_summary_opts *o, bh_summary *out)
{
    bh_stats_tukey tk;
    double var;

    out->min = s[0];
    out->max = s[n - 1];
    bh_stats_mean_var(s, n, &out->mean, &var);
    out->sd = sqrt(var); /* NAN when n == 1 */
    out->cv = out->mean != 0.0 ? out->sd / fabs(out->mean) : NAN;
    out->median = bh_stats_median_sorted(s, n);
    out->mad = bh_stats_mad_sorted(s, n, out->median);
    out->p5 = bh_stats_quantile_sorted(s, n, 0.05);
    out->p95 = bh_stats_quantile_sorted(s, n, 0.95);
    out->p99 = bh_stats_quantile_sorted(s, n, 0.99);
    bh_stats_tukey_sorted(s, n, &tk);
    out->q1 = tk.q1;
    out->q3 = tk.q3;
    out->iqr = tk.iqr;
    out->low_severe = tk.low_severe;
    out->low_mild = tk.low_mild;
    out->high_mild = tk.high_mild;
    out->high_severe = tk.high_severe;
    out->median_ci_level = o->ci_level;
    bh_stats_quantile_ci_sorted(s, n, 0.5, o->ci_level, &out->median_ci_lo,
                                &out->median_ci_hi, &out->median_ci_coverage);
}

/* Minimum detectable relative effect for R runs against R baseline runs. */
static double mde(const bh_stats_runs *rs, const bh_summary_opts *o)
{
    double s = isnan(rs->log_median_sd) ? rs->between_cv : rs->log_median_sd;
    double z;

    if (rs->n_runs < 2 || isnan(s))
        return NAN;
    z = bh_stats_norm_quantile(1.0 - o->alpha / 2.0) + bh_stats_norm_quantile(o->power);
    return expm1(z * s * sqrt(2.0 / (double)rs->n_runs));
}

static uint32_t stability_flags(const bh_summary *out, const double *sample_ns, size_t n,
                                const bh_summary_opts *o)
{
    uint32_t f = 0;
    double cv = out->n_runs >= 2 ? out->between_run_cv : out->cv;

    if (cv > o->max_cv)
        f |= BH_STAB_HIGH_CV;
    if (sample_ns && o->min_sample_ns > 0.0) {
        for (size_t i = 0; i < n; i++) {
            if (sample_ns[i] < o->min_sample_ns) {
                f |= BH_STAB_SHORT_SAMPLES;
                break;
            }
        }
    }
    if (out->low_severe + out->high_severe > 0)
        f |= BH_STAB_SEVERE_OUTLIERS;
    if (out->between_run_f > 4.0)
        f |= BH_STAB_BETWEEN_RUN;
    if (fabs(out->drift) > o->max_cv)
        f |= BH_STAB_WARMUP_DRIFT;
    if (isinf(out->median_ci_lo) || isinf(out->median_ci_hi) || out->n_runs < 2)
        f |= BH_STAB_TOO_FEW;
    return f;
}

int bh_summarize(const double *values, const uint32_t *run, const double *sample_ns, size_t n,
                 const bh_summary_opts *opts, bh_summary *out)
{
    bh_summary_opts def;
    bh_stats_runs rs;
    double *sorted = NULL;

    if (!out)
        return -1;
    memset(out, 0, sizeof(*out));
    if (!opts) {
        bh_summary_opts_default(&def);
        opts = &def;
    }
    if (n == 0 || !values || !opts_valid(opts) || !bh_stats_all_finite(values, n))
        return -1;
    if (sample_ns && !bh_stats_all_finite(sample_ns, n))
        return -1;
    sorted = malloc(n * sizeof(*sorted));
    if (!sorted)
        return -1;
    memcpy(sorted, values, n * sizeof(*sorted));
    bh_stats_sort(sorted, n);

    out->n = n;
    pooled_stats(sorted, n, opts, out);

    if (bh_stats_run_analysis(values, run, n, &rs) != 0)
        goto fail;
    out->n_runs = rs.n_runs;
    out->within_run_cv = rs.within_cv;
    out->between_run_cv = rs.between_cv;
    out->run_median_median = rs.median_of_medians;
    out->between_run_f = rs.f;
    out->between_run_p = rs.f_p;
    out->drift = rs.drift;
    out->mde = mde(&rs, opts);
    out->mwu_min_p = bh_stats_mwu_min_p(rs.n_runs, rs.n_runs);

    out->mean_boot_lo = out->mean_boot_hi = NAN;
    out->median_boot_lo = out->median_boot_hi = NAN;
    if (opts->boot_resamples > 0) {
        bh_stats_boot b;

        if (bh_stats_bootstrap(sorted, n, opts->boot_resamples, opts->boot_level, opts->seed,
                               &b) != 0)
            goto fail;
        out->mean_boot_lo = b.mean_lo;
        out->mean_boot_hi = b.mean_hi;
        out->median_boot_lo = b.median_lo;
        out->median_boot_hi = b.median_hi;
    }

    out->flags = stability_flags(out, sample_ns, n, opts);
    free(sorted);
    return 0;

fail:
    free(sorted);
    memset(out, 0, sizeof(*out));
    return -1;
}
