// SPDX-License-Identifier: MIT
/*
 * bench_sparse.c -- sparse.spmv (y = A x) and sparse.spmm (Y = A X, X of k
 * columns) over CSR matrices in double precision: generated (banded,
 * power-law, random, at a given density) or read from a Matrix Market file.
 *
 * Counting: FLOP = 2 nnz k; bytes = the compulsory traffic (every value 8
 * and column index 4, the row pointers, X read once, Y written once, see
 * sp_spmv_bytes), which is what a perfect cache achieves: the bytes per
 * nonzero figure (a metric) says how close to 12 the matrix is. Work
 * profile: a read stream (Y is small next to A), f64. Rows are split among
 * threads by equal nonzero counts, so a power-law matrix is balanced.
 * Verified against a product computed from the coordinate list itself
 * (another order of summation) within 2 (L + 2) eps sum |a||x| per row of
 * L entries.
 */
#include "scientific.h"

#include "bh_pool.h"
#include "sp_matrix.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TASKS_PER_THREAD 8

typedef struct sp_inst {
    bhost_host *h;
    int k;        /* columns of X: 1 for spmv */
    sp_kind kind; /* when not from a file */
    int from_file;
    int64_t rows;
    double density;
    int64_t max_entries;
    char path[1024];
    unsigned threads;
    bh_pool *pool;
    sp_csr a;
    double *x, *y, *ref, *tol;
    int32_t *bounds; /* tasks + 1 row boundaries of equal nonzeros */
    uint32_t tasks;
} sp_inst;

static const char *const kinds[] = {"banded", "powerlaw", "random", "file", NULL};

#define SP_COMMON_PARAMS                                                                           \
    BH_PARAM_STR("matrix", "banded, powerlaw, random, or file (a Matrix Market file at path)",     \
                 "random", kinds),                                                                 \
        BH_PARAM_I64("rows", "Rows (and columns) of a generated matrix", "262144", 1,              \
                     2147483647.0),                                                                \
        BH_PARAM_F64("density", "Fraction of entries that are nonzero (generated matrices)",       \
                     "6.103515625e-05", 1e-9, 1.0),                                                \
        BH_PARAM_STR("path", "Matrix Market file (matrix: file)", "", NULL),                       \
        BH_PARAM_I64("max_entries", "Most entries read from a file (a larger one is refused)",     \
                     "134217728", 1, 2147483647.0),                                                \
        BH_PARAM_I64("threads", "Threads (0 = every CPU of the process)", "1", 0, 256)

static const bhost_param_desc spmv_params[] = {SP_COMMON_PARAMS};
static const bhost_param_desc spmm_params[] = {
    SP_COMMON_PARAMS,
    BH_PARAM_I64("k", "Columns of the dense matrix X", "16", 1, 1024),
};

static void BHOST_ABI sp_destroy(void *inst);

/* Reads the parameters common to both benchmarks into d. */
static bhost_status read_params(sp_inst *d)
{
    int kind;
    int64_t threads;
    bhost_status st = bh_plugin_choice(d->h, "sparse: ", "matrix", kinds, &kind);

    if (st == BHOST_OK)
        st = bh_plugin_i64(d->h, "sparse: ", "rows", 1, SP_MAX_DIM, &d->rows);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(d->h, "sparse: ", "density", 1e-9, 1.0, &d->density);
    if (st == BHOST_OK)
        st = bh_plugin_str(d->h, "sparse: ", "path", d->path, sizeof(d->path));
    if (st == BHOST_OK)
        st = bh_plugin_i64(d->h, "sparse: ", "max_entries", 1, INT32_MAX, &d->max_entries);
    if (st == BHOST_OK)
        st = bh_plugin_i64(d->h, "sparse: ", "threads", 0, 256, &threads);
    if (st != BHOST_OK)
        return st;
    d->from_file = kind == 3;
    d->kind = kind == 0 ? SP_BANDED : kind == 1 ? SP_POWERLAW : SP_RANDOM;
    if (d->from_file && d->path[0] == '\0')
        return bh_plugin_fail(d->h, BHOST_E_INVALID, "sparse: matrix: file needs a path");
    if (!d->from_file && d->density * (double)d->rows * (double)d->rows > 1.5e9)
        return bh_plugin_fail(d->h, BHOST_E_INVALID,
                              "sparse: rows=%" PRId64 " at density %g is %.3g entries, more "
                              "than the 1.5e9 a generated matrix may have",
                              d->rows, d->density, d->density * (double)d->rows * d->rows);
    d->threads = threads == 0 ? bh_plugin_cpu_threads() : (unsigned)threads;
    return BHOST_OK;
}

