// SPDX-License-Identifier: MIT
/*
 * wsim_simd.c -- the "wasm-simd" mode: wk_ops.c's kernels with wasm
 * SIMD128's operations (v128.load/store, f32x4 arithmetic, i8x16 -> i16x8
 * extension and i32x4.dot_i16x8_s), run as native code on 16-byte GCC
 * vectors inside an instance's linear memory. Debian's wasm2c (wabt
 * 1.0.32) aborts on modules built with -msimd128, so this is how the suite
 * measures 128-bit SIMD under wasm's memory rules: addresses are 32-bit
 * offsets computed with wrap-around, and every access is bounds-checked
 * like an engine does (explicitly in the explicit build; by the guard pages
 * in the guard build). Built without AVX so that vectors stay 128-bit.
 *
 * Per-element operation order is that of wk_ops.c for axpy, sgemm, qmatmul
 * and softmax's exponentials (bit-identical results); dot and the softmax
 * sum add four lanes at a time (different rounding).
 */
#include "wsim.h"

#include <string.h>

typedef float f32x4 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));
typedef int16_t i16x8 __attribute__((vector_size(16)));
typedef int8_t i8x16 __attribute__((vector_size(16)));
typedef int8_t i8x8 __attribute__((vector_size(8)));
typedef int16_t i16x4 __attribute__((vector_size(8)));

/* The linear memory as a kernel sees it. */
typedef struct lm {
    uint8_t *base;
    uint32_t size;
    int checked;
    const wsim_ops *ops;
} lm;

/* Traps unless [addr, addr + len) is inside the memory (explicit build). */
static inline void chk(const lm *m, uint32_t addr, uint32_t len)
{
    if (m->checked && __builtin_expect((uint64_t)addr + len > m->size, 0))
        m->ops->trap(WSIM_TRAP_OOB);
}

/* A checked load or store of len bytes at addr. */
static inline void ld(const lm *m, uint32_t addr, void *dst, uint32_t len)
{
    chk(m, addr, len);
    memcpy(dst, m->base + addr, len);
}

static inline void st(const lm *m, uint32_t addr, const void *src,
                      uint32_t len)
{
    chk(m, addr, len);
    memcpy(m->base + addr, src, len);
}

/* v128.load / v128.store, f32.load / f32.store, i32.load8_s. */
static inline f32x4 ld_f4(const lm *m, uint32_t a)
{
    f32x4 v;

    ld(m, a, &v, 16);
    return v;
}

static inline i8x16 ld_i16(const lm *m, uint32_t a)
{
    i8x16 v;

    ld(m, a, &v, 16);
    return v;
}

static inline float ld_f(const lm *m, uint32_t a)
{
    float f;

    ld(m, a, &f, 4);
    return f;
}

static inline int32_t ld_i8(const lm *m, uint32_t a)
{
    int8_t b;

    ld(m, a, &b, 1);
    return b;
}

static inline void st_f4(const lm *m, uint32_t a, f32x4 v) { st(m, a, &v, 16); }
static inline void st_f(const lm *m, uint32_t a, float f) { st(m, a, &f, 4); }

static inline f32x4 splat(float f)
{
    f32x4 v = {f, f, f, f};

    return v;
}

/* Lane-wise c ? a : b for a mask of all-ones/all-zeros lanes. */
static inline f32x4 select4(i32x4 c, f32x4 a, f32x4 b)
{
    return (f32x4)((c & (i32x4)a) | (~c & (i32x4)b));
}

/* Arguments of one kernel call, and the memory it works in. */
typedef struct job {
    lm m;
    uint32_t n, k, rows, cols;
    uint32_t x, y, z, a, b, c, sa, sb;
    float alpha, result;
} job;

static void axpy_body(void *p)
{
    job *j = p;
    const lm *m = &j->m;
    f32x4 a4 = splat(j->alpha);
    uint32_t i = 0;

    for (; i + 4 <= j->n; i += 4)
        st_f4(m, j->z + 4 * i,
              a4 * ld_f4(m, j->x + 4 * i) + ld_f4(m, j->y + 4 * i));
    for (; i < j->n; i++)
        st_f(m, j->z + 4 * i,
             j->alpha * ld_f(m, j->x + 4 * i) + ld_f(m, j->y + 4 * i));
}

static void dot_body(void *p)
{
    job *j = p;
    const lm *m = &j->m;
    f32x4 acc = splat(0.0f);
    uint32_t i = 0;
    float s;

    for (; i + 4 <= j->n; i += 4)
        acc += ld_f4(m, j->x + 4 * i) * ld_f4(m, j->y + 4 * i);
    s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (; i < j->n; i++)
        s += ld_f(m, j->x + 4 * i) * ld_f(m, j->y + 4 * i);
    j->result = s;
}

