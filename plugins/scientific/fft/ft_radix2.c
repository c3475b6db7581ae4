// SPDX-License-Identifier: MIT
/*
 * ft_radix2.c -- the plain radix-2 FFT (plan, twiddles, the transform in
 * double and single precision from ft_radix2_body.h) and the long-double
 * direct DFT that verifies every FFT of the plugin.
 */
#include "ft_fft.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ft_is_pow2(size_t n)
{
    return n >= 1 && (n & (n - 1)) == 0;
}

void ft_radix2_free(ft_radix2 *p)
{
    for (int a = 0; a < FT_MAX_DIMS; a++) {
        free(p->tw[a]);
        free(p->twf[a]);
    }
    free(p->line);
    memset(p, 0, sizeof(*p));
}

int ft_radix2_init(ft_radix2 *p, int rank, const size_t *dims)
{
    size_t longest = 1;

    memset(p, 0, sizeof(*p));
    if (rank < 1 || rank > FT_MAX_DIMS)
        return -1;
    p->rank = rank;
    p->total = 1;
    for (int a = 0; a < rank; a++) {
        size_t n = dims[a], half = n / 2 ? n / 2 : 1;

        if (!ft_is_pow2(n))
            goto fail;
        p->dims[a] = n;
        p->total *= n;
        longest = n > longest ? n : longest;
        p->tw[a] = malloc(2 * half * sizeof(double));
        p->twf[a] = malloc(2 * half * sizeof(float));
        if (!p->tw[a] || !p->twf[a])
            goto fail;
        for (size_t k = 0; k < half; k++) {
            long double ang =
                -2.0L * 3.141592653589793238462643383279503L * (long double)k / (long double)n;

            p->tw[a][2 * k] = (double)cosl(ang);
            p->tw[a][2 * k + 1] = (double)sinl(ang);
            p->twf[a][2 * k] = (float)cosl(ang);
            p->twf[a][2 * k + 1] = (float)sinl(ang);
        }
    }
    if (!(p->line = malloc(2 * longest * sizeof(double))))
        goto fail;
    return 0;
fail:
    ft_radix2_free(p);
    return -1;
}

#define FT_T    double
#define FT_TW   tw
#define FT_NAME f64
#include "ft_radix2_body.h"
#undef FT_T
#undef FT_TW
#undef FT_NAME

#define FT_T    float
#define FT_TW   twf
#define FT_NAME f32
#include "ft_radix2_body.h"
#undef FT_T
#undef FT_TW
#undef FT_NAME

/* exp(-2 pi i m / n) for m in [0, n): the twiddle table of one dimension of
 * the direct DFT, in long double. NULL when out of memory. */
static long double *dft_table(size_t n)
{
    long double *t = malloc(2 * n * sizeof(*t));

    for (size_t m = 0; t && m < n; m++) {
        long double ang =
            -2.0L * 3.141592653589793238462643383279503L * (long double)m / (long double)n;

        t[2 * m] = cosl(ang);
        t[2 * m + 1] = sinl(ang);
    }
    return t;
}

void ft_dft_bin(const double *x, int x_real, int rank, const size_t *dims, const size_t *k,
                long double *re, long double *im)
{
    size_t d[FT_MAX_DIMS] = {1, 1, 1}, kk[FT_MAX_DIMS] = {0, 0, 0};
    long double *t[FT_MAX_DIMS] = {NULL, NULL, NULL}, sr = 0.0L, si = 0.0L;
    size_t idx = 0;

    /* pad to three dimensions at the front: a 1-D transform is 1 x 1 x n */
    for (int a = 0; a < rank; a++) {
        d[FT_MAX_DIMS - rank + a] = dims[a];
        kk[FT_MAX_DIMS - rank + a] = k[a];
    }
    for (int a = 0; a < FT_MAX_DIMS; a++)
        if (!(t[a] = dft_table(d[a])))
            goto out;
    for (size_t i0 = 0; i0 < d[0]; i0++) {
        const long double *w0 = t[0] + 2 * ((kk[0] * i0) % d[0]);

        for (size_t i1 = 0; i1 < d[1]; i1++) {
            const long double *w1 = t[1] + 2 * ((kk[1] * i1) % d[1]);
            long double ar = w0[0] * w1[0] - w0[1] * w1[1], ai = w0[0] * w1[1] + w0[1] * w1[0];

            for (size_t i2 = 0; i2 < d[2]; i2++, idx++) {
                const long double *w2 = t[2] + 2 * ((kk[2] * i2) % d[2]);
                long double wr = ar * w2[0] - ai * w2[1], wi = ar * w2[1] + ai * w2[0];
                long double xr = x_real ? x[idx] : x[2 * idx], xi = x_real ? 0.0L : x[2 * idx + 1];

                sr += xr * wr - xi * wi;
                si += xr * wi + xi * wr;
            }
        }
    }
out:
    for (int a = 0; a < FT_MAX_DIMS; a++)
        free(t[a]);
    *re = sr;
    *im = si;
}
