// SPDX-License-Identifier: MIT
/*
 * bench_kernel.c -- kernel.axpy, kernel.dot, kernel.sgemm, kernel.softmax,
 * kernel.qmatmul: one C source (wasm/wk_ops.c) run as native code, as
 * scalar wasm through wasm2c (wasm-cpu) or as 128-bit vector code inside
 * the same linear memory (wasm-simd), with explicit or guard-page bounds
 * checks. Inputs live in the linear memory (placed by the module's own
 * malloc, copied in during setup); a trap in run() fails the case with the
 * runtime's message. verify() checks the output of the last run against a
 * double-precision reference (and says whether it equals the native
 * build's bit for bit), then measures the ratio to native.
 *
 * Counting: axpy z = a x + y: 2n flops, 12n bytes; dot: 2n, 8n; sgemm:
 * 2mnk, 4(mk + kn + mn); softmax (rows x cols = e): 5e flops (max, sub,
 * exp, add, scale), 8e bytes; qmatmul: 2mnk integer ops, mk + nk + 4(m +
 * n) + 4mn bytes. items = output elements. Each operand is counted once
 * per iteration (sgemm's re-reads of B stay in the caches at these sizes).
 * The qmatmul operations are int8 multiply-adds, held against the int8
 * ceiling. Work profile: one thread, the counted bytes, read for dot,
 * read-write for the rest, f32 (qmatmul int8).
 */
#include "ws.h"

#include "wk.h"

#include <math.h>
#include <string.h>

#define U32 (1.0 / 16777216.0) /* unit roundoff of f32 */
#define TINY 1e-30

enum { K_AXPY, K_DOT, K_SGEMM, K_SOFTMAX, K_QMATMUL };
static const char *const kernel_names[] = {"axpy", "dot", "sgemm", "softmax",
                                           "qmatmul"};

typedef struct operand {
    void *host;
    size_t bytes;
    uint32_t addr; /* in the linear memory (wasm modes) */
    uint32_t reserved;
} operand;

typedef struct kinst {
    bhost_host *h;
    int kind, mode, guard, oob;
    uint32_t m, n, k;
    float alpha, dot, native_dot;
    wsim_inst *w;
    operand in[4];
    int n_in;
    operand out;      /* not used by dot */
    void *native_out; /* the native build's output */
    double flops, bytes, items;
} kinst;

static const bhost_param_desc vec_params[] = {
    BH_PARAM_I64("n", "Elements", "65536", 1, 1 << 26),
    WS_PARAM_MODE,
    WS_PARAM_MEMCHECK,
    WS_PARAM_TOOLCHAIN,
    BH_PARAM_BOOL("oob", "Point the output past the end of the linear memory "
                         "(the trap must fail the case)", "false"),
};
static const bhost_param_desc mm_params[] = {
    BH_PARAM_I64("m", "Rows of A and C", "128", 1, 4096),
    BH_PARAM_I64("n", "Columns of B and C", "128", 1, 4096),
    BH_PARAM_I64("k", "Inner dimension", "128", 1, 4096),
    WS_PARAM_MODE,
    WS_PARAM_MEMCHECK,
    WS_PARAM_TOOLCHAIN,
    BH_PARAM_BOOL("oob", "Point the output past the end of the linear memory "
                         "(the trap must fail the case)", "false"),
};
static const bhost_param_desc sm_params[] = {
    BH_PARAM_I64("rows", "Rows", "64", 1, 1 << 16),
    BH_PARAM_I64("cols", "Values per row", "1024", 1, 1 << 20),
    WS_PARAM_MODE,
    WS_PARAM_MEMCHECK,
    WS_PARAM_TOOLCHAIN,
    BH_PARAM_BOOL("oob", "Point the output past the end of the linear memory "
                         "(the trap must fail the case)", "false"),
};

static void BHOST_ABI k_destroy(void *inst);

