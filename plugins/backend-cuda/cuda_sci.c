// SPDX-License-Identifier: MIT
/*
 * cuda_sci.c -- the scientific kernel extension of the CUDA backend
 * (bhost/sci_kernels.h) through NVIDIA's libraries: spmv by cuSPARSE
 * (cusparseSpMV over a CSR of 32-bit indices, F32 and F64), fft by cuFFT
 * (C2C and Z2Z plans, cached per device for the last n, batch and type;
 * any n) and conv2d by cuDNN (cudnnConvolutionForward, F32 with
 * CUDNN_FMA_MATH so that no TF32 rounding enters: the result must match an
 * f32 reference). Each part is compiled only when its header was found at
 * build time (BH_CU_HAVE_CUSPARSE, _CUFFT, _CUDNN) and each library is
 * dlopen'ed on the first get_kernel() of its id (nothing is linked);
 * where a header or library is missing the backend does not offer the
 * id, and the reason is logged. Library state lives in dev->sci, freed by
 * close(). Argument checks: bh_be_sci.c.
 */
#include "cuda_internal.h"

#include "bh_gpu_args.h"

#include <bhost/backend_helper.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#ifdef BH_CU_HAVE_CUSPARSE
#define DISABLE_CUSPARSE_DEPRECATED /* the header's own legacy types */
#include <cusparse.h>
#endif
#ifdef BH_CU_HAVE_CUFFT
#include <cufft.h>
#endif
#ifdef BH_CU_HAVE_CUDNN
#include <cudnn.h>
#endif

#define SCI_DECLARE(name) __typeof__(&name) name;
#define SCI_RESOLVE(name) ok = ok && bh_be_sym(lib, #name, &f->name);

/* One dlopen'ed library: tried once per process. */
typedef struct sci_lib {
    int tried;
    int ok;
    char why[200];
} sci_lib;

/* Loads the first of names into *lib (resolve() fills the table), or
 * records why not in l->why. 1 when usable. */
static int load_lib(sci_lib *l, const char *env, const char *const *names, size_t n,
                    int (*resolve)(void *lib))
{
    const char *err = NULL;
    char name[64];
    void *lib;

    if (l->tried)
        return l->ok;
    l->tried = 1;
    lib = bh_be_dlopen(env, names, n, name, sizeof(name), &err);
    if (lib == NULL)
        snprintf(l->why, sizeof(l->why), "%s not loadable: %s", names[0], err ? err : "?");
    else if (!resolve(lib))
        snprintf(l->why, sizeof(l->why), "%s lacks a needed function", name);
    else
        l->ok = 1;
    return l->ok;
}

/* Per-device state of the libraries (dev->sci). */
struct bh_cu_sci {
    void *sparse; /* cusparseHandle_t */
    void *dnn;    /* cudnnHandle_t */
    int fft_plan; /* cufftHandle, valid when fft_n != 0 */
    int fft_type; /* its cufftType */
    uint64_t fft_n, fft_batch;
    void *ws; /* workspace of cuSPARSE and cuDNN */
    size_t ws_bytes;
};

/* dev->sci, created on first use; NULL after set_error. */
static struct bh_cu_sci *state(bhost_dev *dev)
{
    if (dev->sci == NULL && (dev->sci = calloc(1, sizeof(*dev->sci))) == NULL)
        bh_gpu_fail(dev->h, BHOST_E_NOMEM, "out of memory");
    return dev->sci;
}

/* A device workspace of at least bytes (grown, never shrunk). */
static bhost_status workspace(bhost_dev *dev, size_t bytes, void **out)
{
    struct bh_cu_sci *s = dev->sci;

    if (bytes > s->ws_bytes) {
        if (s->ws != NULL)
            bh_cu.Free(s->ws);
        s->ws = NULL;
        s->ws_bytes = 0;
        if (bh_cu.Malloc(&s->ws, bytes) != cudaSuccess)
            return bh_gpu_fail(dev->h, BHOST_E_NOMEM, "workspace of %zu bytes", bytes);
        s->ws_bytes = bytes;
    }
    *out = s->ws;
    return BHOST_OK;
}

/* ---- cuSPARSE ------------------------------------------------------------ */
#ifdef BH_CU_HAVE_CUSPARSE
#define SP_FNS(X)                                                                                  \
    X(cusparseCreate)                                                                              \
    X(cusparseDestroy)                                                                             \
    X(cusparseSetStream)                                                                           \
    X(cusparseCreateCsr)                                                                           \
    X(cusparseDestroySpMat)                                                                        \
    X(cusparseCreateDnVec)                                                                         \
    X(cusparseDestroyDnVec)                                                                        \
    X(cusparseSpMV_bufferSize)                                                                     \
    X(cusparseSpMV)
static struct {
    SP_FNS(SCI_DECLARE)
} SP;
static sci_lib sp_lib;

static int sp_resolve(void *lib)
{
    int ok = 1;
    __typeof__(SP) *f = &SP;

    SP_FNS(SCI_RESOLVE)
    return ok;
}

