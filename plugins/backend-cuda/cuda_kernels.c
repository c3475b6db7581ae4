/*
 * cuda_kernels.c -- the kernel tables of the CUDA backend: gemm through
 * cuBLAS (sgemm, dgemm; bf16/f16 inputs with f32 output and compute via
 * cublasGemmEx), or the fatbin's tiled kernel when cuBLAS is missing;
 * axpy and reduce from the fatbin (kernels.cu, loaded once per process
 * with cudaLibraryLoadData); the build_stats and device_index
 * extensions.
 */
#define _POSIX_C_SOURCE 200809L
#include "cuda_internal.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

extern const unsigned char bh_cu_fatbin[];
extern const unsigned long bh_cu_fatbin_size;

/* cublas_api.h values (kept here: the header is not needed) */
#define OP_N 0
#define OP_T 1
#define R_16F 2
#define R_32F 0
#define R_16BF 14
#define COMPUTE_32F 68
#define GEMM_DEFAULT (-1)

static struct {
    int tried;
    cudaLibrary_t lib;
    double load_ns;
} K;

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* Loads the embedded fatbin into a library; logs why not. */
static cudaLibrary_t load_library(bhost_host *h, double *ns)
{
    cudaLibrary_t lib = NULL;
    uint64_t t0 = now_ns();
    cudaError_t e;

    if (bh_cu.LibraryLoadData == NULL) {
        bh_cu_log(h, BHOST_LOG_WARN, "runtime older than CUDA 12.0 (no "
                                     "cudaLibraryLoadData): own kernels "
                                     "unavailable");
        return NULL;
    }
    e = bh_cu.LibraryLoadData(&lib, bh_cu_fatbin, NULL, NULL, 0, NULL, NULL, 0);
    *ns = (double)(now_ns() - t0);
    if (e != cudaSuccess) {
        bh_cu_log(h, BHOST_LOG_WARN,
                  "cudaLibraryLoadData of the kernels fatbin: %s: %s "
                  "(rebuild with -Dnv_gencode covering this GPU)",
                  bh_cu.GetErrorName(e), bh_cu.GetErrorString(e));
        bh_cu.GetLastError();
        return NULL;
    }
    return lib;
}

const void *bh_cu_function(bhost_host *h, const char *name)
{
    cudaKernel_t k = NULL;

    if (!K.tried) {
        K.tried = 1;
        K.lib = load_library(h, &K.load_ns);
    }
    if (K.lib == NULL)
        return NULL;
    if (bh_cu.LibraryGetKernel(&k, K.lib, name) != cudaSuccess) {
        bh_cu.GetLastError();
        return NULL;
    }
    return (const void *)k; /* cudaLaunchKernel takes a cudaKernel_t */
}

bhost_status bh_cu_launch(bhost_dev *dev, const void *fn, dim3 grid,
                          dim3 block, void **args, cudaStream_t s,
                          const char *op)
{
    cudaError_t e;

    if (fn == NULL)
        return bh_cu_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "%s: kernel not available (see the log)", op);
    e = bh_cu.LaunchKernel(fn, grid, block, args, 0, s);
    return e == cudaSuccess ? BHOST_OK : bh_cu_err(dev->h, e, "cudaLaunchKernel");
}

/* Element size of F32/F64 (0 for others); *f64 set. */
static uint64_t elem(bhost_dtype t, int *f64)
{
    *f64 = t == BHOST_DTYPE_F64;
    return t == BHOST_DTYPE_F32 ? 4 : t == BHOST_DTYPE_F64 ? 8 : 0;
}

/* Common checks; the stream in *t. */
static bhost_status check_call(bhost_dev *dev, bhost_stream *s,
                               const void *args, const char *op,
                               bhost_stream **t)
{
    bhost_status st = bh_cu_check_dev(dev, op);

    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    if (st != BHOST_OK)
        return st;
    *t = bh_cu_stream_of(dev, s, op);
    if (*t == NULL)
        return BHOST_E_INVALID;
    return args == NULL ? bh_cu_fail(dev->h, BHOST_E_INVALID, "%s: NULL args", op)
                        : BHOST_OK;
}