/* Sets the operand sizes and work counts of d from its kind and shape. */
static void shape(kinst *d)
{
    double m = d->m, n = d->n, k = d->k;

    switch (d->kind) {
    case K_AXPY:
    case K_DOT:
        d->in[0].bytes = d->in[1].bytes = 4 * (size_t)d->n;
        d->n_in = 2;
        d->out.bytes = d->kind == K_AXPY ? 4 * (size_t)d->n : 0;
        d->flops = 2 * n;
        d->bytes = (d->kind == K_AXPY ? 12 : 8) * n;
        d->items = d->kind == K_AXPY ? n : 1;
        break;
    case K_SGEMM:
        d->in[0].bytes = 4 * (size_t)d->m * d->k;
        d->in[1].bytes = 4 * (size_t)d->k * d->n;
        d->n_in = 2;
        d->out.bytes = 4 * (size_t)d->m * d->n;
        d->flops = 2 * m * n * k;
        d->bytes = 4 * (m * k + k * n + m * n);
        d->items = m * n;
        break;
    case K_SOFTMAX:
        d->in[0].bytes = d->out.bytes = 4 * (size_t)d->m * d->n;
        d->n_in = 1;
        d->flops = 5 * m * n;
        d->bytes = 8 * m * n;
        d->items = m * n;
        break;
    default:
        d->in[0].bytes = (size_t)d->m * d->k;
        d->in[1].bytes = (size_t)d->n * d->k;
        d->in[2].bytes = 4 * (size_t)d->m;
        d->in[3].bytes = 4 * (size_t)d->n;
        d->n_in = 4;
        d->out.bytes = 4 * (size_t)d->m * d->n;
        d->flops = 2 * m * n * k;
        d->bytes = m * k + n * k + 4 * (m + n) + 4 * m * n;
        d->items = m * n;
    }
}

/* Reads the shape parameters of d's kind. */
static bhost_status read_shape(kinst *d)
{
    int64_t m = 1, n = 1;
    bhost_status st = BHOST_OK;

    d->k = 1;
    if (d->kind == K_AXPY || d->kind == K_DOT) {
        st = bh_plugin_i64(d->h, WS_PREFIX, "n", 1, 1 << 26, &n);
    } else if (d->kind == K_SOFTMAX) {
        st = bh_plugin_i64(d->h, WS_PREFIX, "rows", 1, 1 << 16, &m);
        if (st == BHOST_OK)
            st = bh_plugin_i64(d->h, WS_PREFIX, "cols", 1, 1 << 20, &n);
        if (st == BHOST_OK && m * n > (1 << 26))
            st = ws_fail(d->h, BHOST_E_INVALID,
                         "softmax: rows x cols above 2^26");
    } else {
        return ws_mnk(d->h, 4096, &d->m, &d->n, &d->k);
    }
    d->m = (uint32_t)m;
    d->n = (uint32_t)n;
    return st;
}

/* create() of every kernel benchmark. */
static bhost_status k_create(bhost_host *h, const bhost_backend *be,
                             bhost_dev *dev, int kind, void **out)
{
    kinst *d = ws_zalloc(h, sizeof(*d));
    int64_t oob = 0;
    bhost_status st;

    (void)be;
    (void)dev;
    if (d == NULL)
        return BHOST_E_NOMEM;
    d->h = h;
    d->kind = kind;
    d->alpha = 1.5f;
    st = ws_mode(h, &d->mode, &d->guard);
    if (st == BHOST_OK)
        st = read_shape(d);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, WS_PREFIX, "oob", 0, 1, &oob);
    d->oob = (int)oob;
    if (st == BHOST_OK && d->oob && d->mode == WS_NATIVE)
        st = ws_fail(h, BHOST_E_SKIP, "oob applies to the wasm modes only");
    if (st != BHOST_OK) {
        k_destroy(d);
        return st;
    }
    shape(d);
    if (d->mode != WS_NATIVE)
        ws_log_toolchain(h, d->mode, d->guard);
    *out = d;
    return BHOST_OK;
}

/* Seeded inputs. */
static void fill_inputs(kinst *d)
{
    if (d->kind == K_QMATMUL) {
        ws_random_i8(d->h, d->in[0].host, d->in[0].bytes, 1);
        ws_random_i8(d->h, d->in[1].host, d->in[1].bytes, 2);
        ws_random_f32(d->h, d->in[2].host, d->m, 1e-3f, 1e-2f, 3);
        ws_random_f32(d->h, d->in[3].host, d->n, 1e-3f, 1e-2f, 4);
        return;
    }
    for (int i = 0; i < d->n_in; i++)
        ws_random_f32(d->h, d->in[i].host, d->in[i].bytes / 4,
                      d->kind == K_SOFTMAX ? -4.0f : -1.0f,
                      d->kind == K_SOFTMAX ? 4.0f : 1.0f, (uint64_t)i + 1);
}

