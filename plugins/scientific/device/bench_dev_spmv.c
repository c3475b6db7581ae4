// SPDX-License-Identifier: MIT
/*
 * bench_dev_spmv.c -- device.spmv: y = A x through the backend's
 * bhost.kernel.spmv/1 (CSR, 32-bit indices, f32 or f64) on a generated
 * matrix (banded, power-law, random; the generators of sparse.spmv).
 *
 * Counting as sparse.spmv: FLOP 2 nnz; bytes the compulsory traffic
 * (values and column indices, row pointers, x once, y once); work profile
 * a read stream. verify(), untimed:
 *  1. y of the timed runs against sp_spmv_rows (the plugin's CPU kernel,
 *     in double over the same rounded values) within 2 (L + 2) u sum |a x|
 *     per row of L entries (u of the dtype);
 *  2. one call with alpha = -0.5, beta = 2 over a random y0 against
 *     -0.5 ref + 2 y0 within 2 (L + 3) u (0.5 sum |a x| + 2 |y0|), so the
 *     beta path is checked too.
 */
#include "sd_device.h"

#include "sp_matrix.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

typedef struct dspmv {
    sd_base b; /* first: the callbacks read it */
    sp_kind kind;
    int64_t rows;
    double density;
    sp_csr a;
    double *x, *ref, *mag, *y, *y0;
    bhost_buf *dptr, *dcol, *dval, *dx, *dy;
} dspmv;

static const char *const kinds[] = {"banded", "powerlaw", "random", NULL};

static const bhost_param_desc params[] = {
    BH_PARAM_STR("matrix", "banded, powerlaw or random", "random", kinds),
    BH_PARAM_I64("rows", "Rows (and columns)", "262144", 1, 2147483647.0),
    BH_PARAM_F64("density", "Fraction of entries that are nonzero", "6.103515625e-05", 1e-9, 1.0),
    BH_PARAM_STR("dtype", "Value type", "f32", sd_dtypes),
};

static void BHOST_ABI spmv_destroy(void *inst);

/* Reads the parameters and finds the kernel. [instance] */
static bhost_status BHOST_ABI spmv_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **out)
{
    dspmv *d = bh_sci_api->alloc(h, sizeof(*d), 0);
    int kind = 0;
    bhost_status st;

    if (d == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "device.spmv: out of memory");
    memset(d, 0, sizeof(*d));
    st = sd_init(&d->b, h, be, dev, "device.spmv", BHOST_KERNEL_SPMV);
    if (st == BHOST_OK)
        st = sd_dtype(&d->b, 1);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, "device.spmv: ", "matrix", kinds, &kind);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, "device.spmv: ", "rows", 1, INT32_MAX, &d->rows);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, "device.spmv: ", "density", 1e-9, 1.0, &d->density);
    if (st == BHOST_OK && d->density * (double)d->rows * (double)d->rows > 1.5e9)
        st = bh_plugin_fail(h, BHOST_E_INVALID,
                            "device.spmv: rows=%" PRId64 " at density %g is more than the "
                            "1.5e9 entries a generated matrix may have",
                            d->rows, d->density);
    if (st != BHOST_OK) {
        spmv_destroy(d);
        return st;
    }
    d->kind = kind == 0 ? SP_BANDED : kind == 1 ? SP_POWERLAW : SP_RANDOM;
    *out = d;
    return BHOST_OK;
}

/* The matrix with values rounded to the dtype, x, the reference and
 * sum |a x| per row. */
