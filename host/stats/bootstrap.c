// SPDX-License-Identifier: MIT
#include "bootstrap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bh_rng.h"
#include "descriptive.h"
#include "quantile.h"

/* Uniform in [0, n) from 32 random bits without bias (Lemire 2019):
 * reject is 2^32 mod n; a rejected draw is replaced from fresh output. */
static inline uint32_t scale(bh_rng *r, uint32_t bits, uint32_t n, uint32_t reject)
{
    uint64_t m = (uint64_t)bits * n;

    while ((uint32_t)m < reject)
        m = (uint64_t)(uint32_t)(bh_rng_next(r) >> 32) * n;
    return (uint32_t)(m >> 32);
}

/* Median of the resample described by cnt[j] = copies of s[j]. */
static double counted_median(const double *s, const uint32_t *cnt, size_t n)
{
    size_t k1 = (n - 1) / 2, k2 = n / 2, c = 0, j = 0;
    double v1, v2;

    while (c + cnt[j] <= k1)
        c += cnt[j++];
    v1 = s[j];
    if (k2 < c + cnt[j]) {
        v2 = v1;
    } else {
        j++;
        while (cnt[j] == 0)
            j++;
        v2 = s[j];
    }
    return v1 + (v2 - v1) / 2.0;
}

/* Sum of cnt[j] * s[j] over j, zeroing cnt for the next resample. Four
 * partial sums in a fixed order: fast and still deterministic. */
static double counted_sum_and_clear(const double *s, uint32_t *cnt, size_t n)
{
    double acc[4] = {0.0, 0.0, 0.0, 0.0};
    size_t j = 0;

    for (; j + 4 <= n; j += 4) {
        for (int u = 0; u < 4; u++) {
            acc[u] += (double)cnt[j + u] * s[j + u];
            cnt[j + u] = 0;
        }
    }
    for (; j < n; j++) {
        acc[0] += (double)cnt[j] * s[j];
        cnt[j] = 0;
    }
    return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

static void set_nan(bh_stats_boot *out)
{
    out->mean_lo = out->mean_hi = NAN;
    out->median_lo = out->median_hi = NAN;
    out->mean_se = out->median_se = NAN;
}

int bh_stats_bootstrap(const double *s, size_t n, uint32_t resamples, double level,
                       uint64_t seed, bh_stats_boot *out)
{
    uint32_t *cnt = NULL, n32, reject;
    double *means = NULL, *medians = NULL, lo_p, hi_p, var;
    bh_rng rng;
    int rc = -1;

    set_nan(out);
    if (n == 0 || n > UINT32_MAX || resamples == 0 || !(level > 0.0 && level < 1.0))
        return -1;
    if ((uint64_t)resamples * 2 * sizeof(double) > (uint64_t)SIZE_MAX)
        return -1;
    n32 = (uint32_t)n;
    reject = (uint32_t)(-n32) % n32;
    cnt = calloc(n, sizeof(*cnt));
    means = malloc(2 * (size_t)resamples * sizeof(*means));
    if (!cnt || !means)
        goto out_free;
    medians = means + resamples;

    bh_rng_seed(&rng, seed);
    for (uint32_t b = 0; b < resamples; b++) {
        /* Two indices per generator output. */
        size_t i = 0;

        for (; i + 4 <= n; i += 4) {
            uint64_t w0 = bh_rng_next(&rng), w1 = bh_rng_next(&rng);

            cnt[scale(&rng, (uint32_t)(w0 >> 32), n32, reject)]++;
            cnt[scale(&rng, (uint32_t)w0, n32, reject)]++;
            cnt[scale(&rng, (uint32_t)(w1 >> 32), n32, reject)]++;
            cnt[scale(&rng, (uint32_t)w1, n32, reject)]++;
        }
        for (; i < n; i++)
            cnt[scale(&rng, (uint32_t)(bh_rng_next(&rng) >> 32), n32, reject)]++;
        medians[b] = counted_median(s, cnt, n);
        means[b] = counted_sum_and_clear(s, cnt, n) / (double)n;
    }

    bh_stats_sort(means, resamples);
    bh_stats_sort(medians, resamples);
    lo_p = (1.0 - level) / 2.0;
    hi_p = 1.0 - lo_p;
    out->mean_lo = bh_stats_quantile_sorted(means, resamples, lo_p);
    out->mean_hi = bh_stats_quantile_sorted(means, resamples, hi_p);
    out->median_lo = bh_stats_quantile_sorted(medians, resamples, lo_p);
    out->median_hi = bh_stats_quantile_sorted(medians, resamples, hi_p);
    if (bh_stats_mean_var(means, resamples, NULL, &var) == 0)
        out->mean_se = sqrt(var);
    if (bh_stats_mean_var(medians, resamples, NULL, &var) == 0)
        out->median_se = sqrt(var);
    rc = 0;

out_free:
    free(means);
    free(cnt);
    return rc;
}
