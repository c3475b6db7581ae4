// SPDX-License-Identifier: MIT
/*
 * vk_stream.c -- streams as rings of command batches. Commands are
 * recorded into the current batch with a full memory barrier between
 * consecutive commands (in-order stream semantics). A batch is submitted
 * when it is full or on sync; staging memory and deferred host copies
 * live with the batch until its fence signals.
 */
#include "vk_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Creates the command pool, command buffer, fence and descriptor pool of
 * b. */
static bhost_status batch_init(bhost_dev *dev, bh_vk_batch *b)
{
    VkCommandPoolCreateInfo pi;
    VkCommandBufferAllocateInfo ai;
    VkFenceCreateInfo fi;
    VkDescriptorPoolSize ps;
    VkDescriptorPoolCreateInfo di;
    VkResult r;

    memset(&pi, 0, sizeof(pi));
    pi.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pi.queueFamilyIndex = dev->phys->queue_family;
    r = bh_vk.vkCreateCommandPool(dev->dev, &pi, NULL, &b->pool);
    if (r == VK_SUCCESS) {
        memset(&ai, 0, sizeof(ai));
        ai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        ai.commandPool = b->pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        r = bh_vk.vkAllocateCommandBuffers(dev->dev, &ai, &b->cb);
    }
    if (r == VK_SUCCESS) {
        memset(&fi, 0, sizeof(fi));
        fi.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
        r = bh_vk.vkCreateFence(dev->dev, &fi, NULL, &b->fence);
    }
    if (r == VK_SUCCESS) {
        ps.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        ps.descriptorCount = BH_VK_BINDINGS * BH_VK_BATCH_SETS;
        memset(&di, 0, sizeof(di));
        di.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
        di.maxSets = BH_VK_BATCH_SETS;
        di.poolSizeCount = 1;
        di.pPoolSizes = &ps;
        r = bh_vk.vkCreateDescriptorPool(dev->dev, &di, NULL, &b->dpool);
    }
    if (r != VK_SUCCESS)
        return bh_vk_fail(dev->h, bh_vk_status(r), "stream batch: %s",
                          bh_vk_result_name(r));
    return BHOST_OK;
}

/* Frees what batch_init and the staging allocations made. */
static void batch_release(bhost_dev *dev, bh_vk_batch *b)
{
    for (uint32_t i = 0; i < b->n_stg; i++)
        bh_vk_drop_buffer(dev, b->stg[i].buf, b->stg[i].mem);
    free(b->stg);
    free(b->rb);
    if (b->dpool != VK_NULL_HANDLE)
        bh_vk.vkDestroyDescriptorPool(dev->dev, b->dpool, NULL);
    if (b->fence != VK_NULL_HANDLE)
        bh_vk.vkDestroyFence(dev->dev, b->fence, NULL);
    if (b->pool != VK_NULL_HANDLE)
        bh_vk.vkDestroyCommandPool(dev->dev, b->pool, NULL);
    memset(b, 0, sizeof(*b));
}

/* Waits for a submitted batch, does its host copies and makes it idle. */
static bhost_status batch_wait(bhost_stream *s, bh_vk_batch *b)
{
    VkResult r;

    if (b->state != 2)
        return BHOST_OK;
    r = bh_vk.vkWaitForFences(s->dev->dev, 1, &b->fence, VK_TRUE, UINT64_MAX);
    b->state = 0;
    bh_vk.vkResetFences(s->dev->dev, 1, &b->fence);
    if (r != VK_SUCCESS) {
        b->n_rb = 0;
        return bh_vk_fail(s->dev->h, bh_vk_status(r), "vkWaitForFences: %s",
                          bh_vk_result_name(r));
    }
    for (uint32_t i = 0; i < b->n_rb; i++)
        memcpy(b->rb[i].dst, b->rb[i].src, (size_t)b->rb[i].n);
    b->n_rb = 0;
    for (uint32_t i = 0; i < b->n_stg; i++)
        b->stg[i].used = 0;
    b->stg_bytes = 0;
    return BHOST_OK;
}

