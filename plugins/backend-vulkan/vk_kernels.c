// SPDX-License-Identifier: MIT
/*
 * vk_kernels.c -- the compute pipelines (SPIR-V from the shaders/ folder,
 * compiled by glslc at build time, f32 and f64 variants) and the kernel
 * tables gemm, axpy, reduce (gemm's run() in vk_gemm.c; the scientific
 * extension's in vk_sci.c); the build_stats
 * and device_index extensions; the bindings of buffer ranges the kernels
 * share. axpy and reduce run over pieces of at most bind_max bytes that
 * start aligned. Pipelines are built on the first get_kernel() of a
 * device, through the device's VkPipelineCache.
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
static const uint32_t spv_gemv_f32[] = {
#include "gemv_f32.inc"
};
static const uint32_t spv_gemv_f64[] = {
#include "gemv_f64.inc"
};
static const uint32_t spv_gemv_sg_f32[] = {
#include "gemv_sg_f32.inc"
};
static const uint32_t spv_gemv_sg_f64[] = {
#include "gemv_sg_f64.inc"
};

static const struct {
    const uint32_t *code;
    size_t bytes;
} spv[2][BH_VK_KERNELS] = {
    {{spv_axpy_f32, sizeof(spv_axpy_f32)},
     {spv_reduce_f32, sizeof(spv_reduce_f32)},
     {spv_gemm_f32, sizeof(spv_gemm_f32)},
     {spv_gemv_f32, sizeof(spv_gemv_f32)}},
    {{spv_axpy_f64, sizeof(spv_axpy_f64)},
     {spv_reduce_f64, sizeof(spv_reduce_f64)},
     {spv_gemm_f64, sizeof(spv_gemm_f64)},
     {spv_gemv_f64, sizeof(spv_gemv_f64)}},
};

/* gemv's subgroup variant, in place of spv[f][BH_VK_P_GEMV] where
 * dev->gemv_subgroups. */
static const struct {
    const uint32_t *code;
    size_t bytes;
} spv_gemv_sg[2] = {
    {spv_gemv_sg_f32, sizeof(spv_gemv_sg_f32)},
    {spv_gemv_sg_f64, sizeof(spv_gemv_sg_f64)},
};

#define PUSH_BYTES 64u