static bhost_status build_host(dspmv *d)
{
    sp_coo coo;
    int rc;

    memset(&coo, 0, sizeof(coo));
    rc = sp_generate(d->kind, (int32_t)d->rows, d->density, bh_sci_api->seed(d->b.h), &coo);
    rc = rc == 0 ? sp_csr_from_coo(&coo, &d->a) : rc;
    sp_coo_free(&coo);
    if (rc != 0 || d->a.nnz > INT32_MAX)
        return bh_plugin_fail(d->b.h, BHOST_E_NOMEM, "device.spmv: cannot build the matrix");
    for (size_t e = 0; e < d->a.nnz; e++)
        d->a.val[e] = d->b.type == BHOST_DTYPE_F64 ? d->a.val[e] : (double)(float)d->a.val[e];
    d->x = sd_doubles(&d->b, (uint64_t)d->a.cols);
    d->ref = sd_doubles(&d->b, (uint64_t)d->a.rows);
    d->mag = sd_doubles(&d->b, (uint64_t)d->a.rows);
    d->y = sd_doubles(&d->b, (uint64_t)d->a.rows);
    d->y0 = sd_doubles(&d->b, (uint64_t)d->a.rows);
    if (!d->x || !d->ref || !d->mag || !d->y || !d->y0)
        return BHOST_E_NOMEM;
    sd_random(&d->b, d->x, (uint64_t)d->a.cols, 1);
    sd_random(&d->b, d->y0, (uint64_t)d->a.rows, 2);
    sp_spmv_rows(&d->a, d->x, d->ref, 0, d->a.rows);
    for (int32_t r = 0; r < d->a.rows; r++) {
        d->mag[r] = 0;
        for (int64_t e = d->a.ptr[r]; e < d->a.ptr[r + 1]; e++)
            d->mag[r] += fabs(d->a.val[e] * d->x[d->a.col[e]]);
    }
    return BHOST_OK;
}

/* Device buffers and uploads of the matrix and x. */
static bhost_status upload(dspmv *d, bhost_stream *s)
{
    uint64_t rows = (uint64_t)d->a.rows, nnz = d->a.nnz, es = d->b.es;
    int32_t *ptr = bh_sci_api->alloc(d->b.h, (rows + 1) * 4, 64);
    bhost_status st = ptr ? BHOST_OK : BHOST_E_NOMEM;

    for (uint64_t r = 0; ptr && r <= rows; r++)
        ptr[r] = (int32_t)d->a.ptr[r];
    if (st == BHOST_OK)
        st = sd_alloc(&d->b, (rows + 1) * 4, &d->dptr);
    if (st == BHOST_OK)
        st = sd_alloc(&d->b, nnz * 4, &d->dcol);
    if (st == BHOST_OK)
        st = sd_alloc(&d->b, nnz * es, &d->dval);
    if (st == BHOST_OK)
        st = sd_alloc(&d->b, (uint64_t)d->a.cols * es, &d->dx);
    if (st == BHOST_OK)
        st = sd_alloc(&d->b, rows * es, &d->dy);
    if (st == BHOST_OK)
        st = sd_upload_bytes(&d->b, s, d->dptr, ptr, (rows + 1) * 4);
    if (st == BHOST_OK)
        st = sd_upload_bytes(&d->b, s, d->dcol, d->a.col, nnz * 4);
    if (st == BHOST_OK)
        st = sd_upload(&d->b, s, d->dval, d->a.val, nnz);
    if (st == BHOST_OK)
        st = sd_upload(&d->b, s, d->dx, d->x, (uint64_t)d->a.cols);
    sd_free(&d->b, ptr);
    return st;
}

/* Builds everything once; the counts and metrics. [instance] */
static bhost_status BHOST_ABI spmv_setup(void *inst, bhost_stream *s)
{
    dspmv *d = inst;
    bhost_status st;

    if (d->a.ptr != NULL)
        return BHOST_OK;
    st = build_host(d);
    if (st == BHOST_OK)
        st = upload(d, s);
    if (st != BHOST_OK)
        return st;
    d->b.flops = 2.0 * (double)d->a.nnz;
    d->b.bytes = (double)d->a.nnz * (double)(d->b.es + 4) + (double)(d->a.rows + 1) * 4 +
                 (double)(d->a.cols + d->a.rows) * (double)d->b.es;
    bh_plugin_metric_info(d->b.h, "rows", "", (double)d->a.rows);
    bh_plugin_metric_info(d->b.h, "nnz", "", (double)d->a.nnz);
    return BHOST_OK;
}