/* Records a full memory barrier between compute/transfer work (to_host:
 * also makes writes visible to host reads after the fence). */
static void barrier(VkCommandBuffer cb, int to_host)
{
    VkMemoryBarrier mb;
    VkPipelineStageFlags st =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;

    memset(&mb, 0, sizeof(mb));
    mb.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = to_host ? VK_ACCESS_HOST_READ_BIT
                               : VK_ACCESS_SHADER_READ_BIT |
                                     VK_ACCESS_SHADER_WRITE_BIT |
                                     VK_ACCESS_TRANSFER_READ_BIT |
                                     VK_ACCESS_TRANSFER_WRITE_BIT;
    bh_vk.vkCmdPipelineBarrier(cb, st,
                               to_host ? VK_PIPELINE_STAGE_HOST_BIT : st, 0,
                               1, &mb, 0, NULL, 0, NULL);
}

bhost_status bh_vk_flush(bhost_stream *s)
{
    bh_vk_batch *b = &s->batch[s->cur];
    VkSubmitInfo si;
    VkResult r;

    if (b->state != 1)
        return BHOST_OK;
    barrier(b->cb, 1);
    r = bh_vk.vkEndCommandBuffer(b->cb);
    if (r == VK_SUCCESS) {
        memset(&si, 0, sizeof(si));
        si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        si.commandBufferCount = 1;
        si.pCommandBuffers = &b->cb;
        r = bh_vk.vkQueueSubmit(s->dev->queue, 1, &si, b->fence);
    }
    s->cur = (s->cur + 1) % BH_VK_BATCHES;
    if (r != VK_SUCCESS) {
        b->state = 0;
        b->n_rb = 0;
        return bh_vk_fail(s->dev->h, bh_vk_status(r), "vkQueueSubmit: %s",
                          bh_vk_result_name(r));
    }
    b->state = 2;
    return BHOST_OK;
}

bhost_status bh_vk_sync(bhost_stream *s)
{
    bhost_status st = bh_vk_flush(s);

    /* after the flush, s->cur is the oldest batch of the ring */
    for (uint32_t i = 0; i < BH_VK_BATCHES; i++) {
        bhost_status w = batch_wait(s, &s->batch[(s->cur + i) % BH_VK_BATCHES]);

        if (st == BHOST_OK)
            st = w;
    }
    return st;
}

VkCommandBuffer bh_vk_record(bhost_stream *s)
{
    bh_vk_batch *b = &s->batch[s->cur];
    VkCommandBufferBeginInfo bi;
    VkResult r;

    if (b->state == 1 &&
        (b->commands >= BH_VK_BATCH_CMDS || b->sets >= BH_VK_BATCH_SETS ||
         b->stg_bytes >= BH_VK_BATCH_STAGING)) {
        if (bh_vk_flush(s) != BHOST_OK)
            return VK_NULL_HANDLE;
        b = &s->batch[s->cur];
    }
    if (b->state == 2 && batch_wait(s, b) != BHOST_OK)
        return VK_NULL_HANDLE;
    if (b->state == 0) {
        bh_vk.vkResetCommandPool(s->dev->dev, b->pool, 0);
        bh_vk.vkResetDescriptorPool(s->dev->dev, b->dpool, 0);
        memset(&bi, 0, sizeof(bi));
        bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        r = bh_vk.vkBeginCommandBuffer(b->cb, &bi);
        if (r != VK_SUCCESS) {
            bh_vk_fail(s->dev->h, bh_vk_status(r), "vkBeginCommandBuffer: %s",
                       bh_vk_result_name(r));
            return VK_NULL_HANDLE;
        }
        b->state = 1;
        b->commands = 0;
        b->sets = 0;
    } else {
        barrier(b->cb, 0);
    }
    b->commands++;
    return b->cb;
}

