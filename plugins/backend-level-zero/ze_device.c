// SPDX-License-Identifier: MIT
/*
 * ze_device.c -- open/close, memory and copies of the Level Zero backend.
 * DEVICE buffers are zeMemAllocDevice, PINNED and HOST_VISIBLE are
 * zeMemAllocHost (USM host memory: map() returns it). Copies are
 * zeCommandListAppendMemoryCopy on the stream's immediate command list
 * (host memory that is not USM is accepted by the drivers as a copy
 * source or destination), each followed by a barrier: commands of a
 * Level Zero command list are not ordered otherwise.
 */
#include "ze_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Frees what open() made; safe on a partly opened device. */
static void release(bhost_dev *dev)
{
    for (uint32_t i = 0; i < 64; i++)
        if (dev->streams[i] != NULL)
            bh_ze_stream_free(dev->streams[i]);
    bh_ze_kernels_release(dev);
    if (dev->ctx != NULL)
        bh_ze.zeContextDestroy(dev->ctx);
    dev->magic = 0;
    free(dev);
}

/* Opens device index: a context and the default stream. [main] */
bhost_status BHOST_ABI bh_ze_open(uint32_t index, bhost_host *h,
                                  bhost_dev **out)
{
    ze_context_desc_t cd;
    bhost_dev *dev;
    ze_result_t r;
    bhost_status st;

    if (out == NULL)
        return bh_ze_fail(h, BHOST_E_INVALID, "open: NULL out");
    if (bh_ze_load() != BHOST_OK)
        return bh_ze_fail(h, BHOST_E_DEVICE, "open: %s", bh_ze_load_error());
    if (index >= bh_ze_count())
        return bh_ze_fail(h, BHOST_E_INVALID,
                          "open: no device %" PRIu32 " (there are %" PRIu32
                          ")", index, bh_ze_count());
    dev = calloc(1, sizeof(*dev));
    if (dev == NULL)
        return bh_ze_fail(h, BHOST_E_NOMEM, "open: out of memory");
    dev->magic = BH_ZE_DEV_MAGIC;
    dev->index = index;
    dev->h = h;
    dev->phys = bh_ze_phys_get(index);
    memset(&cd, 0, sizeof(cd));
    cd.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
    r = bh_ze.zeContextCreate(dev->phys->driver, &cd, &dev->ctx);
    st = r == ZE_RESULT_SUCCESS ? BHOST_OK : bh_ze_err(h, r, "zeContextCreate");
    if (st == BHOST_OK)
        st = bh_ze_stream_new(dev, &dev->def);
    if (st != BHOST_OK) {
        release(dev);
        return st;
    }
    *out = dev;
    return BHOST_OK;
}

/* Syncs and frees everything open() made. [main] */
void BHOST_ABI bh_ze_close(bhost_dev *dev)
{
    if (dev == NULL || dev->magic != BH_ZE_DEV_MAGIC)
        return;
    if (dev->live_bufs != 0)
        bh_ze_log(dev->h, BHOST_LOG_WARN,
                  "close: %" PRIu64 " buffer(s) never freed", dev->live_bufs);
    release(dev);
}

/* bytes (> 0) of USM device or host memory. [instance] */
bhost_status BHOST_ABI bh_ze_alloc(bhost_dev *dev, uint64_t bytes,
                                   uint32_t flags, bhost_buf **out)
{
    bhost_buf *b;
    ze_result_t r;
    bhost_status st = bh_ze_check_dev(dev, "alloc");

    if (st != BHOST_OK)
        return st;
    if (out == NULL || bytes == 0 || bytes > SIZE_MAX)
        return bh_ze_fail(dev->h, BHOST_E_INVALID, "alloc: bad arguments");
    if (flags > (BHOST_MEM_HOST_PINNED | BHOST_MEM_HOST_VISIBLE))
        return bh_ze_fail(dev->h, BHOST_E_INVALID,
                          "alloc: unknown flags 0x%" PRIx32, flags);
    b = calloc(1, sizeof(*b));
    if (b == NULL)
        return bh_ze_fail(dev->h, BHOST_E_NOMEM, "alloc: out of memory");
    if (flags == BHOST_MEM_DEVICE) {
        ze_device_mem_alloc_desc_t d;

        memset(&d, 0, sizeof(d));
        d.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
        r = bh_ze.zeMemAllocDevice(dev->ctx, &d, (size_t)bytes, 64,
                                   dev->phys->dev, &b->ptr);
    } else {
        ze_host_mem_alloc_desc_t d;

        memset(&d, 0, sizeof(d));
        d.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
        r = bh_ze.zeMemAllocHost(dev->ctx, &d, (size_t)bytes, 64, &b->ptr);
    }
    if (r != ZE_RESULT_SUCCESS) {
        free(b);
        return bh_ze_err(dev->h, r, flags ? "zeMemAllocHost" : "zeMemAllocDevice");
    }
    b->magic = BH_ZE_BUF_MAGIC;
    b->flags = flags;
    b->dev = dev;
    b->size = bytes;
    dev->live_bufs++;
    *out = b;
    return BHOST_OK;
}

