// SPDX-License-Identifier: MIT
/*
 * ie_internal.h -- the engine's internal types: device buffers, weights,
 * the model and state layouts, the thread pool and the kernel table.
 */
#ifndef IE_INTERNAL_H
#define IE_INTERNAL_H

#include "ie.h"

#include <stdatomic.h>

/* ---- Device buffers (ie_dev.c) ------------------------------------------ */

/* A backend buffer with a host view: the mapped pointer when the backend
 * maps it, else a host shadow kept in step with explicit copies. */
typedef struct ie_dbuf {
    bhost_buf *b;
    void *host;
    uint64_t bytes;
    int shadow; /* host is separate memory: push/pull copy */
} ie_dbuf;

/* Allocates bytes (> 0) of device memory and its host view. */
int ie_dbuf_alloc(ie_ctx *ctx, ie_dbuf *d, uint64_t bytes);
/* Frees both; a zeroed ie_dbuf is ignored. */
void ie_dbuf_free(ie_ctx *ctx, ie_dbuf *d);
/* Makes host writes of [off, off+n) visible to the device (shadow only). */
int ie_dbuf_push(ie_ctx *ctx, ie_dbuf *d, uint64_t off, uint64_t n);
/* Waits for device work and makes [off, off+n) visible on the host; the
 * gemms queued since the last wait count in stats.gemm_ns until here. */
int ie_dbuf_pull(ie_ctx *ctx, ie_dbuf *d, uint64_t off, uint64_t n);

/* C[n, m] (row-major) = X[n, k] . W[m, k]^T (+ beta C): the backend gemm
 * on whole buffers (the ABI has no offsets). x, w rows have k elements;
 * c rows have m. */
int ie_gemm_xwt(ie_ctx *ctx, const ie_dbuf *x, const ie_dbuf *w,
                ie_dbuf *c, uint64_t n, uint64_t m, uint64_t k, double beta);
/* C[n, m] = X[n, k] . Y[k, m] (row-major), whole buffers. */
int ie_gemm_xy(ie_ctx *ctx, const ie_dbuf *x, const ie_dbuf *y, ie_dbuf *c,
               uint64_t n, uint64_t m, uint64_t k);

/* ---- Weights (ie_weight.c) ---------------------------------------------- */

typedef struct ie_weight {
    ie_dbuf d;
    int type;    /* IE_W_* */
    int rows;    /* out */
    int cols;    /* in */
    float *scale; /* IE_W_I8: one per row (host memory) */
} ie_weight;

int ie_weight_alloc(ie_ctx *ctx, ie_weight *w, int type, int rows, int cols);
void ie_weight_free(ie_ctx *ctx, ie_weight *w);
/* Stores rows [r0, r0+n) from f32 src (n x cols), converting to w->type. */
void ie_weight_set_rows(ie_weight *w, int r0, int n, const float *src);
/* Makes all stored rows visible to the device. */
int ie_weight_commit(ie_ctx *ctx, ie_weight *w);
/* Row r as f32 / as double (the dequantized stored values). */
void ie_weight_row_f32(const ie_weight *w, int r, float *out);
void ie_weight_row_f64(const ie_weight *w, int r, double *out);
uint64_t ie_weight_bytes(const ie_weight *w);

/* ---- Model layout -------------------------------------------------------- */

typedef struct ie_layer {
    ie_weight qkv;  /* [(H + 2 KV) * hd, d]: q rows, then k, then v */
    ie_weight o;    /* [d, H * hd] */
    ie_weight up;   /* GPT-2/BERT fc [ff, d]; LLaMA gate|up [2 ff, d] */
    ie_weight down; /* [d, ff] */
    float *n1_g, *n1_b; /* GPT-2 ln_1; BERT attention output LN; LLaMA attn norm */
    float *n2_g, *n2_b; /* GPT-2 ln_2; BERT output LN; LLaMA ffn norm */
    float *b_qkv, *b_o, *b_up, *b_down; /* NULL for LLaMA */
} ie_layer;

