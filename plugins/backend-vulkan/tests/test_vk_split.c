// SPDX-License-Identifier: MIT
/*
 * test_vk_split.c -- the kernels of the real backend-vulkan.so (loaded
 * with dlopen on the stub host API of be_test.c, BH_VK_PLUGIN names the
 * file) with the binding limit lowered to 1 KiB by BHOST_VK_MAX_RANGE, so
 * that every operand below spans several bindings: gemm in every
 * transpose pair, padded leading dimensions, alpha and beta, shapes that
 * make A, B or C the large operand (split m, n, k, and rows of one
 * column), checked exactly against a host loop, with C's padding rows
 * untouched; axpy and reduce over many pieces; a reduce too large for the
 * lowered limit refused with the one-line message; a malformed knob
 * refused at open. The thin gemms (C with 1, 2, 5 or 8 columns, or rows:
 * the matrix-vector shader) run split with subgroup sums, split with
 * shared-memory sums (BHOST_VK_SUBGROUPS=0), and on a device opened
 * without the lowered limit. Skips (77) when there is no Vulkan device
 * and no lavapipe ICD installed.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "be_test.h"

#define LIMIT "1024"

/* Opens device 0 with BHOST_VK_MAX_RANGE=limit, or unset (NULL), and
 * BHOST_VK_SUBGROUPS=subgroups. */
static int open_with(const char *limit, const char *subgroups)
{
    if (limit != NULL)
        setenv("BHOST_VK_MAX_RANGE", limit, 1);
    else
        unsetenv("BHOST_VK_MAX_RANGE");
    setenv("BHOST_VK_SUBGROUPS", subgroups, 1);
    if (bt_be->open(0, NULL, &bt_dev) != BHOST_OK) {
        fprintf(stderr, "open: %s\n", bt_last_error);
        return -1;
    }
    return 0;
}

/* Opens device 0 with the binding limit lowered to LIMIT bytes. */
static int open_limited(void **st)
{
    (void)st;
    return open_with(LIMIT, "1");
}

/* Opens device 0 split as open_limited, gemv summing rows in shared
 * memory (as on a device without subgroup arithmetic); the device line
 * must say so. */
static int open_shared(void **st)
{
    (void)st;
    if (open_with(LIMIT, "0") != 0)
        return -1;
    if (strstr(bt_device_line, "gemv rows summed by shared memory") == NULL) {
        fprintf(stderr, "BHOST_VK_SUBGROUPS=0 not in effect: %s\n",
                bt_device_line);
        return -1;
    }
    return 0;
}

/* Opens device 0 with the device's own binding limit. */
static int open_whole(void **st)
{
    (void)st;
    return open_with(NULL, "1");
}

/* Opens device 0 as open_whole, gemv summing rows in shared memory. */
static int open_whole_shared(void **st)
{
    (void)st;
    return open_with(NULL, "0");
}

static int close_dev(void **st)
{
    (void)st;
    bt_be->close(bt_dev);
    return 0;
}

/* Shapes whose A, B or C spans several 1 KiB bindings in some transpose
 * pair: long m (A transposed split along m, the engine's X W^T), long k
 * (A as stored or B transposed split along k, the pieces adding up), long
 * n (B and C split along columns), a column of A longer than one binding
 * (rows split), sizes with remainders; and k = 0 (C = beta C). */
static const bt_shape shapes[] = {
    {300, 3, 40}, {20, 7, 90}, {5, 200, 30}, {70, 33, 5},
    {600, 2, 3}, {37, 50, 29}, {9, 4, 0},
};

static void test_gemm_f32(void **st)
{
    (void)st;
    bt_check_gemms(BHOST_DTYPE_F32, shapes, sizeof(shapes) / sizeof(*shapes));
}

/* F64 where the device has it. */
static void test_gemm_f64(void **st)
{
    (void)st;
    if (!bt_has_f64())
        skip();
    bt_check_gemms(BHOST_DTYPE_F64, shapes, sizeof(shapes) / sizeof(*shapes));
}

/* y = alpha x + y over 5003 F32 elements (about 20 pieces of 1 KiB). */
static void test_axpy(void **st)
{
    const bhost_kernel_axpy *k = bt_be->get_kernel(bt_dev, BHOST_KERNEL_AXPY);
    enum { N = 5003 };
    void *hx, *hy;
    bhost_buf *x = bt_buffer(N, 4, &hx), *y = bt_buffer(N, 4, &hy);
    bhost_axpy_args a;

    (void)st;
    assert_non_null(k);
    for (size_t i = 0; i < N; i++) {
        bt_set(hx, 4, i, bt_pattern(i, 4));
        bt_set(hy, 4, i, bt_pattern(i, 5));
    }
    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.n = N;
    a.alpha = -1.5;
    a.x = x;
    a.y = y;
    assert_int_equal(k->run(bt_dev, NULL, &a), BHOST_OK);
    assert_int_equal(bt_be->stream_sync(bt_dev, NULL), BHOST_OK);
    for (size_t i = 0; i < N; i++)
        if (bt_get(hy, 4, i) != -1.5 * bt_pattern(i, 4) + bt_pattern(i, 5))
            fail_msg("axpy y[%zu] is %g", i, bt_get(hy, 4, i));
    bt_be->free(bt_dev, x);
    bt_be->free(bt_dev, y);
}