VkCommandBuffer bh_vk_record_same(bhost_stream *s)
{
    bh_vk_batch *b = &s->batch[s->cur];

    barrier(b->cb, 0);
    b->commands++;
    return b->cb;
}

unsigned char *bh_vk_staging(bhost_stream *s, uint64_t n, VkBuffer *buf,
                             uint64_t *off)
{
    bh_vk_batch *b = &s->batch[s->cur];
    bh_vk_stage *g = NULL;
    uint64_t need = (n + 15) & ~UINT64_C(15);

    for (uint32_t i = 0; i < b->n_stg && g == NULL; i++)
        if (b->stg[i].size - b->stg[i].used >= need)
            g = &b->stg[i];
    if (g == NULL) {
        bh_vk_stage *grown;
        uint64_t size = need > BH_VK_STAGING_MIN ? need : BH_VK_STAGING_MIN;

        if (b->n_stg == b->cap_stg) {
            uint32_t cap = b->cap_stg ? 2 * b->cap_stg : 4;

            grown = realloc(b->stg, cap * sizeof(*grown));
            if (grown == NULL) {
                bh_vk_fail(s->dev->h, BHOST_E_NOMEM, "staging: out of memory");
                return NULL;
            }
            b->stg = grown;
            b->cap_stg = cap;
        }
        g = &b->stg[b->n_stg];
        memset(g, 0, sizeof(*g));
        if (bh_vk_make_buffer(s->dev, size,
                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                              VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 0, &g->buf,
                              &g->mem, &g->ptr) != BHOST_OK)
            return NULL;
        if (g->ptr == NULL) {
            bh_vk_drop_buffer(s->dev, g->buf, g->mem);
            bh_vk_fail(s->dev->h, BHOST_E_DEVICE, "staging memory not mapped");
            return NULL;
        }
        g->size = size;
        b->n_stg++;
    }
    *buf = g->buf;
    *off = g->used;
    g->used += need;
    b->stg_bytes += need;
    return g->ptr + *off;
}

bhost_status bh_vk_readback(bhost_stream *s, void *dst, const void *src,
                            uint64_t n)
{
    bh_vk_batch *b = &s->batch[s->cur];

    if (b->n_rb == b->cap_rb) {
        uint32_t cap = b->cap_rb ? 2 * b->cap_rb : 16;
        bh_vk_copyback *grown = realloc(b->rb, cap * sizeof(*grown));

        if (grown == NULL)
            return bh_vk_fail(s->dev->h, BHOST_E_NOMEM,
                              "copy_d2h: out of memory");
        b->rb = grown;
        b->cap_rb = cap;
    }
    b->rb[b->n_rb].dst = dst;
    b->rb[b->n_rb].src = src;
    b->rb[b->n_rb].n = n;
    b->n_rb++;
    return BHOST_OK;
}

VkDescriptorSet bh_vk_descriptors(bhost_stream *s, const bh_vk_bind *buf,
                                  uint32_t n)
{
    bh_vk_batch *b = &s->batch[s->cur];
    VkDescriptorSetAllocateInfo ai;
    VkDescriptorBufferInfo info[BH_VK_BINDINGS];
    VkWriteDescriptorSet w[BH_VK_BINDINGS];
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkResult r;

    memset(&ai, 0, sizeof(ai));
    ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    ai.descriptorPool = b->dpool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &s->dev->dsl;
    r = bh_vk.vkAllocateDescriptorSets(s->dev->dev, &ai, &set);
    if (r != VK_SUCCESS) {
        bh_vk_fail(s->dev->h, bh_vk_status(r), "vkAllocateDescriptorSets: %s",
                   bh_vk_result_name(r));
        return VK_NULL_HANDLE;
    }
    b->sets++;
    memset(w, 0, sizeof(w));
    for (uint32_t i = 0; i < n && i < BH_VK_BINDINGS; i++) {
        info[i].buffer = buf[i].buf->buf;
        info[i].offset = buf[i].off;
        info[i].range = buf[i].range;
        w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[i].dstSet = set;
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
        w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[i].pBufferInfo = &info[i];
    }
    bh_vk.vkUpdateDescriptorSets(s->dev->dev,
                                 n < BH_VK_BINDINGS ? n : BH_VK_BINDINGS, w, 0,
                                 NULL);
    return set;
}