static void sgemm_body(void *p)
{
    job *j = p;
    const lm *m = &j->m;
    uint32_t rows = j->rows, n = j->n, k = j->k;

    for (uint32_t i = 0; i < rows; i++) {
        uint32_t ci = j->c + 4 * i * n;
        uint32_t q;

        for (q = 0; q + 4 <= n; q += 4)
            st_f4(m, ci + 4 * q, splat(0.0f));
        for (; q < n; q++)
            st_f(m, ci + 4 * q, 0.0f);
        for (uint32_t l = 0; l < k; l++) {
            float aik = ld_f(m, j->a + 4 * (i * k + l));
            f32x4 a4 = splat(aik);
            uint32_t bl = j->b + 4 * l * n;

            for (q = 0; q + 4 <= n; q += 4)
                st_f4(m, ci + 4 * q,
                      ld_f4(m, ci + 4 * q) + a4 * ld_f4(m, bl + 4 * q));
            for (; q < n; q++)
                st_f(m, ci + 4 * q,
                     ld_f(m, ci + 4 * q) + aik * ld_f(m, bl + 4 * q));
        }
    }
}

/* wk_expf on four lanes, with the same operations per lane. */
static f32x4 exp4(f32x4 x0)
{
    const f32x4 log2e = splat(1.44269504088896341f);
    const f32x4 ln2_hi = splat(0.693145752f), ln2_lo = splat(1.42860677e-6f);
    /* lanes outside the range (and NaN) are replaced at the end; clamp
     * them here so that the int conversion stays in range */
    i32x4 keep = (x0 >= splat(-88.0f)) & (x0 <= splat(89.0f));
    f32x4 x = select4(keep, x0, splat(0.0f));
    i32x4 pos = x >= splat(0.0f);
    f32x4 t = x * log2e;
    i32x4 n = __builtin_convertvector(
        t + select4(pos, splat(0.5f), splat(-0.5f)), i32x4);
    f32x4 nf = __builtin_convertvector(n, f32x4);
    f32x4 r = (x - nf * ln2_hi) - nf * ln2_lo;
    f32x4 p = splat(1.0f) +
              r * (splat(1.0f) +
                   r * (splat(0.5f) +
                        r * (splat(0.166666672f) +
                             r * (splat(0.0416666679f) +
                                  r * (splat(0.00833333377f) +
                                       r * splat(0.00138888892f))))));
    i32x4 big = n > 127;
    i32x4 n1 = (n & ~big) | (big & 127);
    f32x4 v = p * (f32x4)((n1 + 127) << 23);
    f32x4 inf = (f32x4)(i32x4){0x7f800000, 0x7f800000, 0x7f800000,
                               0x7f800000};

    v = select4(big, v * splat(2.0f), v);
    v = select4(x0 < splat(-87.3365479f), splat(0.0f), v);
    v = select4(x0 > splat(88.7228394f), inf, v);
    return select4(x0 != x0, x0, v);
}

static void softmax_body(void *p)
{
    job *j = p;
    const lm *m = &j->m;
    uint32_t cols = j->cols;

    for (uint32_t r = 0; r < j->rows; r++) {
        uint32_t xr = j->x + 4 * r * cols, yr = j->y + 4 * r * cols;
        float mx = ld_f(m, xr), sum, inv;
        f32x4 mx4 = splat(mx), acc = splat(0.0f);
        uint32_t q = 0;

        for (; q + 4 <= cols; q += 4) {
            f32x4 v = ld_f4(m, xr + 4 * q);

            mx4 = select4(v > mx4, v, mx4);
        }
        for (int l = 0; l < 4; l++)
            if (mx4[l] > mx)
                mx = mx4[l];
        for (; q < cols; q++)
            if (ld_f(m, xr + 4 * q) > mx)
                mx = ld_f(m, xr + 4 * q);
        mx4 = splat(mx);
        for (q = 0; q + 4 <= cols; q += 4) {
            f32x4 e = exp4(ld_f4(m, xr + 4 * q) - mx4);

            st_f4(m, yr + 4 * q, e);
            acc += e;
        }
        sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        for (; q < cols; q++) {
            f32x4 e = exp4(splat(ld_f(m, xr + 4 * q) - mx));

            st_f(m, yr + 4 * q, e[0]);
            sum += e[0];
        }
        inv = 1.0f / sum;
        for (q = 0; q + 4 <= cols; q += 4)
            st_f4(m, yr + 4 * q, ld_f4(m, yr + 4 * q) * splat(inv));
        for (; q < cols; q++)
            st_f(m, yr + 4 * q, ld_f(m, yr + 4 * q) * inv);
    }
}

