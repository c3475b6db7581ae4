// SPDX-License-Identifier: MIT
/*
 * bench_quant.c -- quantization quant.quantize / quant.dequantize of an
 * f32 rows x cols matrix to and from int8 or int4 (symmetric, per tensor
 * or per channel = row), f16 or bf16 (round to nearest even). Both report
 * the round-trip error against the f32 input as metrics quant.max_abs_err
 * and quant.rel_rms_err (lower is better).
 *
 * Counting (N = rows * cols): quantize reads 4N (per-tensor int8/int4: 8N,
 * the scale needs a first pass) and writes N (int8), N/2 (int4) or 2N
 * (f16, bf16) plus the scales; dequantize reads the packed form and the
 * scales and writes 4N. items = N. Work profile: read-write, no
 * arithmetic class (conversions), working set the f32 and packed arrays
 * once (4N + packed: the first pass of per-tensor quantization reads the
 * same 4N again).
 */
#include "tp_bench.h"

#include <math.h>
#include <string.h>

enum { F_INT8, F_INT4, F_F16, F_BF16 };

typedef struct quant_inst {
    bh_tensor_base base;
    int dequant;
    int format;
    int per_channel;
    size_t rows, cols, packed; /* packed: bytes of the quantized form */
    float *x, *y, *scales;
    void *q;
} quant_inst;

static const char *const formats[] = {"int8", "int4", "f16", "bf16", NULL};
static const char *const grains[] = {"tensor", "channel", NULL};

static const bhost_param_desc quant_params[] = {
    BH_PARAM_I64("rows", "Rows (channels)", "1024", 1, BH_PLUGIN_I64_MAX),
    BH_PARAM_I64("cols", "Elements per row", "1024", 1, BH_PLUGIN_I64_MAX),
    BH_PARAM_STR("format", "Target format", "int8", formats),
    BH_PARAM_STR("granularity",
                 "One scale per tensor or per channel (int8/int4 only)",
                 "tensor", grains),
    BH_TENSOR_PARAM_THREADS,
};

static void BHOST_ABI quant_destroy(void *inst);

/* One conversion in the benchmark's direction. */
static int quant_once(quant_inst *d, int dequant)
{
    size_t n = d->rows * d->cols;

    switch (d->format) {
    case F_INT8:
        return dequant ? tk_dequantize_i8(d->q, d->scales, d->y, d->rows, d->cols,
                                          d->per_channel, d->base.pool)
                       : tk_quantize_i8(d->x, d->q, d->scales, d->rows, d->cols,
                                        d->per_channel, d->base.pool);
    case F_INT4:
        return dequant ? tk_dequantize_i4(d->q, d->scales, d->y, d->rows, d->cols,
                                          d->per_channel, d->base.pool)
                       : tk_quantize_i4(d->x, d->q, d->scales, d->rows, d->cols,
                                        d->per_channel, d->base.pool);
    case F_F16:
        return dequant ? tk_cvt_f16_f32(d->q, d->y, n, d->base.pool)
                       : tk_cvt_f32_f16(d->x, d->q, n, d->base.pool);
    default:
        return dequant ? tk_cvt_bf16_f32(d->q, d->y, n, d->base.pool)
                       : tk_cvt_f32_bf16(d->x, d->q, n, d->base.pool);
    }
}

/* Reads the parameters; granularity channel applies to int8/int4 only
 * (BHOST_E_SKIP otherwise). Nothing left allocated on failure. */
static bhost_status quant_create(bhost_host *h, int dequant, void **out)
{
    quant_inst *d = bh_tensor_alloc(h, sizeof(*d));
    char fmt[8], grain[8];
    int64_t rows, cols;
    double n, packed_b;
    bhost_status st;

    if (d == NULL)
        return BHOST_E_NOMEM;
    memset(d, 0, sizeof(*d));
    d->base.h = h;
    d->dequant = dequant;
    st = bh_tensor_base_init(&d->base, h);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "rows", 1, (int64_t)1 << 36, &rows);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "cols", 1, (int64_t)1 << 36, &cols);
    if (st == BHOST_OK)
        st = bh_tensor_str(h, "format", fmt, sizeof(fmt));
    if (st == BHOST_OK)
        st = bh_tensor_str(h, "granularity", grain, sizeof(grain));
    if (st == BHOST_OK && (double)rows * (double)cols > 0x1p36)
        st = bh_tensor_fail(h, BHOST_E_INVALID, "quant: rows * cols > 2^36");
    if (st == BHOST_OK) {
        d->format = strcmp(fmt, "int8") == 0   ? F_INT8
                    : strcmp(fmt, "int4") == 0 ? F_INT4
                    : strcmp(fmt, "f16") == 0  ? F_F16
                                               : F_BF16;
        d->per_channel = strcmp(grain, "channel") == 0;
        if (d->per_channel && d->format >= F_F16)
            st = bh_tensor_fail(h, BHOST_E_SKIP,
                                "quant: %s conversion has no scales", fmt);
    }
    if (st != BHOST_OK) {
        quant_destroy(d);
        return st;
    }
    d->rows = (size_t)rows;
    d->cols = (size_t)cols;
    n = (double)rows * (double)cols;
    d->packed = d->format == F_INT8   ? d->rows * d->cols
                : d->format == F_INT4 ? d->rows * ((d->cols + 1) / 2)
                                      : d->rows * d->cols * 2;
    packed_b = (double)d->packed + (d->format < F_F16 ? 4.0 * (d->per_channel ? (double)rows : 1.0) : 0.0);
    d->base.items = n;
    d->base.bytes = dequant ? packed_b + 4.0 * n
                            : 4.0 * n * (d->format < F_F16 && !d->per_channel ? 2 : 1) +
                                  packed_b;
    d->base.ws = 4.0 * n + packed_b;
    d->base.access = BHOST_ACCESS_READ_WRITE;
    d->base.compute = BHOST_COMPUTE_NONE;
    *out = d;
    return BHOST_OK;
}

