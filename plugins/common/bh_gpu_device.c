// SPDX-License-Identifier: MIT
/*
 * bh_gpu_device.c -- open/close, memory, copies and streams of the CUDA
 * and HIP backends (compiled into each, bh_gpu_rt.h). DEVICE buffers come
 * from cudaMalloc/hipMalloc, PINNED from cudaHostAlloc/hipHostMalloc
 * (portable), HOST_VISIBLE from the same (portable, mapped); map() returns
 * the host pointer of the latter two. Copies are MemcpyAsync with
 * MemcpyDefault (unified addressing) on the stream; every call makes its
 * device current first, so devices can be mixed in one thread.
 */
#include BH_GPU_INTERNAL_H

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A non-blocking stream of dev. */
static bhost_status stream_new(bhost_dev *dev, bhost_stream **out)
{
    bhost_stream *s = calloc(1, sizeof(*s));
    bh_gpu_error e;

    if (s == NULL)
        return bh_gpu_fail(dev->h, BHOST_E_NOMEM, "stream_create: out of memory");
    e = bh_gpu_rt.StreamCreateWithFlags(&s->s, BH_GPU_STREAM_NON_BLOCKING);
    if (e != BH_GPU_SUCCESS) {
        free(s);
        return BH_GPU(err)(dev->h, e, BH_GPU_API "StreamCreateWithFlags");
    }
    s->magic = BH_GPU_STREAM_MAGIC;
    s->dev = dev;
    *out = s;
    return BHOST_OK;
}

/* Synchronizes and frees s. */
static void stream_free(bhost_stream *s)
{
    bh_gpu_rt.StreamSynchronize(s->s);
    if (s->scratch != NULL)
        bh_gpu_rt.Free(s->scratch);
    bh_gpu_rt.StreamDestroy(s->s);
    s->magic = 0;
    free(s);
}

/* Opens device index: current device, default stream, the backend's own
 * (open_extra).
 * [main] */
bhost_status BHOST_ABI BH_GPU(open)(uint32_t index, bhost_host *h, bhost_dev **out)
{
    bhost_dev *dev;
    bh_gpu_error e;
    bhost_status st;

    if (out == NULL)
        return bh_gpu_fail(h, BHOST_E_INVALID, "open: NULL out");
    if (BH_GPU(load)() != BHOST_OK)
        return bh_gpu_fail(h, BHOST_E_DEVICE, "open: %s", BH_GPU(load_error)());
    if (index >= BH_GPU(count)())
        return bh_gpu_fail(h, BHOST_E_INVALID,
                           "open: no device %" PRIu32 " (there are %" PRIu32 ")", index,
                           BH_GPU(count)());
    dev = calloc(1, sizeof(*dev));
    if (dev == NULL)
        return bh_gpu_fail(h, BHOST_E_NOMEM, "open: out of memory");
    dev->magic = BH_GPU_DEV_MAGIC;
    dev->index = index;
    dev->h = h;
    e = bh_gpu_rt.SetDevice((int)index);
    if (e == BH_GPU_SUCCESS)
        e = bh_gpu_rt.Free(NULL); /* initializes the device (context) now */
    st = e == BH_GPU_SUCCESS ? BHOST_OK : BH_GPU(err)(h, e, BH_GPU_API "SetDevice");
    if (st == BHOST_OK)
        st = stream_new(dev, &dev->def);
    if (st == BHOST_OK)
        st = BH_GPU(open_extra)(dev);
    if (st != BHOST_OK) {
        BH_GPU(close)(dev);
        return st;
    }
    *out = dev;
    return BHOST_OK;
}

/* Synchronizes the device and frees everything open() made. [main] */
void BHOST_ABI BH_GPU(close)(bhost_dev *dev)
{
    if (dev == NULL || dev->magic != BH_GPU_DEV_MAGIC)
        return;
    bh_gpu_rt.SetDevice((int)dev->index);
    bh_gpu_rt.DeviceSynchronize();
    if (dev->live_bufs != 0)
        bh_gpu_log(dev->h, BHOST_LOG_WARN, "close: %" PRIu64 " buffer(s) never freed",
                   dev->live_bufs);
    BH_GPU(close_extra)(dev);
    if (dev->def != NULL)
        stream_free(dev->def);
    dev->magic = 0;
    free(dev);
}

