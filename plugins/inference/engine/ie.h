// SPDX-License-Identifier: MIT
/*
 * ie.h -- libinfer_engine: a small transformer inference engine (BERT-style
 * encoder, GPT-2-style decoder, LLaMA-style decoder) whose weight matrix
 * multiplies go through a bhost backend's gemm kernel ("bhost.kernel.gemm/1")
 * and whose other work (norms, activations, attention softmax, RoPE,
 * sampling) is host code. The inference plugin is a thin adapter over it;
 * its unit tests drive it with a test backend, without the host.
 *
 * Conventions for every function below:
 *  - Actions return IE_OK or a negative IE_E* code; on failure ctx->err
 *    holds one line saying what went wrong. Constructors return NULL and
 *    leave the reason in ctx->err.
 *  - Matrices are row-major. A linear weight is [out, in] (nn.Linear).
 *  - Calls on one ie_ctx (and everything created from it) are serialized
 *    by the caller; the engine's own worker threads never outlive a call.
 *  - Host memory comes from ctx->host (accounted by the plugin), device
 *    buffers from the backend; every object frees what it created.
 */
#ifndef IE_H
#define IE_H

#include <stddef.h>
#include <stdint.h>

#include <bhost/plugin.h>

enum {
    IE_OK = 0,
    IE_EINVAL = -1,  /* bad argument, parameter or shape */
    IE_ENOMEM = -2,  /* host or device allocation failed */
    IE_EDEV = -3,    /* the backend refused a call */
    IE_EFILE = -4,   /* a weight file is missing or malformed */
    IE_EUNSUP = -5,  /* valid request this backend/build cannot serve */
    IE_EVERIFY = -6  /* output differs from the reference */
};

/* Architectures. */
enum { IE_ARCH_BERT = 1, IE_ARCH_GPT2 = 2, IE_ARCH_LLAMA = 3 };

/* Storage types of weight matrices (compute is always f32). */
enum { IE_W_F32 = 1, IE_W_BF16 = 2, IE_W_I8 = 3 };

/* RoPE pairing: HF "rotate_half" (i, i + hd/2) or Meta/GGUF (2i, 2i + 1). */
enum { IE_ROPE_HALF = 0, IE_ROPE_INTERLEAVED = 1 };

/* How small-row linear layers (decode) are computed: through the backend's
 * gemm (default) or by the engine's host matrix-vector kernel. */
enum { IE_MATVEC_BACKEND = 0, IE_MATVEC_HOST = 1 };

#define IE_ERR_CAP 320
#define IE_NAME_CAP 32

/* Model shape. */
typedef struct ie_config {
    char name[IE_NAME_CAP];
    int arch;          /* IE_ARCH_* */
    int n_layers;      /* layers built and run */
    int n_layers_full; /* layers of the published model (for extrapolation) */
    int d_model;
    int n_heads;
    int n_kv_heads; /* == n_heads unless grouped-query attention */
    int head_dim;   /* d_model / n_heads */
    int d_ff;
    int vocab;
    int max_pos;    /* learned position table rows (BERT, GPT-2); context cap */
    int type_vocab; /* BERT token types (2); 0 otherwise */
    int rope_style; /* IE_ROPE_* (LLaMA) */
    int tied;       /* LM head is the token embedding (GPT-2) */
    float norm_eps;
    float rope_theta;
} ie_config;

/* Fills *out with the named preset: bert-base, bert-large, gpt2,
 * gpt2-medium, llama-7b, llama-13b, and the test shapes tiny-bert,
 * tiny-gpt2, tiny-llama. IE_EINVAL for an unknown name. */
int ie_preset(const char *name, ie_config *out);

/* NULL-terminated list of preset names (static). */
const char *const *ie_preset_names(void);

/* Checks a config's internal consistency; writes the reason into err. */
int ie_config_check(const ie_config *c, char *err, size_t cap);

/* Parameter and work counts of a config (independent of weights). */
typedef struct ie_counts {
    double params_layer;  /* weights of one layer (matrices + vectors) */
    double params_matmul_layer; /* matrix weights of one layer */
    double params_embed;  /* token (+ position, type) embeddings */
    double params_head;   /* untied LM head, 0 when tied or encoder */
    double params_total;
    double head_matmul;   /* LM-head matrix elements used per token (V*d) */
} ie_counts;

