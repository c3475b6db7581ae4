// SPDX-License-Identifier: MIT
/*
 * be_test.c -- the shared part of the backend plugins' kernel tests
 * (be_test.h): stub host API, plugin loading, buffers, exact gemm checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "be_test.h"

#include <dlfcn.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const bhost_backend *bt_be;
bhost_dev *bt_dev;
char bt_last_error[512];
char bt_device_line[512];

/* Log lines go to stderr; the last "device 0: ..." line is kept. */
static void BHOST_ABI a_log(bhost_host *h, bhost_log_level l, const char *m)
{
    (void)h;
    fprintf(stderr, "log %d: %s\n", (int)l, m);
    if (strstr(m, "device 0: ") != NULL)
        snprintf(bt_device_line, sizeof(bt_device_line), "%s", m);
}

static void BHOST_ABI a_err(bhost_host *h, const char *m)
{
    (void)h;
    snprintf(bt_last_error, sizeof(bt_last_error), "%s", m);
}

static void *BHOST_ABI a_alloc(bhost_host *h, uint64_t n, uint64_t al)
{
    (void)h;
    (void)al;
    return aligned_alloc(64, (size_t)((n + 63) / 64 * 64));
}

static void BHOST_ABI a_free(bhost_host *h, void *p)
{
    (void)h;
    free(p);
}

