// SPDX-License-Identifier: MIT
/*
 * cl_stream.c -- streams are in-order command queues with profiling;
 * events are markers (clEnqueueMarkerWithWaitList) whose
 * CL_PROFILING_COMMAND_END is when all earlier commands of the queue were
 * done. elapsed = END(end) - END(start).
 */
#include "cl_internal.h"

#include <stdlib.h>

bhost_status bh_cl_stream_new(bhost_dev *dev, bhost_stream **out)
{
    bhost_stream *s;
    uint32_t slot = 0;
    cl_int e = CL_SUCCESS;

    while (slot < BH_CL_MAX_STREAMS && dev->streams[slot] != NULL)
        slot++;
    if (slot == BH_CL_MAX_STREAMS)
        return bh_cl_fail(dev->h, BHOST_E_NOMEM,
                          "stream_create: more than %u live streams",
                          BH_CL_MAX_STREAMS);
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return bh_cl_fail(dev->h, BHOST_E_NOMEM, "stream_create: out of memory");
    s->q = bh_cl.clCreateCommandQueue(dev->ctx, dev->phys->id,
                                      CL_QUEUE_PROFILING_ENABLE, &e);
    if (s->q == NULL) {
        free(s);
        return bh_cl_fail(dev->h, bh_cl_status(e),
                          "clCreateCommandQueue: %s", bh_cl_err_name(e));
    }
    s->magic = BH_CL_STREAM_MAGIC;
    s->dev = dev;
    dev->streams[slot] = s;
    *out = s;
    return BHOST_OK;
}

void bh_cl_stream_free(bhost_dev *dev, bhost_stream *s)
{
    bh_cl.clFinish(s->q);
    for (uint32_t i = 0; i < BH_CL_MAX_STREAMS; i++)
        if (dev->streams[i] == s)
            dev->streams[i] = NULL;
    if (s->scratch != NULL)
        bh_cl.clReleaseMemObject(s->scratch);
    bh_cl.clReleaseCommandQueue(s->q);
    s->magic = 0;
    free(s);
}

/* A new queue of dev; freed by stream_destroy(). [instance] */
bhost_status BHOST_ABI bh_cl_stream_create(bhost_dev *dev, bhost_stream **out)
{
    bhost_status st = bh_cl_check_dev(dev, "stream_create");

    if (st != BHOST_OK)
        return st;
    if (out == NULL)
        return bh_cl_fail(dev->h, BHOST_E_INVALID, "stream_create: NULL out");
    return bh_cl_stream_new(dev, out);
}

/* Finishes and frees s; NULL, the default and foreign streams are
 * ignored. [instance] */
void BHOST_ABI bh_cl_stream_destroy(bhost_dev *dev, bhost_stream *s)
{
    if (bh_cl_check_dev(dev, "stream_destroy") != BHOST_OK || s == NULL ||
        s->magic != BH_CL_STREAM_MAGIC || s->dev != dev || s == dev->def)
        return;
    bh_cl_stream_free(dev, s);
}

/* clFinish of the stream's queue. [instance] */
bhost_status BHOST_ABI bh_cl_stream_sync(bhost_dev *dev, bhost_stream *s)
{
    bhost_stream *t;
    cl_int e;
    bhost_status st = bh_cl_check_dev(dev, "stream_sync");

    if (st != BHOST_OK)
        return st;
    t = bh_cl_stream_of(dev, s, "stream_sync");
    if (t == NULL)
        return BHOST_E_INVALID;
    e = bh_cl.clFinish(t->q);
    return e == CL_SUCCESS ? BHOST_OK
                           : bh_cl_fail(dev->h, bh_cl_status(e),
                                        "stream_sync: clFinish: %s",
                                        bh_cl_err_name(e));
}

/* clFinish of every queue of dev. [instance] */
bhost_status BHOST_ABI bh_cl_device_sync(bhost_dev *dev)
{
    bhost_status st = bh_cl_check_dev(dev, "device_sync");

    for (uint32_t i = 0; st == BHOST_OK && i < BH_CL_MAX_STREAMS; i++)
        if (dev->streams[i] != NULL)
            st = bh_cl_stream_sync(dev, dev->streams[i]);
    return st;
}

