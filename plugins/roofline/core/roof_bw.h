// SPDX-License-Identifier: MIT
/*
 * roof_bw.h -- the bandwidth kernels of the bw ceiling, each over one
 * thread's slice of doubles, repeated `passes` times with a compiler
 * barrier between passes (so that no pass is merged with or hoisted out
 * of another): read (a sum), write (a fill) and triad (a = b + s c).
 * A portable C set, and an AVX-512 set on x86 CPUs that have AVX-512F.
 *
 * Reentrant: the kernels touch only their arguments.
 */
#ifndef ROOF_BW_H
#define ROOF_BW_H

#include <stddef.h>
#include <stdint.h>

typedef struct roof_bw_kernels {
    const char *isa; /* "avx512", "portable" */
    /* The sum of a[0..n) of the last pass (0 when passes is 0); exact
     * when every partial sum is an integer below 2^53. */
    double (*read)(const double *a, size_t n, uint64_t passes);
    /* Pass p (from 0) stores p + 1 into every a[0..n): afterwards every
     * element is `passes`. */
    void (*write)(double *a, size_t n, uint64_t passes);
    /* Every pass stores b[i] + s * c[i] into a[i] for i in [0, n). */
    void (*triad)(double *a, const double *b, const double *c, double s, size_t n, uint64_t passes);
} roof_bw_kernels;

/* The kernels this build has: 1 (portable) or 2 (portable, avx512). */
unsigned roof_bw_variant_count(void);

/* Variant i (0 = portable), or NULL when i is out of range or this CPU
 * cannot run it. Static data. */
const roof_bw_kernels *roof_bw_variant(unsigned i);

/* The fastest variant this CPU runs. Static data. */
const roof_bw_kernels *roof_bw_best(void);

#if defined(ROOF_HAVE_X86)
/* The AVX-512 set (roof_bw_avx512.c); only on a CPU with AVX-512F. */
extern const roof_bw_kernels roof_bw_avx512;
#endif

#endif