bhost_status bh_vk_layouts(bhost_dev *dev)
{
    VkDescriptorSetLayoutBinding b[BH_VK_BINDINGS];
    VkDescriptorSetLayoutCreateInfo di;
    VkPushConstantRange pr;
    VkPipelineLayoutCreateInfo li;
    VkPipelineCacheCreateInfo ci;
    VkResult r;

    memset(b, 0, sizeof(b));
    for (uint32_t i = 0; i < BH_VK_BINDINGS; i++) {
        b[i].binding = i;
        b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        b[i].descriptorCount = 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    memset(&di, 0, sizeof(di));
    di.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    di.bindingCount = BH_VK_BINDINGS;
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
    bh_vk_sci_release(dev);
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

/* Builds one pipeline from its SPIR-V; gemv from its subgroup variant
 * where dev->gemv_subgroups. */
static VkResult build_one(bhost_dev *dev, VkPipelineCache cache, int f, int k,
                          VkPipeline *out)
{
    if (k == BH_VK_P_GEMV && dev->gemv_subgroups)
        return bh_vk_pipeline(dev, cache, spv_gemv_sg[f].code,
                              spv_gemv_sg[f].bytes, out);
    return bh_vk_pipeline(dev, cache, spv[f][k].code, spv[f][k].bytes, out);
}

VkResult bh_vk_pipeline(bhost_dev *dev, VkPipelineCache cache,
                        const uint32_t *code, size_t bytes, VkPipeline *out)
{
    VkShaderModuleCreateInfo mi;
    VkComputePipelineCreateInfo pi;
    VkShaderModule mod = VK_NULL_HANDLE;
    VkResult r;

    memset(&mi, 0, sizeof(mi));
    mi.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    mi.codeSize = bytes;
    mi.pCode = code;
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

uint64_t bh_vk_elem(const bhost_dev *dev, bhost_dtype t, int *f)
{
    *f = t == BHOST_DTYPE_F64;
    if (t == BHOST_DTYPE_F32)
        return 4;
    if (t == BHOST_DTYPE_F64 && dev->phys->has_f64)
        return 8;
    return 0;
}

bhost_status bh_vk_dispatch(bhost_stream *t, VkPipeline p,
                            const bh_vk_bind b[3], const void *push,
                            uint32_t push_bytes, uint32_t gx, uint32_t gy)
{
    return bh_vk_dispatch_n(t, p, b, 3, push, push_bytes, gx, gy);
}

bhost_status bh_vk_dispatch_n(bhost_stream *t, VkPipeline p,
                              const bh_vk_bind *b, uint32_t nb,
                              const void *push, uint32_t push_bytes,
                              uint32_t gx, uint32_t gy)
{
    VkCommandBuffer cb = bh_vk_record(t);
    VkDescriptorSet set;

    if (cb == VK_NULL_HANDLE)
        return BHOST_E_DEVICE;
    set = bh_vk_descriptors(t, b, nb);
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

bhost_status bh_vk_kernel_call(bhost_dev *dev, bhost_stream *s,
                               const void *args, const char *op,
                               bhost_stream **t)
{
    bhost_status st = bh_vk_check_dev(dev, op);

    if (st == BHOST_OK)
        st = bh_be_call(&bh_vk_be, dev, dev->def, s, args, op, t);
    return st == BHOST_OK ? ensure_pipes(dev) : st;
}

bhost_status bh_vk_bind_elems(const bhost_dev *dev, const bhost_buf *buf,
                              uint64_t start, uint64_t count, uint64_t es,
                              const char *op, const char *what, bh_vk_bind *b,
                              uint32_t *skip)
{
    uint64_t first = start * es, off, end;

    b->buf = buf;
    *skip = 0;
    if (count == 0) { /* not read: any valid range */
        b->off = 0;
        b->range = buf->size < dev->bind_max ? buf->size : dev->bind_max;
        return BHOST_OK;
    }
    off = first - first % dev->bind_align;
    end = first + count * es;
    if ((first - off) % es != 0 || end - off > dev->bind_max)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "%s: %s: %" PRIu64 " bytes at offset %" PRIu64
                          " cannot be bound (binding limit %" PRIu64
                          " bytes, offset alignment %" PRIu64 ")",
                          op, what, count * es, first, dev->bind_max,
                          dev->bind_align);
    b->off = off;
    b->range = end - off;
    *skip = (uint32_t)((first - off) / es);
    return BHOST_OK;
}

/* Elements per piece of a vector kernel over a large buffer: the most
 * whose bytes fit bind_max and keep every piece start aligned. */
static uint64_t vector_piece(const bhost_dev *dev, uint64_t es)
{
    uint64_t unit = dev->bind_align > es ? dev->bind_align : es;

    return (dev->bind_max - dev->bind_max % unit) / es;
}

/* Binds elements [start, start + count) of buf for a vector kernel: whole
 * pieces start aligned, so the shader needs no element offset. */
static bhost_status bind_vector(const bhost_dev *dev, const bhost_buf *buf,
                                uint64_t start, uint64_t count, uint64_t es,
                                const char *op, const char *what,
                                bh_vk_bind *b)
{
    uint32_t skip;
    bhost_status st = bh_vk_bind_elems(dev, buf, start, count, es, op, what,
                                       b, &skip);

    if (st == BHOST_OK && skip != 0)
        st = bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                        "%s: %s piece at element %" PRIu64
                        " is not aligned to %" PRIu64 " bytes",
                        op, what, start, dev->bind_align);
    return st;
}

/* y = alpha x + y (F32; F64 with shaderFloat64), in pieces of at most
 * bind_max bytes. [instance] */
static bhost_status BHOST_ABI axpy_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_axpy_args *a)
{
    bhost_stream *t;
    unsigned char push[16];
    uint64_t es, step;
    int f;
    bhost_status st = bh_vk_kernel_call(dev, s, a, "axpy", &t);

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_axpy_args, a, y))
        return bh_vk_fail(dev->h, BHOST_E_INVALID, "axpy: struct too small");
    es = bh_vk_elem(dev, a->type, &f);
    if (es == 0 || a->n > INT32_MAX)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "axpy: dtype %" PRId32 " or n=%" PRIu64
                          " unsupported (F32, F64 with shaderFloat64; n < 2^31)",
                          a->type, a->n);
    st = bh_vk_check_range(dev, a->x, 0, a->n * es, "axpy", "x");
    if (st == BHOST_OK)
        st = bh_vk_check_range(dev, a->y, 0, a->n * es, "axpy", "y");
    memset(push, 0, sizeof(push));
    if (f) {
        memcpy(push + 8, &a->alpha, 8);
    } else {
        float al = (float)a->alpha;

        memcpy(push + 8, &al, 4);
    }
    step = vector_piece(dev, es);
    for (uint64_t i0 = 0; i0 < a->n && st == BHOST_OK; i0 += step) {
        uint32_t n32 = (uint32_t)(a->n - i0 < step ? a->n - i0 : step);
        uint32_t groups = (n32 + 255) / 256;
        bh_vk_bind b[3];

        st = bind_vector(dev, a->x, i0, n32, es, "axpy", "x", &b[0]);
        if (st == BHOST_OK)
            st = bind_vector(dev, a->y, i0, n32, es, "axpy", "y", &b[1]);
        if (st != BHOST_OK)
            break;
        b[2] = b[1];
        memcpy(push, &n32, 4);
        st = bh_vk_dispatch(t, dev->pipes.p[f][BH_VK_P_AXPY], b, push,
                            sizeof(push), groups > 65535 ? 65535 : groups, 1);
    }
    return st;
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