/* An unrecorded event. [instance] */
bhost_status BHOST_ABI bh_cl_event_create(bhost_dev *dev, bhost_event **out)
{
    bhost_event *e;
    bhost_status st = bh_cl_check_dev(dev, "event_create");

    if (st != BHOST_OK)
        return st;
    if (out == NULL)
        return bh_cl_fail(dev->h, BHOST_E_INVALID, "event_create: NULL out");
    e = calloc(1, sizeof(*e));
    if (e == NULL)
        return bh_cl_fail(dev->h, BHOST_E_NOMEM, "event_create: out of memory");
    e->magic = BH_CL_EVENT_MAGIC;
    e->dev = dev;
    *out = e;
    return BHOST_OK;
}

/* Releases e's marker and frees it. [instance] */
void BHOST_ABI bh_cl_event_destroy(bhost_dev *dev, bhost_event *e)
{
    if (e == NULL || e->magic != BH_CL_EVENT_MAGIC || e->dev != dev)
        return;
    if (e->ev != NULL)
        bh_cl.clReleaseEvent(e->ev);
    e->magic = 0;
    free(e);
}

/* Enqueues a marker on s (replacing an earlier recording). [instance] */
bhost_status BHOST_ABI bh_cl_event_record(bhost_dev *dev, bhost_stream *s,
                                          bhost_event *e)
{
    bhost_stream *t;
    cl_int err;
    bhost_status st = bh_cl_check_dev(dev, "event_record");

    if (st == BHOST_OK)
        st = bh_cl_check_event(dev, e, "event_record", "event");
    if (st != BHOST_OK)
        return st;
    t = bh_cl_stream_of(dev, s, "event_record");
    if (t == NULL)
        return BHOST_E_INVALID;
    if (e->ev != NULL) {
        bh_cl.clReleaseEvent(e->ev);
        e->ev = NULL;
        e->recorded = 0;
    }
    err = bh_cl.clEnqueueMarkerWithWaitList(t->q, 0, NULL, &e->ev);
    if (err != CL_SUCCESS)
        return bh_cl_fail(dev->h, bh_cl_status(err),
                          "event_record: clEnqueueMarkerWithWaitList: %s",
                          bh_cl_err_name(err));
    e->recorded = 1;
    return BHOST_OK;
}

/* CL_PROFILING_COMMAND_END of a recorded event (waits for it). */
static bhost_status end_of(bhost_dev *dev, const bhost_event *e, cl_ulong *t)
{
    cl_int err = bh_cl.clWaitForEvents(1, &e->ev);

    if (err == CL_SUCCESS)
        err = bh_cl.clGetEventProfilingInfo(e->ev, CL_PROFILING_COMMAND_END,
                                            sizeof(*t), t, NULL);
    return err == CL_SUCCESS
               ? BHOST_OK
               : bh_cl_fail(dev->h, bh_cl_status(err),
                            "event_elapsed_ns: profiling info: %s",
                            bh_cl_err_name(err));
}

/* *ns = END(end) - END(start). [instance] */
bhost_status BHOST_ABI bh_cl_event_elapsed_ns(bhost_dev *dev,
                                              const bhost_event *start,
                                              const bhost_event *end,
                                              uint64_t *ns)
{
    cl_ulong t0 = 0, t1 = 0;
    bhost_status st = bh_cl_check_dev(dev, "event_elapsed_ns");

    if (st == BHOST_OK)
        st = bh_cl_check_event(dev, start, "event_elapsed_ns", "start");
    if (st == BHOST_OK)
        st = bh_cl_check_event(dev, end, "event_elapsed_ns", "end");
    if (st != BHOST_OK)
        return st;
    if (ns == NULL || !start->recorded || !end->recorded)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "event_elapsed_ns: NULL ns or event never recorded");
    st = end_of(dev, start, &t0);
    if (st == BHOST_OK)
        st = end_of(dev, end, &t1);
    if (st != BHOST_OK)
        return st;
    if (t1 < t0)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "event_elapsed_ns: end completed before start");
    *ns = (uint64_t)(t1 - t0);
    return BHOST_OK;
}
