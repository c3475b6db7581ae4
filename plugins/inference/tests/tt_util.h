// SPDX-License-Identifier: MIT
/*
 * tt_util.h -- helpers of the engine's unit tests: a test backend (host
 * memory, a naive column-major gemm with double accumulation, optionally
 * unmappable buffers so the engine's copy path runs), host allocator ops,
 * a stub host API for loading the real backend-cpu.so, and comparisons.
 */
#ifndef TT_UTIL_H
#define TT_UTIL_H

#include "ie.h"
#include "ie_internal.h"

#include <stddef.h>
#include <stdint.h>

/* The test backend; tt_backend_nomap(1) makes map() return NULL. */
extern const bhost_backend tt_backend;
void tt_backend_nomap(int on);
bhost_dev *tt_dev(void);

/* malloc-based host ops. */
extern const ie_host_ops tt_host;

/* A stub host API (set_error keeps the last message in tt_last_error). */
extern const bhost_host_api tt_api;
extern char tt_last_error[512];

/* Sets up ctx on the test backend with threads (1 or more). */
void tt_ctx(ie_ctx *ctx, int threads);

/* A dummy model of a preset (layers overridden when > 0); "wide-gpt2"
 * and "wide-llama" are the tiny shapes with d_model 256, d_ff 1000 and
 * vocab 1500 (large enough for the threaded matvec path). */
ie_model *tt_model(ie_ctx *ctx, const char *preset, int wtype, int layers,
                   uint64_t seed);

/* max |a - b| / max |b|. */
double tt_rel_err(const float *a, const double *b, int n);

/* n seeded tokens below vocab. */
void tt_tokens(int32_t *out, int n, int vocab, uint64_t seed);

#endif /* TT_UTIL_H */
