// SPDX-License-Identifier: MIT
/*
 * cuda_device.c -- open/close, memory, copies and streams of the CUDA
 * backend. DEVICE buffers come from cudaMalloc, PINNED from cudaHostAlloc
 * (portable), HOST_VISIBLE from cudaHostAlloc (portable, mapped); map()
 * returns the host pointer of the latter two. Copies are cudaMemcpyAsync
 * with cudaMemcpyDefault (unified addressing) on the stream; every call
 * makes its device current first, so devices can be mixed in one thread.
 */
#include "cuda_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A non-blocking stream of dev. */
static bhost_status stream_new(bhost_dev *dev, bhost_stream **out)
{
    bhost_stream *s = calloc(1, sizeof(*s));
    cudaError_t e;

    if (s == NULL)
        return bh_cu_fail(dev->h, BHOST_E_NOMEM, "stream_create: out of memory");
    e = bh_cu.StreamCreateWithFlags(&s->s, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
        free(s);
        return bh_cu_err(dev->h, e, "cudaStreamCreateWithFlags");
    }
    s->magic = BH_CU_STREAM_MAGIC;
    s->dev = dev;
    *out = s;
    return BHOST_OK;
}

/* Synchronizes and frees s. */
static void stream_free(bhost_stream *s)
{
    bh_cu.StreamSynchronize(s->s);
    if (s->scratch != NULL)
        bh_cu.Free(s->scratch);
    bh_cu.StreamDestroy(s->s);
    s->magic = 0;
    free(s);
}

/* Opens device index: current device, default stream, timing helpers.
 * [main] */
bhost_status BHOST_ABI bh_cu_open(uint32_t index, bhost_host *h,
                                  bhost_dev **out)
{
    bhost_dev *dev;
    cudaError_t e;
    bhost_status st;

    if (out == NULL)
        return bh_cu_fail(h, BHOST_E_INVALID, "open: NULL out");
    if (bh_cu_load() != BHOST_OK)
        return bh_cu_fail(h, BHOST_E_DEVICE, "open: %s", bh_cu_load_error());
    if (index >= bh_cu_count())
        return bh_cu_fail(h, BHOST_E_INVALID,
                          "open: no device %" PRIu32 " (there are %" PRIu32
                          ")", index, bh_cu_count());
    dev = calloc(1, sizeof(*dev));
    if (dev == NULL)
        return bh_cu_fail(h, BHOST_E_NOMEM, "open: out of memory");
    dev->magic = BH_CU_DEV_MAGIC;
    dev->index = index;
    dev->h = h;
    e = bh_cu.SetDevice((int)index);
    if (e == cudaSuccess)
        e = bh_cu.Free(NULL); /* creates the primary context now */
    st = e == cudaSuccess ? BHOST_OK : bh_cu_err(h, e, "cudaSetDevice");
    if (st == BHOST_OK)
        st = stream_new(dev, &dev->def);
    if (st == BHOST_OK)
        st = bh_cu_timing_init(dev);
    if (st != BHOST_OK) {
        bh_cu_close(dev);
        return st;
    }
    *out = dev;
    return BHOST_OK;
}

/* Synchronizes the device and frees everything open() made. [main] */
void BHOST_ABI bh_cu_close(bhost_dev *dev)
{
    const bh_cublas *blas;

    if (dev == NULL || dev->magic != BH_CU_DEV_MAGIC)
        return;
    bh_cu.SetDevice((int)dev->index);
    bh_cu.DeviceSynchronize();
    if (dev->live_bufs != 0)
        bh_cu_log(dev->h, BHOST_LOG_WARN,
                  "close: %" PRIu64 " buffer(s) never freed", dev->live_bufs);
    if (dev->throttled != 0)
        bh_cu_log(dev->h, BHOST_LOG_WARN,
                  "%" PRIu32 " of %" PRIu32 " samples ran below %.0f%% of "
                  "the default SM clock %.0f MHz (lowest %.0f MHz)",
                  dev->throttled, dev->samples, 100 * dev->threshold,
                  dev->default_mhz, dev->min_mhz);
    blas = dev->cublas != NULL ? bh_cu_cublas(dev->h) : NULL;
    if (blas != NULL)
        blas->Destroy(dev->cublas);
    bh_cu_timing_release(dev);
    if (dev->def != NULL)
        stream_free(dev->def);
    dev->magic = 0;
    free(dev);
}

