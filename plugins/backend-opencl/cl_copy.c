// SPDX-License-Identifier: MIT
/*
 * cl_copy.c -- copies ordered on a stream's in-order queue. Plain host
 * memory: non-blocking clEnqueueWrite/ReadBuffer (the host memory must
 * stay valid until stream_sync, as the ABI allows). A HOST_VISIBLE or
 * PINNED buffer is host memory for the copies: device <-> mapped buffer
 * copies read or write its mapping (the pinned path); a copy whose both
 * ends are host memory finishes the queue and uses memcpy.
 */
#include "cl_internal.h"

#include <string.h>

/* Common checks; the stream to use in *t. */
static bhost_status check_copy(bhost_dev *dev, bhost_stream *s,
                               const char *op, bhost_stream **t)
{
    bhost_status st = bh_cl_check_dev(dev, op);

    if (st != BHOST_OK)
        return st;
    *t = bh_cl_stream_of(dev, s, op);
    return *t == NULL ? BHOST_E_INVALID : BHOST_OK;
}

/* Finishes the queue of t (so that host memcpy sees completed work). */
static bhost_status finish(bhost_stream *t, const char *op)
{
    cl_int e = bh_cl.clFinish(t->q);

    return e == CL_SUCCESS ? BHOST_OK
                           : bh_cl_fail(t->dev->h, bh_cl_status(e),
                                        "%s: clFinish: %s", op,
                                        bh_cl_err_name(e));
}

/* Turns an enqueue result into a status. */
static bhost_status enqueued(bhost_stream *t, cl_int e, const char *op,
                             const char *call)
{
    return e == CL_SUCCESS ? BHOST_OK
                           : bh_cl_fail(t->dev->h, bh_cl_status(e),
                                        "%s: %s: %s", op, call,
                                        bh_cl_err_name(e));
}

/* Copies n bytes of host src into dst at dst_off. [instance] */
bhost_status BHOST_ABI bh_cl_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n)
{
    bhost_stream *t;
    bhost_status st = check_copy(dev, s, "copy_h2d", &t);

    if (st == BHOST_OK)
        st = bh_cl_check_range(dev, dst, dst_off, n, "copy_h2d", "dst");
    if (st == BHOST_OK && src == NULL && n != 0)
        st = bh_cl_fail(dev->h, BHOST_E_INVALID, "copy_h2d: NULL src");
    if (st != BHOST_OK || n == 0)
        return st;
    if (dst->ptr != NULL) {
        st = finish(t, "copy_h2d");
        if (st == BHOST_OK)
            memmove(dst->ptr + dst_off, src, (size_t)n);
        return st;
    }
    return enqueued(t,
                    bh_cl.clEnqueueWriteBuffer(t->q, dst->mem, CL_FALSE,
                                               (size_t)dst_off, (size_t)n, src,
                                               0, NULL, NULL),
                    "copy_h2d", "clEnqueueWriteBuffer");
}

/* Copies n bytes of src at src_off into host dst; complete after
 * stream_sync. [instance] */
bhost_status BHOST_ABI bh_cl_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n)
{
    bhost_stream *t;
    bhost_status st = check_copy(dev, s, "copy_d2h", &t);

    if (st == BHOST_OK)
        st = bh_cl_check_range(dev, src, src_off, n, "copy_d2h", "src");
    if (st == BHOST_OK && dst == NULL && n != 0)
        st = bh_cl_fail(dev->h, BHOST_E_INVALID, "copy_d2h: NULL dst");
    if (st != BHOST_OK || n == 0)
        return st;
    if (src->ptr != NULL) {
        st = finish(t, "copy_d2h");
        if (st == BHOST_OK)
            memmove(dst, src->ptr + src_off, (size_t)n);
        return st;
    }
    return enqueued(t,
                    bh_cl.clEnqueueReadBuffer(t->q, src->mem, CL_FALSE,
                                              (size_t)src_off, (size_t)n, dst,
                                              0, NULL, NULL),
                    "copy_d2h", "clEnqueueReadBuffer");
}

/* Device-to-device copy of overlapping ranges of one buffer, through a
 * temporary buffer (OpenCL refuses overlapping copies). */
static bhost_status copy_overlap(bhost_stream *t, bhost_buf *b,
                                 uint64_t dst_off, uint64_t src_off,
                                 uint64_t n)
{
    cl_int e = CL_SUCCESS;
    cl_mem tmp = bh_cl.clCreateBuffer(t->dev->ctx, CL_MEM_READ_WRITE,
                                      (size_t)n, NULL, &e);

    if (tmp == NULL)
        return enqueued(t, e, "copy_d2d", "clCreateBuffer");
    e = bh_cl.clEnqueueCopyBuffer(t->q, b->mem, tmp, (size_t)src_off, 0,
                                  (size_t)n, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        e = bh_cl.clEnqueueCopyBuffer(t->q, tmp, b->mem, 0, (size_t)dst_off,
                                      (size_t)n, 0, NULL, NULL);
    bh_cl.clReleaseMemObject(tmp); /* freed once the copies are done */
    return enqueued(t, e, "copy_d2d", "clEnqueueCopyBuffer");
}

/* Copies n bytes between buffers of dev. [instance] */
bhost_status BHOST_ABI bh_cl_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n)
{
    bhost_stream *t;
    bhost_status st = check_copy(dev, s, "copy_d2d", &t);

    if (st == BHOST_OK)
        st = bh_cl_check_range(dev, dst, dst_off, n, "copy_d2d", "dst");
    if (st == BHOST_OK)
        st = bh_cl_check_range(dev, src, src_off, n, "copy_d2d", "src");
    if (st != BHOST_OK || n == 0)
        return st;
    if (src->ptr != NULL && dst->ptr != NULL) {
        st = finish(t, "copy_d2d");
        if (st == BHOST_OK)
            memmove(dst->ptr + dst_off, src->ptr + src_off, (size_t)n);
        return st;
    }
    if (src->ptr != NULL)
        return bh_cl_copy_h2d(dev, t, dst, dst_off, src->ptr + src_off, n);
    if (dst->ptr != NULL)
        return bh_cl_copy_d2h(dev, t, dst->ptr + dst_off, src, src_off, n);
    if (dst == src && dst_off < src_off + n && src_off < dst_off + n)
        return copy_overlap(t, dst, dst_off, src_off, n);
    return enqueued(t,
                    bh_cl.clEnqueueCopyBuffer(t->q, src->mem, dst->mem,
                                              (size_t)src_off,
                                              (size_t)dst_off, (size_t)n, 0,
                                              NULL, NULL),
                    "copy_d2d", "clEnqueueCopyBuffer");
}
