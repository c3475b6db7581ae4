#include "bootstrap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bh_rng.h"
#include "descriptive.h"
#include "quantile.h"

/* 32-bit words from the generator, both halves of each 64-bit output. */
typedef struct drawer {
    bh_rng rng;
    uint64_t buf;
    int have;
} drawer;

static inline uint32_t bits32(drawer *d)
{
    if (d->have) {
        d->have = 0;
        return (uint32_t)d->buf;
    }
    d->buf = bh_rng_next(&d->rng);
    d->have = 1;
    return (uint32_t)(d->buf >> 32);
}

/* Uniform in [0, n) without bias (Lemire 2019); reject is 2^32 mod n. */
static inline uint32_t below(drawer *d, uint32_t n, uint32_t reject)
{
    uint64_t m = (uint64_t)bits32(d) * n;

    while ((uint32_t)m < reject)
        m = (uint64_t)bits32(d) * n;
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
    drawer d;
    int rc = -1;

    set_nan(out);
    if (n == 0 || n > UINT32_MAX || resamples == 0 || !(level > 0.0 && level < 1.0))
        return -1;
    if ((uint64_t)resamples * 2 * sizeof(double) > (uint64_t)SIZE_MAX)
        return -1;
    n32 = (uint32_t)n;
    reject = (uint32_t)(-n32) % n32;
    cnt = malloc(n * sizeof(*cnt));
    means = malloc(2 * (size_t)resamples * sizeof(*means));
    if (!cnt || !means)
        goto out_free;
    medians = means + resamples;

    bh_rng_seed(&d.rng, seed);
    d.have = 0;
    d.buf = 0;
    for (uint32_t b = 0; b < resamples; b++) {
        double sum = 0.0;

        memset(cnt, 0, n * sizeof(*cnt));
        for (size_t i = 0; i < n; i++) {
            uint32_t j = below(&d, n32, reject);

            cnt[j]++;
            sum += s[j];
        }
        means[b] = sum / (double)n;
        medians[b] = counted_median(s, cnt, n);
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
