/*
 * vk_kernels.c -- the compute pipelines (SPIR-V from the shaders/ folder,
 * compiled by glslc at build time, f32 and f64 variants) and the kernel
 * tables gemm, axpy, reduce; the build_stats and device_index extensions.
 * Pipelines are built on the first get_kernel() of a device, through the
 * device's VkPipelineCache.
 */
#include "vk_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t spv_axpy_f32[] = {
#include "axpy_f32.inc"
};
static const uint32_t spv_axpy_f64[] = {
#include "axpy_f64.inc"
};
static const uint32_t spv_reduce_f32[] = {
#include "reduce_f32.inc"
};
static const uint32_t spv_reduce_f64[] = {
#include "reduce_f64.inc"
};
static const uint32_t spv_gemm_f32[] = {
#include "gemm_f32.inc"
};
static const uint32_t spv_gemm_f64[] = {
#include "gemm_f64.inc"
};

static const struct {
    const uint32_t *code;
    size_t bytes;
} spv[2][BH_VK_KERNELS] = {
    {{spv_axpy_f32, sizeof(spv_axpy_f32)},
     {spv_reduce_f32, sizeof(spv_reduce_f32)},
     {spv_gemm_f32, sizeof(spv_gemm_f32)}},
    {{spv_axpy_f64, sizeof(spv_axpy_f64)},
     {spv_reduce_f64, sizeof(spv_reduce_f64)},
     {spv_gemm_f64, sizeof(spv_gemm_f64)}},
};

#define PUSH_BYTES 64u

bhost_status bh_vk_layouts(bhost_dev *dev)
{
    VkDescriptorSetLayoutBinding b[3];
    VkDescriptorSetLayoutCreateInfo di;
    VkPushConstantRange pr;
    VkPipelineLayoutCreateInfo li;
    VkPipelineCacheCreateInfo ci;
    VkResult r;

    memset(b, 0, sizeof(b));
    for (uint32_t i = 0; i < 3; i++) {
        b[i].binding = i;
        b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        b[i].descriptorCount = 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    memset(&di, 0, sizeof(di));
    di.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    di.bindingCount = 3;
    di.pBindings = b;
    r = bh_vk.vkCreateDescriptorSetLayout(dev->dev, &di, NULL, &dev->dsl);
    if (r == VK_SUCCESS) {
        pr.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        pr.offset = 0;
        pr.size = PUSH_BYTES;
        memset(&li, 0, sizeof(li));
        li.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
        li.setLayoutCount = 1;
        li.pSetLayouts = &dev->dsl;
        li.pushConstantRangeCount = 1;
        li.pPushConstantRanges = &pr;
        r = bh_vk.vkCreatePipelineLayout(dev->dev, &li, NULL, &dev->layout);
    }
    if (r == VK_SUCCESS) {
        memset(&ci, 0, sizeof(ci));
        ci.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
        r = bh_vk.vkCreatePipelineCache(dev->dev, &ci, NULL, &dev->cache);
    }
    if (r != VK_SUCCESS)
        return bh_vk_fail(dev->h, bh_vk_status(r), "pipeline layout: %s",
                          bh_vk_result_name(r));
    return BHOST_OK;
}

/* Destroys the pipelines of p. */
static void drop_pipes(bhost_dev *dev, bh_vk_pipes *p)
{
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < BH_VK_KERNELS; k++)
            if (p->p[f][k] != VK_NULL_HANDLE) {
                bh_vk.vkDestroyPipeline(dev->dev, p->p[f][k], NULL);
                p->p[f][k] = VK_NULL_HANDLE;
            }
    p->built = 0;
}

void bh_vk_kernels_release(bhost_dev *dev)
{
    drop_pipes(dev, &dev->pipes);
    if (dev->cache != VK_NULL_HANDLE)
        bh_vk.vkDestroyPipelineCache(dev->dev, dev->cache, NULL);
    if (dev->layout != VK_NULL_HANDLE)
        bh_vk.vkDestroyPipelineLayout(dev->dev, dev->layout, NULL);
    if (dev->dsl != VK_NULL_HANDLE)
        bh_vk.vkDestroyDescriptorSetLayout(dev->dev, dev->dsl, NULL);
    dev->cache = VK_NULL_HANDLE;
    dev->layout = VK_NULL_HANDLE;
    dev->dsl = VK_NULL_HANDLE;
}

