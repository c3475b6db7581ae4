// SPDX-License-Identifier: MIT
/*
 * tk_ew_scalar.c -- the "scalar" variant of the element-wise ops: one
 * plain loop per op, one element per iteration, libm for the
 * transcendental functions. meson compiles this file alone with
 * -fno-tree-vectorize (and clang's equivalents), so the loops stay scalar
 * whatever the optimization level: it is the baseline the vector variant
 * is measured against.
 */
#include "tk_internal.h"

#include <math.h>

/* The loop of one op: o[i] = EXPR over i < n. */
#define LOOP(EXPR)                                                             \
    do {                                                                       \
        for (size_t i = 0; i < n; i++)                                         \
            o[i] = (EXPR);                                                     \
    } while (0)

void tk_ew_scalar_f32(tk_op op, const float *a, const float *b,
                      const float *c, float *o, size_t n)
{
    switch (op) {
    case TK_OP_ADD:
        LOOP(a[i] + b[i]);
        break;
    case TK_OP_SUB:
        LOOP(a[i] - b[i]);
        break;
    case TK_OP_MUL:
        LOOP(a[i] * b[i]);
        break;
    case TK_OP_DIV:
        LOOP(a[i] / b[i]);
        break;
    case TK_OP_FMA:
        LOOP(a[i] * b[i] + c[i]);
        break;
    case TK_OP_RELU:
        LOOP(a[i] < 0.0f ? 0.0f : a[i]);
        break;
    case TK_OP_GELU:
        LOOP(a[i] / (1.0f + expf(a[i] * (-1.5957691216057308f +
                                         -0.07135481627260025f * a[i] * a[i]))));
        break;
    case TK_OP_SIGMOID:
        LOOP(1.0f / (1.0f + expf(-a[i])));
        break;
    case TK_OP_TANH:
        LOOP(tanhf(a[i]));
        break;
    case TK_OP_EXP:
        LOOP(expf(a[i]));
        break;
    case TK_OP_LOG:
        LOOP(logf(a[i]));
        break;
    case TK_OP_SQRT:
        LOOP(sqrtf(a[i]));
        break;
    case TK_OP_COUNT:
        break;
    }
}

void tk_ew_scalar_f64(tk_op op, const double *a, const double *b,
                      const double *c, double *o, size_t n)
{
    switch (op) {
    case TK_OP_ADD:
        LOOP(a[i] + b[i]);
        break;
    case TK_OP_SUB:
        LOOP(a[i] - b[i]);
        break;
    case TK_OP_MUL:
        LOOP(a[i] * b[i]);
        break;
    case TK_OP_DIV:
        LOOP(a[i] / b[i]);
        break;
    case TK_OP_FMA:
        LOOP(a[i] * b[i] + c[i]);
        break;
    case TK_OP_RELU:
        LOOP(a[i] < 0.0 ? 0.0 : a[i]);
        break;
    case TK_OP_GELU:
        LOOP(a[i] / (1.0 + exp(a[i] * (-1.5957691216057308 +
                                       -0.07135481627260025 * a[i] * a[i]))));
        break;
    case TK_OP_SIGMOID:
        LOOP(1.0 / (1.0 + exp(-a[i])));
        break;
    case TK_OP_TANH:
        LOOP(tanh(a[i]));
        break;
    case TK_OP_EXP:
        LOOP(exp(a[i]));
        break;
    case TK_OP_LOG:
        LOOP(log(a[i]));
        break;
    case TK_OP_SQRT:
        LOOP(sqrt(a[i]));
        break;
    case TK_OP_COUNT:
        break;
    }
}
