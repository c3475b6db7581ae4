// SPDX-License-Identifier: MIT
/*
 * bench_webgpu.c -- webgpu.axpy, webgpu.dot, webgpu.sgemm: the "webgpu"
 * backend of the seed as the Vulkan backend (what WebGPU implementations
 * run on under Linux) driven through bhost.backend/1 and held to WebGPU's
 * default limits: every kernel's workgroup within maxComputeWorkgroupSize
 * X/Y 256, Z 64 and maxComputeInvocationsPerWorkgroup 256 (sizes read from
 * backend-vulkan's shader sources at build time), at most 65535 workgroups
 * per dimension, every bound buffer within maxStorageBufferBindingSize
 * (128 MiB) and maxBufferSize (256 MiB), f32 only (WebGPU has no f16 in
 * shaders unless "shader-f16" is requested; it is not). A case outside the
 * limits is skipped with the limit it breaks; a backend other than vulkan
 * is skipped. The host times run() with the backend's timestamp events.
 *
 * Kernels: axpy y = 2^-12 x + y (in place, the backend's axpy); dot as a
 * 1 x 1 x n gemm; sgemm row-major C = A B as the column-major C^T = B^T
 * A^T. The backend offers no softmax or int8 kernel through the ABI, so
 * kernel.softmax and kernel.qmatmul have no webgpu case.
 *
 * Counting: axpy 2n flops, 12n bytes; dot 2n, 8n; sgemm 2mnk, 4(mk + kn +
 * mn). Work profile: f32, the counted bytes, read for dot, read-write for
 * axpy and sgemm, threads unknown (the device's), so each case is held
 * against its device's ceilings.
 */
#include "ws.h"

#include "webgpu_wg.h"
#include "wk.h"

#include <math.h>
#include <string.h>

#define U32 (1.0 / 16777216.0)
#define WG_MAX_X 256u
#define WG_MAX_Y 256u
#define WG_MAX_Z 64u
#define WG_MAX_INVOCATIONS 256u
#define WG_MAX_COUNT 65535u
#define MAX_BINDING (UINT64_C(128) << 20)
#define MAX_BUFFER (UINT64_C(256) << 20)

enum { G_AXPY, G_DOT, G_SGEMM };
static const char *const gpu_names[] = {"axpy", "dot", "sgemm"};

typedef struct ginst {
    bhost_host *h;
    const bhost_backend *be;
    bhost_dev *dev;
    int kind;
    uint32_t m, n, k;
    float alpha, native_dot;
    const bhost_kernel_gemm *gemm;
    const bhost_kernel_axpy *axpy;
    bhost_buf *bx, *by, *bc;
    float *x, *y, *c, *native;
    size_t x_bytes, y_bytes, c_bytes;
    double flops, bytes, items;
} ginst;

static const bhost_param_desc axpy_params[] = {
    BH_PARAM_I64("n", "Elements", "1048576", 1, 1 << 26),
};
static const bhost_param_desc dot_params[] = {
    BH_PARAM_I64("n", "Elements", "65536", 1, 1 << 26),
};
static const bhost_param_desc mm_params[] = {
    BH_PARAM_I64("m", "Rows of A and C", "128", 1, 4096),
    BH_PARAM_I64("n", "Columns of B and C", "128", 1, 4096),
    BH_PARAM_I64("k", "Inner dimension", "128", 1, 4096),
};

static void BHOST_ABI g_destroy(void *inst);

/* NULL when a workgroup of x*y*z fits WebGPU's defaults, else the limit. */
static const char *wg_violation(unsigned x, unsigned y, unsigned z)
{
    if (x > WG_MAX_X)
        return "maxComputeWorkgroupSizeX (256)";
    if (y > WG_MAX_Y)
        return "maxComputeWorkgroupSizeY (256)";
    if (z > WG_MAX_Z)
        return "maxComputeWorkgroupSizeZ (64)";
    if ((uint64_t)x * y * z > WG_MAX_INVOCATIONS)
        return "maxComputeInvocationsPerWorkgroup (256)";
    return NULL;
}

/* Checks the kernel's workgroup, workgroup counts and buffer sizes
 * against WebGPU's defaults; BHOST_E_SKIP naming the limit otherwise.
 * Reports the figures it checked. */