/* Builds one pipeline from its SPIR-V (shader module made and dropped). */
static VkResult build_one(bhost_dev *dev, VkPipelineCache cache, int f, int k,
                          VkPipeline *out)
{
    VkShaderModuleCreateInfo mi;
    VkComputePipelineCreateInfo pi;
    VkShaderModule mod = VK_NULL_HANDLE;
    VkResult r;

    memset(&mi, 0, sizeof(mi));
    mi.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    mi.codeSize = spv[f][k].bytes;
    mi.pCode = spv[f][k].code;
    r = bh_vk.vkCreateShaderModule(dev->dev, &mi, NULL, &mod);
    if (r != VK_SUCCESS)
        return r;
    memset(&pi, 0, sizeof(pi));
    pi.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    pi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pi.stage.module = mod;
    pi.stage.pName = "main";
    pi.layout = dev->layout;
    r = bh_vk.vkCreateComputePipelines(dev->dev, cache, 1, &pi, NULL, out);
    bh_vk.vkDestroyShaderModule(dev->dev, mod, NULL);
    return r;
}

/* Builds every pipeline the device supports into *p through cache (may be
 * VK_NULL_HANDLE) and fills *stats. */
static bhost_status build_all(bhost_dev *dev, VkPipelineCache cache,
                              bh_vk_pipes *p, bhost_build_stats *stats)
{
    uint64_t t0 = bh_be_now_ns();
    int nf = dev->phys->has_f64 ? 2 : 1;

    memset(p, 0, sizeof(*p));
    for (int f = 0; f < nf; f++)
        for (int k = 0; k < BH_VK_KERNELS; k++) {
            VkResult r = build_one(dev, cache, f, k, &p->p[f][k]);

            if (r != VK_SUCCESS) {
                drop_pipes(dev, p);
                return bh_vk_fail(dev->h, bh_vk_status(r),
                                  "building pipeline %d (f%d): %s", k,
                                  f ? 64 : 32, bh_vk_result_name(r));
            }
            p->built++;
        }
    stats->struct_size = sizeof(*stats);
    stats->programs = p->built;
    stats->cache_hits = 0; /* Vulkan does not report pipeline cache hits */
    stats->cache_misses = 0;
    stats->build_ns = (double)(bh_be_now_ns() - t0);
    snprintf(stats->cache, sizeof(stats->cache), "%s",
             cache != VK_NULL_HANDLE ? "VkPipelineCache" : "none");
    return BHOST_OK;
}

/* Builds the device's own pipelines once; BHOST_OK when they exist. */
static bhost_status ensure_pipes(bhost_dev *dev)
{
    bhost_status st;

    if (dev->pipes.built != 0)
        return BHOST_OK;
    if (dev->kernels_tried)
        return BHOST_E_DEVICE;
    dev->kernels_tried = 1;
    st = build_all(dev, dev->cache, &dev->pipes, &dev->stats);
    if (st == BHOST_OK)
        bh_vk_log(dev->h, BHOST_LOG_INFO,
                  "built %" PRIu32 " compute pipelines in %.3f ms",
                  dev->pipes.built, dev->stats.build_ns / 1e6);
    return st;
}

/* Element size of the kernel dtypes (0 for others); *f = 1 for F64. */
static uint64_t elem(const bhost_dev *dev, bhost_dtype t, int *f)
{
    *f = t == BHOST_DTYPE_F64;
    if (t == BHOST_DTYPE_F32)
        return 4;
    if (t == BHOST_DTYPE_F64 && dev->phys->has_f64)
        return 8;
    return 0;
}

