// SPDX-License-Identifier: MIT
/*
 * tk_body_ew.h -- element-wise kernels (the "vector" variant) over the
 * vector vocabulary, for one contiguous chunk. Included by the three ISA
 * files after tk_simd*.h, tk_body_map.h and tk_body_vmath.h.
 * Tails load 1.0 into unused lanes, so no lane raises a spurious NaN.
 */

/* One op on one vector of each input; unused inputs are ignored. */
static inline TK_T vf f_add(vf a, vf b, vf c) { (void)c; return vf_add(a, b); }
static inline TK_T vf f_sub(vf a, vf b, vf c) { (void)c; return vf_sub(a, b); }
static inline TK_T vf f_mul(vf a, vf b, vf c) { (void)c; return vf_mul(a, b); }
static inline TK_T vf f_div(vf a, vf b, vf c) { (void)c; return vf_div(a, b); }
static inline TK_T vf f_fma(vf a, vf b, vf c) { return vf_fma(a, b, c); }
/* max(0, a): the second operand wins when unordered, so NaN stays NaN. */
static inline TK_T vf f_relu(vf a, vf b, vf c) { (void)b; (void)c; return vf_max(vf_zero(), a); }
static inline TK_T vf f_gelu(vf a, vf b, vf c) { (void)b; (void)c; return vf_gelu(a); }
static inline TK_T vf f_sigmoid(vf a, vf b, vf c) { (void)b; (void)c; return vf_sigmoid(a); }
static inline TK_T vf f_tanh(vf a, vf b, vf c) { (void)b; (void)c; return vf_tanh(a); }
static inline TK_T vf f_exp(vf a, vf b, vf c) { (void)b; (void)c; return vf_exp(a); }
static inline TK_T vf f_log(vf a, vf b, vf c) { (void)b; (void)c; return vf_log(a); }
static inline TK_T vf f_sqrt(vf a, vf b, vf c) { (void)b; (void)c; return vf_sqrt(a); }

static inline TK_T vd d_add(vd a, vd b, vd c) { (void)c; return vd_add(a, b); }
static inline TK_T vd d_sub(vd a, vd b, vd c) { (void)c; return vd_sub(a, b); }
static inline TK_T vd d_mul(vd a, vd b, vd c) { (void)c; return vd_mul(a, b); }
static inline TK_T vd d_div(vd a, vd b, vd c) { (void)c; return vd_div(a, b); }
static inline TK_T vd d_fma(vd a, vd b, vd c) { return vd_fma(a, b, c); }
static inline TK_T vd d_relu(vd a, vd b, vd c) { (void)b; (void)c; return vd_max(vd_set1(0.0), a); }
static inline TK_T vd d_sqrt(vd a, vd b, vd c) { (void)b; (void)c; return vd_sqrt(a); }

/* Loads of 1, 2 or 3 inputs at element i (full) or k lanes at i (part),
 * applied to the op function F. */
#define EWF1(F, i) F(vf_ld(a + (i)), vf_zero(), vf_zero())
#define EWP1(F, i, k) F(vf_ldn(a + (i), (k), 1.0f), vf_zero(), vf_zero())
#define EWF2(F, i) F(vf_ld(a + (i)), vf_ld(b + (i)), vf_zero())
#define EWP2(F, i, k) F(vf_ldn(a + (i), (k), 1.0f), vf_ldn(b + (i), (k), 1.0f), vf_zero())
#define EWF3(F, i) F(vf_ld(a + (i)), vf_ld(b + (i)), vf_ld(c + (i)))
#define EWP3(F, i, k)                                                          \
    F(vf_ldn(a + (i), (k), 1.0f), vf_ldn(b + (i), (k), 1.0f),                  \
      vf_ldn(c + (i), (k), 1.0f))
#define EDF1(F, i) F(vd_ld(a + (i)), vd_set1(0.0), vd_set1(0.0))
#define EDP1(F, i, k) F(vd_ldn(a + (i), (k), 1.0), vd_set1(0.0), vd_set1(0.0))
#define EDF2(F, i) F(vd_ld(a + (i)), vd_ld(b + (i)), vd_set1(0.0))
#define EDP2(F, i, k) F(vd_ldn(a + (i), (k), 1.0), vd_ldn(b + (i), (k), 1.0), vd_set1(0.0))
#define EDF3(F, i) F(vd_ld(a + (i)), vd_ld(b + (i)), vd_ld(c + (i)))
#define EDP3(F, i, k)                                                          \
    F(vd_ldn(a + (i), (k), 1.0), vd_ldn(b + (i), (k), 1.0),                    \
      vd_ldn(c + (i), (k), 1.0))

