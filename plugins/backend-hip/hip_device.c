// SPDX-License-Identifier: MIT
/*
 * hip_device.c -- open/close, memory, copies and streams of the HIP
 * backend. DEVICE buffers come from hipMalloc, PINNED from hipHostMalloc
 * (portable), HOST_VISIBLE from hipHostMalloc (portable, mapped); map()
 * returns the host pointer of the latter two. Copies are hipMemcpyAsync
 * with hipMemcpyDefault (unified addressing) on the stream; every call
 * makes its device current first, so devices can be mixed in one thread.
 */
#include "hip_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A non-blocking stream of dev. */
static bhost_status stream_new(bhost_dev *dev, bhost_stream **out)
{
    bhost_stream *s = calloc(1, sizeof(*s));
    hipError_t e;

    if (s == NULL)
        return bh_hip_fail(dev->h, BHOST_E_NOMEM, "stream_create: out of memory");
    e = bh_hip.StreamCreateWithFlags(&s->s, hipStreamNonBlocking);
    if (e != hipSuccess) {
        free(s);
        return bh_hip_err(dev->h, e, "hipStreamCreateWithFlags");
    }
    s->magic = BH_HIP_STREAM_MAGIC;
    s->dev = dev;
    *out = s;
    return BHOST_OK;
}

/* Synchronizes and frees s. */
static void stream_free(bhost_stream *s)
{
    bh_hip.StreamSynchronize(s->s);
    if (s->scratch != NULL)
        bh_hip.Free(s->scratch);
    bh_hip.StreamDestroy(s->s);
    s->magic = 0;
    free(s);
}

/* Opens device index: current device, default stream.
 * [main] */
bhost_status BHOST_ABI bh_hip_open(uint32_t index, bhost_host *h,
                                  bhost_dev **out)
{
    bhost_dev *dev;
    hipError_t e;
    bhost_status st;

    if (out == NULL)
        return bh_hip_fail(h, BHOST_E_INVALID, "open: NULL out");
    if (bh_hip_load() != BHOST_OK)
        return bh_hip_fail(h, BHOST_E_DEVICE, "open: %s", bh_hip_load_error());
    if (index >= bh_hip_count())
        return bh_hip_fail(h, BHOST_E_INVALID,
                          "open: no device %" PRIu32 " (there are %" PRIu32
                          ")", index, bh_hip_count());
    dev = calloc(1, sizeof(*dev));
    if (dev == NULL)
        return bh_hip_fail(h, BHOST_E_NOMEM, "open: out of memory");
    dev->magic = BH_HIP_DEV_MAGIC;
    dev->index = index;
    dev->h = h;
    e = bh_hip.SetDevice((int)index);
    if (e == hipSuccess)
        e = bh_hip.Free(NULL); /* initializes the device now */
    st = e == hipSuccess ? BHOST_OK : bh_hip_err(h, e, "hipSetDevice");
    if (st == BHOST_OK)
        st = stream_new(dev, &dev->def);
    if (st != BHOST_OK) {
        bh_hip_close(dev);
        return st;
    }
    *out = dev;
    return BHOST_OK;
}

/* Synchronizes the device and frees everything open() made. [main] */
void BHOST_ABI bh_hip_close(bhost_dev *dev)
{
    if (dev == NULL || dev->magic != BH_HIP_DEV_MAGIC)
        return;
    bh_hip.SetDevice((int)dev->index);
    bh_hip.DeviceSynchronize();
    if (dev->live_bufs != 0)
        bh_hip_log(dev->h, BHOST_LOG_WARN,
                  "close: %" PRIu64 " buffer(s) never freed", dev->live_bufs);
    if (dev->def != NULL)
        stream_free(dev->def);
    if (dev->mod != NULL)
        bh_hip.ModuleUnload(dev->mod);
    dev->magic = 0;
    free(dev);
}