/* Records one dispatch of pipeline p over buffers b[0..2]. */
static bhost_status dispatch(bhost_stream *t, VkPipeline p,
                             bhost_buf *const b[3], const void *push,
                             uint32_t push_bytes, uint32_t gx, uint32_t gy)
{
    VkCommandBuffer cb = bh_vk_record(t);
    VkDescriptorSet set;

    if (cb == VK_NULL_HANDLE)
        return BHOST_E_DEVICE;
    set = bh_vk_descriptors(t, b);
    if (set == VK_NULL_HANDLE)
        return BHOST_E_DEVICE;
    bh_vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p);
    bh_vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                                  t->dev->layout, 0, 1, &set, 0, NULL);
    bh_vk.vkCmdPushConstants(cb, t->dev->layout, VK_SHADER_STAGE_COMPUTE_BIT,
                             0, push_bytes, push);
    bh_vk.vkCmdDispatch(cb, gx, gy, 1);
    return BHOST_OK;
}

/* Common checks of a kernel call: device, stream, args, pipelines. */
static bhost_status check_call(bhost_dev *dev, bhost_stream *s,
                               const void *args, const char *op,
                               bhost_stream **t)
{
    bhost_status st = bh_vk_check_dev(dev, op);

    if (st == BHOST_OK)
        st = bh_be_call(&bh_vk_be, dev, dev->def, s, args, op, t);
    return st == BHOST_OK ? ensure_pipes(dev) : st;
}

/* BHOST_OK when buf holds bytes and can be bound as a storage buffer. */
static bhost_status bindable(const bhost_dev *dev, const bhost_buf *buf,
                             uint64_t bytes, const char *op, const char *what)
{
    bhost_status st = bh_vk_check_range(dev, buf, 0, bytes, op, what);

    if (st == BHOST_OK &&
        buf->size > dev->phys->props.limits.maxStorageBufferRange)
        st = bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                        "%s: %s buffer of %" PRIu64
                        " bytes exceeds maxStorageBufferRange",
                        op, what, buf->size);
    return st;
}

/* y = alpha x + y (F32; F64 with shaderFloat64). [instance] */
static bhost_status BHOST_ABI axpy_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_axpy_args *a)
{
    bhost_stream *t;
    unsigned char push[16];
    uint32_t n32, groups;
    uint64_t es;
    int f;
    bhost_status st = check_call(dev, s, a, "axpy", &t);

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_axpy_args, a, y))
        return bh_vk_fail(dev->h, BHOST_E_INVALID, "axpy: struct too small");
    es = elem(dev, a->type, &f);
    if (es == 0 || a->n > INT32_MAX)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "axpy: dtype %" PRId32 " or n=%" PRIu64
                          " unsupported (F32, F64 with shaderFloat64; n < 2^31)",
                          a->type, a->n);
    st = bindable(dev, a->x, a->n * es, "axpy", "x");
    if (st == BHOST_OK)
        st = bindable(dev, a->y, a->n * es, "axpy", "y");
    if (st != BHOST_OK || a->n == 0)
        return st;
    n32 = (uint32_t)a->n;
    groups = (n32 + 255) / 256;
    if (groups > 65535)
        groups = 65535;
    memset(push, 0, sizeof(push));
    memcpy(push, &n32, 4);
    if (f) {
        memcpy(push + 8, &a->alpha, 8);
    } else {
        float al = (float)a->alpha;

        memcpy(push + 8, &al, 4);
    }
    {
        bhost_buf *b[3] = {(bhost_buf *)a->x, a->y, a->y};

        return dispatch(t, dev->pipes.p[f][BH_VK_P_AXPY], b, push,
                        sizeof(push), groups, 1);
    }
}

/* The per-stream scratch buffer for reduce partials. */
static bhost_buf *scratch(bhost_stream *t)
{
    bhost_buf *b = t->scratch;

    if (b != NULL)
        return b;
    b = calloc(1, sizeof(*b));
    if (b == NULL ||
        bh_vk_make_buffer(t->dev, 8 * BH_VK_REDUCE_GROUPS,
                          VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, 0, &b->buf,
                          &b->mem, &b->ptr) != BHOST_OK) {
        free(b);
        return NULL;
    }
    b->magic = BH_VK_BUF_MAGIC;
    b->dev = t->dev;
    b->size = 8 * BH_VK_REDUCE_GROUPS;
    t->scratch = b;
    return b;
}

