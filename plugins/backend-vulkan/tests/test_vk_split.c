/*
 * test_vk_split.c -- the kernels of the real backend-vulkan.so (loaded
 * with dlopen on a stub host API, BH_VK_PLUGIN names the file) with
 * the binding limit lowered to 1 KiB by BHOST_VK_MAX_RANGE, so that every
 * operand below spans several bindings: gemm in every transpose pair,
 * padded leading dimensions, alpha and beta, shapes that make A, B or C
 * the large operand (split m, n, k, and rows of one column), checked
 * exactly against a host loop (small integers: every sum is exact in
 * F32), with C's padding rows untouched; axpy and reduce over many
 * pieces; a reduce too large for the lowered limit refused with the
 * one-line message; a malformed knob refused at open. The thin gemms
 * (C with 1, 2, 5 or 8 columns, or rows: the matrix-vector shader) run
 * split with subgroup sums, split with shared-memory sums
 * (BHOST_VK_SUBGROUPS=0), and on a device opened without the lowered
 * limit. Skips (77)
 * when there is no Vulkan device and no lavapipe ICD installed.
 */
#include <bhost/plugin.h>

#include <dlfcn.h>
#include <glob.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#define LIMIT "1024"

static const bhost_backend *be;
static bhost_dev *dev;
static char last_error[512];
static char device_line[512]; /* the last "device 0: ..." log line */

/* Log lines go to stderr (the device line names the binding limit and
 * how gemv sums rows) and the device line is kept. */
static void BHOST_ABI a_log(bhost_host *h, bhost_log_level l, const char *m)
{
    (void)h;
    fprintf(stderr, "log %d: %s\n", (int)l, m);
    if (strstr(m, "device 0: ") != NULL)
        snprintf(device_line, sizeof(device_line), "%s", m);
}