/* Input uniform in [-3, 3); the dequantize benchmark quantizes it once
 * here. [instance] */
static bhost_status BHOST_ABI quant_setup(void *inst, bhost_stream *s)
{
    quant_inst *d = inst;
    size_t n = d->rows * d->cols;
    bhost_status st;

    (void)s;
    if (d->x == NULL)
        d->x = bh_tensor_alloc(d->base.h, n * 4);
    if (d->y == NULL)
        d->y = bh_tensor_alloc(d->base.h, n * 4);
    if (d->q == NULL)
        d->q = bh_tensor_alloc(d->base.h, d->packed);
    if (d->scales == NULL)
        d->scales = bh_tensor_alloc(d->base.h, d->rows * 4);
    if (d->x == NULL || d->y == NULL || d->q == NULL || d->scales == NULL)
        return BHOST_E_NOMEM;
    memset(d->q, 0, d->packed);
    memset(d->y, 0, n * 4);
    st = bh_tensor_random(&d->base, d->x, TK_F32, n, -3, 3, 1);
    if (st == BHOST_OK && d->dequant && quant_once(d, 0) != TK_OK)
        st = bh_tensor_fail(d->base.h, BHOST_E_INTERNAL, "quant: quantize failed");
    return st;
}

/* iterations of the conversion. [instance] */
static bhost_status BHOST_ABI quant_run(void *inst, bhost_stream *s,
                                        uint64_t iterations)
{
    quant_inst *d = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        int st = quant_once(d, d->dequant);

        if (st != TK_OK)
            return bh_tensor_fail(d->base.h, BHOST_E_INTERNAL,
                                  "quant: kernel refused (%d)", st);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* Dequantizes what quantize wrote (or checks what dequantize wrote), and
 * checks every round-trip error against its bound: half a scale step
 * (int8, int4), half an ulp of f16/bf16 (relative 2^-11, 2^-8, plus f16's
 * subnormal step). Reports the error metrics. [instance] */
static bhost_status BHOST_ABI quant_verify(void *inst)
{
    quant_inst *d = inst;
    size_t n = d->rows * d->cols;
    double max_err = 0, err2 = 0, ref2 = 0;

    if (d->x == NULL)
        return bh_tensor_fail(d->base.h, BHOST_E_VERIFY, "quant: verify before setup");
    if (!d->dequant && quant_once(d, 1) != TK_OK)
        return bh_tensor_fail(d->base.h, BHOST_E_INTERNAL, "quant: dequantize failed");
    for (size_t i = 0; i < n; i++) {
        double x = d->x[i], y = d->y[i], e = fabs(y - x), bound;

        switch (d->format) {
        case F_INT8:
        case F_INT4:
            bound = 0.5001 * d->scales[d->per_channel ? i / d->cols : 0];
            break;
        case F_F16:
            bound = fabs(x) * 0x1p-11 + 0x1p-25;
            break;
        default:
            bound = fabs(x) * 0x1p-8;
            break;
        }
        if (!(e <= bound))
            return bh_tensor_fail(d->base.h, BHOST_E_VERIFY,
                                  "quant: element %zu round-trips %.9g -> %.9g "
                                  "(bound %.3g)", i, x, y, bound);
        max_err = e > max_err ? e : max_err;
        err2 += e * e;
        ref2 += x * x;
    }
    /* Each element has its own bound above: no single limit to hold these
     * figures to, so they are shown, never compared. */
    bh_plugin_metric_info(d->base.h, "quant.max_abs_err", "", max_err);
    bh_plugin_metric_info(d->base.h, "quant.rel_rms_err", "", ref2 > 0 ? sqrt(err2 / ref2) : 0.0);
    return BHOST_OK;
}

/* Frees the buffers and the pool. */
static void BHOST_ABI quant_destroy(void *inst)
{
    quant_inst *d = inst;
    bhost_host *h = d->base.h;

    bh_tensor_base_fini(&d->base);
    bh_tensor_free(h, d->x);
    bh_tensor_free(h, d->y);
    bh_tensor_free(h, d->q);
    bh_tensor_free(h, d->scales);
    bh_tensor_free(h, d);
}

#define QUANT_BENCH(name, DQ, sum)                                                                 \
    TP_BENCH("quant", name, quant_create, DQ, quant_params, quant, NULL, sum)

QUANT_BENCH(quantize, 0, "f32 -> int8 / int4 / f16 / bf16")
QUANT_BENCH(dequantize, 1, "int8 / int4 / f16 / bf16 -> f32")

const bhost_bench_desc *const bh_tensor_quant_benches[] = {
    &quantize_desc, &dequantize_desc, NULL,
};
