// SPDX-License-Identifier: MIT
/*
 * be_test.h -- what the kernel tests of real backend plugins share: a
 * stub host API, loading the plugin named by an environment variable,
 * host-visible buffers, and gemm checked exactly against a host loop
 * (small integer operands, so that every sum is exact in F32). For
 * cmocka tests (include <cmocka.h> and its prerequisites first).
 */
#ifndef BH_BE_TEST_H
#define BH_BE_TEST_H

#include <bhost/plugin.h>

#include <stddef.h>
#include <stdint.h>

extern const bhost_backend *bt_be; /* set by bt_load */
extern bhost_dev *bt_dev;          /* the device the tests open */
extern char bt_last_error[512];    /* the plugin's last set_error */
extern char bt_device_line[512];   /* its last "device 0: ..." log line */

/* Loads the plugin named by $env and counts devices: 0 with one or more,
 * 77 (skip) with none where no file matches icd_glob (the ICD that would
 * provide one), -1 on failure. */
int bt_load(const char *env, const char *icd_glob);

/* Whether device 0 reports BHOST_CAP_F64. */
int bt_has_f64(void);

/* A host-visible buffer of n elements of es bytes on bt_dev; *view maps
 * it. Fails the test on error. */
bhost_buf *bt_buffer(size_t n, size_t es, void **view);

/* Element i of an F32 (es 4) or F64 (es 8) array, as double; setter. */
double bt_get(const void *p, size_t es, size_t i);
void bt_set(void *p, size_t es, size_t i, double v);

/* A small integer in [-3, 3] from index i and seed. */
double bt_pattern(size_t i, unsigned seed);

/* A gemm shape: C is m x n, the inner dimension k. */
typedef struct bt_shape {
    uint64_t m, n, k;
} bt_shape;

/* One gemm of shape s on bt_dev with transposes ta, tb, leading
 * dimensions padded by 3, alpha and beta, checked exactly against a
 * double loop; C's padding rows must keep their sentinel. */
void bt_check_gemm(const bhost_kernel_gemm *kg, bhost_dtype dt, bt_shape s,
                   uint32_t ta, uint32_t tb, double alpha, double beta);

/* bt_check_gemm over shapes[0..n) in every transpose pair, with (alpha,
 * beta) = (1, 0) and (-0.75, 0.5). */
void bt_check_gemms(bhost_dtype dt, const bt_shape *shapes, size_t n);

/* Thin gemms, the matrix-vector paths': n = 1, 2, 5, 8 with rows on
 * either side of 64 and k over several strides of 16 or 64 lanes; m <= 8
 * (C transposed) with n larger; m = n = 1; k = 0; n = 9, the first width
 * left to the tiled kernels. */
extern const bt_shape bt_thin[];
extern const size_t bt_thin_count;

/* cmocka tests on bt_dev: the thin gemms in F32, in F64 (skipped without
 * BHOST_CAP_F64), and 600001 rows (past 65535 workgroups of up to 8 rows)
 * as a column and as a row of C, F32. */
void bt_test_thin_f32(void **st);
void bt_test_thin_f64(void **st);
void bt_test_thin_tall(void **st);

#endif