/* Syncs every stream, then frees buf. [instance] */
void BHOST_ABI bh_ze_free(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_ze_check_dev(dev, "free") != BHOST_OK || buf == NULL ||
        buf->magic != BH_ZE_BUF_MAGIC || buf->dev != dev)
        return;
    bh_ze_device_sync(dev);
    bh_ze.zeMemFree(dev->ctx, buf->ptr);
    buf->magic = 0;
    free(buf);
    dev->live_bufs--;
}

/* The USM host pointer of a PINNED/HOST_VISIBLE buffer, else NULL. */
void *BHOST_ABI bh_ze_map(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_ze_check_dev(dev, "map") != BHOST_OK ||
        bh_ze_check_range(dev, buf, 0, 0, "map", "mapped") != BHOST_OK)
        return NULL;
    if (buf->flags == BHOST_MEM_DEVICE) {
        bh_ze_fail(dev->h, BHOST_E_UNSUPPORTED, "map: a DEVICE buffer");
        return NULL;
    }
    return buf->ptr;
}

/* zeCommandListAppendMemoryCopy on the stream named by s. */
static bhost_status copy(bhost_dev *dev, bhost_stream *s, void *dst,
                         const void *src, uint64_t n, const char *op)
{
    bhost_stream *t = bh_ze_stream_of(dev, s, op);
    ze_result_t r;

    if (t == NULL)
        return BHOST_E_INVALID;
    if (n == 0)
        return BHOST_OK;
    r = bh_ze.zeCommandListAppendMemoryCopy(t->list, dst, src, (size_t)n, NULL,
                                            0, NULL);
    if (r != ZE_RESULT_SUCCESS)
        return bh_ze_err(dev->h, r, "zeCommandListAppendMemoryCopy");
    return bh_ze_ordered(t);
}

/* [instance] */
bhost_status BHOST_ABI bh_ze_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n)
{
    bhost_status st = bh_ze_check_dev(dev, "copy_h2d");

    if (st == BHOST_OK)
        st = bh_ze_check_range(dev, dst, dst_off, n, "copy_h2d", "dst");
    if (st == BHOST_OK && src == NULL && n != 0)
        st = bh_ze_fail(dev->h, BHOST_E_INVALID, "copy_h2d: NULL src");
    return st == BHOST_OK ? copy(dev, s, (char *)dst->ptr + dst_off, src, n,
                                 "copy_h2d")
                          : st;
}

/* [instance] */
bhost_status BHOST_ABI bh_ze_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n)
{
    bhost_status st = bh_ze_check_dev(dev, "copy_d2h");

    if (st == BHOST_OK)
        st = bh_ze_check_range(dev, src, src_off, n, "copy_d2h", "src");
    if (st == BHOST_OK && dst == NULL && n != 0)
        st = bh_ze_fail(dev->h, BHOST_E_INVALID, "copy_d2h: NULL dst");
    return st == BHOST_OK ? copy(dev, s, dst, (const char *)src->ptr + src_off,
                                 n, "copy_d2h")
                          : st;
}

/* Overlapping ranges of one buffer go through a temporary allocation.
 * [instance] */
bhost_status BHOST_ABI bh_ze_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n)
{
    bhost_buf *tmp = NULL;
    bhost_status st = bh_ze_check_dev(dev, "copy_d2d");

    if (st == BHOST_OK)
        st = bh_ze_check_range(dev, dst, dst_off, n, "copy_d2d", "dst");
    if (st == BHOST_OK)
        st = bh_ze_check_range(dev, src, src_off, n, "copy_d2d", "src");
    if (st != BHOST_OK || n == 0)
        return st;
    if (dst != src || dst_off >= src_off + n || src_off >= dst_off + n)
        return copy(dev, s, (char *)dst->ptr + dst_off,
                    (const char *)src->ptr + src_off, n, "copy_d2d");
    st = bh_ze_alloc(dev, n, BHOST_MEM_DEVICE, &tmp);
    if (st == BHOST_OK)
        st = copy(dev, s, tmp->ptr, (const char *)src->ptr + src_off, n,
                  "copy_d2d");
    if (st == BHOST_OK)
        st = copy(dev, s, (char *)dst->ptr + dst_off, tmp->ptr, n, "copy_d2d");
    if (tmp != NULL)
        bh_ze_free(dev, tmp); /* syncs first */
    return st;
}
