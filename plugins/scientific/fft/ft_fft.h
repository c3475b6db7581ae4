// SPDX-License-Identifier: MIT
/*
 * ft_fft.h -- the scientific plugin's own FFT and its reference: a plain
 * iterative radix-2 Cooley-Tukey transform (complex, power-of-two sizes,
 * 1 to 3 dimensions by rows and columns, double and single precision), and
 * the direct DFT in long double that verifies any transform bin by bin.
 * No bhost or FFTW dependency: unit-tested alone.
 *
 * Layout: interleaved complex (re, im), row-major, the last dimension
 * contiguous; the forward transform X[k] = sum x[n] exp(-2 pi i k n / N),
 * unnormalised, as FFTW computes it.
 */
#ifndef FT_FFT_H
#define FT_FFT_H

#include <stddef.h>

#define FT_MAX_DIMS 3

/* A radix-2 plan: the dimensions and per-dimension twiddles. */
typedef struct ft_radix2 {
    int rank;
    size_t dims[FT_MAX_DIMS];
    size_t total;
    double *tw[FT_MAX_DIMS]; /* n/2 twiddles per dimension (double) */
    float *twf[FT_MAX_DIMS]; /* the same rounded to float */
    void *line;              /* scratch for one line of the longest dimension */
} ft_radix2;

/* Whether n is a power of two (n >= 1). */
int ft_is_pow2(size_t n);

/* Prepares p for a rank-D transform (1 to 3) of power-of-two dims. 0, or -1
 * when a size is not a power of two or memory is short (p zeroed). */
int ft_radix2_init(ft_radix2 *p, int rank, const size_t *dims);

/* Frees what p holds (a zeroed p is fine). */
void ft_radix2_free(ft_radix2 *p);

/* In-place forward transform of z (p->total interleaved complex values). */
void ft_radix2_f64(ft_radix2 *p, double *z);
void ft_radix2_f32(ft_radix2 *p, float *z);

/* One bin of the forward DFT of x (interleaved complex doubles, or real
 * doubles when x_real), rank dims, at the multi-index k; in long double
 * with exact twiddle angles. Writes re and im. O(total). */
void ft_dft_bin(const double *x, int x_real, int rank, const size_t *dims, const size_t *k,
                long double *re, long double *im);

#endif /* FT_FFT_H */
