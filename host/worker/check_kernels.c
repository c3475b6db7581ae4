// SPDX-License-Identifier: MIT
/* Kernel checks of an open backend device: for each kernel id of ABI 1.0,
 * the table's presence agrees with the capability bit, its size is at
 * least 1.0, and a small F32 problem with an exact answer comes back
 * right; then the scientific extension's tables (check_sci.c). */
#include "check_plugin.h"

#include "host_api.h"

#include <stdio.h>
#include <string.h>

typedef bh_check_kb kbufs;

bhost_status bh_check_kb_upload(bh_check_kb *k, int slot, const void *src,
                                size_t bytes)
{
    bhost_status st = k->be->alloc(k->dev, bytes, BHOST_MEM_DEVICE,
                                   &k->buf[slot]);

    if (st == BHOST_OK)
        st = k->be->copy_h2d(k->dev, NULL, k->buf[slot], 0, src, bytes);
    return st;
}

/* Allocates a device buffer holding n floats copied from src. */
static bhost_status upload(kbufs *k, int slot, const float *src, size_t n)
{
    return bh_check_kb_upload(k, slot, src, n * sizeof(float));
}

bhost_status bh_check_kb_download(bh_check_kb *k, int slot, float *dst,
                                  size_t n)
{
    bhost_status st = k->be->stream_sync(k->dev, NULL);

    if (st == BHOST_OK)
        st = k->be->copy_d2h(k->dev, NULL, dst, k->buf[slot], 0,
                             n * sizeof(float));
    if (st == BHOST_OK)
        st = k->be->stream_sync(k->dev, NULL);
    return st;
}

void bh_check_kb_verdict(bh_check_kb *k, bhost_status st, const float *got,
                         const float *want, size_t n)
{
    if (st == BHOST_E_UNSUPPORTED) {
        bh_check_report(k->fd, k->id, "WARN",
                        "F32 problem unsupported: %s", bh_check_last_error());
        return;
    }
    if (st != BHOST_OK) {
        bh_check_report(k->fd, k->id, "FAIL", "returned %d: %s", st,
                        bh_check_last_error());
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            bh_check_report(k->fd, k->id, "FAIL",
                            "element %zu is %g, expected exactly %g", i,
                            (double)got[i], (double)want[i]);
            return;
        }
    }
    bh_check_report(k->fd, k->id, "PASS", "F32 result exact (%zu values)", n);
}

/* y = 0.5 x + y over 257 small integers: exact in F32. */
static void run_axpy(kbufs *k, const bhost_kernel_axpy *t)
{
    enum { N = 257 };
    float x[N], y[N], want[N], got[N];
    bhost_axpy_args a;
    bhost_status st;

    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 7 - 3);
        y[i] = (float)(i % 5);
        want[i] = 0.5f * x[i] + y[i];
    }
    st = upload(k, 0, x, N);
    if (st == BHOST_OK)
        st = upload(k, 1, y, N);
    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.n = N;
    a.alpha = 0.5;
    a.x = k->buf[0];
    a.y = k->buf[1];
    bh_check_stage(k->fd, "kernel axpy run");
    if (st == BHOST_OK)
        st = t->run(k->dev, NULL, &a);
    if (st == BHOST_OK)
        st = bh_check_kb_download(k, 1, got, N);
    bh_check_kb_verdict(k, st, got, want, N);
}

/* The sum of 1000 small integers into result[0]: exact in F32. */
static void run_reduce(kbufs *k, const bhost_kernel_reduce *t)
{
    enum { N = 1000 };
    float x[N], zero = 0, got = -1, want = 0;
    bhost_reduce_args a;
    bhost_status st;

    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 10);
        want += x[i];
    }
    st = upload(k, 0, x, N);
    if (st == BHOST_OK)
        st = upload(k, 1, &zero, 1);
    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.op = BHOST_REDUCE_SUM;
    a.n = N;
    a.x = k->buf[0];
    a.result = k->buf[1];
    bh_check_stage(k->fd, "kernel reduce run");
    if (st == BHOST_OK)
        st = t->run(k->dev, NULL, &a);
    if (st == BHOST_OK)
        st = bh_check_kb_download(k, 1, &got, 1);
    bh_check_kb_verdict(k, st, &got, &want, 1);
}

