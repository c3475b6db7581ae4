// SPDX-License-Identifier: MIT
/*
 * ze_kernels.c -- the kernel tables of the Level Zero backend: SPIR-V
 * modules built at build time from plugins/common/bh_kernels.cl (f32; f64
 * on devices with fp64), created with zeModuleCreate on the first
 * get_kernel(); the build_stats extension (COLD: zeModuleCreate from
 * SPIR-V, the driver compiles; CACHED: from the native binary of the
 * device's own module, zeModuleGetNativeBinary) and device_index. Built
 * without clang-14 + llvm-spirv-14 (BH_ZE_NO_KERNELS), the backend has no
 * kernels.
 */
#include "ze_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BH_ZE_NO_KERNELS
extern const unsigned char bh_ze_spv_f32[];
extern const unsigned long bh_ze_spv_f32_size;
extern const unsigned char bh_ze_spv_f64[];
extern const unsigned long bh_ze_spv_f64_size;
#endif

static const char *const names[BH_ZE_KERNELS] = {"bh_axpy", "bh_reduce",
                                                 "bh_gemm"};

int bh_ze_have_kernels(void)
{
#ifdef BH_ZE_NO_KERNELS
    return 0;
#else
    return 1;
#endif
}

static void drop(bh_ze_prog *p)
{
    for (int k = 0; k < BH_ZE_KERNELS; k++)
        if (p->k[k] != NULL) {
            bh_ze.zeKernelDestroy(p->k[k]);
            p->k[k] = NULL;
        }
    if (p->mod != NULL)
        bh_ze.zeModuleDestroy(p->mod);
    p->mod = NULL;
}

void bh_ze_kernels_release(bhost_dev *dev)
{
    drop(&dev->progs[0]);
    drop(&dev->progs[1]);
}

/* Creates a module from code (SPIR-V or native) and its kernels. */
static bhost_status build(bhost_dev *dev, ze_module_format_t format,
                          const void *code, size_t size, bh_ze_prog *p)
{
    ze_module_desc_t md;
    ze_module_build_log_handle_t log = NULL;
    ze_result_t r;

    memset(p, 0, sizeof(*p));
    memset(&md, 0, sizeof(md));
    md.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
    md.format = format;
    md.inputSize = size;
    md.pInputModule = code;
    md.pBuildFlags = "";
    r = bh_ze.zeModuleCreate(dev->ctx, dev->phys->dev, &md, &p->mod, &log);
    if (r != ZE_RESULT_SUCCESS) {
        char text[300] = "";
        size_t n = sizeof(text);

        if (log != NULL && bh_ze.zeModuleBuildLogGetString(log, &n, text) !=
                               ZE_RESULT_SUCCESS)
            text[0] = '\0';
        text[sizeof(text) - 1] = '\0';
        if (log != NULL)
            bh_ze.zeModuleBuildLogDestroy(log);
        p->mod = NULL;
        return bh_ze_fail(dev->h, BHOST_E_DEVICE, "zeModuleCreate: 0x%08x: %s",
                          (unsigned)r, text);
    }
    if (log != NULL)
        bh_ze.zeModuleBuildLogDestroy(log);
    for (int k = 0; k < BH_ZE_KERNELS; k++) {
        ze_kernel_desc_t kd;

        memset(&kd, 0, sizeof(kd));
        kd.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
        kd.pKernelName = names[k];
        r = bh_ze.zeKernelCreate(p->mod, &kd, &p->k[k]);
        if (r != ZE_RESULT_SUCCESS) {
            drop(p);
            return bh_ze_err(dev->h, r, "zeKernelCreate");
        }
    }
    return BHOST_OK;
}

/* The SPIR-V of the f32 (f = 0) or f64 module. */
static const void *spirv(int f, size_t *size)
{
#ifdef BH_ZE_NO_KERNELS
    (void)f;
    *size = 0;
    return NULL;
#else
    *size = (size_t)(f ? bh_ze_spv_f64_size : bh_ze_spv_f32_size);
    return f ? bh_ze_spv_f64 : bh_ze_spv_f32;
#endif
}