/* bytes (> 0) of device memory or page-locked host memory. [instance] */
bhost_status BHOST_ABI bh_cu_alloc(bhost_dev *dev, uint64_t bytes,
                                   uint32_t flags, bhost_buf **out)
{
    bhost_buf *b;
    cudaError_t e;
    bhost_status st = bh_cu_check_dev(dev, "alloc");

    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    if (st != BHOST_OK)
        return st;
    if (out == NULL || bytes == 0 || bytes > SIZE_MAX)
        return bh_cu_fail(dev->h, BHOST_E_INVALID, "alloc: bad arguments");
    if (flags > (BHOST_MEM_HOST_PINNED | BHOST_MEM_HOST_VISIBLE))
        return bh_cu_fail(dev->h, BHOST_E_INVALID,
                          "alloc: unknown flags 0x%" PRIx32, flags);
    b = calloc(1, sizeof(*b));
    if (b == NULL)
        return bh_cu_fail(dev->h, BHOST_E_NOMEM, "alloc: out of memory");
    if (flags == BHOST_MEM_DEVICE)
        e = bh_cu.Malloc(&b->ptr, (size_t)bytes);
    else
        e = bh_cu.HostAlloc(&b->ptr, (size_t)bytes,
                            cudaHostAllocPortable |
                                (flags & BHOST_MEM_HOST_VISIBLE
                                     ? cudaHostAllocMapped
                                     : 0u));
    if (e != cudaSuccess) {
        free(b);
        return bh_cu_err(dev->h, e, flags ? "cudaHostAlloc" : "cudaMalloc");
    }
    b->magic = BH_CU_BUF_MAGIC;
    b->flags = flags;
    b->dev = dev;
    b->size = bytes;
    dev->live_bufs++;
    *out = b;
    return BHOST_OK;
}

/* Synchronizes the device, then frees buf. [instance] */
void BHOST_ABI bh_cu_free(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_cu_check_dev(dev, "free") != BHOST_OK || buf == NULL ||
        buf->magic != BH_CU_BUF_MAGIC || buf->dev != dev ||
        bh_cu_use(dev) != BHOST_OK)
        return;
    bh_cu.DeviceSynchronize();
    if (buf->flags == BHOST_MEM_DEVICE)
        bh_cu.Free(buf->ptr);
    else
        bh_cu.FreeHost(buf->ptr);
    buf->magic = 0;
    free(buf);
    dev->live_bufs--;
}

/* The host pointer of a PINNED/HOST_VISIBLE buffer, else NULL. */
void *BHOST_ABI bh_cu_map(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_cu_check_dev(dev, "map") != BHOST_OK ||
        bh_cu_check_range(dev, buf, 0, 0, "map", "mapped") != BHOST_OK)
        return NULL;
    if (buf->flags == BHOST_MEM_DEVICE) {
        bh_cu_fail(dev->h, BHOST_E_UNSUPPORTED, "map: a DEVICE buffer");
        return NULL;
    }
    return buf->ptr;
}

/* cudaMemcpyAsync on the stream of dev named by s. */
static bhost_status copy(bhost_dev *dev, bhost_stream *s, void *dst,
                         const void *src, uint64_t n, const char *op)
{
    bhost_stream *t = bh_cu_stream_of(dev, s, op);
    cudaError_t e;

    if (t == NULL)
        return BHOST_E_INVALID;
    if (n == 0)
        return BHOST_OK;
    e = bh_cu.MemcpyAsync(dst, src, (size_t)n, cudaMemcpyDefault, t->s);
    return e == cudaSuccess ? BHOST_OK : bh_cu_err(dev->h, e, "cudaMemcpyAsync");
}

/* [instance] */
bhost_status BHOST_ABI bh_cu_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n)
{
    bhost_status st = bh_cu_check_dev(dev, "copy_h2d");

    if (st == BHOST_OK)
        st = bh_cu_check_range(dev, dst, dst_off, n, "copy_h2d", "dst");
    if (st == BHOST_OK && src == NULL && n != 0)
        st = bh_cu_fail(dev->h, BHOST_E_INVALID, "copy_h2d: NULL src");
    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    return st == BHOST_OK ? copy(dev, s, (char *)dst->ptr + dst_off, src, n,
                                 "copy_h2d")
                          : st;
}