static void BHOST_ABI a_err(bhost_host *h, const char *m)
{
    (void)h;
    snprintf(last_error, sizeof(last_error), "%s", m);
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

static const bhost_host_api api = {
    sizeof(bhost_host_api), 0, "test", a_log, a_err, a_alloc, a_free, a_now,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

/* Loads the plugin and counts devices; 77 (skip) when there is none and
 * no lavapipe ICD says there should be, -1 on failure. */
static int load_backend(void)
{
    const char *path = getenv("BH_VK_PLUGIN");
    void *so;
    const bhost_entry *e;
    uint32_t n = 0;
    glob_t gl;
    int lvp;

    if (path == NULL || (so = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
        fprintf(stderr, "cannot load BH_VK_PLUGIN=%s: %s\n",
                path ? path : "(unset)", dlerror());
        return -1;
    }
    e = dlsym(so, BHOST_ENTRY_SYMBOL);
    if (e == NULL || e->init(&api) != BHOST_OK)
        return -1;
    be = e->get_interface(BHOST_IFACE_BACKEND);
    if (be == NULL || be->device_count(&n) != BHOST_OK)
        return -1;
    if (n > 0)
        return 0;
    lvp = glob("/usr/share/vulkan/icd.d/lvp_icd*.json", 0, NULL, &gl) == 0;
    globfree(&gl);
    fprintf(stderr, "backend-vulkan: no device: %s\n", last_error);
    return lvp ? -1 : 77;
}

/* Opens device 0 with BHOST_VK_MAX_RANGE=limit, or unset (NULL), and
 * BHOST_VK_SUBGROUPS=subgroups. */
static int open_with(const char *limit, const char *subgroups)
{
    if (limit != NULL)
        setenv("BHOST_VK_MAX_RANGE", limit, 1);
    else
        unsetenv("BHOST_VK_MAX_RANGE");
    setenv("BHOST_VK_SUBGROUPS", subgroups, 1);
    if (be->open(0, NULL, &dev) != BHOST_OK) {
        fprintf(stderr, "open: %s\n", last_error);
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
    if (strstr(device_line, "gemv rows summed by shared memory") == NULL) {
        fprintf(stderr, "BHOST_VK_SUBGROUPS=0 not in effect: %s\n",
                device_line);
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
    be->close(dev);
    return 0;
}

/* A host-visible buffer of n elements of es bytes; *view maps it. */
static bhost_buf *buffer(size_t n, size_t es, void **view)
{
    bhost_buf *b = NULL;

    assert_int_equal(be->alloc(dev, n * es, BHOST_MEM_HOST_VISIBLE, &b),
                     BHOST_OK);
    *view = be->map(dev, b);
    assert_non_null(*view);
    return b;
}

static double get(const void *p, size_t es, size_t i)
{
    return es == 4 ? ((const float *)p)[i] : ((const double *)p)[i];
}

static void set(void *p, size_t es, size_t i, double v)
{
    if (es == 4)
        ((float *)p)[i] = (float)v;
    else
        ((double *)p)[i] = v;
}

/* A small integer in [-3, 3] from index i and seed. */
static double pattern(size_t i, unsigned seed)
{
    return (double)((i * 7919u + seed * 31u) % 7u) - 3.0;
}

/* A gemm shape: C is m x n, the inner dimension k. */
typedef struct shape {
    uint64_t m, n, k;
} shape;

/* One gemm of shape s with transposes ta, tb, leading dimensions padded
 * by 3, alpha and beta, checked exactly against a double loop; C's
 * padding rows must keep their sentinel. */
static void check_gemm(const bhost_kernel_gemm *kg, bhost_dtype dt, shape s,
                       uint32_t ta, uint32_t tb, double alpha, double beta)
{
    size_t es = dt == BHOST_DTYPE_F32 ? 4 : 8;
    uint64_t ar = ta ? s.k : s.m, ac = ta ? s.m : s.k;
    uint64_t br = tb ? s.n : s.k, bc = tb ? s.k : s.n;
    uint64_t lda = ar + 3, ldb = br + 3, ldc = s.m + 3;
    size_t na = (size_t)(lda * (ac ? ac : 1)), nb = (size_t)(ldb * (bc ? bc : 1));
    size_t nc = (size_t)(ldc * s.n);
    void *ha, *hb, *hc;
    bhost_buf *a = buffer(na, es, &ha), *b = buffer(nb, es, &hb);
    bhost_buf *c = buffer(nc, es, &hc);
    double *want = malloc(nc * sizeof(double));
    bhost_gemm_args g;

    assert_non_null(want);
    for (size_t i = 0; i < na; i++)
        set(ha, es, i, pattern(i, 1));
    for (size_t i = 0; i < nb; i++)
        set(hb, es, i, pattern(i, 2));
    for (size_t i = 0; i < nc; i++) {
        set(hc, es, i, i % ldc >= s.m ? 12345.0 : pattern(i, 3));
        want[i] = get(hc, es, i);
    }
    for (uint64_t j = 0; j < s.n; j++)
        for (uint64_t i = 0; i < s.m; i++) {
            double acc = 0;

            for (uint64_t l = 0; l < s.k; l++)
                acc += get(ha, es, ta ? l + i * lda : i + l * lda) *
                       get(hb, es, tb ? j + l * ldb : l + j * ldb);
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
    if (kg->run(dev, NULL, &g) != BHOST_OK)
        fail_msg("gemm %s m=%" PRIu64 " n=%" PRIu64 " k=%" PRIu64
                 " ta=%u tb=%u: %s",
                 es == 4 ? "f32" : "f64", s.m, s.n, s.k, ta, tb, last_error);
    assert_int_equal(be->stream_sync(dev, NULL), BHOST_OK);
    for (size_t i = 0; i < nc; i++)
        if (get(hc, es, i) != want[i])
            fail_msg("gemm %s m=%" PRIu64 " n=%" PRIu64 " k=%" PRIu64
                     " ta=%u tb=%u alpha=%g beta=%g: C[%zu] (row %zu, col "
                     "%zu) is %g, expected %g",
                     es == 4 ? "f32" : "f64", s.m, s.n, s.k, ta, tb, alpha,
                     beta, i, i % (size_t)ldc, i / (size_t)ldc, get(hc, es, i),
                     want[i]);
    free(want);
    be->free(dev, a);
    be->free(dev, b);
    be->free(dev, c);
}

/* Shapes whose A, B or C spans several 1 KiB bindings in some transpose
 * pair: long m (A transposed split along m, the engine's X W^T), long k
 * (A as stored or B transposed split along k, the pieces adding up), long
 * n (B and C split along columns), a column of A longer than one binding
 * (rows split), sizes with remainders; and k = 0 (C = beta C). */
static const shape shapes[] = {
    {300, 3, 40}, {20, 7, 90}, {5, 200, 30}, {70, 33, 5},
    {600, 2, 3}, {37, 50, 29}, {9, 4, 0},
};

static void gemm_dtype(bhost_dtype dt)
{
    const bhost_kernel_gemm *kg = be->get_kernel(dev, BHOST_KERNEL_GEMM);

    assert_non_null(kg);
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        for (uint32_t t = 0; t < 4; t++) {
            check_gemm(kg, dt, shapes[i], t & 1, t >> 1, 1.0, 0.0);
            check_gemm(kg, dt, shapes[i], t & 1, t >> 1, -0.75, 0.5);
        }
}

static void test_gemm_f32(void **st)
{
    (void)st;
    gemm_dtype(BHOST_DTYPE_F32);
}

/* Whether device 0 has shaderFloat64 (lavapipe has). */
static int has_f64(void)
{
    bhost_device_info info;

    memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    assert_int_equal(be->device_info(0, &info), BHOST_OK);
    return (info.caps & BHOST_CAP_F64) != 0;
}

/* F64 where the device has it. */
static void test_gemm_f64(void **st)
{
    (void)st;
    if (!has_f64())
        skip();
    gemm_dtype(BHOST_DTYPE_F64);
}

/* Thin gemms, the matrix-vector shader's: n = 1, 2, 5, 8 with rows on
 * either side of its 64 lanes and k over several strides of them; m <= 8
 * (C transposed onto the shader) with n larger; one column and one row
 * (m = n = 1); k = 0; n = 9, the first width left to the tiled shader. In
 * split runs a long column of A or B makes k pieces that add up. */
static const shape thin[] = {
    {200, 1, 130}, {65, 2, 300}, {129, 5, 64}, {33, 8, 200}, {1, 1, 77},
    {3, 150, 100}, {8, 70, 9},   {1, 40, 65},  {9, 1, 0},    {40, 9, 50},
};

static void thin_dtype(bhost_dtype dt)
{
    const bhost_kernel_gemm *kg = be->get_kernel(dev, BHOST_KERNEL_GEMM);

    assert_non_null(kg);
    for (size_t i = 0; i < sizeof(thin) / sizeof(thin[0]); i++)
        for (uint32_t t = 0; t < 4; t++) {
            check_gemm(kg, dt, thin[i], t & 1, t >> 1, 1.0, 0.0);
            check_gemm(kg, dt, thin[i], t & 1, t >> 1, -0.75, 0.5);
        }
}

static void test_thin_f32(void **st)
{
    (void)st;
    thin_dtype(BHOST_DTYPE_F32);
}

static void test_thin_f64(void **st)
{
    (void)st;
    if (!has_f64())
        skip();
    thin_dtype(BHOST_DTYPE_F64);
}

/* More rows than a grid may have workgroups (65535 is the least a device
 * offers) times the rows of one (8 with lavapipe's subgroups of 8): the
 * matrix-vector shader strides over them. Unsplit only. */
static void test_thin_tall(void **st)
{
    const bhost_kernel_gemm *kg = be->get_kernel(dev, BHOST_KERNEL_GEMM);
    const shape tall[] = {{600001, 1, 2}, {3, 600001, 1}};

    (void)st;
    assert_non_null(kg);
    for (size_t i = 0; i < 2; i++)
        for (uint32_t t = 0; t < 4; t++)
            check_gemm(kg, BHOST_DTYPE_F32, tall[i], t & 1, t >> 1, 2.0, -1.0);
}

/* y = alpha x + y over 5003 F32 elements (about 20 pieces of 1 KiB). */
static void test_axpy(void **st)
{
    const bhost_kernel_axpy *k = be->get_kernel(dev, BHOST_KERNEL_AXPY);
    enum { N = 5003 };
    void *hx, *hy;
    bhost_buf *x = buffer(N, 4, &hx), *y = buffer(N, 4, &hy);
    bhost_axpy_args a;

    (void)st;
    assert_non_null(k);
    for (size_t i = 0; i < N; i++) {
        set(hx, 4, i, pattern(i, 4));
        set(hy, 4, i, pattern(i, 5));
    }
    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.n = N;
    a.alpha = -1.5;
    a.x = x;
    a.y = y;
    assert_int_equal(k->run(dev, NULL, &a), BHOST_OK);
    assert_int_equal(be->stream_sync(dev, NULL), BHOST_OK);
    for (size_t i = 0; i < N; i++)
        if (get(hy, 4, i) != -1.5 * pattern(i, 4) + pattern(i, 5))
            fail_msg("axpy y[%zu] is %g", i, get(hy, 4, i));
    be->free(dev, x);
    be->free(dev, y);
}

/* One reduce of x[0..n) (F32 view hx) with op; its result. */
static double reduce(const bhost_kernel_reduce *k, bhost_buf *x, uint64_t n,
                     bhost_reduce_op op, bhost_status *st)
{
    void *hr;
    bhost_buf *r = buffer(1, 4, &hr);
    bhost_reduce_args a;
    double v;

    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = BHOST_DTYPE_F32;
    a.op = op;
    a.n = n;
    a.x = x;
    a.result = r;
    *st = k->run(dev, NULL, &a);
    if (*st == BHOST_OK)
        assert_int_equal(be->stream_sync(dev, NULL), BHOST_OK);
    v = get(hr, 4, 0);
    be->free(dev, r);
    return v;
}

/* Sum, min and max over 30001 F32 elements (over 100 pieces), the
 * extremes planted in a late piece; 70000 elements need more pieces than
 * partials and are refused. */
static void test_reduce(void **st)
{
    const bhost_kernel_reduce *k = be->get_kernel(dev, BHOST_KERNEL_REDUCE);
    enum { N = 30001, BIG = 70000 };
    void *hx;
    bhost_buf *x = buffer(BIG, 4, &hx);
    bhost_status s;
    double sum = 0;

    (void)st;
    assert_non_null(k);
    for (size_t i = 0; i < BIG; i++)
        set(hx, 4, i, pattern(i, 6));
    set(hx, 4, 29000, -9.0);
    set(hx, 4, 27777, 8.0);
    for (size_t i = 0; i < N; i++)
        sum += get(hx, 4, i);
    assert_true(reduce(k, x, N, BHOST_REDUCE_SUM, &s) == sum);
    assert_int_equal(s, BHOST_OK);
    assert_true(reduce(k, x, N, BHOST_REDUCE_MIN, &s) == -9.0);
    assert_int_equal(s, BHOST_OK);
    assert_true(reduce(k, x, N, BHOST_REDUCE_MAX, &s) == 8.0);
    assert_int_equal(s, BHOST_OK);
    reduce(k, x, BIG, BHOST_REDUCE_SUM, &s);
    assert_int_equal(s, BHOST_E_UNSUPPORTED);
    assert_non_null(strstr(last_error, "reduce: n=70000 needs"));
    be->free(dev, x);
}

/* A knob that is not a byte count (or not 0 or 1) fails open with the
 * one-line reason. */
static void test_bad_knob(void **st)
{
    bhost_dev *d = NULL;

    (void)st;
    setenv("BHOST_VK_MAX_RANGE", "12k", 1);
    assert_int_equal(be->open(0, NULL, &d), BHOST_E_INVALID);
    assert_non_null(strstr(last_error, "BHOST_VK_MAX_RANGE=12k: expected"));
    setenv("BHOST_VK_MAX_RANGE", LIMIT, 1);
    setenv("BHOST_VK_SUBGROUPS", "yes", 1);
    assert_int_equal(be->open(0, NULL, &d), BHOST_E_INVALID);
    assert_non_null(strstr(last_error, "BHOST_VK_SUBGROUPS=yes: expected"));
    setenv("BHOST_VK_SUBGROUPS", "1", 1);
}

int main(void)
{
    const struct CMUnitTest split[] = {
        cmocka_unit_test(test_gemm_f32), cmocka_unit_test(test_gemm_f64),
        cmocka_unit_test(test_thin_f32), cmocka_unit_test(test_thin_f64),
        cmocka_unit_test(test_axpy),     cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_bad_knob),
    };
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_thin_f32),
        cmocka_unit_test(test_thin_f64),
    };
    const struct CMUnitTest whole[] = {
        cmocka_unit_test(test_thin_f32),
        cmocka_unit_test(test_thin_f64),
        cmocka_unit_test(test_thin_tall),
    };
    const struct CMUnitTest whole_shared[] = {
        cmocka_unit_test(test_thin_tall),
    };
    int rc = load_backend();

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