/* One reduce of x[0..n) (F32 view hx) with op; its result. */
static double reduce(const bhost_kernel_reduce *k, bhost_buf *x, uint64_t n,
                     bhost_reduce_op op, bhost_status *st)
{
    void *hr;
    bhost_buf *r = bt_buffer(1, 4, &hr);
    bhost_reduce_args a;
    double v;

    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.op = op;
    a.n = n;
    a.x = x;
    a.result = r;
    *st = k->run(bt_dev, NULL, &a);
    if (*st == BHOST_OK)
        assert_int_equal(bt_be->stream_sync(bt_dev, NULL), BHOST_OK);
    v = bt_get(hr, 4, 0);
    bt_be->free(bt_dev, r);
    return v;
}

/* Sum, min and max over 30001 F32 elements (over 100 pieces), the
 * extremes planted in a late piece; 70000 elements need more pieces than
 * partials and are refused. */
static void test_reduce(void **st)
{
    const bhost_kernel_reduce *k = bt_be->get_kernel(bt_dev, BHOST_KERNEL_REDUCE);
    enum { N = 30001, BIG = 70000 };
    void *hx;
    bhost_buf *x = bt_buffer(BIG, 4, &hx);
    bhost_status s;
    double sum = 0;

    (void)st;
    assert_non_null(k);
    for (size_t i = 0; i < BIG; i++)
        bt_set(hx, 4, i, bt_pattern(i, 6));
    bt_set(hx, 4, 29000, -9.0);
    bt_set(hx, 4, 27777, 8.0);
    for (size_t i = 0; i < N; i++)
        sum += bt_get(hx, 4, i);
    assert_true(reduce(k, x, N, BHOST_REDUCE_SUM, &s) == sum);
    assert_int_equal(s, BHOST_OK);
    assert_true(reduce(k, x, N, BHOST_REDUCE_MIN, &s) == -9.0);
    assert_int_equal(s, BHOST_OK);
    assert_true(reduce(k, x, N, BHOST_REDUCE_MAX, &s) == 8.0);
    assert_int_equal(s, BHOST_OK);
    reduce(k, x, BIG, BHOST_REDUCE_SUM, &s);
    assert_int_equal(s, BHOST_E_UNSUPPORTED);
    assert_non_null(strstr(bt_last_error, "reduce: n=70000 needs"));
    bt_be->free(bt_dev, x);
}

/* A knob that is not a byte count (or not 0 or 1) fails open with the
 * one-line reason. */
static void test_bad_knob(void **st)
{
    bhost_dev *d = NULL;

    (void)st;
    setenv("BHOST_VK_MAX_RANGE", "12k", 1);
    assert_int_equal(bt_be->open(0, NULL, &d), BHOST_E_INVALID);
    assert_non_null(strstr(bt_last_error, "BHOST_VK_MAX_RANGE=12k: expected"));
    setenv("BHOST_VK_MAX_RANGE", LIMIT, 1);
    setenv("BHOST_VK_SUBGROUPS", "yes", 1);
    assert_int_equal(bt_be->open(0, NULL, &d), BHOST_E_INVALID);
    assert_non_null(strstr(bt_last_error, "BHOST_VK_SUBGROUPS=yes: expected"));
    setenv("BHOST_VK_SUBGROUPS", "1", 1);
}

int main(void)
{
    const struct CMUnitTest split[] = {
        cmocka_unit_test(test_gemm_f32),    cmocka_unit_test(test_gemm_f64),
        cmocka_unit_test(bt_test_thin_f32), cmocka_unit_test(bt_test_thin_f64),
        cmocka_unit_test(test_axpy),        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_bad_knob),
    };
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(bt_test_thin_f32),
        cmocka_unit_test(bt_test_thin_f64),
    };
    const struct CMUnitTest whole[] = {
        cmocka_unit_test(bt_test_thin_f32),
        cmocka_unit_test(bt_test_thin_f64),
        cmocka_unit_test(bt_test_thin_tall),
    };
    const struct CMUnitTest whole_shared[] = {
        cmocka_unit_test(bt_test_thin_tall),
    };
    int rc = bt_load("BH_VK_PLUGIN", "/usr/share/vulkan/icd.d/lvp_icd*.json");

    if (rc != 0)
        return rc == 77 ? 77 : 1;
    rc = cmocka_run_group_tests_name("split", split, open_limited, close_dev);
    rc |= cmocka_run_group_tests_name("shared", shared, open_shared,
                                      close_dev);
    rc |= cmocka_run_group_tests_name("whole", whole, open_whole, close_dev);
    return rc | cmocka_run_group_tests_name("whole, shared memory",
                                            whole_shared, open_whole_shared,
                                            close_dev);
}
