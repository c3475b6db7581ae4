// SPDX-License-Identifier: MIT
/*
 * ip.h -- the inference plugin's shared adapter code: parameters common to
 * every benchmark, the engine context over the host API and the case's
 * backend device, latency records and metric reporting.
 */
#ifndef IP_H
#define IP_H

#include <bhost/plugin.h>

#include "bh_plugin.h"
#include "ie.h"

extern const bhost_host_api *bh_inf_api;

extern const bhost_bench_desc bh_inf_prefill;
extern const bhost_bench_desc bh_inf_decode;
extern const bhost_bench_desc bh_inf_generate;
extern const bhost_bench_desc bh_inf_encode;
extern const bhost_bench_desc bh_inf_scenario;
extern const bhost_bench_desc bh_inf_load;

#define IP_PARAM(t, k, s, d, lo, hi)                                           \
    {sizeof(bhost_param_desc), (t), (k), (s), (d), NULL, (lo), (hi)}
#define IP_PARAM_STR(k, s, d, ch)                                              \
    {sizeof(bhost_param_desc), BHOST_PARAM_STR, (k), (s), (d), (ch), 1, 0}

extern const char *const bh_inf_models[];
extern const char *const bh_inf_wtypes[];
extern const char *const bh_inf_matvec[];
extern const char *const bh_inf_sampling[];

/* The parameters every benchmark has, in this order (IP_COMMON_N). */
#define IP_COMMON_PARAMS(default_model)                                        \
    IP_PARAM_STR("model", "Model preset (published shapes)", default_model,    \
                 bh_inf_models),                                               \
        IP_PARAM(BHOST_PARAM_I64, "layers",                                    \
                 "Layers to build and run; 0 = the preset's (figures are "     \
                 "extrapolated to the full depth)",                            \
                 "0", 0, 256),                                                 \
        IP_PARAM_STR("weights",                                                \
                     "dummy (seeded random) or a .safetensors/.gguf path",     \
                     "dummy", NULL),                                           \
        IP_PARAM_STR("wtype", "Weight storage: f32, bf16 or int8", "f32",      \
                     bh_inf_wtypes),                                           \
        IP_PARAM_STR("matvec",                                                 \
                     "Few-row (decode) matmuls: backend gemm or the host "     \
                     "matvec kernel",                                          \
                     "backend", bh_inf_matvec),                                \
        IP_PARAM(BHOST_PARAM_I64, "threads",                                   \
                 "Host-code threads; 0 = BHOST_CPU_THREADS or every CPU", "0", \
                 0, 256),                                                      \
        IP_PARAM(BHOST_PARAM_I64, "batch", "Sequences processed together",     \
                 "1", 1, 64)
#define IP_COMMON_N 7

/* Latency record: the last IP_LAT_CAP values (ms). */
#define IP_LAT_CAP 65536

typedef struct ip_lat {
    double *v;
    int n, pos;
} ip_lat;

/* What every benchmark instance starts with. */
typedef struct ip_base {
    bhost_host *h;
    const bhost_backend *be;
    bhost_dev *dev;
    ie_config cfg;
    int wtype, threads, matvec, batch;
    char weights[1024];
    uint64_t seed;
    int ctx_ready;
    ie_ctx ctx;
    ie_model *m;
    ie_state *s;
    const char *bench; /* benchmark id for messages */
} ip_base;

/* Maps an engine code (ctx->err set) to a host status with the message. */
bhost_status bh_inf_engine_fail(ip_base *b, int code, const char *what);

/* Reads the common parameters into b (nothing allocated). */
bhost_status bh_inf_base_create(ip_base *b, const char *bench, bhost_host *h,
                                const bhost_backend *be, bhost_dev *dev);
/* The prefix of parameter messages (bh_plugin_i64 and the other readers). */
#define IP_PREFIX "inference: "

/* Starts the engine context (first call only) on the case's device and
 * points it at stream. */
bhost_status bh_inf_ctx_setup(ip_base *b, bhost_stream *stream);

/* Starts the engine context and builds the model (first call only), then
 * a state of slots x max_ctx with max_rows rows (rebuilt when the shape
 * changes). stream is the benchmark's stream. */
bhost_status bh_inf_base_setup(ip_base *b, bhost_stream *stream, int slots,
                               int max_ctx, int max_rows);
/* Frees the state, the model and the context. */
void bh_inf_base_destroy(ip_base *b);

/* Seeded token ids for sequence i (n of them). */
void bh_inf_tokens(const ip_base *b, uint64_t stream, int32_t *out, int n);

/* Greedy token of logits row i of the last forward. */
int32_t bh_inf_argmax(const ip_base *b, int i);

/* Fills a work profile: access, working_set_bytes, the compute class of
 * the weights' type and the engine's threads. */
void bh_inf_work_profile(const ip_base *b, bhost_access access, double working_set_bytes,
                         bhost_work_profile *out);

/* Host allocations accounted by the host. */
void *bh_inf_alloc(ip_base *b, size_t bytes);
void bh_inf_free(ip_base *b, void *p);
uint64_t bh_inf_now(const ip_base *b);

/* A performance metric (higher: higher is better); a NaN is left out. */
void bh_inf_metric(const ip_base *b, const char *name, const char *unit,
                   int higher, double value);
/* An informational metric (a size, count or setting, never compared); a
 * NaN is left out. */
void bh_inf_info(const ip_base *b, const char *name, const char *unit, double value);

/* Latency records. */
bhost_status bh_inf_lat_init(ip_base *b, ip_lat *l);
void bh_inf_lat_add(ip_lat *l, double ms);
void bh_inf_lat_free(ip_base *b, ip_lat *l);
/* Reports <prefix>_p50/_p90/_p95/_p99_ms of the record. */
void bh_inf_lat_report(ip_base *b, const ip_lat *l, const char *prefix);

/* The engine statistics accumulated since `before`. */
ie_stats bh_inf_stats_since(const ip_base *b, const ie_stats *before);

/* Model and KV footprint, per-layer time and the extrapolation to the
 * preset's full depth; `per` is the time (ms) of one unit the benchmark
 * reports (a step, a prefill) and `tokens` the tokens per unit. */
void bh_inf_report_model(ip_base *b, const ie_stats *delta, double unit_ms,
                         double tokens, const char *what);

/* Compares the logits (or hidden row) `out` of `slot` at `pos` with the
 * double-precision reference (ie_ref_check) and reports the errors;
 * BHOST_E_VERIFY above tol. */
bhost_status bh_inf_verify_position(ip_base *b, int slot, int pos,
                                    const float *out, double tol);

#endif /* IP_H */