/* Builds the device's modules once. */
static bhost_status ensure(bhost_dev *dev)
{
    uint64_t t0;
    size_t size;
    const void *code;
    bhost_status st = BHOST_OK;

    if (dev->progs[0].mod != NULL)
        return BHOST_OK;
    if (dev->kernels_tried || !bh_ze_have_kernels())
        return bh_ze_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "no kernels (see log; built without SPIR-V tools?)");
    dev->kernels_tried = 1;
    t0 = bh_be_now_ns();
    for (int f = 0; f < (dev->phys->fp64 ? 2 : 1) && st == BHOST_OK; f++) {
        code = spirv(f, &size);
        st = build(dev, ZE_MODULE_FORMAT_IL_SPIRV, code, size, &dev->progs[f]);
    }
    if (st != BHOST_OK) {
        bh_ze_kernels_release(dev);
        return st;
    }
    memset(&dev->stats, 0, sizeof(dev->stats));
    dev->stats.struct_size = sizeof(dev->stats);
    dev->stats.programs = dev->phys->fp64 ? 2 : 1;
    dev->stats.cache_misses = dev->stats.programs;
    dev->stats.build_ns = (double)(bh_be_now_ns() - t0);
    snprintf(dev->stats.cache, sizeof(dev->stats.cache), "none (SPIR-V)");
    return BHOST_OK;
}

/* Common checks; the stream in *t. */
static bhost_status check_call(bhost_dev *dev, bhost_stream *s,
                               const void *args, const char *op,
                               bhost_stream **t)
{
    bhost_status st = bh_ze_check_dev(dev, op);

    if (st == BHOST_OK)
        st = ensure(dev);
    if (st == BHOST_OK)
        st = bh_be_call(&bh_ze_be, dev, dev->def, s, args, op, t);
    return st;
}

/* Sets n arguments (sizes[i] bytes at vals[i]), the group size and
 * appends kernel k with the group count, then a barrier. */
static bhost_status launch(bhost_stream *t, ze_kernel_handle_t k, uint32_t n,
                           const size_t *sizes, const void *const *vals,
                           uint32_t bx, uint32_t by, uint32_t gx, uint32_t gy)
{
    ze_group_count_t gc = {gx, gy, 1};
    ze_result_t r = bh_ze.zeKernelSetGroupSize(k, bx, by, 1);

    for (uint32_t i = 0; i < n && r == ZE_RESULT_SUCCESS; i++)
        r = bh_ze.zeKernelSetArgumentValue(k, i, sizes[i], vals[i]);
    if (r == ZE_RESULT_SUCCESS)
        r = bh_ze.zeCommandListAppendLaunchKernel(t->list, k, &gc, NULL, 0, NULL);
    if (r != ZE_RESULT_SUCCESS)
        return bh_ze_err(t->dev->h, r, "kernel launch");
    return bh_ze_ordered(t);
}

static size_t elem(const bhost_dev *dev, bhost_dtype t, int *f)
{
    *f = t == BHOST_DTYPE_F64;
    return t == BHOST_DTYPE_F32 ? 4 : t == BHOST_DTYPE_F64 && dev->phys->fp64 ? 8 : 0;
}

/* y = alpha x + y. [instance] */
static bhost_status BHOST_ABI axpy_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_axpy_args *a)
{
    bhost_stream *t;
    uint64_t n, groups;
    float af;
    size_t es;
    int f;
    bhost_status st = check_call(dev, s, a, "axpy", &t);

    if (st != BHOST_OK)
        return st;
    es = elem(dev, a->type, &f);
    st = bh_be_check_axpy(&bh_ze_be, dev, a, es, "");
    if (st != BHOST_OK || a->n == 0)
        return st;
    n = a->n;
    af = (float)a->alpha;
    groups = (a->n + 255) / 256;
    {
        const size_t sizes[4] = {8, es, sizeof(void *), sizeof(void *)};
        const void *vals[4] = {&n, f ? (const void *)&a->alpha : (const void *)&af,
                               &a->x->ptr, &a->y->ptr};

        return launch(t, dev->progs[f].k[BH_ZE_K_AXPY], 4, sizes, vals, 256, 1,
                      (uint32_t)(groups > 4096 ? 4096 : groups), 1);
    }
}