struct ie_model {
    ie_ctx *ctx;
    ie_config cfg;
    int wtype;
    ie_weight tok;     /* [vocab, d] */
    ie_weight head;    /* LLaMA LM head [vocab, d]; unused when tied */
    float *pos;        /* [max_pos, d] (BERT, GPT-2) */
    float *type;       /* [type_vocab, d] (BERT) */
    float *emb_g, *emb_b; /* BERT embedding LN */
    float *fin_g, *fin_b; /* GPT-2 ln_f / LLaMA final norm (b NULL) */
    ie_layer *layers;
    uint64_t host_bytes; /* vectors in host memory */
};

/* The LM head weight (the token embedding when tied). */
const ie_weight *ie_model_head(const ie_model *m);

/* Allocates every weight and vector of m (values undefined). */
int ie_model_alloc(ie_model *m);
/* Fills m with seeded random values. */
int ie_model_fill_dummy(ie_model *m, uint64_t seed);
/* Fills m from a weight file, mapped or (io_read) read into memory
 * (ie_load.c). */
int ie_model_load_file(ie_model *m, const char *path, int io_read);

/* ---- State layout -------------------------------------------------------- */

/* The unclaimed output rows [first, end) of one thread's share of a host
 * matrix-vector product, as first << 32 | end; one cache line each. */
typedef struct ie_mv_span {
    _Atomic uint64_t rows;
    char pad[64 - sizeof(uint64_t)];
} ie_mv_span;

struct ie_state {
    ie_model *m;
    ie_ctx *ctx;
    int slots, max_ctx, max_rows;
    int *len;          /* per slot */
    int32_t *tokens;   /* [slots, max_ctx] history */
    ie_dbuf *kv;       /* [layer][slot][kv_head][2] each max_ctx x hd */
    float *rope_cos, *rope_sin; /* [max_ctx, hd/2] */
    /* per-row bookkeeping of the current call */
    int *row_slot, *row_pos;
    /* activations, all [max_rows, width] */
    ie_dbuf x, h, qkv, att, proj, up, act;
    ie_dbuf head_in, logits; /* [slots, d], [slots, vocab] */
    /* prefill attention scratch: Q block, scores, output block */
    ie_dbuf aq, as, ao;
    int qblock; /* queries per attention block (per head) */
    /* dequantize-on-the-fly scratch */
    ie_dbuf wt, yt;
    int tile_rows;
    float *scores;     /* decode attention: [threads, max_ctx] */
    ie_mv_span *mv_spans; /* host matvec: [threads] */
    int hidden_rows;   /* rows of the last ie_encode */
};

/* Buffer of (layer, slot, kv head), K (which 0) or V (1). */
ie_dbuf *ie_state_kvbuf(const ie_state *s, int layer, int slot, int g,
                        int which);

/* ---- Linear layers (ie_linear.c) ---------------------------------------- */

/* y[rows, w->rows] = x[rows, w->cols] . W^T: backend gemm (dequantizing
 * bf16/int8 tiles into f32 scratch of s), or the host matvec kernel for
 * few rows when ctx->matvec says so. Leaves y pulled to the host. */
int ie_linear(ie_state *s, const ie_weight *w, ie_dbuf *x, ie_dbuf *y,
              int rows);

/* Activations ie_linear_ep applies after the bias. */
enum { IE_ACT_NONE = 0, IE_ACT_GELU_TANH = 1, IE_ACT_GELU_ERF = 2 };

/* ie_linear, then + bias (when not NULL) and the activation act
 * (IE_ACT_*: GELU's tanh form, GPT-2, or erf form, BERT) on every output.
 * The host matvec path applies them to each block of outputs as its
 * thread computes it; the others after the product (ie_ops). */
int ie_linear_ep(ie_state *s, const ie_weight *w, const float *bias,
                 int act, ie_dbuf *x, ie_dbuf *y, int rows);

/* ---- Attention (ie_attn.c) ---------------------------------------------- */

/* Self-attention of the current call's rows: reads q from s->qkv (rows
 * already RoPE'd and their K/V written to the cache), writes s->att.
 * causal: keys up to each row's position; else all keys of its slot up to
 * len. Rows of one slot must be contiguous and in position order. */
int ie_attention(ie_state *s, int layer, int rows, int causal);

/* ---- Thread pool (ie_pool.c) -------------------------------------------- */

typedef void (*ie_task_fn)(void *arg, int task, int thread);

