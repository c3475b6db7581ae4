// SPDX-License-Identifier: MIT
/* check-plugin's checks of the optional scientific kernel extension
 * (bhost/sci_kernels.h) on an open backend device: a table that is not
 * offered passes (the extension is optional, and has no capability bits);
 * an offered one must be at least the 1.0 size with a run function and
 * answer a small F32 problem exactly: a 4 x 5 CSR SpMV of small integers,
 * a 4-point forward FFT of integers, a 2 x 2 convolution of a 4 x 3 image
 * with stride 1 and padding 0. */
#include "check_plugin.h"

#include "host_api.h"

#include <bhost/sci_kernels.h>

#include <string.h>

/* y = A x, A 4 x 5 in CSR (row 2 empty), small integers: exact. */
static void run_spmv(bh_check_kb *k, const bhost_kernel_spmv *t)
{
    static const int32_t ptr[5] = {0, 2, 5, 5, 7};
    static const int32_t col[7] = {0, 4, 1, 2, 3, 0, 4};
    static const float val[7] = {1, -2, 3, 4, -1, 2, 5};
    static const float x[5] = {1, 2, 3, 4, 5}, want[4] = {-9, 14, 0, 27};
    float y[4] = {99, 99, 99, 99}, got[4];
    bhost_spmv_args a;
    bhost_status st = bh_check_kb_upload(k, 0, ptr, sizeof(ptr));

    if (st == BHOST_OK)
        st = bh_check_kb_upload(k, 1, col, sizeof(col));
    if (st == BHOST_OK)
        st = bh_check_kb_upload(k, 2, val, sizeof(val));
    if (st == BHOST_OK)
        st = bh_check_kb_upload(k, 3, x, sizeof(x));
    if (st == BHOST_OK)
        st = bh_check_kb_upload(k, 4, y, sizeof(y));
    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.index_type = BHOST_DTYPE_I32;
    a.rows = 4;
    a.cols = 5;
    a.nnz = 7;
    a.alpha = 1.0;
    a.beta = 0.0; /* must overwrite the 99s */
    a.row_ptr = k->buf[0];
    a.col_idx = k->buf[1];
    a.values = k->buf[2];
    a.x = k->buf[3];
    a.y = k->buf[4];
    bh_check_stage(k->fd, "kernel spmv run");
    if (st == BHOST_OK)
        st = t->run(k->dev, NULL, &a);
    if (st == BHOST_OK)
        st = bh_check_kb_download(k, 4, got, 4);
    bh_check_kb_verdict(k, st, got, want, 4);
}

/* The forward FFT of (1, 2, 3, 4): (10, 0), (-2, 2), (-2, 0), (-2, -2). */
static void run_fft(bh_check_kb *k, const bhost_kernel_fft *t)
{
    static const float in[8] = {1, 0, 2, 0, 3, 0, 4, 0};
    static const float want[8] = {10, 0, -2, 2, -2, 0, -2, -2};
    float got[8];
    bhost_fft_args a;
    bhost_status st = bh_check_kb_upload(k, 0, in, sizeof(in));

    if (st == BHOST_OK)
        st = bh_check_kb_upload(k, 1, want, sizeof(want));
    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.n = 4;
    a.batch = 1;
    a.direction = BHOST_FFT_FORWARD;
    a.in = k->buf[0];
    a.out = k->buf[1];
    bh_check_stage(k->fd, "kernel fft run");
    if (st == BHOST_OK)
        st = t->run(k->dev, NULL, &a);
    if (st == BHOST_OK)
        st = bh_check_kb_download(k, 1, got, 8);
    bh_check_kb_verdict(k, st, got, want, 8);
}

/* A 4 x 3 image (one channel) by a 2 x 2 filter: a 3 x 2 output. */
static void run_conv2d(bh_check_kb *k, const bhost_kernel_conv2d *t)
{
    static const float in[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    static const float w[4] = {1, -1, 2, 0};
    float want[6], got[6];
    bhost_conv2d_args a;
    bhost_status st;

    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 2; q++)
            want[p * 2 + q] = in[p * 3 + q] - in[p * 3 + q + 1] + 2 * in[(p + 1) * 3 + q];
    st = bh_check_kb_upload(k, 0, in, sizeof(in));
    if (st == BHOST_OK)
        st = bh_check_kb_upload(k, 1, w, sizeof(w));
    if (st == BHOST_OK)
        st = bh_check_kb_upload(k, 2, want, sizeof(want));
    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.n = a.c = a.k = a.groups = 1;
    a.h = 4;
    a.w = 3;
    a.r = a.s = 2;
    a.stride_h = a.stride_w = 1;
    a.in = k->buf[0];
    a.filter = k->buf[1];
    a.out = k->buf[2];
    bh_check_stage(k->fd, "kernel conv2d run");
    if (st == BHOST_OK)
        st = t->run(k->dev, NULL, &a);
    if (st == BHOST_OK)
        st = bh_check_kb_download(k, 2, got, 6);
    bh_check_kb_verdict(k, st, got, want, 6);
}

/* Checks one table of the extension, then runs its problem. */
static void check_one(int fd, const bhost_backend *be, bhost_dev *dev, const char *kid,
                      const char *check)
{
    bh_check_kb k;
    const void *t = bh_check_kb_table(&k, fd, check, be, dev, kid);

    if (t == NULL) {
        bh_check_report(fd, check, "PASS", "not offered (optional)");
        return;
    }
    if (!bh_check_kb_table_ok(&k, t))
        return;
    if (strcmp(kid, BHOST_KERNEL_SPMV) == 0)
        run_spmv(&k, t);
    else if (strcmp(kid, BHOST_KERNEL_FFT) == 0)
        run_fft(&k, t);
    else
        run_conv2d(&k, t);
    bh_check_kb_free(&k);
}

void bh_check_sci(int fd, const bhost_backend *be, bhost_dev *dev)
{
    check_one(fd, be, dev, BHOST_KERNEL_SPMV, "backend.kernel.spmv");
    check_one(fd, be, dev, BHOST_KERNEL_FFT, "backend.kernel.fft");
    check_one(fd, be, dev, BHOST_KERNEL_CONV2D, "backend.kernel.conv2d");
}