/* bytes (> 0) of device memory or page-locked host memory. [instance] */
bhost_status BHOST_ABI bh_hip_alloc(bhost_dev *dev, uint64_t bytes,
                                   uint32_t flags, bhost_buf **out)
{
    bhost_buf *b;
    hipError_t e;
    bhost_status st = bh_hip_check_dev(dev, "alloc");

    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st != BHOST_OK)
        return st;
    if (out == NULL || bytes == 0 || bytes > SIZE_MAX)
        return bh_hip_fail(dev->h, BHOST_E_INVALID, "alloc: bad arguments");
    if (flags > (BHOST_MEM_HOST_PINNED | BHOST_MEM_HOST_VISIBLE))
        return bh_hip_fail(dev->h, BHOST_E_INVALID,
                          "alloc: unknown flags 0x%" PRIx32, flags);
    b = calloc(1, sizeof(*b));
    if (b == NULL)
        return bh_hip_fail(dev->h, BHOST_E_NOMEM, "alloc: out of memory");
    if (flags == BHOST_MEM_DEVICE)
        e = bh_hip.Malloc(&b->ptr, (size_t)bytes);
    else
        e = bh_hip.HostMalloc(&b->ptr, (size_t)bytes,
                             hipHostMallocPortable |
                                 (flags & BHOST_MEM_HOST_VISIBLE
                                      ? hipHostMallocMapped
                                      : 0u));
    if (e != hipSuccess) {
        free(b);
        return bh_hip_err(dev->h, e, flags ? "hipHostMalloc" : "hipMalloc");
    }
    b->magic = BH_HIP_BUF_MAGIC;
    b->flags = flags;
    b->dev = dev;
    b->size = bytes;
    dev->live_bufs++;
    *out = b;
    return BHOST_OK;
}

/* Synchronizes the device, then frees buf. [instance] */
void BHOST_ABI bh_hip_free(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_hip_check_dev(dev, "free") != BHOST_OK || buf == NULL ||
        buf->magic != BH_HIP_BUF_MAGIC || buf->dev != dev ||
        bh_hip_use(dev) != BHOST_OK)
        return;
    bh_hip.DeviceSynchronize();
    if (buf->flags == BHOST_MEM_DEVICE)
        bh_hip.Free(buf->ptr);
    else
        bh_hip.HostFree(buf->ptr);
    buf->magic = 0;
    free(buf);
    dev->live_bufs--;
}

/* The host pointer of a PINNED/HOST_VISIBLE buffer, else NULL. */
void *BHOST_ABI bh_hip_map(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_hip_check_dev(dev, "map") != BHOST_OK ||
        bh_hip_check_range(dev, buf, 0, 0, "map", "mapped") != BHOST_OK)
        return NULL;
    if (buf->flags == BHOST_MEM_DEVICE) {
        bh_hip_fail(dev->h, BHOST_E_UNSUPPORTED, "map: a DEVICE buffer");
        return NULL;
    }
    return buf->ptr;
}

/* hipMemcpyAsync on the stream of dev named by s. */
static bhost_status copy(bhost_dev *dev, bhost_stream *s, void *dst,
                         const void *src, uint64_t n, const char *op)
{
    bhost_stream *t = bh_hip_stream_of(dev, s, op);
    hipError_t e;

    if (t == NULL)
        return BHOST_E_INVALID;
    if (n == 0)
        return BHOST_OK;
    e = bh_hip.MemcpyAsync(dst, src, (size_t)n, hipMemcpyDefault, t->s);
    return e == hipSuccess ? BHOST_OK : bh_hip_err(dev->h, e, "hipMemcpyAsync");
}

/* [instance] */
bhost_status BHOST_ABI bh_hip_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n)
{
    bhost_status st = bh_hip_check_dev(dev, "copy_h2d");

    if (st == BHOST_OK)
        st = bh_hip_check_range(dev, dst, dst_off, n, "copy_h2d", "dst");
    if (st == BHOST_OK && src == NULL && n != 0)
        st = bh_hip_fail(dev->h, BHOST_E_INVALID, "copy_h2d: NULL src");
    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    return st == BHOST_OK ? copy(dev, s, (char *)dst->ptr + dst_off, src, n,
                                 "copy_h2d")
                          : st;
}