/* One y = alpha A x + beta y on s. */
static bhost_status call(dspmv *d, bhost_stream *s, double alpha, double beta)
{
    const bhost_kernel_spmv *k = d->b.kernel;
    bhost_spmv_args a;

    memset(&a, 0, sizeof(a));
    a.struct_size = sizeof(a);
    a.type = d->b.type;
    a.index_type = BHOST_DTYPE_I32;
    a.rows = (uint64_t)d->a.rows;
    a.cols = (uint64_t)d->a.cols;
    a.nnz = d->a.nnz;
    a.alpha = alpha;
    a.beta = beta;
    a.row_ptr = d->dptr;
    a.col_idx = d->dcol;
    a.values = d->dval;
    a.x = d->dx;
    a.y = d->dy;
    return k->run(d->b.dev, s, &a);
}

static bhost_status BHOST_ABI spmv_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    bhost_status st = BHOST_OK;

    for (uint64_t i = 0; i < iterations && st == BHOST_OK; i++)
        st = call(inst, s, 1.0, 0.0);
    return st;
}

/* Steps 1 and 2 of the file comment. [instance] */
static bhost_status BHOST_ABI spmv_verify(void *inst)
{
    dspmv *d = inst;
    uint64_t rows = (uint64_t)d->a.rows;
    double u = d->b.unit;
    sd_err e1, e2;
    bhost_status st = sd_download(&d->b, d->dy, d->y, rows);

    memset(&e1, 0, sizeof(e1));
    memset(&e2, 0, sizeof(e2));
    for (uint64_t r = 0; st == BHOST_OK && r < rows; r++) {
        double len = (double)(d->a.ptr[r + 1] - d->a.ptr[r]);

        bh_plugin_err_add(&e1, r, d->y[r], d->ref[r], 2 * (len + 2) * u * d->mag[r] + 1e-300);
    }
    if (st == BHOST_OK && !(e1.max_ratio <= 1.0))
        return sd_err_report(&d->b, &e1, "y = A x: row");
    if (st == BHOST_OK)
        st = sd_upload(&d->b, NULL, d->dy, d->y0, rows);
    if (st == BHOST_OK)
        st = call(d, NULL, -0.5, 2.0);
    if (st == BHOST_OK)
        st = sd_download(&d->b, d->dy, d->y, rows);
    for (uint64_t r = 0; st == BHOST_OK && r < rows; r++) {
        double len = (double)(d->a.ptr[r + 1] - d->a.ptr[r]);
        double want = -0.5 * d->ref[r] + 2.0 * d->y0[r];
        double tol = 2 * (len + 3) * u * (0.5 * d->mag[r] + 2.0 * fabs(d->y0[r])) + 1e-300;

        bh_plugin_err_add(&e2, r, d->y[r], want, tol);
    }
    if (st != BHOST_OK)
        return st;
    if (e2.max_ratio > e1.max_ratio)
        return sd_err_report(&d->b, &e2, "y = -0.5 A x + 2 y0: row");
    return sd_err_report(&d->b, &e1, "y = A x: row");
}

static void BHOST_ABI spmv_destroy(void *inst)
{
    dspmv *d = inst;

    sd_release(&d->b);
    sp_csr_free(&d->a);
    sd_free(&d->b, d->x);
    sd_free(&d->b, d->ref);
    sd_free(&d->b, d->mag);
    sd_free(&d->b, d->y);
    sd_free(&d->b, d->y0);
    bh_sci_api->free(d->b.h, d);
}

const bhost_bench_desc bh_sci_dev_spmv = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE,
    .id = "device.spmv",
    .summary = "CSR y = A x through the backend's spmv kernel (bhost.kernel.spmv/1), "
               "verified against the plugin's CPU SpMV",
    .params = params,
    .param_count = sizeof(params) / sizeof(params[0]),
    .create = spmv_create,
    .setup = spmv_setup,
    .run = spmv_run,
    .verify = spmv_verify,
    .destroy = spmv_destroy,
    .flops_per_iter = sd_flops,
    .bytes_per_iter = sd_bytes,
    .work_profile = sd_profile_read,
};
