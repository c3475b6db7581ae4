// SPDX-License-Identifier: MIT
/*
 * ze_events.c -- streams and events of the Level Zero backend. A stream
 * is an immediate command list (asynchronous mode) on the device's
 * compute queue group; stream_sync appends a barrier that signals the
 * stream's host-visible event and waits for it on the host. An event
 * owns a one-event pool with ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
 * event_record appends a barrier that signals it, and elapsed_ns is the
 * difference of the two barriers' global kernelEnd timestamps, masked to
 * kernelTimestampValidBits, in units of timerResolution (ns).
 */
#include "ze_internal.h"

#include <stdlib.h>
#include <string.h>

/* A host-visible pool of one event (timestamps: kernel timestamps). */
static ze_result_t one_event(bhost_dev *dev, int timestamps,
                             ze_event_pool_handle_t *pool,
                             ze_event_handle_t *ev)
{
    ze_event_pool_desc_t pd;
    ze_event_desc_t ed;
    ze_device_handle_t d = dev->phys->dev;
    ze_result_t r;

    memset(&pd, 0, sizeof(pd));
    pd.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
    pd.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
               (timestamps ? ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP : 0);
    pd.count = 1;
    r = bh_ze.zeEventPoolCreate(dev->ctx, &pd, 1, &d, pool);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    memset(&ed, 0, sizeof(ed));
    ed.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
    ed.index = 0;
    ed.signal = ZE_EVENT_SCOPE_FLAG_HOST;
    ed.wait = ZE_EVENT_SCOPE_FLAG_HOST;
    r = bh_ze.zeEventCreate(*pool, &ed, ev);
    if (r != ZE_RESULT_SUCCESS) {
        bh_ze.zeEventPoolDestroy(*pool);
        *pool = NULL;
    }
    return r;
}

bhost_status bh_ze_stream_new(bhost_dev *dev, bhost_stream **out)
{
    ze_command_queue_desc_t qd;
    bhost_stream *s = calloc(1, sizeof(*s));
    ze_result_t r;

    if (s == NULL)
        return bh_ze_fail(dev->h, BHOST_E_NOMEM, "stream_create: out of memory");
    memset(&qd, 0, sizeof(qd));
    qd.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    qd.ordinal = dev->phys->compute_ordinal;
    qd.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    qd.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
    r = bh_ze.zeCommandListCreateImmediate(dev->ctx, dev->phys->dev, &qd,
                                           &s->list);
    if (r == ZE_RESULT_SUCCESS)
        r = one_event(dev, 0, &s->pool, &s->done);
    if (r != ZE_RESULT_SUCCESS) {
        if (s->list != NULL)
            bh_ze.zeCommandListDestroy(s->list);
        free(s);
        return bh_ze_err(dev->h, r, "stream_create");
    }
    s->magic = BH_ZE_STREAM_MAGIC;
    s->dev = dev;
    for (uint32_t i = 0; i < 64; i++)
        if (dev->streams[i] == NULL) {
            dev->streams[i] = s;
            *out = s;
            return BHOST_OK;
        }
    bh_ze_stream_free(s);
    return bh_ze_fail(dev->h, BHOST_E_NOMEM, "stream_create: 64 live streams");
}

bhost_status bh_ze_ordered(bhost_stream *t)
{
    ze_result_t r = bh_ze.zeCommandListAppendBarrier(t->list, NULL, 0, NULL);

    return r == ZE_RESULT_SUCCESS ? BHOST_OK
                                  : bh_ze_err(t->dev->h, r,
                                              "zeCommandListAppendBarrier");
}

/* Waits for everything appended to t. */
static bhost_status sync_stream(bhost_stream *t)
{
    ze_result_t r = bh_ze.zeCommandListAppendBarrier(t->list, t->done, 0, NULL);

    if (r == ZE_RESULT_SUCCESS)
        r = bh_ze.zeEventHostSynchronize(t->done, UINT64_MAX);
    if (r == ZE_RESULT_SUCCESS)
        r = bh_ze.zeEventHostReset(t->done);
    return r == ZE_RESULT_SUCCESS ? BHOST_OK
                                  : bh_ze_err(t->dev->h, r, "stream_sync");
}

void bh_ze_stream_free(bhost_stream *s)
{
    sync_stream(s);
    for (uint32_t i = 0; i < 64; i++)
        if (s->dev->streams[i] == s)
            s->dev->streams[i] = NULL;
    if (s->scratch != NULL)
        bh_ze.zeMemFree(s->dev->ctx, s->scratch);
    bh_ze.zeEventDestroy(s->done);
    bh_ze.zeEventPoolDestroy(s->pool);
    bh_ze.zeCommandListDestroy(s->list);
    s->magic = 0;
    free(s);
}

/* [instance] */
bhost_status BHOST_ABI bh_ze_stream_create(bhost_dev *dev, bhost_stream **out)
{
    bhost_status st = bh_ze_check_dev(dev, "stream_create");

    if (st == BHOST_OK && out == NULL)
        st = bh_ze_fail(dev->h, BHOST_E_INVALID, "stream_create: NULL out");
    return st == BHOST_OK ? bh_ze_stream_new(dev, out) : st;
}

/* NULL, the default and foreign streams are ignored. [instance] */
void BHOST_ABI bh_ze_stream_destroy(bhost_dev *dev, bhost_stream *s)
{
    if (bh_ze_check_dev(dev, "stream_destroy") != BHOST_OK || s == NULL ||
        s->magic != BH_ZE_STREAM_MAGIC || s->dev != dev || s == dev->def)
        return;
    bh_ze_stream_free(s);
}