/* The descriptors of one SpMV: A, x, y. */
typedef struct sp_call {
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t x, y;
} sp_call;

/* Creates the descriptors of args (cudaDataType dt); 0 on success. */
static int sp_describe(const bhost_spmv_args *a, cudaDataType dt, sp_call *c)
{
    memset(c, 0, sizeof(*c));
    if (SP.cusparseCreateCsr(&c->a, (int64_t)a->rows, (int64_t)a->cols, (int64_t)a->nnz,
                             a->row_ptr->ptr, a->col_idx->ptr, a->values->ptr, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                             dt) != CUSPARSE_STATUS_SUCCESS)
        return -1;
    if (SP.cusparseCreateDnVec(&c->x, (int64_t)a->cols, a->x->ptr, dt) != CUSPARSE_STATUS_SUCCESS ||
        SP.cusparseCreateDnVec(&c->y, (int64_t)a->rows, a->y->ptr, dt) != CUSPARSE_STATUS_SUCCESS)
        return -1;
    return 0;
}

static void sp_undescribe(sp_call *c)
{
    if (c->a != NULL)
        SP.cusparseDestroySpMat(c->a);
    if (c->x != NULL)
        SP.cusparseDestroyDnVec(c->x);
    if (c->y != NULL)
        SP.cusparseDestroyDnVec(c->y);
}

/* y = alpha A x + beta y on the handle's stream, scalars of type dt. */
static bhost_status sp_product(bhost_dev *dev, const bhost_spmv_args *a, cudaDataType dt,
                               const void *alpha, const void *beta)
{
    void *h = dev->sci->sparse, *ws = NULL;
    size_t bytes = 0;
    sp_call c;
    bhost_status st = BHOST_E_DEVICE;

    if (sp_describe(a, dt, &c) == 0 &&
        SP.cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, c.a, c.x, beta, c.y,
                                   dt, CUSPARSE_SPMV_ALG_DEFAULT,
                                   &bytes) == CUSPARSE_STATUS_SUCCESS &&
        workspace(dev, bytes, &ws) == BHOST_OK)
        st = SP.cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, c.a, c.x, beta, c.y, dt,
                             CUSPARSE_SPMV_ALG_DEFAULT, ws) == CUSPARSE_STATUS_SUCCESS
                 ? BHOST_OK
                 : BHOST_E_DEVICE;
    sp_undescribe(&c);
    return st == BHOST_OK ? st : bh_gpu_fail(dev->h, st, "spmv: cuSPARSE failed");
}

/* y = alpha A x + beta y by cuSPARSE. [instance] */
static bhost_status BHOST_ABI spmv_run(bhost_dev *dev, bhost_stream *s, const bhost_spmv_args *a)
{
    bhost_stream *t;
    int f64 = 0;
    float af, bf;
    bhost_status st = bh_cu_check_call(dev, s, a, "spmv", &t);

    if (st == BHOST_OK)
        st = bh_be_check_spmv(&bh_cu_be, dev, a, bh_gpu_elem(a->type, &f64), " (F32, F64)");
    if (st != BHOST_OK || a->rows == 0)
        return st;
    if (state(dev) == NULL)
        return BHOST_E_NOMEM;
    if (dev->sci->sparse == NULL &&
        SP.cusparseCreate((cusparseHandle_t *)&dev->sci->sparse) != CUSPARSE_STATUS_SUCCESS)
        return bh_gpu_fail(dev->h, BHOST_E_DEVICE, "spmv: cusparseCreate failed");
    SP.cusparseSetStream(dev->sci->sparse, t->s);
    af = (float)a->alpha;
    bf = (float)a->beta;
    return f64 ? sp_product(dev, a, CUDA_R_64F, &a->alpha, &a->beta)
               : sp_product(dev, a, CUDA_R_32F, &af, &bf);
}

static const bhost_kernel_spmv spmv_table = {sizeof(bhost_kernel_spmv), 0, spmv_run};
#define SPMV_TABLE &spmv_table
#else
#define SPMV_TABLE NULL
#endif

/* ---- cuFFT --------------------------------------------------------------- */
#ifdef BH_CU_HAVE_CUFFT
#define FT_FNS(X)                                                                                  \
    X(cufftPlanMany)                                                                               \
    X(cufftDestroy)                                                                                \
    X(cufftSetStream)                                                                              \
    X(cufftExecC2C)                                                                                \
    X(cufftExecZ2Z)
static struct {
    FT_FNS(SCI_DECLARE)
} FT;
static sci_lib ft_lib;

static int ft_resolve(void *lib)
{
    int ok = 1;
    __typeof__(FT) *f = &FT;

    FT_FNS(SCI_RESOLVE)
    return ok;
}