/* Creates an instance with k columns (0: read "k"). [instance] */
static bhost_status sp_create_k(bhost_host *h, int k, void **out)
{
    sp_inst *d = bh_sci_api->alloc(h, sizeof(*d), 0);
    int64_t kk = k;
    bhost_status st;

    if (d == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "sparse: out of memory");
    memset(d, 0, sizeof(*d));
    d->h = h;
    st = read_params(d);
    if (st == BHOST_OK && k == 0)
        st = bh_plugin_i64(h, "sparse: ", "k", 1, 1024, &kk);
    d->k = (int)kk;
    if (st == BHOST_OK && d->threads > 1 && !(d->pool = bh_pool_create(d->threads, 0)))
        st = bh_plugin_fail(h, BHOST_E_NOMEM, "sparse: cannot start %u threads", d->threads);
    if (st != BHOST_OK) {
        sp_destroy(d);
        return st;
    }
    bh_plugin_metric_info(h, "threads", "", (double)d->threads);
    *out = d;
    return BHOST_OK;
}

static bhost_status BHOST_ABI spmv_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **inst)
{
    (void)be;
    (void)dev;
    return sp_create_k(h, 1, inst);
}

static bhost_status BHOST_ABI spmm_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **inst)
{
    (void)be;
    (void)dev;
    return sp_create_k(h, 0, inst);
}

/* The coordinate list of the case: generated from the run's seed, or read
 * from the file (its error, naming file and line, becomes the case's). */
static bhost_status load_coo(sp_inst *d, sp_coo *coo)
{
    char err[512];
    FILE *f;
    int rc;

    if (!d->from_file)
        return sp_generate(d->kind, (int32_t)d->rows, d->density, bh_sci_api->seed(d->h), coo) == 0
                   ? BHOST_OK
                   : bh_plugin_fail(d->h, BHOST_E_NOMEM, "sparse: cannot generate the matrix");
    if (!(f = fopen(d->path, "r")))
        return bh_plugin_fail(d->h, BHOST_E_INVALID, "sparse: %s: cannot open: %s", d->path,
                              strerror(errno));
    rc = sp_mm_read(f, d->path, (size_t)d->max_entries, coo, err, sizeof(err));
    fclose(f);
    return rc == 0 ? BHOST_OK : bh_plugin_fail(d->h, BHOST_E_INVALID, "sparse: %s", err);
}

/* The reference product from the coordinate list and, per output, the
 * tolerance 2 (L + 2) eps sum |a x| + DBL_MIN. [instance] */
static void reference(sp_inst *d, const sp_coo *coo)
{
    size_t k = (size_t)d->k, n = (size_t)d->a.rows * k;
    double *mag = d->tol;

    memset(d->ref, 0, n * sizeof(double));
    memset(mag, 0, n * sizeof(double));
    for (size_t e = 0; e < coo->n; e++) {
        const double *xr = d->x + (size_t)coo->col[e] * k;
        double *yr = d->ref + (size_t)coo->row[e] * k, *mr = mag + (size_t)coo->row[e] * k;

        for (size_t j = 0; j < k; j++) {
            yr[j] += coo->val[e] * xr[j];
            mr[j] += fabs(coo->val[e] * xr[j]);
        }
    }
    for (int32_t r = 0; r < d->a.rows; r++) {
        double len = (double)(d->a.ptr[r + 1] - d->a.ptr[r]);

        for (size_t j = 0; j < k; j++)
            mag[(size_t)r * k + j] =
                2.0 * (len + 2.0) * DBL_EPSILON * mag[(size_t)r * k + j] + DBL_MIN;
    }
}