void ie_config_counts(const ie_config *c, ie_counts *out);

/* Matmul FLOPs of processing `rows` new tokens that attend to
 * `attended_keys` (query, key) pairs in total, plus `head_rows` LM-head
 * rows (attention counted as 4 * heads * head_dim per pair). */
double ie_flops(const ie_config *c, double rows, double attended_keys,
                double head_rows);

/* ---- Context: host allocator, backend, thread pool ---------------------- */

typedef struct ie_host_ops {
    void *user;
    void *(*alloc)(void *user, size_t bytes); /* 64-byte aligned, or NULL */
    void (*free)(void *user, void *p);
    uint64_t (*now_ns)(void *user);           /* monotonic */
} ie_host_ops;

typedef struct bh_pool ie_pool; /* plugins/common/bh_pool.h */

typedef struct ie_stats {
    uint64_t gemm_ns, gemm_calls;
    uint64_t layer_ns;   /* inside transformer layers */
    uint64_t layer_runs; /* layer executions (layers x forward calls) */
    uint64_t total_ns;   /* whole forward calls */
    uint64_t forwards;
} ie_stats;

typedef struct ie_ctx {
    ie_host_ops host;
    const bhost_backend *be;
    bhost_dev *dev;
    bhost_stream *stream;
    const bhost_kernel_gemm *gemm;
    ie_pool *pool;  /* NULL: single-threaded host code */
    int threads;
    int matvec;     /* IE_MATVEC_* */
    int matvec_max_rows; /* rows <= this use the host kernel (IE_MATVEC_HOST) */
    ie_stats stats;
    uint64_t gemm_t0; /* start of the gemms not yet waited for; 0: none */
    char err[IE_ERR_CAP];
} ie_ctx;

/* Sets up ctx over a backend device: finds the gemm kernel (IE_EUNSUP when
 * the device has none) and starts threads-1 helper threads (threads >= 1).
 * host is copied. */
int ie_ctx_init(ie_ctx *ctx, const ie_host_ops *host, const bhost_backend *be,
                bhost_dev *dev, bhost_stream *stream, int threads);

/* Joins the helper threads. Safe on a zeroed or half-initialized ctx. */
void ie_ctx_fini(ie_ctx *ctx);