/* [instance] */
bhost_status BHOST_ABI bh_ze_stream_sync(bhost_dev *dev, bhost_stream *s)
{
    bhost_stream *t;
    bhost_status st = bh_ze_check_dev(dev, "stream_sync");

    if (st != BHOST_OK)
        return st;
    t = bh_ze_stream_of(dev, s, "stream_sync");
    return t == NULL ? BHOST_E_INVALID : sync_stream(t);
}

/* Syncs every stream of dev. [instance] */
bhost_status BHOST_ABI bh_ze_device_sync(bhost_dev *dev)
{
    bhost_status st = bh_ze_check_dev(dev, "device_sync");

    for (uint32_t i = 0; st == BHOST_OK && i < 64; i++)
        if (dev->streams[i] != NULL)
            st = sync_stream(dev->streams[i]);
    return st;
}

/* [instance] */
bhost_status BHOST_ABI bh_ze_event_create(bhost_dev *dev, bhost_event **out)
{
    bhost_event *e;
    ze_result_t r;
    bhost_status st = bh_ze_check_dev(dev, "event_create");

    if (st == BHOST_OK && out == NULL)
        st = bh_ze_fail(dev->h, BHOST_E_INVALID, "event_create: NULL out");
    if (st != BHOST_OK)
        return st;
    e = calloc(1, sizeof(*e));
    if (e == NULL)
        return bh_ze_fail(dev->h, BHOST_E_NOMEM, "event_create: out of memory");
    r = one_event(dev, 1, &e->pool, &e->ev);
    if (r != ZE_RESULT_SUCCESS) {
        free(e);
        return bh_ze_err(dev->h, r, "event_create");
    }
    e->magic = BH_ZE_EVENT_MAGIC;
    e->dev = dev;
    *out = e;
    return BHOST_OK;
}

/* [instance] */
void BHOST_ABI bh_ze_event_destroy(bhost_dev *dev, bhost_event *e)
{
    if (e == NULL || e->magic != BH_ZE_EVENT_MAGIC || e->dev != dev)
        return;
    if (e->recorded)
        bh_ze.zeEventHostSynchronize(e->ev, UINT64_MAX);
    bh_ze.zeEventDestroy(e->ev);
    bh_ze.zeEventPoolDestroy(e->pool);
    e->magic = 0;
    free(e);
}

/* Resets e and appends a barrier on s that signals it. [instance] */
bhost_status BHOST_ABI bh_ze_event_record(bhost_dev *dev, bhost_stream *s,
                                          bhost_event *e)
{
    bhost_stream *t;
    ze_result_t r;
    bhost_status st = bh_ze_check_dev(dev, "event_record");

    if (st == BHOST_OK &&
        (e == NULL || e->magic != BH_ZE_EVENT_MAGIC || e->dev != dev))
        st = bh_ze_fail(dev->h, BHOST_E_INVALID,
                        "event_record: not an event of this device");
    if (st != BHOST_OK)
        return st;
    t = bh_ze_stream_of(dev, s, "event_record");
    if (t == NULL)
        return BHOST_E_INVALID;
    if (e->recorded)
        bh_ze.zeEventHostSynchronize(e->ev, UINT64_MAX);
    r = bh_ze.zeEventHostReset(e->ev);
    if (r == ZE_RESULT_SUCCESS)
        r = bh_ze.zeCommandListAppendBarrier(t->list, e->ev, 0, NULL);
    if (r != ZE_RESULT_SUCCESS)
        return bh_ze_err(dev->h, r, "event_record");
    e->recorded = 1;
    return BHOST_OK;
}

/* The global kernelEnd timestamp of a signaled event. */
static bhost_status end_of(bhost_dev *dev, const bhost_event *e, uint64_t *t)
{
    ze_kernel_timestamp_result_t ts;
    ze_result_t r = bh_ze.zeEventHostSynchronize(e->ev, UINT64_MAX);

    if (r == ZE_RESULT_SUCCESS)
        r = bh_ze.zeEventQueryKernelTimestamp(e->ev, &ts);
    if (r != ZE_RESULT_SUCCESS)
        return bh_ze_err(dev->h, r, "zeEventQueryKernelTimestamp");
    *t = ts.global.kernelEnd;
    return BHOST_OK;
}

/* [instance] */
bhost_status BHOST_ABI bh_ze_event_elapsed_ns(bhost_dev *dev,
                                              const bhost_event *start,
                                              const bhost_event *end,
                                              uint64_t *ns)
{
    uint64_t t0 = 0, t1 = 0, mask;
    uint32_t bits;
    bhost_status st = bh_ze_check_dev(dev, "event_elapsed_ns");

    if (st != BHOST_OK)
        return st;
    if (start == NULL || end == NULL || start->magic != BH_ZE_EVENT_MAGIC ||
        end->magic != BH_ZE_EVENT_MAGIC || start->dev != dev ||
        end->dev != dev || ns == NULL || !start->recorded || !end->recorded)
        return bh_ze_fail(dev->h, BHOST_E_INVALID,
                          "event_elapsed_ns: events of another device or "
                          "never recorded");
    st = end_of(dev, start, &t0);
    if (st == BHOST_OK)
        st = end_of(dev, end, &t1);
    if (st != BHOST_OK)
        return st;
    bits = dev->phys->props.kernelTimestampValidBits;
    mask = bits == 0 || bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    *ns = ((t1 - t0) & mask) * (dev->phys->props.timerResolution > 0
                                    ? dev->phys->props.timerResolution
                                    : 1);
    return BHOST_OK;
}
