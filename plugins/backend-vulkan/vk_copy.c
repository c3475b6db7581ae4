// SPDX-License-Identifier: MIT
/*
 * vk_copy.c -- copies ordered on a stream. Host memory that lies inside a
 * mapped HOST_VISIBLE or PINNED buffer of the device is copied from or to
 * directly by the device (the "pinned" path); plain host memory goes
 * through staging memory of the batch: h2d copies the source into staging
 * at once (the caller may reuse it on return), d2h copies staging into the
 * destination when the batch completes (at stream_sync).
 */
#include "vk_internal.h"

#include <string.h>

/* Records vkCmdCopyBuffer of one region. */
static bhost_status copy_cmd(bhost_stream *s, VkBuffer src, uint64_t src_off,
                             VkBuffer dst, uint64_t dst_off, uint64_t n)
{
    VkBufferCopy region;
    VkCommandBuffer cb = bh_vk_record(s);

    if (cb == VK_NULL_HANDLE)
        return BHOST_E_DEVICE;
    region.srcOffset = src_off;
    region.dstOffset = dst_off;
    region.size = n;
    bh_vk.vkCmdCopyBuffer(cb, src, dst, 1, &region);
    return BHOST_OK;
}

/* Common checks of a copy call; the stream to use in *out. */
static bhost_status check_copy(bhost_dev *dev, bhost_stream *s,
                               const char *op, bhost_stream **out)
{
    bhost_status st = bh_vk_check_dev(dev, op);

    if (st != BHOST_OK)
        return st;
    *out = bh_vk_stream_of(dev, s, op);
    return *out == NULL ? BHOST_E_INVALID : BHOST_OK;
}

/* Copies n bytes of host src into dst at dst_off. [instance] */
bhost_status BHOST_ABI bh_vk_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n)
{
    bhost_stream *t;
    const bhost_buf *host;
    VkBuffer sbuf;
    uint64_t soff;
    unsigned char *p;
    bhost_status st = check_copy(dev, s, "copy_h2d", &t);

    if (st == BHOST_OK)
        st = bh_vk_check_range(dev, dst, dst_off, n, "copy_h2d", "dst");
    if (st == BHOST_OK && src == NULL && n != 0)
        st = bh_vk_fail(dev->h, BHOST_E_INVALID, "copy_h2d: NULL src");
    if (st != BHOST_OK || n == 0)
        return st;
    host = bh_vk_find_mapped(dev, src, n);
    if (host != NULL)
        return copy_cmd(t, host->buf,
                        (uint64_t)((const unsigned char *)src - host->ptr),
                        dst->buf, dst_off, n);
    if (bh_vk_record(t) == VK_NULL_HANDLE)
        return BHOST_E_DEVICE;
    p = bh_vk_staging(t, n, &sbuf, &soff);
    if (p == NULL)
        return BHOST_E_NOMEM;
    memcpy(p, src, (size_t)n);
    {
        VkBufferCopy region = {soff, dst_off, n};

        bh_vk.vkCmdCopyBuffer(t->batch[t->cur].cb, sbuf, dst->buf, 1, &region);
    }
    return BHOST_OK;
}

/* Copies n bytes of src at src_off into host dst; complete after
 * stream_sync. [instance] */
bhost_status BHOST_ABI bh_vk_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n)
{
    bhost_stream *t;
    const bhost_buf *host;
    VkBuffer sbuf;
    uint64_t soff;
    unsigned char *p;
    bhost_status st = check_copy(dev, s, "copy_d2h", &t);

    if (st == BHOST_OK)
        st = bh_vk_check_range(dev, src, src_off, n, "copy_d2h", "src");
    if (st == BHOST_OK && dst == NULL && n != 0)
        st = bh_vk_fail(dev->h, BHOST_E_INVALID, "copy_d2h: NULL dst");
    if (st != BHOST_OK || n == 0)
        return st;
    host = bh_vk_find_mapped(dev, dst, n);
    if (host != NULL)
        return copy_cmd(t, src->buf, src_off, host->buf,
                        (uint64_t)((unsigned char *)dst - host->ptr), n);
    if (bh_vk_record(t) == VK_NULL_HANDLE)
        return BHOST_E_DEVICE;
    p = bh_vk_staging(t, n, &sbuf, &soff);
    if (p == NULL)
        return BHOST_E_NOMEM;
    {
        VkBufferCopy region = {src_off, soff, n};

        bh_vk.vkCmdCopyBuffer(t->batch[t->cur].cb, src->buf, sbuf, 1, &region);
    }
    return bh_vk_readback(t, dst, p, n);
}

/* Copies n bytes between buffers of dev. Overlapping ranges of one buffer
 * go through staging (Vulkan forbids overlapping copy regions).
 * [instance] */
bhost_status BHOST_ABI bh_vk_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n)
{
    bhost_stream *t;
    VkBuffer sbuf;
    uint64_t soff;
    bhost_status st = check_copy(dev, s, "copy_d2d", &t);

    if (st == BHOST_OK)
        st = bh_vk_check_range(dev, dst, dst_off, n, "copy_d2d", "dst");
    if (st == BHOST_OK)
        st = bh_vk_check_range(dev, src, src_off, n, "copy_d2d", "src");
    if (st != BHOST_OK || n == 0)
        return st;
    if (dst != src || dst_off >= src_off + n || src_off >= dst_off + n)
        return copy_cmd(t, src->buf, src_off, dst->buf, dst_off, n);
    if (bh_vk_record(t) == VK_NULL_HANDLE)
        return BHOST_E_DEVICE;
    if (bh_vk_staging(t, n, &sbuf, &soff) == NULL)
        return BHOST_E_NOMEM;
    {
        VkBufferCopy in = {src_off, soff, n}, out = {soff, dst_off, n};

        bh_vk.vkCmdCopyBuffer(t->batch[t->cur].cb, src->buf, sbuf, 1, &in);
        /* same batch: the staging memory belongs to it */
        bh_vk.vkCmdCopyBuffer(bh_vk_record_same(t), sbuf, dst->buf, 1, &out);
    }
    return BHOST_OK;
}