/* [instance] */
bhost_status BHOST_ABI bh_hip_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n)
{
    bhost_status st = bh_hip_check_dev(dev, "copy_d2h");

    if (st == BHOST_OK)
        st = bh_hip_check_range(dev, src, src_off, n, "copy_d2h", "src");
    if (st == BHOST_OK && dst == NULL && n != 0)
        st = bh_hip_fail(dev->h, BHOST_E_INVALID, "copy_d2h: NULL dst");
    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    return st == BHOST_OK ? copy(dev, s, dst, (const char *)src->ptr + src_off,
                                 n, "copy_d2h")
                          : st;
}

/* Overlapping ranges of one buffer go through a temporary buffer
 * (hipMemcpy does not allow overlap). [instance] */
bhost_status BHOST_ABI bh_hip_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n)
{
    void *tmp = NULL;
    hipError_t e;
    bhost_status st = bh_hip_check_dev(dev, "copy_d2d");

    if (st == BHOST_OK)
        st = bh_hip_check_range(dev, dst, dst_off, n, "copy_d2d", "dst");
    if (st == BHOST_OK)
        st = bh_hip_check_range(dev, src, src_off, n, "copy_d2d", "src");
    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st != BHOST_OK || n == 0)
        return st;
    if (dst != src || dst_off >= src_off + n || src_off >= dst_off + n)
        return copy(dev, s, (char *)dst->ptr + dst_off,
                    (const char *)src->ptr + src_off, n, "copy_d2d");
    e = bh_hip.Malloc(&tmp, (size_t)n);
    if (e != hipSuccess)
        return bh_hip_err(dev->h, e, "hipMalloc (overlapping copy)");
    st = copy(dev, s, tmp, (const char *)src->ptr + src_off, n, "copy_d2d");
    if (st == BHOST_OK)
        st = copy(dev, s, (char *)dst->ptr + dst_off, tmp, n, "copy_d2d");
    if (st == BHOST_OK)
        st = bh_hip_stream_sync(dev, s);
    bh_hip.Free(tmp);
    return st;
}

/* [instance] */
bhost_status BHOST_ABI bh_hip_stream_create(bhost_dev *dev, bhost_stream **out)
{
    bhost_status st = bh_hip_check_dev(dev, "stream_create");

    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st == BHOST_OK && out == NULL)
        st = bh_hip_fail(dev->h, BHOST_E_INVALID, "stream_create: NULL out");
    return st == BHOST_OK ? stream_new(dev, out) : st;
}

/* NULL, the default and foreign streams are ignored. [instance] */
void BHOST_ABI bh_hip_stream_destroy(bhost_dev *dev, bhost_stream *s)
{
    if (bh_hip_check_dev(dev, "stream_destroy") != BHOST_OK || s == NULL ||
        s->magic != BH_HIP_STREAM_MAGIC || s->dev != dev || s == dev->def ||
        bh_hip_use(dev) != BHOST_OK)
        return;
    stream_free(s);
}

/* hipStreamSynchronize. [instance] */
bhost_status BHOST_ABI bh_hip_stream_sync(bhost_dev *dev, bhost_stream *s)
{
    bhost_stream *t;
    hipError_t e;
    bhost_status st = bh_hip_check_dev(dev, "stream_sync");

    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st != BHOST_OK)
        return st;
    t = bh_hip_stream_of(dev, s, "stream_sync");
    if (t == NULL)
        return BHOST_E_INVALID;
    e = bh_hip.StreamSynchronize(t->s);
    return e == hipSuccess ? BHOST_OK
                            : bh_hip_err(dev->h, e, "hipStreamSynchronize");
}

/* hipDeviceSynchronize. [instance] */
bhost_status BHOST_ABI bh_hip_device_sync(bhost_dev *dev)
{
    hipError_t e;
    bhost_status st = bh_hip_check_dev(dev, "device_sync");

    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st != BHOST_OK)
        return st;
    e = bh_hip.DeviceSynchronize();
    return e == hipSuccess ? BHOST_OK
                            : bh_hip_err(dev->h, e, "hipDeviceSynchronize");
}
