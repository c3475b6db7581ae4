// SPDX-License-Identifier: MIT
/*
 * test_fft.c -- the plugin's radix-2 FFT and its long-double DFT
 * reference: the DFT of known signals (an impulse, a constant, a pure
 * tone) is exact to rounding, and the radix-2 of random data in 1, 2 and
 * 3 dimensions, double and single precision, matches the direct DFT in
 * every bin; sizes that are not powers of two are refused.
 */
#include "ft_fft.h"

#include "sci_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Known transforms: an impulse at 0 gives all ones, a constant c gives
 * N c at bin 0 and nothing elsewhere, exp(2 pi i 3 n / N) gives N at bin 3. */
static void test_dft_known(void)
{
    enum { N = 16 };
    double x[2 * N];
    size_t dims[1] = {N}, k[1];
    long double re, im;

    memset(x, 0, sizeof(x));
    x[0] = 1.0;
    for (k[0] = 0; k[0] < N; k[0]++) {
        ft_dft_bin(x, 0, 1, dims, k, &re, &im);
        CHECK(fabsl(re - 1.0L) < 1e-15L && fabsl(im) < 1e-15L, "impulse bin %zu", k[0]);
    }
    for (int n = 0; n < N; n++) {
        x[2 * n] = cos(2 * M_PI * 3 * n / N);
        x[2 * n + 1] = sin(2 * M_PI * 3 * n / N);
    }
    for (k[0] = 0; k[0] < N; k[0]++) {
        ft_dft_bin(x, 0, 1, dims, k, &re, &im);
        CHECK(fabsl(re - (k[0] == 3 ? N : 0)) < 1e-13L && fabsl(im) < 1e-13L, "tone bin %zu: %Lg",
              k[0], re);
    }
    for (int n = 0; n < N; n++)
        x[n] = 0.5; /* real input */
    k[0] = 0;
    ft_dft_bin(x, 1, 1, dims, k, &re, &im);
    CHECK(fabsl(re - 8.0L) < 1e-15L, "real constant bin 0: %Lg", re);
}

/* The radix-2 of random data against the DFT in every bin. */
static void check_radix2(int rank, const size_t *dims, int f32)
{
    ft_radix2 p;
    size_t total = 1, k[FT_MAX_DIMS];
    double *x, *z, worst = 0.0, norm = 0.0;
    float *zf;

    CHECK(ft_radix2_init(&p, rank, dims) == 0, "init rank %d", rank);
    total = p.total;
    x = malloc(2 * total * sizeof(double));
    z = malloc(2 * total * sizeof(double));
    zf = malloc(2 * total * sizeof(float));
    srand(5);
    for (size_t i = 0; i < 2 * total; i++) {
        zf[i] = (float)(2.0 * rand() / RAND_MAX - 1.0);
        x[i] = z[i] = zf[i];
        norm += x[i] * x[i];
    }
    if (f32)
        ft_radix2_f32(&p, zf);
    else
        ft_radix2_f64(&p, z);
    for (size_t b = 0; b < total; b++) {
        long double re, im;
        size_t r = b;

        for (int a = rank - 1; a >= 0; a--) {
            k[a] = r % dims[a];
            r /= dims[a];
        }
        ft_dft_bin(x, 0, rank, dims, k, &re, &im);
        double gr = f32 ? zf[2 * b] : z[2 * b], gi = f32 ? zf[2 * b + 1] : z[2 * b + 1];
        double e = hypot(gr - (double)re, gi - (double)im) / sqrt(norm);

        worst = e > worst ? e : worst;
    }
    CHECK(worst < (f32 ? 1e-6 : 1e-14), "rank %d %s: worst error %g of ||x||", rank,
          f32 ? "f32" : "f64", worst);
    free(x);
    free(z);
    free(zf);
    ft_radix2_free(&p);
}

static void test_radix2(void)
{
    size_t d1[1] = {256}, d2[2] = {16, 32}, d3[3] = {8, 4, 16}, bad[2] = {16, 12};
    ft_radix2 p;

    for (int f32 = 0; f32 <= 1; f32++) {
        check_radix2(1, d1, f32);
        check_radix2(2, d2, f32);
        check_radix2(3, d3, f32);
    }
    CHECK(ft_radix2_init(&p, 2, bad) == -1, "16x12 refused");
    CHECK(p.tw[0] == NULL && p.line == NULL, "refused plan left nothing");
    CHECK(ft_is_pow2(1) && ft_is_pow2(1024) && !ft_is_pow2(0) && !ft_is_pow2(1000), "pow2");
}

int main(void)
{
    test_dft_known();
    test_radix2();
    return check_summary("fft library");
}