/* Pass 1 of a reduce over pieces of x of at most step elements: piece q
 * writes its partials to part from element r0 on, each piece taking an
 * equal share of the at most max_groups partials. *total is how many
 * partials were written. push[0..2] = n, op, r0. */
static bhost_status reduce_pieces(bhost_stream *t, const bhost_reduce_args *a,
                                  uint64_t es, int f, uint64_t step,
                                  uint64_t max_groups, bhost_buf *part,
                                  uint32_t push[3], uint32_t *total)
{
    const bhost_dev *dev = t->dev;
    uint64_t pieces = (a->n + step - 1) / step, share;
    bhost_status st = BHOST_OK;

    if (pieces > max_groups)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "reduce: n=%" PRIu64 " needs %" PRIu64
                          " pieces of %" PRIu64 " bytes; at most %" PRIu64,
                          a->n, pieces, step * es, max_groups);
    share = max_groups / pieces;
    push[2] = 0;
    for (uint64_t i0 = 0; i0 < a->n && st == BHOST_OK; i0 += step) {
        uint64_t np = a->n - i0 < step ? a->n - i0 : step;
        uint64_t groups = (np + 255) / 256;
        bh_vk_bind b[3];

        if (groups > share)
            groups = share;
        st = bind_vector(dev, a->x, i0, np, es, "reduce", "x", &b[0]);
        if (st == BHOST_OK)
            st = bind_vector(dev, part, 0, max_groups, es, "reduce",
                             "partials", &b[1]);
        if (st != BHOST_OK)
            break;
        b[2] = b[1];
        push[0] = (uint32_t)np;
        st = bh_vk_dispatch(t, dev->pipes.p[f][BH_VK_P_REDUCE], b, push,
                            3 * sizeof(uint32_t), (uint32_t)groups, 1);
        push[2] += (uint32_t)groups;
    }
    *total = push[2];
    return st;
}

/* result[0] = sum/min/max of x[0..n): workgroups over (pieces of) x write
 * partials, one workgroup combines them. [instance] */
static bhost_status BHOST_ABI reduce_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_reduce_args *a)
{
    bhost_stream *t;
    bhost_buf *part;
    bh_vk_bind b[3];
    uint32_t push[3], total = 0;
    uint64_t es, max_groups;
    int f;
    bhost_status st = bh_vk_kernel_call(dev, s, a, "reduce", &t);

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_reduce_args, a, result) || a->reserved != 0)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "reduce: struct too small or reserved != 0");
    es = bh_vk_elem(dev, a->type, &f);
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
    st = bh_vk_check_range(dev, a->x, 0, a->n * es, "reduce", "x");
    if (st == BHOST_OK)
        st = bh_vk_check_range(dev, a->result, 0, es, "reduce", "result");
    if (st == BHOST_OK)
        st = bind_vector(dev, a->result, 0, 1, es, "reduce", "result", &b[1]);
    if (st != BHOST_OK)
        return st;
    b[2] = b[1];
    push[1] = (uint32_t)a->op;
    push[2] = 0;
    if (a->n <= 256) { /* one workgroup straight into the result */
        st = bind_vector(dev, a->x, 0, a->n, es, "reduce", "x", &b[0]);
        push[0] = (uint32_t)a->n;
        return st != BHOST_OK ? st
                              : bh_vk_dispatch(t, dev->pipes.p[f][BH_VK_P_REDUCE],
                                               b, push, sizeof(push), 1, 1);
    }
    part = scratch(t);
    if (part == NULL)
        return BHOST_E_NOMEM;
    max_groups = dev->bind_max / es;
    if (max_groups > BH_VK_REDUCE_GROUPS)
        max_groups = BH_VK_REDUCE_GROUPS;
    st = reduce_pieces(t, a, es, f, vector_piece(dev, es), max_groups, part,
                       push, &total);
    if (st == BHOST_OK)
        st = bind_vector(dev, part, 0, total, es, "reduce", "partials", &b[0]);
    if (st != BHOST_OK)
        return st;
    push[0] = total;
    push[2] = 0;
    return bh_vk_dispatch(t, dev->pipes.p[f][BH_VK_P_REDUCE], b, push,
                          sizeof(push), 1, 1);
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
                                             bh_vk_gemm_run};
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

    if (t == NULL && (t = bh_be_find_sci(&bh_vk_sci_tables, id)) != NULL)
        kernel = 1;

    if (kernel && ensure_pipes(dev) != BHOST_OK) {
        bh_vk_log(dev->h, BHOST_LOG_ERROR, "kernels unavailable: pipelines "
                                           "failed to build");
        return NULL;
    }
    return t;
}