static bhost_status check_limits(ginst *d)
{
    unsigned x = d->kind == G_AXPY ? WSIM_WG_AXPY_X : WSIM_WG_GEMM_X;
    unsigned y = d->kind == G_AXPY ? WSIM_WG_AXPY_Y : WSIM_WG_GEMM_Y;
    unsigned z = d->kind == G_AXPY ? WSIM_WG_AXPY_Z : WSIM_WG_GEMM_Z;
    const char *bad = wg_violation(x, y, z);
    size_t biggest = d->x_bytes > d->y_bytes ? d->x_bytes : d->y_bytes;

    biggest = d->c_bytes > biggest ? d->c_bytes : biggest;
    if (bad != NULL)
        return ws_fail(d->h, BHOST_E_SKIP,
                       "webgpu.%s: the backend's %ux%ux%u workgroup exceeds "
                       "WebGPU's %s", gpu_names[d->kind], x, y, z, bad);
    if (biggest > MAX_BINDING || biggest > MAX_BUFFER)
        return ws_fail(d->h, BHOST_E_SKIP,
                       "webgpu.%s: a %zu-byte buffer exceeds WebGPU's "
                       "maxStorageBufferBindingSize (134217728)",
                       gpu_names[d->kind], biggest);
    if (d->kind == G_SGEMM &&
        ((d->m > d->n ? d->m : d->n) + x - 1) / x > WG_MAX_COUNT)
        return ws_fail(d->h, BHOST_E_SKIP,
                       "webgpu.%s: more than 65535 workgroups in a dimension "
                       "(maxComputeWorkgroupsPerDimension)",
                       gpu_names[d->kind]);
    bh_plugin_metric_info(d->h, "webgpu.workgroup_invocations", "", (double)x * y * z);
    bh_plugin_metric_info(d->h, "webgpu.max_binding_bytes", "B", (double)biggest);
    bh_plugin_metric_info(d->h, "webgpu.shader_f16", "", 0.0);
    return BHOST_OK;
}

/* create() of the three: parameters, backend, kernels, limits. */
static bhost_status g_create(bhost_host *h, const bhost_backend *be,
                             bhost_dev *dev, int kind, void **out)
{
    ginst *d = ws_zalloc(h, sizeof(*d));
    int64_t n = 1;
    bhost_status st = BHOST_OK;

    if (d == NULL)
        return BHOST_E_NOMEM;
    d->h = h;
    d->be = be;
    d->dev = dev;
    d->kind = kind;
    d->alpha = 1.0f / 4096.0f;
    d->m = d->k = 1;
    if (kind == G_SGEMM) {
        st = ws_mnk(h, 4096, &d->m, &d->n, &d->k);
    } else {
        st = bh_plugin_i64(h, WS_PREFIX, "n", 1, 1 << 26, &n);
        d->n = (uint32_t)n;
    }
    if (st == BHOST_OK && (be == NULL || strcmp(be->id, "vulkan") != 0))
        st = ws_fail(h, BHOST_E_SKIP,
                     "webgpu runs on the vulkan backend only (this is %s)",
                     be ? be->id : "no backend");
    if (kind == G_SGEMM) {
        double fm = d->m, fn = d->n, fk = d->k;

        d->x_bytes = 4 * (size_t)d->m * d->k;
        d->y_bytes = 4 * (size_t)d->k * d->n;
        d->c_bytes = 4 * (size_t)d->m * d->n;
        d->flops = 2.0 * fm * fn * fk;
        d->bytes = 4.0 * (fm * fk + fk * fn + fm * fn);
        d->items = fm * fn;
    } else {
        d->x_bytes = d->y_bytes = 4 * (size_t)d->n;
        d->c_bytes = kind == G_DOT ? 4 : 0;
        d->flops = 2.0 * d->n;
        d->bytes = (kind == G_AXPY ? 12.0 : 8.0) * d->n;
        d->items = kind == G_AXPY ? (double)d->n : 1.0;
    }
    if (st == BHOST_OK)
        st = check_limits(d);
    if (st == BHOST_OK) {
        if (kind == G_AXPY)
            d->axpy = be->get_kernel(dev, BHOST_KERNEL_AXPY);
        else
            d->gemm = be->get_kernel(dev, BHOST_KERNEL_GEMM);
        if (d->axpy == NULL && d->gemm == NULL)
            st = ws_fail(h, BHOST_E_UNSUPPORTED,
                         "webgpu.%s: the device offers no %s kernel",
                         gpu_names[kind], kind == G_AXPY ? "axpy" : "gemm");
    }
    if (st != BHOST_OK) {
        g_destroy(d);
        return st;
    }
    ws_log(h, "webgpu.%s: backend %s under WebGPU default limits "
              "(workgroup <= 256 invocations, bindings <= 128 MiB, f32 "
              "only: shader-f16 not requested)",
           gpu_names[kind], be->id);
    *out = d;
    return BHOST_OK;
}