/* Task boundaries of about equal nonzeros (plus rows, so empty rows count). */
static void split_tasks(sp_inst *d)
{
    double total = (double)d->a.nnz + (double)d->a.rows;
    int32_t r = 0;

    d->bounds[0] = 0;
    for (uint32_t t = 1; t < d->tasks; t++) {
        double goal = total * t / d->tasks;

        while (r < d->a.rows && (double)d->a.ptr[r] + r < goal)
            r++;
        d->bounds[t] = r;
    }
    d->bounds[d->tasks] = d->a.rows;
}

/* Allocates n doubles with the host (64-byte aligned), or NULL. */
static double *alloc_doubles(sp_inst *d, size_t n)
{
    return bh_sci_api->alloc(d->h, (n ? n : 1) * sizeof(double), 64);
}

/* Builds A, X, the reference and the task split (first call only); fills
 * Y with NaN so that verify sees a row the run skipped. [instance] */
static bhost_status BHOST_ABI sp_setup(void *inst, bhost_stream *s)
{
    sp_inst *d = inst;
    sp_coo coo;
    uint64_t seed;
    size_t nx, ny;
    bhost_status st;

    (void)s;
    if (d->a.ptr == NULL) {
        if ((st = load_coo(d, &coo)) != BHOST_OK)
            return st;
        if (sp_csr_from_coo(&coo, &d->a) != 0) {
            sp_coo_free(&coo);
            return bh_plugin_fail(d->h, BHOST_E_NOMEM, "sparse: cannot build the CSR");
        }
        nx = (size_t)d->a.cols * (size_t)d->k;
        ny = (size_t)d->a.rows * (size_t)d->k;
        d->tasks = d->threads * TASKS_PER_THREAD;
        d->x = alloc_doubles(d, nx);
        d->y = alloc_doubles(d, ny);
        d->ref = alloc_doubles(d, ny);
        d->tol = alloc_doubles(d, ny);
        d->bounds = bh_sci_api->alloc(d->h, (d->tasks + 1) * sizeof(int32_t), 0);
        if (!d->x || !d->y || !d->ref || !d->tol || !d->bounds) {
            sp_coo_free(&coo);
            return bh_plugin_fail(d->h, BHOST_E_NOMEM, "sparse: out of memory for the vectors");
        }
        seed = bh_sci_api->seed(d->h) ^ UINT64_C(0x5851F42D4C957F2D);
        for (size_t i = 0; i < nx; i++)
            d->x[i] = 2.0 * bh_rng_unit(bh_rng_next(&seed)) - 1.0;
        reference(d, &coo);
        sp_coo_free(&coo);
        split_tasks(d);
        bh_plugin_metric_info(d->h, "rows", "", (double)d->a.rows);
        bh_plugin_metric_info(d->h, "nnz", "", (double)d->a.nnz);
        bh_plugin_metric_info(d->h, "bytes_per_nnz", "B",
                              d->a.nnz ? sp_spmm_bytes(&d->a, d->k) / (double)d->a.nnz : 0.0);
    }
    memset(d->y, 0xFF, (size_t)d->a.rows * (size_t)d->k * sizeof(double));
    return BHOST_OK;
}

/* One task's rows of the product. */
static void sp_task(void *arg, uint32_t task, uint32_t tasks, uint32_t thread)
{
    sp_inst *d = arg;

    (void)tasks;
    (void)thread;
    if (d->k == 1)
        sp_spmv_rows(&d->a, d->x, d->y, d->bounds[task], d->bounds[task + 1]);
    else
        sp_spmm_rows(&d->a, d->x, d->y, d->k, d->bounds[task], d->bounds[task + 1]);
}