/* result[0] = sum/min/max of x[0..n): G workgroups write partials, one
 * workgroup combines them. [instance] */
static bhost_status BHOST_ABI reduce_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_reduce_args *a)
{
    bhost_stream *t;
    bhost_buf *part;
    uint32_t push[2], groups;
    uint64_t es;
    int f;
    bhost_status st = check_call(dev, s, a, "reduce", &t);

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_reduce_args, a, result) || a->reserved != 0)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "reduce: struct too small or reserved != 0");
    es = elem(dev, a->type, &f);
    if (es == 0 || a->n > INT32_MAX)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "reduce: dtype %" PRId32 " or n=%" PRIu64
                          " unsupported", a->type, a->n);
    if (a->op < BHOST_REDUCE_SUM || a->op > BHOST_REDUCE_MAX)
        return bh_vk_fail(dev->h, BHOST_E_INVALID, "reduce: unknown op %" PRId32,
                          a->op);
    if (a->n == 0 && a->op != BHOST_REDUCE_SUM)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "reduce: min/max of zero elements");
    st = bindable(dev, a->x, a->n * es, "reduce", "x");
    if (st == BHOST_OK)
        st = bindable(dev, a->result, es, "reduce", "result");
    if (st != BHOST_OK)
        return st;
    groups = (uint32_t)((a->n + 255) / 256);
    if (groups > BH_VK_REDUCE_GROUPS)
        groups = BH_VK_REDUCE_GROUPS;
    push[0] = (uint32_t)a->n;
    push[1] = (uint32_t)a->op;
    if (groups <= 1) {
        bhost_buf *b[3] = {(bhost_buf *)a->x, a->result, a->result};

        return dispatch(t, dev->pipes.p[f][BH_VK_P_REDUCE], b, push,
                        sizeof(push), 1, 1);
    }
    part = scratch(t);
    if (part == NULL)
        return BHOST_E_NOMEM;
    {
        bhost_buf *b1[3] = {(bhost_buf *)a->x, part, part};
        bhost_buf *b2[3] = {part, a->result, a->result};

        st = dispatch(t, dev->pipes.p[f][BH_VK_P_REDUCE], b1, push,
                      sizeof(push), groups, 1);
        push[0] = groups;
        if (st == BHOST_OK)
            st = dispatch(t, dev->pipes.p[f][BH_VK_P_REDUCE], b2, push,
                          sizeof(push), 1, 1);
    }
    return st;
}

/* Checks one gemm operand: ld >= rows, span below 2^32 elements, inside
 * its buffer. */
static bhost_status check_matrix(const bhost_dev *dev, const bhost_buf *buf,
                                 uint64_t rows, uint64_t cols, uint64_t ld,
                                 uint64_t es, const char *what)
{
    uint64_t span;

    if (ld < (rows > 1 ? rows : 1) || ld > UINT32_MAX)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "gemm: ld%s=%" PRIu64 " invalid for %" PRIu64 " rows",
                          what, ld, rows);
    span = rows == 0 || cols == 0 ? 0 : ld * (cols - 1) + rows;
    if (span > UINT32_MAX)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: matrix %s spans 2^32 elements or more", what);
    return bindable(dev, buf, span * es, "gemm", what);
}