/* The device's plan for n, batch and type (made again when they change). */
static bhost_status ft_plan(bhost_dev *dev, const bhost_fft_args *a, int type)
{
    struct bh_cu_sci *s = dev->sci;
    int n = (int)a->n;

    if (s->fft_n == a->n && s->fft_batch == a->batch && s->fft_type == type)
        return BHOST_OK;
    if (s->fft_n != 0)
        FT.cufftDestroy(s->fft_plan);
    s->fft_n = 0;
    if (FT.cufftPlanMany(&s->fft_plan, 1, &n, NULL, 1, n, NULL, 1, n, (cufftType)type,
                         (int)a->batch) != CUFFT_SUCCESS)
        return bh_gpu_fail(dev->h, BHOST_E_DEVICE,
                           "fft: cufftPlanMany(n=%d, batch=%" PRIu64 ") failed", n, a->batch);
    s->fft_n = a->n;
    s->fft_batch = a->batch;
    s->fft_type = type;
    return BHOST_OK;
}

/* Batched complex FFT by cuFFT (any n). [instance] */
static bhost_status BHOST_ABI fft_run(bhost_dev *dev, bhost_stream *s, const bhost_fft_args *a)
{
    bhost_stream *t;
    int f64 = 0;
    cufftResult r;
    bhost_status st = bh_cu_check_call(dev, s, a, "fft", &t);

    if (st == BHOST_OK)
        st = bh_be_check_fft(&bh_cu_be, dev, a, bh_gpu_elem(a->type, &f64), 0, " (F32, F64)");
    if (st == BHOST_OK && state(dev) == NULL)
        st = BHOST_E_NOMEM;
    if (st == BHOST_OK)
        st = ft_plan(dev, a, f64 ? CUFFT_Z2Z : CUFFT_C2C);
    if (st != BHOST_OK)
        return st;
    FT.cufftSetStream(dev->sci->fft_plan, t->s);
    if (f64)
        r = FT.cufftExecZ2Z(dev->sci->fft_plan, a->in->ptr, a->out->ptr, a->direction);
    else
        r = FT.cufftExecC2C(dev->sci->fft_plan, a->in->ptr, a->out->ptr, a->direction);
    return r == CUFFT_SUCCESS ? BHOST_OK
                              : bh_gpu_fail(dev->h, BHOST_E_DEVICE, "fft: cufftExec: %d", (int)r);
}

static const bhost_kernel_fft fft_table = {sizeof(bhost_kernel_fft), 0, fft_run};
#define FFT_TABLE &fft_table
#else
#define FFT_TABLE NULL
#endif

/* cuDNN's part (conv2d) is cuda_dnn.c. */
#ifdef BH_CU_HAVE_CUDNN
#define CONV_TABLE &bh_cu_conv2d_table
#else
#define CONV_TABLE NULL
#endif

static const bh_be_sci_tables tables = {SPMV_TABLE, FFT_TABLE, CONV_TABLE};

const void *bh_cu_sci_kernel(bhost_dev *dev, const char *id)
{
    const void *t = bh_be_find_sci(&tables, id);
    const char *why = NULL;

    if (t == NULL)
        return NULL;
#ifdef BH_CU_HAVE_CUSPARSE
    if (t == SPMV_TABLE) {
        static const char *const names[] = {"libcusparse.so.12", "libcusparse.so.13",
                                            "libcusparse.so"};
        if (!load_lib(&sp_lib, "BHOST_CUSPARSE_LIB", names, 3, sp_resolve))
            why = sp_lib.why;
    }
#endif
#ifdef BH_CU_HAVE_CUFFT
    if (t == FFT_TABLE) {
        static const char *const names[] = {"libcufft.so.12", "libcufft.so.11", "libcufft.so"};
        if (!load_lib(&ft_lib, "BHOST_CUFFT_LIB", names, 3, ft_resolve))
            why = ft_lib.why;
    }
#endif
#ifdef BH_CU_HAVE_CUDNN
    if (t == CONV_TABLE)
        why = bh_cu_dnn_load();
#endif
    if (why != NULL) {
        bh_gpu_log(dev->h, BHOST_LOG_WARN, "%s unavailable: %s", id, why);
        return NULL;
    }
    return t;
}

void bh_cu_sci_release(bhost_dev *dev)
{
    struct bh_cu_sci *s = dev->sci;

    if (s == NULL)
        return;
#ifdef BH_CU_HAVE_CUSPARSE
    if (s->sparse != NULL)
        SP.cusparseDestroy(s->sparse);
#endif
#ifdef BH_CU_HAVE_CUFFT
    if (s->fft_n != 0)
        FT.cufftDestroy(s->fft_plan);
#endif
#ifdef BH_CU_HAVE_CUDNN
    bh_cu_dnn_release(s->dnn);
#endif
    if (s->ws != NULL)
        bh_cu.Free(s->ws);
    free(s);
    dev->sci = NULL;
}

bhost_status bh_cu_sci_workspace(bhost_dev *dev, size_t bytes, void **out)
{
    return workspace(dev, bytes, out);
}

void **bh_cu_sci_dnn(bhost_dev *dev)
{
    return state(dev) != NULL ? &dev->sci->dnn : NULL;
}
