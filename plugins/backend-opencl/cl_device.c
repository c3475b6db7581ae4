// SPDX-License-Identifier: MIT
/*
 * cl_device.c -- open/close of an OpenCL device and its memory. DEVICE
 * buffers are plain cl_mem; HOST_VISIBLE and PINNED buffers are
 * CL_MEM_ALLOC_HOST_PTR buffers mapped once for their lifetime (the
 * pinned-memory idiom of OpenCL): map() returns that pointer, and copies
 * use it as host memory (cl_copy.c).
 */
#include "cl_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Frees what open() made; safe on a partly opened device. */
static void release(bhost_dev *dev)
{
    for (uint32_t i = 0; i < BH_CL_MAX_STREAMS; i++)
        if (dev->streams[i] != NULL)
            bh_cl_stream_free(dev, dev->streams[i]);
    for (int f = 0; f < 2; f++)
        bh_cl_prog_release(&dev->progs[f]);
    if (dev->ctx != NULL)
        bh_cl.clReleaseContext(dev->ctx);
    dev->magic = 0;
    free(dev);
}

/* Opens device index: a context of its own and the default queue. The
 * kernels are built on the first get_kernel(). [main] */
bhost_status BHOST_ABI bh_cl_open(uint32_t index, bhost_host *h,
                                  bhost_dev **out)
{
    bhost_dev *dev;
    cl_int e = CL_SUCCESS;
    bhost_status st;

    if (out == NULL)
        return bh_cl_fail(h, BHOST_E_INVALID, "open: NULL out");
    if (bh_cl_load() != BHOST_OK)
        return bh_cl_fail(h, BHOST_E_DEVICE, "open: %s", bh_cl_load_error());
    if (index >= bh_cl_count())
        return bh_cl_fail(h, BHOST_E_INVALID,
                          "open: no device %" PRIu32 " (there are %" PRIu32
                          ")", index, bh_cl_count());
    dev = calloc(1, sizeof(*dev));
    if (dev == NULL)
        return bh_cl_fail(h, BHOST_E_NOMEM, "open: out of memory");
    dev->magic = BH_CL_DEV_MAGIC;
    dev->index = index;
    dev->h = h;
    dev->phys = bh_cl_phys_get(index);
    {
        cl_context_properties props[3] = {
            CL_CONTEXT_PLATFORM, (cl_context_properties)dev->phys->platform, 0};

        dev->ctx = bh_cl.clCreateContext(props, 1, &dev->phys->id, NULL, NULL,
                                         &e);
    }
    if (dev->ctx == NULL) {
        release(dev);
        return bh_cl_fail(h, bh_cl_status(e), "open: clCreateContext('%s'): %s",
                          bh_cl_phys_get(index)->name, bh_cl_err_name(e));
    }
    st = bh_cl_stream_new(dev, &dev->def);
    if (st != BHOST_OK) {
        release(dev);
        return st;
    }
    bh_cl_log(h, BHOST_LOG_INFO, "device %" PRIu32 ": %s (%s), %s",
              index, dev->phys->name, dev->phys->platform_name,
              dev->phys->version);
    *out = dev;
    return BHOST_OK;
}

/* Finishes every queue and frees the device. [main] */
void BHOST_ABI bh_cl_close(bhost_dev *dev)
{
    if (dev == NULL || dev->magic != BH_CL_DEV_MAGIC)
        return;
    if (dev->live_bufs != 0)
        bh_cl_log(dev->h, BHOST_LOG_WARN,
                  "close: %" PRIu64 " buffer(s) never freed", dev->live_bufs);
    release(dev);
}

/* Allocates bytes (> 0): a cl_mem, mapped once when host-visible.
 * [instance] */
bhost_status BHOST_ABI bh_cl_alloc(bhost_dev *dev, uint64_t bytes,
                                   uint32_t flags, bhost_buf **out)
{
    bhost_buf *b;
    cl_int e = CL_SUCCESS;
    bhost_status st = bh_cl_check_dev(dev, "alloc");

    if (st != BHOST_OK)
        return st;
    if (out == NULL || bytes == 0)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "alloc: NULL out or zero size");
    if (flags > (BHOST_MEM_HOST_PINNED | BHOST_MEM_HOST_VISIBLE))
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "alloc: unknown flags 0x%" PRIx32, flags);
    b = calloc(1, sizeof(*b));
    if (b == NULL)
        return bh_cl_fail(dev->h, BHOST_E_NOMEM, "alloc: out of memory");
    b->mem = bh_cl.clCreateBuffer(dev->ctx,
                                  CL_MEM_READ_WRITE |
                                      (flags ? CL_MEM_ALLOC_HOST_PTR : 0),
                                  (size_t)bytes, NULL, &e);
    if (b->mem != NULL && flags != BHOST_MEM_DEVICE) {
        b->mq = dev->def->q;
        b->ptr = bh_cl.clEnqueueMapBuffer(b->mq, b->mem, CL_TRUE,
                                          CL_MAP_READ | CL_MAP_WRITE, 0,
                                          (size_t)bytes, 0, NULL, NULL, &e);
        if (b->ptr == NULL) {
            bh_cl.clReleaseMemObject(b->mem);
            b->mem = NULL;
        }
    }
    if (b->mem == NULL) {
        free(b);
        return bh_cl_fail(dev->h, bh_cl_status(e),
                          "alloc: %" PRIu64 " bytes (flags 0x%" PRIx32 "): %s",
                          bytes, flags, bh_cl_err_name(e));
    }
    b->magic = BH_CL_BUF_MAGIC;
    b->flags = flags;
    b->dev = dev;
    b->size = bytes;
    dev->live_bufs++;
    *out = b;
    return BHOST_OK;
}

/* Finishes every queue (the buffer may be in use), unmaps and releases
 * buf. NULL and foreign handles are ignored. [instance] */
void BHOST_ABI bh_cl_free(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_cl_check_dev(dev, "free") != BHOST_OK || buf == NULL ||
        buf->magic != BH_CL_BUF_MAGIC || buf->dev != dev)
        return;
    bh_cl_device_sync(dev);
    if (buf->ptr != NULL) {
        bh_cl.clEnqueueUnmapMemObject(buf->mq, buf->mem, buf->ptr, 0, NULL,
                                      NULL);
        bh_cl.clFinish(buf->mq);
    }
    bh_cl.clReleaseMemObject(buf->mem);
    buf->magic = 0;
    free(buf);
    dev->live_bufs--;
}

/* The mapping of a HOST_VISIBLE/PINNED buffer, else NULL. [instance] */
void *BHOST_ABI bh_cl_map(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_cl_check_dev(dev, "map") != BHOST_OK ||
        bh_cl_check_range(dev, buf, 0, 0, "map", "mapped") != BHOST_OK)
        return NULL;
    if (buf->ptr == NULL)
        bh_cl_fail(dev->h, BHOST_E_UNSUPPORTED,
                   "map: a DEVICE buffer is not mappable");
    return buf->ptr;
}
