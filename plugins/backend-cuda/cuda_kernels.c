// SPDX-License-Identifier: MIT
/*
 * cuda_kernels.c -- the CUDA backend's kernels: gemm through cuBLAS
 * (sgemm, dgemm; bf16/f16 inputs with f32 output and compute via
 * cublasGemmEx), or the fatbin's tiled kernel when cuBLAS is missing; the
 * fatbin (kernels.cu, loaded once per process with cudaLibraryLoadData)
 * and its launches, which the shared axpy and reduce use
 * (plugins/common/bh_gpu_kernels.c); the build_stats extension.
 */
#include "cuda_internal.h"

#include "bh_gpu_args.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

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

/* Loads the embedded fatbin into a library; logs why not. */
static cudaLibrary_t load_library(bhost_host *h, double *ns)
{
    cudaLibrary_t lib = NULL;
    uint64_t t0 = bh_be_now_ns();
    cudaError_t e;

    if (bh_cu.LibraryLoadData == NULL) {
        bh_gpu_log(h, BHOST_LOG_WARN, "runtime older than CUDA 12.0 (no "
                                     "cudaLibraryLoadData): own kernels "
                                     "unavailable");
        return NULL;
    }
    e = bh_cu.LibraryLoadData(&lib, bh_cu_fatbin, NULL, NULL, 0, NULL, NULL, 0);
    *ns = (double)(bh_be_now_ns() - t0);
    if (e != cudaSuccess) {
        bh_gpu_log(h, BHOST_LOG_WARN,
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

bhost_status bh_cu_launch_fn(bhost_dev *dev, const void *fn, dim3 grid,
                             dim3 block, void **args, cudaStream_t s,
                             const char *op)
{
    cudaError_t e;

    if (fn == NULL)
        return bh_gpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                           "%s: kernel not available (see the log)", op);
    e = bh_cu.LaunchKernel(fn, grid, block, args, 0, s);
    return e == cudaSuccess ? BHOST_OK : bh_cu_err(dev->h, e, "cudaLaunchKernel");
}

bhost_status bh_cu_launch(bhost_dev *dev, bh_gpu_fn fn, unsigned gx,
                          unsigned gy, unsigned bx, unsigned by, void **args,
                          cudaStream_t s, const char *op)
{
    dim3 grid = {gx, gy, 1};
    dim3 block = {bx, by, 1};

    return bh_cu_launch_fn(dev, bh_cu_function(dev->h, bh_gpu_fn_names[fn]),
                           grid, block, args, s, op);
}

bhost_status bh_cu_check_call(bhost_dev *dev, bhost_stream *s, const void *args,
                              const char *op, bhost_stream **t)
{
    bhost_status st = bh_gpu_check_dev(dev, op);

    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    if (st == BHOST_OK)
        st = bh_be_call(&bh_cu_be, dev, dev->def, s, args, op, t);
    return st;
}

/* The fatbin's tiled gemm (no cuBLAS): F32/F64 only. */
static bhost_status own_gemm(bhost_dev *dev, bhost_stream *t,
                             const bhost_gemm_args *g, int f64)
{
    bh_gpu_gemm_pack p;

    bh_gpu_gemm_pack_init(&p, g, f64);
    return bh_cu_launch(dev, f64 ? BH_GPU_GEMM_F64 : BH_GPU_GEMM_F32, p.grid_x,
                        p.grid_y, 16, 16, p.args, t->s, "gemm");
}

/* C = alpha op(A) op(B) + beta C. [instance] */
bhost_status BHOST_ABI bh_cu_gemm_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_gemm_args *g)
{
    bhost_stream *t;
    const bh_cublas *blas;
    int f64, half;
    uint64_t es, ein;
    bh_cublas_status r;
    bhost_status st = bh_cu_check_call(dev, s, g, "gemm", &t);

    if (st != BHOST_OK)
        return st;
    half = (g->a_type == BHOST_DTYPE_BF16 || g->a_type == BHOST_DTYPE_F16) &&
           g->b_type == g->a_type && g->c_type == BHOST_DTYPE_F32 &&
           g->compute_type == BHOST_DTYPE_F32;
    es = bh_gpu_elem(g->c_type, &f64);
    ein = half ? 2 : es;
    if (!BHOST_HAS(bhost_gemm_args, g, c) || g->reserved != 0 || es == 0 ||
        (!half && (g->a_type != g->c_type || g->b_type != g->c_type ||
                   g->compute_type != g->c_type)))
        return bh_gpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: dtypes a=%" PRId32 " c=%" PRId32
                          " unsupported (all F32, all F64, BF16/F16 -> F32)",
                          g->a_type, g->c_type);
    if (g->trans_a > 1 || g->trans_b > 1 || g->m > INT_MAX || g->n > INT_MAX ||
        g->k > INT_MAX || g->lda > INT_MAX || g->ldb > INT_MAX ||
        g->ldc > INT_MAX)
        return bh_gpu_fail(dev->h, BHOST_E_INVALID,
                          "gemm: trans flags or dimensions out of range");
    st = bh_be_check_gemm_spans(&bh_cu_be, dev, g, ein, es);
    if (st != BHOST_OK || g->m == 0 || g->n == 0)
        return st;
    blas = bh_cu_cublas(dev->h);
    if (blas == NULL) {
        if (half)
            return bh_gpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                              "gemm: bf16/f16 needs cuBLAS");
        return own_gemm(dev, t, g, f64);
    }
    if (dev->cublas == NULL && blas->Create(&dev->cublas) != 0)
        return bh_gpu_fail(dev->h, BHOST_E_DEVICE, "gemm: cublasCreate failed");
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
                  : bh_gpu_fail(dev->h, BHOST_E_DEVICE,
                               "gemm: cuBLAS status %d", r);
}

