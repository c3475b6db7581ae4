// SPDX-License-Identifier: MIT
/*
 * hip_events.c -- HIP events: hipEventRecord on the stream,
 * hipEventElapsedTime (milliseconds as float, about 1 us resolution).
 */
#include "hip_internal.h"

#include <math.h>
#include <stdlib.h>

/* [instance] */
bhost_status BHOST_ABI bh_hip_event_create(bhost_dev *dev, bhost_event **out)
{
    bhost_event *ev;
    hipError_t e;
    bhost_status st = bh_hip_check_dev(dev, "event_create");

    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st == BHOST_OK && out == NULL)
        st = bh_hip_fail(dev->h, BHOST_E_INVALID, "event_create: NULL out");
    if (st != BHOST_OK)
        return st;
    ev = calloc(1, sizeof(*ev));
    if (ev == NULL)
        return bh_hip_fail(dev->h, BHOST_E_NOMEM, "event_create: out of memory");
    e = bh_hip.EventCreate(&ev->ev);
    if (e != hipSuccess) {
        free(ev);
        return bh_hip_err(dev->h, e, "hipEventCreate");
    }
    ev->magic = BH_HIP_EVENT_MAGIC;
    ev->dev = dev;
    *out = ev;
    return BHOST_OK;
}

/* [instance] */
void BHOST_ABI bh_hip_event_destroy(bhost_dev *dev, bhost_event *e)
{
    if (e == NULL || e->magic != BH_HIP_EVENT_MAGIC || e->dev != dev ||
        bh_hip_use(dev) != BHOST_OK)
        return;
    bh_hip.EventDestroy(e->ev);
    e->magic = 0;
    free(e);
}

/* hipEventRecord on the stream named by s. [instance] */
bhost_status BHOST_ABI bh_hip_event_record(bhost_dev *dev, bhost_stream *s,
                                           bhost_event *e)
{
    bhost_stream *t;
    hipError_t err;
    bhost_status st = bh_hip_check_dev(dev, "event_record");

    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st == BHOST_OK &&
        (e == NULL || e->magic != BH_HIP_EVENT_MAGIC || e->dev != dev))
        st = bh_hip_fail(dev->h, BHOST_E_INVALID,
                         "event_record: not an event of this device");
    if (st != BHOST_OK)
        return st;
    t = bh_hip_stream_of(dev, s, "event_record");
    if (t == NULL)
        return BHOST_E_INVALID;
    err = bh_hip.EventRecord(e->ev, t->s);
    if (err != hipSuccess)
        return bh_hip_err(dev->h, err, "hipEventRecord");
    e->recorded = 1;
    return BHOST_OK;
}

/* [instance] */
bhost_status BHOST_ABI bh_hip_event_elapsed_ns(bhost_dev *dev,
                                               const bhost_event *start,
                                               const bhost_event *end,
                                               uint64_t *ns)
{
    float ms = 0;
    hipError_t e;
    bhost_status st = bh_hip_check_dev(dev, "event_elapsed_ns");

    if (st == BHOST_OK)
        st = bh_hip_use(dev);
    if (st != BHOST_OK)
        return st;
    if (start == NULL || end == NULL || start->magic != BH_HIP_EVENT_MAGIC ||
        end->magic != BH_HIP_EVENT_MAGIC || start->dev != dev ||
        end->dev != dev || ns == NULL || !start->recorded || !end->recorded)
        return bh_hip_fail(dev->h, BHOST_E_INVALID,
                           "event_elapsed_ns: events of another device or "
                           "never recorded");
    e = bh_hip.EventElapsedTime(&ms, start->ev, end->ev);
    if (e != hipSuccess)
        return bh_hip_err(dev->h, e, "hipEventElapsedTime");
    *ns = ms > 0 ? (uint64_t)llround((double)ms * 1e6) : 0;
    return BHOST_OK;
}