static uint64_t BHOST_ABI a_now(bhost_host *h)
{
    struct timespec ts;

    (void)h;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Metrics (backend-opencl's build time) go to stderr. */
static bhost_status BHOST_ABI a_metric(bhost_host *h, const char *name,
                                       const char *unit, bhost_direction d,
                                       double v)
{
    (void)h;
    (void)d;
    fprintf(stderr, "metric %s = %g %s\n", name, v, unit);
    return BHOST_OK;
}

static const bhost_host_api api = {
    sizeof(bhost_host_api), 0, "test", a_log, a_err, a_alloc, a_free, a_now,
    NULL, NULL, NULL, a_metric, NULL, NULL, NULL, NULL,
};

int bt_load(const char *env, const char *icd_glob)
{
    const char *path = getenv(env);
    void *so;
    const bhost_entry *e;
    uint32_t n = 0;
    glob_t gl;
    int icd;

    if (path == NULL || (so = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
        fprintf(stderr, "cannot load %s=%s: %s\n", env,
                path ? path : "(unset)", dlerror());
        return -1;
    }
    e = dlsym(so, BHOST_ENTRY_SYMBOL);
    if (e == NULL || e->init(&api) != BHOST_OK)
        return -1;
    bt_be = e->get_interface(BHOST_IFACE_BACKEND);
    if (bt_be == NULL || bt_be->device_count(&n) != BHOST_OK)
        return -1;
    if (n > 0)
        return 0;
    icd = glob(icd_glob, 0, NULL, &gl) == 0;
    globfree(&gl);
    fprintf(stderr, "%s: no device: %s\n", path, bt_last_error);
    return icd ? -1 : 77;
}

bhost_buf *bt_buffer(size_t n, size_t es, void **view)
{
    bhost_buf *b = NULL;

    assert_int_equal(bt_be->alloc(bt_dev, n * es, BHOST_MEM_HOST_VISIBLE, &b),
                     BHOST_OK);
    *view = bt_be->map(bt_dev, b);
    assert_non_null(*view);
    return b;
}

double bt_get(const void *p, size_t es, size_t i)
{
    return es == 4 ? ((const float *)p)[i] : ((const double *)p)[i];
}

void bt_set(void *p, size_t es, size_t i, double v)
{
    if (es == 4)
        ((float *)p)[i] = (float)v;
    else
        ((double *)p)[i] = v;
}

double bt_pattern(size_t i, unsigned seed)
{
    return (double)((i * 7919u + seed * 31u) % 7u) - 3.0;
}

void bt_check_gemm(const bhost_kernel_gemm *kg, bhost_dtype dt, bt_shape s,
                   uint32_t ta, uint32_t tb, double alpha, double beta)
{
    size_t es = dt == BHOST_DTYPE_F32 ? 4 : 8;
    uint64_t ar = ta ? s.k : s.m, ac = ta ? s.m : s.k;
    uint64_t br = tb ? s.n : s.k, bc = tb ? s.k : s.n;
    uint64_t lda = ar + 3, ldb = br + 3, ldc = s.m + 3;
    size_t na = (size_t)(lda * (ac ? ac : 1)), nb = (size_t)(ldb * (bc ? bc : 1));
    size_t nc = (size_t)(ldc * s.n);
    void *ha, *hb, *hc;
    bhost_buf *a = bt_buffer(na, es, &ha), *b = bt_buffer(nb, es, &hb);
    bhost_buf *c = bt_buffer(nc, es, &hc);
    double *want = malloc(nc * sizeof(double));
    bhost_gemm_args g;

    assert_non_null(want);
    for (size_t i = 0; i < na; i++)
        bt_set(ha, es, i, bt_pattern(i, 1));
    for (size_t i = 0; i < nb; i++)
        bt_set(hb, es, i, bt_pattern(i, 2));
    for (size_t i = 0; i < nc; i++) {
        bt_set(hc, es, i, i % ldc >= s.m ? 12345.0 : bt_pattern(i, 3));
        want[i] = bt_get(hc, es, i);
    }
    for (uint64_t j = 0; j < s.n; j++)
        for (uint64_t i = 0; i < s.m; i++) {
            double acc = 0;

            for (uint64_t l = 0; l < s.k; l++)
                acc += bt_get(ha, es, ta ? l + i * lda : i + l * lda) *
                       bt_get(hb, es, tb ? j + l * ldb : l + j * ldb);
            want[i + j * ldc] = alpha * acc +
                                (beta != 0 ? beta * want[i + j * ldc] : 0);
        }
    memset(&g, 0, sizeof(g));
    g.struct_size = sizeof(g);
    g.a_type = g.b_type = g.c_type = g.compute_type = dt;
    g.trans_a = ta;
    g.trans_b = tb;
    g.m = s.m;
    g.n = s.n;
    g.k = s.k;
    g.lda = lda;
    g.ldb = ldb;
    g.ldc = ldc;
    g.alpha = alpha;
    g.beta = beta;
    g.a = a;
    g.b = b;
    g.c = c;
    if (kg->run(bt_dev, NULL, &g) != BHOST_OK)
        fail_msg("gemm %s m=%" PRIu64 " n=%" PRIu64 " k=%" PRIu64
                 " ta=%u tb=%u: %s",
                 es == 4 ? "f32" : "f64", s.m, s.n, s.k, ta, tb, bt_last_error);
    assert_int_equal(bt_be->stream_sync(bt_dev, NULL), BHOST_OK);
    for (size_t i = 0; i < nc; i++)
        if (bt_get(hc, es, i) != want[i])
            fail_msg("gemm %s m=%" PRIu64 " n=%" PRIu64 " k=%" PRIu64
                     " ta=%u tb=%u alpha=%g beta=%g: C[%zu] (row %zu, col "
                     "%zu) is %g, expected %g",
                     es == 4 ? "f32" : "f64", s.m, s.n, s.k, ta, tb, alpha,
                     beta, i, i % (size_t)ldc, i / (size_t)ldc, bt_get(hc, es, i),
                     want[i]);
    free(want);
    bt_be->free(bt_dev, a);
    bt_be->free(bt_dev, b);
    bt_be->free(bt_dev, c);
}

void bt_check_gemms(bhost_dtype dt, const bt_shape *shapes, size_t n)
{
    const bhost_kernel_gemm *kg = bt_be->get_kernel(bt_dev, BHOST_KERNEL_GEMM);

    assert_non_null(kg);
    for (size_t i = 0; i < n; i++)
        for (uint32_t t = 0; t < 4; t++) {
            bt_check_gemm(kg, dt, shapes[i], t & 1, t >> 1, 1.0, 0.0);
            bt_check_gemm(kg, dt, shapes[i], t & 1, t >> 1, -0.75, 0.5);
        }
}

int bt_has_f64(void)
{
    bhost_device_info info;

    memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    assert_int_equal(bt_be->device_info(0, &info), BHOST_OK);
    return (info.caps & BHOST_CAP_F64) != 0;
}

const bt_shape bt_thin[] = {
    {200, 1, 130}, {65, 2, 300}, {129, 5, 64}, {33, 8, 200}, {1, 1, 77},
    {3, 150, 100}, {8, 70, 9},   {1, 40, 65},  {9, 1, 0},    {40, 9, 50},
};
const size_t bt_thin_count = sizeof(bt_thin) / sizeof(bt_thin[0]);

void bt_test_thin_f32(void **st)
{
    (void)st;
    bt_check_gemms(BHOST_DTYPE_F32, bt_thin, bt_thin_count);
}

void bt_test_thin_f64(void **st)
{
    (void)st;
    if (!bt_has_f64())
        skip();
    bt_check_gemms(BHOST_DTYPE_F64, bt_thin, bt_thin_count);
}

void bt_test_thin_tall(void **st)
{
    const bhost_kernel_gemm *kg = bt_be->get_kernel(bt_dev, BHOST_KERNEL_GEMM);
    const bt_shape tall[] = {{600001, 1, 2}, {3, 600001, 1}};

    (void)st;
    assert_non_null(kg);
    for (size_t i = 0; i < 2; i++)
        for (uint32_t t = 0; t < 4; t++)
            bt_check_gemm(kg, BHOST_DTYPE_F32, tall[i], t & 1, t >> 1, 2.0,
                          -1.0);
}