/* result[0] = sum/min/max, two passes. [instance] */
static bhost_status BHOST_ABI reduce_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_reduce_args *a)
{
    bhost_stream *t;
    uint64_t n, groups;
    uint32_t op;
    size_t es;
    int f;
    bhost_status st = check_call(dev, s, a, "reduce", &t);

    if (st != BHOST_OK)
        return st;
    es = elem(dev, a->type, &f);
    st = bh_be_check_reduce(&bh_ze_be, dev, a, es, "");
    if (st != BHOST_OK)
        return st;
    groups = (a->n + 255) / 256;
    groups = groups < 1 ? 1 : groups > BH_ZE_REDUCE_GROUPS ? BH_ZE_REDUCE_GROUPS
                                                            : groups;
    if (groups > 1 && t->scratch == NULL) {
        ze_device_mem_alloc_desc_t d;
        ze_result_t r;

        memset(&d, 0, sizeof(d));
        d.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
        r = bh_ze.zeMemAllocDevice(dev->ctx, &d, 8 * BH_ZE_REDUCE_GROUPS, 64,
                                   dev->phys->dev, &t->scratch);
        if (r != ZE_RESULT_SUCCESS)
            return bh_ze_err(dev->h, r, "zeMemAllocDevice (reduce partials)");
    }
    n = a->n;
    op = (uint32_t)a->op;
    {
        const size_t sizes[4] = {8, 4, sizeof(void *), sizeof(void *)};
        void *out = groups > 1 ? t->scratch : a->result->ptr;
        const void *vals[4] = {&n, &op, &a->x->ptr, &out};

        st = launch(t, dev->progs[f].k[BH_ZE_K_REDUCE], 4, sizes, vals, 256, 1,
                    (uint32_t)groups, 1);
        if (st != BHOST_OK || groups <= 1)
            return st;
        n = groups;
        vals[2] = &t->scratch;
        out = a->result->ptr;
        return launch(t, dev->progs[f].k[BH_ZE_K_REDUCE], 4, sizes, vals, 256,
                      1, 1, 1);
    }
}

/* C = alpha op(A) op(B) + beta C, all F32 or all F64. [instance] */
static bhost_status BHOST_ABI gemm_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_gemm_args *g)
{
    bhost_stream *t;
    uint32_t u[8];
    float al, be;
    size_t es, sizes[13];
    const void *vals[13];
    int f;
    bhost_status st = check_call(dev, s, g, "gemm", &t);

    if (st != BHOST_OK)
        return st;
    es = elem(dev, g->c_type, &f);
    if (!BHOST_HAS(bhost_gemm_args, g, c) || g->reserved != 0 || es == 0 ||
        g->a_type != g->c_type || g->b_type != g->c_type ||
        g->compute_type != g->c_type)
        return bh_ze_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: dtypes unsupported (all F32, or F64 with fp64)");
    if (g->trans_a > 1 || g->trans_b > 1 || g->m > UINT32_MAX - 16 ||
        g->n > UINT32_MAX - 16 || g->k > UINT32_MAX || g->lda > UINT32_MAX ||
        g->ldb > UINT32_MAX || g->ldc > UINT32_MAX)
        return bh_ze_fail(dev->h, BHOST_E_INVALID,
                          "gemm: trans flags or dimensions out of range");
    st = bh_be_check_gemm_spans(&bh_ze_be, dev, g, es, es);
    if (st != BHOST_OK || g->m == 0 || g->n == 0)
        return st;
    u[0] = (uint32_t)g->m;
    u[1] = (uint32_t)g->n;
    u[2] = (uint32_t)g->k;
    u[3] = (uint32_t)g->lda;
    u[4] = (uint32_t)g->ldb;
    u[5] = (uint32_t)g->ldc;
    u[6] = g->trans_a;
    u[7] = g->trans_b;
    al = (float)g->alpha;
    be = (float)g->beta;
    for (int i = 0; i < 8; i++) {
        sizes[i] = 4;
        vals[i] = &u[i];
    }
    sizes[8] = sizes[9] = es;
    vals[8] = f ? (const void *)&g->alpha : (const void *)&al;
    vals[9] = f ? (const void *)&g->beta : (const void *)&be;
    sizes[10] = sizes[11] = sizes[12] = sizeof(void *);
    vals[10] = &g->a->ptr;
    vals[11] = &g->b->ptr;
    vals[12] = &g->c->ptr;
    return launch(t, dev->progs[f].k[BH_ZE_K_GEMM], 13, sizes, vals, 16, 16,
                  (uint32_t)((g->m + 15) / 16), (uint32_t)((g->n + 15) / 16));
}