/* threads >= 2: threads-1 helpers; NULL on failure. */
ie_pool *ie_pool_create(int threads);
void ie_pool_destroy(ie_pool *p);
/* Runs fn(arg, t, thread) for t in [0, tasks) on the pool and the caller;
 * returns when all are done. p NULL runs them inline. */
void ie_pool_run(ie_pool *p, int tasks, ie_task_fn fn, void *arg);
int ie_pool_threads(const ie_pool *p);

/* ---- Kernels (ie_kern_*.c) ---------------------------------------------- */

#define IE_MV_MAXB 8

typedef struct ie_kern {
    const char *name;
    /* y[b*ldy + o] = sum_i W[o, i] x[b*ldx + i] for o in [o0, o1), b < nb
     * (nb <= IE_MV_MAXB); W rows have `cols` elements. */
    void (*mv_f32)(const float *w, int cols, int o0, int o1, const float *x,
                   int ldx, int nb, float *y, int ldy);
    void (*mv_bf16)(const uint16_t *w, int cols, int o0, int o1,
                    const float *x, int ldx, int nb, float *y, int ldy);
    void (*mv_i8)(const int8_t *w, const float *scale, int cols, int o0,
                  int o1, const float *x, int ldx, int nb, float *y, int ldy);
    void (*deq_bf16)(const uint16_t *src, float *dst, size_t n);
    void (*deq_i8)(const int8_t *src, float scale, float *dst, size_t n);
    /* out[0..hd) = sum_i softmax(scale q.K[i])_i V[i] over n keys (rows
     * hd floats apart); sc: n floats of scratch */
    void (*attend)(const float *q, const float *K, const float *V, int n,
                   int hd, float scale, float *sc, float *out);
    /* x[0..n) = softmax(x[0..n)); x[n..ntotal) = 0 */
    void (*softmax)(float *x, int n, int ntotal);
    void (*gelu_tanh)(float *x, size_t n);
    void (*gelu_erf)(float *x, size_t n);
    /* out[i] = silu(g[i]) * u[i] */
    void (*silu_mul)(const float *g, const float *u, float *out, size_t n);
    void (*layernorm)(const float *x, const float *g, const float *b,
                      float *y, int n, float eps);
    void (*rmsnorm)(const float *x, const float *g, float *y, int n,
                    float eps);
    /* y[i] += x[i] */
    void (*add)(float *y, const float *x, size_t n);
} ie_kern;

extern const ie_kern ie_kern_portable;
#if defined(IE_HAVE_X86)
extern const ie_kern ie_kern_avx2;
extern const ie_kern ie_kern_avx512;
#endif

/* The best table for this CPU (IE_ISA env var "portable", "avx2" caps it). */
const ie_kern *ie_kern_get(void);

/* ---- Host ops over rows (ie_ops.c) ------------------------------------- */

/* y[r] = norm(x[r]) for rows [0, rows); b may be NULL (RMSNorm when
 * rms). Parallel over rows when large. */
void ie_ops_norm(ie_ctx *ctx, const float *x, float *y, const float *g,
                 const float *b, int rows, int n, float eps, int rms);
/* x[r, 0..n) += bias (when not NULL), rows in parallel when large. */
void ie_ops_bias(ie_ctx *ctx, float *x, const float *bias, int rows, int n);
/* y[r] += x[r] + bias */
void ie_ops_residual(ie_ctx *ctx, float *y, const float *x,
                     const float *bias, int rows, int n);
/* In place gelu over rows x n (+bias first when not NULL); erf: exact
 * form (BERT), else the tanh form (GPT-2). */
void ie_ops_gelu(ie_ctx *ctx, float *x, const float *bias, int rows, int n,
                 int erf);
/* act[r, 0..ff) = silu(gu[r, 0..ff)) * gu[r, ff..2ff) */
void ie_ops_swiglu(ie_ctx *ctx, const float *gu, float *act, int rows,
                   int ff);

/* ---- Misc ----------------------------------------------------------------- */

/* bf16 / f16 <-> f32 (round to nearest even). */
float ie_bf16_to_f32(uint16_t h);
uint16_t ie_f32_to_bf16(float f);
float ie_f16_to_f32(uint16_t h);

#endif /* IE_INTERNAL_H */