/* A device buffer of bytes holding src (or uninitialized). */
static bhost_status device_buffer(ginst *d, size_t bytes, const void *src,
                                  bhost_buf **out)
{
    bhost_status st = d->be->alloc(d->dev, bytes, BHOST_MEM_DEVICE, out);

    if (st == BHOST_OK && src != NULL)
        st = d->be->copy_h2d(d->dev, NULL, *out, 0, src, bytes);
    return st;
}

static bhost_status BHOST_ABI g_setup(void *inst, bhost_stream *s)
{
    ginst *d = inst;
    bhost_status st;

    (void)s;
    if (d->x != NULL)
        return BHOST_OK;
    d->x = ws_alloc(d->h, d->x_bytes);
    d->y = ws_alloc(d->h, d->y_bytes);
    d->c = ws_alloc(d->h, d->kind == G_AXPY ? d->y_bytes : d->c_bytes);
    d->native = ws_alloc(d->h, d->kind == G_AXPY ? d->y_bytes : d->c_bytes);
    if (!d->x || !d->y || !d->c || !d->native)
        return BHOST_E_NOMEM;
    ws_random_f32(d->h, d->x, d->x_bytes / 4, -1.0f, 1.0f, 1);
    ws_random_f32(d->h, d->y, d->y_bytes / 4, -1.0f, 1.0f, 2);
    st = device_buffer(d, d->x_bytes, d->x, &d->bx);
    if (st == BHOST_OK)
        st = device_buffer(d, d->y_bytes, d->y, &d->by);
    if (st == BHOST_OK && d->c_bytes)
        st = device_buffer(d, d->c_bytes, NULL, &d->bc);
    if (st == BHOST_OK)
        st = d->be->stream_sync(d->dev, NULL);
    return st;
}

/* Enqueues one kernel on s. */
static bhost_status enqueue(ginst *d, bhost_stream *s)
{
    if (d->kind == G_AXPY) {
        bhost_axpy_args a;

        memset(&a, 0, sizeof(a));
        a.struct_size = sizeof(a);
        a.type = BHOST_DTYPE_F32;
        a.n = d->n;
        a.alpha = d->alpha;
        a.x = d->bx;
        a.y = d->by;
        return d->axpy->run(d->dev, s, &a);
    } else {
        bhost_gemm_args g;

        memset(&g, 0, sizeof(g));
        g.struct_size = sizeof(g);
        g.a_type = g.b_type = g.c_type = g.compute_type = BHOST_DTYPE_F32;
        g.alpha = 1.0;
        g.c = d->bc;
        if (d->kind == G_DOT) {
            /* (1 x n) (n x 1) */
            g.m = g.n = 1;
            g.k = d->n;
            g.lda = 1;
            g.ldb = d->n;
            g.ldc = 1;
            g.a = d->bx;
            g.b = d->by;
        } else {
            /* row-major C = A B is column-major C^T = B^T A^T */
            g.m = d->n;
            g.n = d->m;
            g.k = d->k;
            g.lda = d->n;
            g.ldb = d->k;
            g.ldc = d->n;
            g.a = d->by;
            g.b = d->bx;
        }
        return d->gemm->run(d->dev, s, &g);
    }
}

static bhost_status BHOST_ABI g_run(void *inst, bhost_stream *s,
                                    uint64_t iterations)
{
    ginst *d = inst;

    for (uint64_t i = 0; i < iterations; i++) {
        bhost_status st = enqueue(d, s);

        if (st != BHOST_OK)
            return st;
    }
    return BHOST_OK;
}