/* iterations products. [instance] */
static bhost_status BHOST_ABI sp_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    sp_inst *d = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        bh_pool_run(d->pool, d->tasks, sp_task, d);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* Every output within its tolerance of the reference; the largest error
 * over its tolerance is the metric error.to_bound (limit 1). [instance] */
static bhost_status BHOST_ABI sp_verify(void *inst)
{
    sp_inst *d = inst;
    size_t n = (size_t)d->a.rows * (size_t)d->k;
    double worst = 0.0;

    if (d->y == NULL)
        return bh_plugin_fail(d->h, BHOST_E_VERIFY, "sparse: verify before setup");
    for (size_t i = 0; i < n; i++) {
        double e = fabs(d->y[i] - d->ref[i]) / d->tol[i];

        if (!(e <= 1.0))
            return bh_plugin_fail(
                d->h, BHOST_E_VERIFY, "sparse: Y[%zu][%zu] = %.17g, expected %.17g within %.3g",
                i / (size_t)d->k, i % (size_t)d->k, d->y[i], d->ref[i], d->tol[i]);
        worst = e > worst ? e : worst;
    }
    bh_plugin_metric_error(d->h, "error.to_bound", "", worst, 1.0);
    return BHOST_OK;
}

/* Frees everything; fine on a half-built instance. [instance] */
static void BHOST_ABI sp_destroy(void *inst)
{
    sp_inst *d = inst;

    bh_pool_destroy(d->pool);
    sp_csr_free(&d->a);
    bh_sci_api->free(d->h, d->x);
    bh_sci_api->free(d->h, d->y);
    bh_sci_api->free(d->h, d->ref);
    bh_sci_api->free(d->h, d->tol);
    bh_sci_api->free(d->h, d->bounds);
    bh_sci_api->free(d->h, d);
}

/* 2 nnz k. [instance] */
static double BHOST_ABI sp_flops(void *inst)
{
    const sp_inst *d = inst;

    return 2.0 * (double)d->a.nnz * d->k;
}

/* The compulsory traffic (sp_spmm_bytes). [instance] */
static double BHOST_ABI sp_bytes(void *inst)
{
    const sp_inst *d = inst;

    return sp_spmm_bytes(&d->a, d->k);
}

/* Nonzeros per iteration. [instance] */
static double BHOST_ABI sp_items(void *inst)
{
    return (double)((const sp_inst *)inst)->a.nnz;
}

/* A read stream of f64 over the counted bytes on the case's threads.
 * [instance] */
static bhost_status BHOST_ABI sp_profile(void *inst, bhost_work_profile *out)
{
    const sp_inst *d = inst;

    return bh_plugin_profile(out, BHOST_ACCESS_READ, BHOST_COMPUTE_F64, d->threads, sp_bytes(inst));
}

/* A sparse benchmark's descriptor: the two differ in id, summary,
 * parameters and create only. */
#define SP_DESC(var, bench_id, text, params_array, create_fn)                                      \
    const bhost_bench_desc var = {                                                                 \
        .struct_size = sizeof(bhost_bench_desc),                                                   \
        .id = (bench_id),                                                                          \
        .summary = (text),                                                                         \
        .params = (params_array),                                                                  \
        .param_count = BH_PLUGIN_COUNT(params_array),                                              \
        .create = (create_fn),                                                                     \
        .setup = sp_setup,                                                                         \
        .run = sp_run,                                                                             \
        .verify = sp_verify,                                                                       \
        .destroy = sp_destroy,                                                                     \
        .flops_per_iter = sp_flops,                                                                \
        .bytes_per_iter = sp_bytes,                                                                \
        .items_per_iter = sp_items,                                                                \
        .work_profile = sp_profile,                                                                \
    };

SP_DESC(bh_sci_spmv, "sparse.spmv", "CSR sparse matrix-vector product y = A x, f64", spmv_params,
        spmv_create)
SP_DESC(bh_sci_spmm, "sparse.spmm", "CSR sparse times dense matrix Y = A X (X of k columns), f64",
        spmm_params, spmm_create)