/* Formats a one-line error into ctx->err and returns code. */
int ie_fail(ie_ctx *ctx, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Host memory through ctx->host (NULL on failure, with ctx->err set). */
void *ie_alloc(ie_ctx *ctx, size_t bytes);
void ie_free(ie_ctx *ctx, void *p);

/* ---- Model -------------------------------------------------------------- */

typedef struct ie_model ie_model;

/* Where the weights come from. */
typedef struct ie_source {
    const char *path; /* NULL or "dummy": seeded random weights */
    uint64_t seed;    /* for dummy weights */
    int io_read;      /* 1: read() the file into memory; 0: map it */
} ie_source;

/* Builds a model of config c with weights stored as wtype (IE_W_*), from
 * src: seeded random values, or a .safetensors / .gguf file whose tensors
 * must match c (only the first c->n_layers layers are read). */
ie_model *ie_model_create(ie_ctx *ctx, const ie_config *c, int wtype,
                          const ie_source *src);
void ie_model_destroy(ie_model *m);

/* The largest difference between the weight matrices of a and b (models
 * of one config): over `samples` evenly spaced rows of every matrix, max
 * |a - b| / max |b| of the row. -1 when the shapes differ or memory is
 * short (ie_compare.c). */
double ie_model_weight_diff(const ie_model *a, const ie_model *b, int samples);

const ie_config *ie_model_config(const ie_model *m);
/* Bytes of all weights as stored (device matrices + host vectors). */
uint64_t ie_model_bytes(const ie_model *m);
/* Bytes of one layer's weights (matrices and vectors). */
uint64_t ie_model_layer_bytes(const ie_model *m);
/* Weight bytes one decode step reads: every layer matrix and vector, the
 * LM head, one embedding row. */
uint64_t ie_model_step_bytes(const ie_model *m);

/* ---- State: KV cache and activations ------------------------------------ */

typedef struct ie_state ie_state;

/* A state for `slots` sequences of up to max_ctx tokens each, processing
 * at most max_rows tokens per call (prefill chunk x sequences). */
ie_state *ie_state_create(ie_model *m, int slots, int max_ctx, int max_rows);
void ie_state_destroy(ie_state *s);

/* Bytes of the KV cache (all layers and slots). */
uint64_t ie_state_kv_bytes(const ie_state *s);
/* Tokens cached in a slot. */
int ie_state_len(const ie_state *s, int slot);
/* Forgets a slot's tokens from position len on (len <= current length). */
int ie_state_truncate(ie_state *s, int slot, int len);
/* The tokens of a slot (len of them), for references. */
const int32_t *ie_state_tokens(const ie_state *s, int slot);

/* Appends T tokens to each of n slots (tokens[i*T + t]) and runs them
 * (causal decoders). Writes the last position's logits of slot i into row
 * i of the state's logits (ie_logits). T == 1 is a decode step. */
int ie_forward(ie_state *s, const int *slots, int n, const int32_t *tokens,
               int T);

/* Encoder: runs n sequences of T tokens (each replacing its slot's
 * contents) with bidirectional attention; hidden states in ie_hidden. */
int ie_encode(ie_state *s, const int *slots, int n, const int32_t *tokens,
              int T);

/* Logits of the last ie_forward: row i (vocab floats) for its i-th slot. */
const float *ie_logits(const ie_state *s, int i);
/* Final hidden state (d_model floats) of row r of the last ie_encode
 * (r = i * T + t). */
const float *ie_hidden(const ie_state *s, int r);

/* Copies one cached K or V row (kv_heads * head_dim floats) of a layer,
 * slot and position into out; IE_EINVAL when out of range. which: 0 = K
 * (after RoPE), 1 = V. */
int ie_state_kv_row(const ie_state *s, int layer, int slot, int pos,
                    int which, float *out);

/* ---- Reference ---------------------------------------------------------- */

/* Straightforward double-precision forward of tokens[0..T) on the same
 * (dequantized) weights: logits [T, vocab] for decoders (causal), final
 * hidden states [T, d_model] for encoders. out is caller memory. */
int ie_ref_forward(const ie_model *m, const int32_t *tokens, int T,
                   double *out);

/* Result of ie_ref_check. */
typedef struct ie_check {
    double out_err;   /* max |engine - ref| / max |ref| over the output */
    double kv_err;    /* same over the K and V rows recomputed */
    int position;
    int outputs;      /* values compared */
} ie_check;

/* Recomputes position pos of slot in double through every layer, taking
 * the engine's cached K/V rows for the other positions as given, and
 * compares its own K/V rows at every layer and the output row `out`
 * (logits of a decoder, final hidden state of an encoder) with the
 * engine's. Also recomputes layer 0's K/V of up to two other positions
 * (chosen from seed) from their tokens. */
int ie_ref_check(const ie_state *s, int slot, int pos, const float *out,
                 uint64_t seed, ie_check *res);

/* ---- Sampling ----------------------------------------------------------- */

enum { IE_SAMPLE_GREEDY = 0, IE_SAMPLE_TOPK = 1, IE_SAMPLE_TOPP = 2 };

typedef struct ie_sampler {
    int mode;       /* IE_SAMPLE_* */
    int top_k;      /* TOPK (and a cap for TOPP when > 0) */
    float top_p;    /* TOPP: smallest set with probability >= top_p */
    float temperature;
    uint64_t rng[4]; /* xoshiro256** */
} ie_sampler;

void ie_sampler_init(ie_sampler *sp, int mode, int top_k, float top_p,
                     float temperature, uint64_t seed);

/* Picks a token from logits[0..vocab). scratch holds 2*vocab floats +
 * vocab ints worth of bytes (ie_sampler_scratch_bytes). */
int32_t ie_sample(ie_sampler *sp, const float *logits, int vocab,
                  void *scratch);
size_t ie_sampler_scratch_bytes(int vocab);

/* 64-bit mix (splitmix64 finalizer); the engine's seed derivation. */
uint64_t ie_mix64(uint64_t x);

/* ---- Load scenarios (LoadGen-style schedules and statistics) ------------ */

/* Arrival times (ns from start) of n queries with exponential gaps at qps,
 * from seed. */
void ie_poisson_arrivals(uint64_t seed, double qps, int n, uint64_t *out);

/* Percentile q in [0, 100] of v[0..n) by linear interpolation between
 * order statistics (type 7); sorts v. NaN when n == 0. */
double ie_percentile(double *v, int n, double q);

#endif /* IE_H */