/* C = alpha op(A) op(B) + beta C, all F32 or all F64. [instance] */
static bhost_status BHOST_ABI gemm_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_gemm_args *g)
{
    bhost_stream *t;
    uint32_t push[12];
    uint64_t es, gx, gy;
    int f;
    bhost_status st = check_call(dev, s, g, "gemm", &t);

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_gemm_args, g, c) || g->reserved != 0)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "gemm: struct too small or reserved != 0");
    es = elem(dev, g->c_type, &f);
    if (es == 0 || g->a_type != g->c_type || g->b_type != g->c_type ||
        g->compute_type != g->c_type)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: dtypes a=%" PRId32 " b=%" PRId32 " c=%" PRId32
                          " compute=%" PRId32 " unsupported (all F32, or all "
                          "F64 with shaderFloat64)",
                          g->a_type, g->b_type, g->c_type, g->compute_type);
    if (g->trans_a > 1 || g->trans_b > 1)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "gemm: trans flags must be 0 or 1");
    if (g->m > UINT32_MAX || g->n > UINT32_MAX || g->k > UINT32_MAX)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: dimensions of 2^32 or more");
    st = bh_be_check_gemm_operands(&bh_vk_be, dev, g, es, es, check_matrix);
    if (st != BHOST_OK || g->m == 0 || g->n == 0)
        return st;
    gx = (g->m + 15) / 16;
    gy = (g->n + 15) / 16;
    if (gx > dev->phys->props.limits.maxComputeWorkGroupCount[0] ||
        gy > dev->phys->props.limits.maxComputeWorkGroupCount[1])
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: %" PRIu64 " x %" PRIu64
                          " workgroups exceed the device limit", gx, gy);
    push[0] = (uint32_t)g->m;
    push[1] = (uint32_t)g->n;
    push[2] = (uint32_t)g->k;
    push[3] = (uint32_t)g->lda;
    push[4] = (uint32_t)g->ldb;
    push[5] = (uint32_t)g->ldc;
    push[6] = g->trans_a;
    push[7] = g->trans_b;
    if (f) {
        memcpy(&push[8], &g->alpha, 8);
        memcpy(&push[10], &g->beta, 8);
    } else {
        float al = (float)g->alpha, be = (float)g->beta;

        memcpy(&push[8], &al, 4);
        memcpy(&push[9], &be, 4);
        push[10] = push[11] = 0;
    }
    {
        bhost_buf *b[3] = {(bhost_buf *)g->a, (bhost_buf *)g->b, g->c};

        return dispatch(t, dev->pipes.p[f][BH_VK_P_GEMM], b, push,
                        sizeof(push), (uint32_t)gx, (uint32_t)gy);
    }
}

/* build_stats.build: every pipeline again, without (COLD) or through
 * (CACHED) the device's VkPipelineCache; the result is dropped. */
static bhost_status BHOST_ABI build(bhost_dev *dev, uint32_t mode,
                                    bhost_build_stats *out)
{
    bh_vk_pipes p;
    bhost_build_stats st_local;
    bhost_status st = bh_be_check_stats(&bh_vk_be, dev, out, mode);

    if (st != BHOST_OK)
        return st;
    st = ensure_pipes(dev); /* so that CACHED finds a warm cache */
    if (st == BHOST_OK)
        st = build_all(dev, mode == BHOST_BUILD_CACHED ? dev->cache
                                                       : VK_NULL_HANDLE,
                       &p, &st_local);
    if (st != BHOST_OK)
        return st;
    drop_pipes(dev, &p);
    bh_be_copy_sized(out, &st_local, sizeof(st_local));
    return BHOST_OK;
}

/* build_stats.last: the device's own build. */
static bhost_status BHOST_ABI last(bhost_dev *dev, bhost_build_stats *out)
{
    bhost_status st = bh_be_check_stats(&bh_vk_be, dev, out, BHOST_BUILD_COLD);

    if (st == BHOST_OK)
        bh_be_copy_sized(out, &dev->stats, sizeof(dev->stats));
    return st;
}

/* device_index.index */
static uint32_t BHOST_ABI index_of(bhost_dev *dev)
{
    return bh_vk_check_dev(dev, "device_index") == BHOST_OK ? dev->index : 0;
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

static const bh_be_tables tables = {&gemm_table, &axpy_table, &reduce_table,
                                    &build_table, &index_table};

const void *bh_vk_kernel(bhost_dev *dev, const char *id)
{
    int kernel;
    const void *t = bh_be_find_table(&tables, id, &kernel);

    if (kernel && ensure_pipes(dev) != BHOST_OK) {
        bh_vk_log(dev->h, BHOST_LOG_ERROR, "kernels unavailable: pipelines "
                                           "failed to build");
        return NULL;
    }
    return t;
}