/* y = alpha x + y (F32, F64). [instance] */
static bhost_status BHOST_ABI axpy_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_axpy_args *a)
{
    bhost_stream *t;
    unsigned long long n;
    float af;
    uint64_t es, blocks;
    int f64;
    bhost_status st = check_call(dev, s, a, "axpy", &t);

    if (st != BHOST_OK)
        return st;
    es = elem(a->type, &f64);
    if (!BHOST_HAS(bhost_axpy_args, a, y) || es == 0 || a->n > UINT64_MAX / 8)
        return bh_cu_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "axpy: dtype %" PRId32 " unsupported (F32, F64)",
                          a->type);
    st = bh_cu_check_range(dev, a->x, 0, a->n * es, "axpy", "x");
    if (st == BHOST_OK)
        st = bh_cu_check_range(dev, a->y, 0, a->n * es, "axpy", "y");
    if (st != BHOST_OK || a->n == 0)
        return st;
    n = a->n;
    af = (float)a->alpha;
    blocks = (a->n + 255) / 256;
    {
        void *args[4] = {&n, f64 ? (void *)&a->alpha : (void *)&af,
                         (void *)&a->x->ptr, (void *)&a->y->ptr};
        dim3 grid = {(unsigned)(blocks > 65536 ? 65536 : blocks), 1, 1};
        dim3 block = {256, 1, 1};

        return bh_cu_launch(dev,
                            bh_cu_function(dev->h, f64 ? "bh_axpy_f64"
                                                       : "bh_axpy_f32"),
                            grid, block, args, t->s, "axpy");
    }
}

/* result[0] = sum/min/max: partials per block, then one block. */
static bhost_status BHOST_ABI reduce_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_reduce_args *a)
{
    bhost_stream *t;
    unsigned long long n;
    unsigned op;
    uint64_t es, groups;
    const void *fn;
    int f64;
    dim3 block = {256, 1, 1};
    bhost_status st = check_call(dev, s, a, "reduce", &t);

    if (st != BHOST_OK)
        return st;
    es = elem(a->type, &f64);
    if (!BHOST_HAS(bhost_reduce_args, a, result) || a->reserved != 0 ||
        es == 0 || a->n > UINT64_MAX / 8)
        return bh_cu_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "reduce: dtype %" PRId32 " unsupported (F32, F64)",
                          a->type);
    if (a->op < BHOST_REDUCE_SUM || a->op > BHOST_REDUCE_MAX ||
        (a->n == 0 && a->op != BHOST_REDUCE_SUM))
        return bh_cu_fail(dev->h, BHOST_E_INVALID,
                          "reduce: unknown op or min/max of nothing");
    st = bh_cu_check_range(dev, a->x, 0, a->n * es, "reduce", "x");
    if (st == BHOST_OK)
        st = bh_cu_check_range(dev, a->result, 0, es, "reduce", "result");
    if (st != BHOST_OK)
        return st;
    fn = bh_cu_function(dev->h, f64 ? "bh_reduce_f64" : "bh_reduce_f32");
    groups = (a->n + 255) / 256;
    groups = groups < 1 ? 1 : groups > BH_CU_REDUCE_GROUPS ? BH_CU_REDUCE_GROUPS
                                                            : groups;
    if (groups > 1 && t->scratch == NULL) {
        cudaError_t e = bh_cu.Malloc(&t->scratch, 8 * BH_CU_REDUCE_GROUPS);

        if (e != cudaSuccess)
            return bh_cu_err(dev->h, e, "cudaMalloc (reduce partials)");
    }
    n = a->n;
    op = (unsigned)a->op;
    {
        void *out = groups > 1 ? t->scratch : a->result->ptr;
        void *args[4] = {&n, &op, (void *)&a->x->ptr, &out};
        dim3 grid = {(unsigned)groups, 1, 1};

        st = bh_cu_launch(dev, fn, grid, block, args, t->s, "reduce");
        if (st != BHOST_OK || groups <= 1)
            return st;
        n = groups;
        args[2] = &t->scratch;
        out = a->result->ptr;
        grid.x = 1;
        return bh_cu_launch(dev, fn, grid, block, args, t->s, "reduce");
    }
}

/* The fatbin's tiled gemm (no cuBLAS): F32/F64 only. */
static bhost_status own_gemm(bhost_dev *dev, bhost_stream *t,
                             const bhost_gemm_args *g, int f64)
{
    unsigned u[8] = {(unsigned)g->m,   (unsigned)g->n,   (unsigned)g->k,
                     (unsigned)g->lda, (unsigned)g->ldb, (unsigned)g->ldc,
                     g->trans_a,       g->trans_b};
    float al = (float)g->alpha, be = (float)g->beta;
    void *args[13];
    dim3 grid = {(unsigned)((g->m + 15) / 16), (unsigned)((g->n + 15) / 16), 1};
    dim3 block = {16, 16, 1};

    for (int i = 0; i < 8; i++)
        args[i] = &u[i];
    args[8] = f64 ? (void *)&g->alpha : (void *)&al;
    args[9] = f64 ? (void *)&g->beta : (void *)&be;
    args[10] = (void *)&g->a->ptr;
    args[11] = (void *)&g->b->ptr;
    args[12] = (void *)&g->c->ptr;
    return bh_cu_launch(dev,
                        bh_cu_function(dev->h, f64 ? "bh_gemm_f64" : "bh_gemm_f32"),
                        grid, block, args, t->s, "gemm");
}

