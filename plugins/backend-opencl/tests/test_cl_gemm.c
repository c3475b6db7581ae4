// SPDX-License-Identifier: MIT
/*
 * test_cl_gemm.c -- gemm of the real backend-opencl.so (loaded with
 * dlopen on the stub host API of be_test.c, BH_CL_PLUGIN names the file):
 * the thin gemms of bh_gemv (C with 1, 2, 5 or 8 columns, or rows, both
 * row-summing and row-walking, in every transpose pair) and a few shapes
 * left to the tiled kernel, alpha and beta, F32 and F64 where the device
 * has fp64, and 600001 rows; each checked exactly against a host loop
 * with C's padding rows untouched. Skips (77) when there is no OpenCL
 * device and no PoCL ICD installed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "be_test.h"

/* Shapes for the tiled kernel: remainders on every side; k = 0. */
static const bt_shape tiled[] = {{37, 50, 29}, {70, 33, 5}, {9, 12, 0}};

static int open_dev(void **st)
{
    (void)st;
    return bt_be->open(0, NULL, &bt_dev) == BHOST_OK ? 0 : -1;
}

static int close_dev(void **st)
{
    (void)st;
    bt_be->close(bt_dev);
    return 0;
}

static void test_tiled(void **st)
{
    (void)st;
    bt_check_gemms(BHOST_DTYPE_F32, tiled, sizeof(tiled) / sizeof(*tiled));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bt_test_thin_f32), cmocka_unit_test(bt_test_thin_f64),
        cmocka_unit_test(test_tiled),       cmocka_unit_test(bt_test_thin_tall),
    };
    int rc = bt_load("BH_CL_PLUGIN", "/etc/OpenCL/vendors/pocl*.icd");

    if (rc != 0)
        return rc == 77 ? 77 : 1;
    return cmocka_run_group_tests(tests, open_dev, close_dev);
}