/* iters kernels on the device (synced), or of the native build. */
static bhost_status body(void *inst, int native, uint64_t iters)
{
    ginst *d = inst;

    if (!native) {
        bhost_status st = g_run(d, NULL, iters);

        return st == BHOST_OK ? d->be->stream_sync(d->dev, NULL) : st;
    }
    for (uint64_t i = 0; i < iters; i++) {
        if (d->kind == G_AXPY)
            wk_axpy(d->n, d->alpha, d->x, d->y, d->native);
        else if (d->kind == G_DOT)
            d->native_dot = wk_dot(d->n, d->x, d->y);
        else
            wk_sgemm(d->m, d->n, d->k, d->x, d->y, d->native);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* Worst error against the double reference; see bench_kernel.c. */
static void compare(const ginst *d, double *max_err, double *worst,
                    size_t *at)
{
    size_t rows = d->kind == G_SGEMM ? d->m : 1;
    size_t cols = d->kind == G_SGEMM ? d->n : d->kind == G_DOT ? 1 : d->n;

    *max_err = *worst = 0;
    *at = 0;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++) {
            double ref = 0, mag = 0, tol, e;

            if (d->kind == G_AXPY) {
                ref = (double)d->alpha * d->x[j] + d->y[j];
                mag = fabs((double)d->alpha * d->x[j]) + fabs(d->y[j]);
                tol = 2 * U32 * mag;
            } else {
                size_t k = d->kind == G_DOT ? d->n : d->k;

                for (size_t p = 0; p < k; p++) {
                    double t = d->kind == G_DOT
                                   ? (double)d->x[p] * d->y[p]
                                   : (double)d->x[i * d->k + p] *
                                         d->y[p * d->n + j];

                    ref += t;
                    mag += fabs(t);
                }
                tol = (k + 2) * U32 * mag;
            }
            e = fabs(d->c[i * cols + j] - ref);
            if (e > *max_err)
                *max_err = e;
            if (e / (tol + 1e-30) > *worst || e != e) {
                *worst = e / (tol + 1e-30);
                *at = i * cols + j;
            }
        }
}

/* gemm: checks the last run's C; axpy: resets y, applies once, checks. */
static bhost_status BHOST_ABI g_verify(void *inst)
{
    ginst *d = inst;
    double max_err, worst;
    size_t at, out = d->kind == G_AXPY ? d->y_bytes : d->c_bytes;
    bhost_status st = BHOST_OK;

    if (d->kind == G_AXPY) {
        st = d->be->copy_h2d(d->dev, NULL, d->by, 0, d->y, d->y_bytes);
        if (st == BHOST_OK)
            st = enqueue(d, NULL);
    }
    if (st == BHOST_OK)
        st = d->be->copy_d2h(d->dev, NULL, d->c,
                             d->kind == G_AXPY ? d->by : d->bc, 0, out);
    if (st == BHOST_OK)
        st = d->be->stream_sync(d->dev, NULL);
    if (st != BHOST_OK)
        return st;
    body(d, 1, 1);
    compare(d, &max_err, &worst, &at);
    st = ws_report_check(d->h, gpu_names[d->kind], max_err, worst, at,
                         d->kind == G_DOT
                             ? memcmp(d->c, &d->native_dot, 4) == 0
                             : memcmp(d->c, d->native, out) == 0);
    if (st == BHOST_OK)
        st = ws_report_ratio(d->h, d, body);
    return st;
}

static void BHOST_ABI g_destroy(void *inst)
{
    ginst *d = inst;

    if (d == NULL)
        return;
    if (d->bx)
        d->be->free(d->dev, d->bx);
    if (d->by)
        d->be->free(d->dev, d->by);
    if (d->bc)
        d->be->free(d->dev, d->bc);
    ws_free(d->h, d->x);
    ws_free(d->h, d->y);
    ws_free(d->h, d->c);
    ws_free(d->h, d->native);
    ws_free(d->h, d);
}

static double BHOST_ABI g_flops(void *inst) { return ((ginst *)inst)->flops; }
static double BHOST_ABI g_bytes(void *inst) { return ((ginst *)inst)->bytes; }
static double BHOST_ABI g_items(void *inst) { return ((ginst *)inst)->items; }

/* See the counting note at the top. [instance] */
static bhost_status BHOST_ABI g_profile(void *inst, bhost_work_profile *out)
{
    const ginst *d = inst;

    return bh_plugin_profile(out, d->kind == G_DOT ? BHOST_ACCESS_READ : BHOST_ACCESS_READ_WRITE,
                             BHOST_COMPUTE_F32, 0, d->bytes);
}

WS_CREATE(create_axpy, g_create, G_AXPY)
WS_CREATE(create_dot, g_create, G_DOT)
WS_CREATE(create_sgemm, g_create, G_SGEMM)

WS_DESC(axpy_desc, "webgpu.axpy", BHOST_BENCH_NEEDS_DEVICE,
        "y = a x + y on Vulkan under WebGPU's default limits", axpy_params,
        create_axpy, g);
WS_DESC(dot_desc, "webgpu.dot", BHOST_BENCH_NEEDS_DEVICE,
        "f32 dot product (1 x 1 x n gemm) on Vulkan under WebGPU's limits",
        dot_params, create_dot, g);
WS_DESC(sgemm_desc, "webgpu.sgemm", BHOST_BENCH_NEEDS_DEVICE,
        "C = A B (f32) on Vulkan under WebGPU's default limits", mm_params,
        create_sgemm, g);

const bhost_bench_desc *const ws_webgpu_benches[] = {
    &axpy_desc, &dot_desc, &sgemm_desc, NULL,
};