/* o[i] = F(a[i], b[i], c[i]) for i < n, one function per op and arity. */
#define EW_F32_DEF(name, AR, F)                                                \
    static TK_T void name(const float *a, const float *b, const float *c,      \
                          float *o, size_t n, int nt)                          \
    {                                                                          \
        (void)b;                                                               \
        (void)c;                                                               \
        TK_MAP_F32(o, n, nt, EWF##AR, EWP##AR, F);                             \
    }
#define EW_F64_DEF(name, AR, F)                                                \
    static TK_T void name(const double *a, const double *b, const double *c,   \
                          double *o, size_t n, int nt)                         \
    {                                                                          \
        (void)b;                                                               \
        (void)c;                                                               \
        TK_MAP_F64(o, n, nt, EDF##AR, EDP##AR, F);                             \
    }

EW_F32_DEF(ew_add, 2, f_add)
EW_F32_DEF(ew_sub, 2, f_sub)
EW_F32_DEF(ew_mul, 2, f_mul)
EW_F32_DEF(ew_div, 2, f_div)
EW_F32_DEF(ew_fma, 3, f_fma)
EW_F32_DEF(ew_relu, 1, f_relu)
EW_F32_DEF(ew_gelu, 1, f_gelu)
EW_F32_DEF(ew_sigmoid, 1, f_sigmoid)
EW_F32_DEF(ew_tanh, 1, f_tanh)
EW_F32_DEF(ew_exp, 1, f_exp)
EW_F32_DEF(ew_log, 1, f_log)
EW_F32_DEF(ew_sqrt, 1, f_sqrt)
EW_F64_DEF(ed_add, 2, d_add)
EW_F64_DEF(ed_sub, 2, d_sub)
EW_F64_DEF(ed_mul, 2, d_mul)
EW_F64_DEF(ed_div, 2, d_div)
EW_F64_DEF(ed_fma, 3, d_fma)
EW_F64_DEF(ed_relu, 1, d_relu)
EW_F64_DEF(ed_sqrt, 1, d_sqrt)

/* Dispatches op; the caller has checked op and dtype support. */
static TK_T void ew_f32(tk_op op, const float *a, const float *b,
                        const float *c, float *o, size_t n, int nt)
{
    typedef void (*fn_t)(const float *, const float *, const float *, float *,
                         size_t, int);
    static const fn_t fns[TK_OP_COUNT] = {
        [TK_OP_ADD] = ew_add,         [TK_OP_SUB] = ew_sub,
        [TK_OP_MUL] = ew_mul,         [TK_OP_DIV] = ew_div,
        [TK_OP_FMA] = ew_fma,         [TK_OP_RELU] = ew_relu,
        [TK_OP_GELU] = ew_gelu,       [TK_OP_SIGMOID] = ew_sigmoid,
        [TK_OP_TANH] = ew_tanh,       [TK_OP_EXP] = ew_exp,
        [TK_OP_LOG] = ew_log,         [TK_OP_SQRT] = ew_sqrt,
    };

    if ((unsigned)op < TK_OP_COUNT)
        fns[op](a, b, c, o, n, nt);
}

/* As ew_f32 for doubles; transcendental ops are not provided (no-op). */
static TK_T void ew_f64(tk_op op, const double *a, const double *b,
                        const double *c, double *o, size_t n, int nt)
{
    typedef void (*fn_t)(const double *, const double *, const double *,
                         double *, size_t, int);
    static const fn_t fns[TK_OP_COUNT] = {
        [TK_OP_ADD] = ed_add,   [TK_OP_SUB] = ed_sub, [TK_OP_MUL] = ed_mul,
        [TK_OP_DIV] = ed_div,   [TK_OP_FMA] = ed_fma, [TK_OP_RELU] = ed_relu,
        [TK_OP_SQRT] = ed_sqrt,
    };

    if ((unsigned)op < TK_OP_COUNT && fns[op] != NULL)
        fns[op](a, b, c, o, n, nt);
}
