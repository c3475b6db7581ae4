// SPDX-License-Identifier: MIT
/*
 * bh_gpu_events.c -- the event handles of the CUDA and HIP backends and
 * the checks their event_record() and event_elapsed_ns() start with
 * (compiled into each, bh_gpu_rt.h). The backends add their own timing
 * around them (cuda_events.c: L2 flush, clock probes).
 */
#include BH_GPU_INTERNAL_H

#include <math.h>
#include <stdlib.h>

/* [instance] */
bhost_status BHOST_ABI BH_GPU(event_create)(bhost_dev *dev, bhost_event **out)
{
    bhost_event *ev;
    bh_gpu_error e;
    bhost_status st = bh_gpu_check_dev(dev, "event_create");

    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    if (st == BHOST_OK && out == NULL)
        st = bh_gpu_fail(dev->h, BHOST_E_INVALID, "event_create: NULL out");
    if (st != BHOST_OK)
        return st;
    ev = calloc(1, sizeof(*ev));
    if (ev == NULL)
        return bh_gpu_fail(dev->h, BHOST_E_NOMEM, "event_create: out of memory");
    e = bh_gpu_rt.EventCreate(&ev->ev);
    if (e != BH_GPU_SUCCESS) {
        free(ev);
        return BH_GPU(err)(dev->h, e, BH_GPU_API "EventCreate");
    }
    ev->magic = BH_GPU_EVENT_MAGIC;
    ev->dev = dev;
    *out = ev;
    return BHOST_OK;
}

/* [instance] */
void BHOST_ABI BH_GPU(event_destroy)(bhost_dev *dev, bhost_event *e)
{
    if (e == NULL || e->magic != BH_GPU_EVENT_MAGIC || e->dev != dev ||
        BH_GPU(use)(dev) != BHOST_OK)
        return;
    bh_gpu_rt.EventDestroy(e->ev);
    e->magic = 0;
    free(e);
}

bhost_status bh_gpu_event_target(bhost_dev *dev, bhost_stream *s, bhost_event *e, bhost_stream **t)
{
    bhost_status st = bh_gpu_check_dev(dev, "event_record");

    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    if (st == BHOST_OK && (e == NULL || e->magic != BH_GPU_EVENT_MAGIC || e->dev != dev))
        st = bh_gpu_fail(dev->h, BHOST_E_INVALID, "event_record: not an event of this device");
    if (st != BHOST_OK)
        return st;
    *t = bh_gpu_stream_of(dev, s, "event_record");
    return *t == NULL ? BHOST_E_INVALID : BHOST_OK;
}

bhost_status bh_gpu_event_put(bhost_dev *dev, bhost_stream *t, bhost_event *e)
{
    bh_gpu_error err = bh_gpu_rt.EventRecord(e->ev, t->s);

    if (err != BH_GPU_SUCCESS)
        return BH_GPU(err)(dev->h, err, BH_GPU_API "EventRecord");
    e->recorded = 1;
    return BHOST_OK;
}

bhost_status bh_gpu_event_pair(bhost_dev *dev, const bhost_event *start, const bhost_event *end,
                               const uint64_t *ns)
{
    bhost_status st = bh_gpu_check_dev(dev, "event_elapsed_ns");

    if (st == BHOST_OK)
        st = BH_GPU(use)(dev);
    if (st != BHOST_OK)
        return st;
    if (start == NULL || end == NULL || start->magic != BH_GPU_EVENT_MAGIC ||
        end->magic != BH_GPU_EVENT_MAGIC || start->dev != dev || end->dev != dev || ns == NULL ||
        !start->recorded || !end->recorded)
        return bh_gpu_fail(dev->h, BHOST_E_INVALID,
                           "event_elapsed_ns: events of another device or never recorded");
    return BHOST_OK;
}

bhost_status bh_gpu_event_ns(bhost_dev *dev, const bhost_event *start, const bhost_event *end,
                             uint64_t *ns)
{
    float ms = 0;
    bh_gpu_error e = bh_gpu_rt.EventElapsedTime(&ms, start->ev, end->ev);

    if (e != BH_GPU_SUCCESS)
        return BH_GPU(err)(dev->h, e, BH_GPU_API "EventElapsedTime");
    *ns = ms > 0 ? (uint64_t)llround((double)ms * 1e6) : 0;
    return BHOST_OK;
}