/* build_stats.build: the modules again, from SPIR-V (COLD) or from the
 * native binaries of the device's own modules (CACHED). */
static bhost_status BHOST_ABI build_ext(bhost_dev *dev, uint32_t mode,
                                        bhost_build_stats *out)
{
    bhost_build_stats stats;
    uint64_t t0;
    bhost_status st = bh_ze_check_dev(dev, "build_stats");

    if (st == BHOST_OK)
        st = ensure(dev);
    if (st == BHOST_OK)
        st = bh_be_check_stats(&bh_ze_be, dev, out, mode);
    if (st != BHOST_OK)
        return st;
    memset(&stats, 0, sizeof(stats));
    t0 = bh_be_now_ns();
    for (int f = 0; f < (dev->phys->fp64 ? 2 : 1) && st == BHOST_OK; f++) {
        bh_ze_prog p;
        size_t size = 0;
        const void *code = spirv(f, &size);
        uint8_t *bin = NULL;

        if (mode == BHOST_BUILD_CACHED &&
            bh_ze.zeModuleGetNativeBinary(dev->progs[f].mod, &size, NULL) ==
                ZE_RESULT_SUCCESS &&
            (bin = malloc(size)) != NULL &&
            bh_ze.zeModuleGetNativeBinary(dev->progs[f].mod, &size, bin) ==
                ZE_RESULT_SUCCESS)
            st = build(dev, ZE_MODULE_FORMAT_NATIVE, bin, size, &p);
        else
            st = build(dev, ZE_MODULE_FORMAT_IL_SPIRV, code, size, &p);
        stats.cache_hits += bin != NULL;
        stats.cache_misses += bin == NULL;
        free(bin);
        if (st == BHOST_OK) {
            drop(&p);
            stats.programs++;
        }
    }
    stats.build_ns = (double)(bh_be_now_ns() - t0);
    snprintf(stats.cache, sizeof(stats.cache), "%s",
             mode == BHOST_BUILD_CACHED ? "native binaries in memory" : "none");
    if (st == BHOST_OK)
        bh_be_copy_sized(out, &stats, sizeof(stats));
    return st;
}

/* build_stats.last: the device's own module build. */
static bhost_status BHOST_ABI last(bhost_dev *dev, bhost_build_stats *out)
{
    bhost_status st = bh_be_check_stats(&bh_ze_be, dev, out, BHOST_BUILD_COLD);

    if (st == BHOST_OK)
        bh_be_copy_sized(out, &dev->stats, sizeof(dev->stats));
    return st;
}

static uint32_t BHOST_ABI index_of(bhost_dev *dev)
{
    return bh_ze_check_dev(dev, "device_index") == BHOST_OK ? dev->index : 0;
}

static const bhost_kernel_gemm gemm_table = {sizeof(bhost_kernel_gemm), 0,
                                             gemm_run};
static const bhost_kernel_axpy axpy_table = {sizeof(bhost_kernel_axpy), 0,
                                             axpy_run};
static const bhost_kernel_reduce reduce_table = {sizeof(bhost_kernel_reduce), 0,
                                                 reduce_run};
static const bhost_ext_build_stats build_table = {
    sizeof(bhost_ext_build_stats), 0, build_ext, last};
static const bhost_ext_device_index index_table = {
    sizeof(bhost_ext_device_index), 0, index_of};

static const bh_be_tables tables = {&gemm_table, &axpy_table, &reduce_table,
                                    &build_table, &index_table};

const void *bh_ze_kernel(bhost_dev *dev, const char *id)
{
    int kernel;
    const void *t = bh_be_find_table(&tables, id, &kernel);

    if (t == &index_table)
        return t;
    if (!bh_ze_have_kernels())
        return NULL;
    return !kernel || ensure(dev) == BHOST_OK ? t : NULL;
}