bhost_status bh_vk_stream_new(bhost_dev *dev, bhost_stream **out)
{
    bhost_stream *s;
    uint32_t slot = 0;
    bhost_status st = BHOST_OK;

    while (slot < BH_VK_MAX_STREAMS && dev->streams[slot] != NULL)
        slot++;
    if (slot == BH_VK_MAX_STREAMS)
        return bh_vk_fail(dev->h, BHOST_E_NOMEM,
                          "stream_create: more than %u live streams",
                          BH_VK_MAX_STREAMS);
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return bh_vk_fail(dev->h, BHOST_E_NOMEM, "stream_create: out of memory");
    s->magic = BH_VK_STREAM_MAGIC;
    s->dev = dev;
    for (uint32_t i = 0; i < BH_VK_BATCHES && st == BHOST_OK; i++)
        st = batch_init(dev, &s->batch[i]);
    if (st != BHOST_OK) {
        for (uint32_t i = 0; i < BH_VK_BATCHES; i++)
            batch_release(dev, &s->batch[i]);
        free(s);
        return st;
    }
    dev->streams[slot] = s;
    *out = s;
    return BHOST_OK;
}

void bh_vk_stream_free(bhost_dev *dev, bhost_stream *s)
{
    bh_vk_sync(s);
    for (uint32_t i = 0; i < BH_VK_MAX_STREAMS; i++)
        if (dev->streams[i] == s)
            dev->streams[i] = NULL;
    if (s->scratch != NULL) {
        bh_vk_drop_buffer(dev, s->scratch->buf, s->scratch->mem);
        free(s->scratch);
    }
    for (uint32_t i = 0; i < BH_VK_BATCHES; i++)
        batch_release(dev, &s->batch[i]);
    s->magic = 0;
    free(s);
}

/* A new stream of dev; freed by stream_destroy(). [instance] */
bhost_status BHOST_ABI bh_vk_stream_create(bhost_dev *dev, bhost_stream **out)
{
    bhost_status st = bh_vk_check_dev(dev, "stream_create");

    if (st != BHOST_OK)
        return st;
    if (out == NULL)
        return bh_vk_fail(dev->h, BHOST_E_INVALID, "stream_create: NULL out");
    return bh_vk_stream_new(dev, out);
}

/* Waits for s and frees it; NULL, the default and foreign streams are
 * ignored. [instance] */
void BHOST_ABI bh_vk_stream_destroy(bhost_dev *dev, bhost_stream *s)
{
    if (bh_vk_check_dev(dev, "stream_destroy") != BHOST_OK || s == NULL ||
        s->magic != BH_VK_STREAM_MAGIC || s->dev != dev || s == dev->def)
        return;
    bh_vk_stream_free(dev, s);
}

/* Submits what s holds and waits for all of it, host copies included.
 * [instance] */
bhost_status BHOST_ABI bh_vk_stream_sync(bhost_dev *dev, bhost_stream *s)
{
    bhost_stream *t;
    bhost_status st = bh_vk_check_dev(dev, "stream_sync");

    if (st != BHOST_OK)
        return st;
    t = bh_vk_stream_of(dev, s, "stream_sync");
    return t == NULL ? BHOST_E_INVALID : bh_vk_sync(t);
}

/* stream_sync of every stream of dev. [instance] */
bhost_status BHOST_ABI bh_vk_device_sync(bhost_dev *dev)
{
    bhost_status st = bh_vk_check_dev(dev, "device_sync");

    for (uint32_t i = 0; st == BHOST_OK && i < BH_VK_MAX_STREAMS; i++)
        if (dev->streams[i] != NULL)
            st = bh_vk_sync(dev->streams[i]);
    return st;
}