/* Places the operands in a fresh instance's linear memory. */
static bhost_status place(kinst *d)
{
    wsim_mem mem;

    d->w = wsim_open(d->guard);
    if (d->w == NULL)
        return ws_fail(d->h, BHOST_E_NOMEM, "cannot instantiate kern.wasm");
    for (int i = 0; i < d->n_in; i++) {
        d->in[i].addr = wsim_malloc(d->w, (uint32_t)d->in[i].bytes);
        if (d->in[i].addr == 0 ||
            wsim_copy_in(d->w, d->in[i].addr, d->in[i].host,
                         d->in[i].bytes) != 0)
            return ws_fail(d->h, BHOST_E_NOMEM,
                           "linear memory: cannot place %zu bytes",
                           d->in[i].bytes);
    }
    if (d->out.bytes) {
        d->out.addr = wsim_malloc(d->w, (uint32_t)d->out.bytes);
        if (d->out.addr == 0)
            return ws_fail(d->h, BHOST_E_NOMEM,
                           "linear memory: cannot place %zu bytes",
                           d->out.bytes);
    }
    if (d->oob) {
        mem = wsim_memory(d->w);
        if (d->kind == K_DOT)
            d->in[1].addr = mem.size - 8;
        else
            d->out.addr = mem.size - 8;
    }
    return BHOST_OK;
}

/* Allocates and fills the operands; places them for the wasm modes. */
static bhost_status BHOST_ABI k_setup(void *inst, bhost_stream *s)
{
    kinst *d = inst;

    (void)s;
    if (d->in[0].host != NULL)
        return BHOST_OK;
    for (int i = 0; i < d->n_in; i++)
        if ((d->in[i].host = ws_alloc(d->h, d->in[i].bytes)) == NULL)
            return BHOST_E_NOMEM;
    d->out.host = ws_alloc(d->h, d->out.bytes);
    d->native_out = ws_alloc(d->h, d->out.bytes);
    if (d->out.host == NULL || d->native_out == NULL)
        return BHOST_E_NOMEM;
    fill_inputs(d);
    return d->mode == WS_NATIVE ? BHOST_OK : place(d);
}

/* One call of the native build, writing into dst (dot: *dot). */
static void run_native(kinst *d, void *dst, float *dot)
{
    void *a = d->in[0].host, *b = d->in[1].host;

    switch (d->kind) {
    case K_AXPY:
        wk_axpy(d->n, d->alpha, a, b, dst);
        break;
    case K_DOT:
        *dot = wk_dot(d->n, a, b);
        bhost_do_not_optimize(dot);
        break;
    case K_SGEMM:
        wk_sgemm(d->m, d->n, d->k, a, b, dst);
        break;
    case K_SOFTMAX:
        wk_softmax(d->m, d->n, a, dst);
        break;
    default:
        wk_qmatmul(d->m, d->n, d->k, a, b, d->in[2].host, d->in[3].host, dst);
    }
    bhost_clobber_memory();
}

/* One call through wasm2c; 0 or a trap code. */
static int run_wasm(kinst *d)
{
    wsim_val a[8], r;
    int fn;

    memset(a, 0, sizeof(a));
    switch (d->kind) {
    case K_AXPY:
        fn = WSIM_FN_AXPY;
        a[0].u = d->n;
        a[1].f = d->alpha;
        a[2].u = d->in[0].addr;
        a[3].u = d->in[1].addr;
        a[4].u = d->out.addr;
        break;
    case K_DOT:
        fn = WSIM_FN_DOT;
        a[0].u = d->n;
        a[1].u = d->in[0].addr;
        a[2].u = d->in[1].addr;
        break;
    case K_SOFTMAX:
        fn = WSIM_FN_SOFTMAX;
        a[0].u = d->m;
        a[1].u = d->n;
        a[2].u = d->in[0].addr;
        a[3].u = d->out.addr;
        break;
    default:
        fn = d->kind == K_SGEMM ? WSIM_FN_SGEMM : WSIM_FN_QMATMUL;
        a[0].u = d->m;
        a[1].u = d->n;
        a[2].u = d->k;
        for (int i = 0; i < d->n_in; i++)
            a[3 + i].u = d->in[i].addr;
        a[3 + d->n_in].u = d->out.addr;
    }
    r.u = 0;
    if (wsim_call(d->w, fn, a, &r) != 0)
        return d->w->last_trap;
    d->dot = r.f;
    return 0;
}

