// SPDX-License-Identifier: MIT
#include "descriptive.h"

#include <math.h>
#include <string.h>

#include "quantile.h"

void bh_stats_welford_init(bh_stats_welford *w)
{
    w->n = 0;
    w->mean = 0.0;
    w->m2 = 0.0;
}

void bh_stats_welford_push(bh_stats_welford *w, double x)
{
    double delta = x - w->mean;

    w->n++;
    w->mean += delta / (double)w->n;
    w->m2 += delta * (x - w->mean);
}

double bh_stats_welford_var(const bh_stats_welford *w)
{
    if (w->n < 2)
        return NAN;
    return w->m2 / (double)(w->n - 1);
}

bool bh_stats_all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return false;
    return true;
}

double bh_stats_mean(const double *x, size_t n)
{
    double m;

    if (bh_stats_mean_var(x, n, &m, NULL) != 0)
        return NAN;
    return m;
}

int bh_stats_mean_var(const double *x, size_t n, double *mean, double *var)
{
    double sum = 0.0, m, ss = 0.0, comp = 0.0;

    if (n == 0) {
        if (mean)
            *mean = NAN;
        if (var)
            *var = NAN;
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    m = sum / (double)n;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - m;

        ss += d * d;
        comp += d;
    }
    /* comp is the rounding error of the first pass: fold it back into the
     * mean, and remove its contribution from the sum of squares
     * (Chan, Golub & LeVeque's corrected two-pass algorithm). */
    if (mean)
        *mean = m + comp / (double)n;
    if (var) {
        if (n < 2) {
            *var = NAN;
        } else {
            double v = (ss - comp * comp / (double)n) / (double)(n - 1);

            *var = v < 0.0 ? 0.0 : v;
        }
    }
    return 0;
}

/* Strict weak order on finite doubles that also puts -0.0 before +0.0, so
 * a sort's output is the same bytes whatever the input order. */
static inline bool less(double a, double b)
{
    return a < b || (a == b && signbit(a) && !signbit(b));
}

static void insertion_sort(double *x, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double v = x[i];
        size_t j = i;

        while (j > 0 && less(v, x[j - 1])) {
            x[j] = x[j - 1];
            j--;
        }
        x[j] = v;
    }
}

static void sift_down(double *x, size_t root, size_t n)
{
    double v = x[root];

    for (;;) {
        size_t c = 2 * root + 1;

        if (c >= n)
            break;
        if (c + 1 < n && less(x[c], x[c + 1]))
            c++;
        if (!less(v, x[c]))
            break;
        x[root] = x[c];
        root = c;
    }
    x[root] = v;
}

static void heap_sort(double *x, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(x, i, n);
    for (size_t end = n; end-- > 1;) {
        double t = x[0];

        x[0] = x[end];
        x[end] = t;
        sift_down(x, 0, end);
    }
}

static inline void swap(double *a, double *b)
{
    double t = *a;

    *a = *b;
    *b = t;
}

/* Moves the median of x[0], x[n/2], x[n-1] to x[0] (the pivot) and
 * partitions x[1..n) around it (Hoare). Returns the pivot's final index. */
static size_t partition(double *x, size_t n)
{
    size_t mid = n / 2, i = 0, j = n;
    double p;

    if (less(x[mid], x[0]))
        swap(&x[mid], &x[0]);
    if (less(x[n - 1], x[0]))
        swap(&x[n - 1], &x[0]);
    if (less(x[n - 1], x[mid]))
        swap(&x[n - 1], &x[mid]);
    swap(&x[0], &x[mid]);
    p = x[0];
    for (;;) {
        do
            i++;
        while (i < n && less(x[i], p));
        do
            j--;
        while (less(p, x[j]));
        if (i >= j)
            break;
        swap(&x[i], &x[j]);
    }
    swap(&x[0], &x[j]);
    return j;
}

static void intro_sort(double *x, size_t n, unsigned depth)
{
    while (n > 16) {
        size_t k;

        if (depth == 0) {
            heap_sort(x, n);
            return;
        }
        depth--;
        k = partition(x, n);
        /* Recurse into the smaller side, loop on the larger. */
        if (k < n - k - 1) {
            intro_sort(x, k, depth);
            x += k + 1;
            n -= k + 1;
        } else {
            intro_sort(x + k + 1, n - k - 1, depth);
            n = k;
        }
    }
    insertion_sort(x, n);
}

void bh_stats_sort(double *x, size_t n)
{
    unsigned depth = 0;

    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    intro_sort(x, n, depth);
}

double bh_stats_select(double *x, size_t n, size_t k)
{
    unsigned depth = 0;

    if (k >= n)
        return NAN;
    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    while (n > 16) {
        size_t p;

        if (depth == 0) {
            heap_sort(x, n);
            return x[k];
        }
        depth--;
        p = partition(x, n);
        if (k == p)
            return x[k];
        if (k < p) {
            n = p;
        } else {
            x += p + 1;
            n -= p + 1;
            k -= p + 1;
        }
    }
    insertion_sort(x, n);
    return x[k];
}

double bh_stats_median_sorted(const double *s, size_t n)
{
    if (n == 0)
        return NAN;
    if (n % 2)
        return s[n / 2];
    return s[n / 2 - 1] + (s[n / 2] - s[n / 2 - 1]) / 2.0;
}

double bh_stats_median(double *x, size_t n)
{
    bh_stats_sort(x, n);
    return bh_stats_median_sorted(x, n);
}

double bh_stats_mad_sorted(const double *s, size_t n, double med)
{
    /* |s[i] - med| is non-increasing left of the split and non-decreasing
     * right of it: merge the two monotone streams up to the middle. */
    size_t split = 0, lo, hi, want_a = (n - 1) / 2, want_b = n / 2;
    double a = 0.0, b = 0.0;

    if (n == 0)
        return NAN;
    while (split < n && s[split] < med)
        split++;
    lo = split; /* next left element is s[lo - 1] */
    hi = split; /* next right element is s[hi] */
    for (size_t r = 0; r <= want_b; r++) {
        double d;

        if (lo > 0 && (hi >= n || med - s[lo - 1] <= s[hi] - med))
            d = med - s[--lo];
        else
            d = s[hi++] - med;
        if (r == want_a)
            a = d;
        if (r == want_b)
            b = d;
    }
    return BH_STATS_MAD_SCALE * (a + (b - a) / 2.0);
}

int bh_stats_tukey_sorted(const double *s, size_t n, bh_stats_tukey *out)
{
    memset(out, 0, sizeof(*out));
    if (n == 0)
        return -1;
    out->q1 = bh_stats_quantile_sorted(s, n, 0.25);
    out->q3 = bh_stats_quantile_sorted(s, n, 0.75);
    out->iqr = out->q3 - out->q1;
    out->low_severe_fence = out->q1 - 3.0 * out->iqr;
    out->low_mild_fence = out->q1 - 1.5 * out->iqr;
    out->high_mild_fence = out->q3 + 1.5 * out->iqr;
    out->high_severe_fence = out->q3 + 3.0 * out->iqr;
    for (size_t i = 0; i < n; i++) {
        double v = s[i];

        if (v < out->low_severe_fence)
            out->low_severe++;
        else if (v < out->low_mild_fence)
            out->low_mild++;
        else if (v > out->high_severe_fence)
            out->high_severe++;
        else if (v > out->high_mild_fence)
            out->high_mild++;
    }
    return 0;
}