/* Bytes spanned by a column-major rows x cols matrix with leading
 * dimension ld, or UINT64_MAX when ld is too small. */
static uint64_t span(uint64_t rows, uint64_t cols, uint64_t ld, uint64_t es)
{
    if (ld < (rows > 1 ? rows : 1))
        return UINT64_MAX;
    return rows == 0 || cols == 0 ? 0 : (ld * (cols - 1) + rows) * es;
}

/* C = alpha op(A) op(B) + beta C. [instance] */
static bhost_status BHOST_ABI gemm_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_gemm_args *g)
{
    bhost_stream *t;
    const bh_cublas *blas;
    int f64, half;
    uint64_t es, ein;
    bh_cublas_status r;
    bhost_status st = check_call(dev, s, g, "gemm", &t);

    if (st != BHOST_OK)
        return st;
    half = (g->a_type == BHOST_DTYPE_BF16 || g->a_type == BHOST_DTYPE_F16) &&
           g->b_type == g->a_type && g->c_type == BHOST_DTYPE_F32 &&
           g->compute_type == BHOST_DTYPE_F32;
    es = elem(g->c_type, &f64);
    ein = half ? 2 : es;
    if (!BHOST_HAS(bhost_gemm_args, g, c) || g->reserved != 0 || es == 0 ||
        (!half && (g->a_type != g->c_type || g->b_type != g->c_type ||
                   g->compute_type != g->c_type)))
        return bh_cu_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: dtypes a=%" PRId32 " c=%" PRId32
                          " unsupported (all F32, all F64, BF16/F16 -> F32)",
                          g->a_type, g->c_type);
    if (g->trans_a > 1 || g->trans_b > 1 || g->m > INT_MAX || g->n > INT_MAX ||
        g->k > INT_MAX || g->lda > INT_MAX || g->ldb > INT_MAX ||
        g->ldc > INT_MAX)
        return bh_cu_fail(dev->h, BHOST_E_INVALID,
                          "gemm: trans flags or dimensions out of range");
    st = bh_cu_check_range(dev, g->a, 0,
                           span(g->trans_a ? g->k : g->m,
                                g->trans_a ? g->m : g->k, g->lda, ein),
                           "gemm", "a");
    if (st == BHOST_OK)
        st = bh_cu_check_range(dev, g->b, 0,
                               span(g->trans_b ? g->n : g->k,
                                    g->trans_b ? g->k : g->n, g->ldb, ein),
                               "gemm", "b");
    if (st == BHOST_OK)
        st = bh_cu_check_range(dev, g->c, 0, span(g->m, g->n, g->ldc, es),
                               "gemm", "c");
    if (st != BHOST_OK || g->m == 0 || g->n == 0)
        return st;
    blas = bh_cu_cublas(dev->h);
    if (blas == NULL) {
        if (half)
            return bh_cu_fail(dev->h, BHOST_E_UNSUPPORTED,
                              "gemm: bf16/f16 needs cuBLAS");
        return own_gemm(dev, t, g, f64);
    }
    if (dev->cublas == NULL && blas->Create(&dev->cublas) != 0)
        return bh_cu_fail(dev->h, BHOST_E_DEVICE, "gemm: cublasCreate failed");
    blas->SetStream(dev->cublas, t->s);
    if (half) {
        float al = (float)g->alpha, be = (float)g->beta;
        int in = g->a_type == BHOST_DTYPE_BF16 ? R_16BF : R_16F;

        r = blas->GemmEx(dev->cublas, g->trans_a ? OP_T : OP_N,
                         g->trans_b ? OP_T : OP_N, (int)g->m, (int)g->n,
                         (int)g->k, &al, g->a->ptr, in, (int)g->lda, g->b->ptr,
                         in, (int)g->ldb, &be, g->c->ptr, R_32F, (int)g->ldc,
                         COMPUTE_32F, GEMM_DEFAULT);
    } else if (f64) {
        r = blas->Dgemm(dev->cublas, g->trans_a ? OP_T : OP_N,
                        g->trans_b ? OP_T : OP_N, (int)g->m, (int)g->n,
                        (int)g->k, &g->alpha, g->a->ptr, (int)g->lda,
                        g->b->ptr, (int)g->ldb, &g->beta, g->c->ptr,
                        (int)g->ldc);
    } else {
        float al = (float)g->alpha, be = (float)g->beta;

        r = blas->Sgemm(dev->cublas, g->trans_a ? OP_T : OP_N,
                        g->trans_b ? OP_T : OP_N, (int)g->m, (int)g->n,
                        (int)g->k, &al, g->a->ptr, (int)g->lda, g->b->ptr,
                        (int)g->ldb, &be, g->c->ptr, (int)g->ldc);
    }
    return r == 0 ? BHOST_OK
                  : bh_cu_fail(dev->h, BHOST_E_DEVICE,
                               "gemm: cuBLAS status %d", r);
}