/* One call of the 128-bit mode; 0 or a trap code. */
static int run_simd(kinst *d)
{
    const operand *in = d->in;

    switch (d->kind) {
    case K_AXPY:
        return wsim_simd_axpy(d->w, d->n, d->alpha, in[0].addr, in[1].addr,
                              d->out.addr);
    case K_DOT:
        return wsim_simd_dot(d->w, d->n, in[0].addr, in[1].addr, &d->dot);
    case K_SGEMM:
        return wsim_simd_sgemm(d->w, d->m, d->n, d->k, in[0].addr,
                               in[1].addr, d->out.addr);
    case K_SOFTMAX:
        return wsim_simd_softmax(d->w, d->m, d->n, in[0].addr, d->out.addr);
    default:
        return wsim_simd_qmatmul(d->w, d->m, d->n, d->k, in[0].addr,
                                 in[1].addr, in[2].addr, in[3].addr,
                                 d->out.addr);
    }
}

/* iters calls of the mode (native = 0) or of the native build. */
static bhost_status body(void *inst, int native, uint64_t iters)
{
    kinst *d = inst;

    for (uint64_t i = 0; i < iters; i++) {
        int code = 0;

        if (native || d->mode == WS_NATIVE)
            run_native(d, native ? d->native_out : d->out.host,
                       native ? &d->native_dot : &d->dot);
        else if (d->mode == WS_WASM_CPU)
            code = run_wasm(d);
        else
            code = run_simd(d);
        if (code != 0)
            return ws_trap(d->h, d->w, code, kernel_names[d->kind]);
    }
    return BHOST_OK;
}

static bhost_status BHOST_ABI k_run(void *inst, bhost_stream *s,
                                    uint64_t iterations)
{
    (void)s;
    return body(inst, 0, iterations);
}

/* Worst error of d's output against the double reference. */
typedef struct check {
    double max_err, worst;
    size_t at;
} check;

static void note(check *c, size_t i, double got, double ref, double tol)
{
    double e = fabs(got - ref), r = e / (tol + TINY);

    if (e > c->max_err || e != e)
        c->max_err = e;
    if (r > c->worst || r != r) {
        c->worst = r;
        c->at = i;
    }
}

static void check_axpy_dot(const kinst *d, check *c)
{
    const float *x = d->in[0].host, *y = d->in[1].host, *z = d->out.host;
    double sum = 0, mag = 0;

    for (size_t i = 0; i < d->n; i++) {
        double ax = (double)d->alpha * x[i];

        if (d->kind == K_AXPY)
            note(c, i, z[i], ax + y[i], 2 * U32 * (fabs(ax) + fabs(y[i])));
        sum += (double)x[i] * y[i];
        mag += fabs((double)x[i] * y[i]);
    }
    if (d->kind == K_DOT)
        note(c, 0, d->dot, sum, (d->n + 2) * U32 * mag);
}

static void check_sgemm(const kinst *d, check *c)
{
    const float *a = d->in[0].host, *b = d->in[1].host, *o = d->out.host;

    for (size_t i = 0; i < d->m; i++)
        for (size_t j = 0; j < d->n; j++) {
            double s = 0, mag = 0;

            for (size_t p = 0; p < d->k; p++) {
                double t = (double)a[i * d->k + p] * b[p * d->n + j];

                s += t;
                mag += fabs(t);
            }
            note(c, i * d->n + j, o[i * d->n + j], s, (d->k + 2) * U32 * mag);
        }
}

static void check_softmax(const kinst *d, check *c)
{
    const float *x = d->in[0].host, *y = d->out.host;

    for (size_t r = 0; r < d->m; r++) {
        const float *xr = x + r * d->n;
        double mx = xr[0], sum = 0;

        for (size_t j = 1; j < d->n; j++)
            mx = xr[j] > mx ? xr[j] : mx;
        for (size_t j = 0; j < d->n; j++)
            sum += exp((double)xr[j] - mx);
        for (size_t j = 0; j < d->n; j++) {
            double ref = exp((double)xr[j] - mx) / sum;

            note(c, r * d->n + j, y[r * d->n + j], ref,
                 (d->n + 32) * U32 * ref);
        }
    }
}