/* bytes (> 0) of device memory or page-locked host memory. [instance] */
bhost_status BHOST_ABI BH_GPU(alloc)(bhost_dev *dev, uint64_t bytes, uint32_t flags,
                                     bhost_buf **out)
{
    bhost_buf *b;
    bh_gpu_error e;
    bhost_status st = bh_gpu_check_dev(dev, "alloc");

    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    if (st != BHOST_OK)
        return st;
    if (out == NULL || bytes == 0 || bytes > SIZE_MAX)
        return bh_gpu_fail(dev->h, BHOST_E_INVALID, "alloc: bad arguments");
    if (flags > (BHOST_MEM_HOST_PINNED | BHOST_MEM_HOST_VISIBLE))
        return bh_gpu_fail(dev->h, BHOST_E_INVALID, "alloc: unknown flags 0x%" PRIx32, flags);
    b = calloc(1, sizeof(*b));
    if (b == NULL)
        return bh_gpu_fail(dev->h, BHOST_E_NOMEM, "alloc: out of memory");
    if (flags == BHOST_MEM_DEVICE)
        e = bh_gpu_rt.Malloc(&b->ptr, (size_t)bytes);
    else
        e = bh_gpu_rt.HostAlloc(&b->ptr, (size_t)bytes,
                                BH_GPU_HOST_PORTABLE |
                                    (flags & BHOST_MEM_HOST_VISIBLE ? BH_GPU_HOST_MAPPED : 0u));
    if (e != BH_GPU_SUCCESS) {
        free(b);
        return BH_GPU(err)(dev->h, e, flags ? BH_GPU_HOST_ALLOC_NAME : BH_GPU_API "Malloc");
    }
    b->magic = BH_GPU_BUF_MAGIC;
    b->flags = flags;
    b->dev = dev;
    b->size = bytes;
    dev->live_bufs++;
    *out = b;
    return BHOST_OK;
}

/* Synchronizes the device, then frees buf. [instance] */
void BHOST_ABI BH_GPU(free)(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_gpu_check_dev(dev, "free") != BHOST_OK || buf == NULL ||
        buf->magic != BH_GPU_BUF_MAGIC || buf->dev != dev || BH_GPU(use)(dev) != BHOST_OK)
        return;
    bh_gpu_rt.DeviceSynchronize();
    if (buf->flags == BHOST_MEM_DEVICE)
        bh_gpu_rt.Free(buf->ptr);
    else
        bh_gpu_rt.FreeHost(buf->ptr);
    buf->magic = 0;
    free(buf);
    dev->live_bufs--;
}

/* The host pointer of a PINNED/HOST_VISIBLE buffer, else NULL. */
void *BHOST_ABI BH_GPU(map)(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_gpu_check_dev(dev, "map") != BHOST_OK ||
        bh_gpu_check_range(dev, buf, 0, 0, "map", "mapped") != BHOST_OK)
        return NULL;
    if (buf->flags == BHOST_MEM_DEVICE) {
        bh_gpu_fail(dev->h, BHOST_E_UNSUPPORTED, "map: a DEVICE buffer");
        return NULL;
    }
    return buf->ptr;
}

/* MemcpyAsync on the stream of dev named by s. */
static bhost_status copy(bhost_dev *dev, bhost_stream *s, void *dst, const void *src, uint64_t n,
                         const char *op)
{
    bhost_stream *t = bh_gpu_stream_of(dev, s, op);
    bh_gpu_error e;

    if (t == NULL)
        return BHOST_E_INVALID;
    if (n == 0)
        return BHOST_OK;
    e = bh_gpu_rt.MemcpyAsync(dst, src, (size_t)n, BH_GPU_MEMCPY_DEFAULT, t->s);
    return e == BH_GPU_SUCCESS ? BHOST_OK : BH_GPU(err)(dev->h, e, BH_GPU_API "MemcpyAsync");
}

/* [instance] */
bhost_status BHOST_ABI BH_GPU(copy_h2d)(bhost_dev *dev, bhost_stream *s, bhost_buf *dst,
                                        uint64_t dst_off, const void *src, uint64_t n)
{
    bhost_status st = bh_gpu_check_dev(dev, "copy_h2d");

    if (st == BHOST_OK)
        st = bh_gpu_check_range(dev, dst, dst_off, n, "copy_h2d", "dst");
    if (st == BHOST_OK && src == NULL && n != 0)
        st = bh_gpu_fail(dev->h, BHOST_E_INVALID, "copy_h2d: NULL src");
    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    return st == BHOST_OK ? copy(dev, s, (char *)dst->ptr + dst_off, src, n, "copy_h2d") : st;
}