/* build_stats.build: the fatbin loaded into a new library (modules are
 * not compiled at run time unless PTX must be JIT-compiled; the driver's
 * JIT cache then applies to CACHED and is bypassed by nothing here). */
bhost_status BHOST_ABI bh_cu_build(bhost_dev *dev, uint32_t mode,
                                    bhost_build_stats *out)
{
    bhost_build_stats st_local;
    cudaLibrary_t lib;
    bhost_status st = bh_gpu_check_dev(dev, "build_stats");

    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    if (st == BHOST_OK)
        st = bh_be_check_stats(&bh_cu_be, dev, out, mode);
    if (st != BHOST_OK)
        return st;
    memset(&st_local, 0, sizeof(st_local));
    lib = load_library(dev->h, &st_local.build_ns);
    if (lib == NULL)
        return bh_gpu_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "build_stats: the kernels fatbin does not load here");
    bh_cu.LibraryUnload(lib);
    st_local.programs = 1;
    snprintf(st_local.cache, sizeof(st_local.cache),
             "driver JIT cache (PTX only)");
    bh_be_copy_sized(out, &st_local, sizeof(st_local));
    return BHOST_OK;
}

/* build_stats.last: the process's one load of the fatbin. */
bhost_status BHOST_ABI bh_cu_last(bhost_dev *dev, bhost_build_stats *out)
{
    bhost_build_stats st_local;
    bhost_status st = bh_be_check_stats(&bh_cu_be, dev, out, BHOST_BUILD_COLD);

    if (st != BHOST_OK)
        return st;
    memset(&st_local, 0, sizeof(st_local));
    st_local.programs = K.lib != NULL;
    st_local.build_ns = K.load_ns;
    snprintf(st_local.cache, sizeof(st_local.cache), "none");
    bh_be_copy_sized(out, &st_local, sizeof(st_local));
    return BHOST_OK;
}

const void *bh_cu_kernel(bhost_dev *dev, const char *id)
{
    int have = bh_cu_function(dev->h, "bh_axpy_f32") != NULL;
    int kernel;
    const void *t = bh_be_find_table(&bh_cu_tables, id, &kernel);

    if (t == NULL)
        return bh_cu_sci_kernel(dev, id);

    if (t == bh_cu_tables.gemm)
        return have || bh_cu_cublas(dev->h) != NULL ? t : NULL;
    return !kernel || have ? t : NULL;
}