static void check_qmatmul(const kinst *d, check *c)
{
    const int8_t *a = d->in[0].host, *bt = d->in[1].host;
    const float *sa = d->in[2].host, *sb = d->in[3].host, *o = d->out.host;

    for (size_t i = 0; i < d->m; i++)
        for (size_t j = 0; j < d->n; j++) {
            int64_t acc = 0;
            double ref;

            for (size_t p = 0; p < d->k; p++)
                acc += (int64_t)a[i * d->k + p] * bt[j * d->k + p];
            ref = (double)acc * sa[i] * sb[j];
            note(c, i * d->n + j, o[i * d->n + j], ref, 4 * U32 * fabs(ref));
        }
}

/* Checks the last run's output, then measures the ratio to native. */
static bhost_status BHOST_ABI k_verify(void *inst)
{
    kinst *d = inst;
    check c = {0, 0, 0};
    int exact;
    bhost_status st;

    if (d->mode != WS_NATIVE && d->out.bytes &&
        wsim_copy_out(d->w, d->out.host, d->out.addr, d->out.bytes) != 0)
        return ws_fail(d->h, BHOST_E_VERIFY, "output outside the memory");
    run_native(d, d->native_out, &d->native_dot);
    if (d->kind == K_AXPY || d->kind == K_DOT)
        check_axpy_dot(d, &c);
    else if (d->kind == K_SGEMM)
        check_sgemm(d, &c);
    else if (d->kind == K_SOFTMAX)
        check_softmax(d, &c);
    else
        check_qmatmul(d, &c);
    exact = d->kind == K_DOT
                ? memcmp(&d->dot, &d->native_dot, sizeof(float)) == 0
                : memcmp(d->out.host, d->native_out, d->out.bytes) == 0;
    st = ws_report_check(d->h, kernel_names[d->kind], c.max_err, c.worst,
                         c.at, exact);
    if (st == BHOST_OK)
        st = ws_report_ratio(d->h, d, body);
    return st;
}

static void BHOST_ABI k_destroy(void *inst)
{
    kinst *d = inst;

    if (d == NULL)
        return;
    wsim_close(d->w);
    for (int i = 0; i < 4; i++)
        ws_free(d->h, d->in[i].host);
    ws_free(d->h, d->out.host);
    ws_free(d->h, d->native_out);
    ws_free(d->h, d);
}

static double BHOST_ABI k_flops(void *inst) { return ((kinst *)inst)->flops; }
static double BHOST_ABI k_bytes(void *inst) { return ((kinst *)inst)->bytes; }
static double BHOST_ABI k_items(void *inst) { return ((kinst *)inst)->items; }

/* See the counting note at the top. [instance] */
static bhost_status BHOST_ABI k_profile(void *inst, bhost_work_profile *out)
{
    const kinst *d = inst;

    return bh_plugin_profile(out, d->kind == K_DOT ? BHOST_ACCESS_READ : BHOST_ACCESS_READ_WRITE,
                             d->kind == K_QMATMUL ? BHOST_COMPUTE_INT8 : BHOST_COMPUTE_F32, 1,
                             d->bytes);
}

WS_CREATE(create_axpy, k_create, K_AXPY)
WS_CREATE(create_dot, k_create, K_DOT)
WS_CREATE(create_sgemm, k_create, K_SGEMM)
WS_CREATE(create_softmax, k_create, K_SOFTMAX)
WS_CREATE(create_qmatmul, k_create, K_QMATMUL)

WS_DESC(axpy_desc, "kernel.axpy", 0u,
        "z = a x + y in native, wasm-cpu or wasm-simd", vec_params,
        create_axpy, k);
WS_DESC(dot_desc, "kernel.dot", 0u,
        "f32 dot product in native, wasm-cpu or wasm-simd", vec_params,
        create_dot, k);
WS_DESC(sgemm_desc, "kernel.sgemm", 0u,
        "C = A B (f32, i-k-j) in native, wasm-cpu or wasm-simd", mm_params,
        create_sgemm, k);
WS_DESC(softmax_desc, "kernel.softmax", 0u,
        "Row softmax (own expf) in native, wasm-cpu or wasm-simd", sm_params,
        create_softmax, k);
WS_DESC(qmatmul_desc, "kernel.qmatmul", 0u,
        "int8 A Bt^T with int32 accumulation and f32 scales in native, "
        "wasm-cpu or wasm-simd",
        mm_params, create_qmatmul, k);

const bhost_bench_desc *const ws_kernel_benches[] = {
    &axpy_desc, &dot_desc, &sgemm_desc, &softmax_desc, &qmatmul_desc, NULL,
};