/* [instance] */
bhost_status BHOST_ABI BH_GPU(copy_d2h)(bhost_dev *dev, bhost_stream *s, void *dst,
                                        const bhost_buf *src, uint64_t src_off, uint64_t n)
{
    bhost_status st = bh_gpu_check_dev(dev, "copy_d2h");

    if (st == BHOST_OK)
        st = bh_gpu_check_range(dev, src, src_off, n, "copy_d2h", "src");
    if (st == BHOST_OK && dst == NULL && n != 0)
        st = bh_gpu_fail(dev->h, BHOST_E_INVALID, "copy_d2h: NULL dst");
    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    return st == BHOST_OK ? copy(dev, s, dst, (const char *)src->ptr + src_off, n, "copy_d2h") : st;
}

/* Overlapping ranges of one buffer go through a temporary buffer
 * (Memcpy does not allow overlap). [instance] */
bhost_status BHOST_ABI BH_GPU(copy_d2d)(bhost_dev *dev, bhost_stream *s, bhost_buf *dst,
                                        uint64_t dst_off, const bhost_buf *src, uint64_t src_off,
                                        uint64_t n)
{
    void *tmp = NULL;
    bh_gpu_error e;
    bhost_status st = bh_gpu_check_dev(dev, "copy_d2d");

    if (st == BHOST_OK)
        st = bh_gpu_check_range(dev, dst, dst_off, n, "copy_d2d", "dst");
    if (st == BHOST_OK)
        st = bh_gpu_check_range(dev, src, src_off, n, "copy_d2d", "src");
    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    if (st != BHOST_OK || n == 0)
        return st;
    if (dst != src || dst_off >= src_off + n || src_off >= dst_off + n)
        return copy(dev, s, (char *)dst->ptr + dst_off, (const char *)src->ptr + src_off, n,
                    "copy_d2d");
    e = bh_gpu_rt.Malloc(&tmp, (size_t)n);
    if (e != BH_GPU_SUCCESS)
        return BH_GPU(err)(dev->h, e, BH_GPU_API "Malloc (overlapping copy)");
    st = copy(dev, s, tmp, (const char *)src->ptr + src_off, n, "copy_d2d");
    if (st == BHOST_OK)
        st = copy(dev, s, (char *)dst->ptr + dst_off, tmp, n, "copy_d2d");
    if (st == BHOST_OK)
        st = BH_GPU(stream_sync)(dev, s);
    bh_gpu_rt.Free(tmp);
    return st;
}

/* [instance] */
bhost_status BHOST_ABI BH_GPU(stream_create)(bhost_dev *dev, bhost_stream **out)
{
    bhost_status st = bh_gpu_check_dev(dev, "stream_create");

    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    if (st == BHOST_OK && out == NULL)
        st = bh_gpu_fail(dev->h, BHOST_E_INVALID, "stream_create: NULL out");
    return st == BHOST_OK ? stream_new(dev, out) : st;
}

/* NULL, the default and foreign streams are ignored. [instance] */
void BHOST_ABI BH_GPU(stream_destroy)(bhost_dev *dev, bhost_stream *s)
{
    if (bh_gpu_check_dev(dev, "stream_destroy") != BHOST_OK || s == NULL ||
        s->magic != BH_GPU_STREAM_MAGIC || s->dev != dev || s == dev->def ||
        BH_GPU(use)(dev) != BHOST_OK)
        return;
    stream_free(s);
}

/* StreamSynchronize. [instance] */
bhost_status BHOST_ABI BH_GPU(stream_sync)(bhost_dev *dev, bhost_stream *s)
{
    bhost_stream *t;
    bh_gpu_error e;
    bhost_status st = bh_gpu_check_dev(dev, "stream_sync");

    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    if (st != BHOST_OK)
        return st;
    t = bh_gpu_stream_of(dev, s, "stream_sync");
    if (t == NULL)
        return BHOST_E_INVALID;
    e = bh_gpu_rt.StreamSynchronize(t->s);
    return e == BH_GPU_SUCCESS ? BHOST_OK : BH_GPU(err)(dev->h, e, BH_GPU_API "StreamSynchronize");
}

/* DeviceSynchronize. [instance] */
bhost_status BHOST_ABI BH_GPU(device_sync)(bhost_dev *dev)
{
    bh_gpu_error e;
    bhost_status st = bh_gpu_check_dev(dev, "device_sync");

    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    if (st != BHOST_OK)
        return st;
    e = bh_gpu_rt.DeviceSynchronize();
    return e == BH_GPU_SUCCESS ? BHOST_OK : BH_GPU(err)(dev->h, e, BH_GPU_API "DeviceSynchronize");
}
