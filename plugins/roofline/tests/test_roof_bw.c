// SPDX-License-Identifier: MIT
/* The bandwidth kernels of every variant this CPU runs, against plain
 * references: the read sum exactly, every element of write and triad, and
 * nothing stored outside [0, n). */
#include "test_roof.h"

#include "roof_bw.h"

#include <stdlib.h>
#include <string.h>

/* Lengths around the vector and unroll widths, and an empty slice. */
static const size_t lengths[] = {0, 1, 7, 8, 63, 64, 65, 200, 1003, 4096};

/* A guard value no kernel stores. */
#define GUARD -7.25

/* Small integers 0..15 from i and salt. */
static double small_int(size_t i, unsigned salt)
{
    return (double)((i * 2654435761u + salt * 40503u) >> 7 & 15);
}

/* A buffer of n doubles with a guard on each side; returns the interior. */
static double *guarded(size_t n)
{
    double *p = malloc((n + 2) * sizeof(double));

    assert_non_null(p);
    for (size_t i = 0; i < n + 2; i++)
        p[i] = GUARD;
    return p + 1;
}

static void release(double *interior, size_t n)
{
    assert_true(interior[-1] == GUARD);
    assert_true(interior[n] == GUARD);
    free(interior - 1);
}

/* Runs check(k, n) for every variant this CPU runs and every length. */
static void each_variant_and_length(void (*check)(const roof_bw_kernels *k, size_t n))
{
    for (unsigned v = 0; v < roof_bw_variant_count(); v++) {
        const roof_bw_kernels *k = roof_bw_variant(v);

        for (size_t li = 0; k != NULL && li < sizeof(lengths) / sizeof(lengths[0]); li++)
            check(k, lengths[li]);
    }
}

/* The sum of the last pass, exactly; 0 without a pass. */
static void check_read(const roof_bw_kernels *k, size_t n)
{
    double *a = guarded(n);
    uint64_t want = 0;

    for (size_t i = 0; i < n; i++) {
        a[i] = small_int(i, 1);
        want += (uint64_t)a[i];
    }
    assert_true(k->read(a, n, 0) == 0.0);
    if (k->read(a, n, 3) != (double)want)
        fail_msg("%s read n=%zu: %g, expected %llu", k->isa, n, k->read(a, n, 3),
                 (unsigned long long)want);
    release(a, n);
}

/* Every element holds the number of passes. */
static void check_write(const roof_bw_kernels *k, size_t n)
{
    double *a = guarded(n);

    k->write(a, n, 5);
    for (size_t i = 0; i < n; i++)
        if (a[i] != 5.0)
            fail_msg("%s write n=%zu: a[%zu] = %g", k->isa, n, i, a[i]);
    release(a, n);
}

/* Every element is b + 3 c. */
static void check_triad(const roof_bw_kernels *k, size_t n)
{
    double *a = guarded(n), *b = guarded(n), *c = guarded(n);

    for (size_t i = 0; i < n; i++) {
        b[i] = small_int(i, 2);
        c[i] = small_int(i, 3);
    }
    k->triad(a, b, c, 3.0, n, 2);
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i] + 3.0 * c[i])
            fail_msg("%s triad n=%zu: a[%zu] = %g", k->isa, n, i, a[i]);
    release(a, n);
    release(b, n);
    release(c, n);
}

static void read_sums(void **state)
{
    (void)state;
    each_variant_and_length(check_read);
}

static void write_fills(void **state)
{
    (void)state;
    each_variant_and_length(check_write);
}

static void triad_stores(void **state)
{
    (void)state;
    each_variant_and_length(check_triad);
}

/* The best variant is one this CPU runs, and the portable one always is. */
static void best_runs_here(void **state)
{
    (void)state;
    assert_non_null(roof_bw_variant(0));
    assert_string_equal(roof_bw_variant(0)->isa, "portable");
    assert_non_null(roof_bw_best());
    assert_null(roof_bw_variant(roof_bw_variant_count()));
#if defined(ROOF_HAVE_X86)
    if (__builtin_cpu_supports("avx512f"))
        assert_string_equal(roof_bw_best()->isa, "avx512");
#endif
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(read_sums),
    cmocka_unit_test(write_fills),
    cmocka_unit_test(triad_stores),
    cmocka_unit_test(best_runs_here),
};

size_t test_roof_bw_group(const struct CMUnitTest **out)
{
    *out = tests;
    return sizeof(tests) / sizeof(tests[0]);
}