/* i32x4.dot_i16x8_s of the low or high eight int8 lanes, sign-extended. */
static inline i32x4 dot_half(i8x16 a, i8x16 b, int high)
{
    i8x8 a8 = high ? __builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15)
                   : __builtin_shufflevector(a, a, 0, 1, 2, 3, 4, 5, 6, 7);
    i8x8 b8 = high ? __builtin_shufflevector(b, b, 8, 9, 10, 11, 12, 13, 14, 15)
                   : __builtin_shufflevector(b, b, 0, 1, 2, 3, 4, 5, 6, 7);
    i16x8 a16 = __builtin_convertvector(a8, i16x8);
    i16x8 b16 = __builtin_convertvector(b8, i16x8);
    i16x4 ae = __builtin_shufflevector(a16, a16, 0, 2, 4, 6);
    i16x4 ao = __builtin_shufflevector(a16, a16, 1, 3, 5, 7);
    i16x4 be = __builtin_shufflevector(b16, b16, 0, 2, 4, 6);
    i16x4 bo = __builtin_shufflevector(b16, b16, 1, 3, 5, 7);

    i32x4 e = __builtin_convertvector(ae, i32x4) *
              __builtin_convertvector(be, i32x4);

    return e + __builtin_convertvector(ao, i32x4) *
                   __builtin_convertvector(bo, i32x4);
}

static void qmatmul_body(void *p)
{
    job *j = p;
    const lm *m = &j->m;
    uint32_t n = j->n, k = j->k;

    for (uint32_t i = 0; i < j->rows; i++) {
        uint32_t ai = j->a + i * k;
        float si = ld_f(m, j->sa + 4 * i);

        for (uint32_t c = 0; c < n; c++) {
            uint32_t bc = j->b + c * k;
            i32x4 acc = {0, 0, 0, 0};
            int32_t s;
            uint32_t l = 0;

            for (; l + 16 <= k; l += 16) {
                i8x16 av = ld_i16(m, ai + l), bv = ld_i16(m, bc + l);

                acc += dot_half(av, bv, 0) + dot_half(av, bv, 1);
            }
            s = acc[0] + acc[1] + acc[2] + acc[3];
            for (; l < k; l++)
                s += ld_i8(m, ai + l) * ld_i8(m, bc + l);
            st_f(m, j->c + 4 * (i * n + c),
                 (float)s * (si * ld_f(m, j->sb + 4 * c)));
        }
    }
}

/* Fills j->m from w and runs body under the instance's trap handler. */
static int run(wsim_inst *w, job *j, void (*body)(void *))
{
    wsim_mem mem = wsim_memory(w);

    j->m.base = mem.data;
    j->m.size = mem.size;
    j->m.checked = !w->ops->guard;
    j->m.ops = w->ops;
    w->last_trap = w->ops->protect(body, j);
    return w->last_trap;
}

int wsim_simd_axpy(wsim_inst *w, uint32_t n, float a, uint32_t x, uint32_t y,
                   uint32_t z)
{
    job j;

    memset(&j, 0, sizeof(j));
    j.n = n;
    j.alpha = a;
    j.x = x;
    j.y = y;
    j.z = z;
    return run(w, &j, axpy_body);
}

int wsim_simd_dot(wsim_inst *w, uint32_t n, uint32_t x, uint32_t y,
                  float *out)
{
    job j;
    int code;

    memset(&j, 0, sizeof(j));
    j.n = n;
    j.x = x;
    j.y = y;
    code = run(w, &j, dot_body);
    *out = j.result;
    return code;
}

int wsim_simd_sgemm(wsim_inst *w, uint32_t m, uint32_t n, uint32_t k,
                    uint32_t a, uint32_t b, uint32_t c)
{
    job j;

    memset(&j, 0, sizeof(j));
    j.rows = m;
    j.n = n;
    j.k = k;
    j.a = a;
    j.b = b;
    j.c = c;
    return run(w, &j, sgemm_body);
}

int wsim_simd_softmax(wsim_inst *w, uint32_t rows, uint32_t cols, uint32_t x,
                      uint32_t y)
{
    job j;

    memset(&j, 0, sizeof(j));
    j.rows = rows;
    j.cols = cols;
    j.x = x;
    j.y = y;
    return run(w, &j, softmax_body);
}

int wsim_simd_qmatmul(wsim_inst *w, uint32_t m, uint32_t n, uint32_t k,
                      uint32_t a, uint32_t bt, uint32_t sa, uint32_t sb,
                      uint32_t c)
{
    job j;

    memset(&j, 0, sizeof(j));
    j.rows = m;
    j.n = n;
    j.k = k;
    j.a = a;
    j.b = bt;
    j.sa = sa;
    j.sb = sb;
    j.c = c;
    return run(w, &j, qmatmul_body);
}