/* build_stats.build: the fatbin loaded into a new library (modules are
 * not compiled at run time unless PTX must be JIT-compiled; the driver's
 * JIT cache then applies to CACHED and is bypassed by nothing here). */
static bhost_status BHOST_ABI build(bhost_dev *dev, uint32_t mode,
                                    bhost_build_stats *out)
{
    bhost_build_stats st_local;
    cudaLibrary_t lib;
    size_t n;
    bhost_status st = bh_cu_check_dev(dev, "build_stats");

    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    if (st != BHOST_OK)
        return st;
    if (out == NULL || out->struct_size < sizeof(uint32_t) || mode > 1)
        return bh_cu_fail(dev->h, BHOST_E_INVALID, "build_stats: bad arguments");
    memset(&st_local, 0, sizeof(st_local));
    lib = load_library(dev->h, &st_local.build_ns);
    if (lib == NULL)
        return bh_cu_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "build_stats: the kernels fatbin does not load here");
    bh_cu.LibraryUnload(lib);
    st_local.programs = 1;
    snprintf(st_local.cache, sizeof(st_local.cache),
             "driver JIT cache (PTX only)");
    n = out->struct_size < sizeof(st_local) ? out->struct_size : sizeof(st_local);
    memcpy((char *)out + sizeof(uint32_t), (char *)&st_local + sizeof(uint32_t),
           n - sizeof(uint32_t));
    return BHOST_OK;
}

/* build_stats.last: the process's one load of the fatbin. */
static bhost_status BHOST_ABI last(bhost_dev *dev, bhost_build_stats *out)
{
    bhost_build_stats st_local;
    size_t n;
    bhost_status st = bh_cu_check_dev(dev, "build_stats");

    if (st != BHOST_OK)
        return st;
    if (out == NULL || out->struct_size < sizeof(uint32_t))
        return bh_cu_fail(dev->h, BHOST_E_INVALID, "build_stats: bad arguments");
    memset(&st_local, 0, sizeof(st_local));
    st_local.programs = K.lib != NULL;
    st_local.build_ns = K.load_ns;
    snprintf(st_local.cache, sizeof(st_local.cache), "none");
    n = out->struct_size < sizeof(st_local) ? out->struct_size : sizeof(st_local);
    memcpy((char *)out + sizeof(uint32_t), (char *)&st_local + sizeof(uint32_t),
           n - sizeof(uint32_t));
    return BHOST_OK;
}

static uint32_t BHOST_ABI index_of(bhost_dev *dev)
{
    return bh_cu_check_dev(dev, "device_index") == BHOST_OK ? dev->index : 0;
}

static const bhost_kernel_gemm gemm_table = {sizeof(bhost_kernel_gemm), 0,
                                             gemm_run};
static const bhost_kernel_axpy axpy_table = {sizeof(bhost_kernel_axpy), 0,
                                             axpy_run};
static const bhost_kernel_reduce reduce_table = {sizeof(bhost_kernel_reduce), 0,
                                                 reduce_run};
static const bhost_ext_build_stats build_table = {
    sizeof(bhost_ext_build_stats), 0, build, last};
static const bhost_ext_device_index index_table = {
    sizeof(bhost_ext_device_index), 0, index_of};

const void *bh_cu_kernel(bhost_dev *dev, const char *id)
{
    int have = bh_cu_function(dev->h, "bh_axpy_f32") != NULL;

    if (strcmp(id, BHOST_EXT_BUILD_STATS) == 0)
        return &build_table;
    if (strcmp(id, BHOST_EXT_DEVICE_INDEX) == 0)
        return &index_table;
    if (strcmp(id, BHOST_KERNEL_GEMM) == 0)
        return have || bh_cu_cublas(dev->h) != NULL ? &gemm_table : NULL;
    if (strcmp(id, BHOST_KERNEL_AXPY) == 0)
        return have ? &axpy_table : NULL;
    if (strcmp(id, BHOST_KERNEL_REDUCE) == 0)
        return have ? &reduce_table : NULL;
    return NULL;
}