/* C(3x2) = A(3x4) B(4x2), column-major small integers: exact in F32. */
static void run_gemm(kbufs *k, const bhost_kernel_gemm *t)
{
    enum { M = 3, N = 2, K = 4 };
    float a[M * K], b[K * N], c[M * N], want[M * N], got[M * N];
    bhost_gemm_args g;
    bhost_status st;

    for (int i = 0; i < M * K; i++)
        a[i] = (float)(i % 5 - 2);
    for (int i = 0; i < K * N; i++)
        b[i] = (float)(i % 3 + 1);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int l = 0; l < K; l++)
                s += a[i + l * M] * b[l + j * K];
            want[i + j * M] = s;
            c[i + j * M] = 99.0f; /* beta = 0 must overwrite it */
        }
    st = upload(k, 0, a, M * K);
    if (st == BHOST_OK)
        st = upload(k, 1, b, K * N);
    if (st == BHOST_OK)
        st = upload(k, 2, c, M * N);
    memset(&g, 0, sizeof(g));
    g.struct_size = sizeof(g);
    g.a_type = g.b_type = g.c_type = g.compute_type = BHOST_DTYPE_F32;
    g.m = M;
    g.n = N;
    g.k = K;
    g.lda = M;
    g.ldb = K;
    g.ldc = M;
    g.alpha = 1.0;
    g.beta = 0.0;
    g.a = k->buf[0];
    g.b = k->buf[1];
    g.c = k->buf[2];
    bh_check_stage(k->fd, "kernel gemm run");
    if (st == BHOST_OK)
        st = t->run(k->dev, NULL, &g);
    if (st == BHOST_OK)
        st = bh_check_kb_download(k, 2, got, M * N);
    bh_check_kb_verdict(k, st, got, want, M * N);
}

const void *bh_check_kb_table(bh_check_kb *k, int fd, const char *check,
                              const bhost_backend *be, bhost_dev *dev,
                              const char *kid)
{
    memset(k, 0, sizeof(*k));
    k->fd = fd;
    k->id = check;
    k->be = be;
    k->dev = dev;
    bh_host_api_clear_error();
    bh_check_stage(fd, "get_kernel");
    return be->get_kernel(dev, kid);
}

int bh_check_kb_table_ok(bh_check_kb *k, const void *t)
{
    /* every kernel table is {struct_size, reserved, run} in 1.0 */
    const bhost_kernel_axpy *head = t;

    if (head->struct_size >= offsetof(bhost_kernel_axpy, run) + sizeof(void *) &&
        head->run)
        return 1;
    bh_check_report(k->fd, k->id, "FAIL",
                    "table struct_size %u below the 1.0 size, or run is NULL",
                    head->struct_size);
    return 0;
}

/* Checks one kernel id against its capability bit, then runs it. */
static void check_kernel(int fd, const bhost_backend *be, bhost_dev *dev,
                         const char *kid, const char *check, bhost_caps bit,
                         bhost_caps caps)
{
    kbufs k;
    const void *t = bh_check_kb_table(&k, fd, check, be, dev, kid);

    if (!t) {
        bh_check_report(fd, check, (caps & bit) ? "FAIL" : "PASS",
                        (caps & bit) ? "device caps promise it, get_kernel "
                                       "returned NULL"
                                     : "not offered (and not in caps)");
        return;
    }
    if (!bh_check_kb_table_ok(&k, t))
        return;
    if (!(caps & bit))
        bh_check_report(fd, check, "WARN",
                        "offered but the device caps lack its "
                        "BHOST_CAP_KERNEL_* bit (cases needing it are "
                        "filtered out)");
    else if (strcmp(kid, BHOST_KERNEL_AXPY) == 0)
        run_axpy(&k, t);
    else if (strcmp(kid, BHOST_KERNEL_REDUCE) == 0)
        run_reduce(&k, t);
    else
        run_gemm(&k, t);
    bh_check_kb_free(&k);
}

void bh_check_kb_free(bh_check_kb *k)
{
    bh_check_stage(k->fd, "free kernel buffers");
    for (int i = 0; i < 5; i++)
        if (k->buf[i]) {
            k->be->free(k->dev, k->buf[i]);
            k->buf[i] = NULL;
        }
}

void bh_check_kernels(int fd, const bhost_backend *be, bhost_dev *dev,
                      bhost_caps caps)
{
    check_kernel(fd, be, dev, BHOST_KERNEL_GEMM, "backend.kernel.gemm",
                 BHOST_CAP_KERNEL_GEMM, caps);
    check_kernel(fd, be, dev, BHOST_KERNEL_AXPY, "backend.kernel.axpy",
                 BHOST_CAP_KERNEL_AXPY, caps);
    check_kernel(fd, be, dev, BHOST_KERNEL_REDUCE, "backend.kernel.reduce",
                 BHOST_CAP_KERNEL_REDUCE, caps);
    bh_check_sci(fd, be, dev);
}
