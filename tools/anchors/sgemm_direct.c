// SPDX-License-Identifier: MIT
/*
 * sgemm_direct.c -- the anchor bhost's matmul is compared with: OpenBLAS
 * sgemm called directly in a plain C loop, no bhost involved.
 *
 *   sgemm_direct [N [THREADS [SECONDS]]]     defaults: 1024, all CPUs, 3
 *
 * C = A B for N x N column-major f32 matrices with A and B uniform in
 * [-1, 1), beta = 0, the same call the CPU backend's gemm kernel makes.
 * Each sample times enough back-to-back calls to last >= 10 ms; samples
 * are taken for SECONDS after a 0.5 s warm-up. Prints the median and best
 * GFLOP/s (2 N^3 per call) and the OpenBLAS configuration.
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* CLOCK_MONOTONIC in seconds. */
static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Ascending order for qsort. */
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* CPUs this process may run on. */
static int all_cpus(void)
{
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 1;
    return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int threads = argc > 2 ? atoi(argv[2]) : 0;
    double seconds = argc > 3 ? atof(argv[3]) : 3.0;
    double flop, t0, per_call = 0.0, *rates;
    size_t nn, cap = 100000, count = 0;
    float *a, *b, *c;
    uint64_t s = 88172645463325252ull;
    int calls = 1;

    if (n < 1 || n > 32768 || threads < 0 || !(seconds > 0)) {
        fprintf(stderr, "usage: sgemm_direct [N [THREADS [SECONDS]]]\n");
        return 2;
    }
    if (threads == 0)
        threads = all_cpus();
    openblas_set_num_threads(threads);
    nn = (size_t)n * (size_t)n;
    a = malloc(nn * sizeof(float));
    b = malloc(nn * sizeof(float));
    c = calloc(nn, sizeof(float));
    rates = malloc(cap * sizeof(double));
    if (!a || !b || !c || !rates) {
        fprintf(stderr, "sgemm_direct: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < nn; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        a[i] = (float)((double)(s >> 40) * 0x1p-23 - 1.0);
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        b[i] = (float)((double)(s >> 40) * 0x1p-23 - 1.0);
    }
    flop = 2.0 * (double)n * (double)n * (double)n;
    /* Warm-up, and the number of calls per >= 10 ms sample. */
    t0 = now_s();
    while (now_s() - t0 < 0.5) {
        double t1 = now_s();

        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a,
                    n, b, n, 0.0f, c, n);
        per_call = now_s() - t1;
    }
    calls = per_call > 0.01 ? 1 : (int)(0.01 / per_call) + 1;
    t0 = now_s();
    while (now_s() - t0 < seconds && count < cap) {
        double t1 = now_s();

        for (int i = 0; i < calls; i++)
            cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                        a, n, b, n, 0.0f, c, n);
        rates[count++] = flop * calls / (now_s() - t1);
    }
    qsort(rates, count, sizeof(double), cmp);
    printf("sgemm_direct: n=%d threads=%d samples=%zu calls/sample=%d\n", n,
           threads, count, calls);
    printf("  %s (core %s)\n", openblas_get_config(), openblas_get_corename());
    printf("  median %.1f GFLOP/s (%.3f ms/call), best %.1f GFLOP/s\n",
           rates[count / 2] * 1e-9, flop / rates[count / 2] * 1e3,
           rates[count - 1] * 1e-9);
    printf("  c[0] = %g\n", (double)c[0]);
    free(a);
    free(b);
    free(c);
    free(rates);
    return 0;
}