/* [instance] */
bhost_status BHOST_ABI bh_cu_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n)
{
    bhost_status st = bh_cu_check_dev(dev, "copy_d2h");

    if (st == BHOST_OK)
        st = bh_cu_check_range(dev, src, src_off, n, "copy_d2h", "src");
    if (st == BHOST_OK && dst == NULL && n != 0)
        st = bh_cu_fail(dev->h, BHOST_E_INVALID, "copy_d2h: NULL dst");
    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    return st == BHOST_OK ? copy(dev, s, dst, (const char *)src->ptr + src_off,
                                 n, "copy_d2h")
                          : st;
}

/* Overlapping ranges of one buffer go through a temporary buffer
 * (cudaMemcpy does not allow overlap). [instance] */
bhost_status BHOST_ABI bh_cu_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n)
{
    void *tmp = NULL;
    cudaError_t e;
    bhost_status st = bh_cu_check_dev(dev, "copy_d2d");

    if (st == BHOST_OK)
        st = bh_cu_check_range(dev, dst, dst_off, n, "copy_d2d", "dst");
    if (st == BHOST_OK)
        st = bh_cu_check_range(dev, src, src_off, n, "copy_d2d", "src");
    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    if (st != BHOST_OK || n == 0)
        return st;
    if (dst != src || dst_off >= src_off + n || src_off >= dst_off + n)
        return copy(dev, s, (char *)dst->ptr + dst_off,
                    (const char *)src->ptr + src_off, n, "copy_d2d");
    e = bh_cu.Malloc(&tmp, (size_t)n);
    if (e != cudaSuccess)
        return bh_cu_err(dev->h, e, "cudaMalloc (overlapping copy)");
    st = copy(dev, s, tmp, (const char *)src->ptr + src_off, n, "copy_d2d");
    if (st == BHOST_OK)
        st = copy(dev, s, (char *)dst->ptr + dst_off, tmp, n, "copy_d2d");
    if (st == BHOST_OK)
        st = bh_cu_stream_sync(dev, s);
    bh_cu.Free(tmp);
    return st;
}

/* [instance] */
bhost_status BHOST_ABI bh_cu_stream_create(bhost_dev *dev, bhost_stream **out)
{
    bhost_status st = bh_cu_check_dev(dev, "stream_create");

    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    if (st == BHOST_OK && out == NULL)
        st = bh_cu_fail(dev->h, BHOST_E_INVALID, "stream_create: NULL out");
    return st == BHOST_OK ? stream_new(dev, out) : st;
}

/* NULL, the default and foreign streams are ignored. [instance] */
void BHOST_ABI bh_cu_stream_destroy(bhost_dev *dev, bhost_stream *s)
{
    if (bh_cu_check_dev(dev, "stream_destroy") != BHOST_OK || s == NULL ||
        s->magic != BH_CU_STREAM_MAGIC || s->dev != dev || s == dev->def ||
        bh_cu_use(dev) != BHOST_OK)
        return;
    stream_free(s);
}

/* cudaStreamSynchronize. [instance] */
bhost_status BHOST_ABI bh_cu_stream_sync(bhost_dev *dev, bhost_stream *s)
{
    bhost_stream *t;
    cudaError_t e;
    bhost_status st = bh_cu_check_dev(dev, "stream_sync");

    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    if (st != BHOST_OK)
        return st;
    t = bh_cu_stream_of(dev, s, "stream_sync");
    if (t == NULL)
        return BHOST_E_INVALID;
    e = bh_cu.StreamSynchronize(t->s);
    return e == cudaSuccess ? BHOST_OK
                            : bh_cu_err(dev->h, e, "cudaStreamSynchronize");
}

/* cudaDeviceSynchronize. [instance] */
bhost_status BHOST_ABI bh_cu_device_sync(bhost_dev *dev)
{
    cudaError_t e;
    bhost_status st = bh_cu_check_dev(dev, "device_sync");

    if (st == BHOST_OK)
        st = bh_cu_use(dev);
    if (st != BHOST_OK)
        return st;
    e = bh_cu.DeviceSynchronize();
    return e == cudaSuccess ? BHOST_OK
                            : bh_cu_err(dev->h, e, "cudaDeviceSynchronize");
}
