// SPDX-License-Identifier: MIT
/*
 * vk_events.c -- events as timestamp queries: each event owns a query pool
 * of one timestamp, written with vkCmdWriteTimestamp at BOTTOM_OF_PIPE
 * (after every earlier command of the stream has completed, thanks to the
 * stream's barriers). elapsed = (t1 - t0) masked to timestampValidBits,
 * times timestampPeriod. A queue without timestamps falls back to the host
 * clock read after a stream sync (correct, but it serializes).
 */
#include "vk_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Creates an unrecorded event with its query pool. [instance] */
bhost_status BHOST_ABI bh_vk_event_create(bhost_dev *dev, bhost_event **out)
{
    VkQueryPoolCreateInfo qi;
    bhost_event *e;
    VkResult r;
    bhost_status st = bh_vk_check_dev(dev, "event_create");

    if (st != BHOST_OK)
        return st;
    if (out == NULL)
        return bh_vk_fail(dev->h, BHOST_E_INVALID, "event_create: NULL out");
    e = calloc(1, sizeof(*e));
    if (e == NULL)
        return bh_vk_fail(dev->h, BHOST_E_NOMEM, "event_create: out of memory");
    if (dev->phys->timestamp_bits != 0) {
        memset(&qi, 0, sizeof(qi));
        qi.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = 1;
        r = bh_vk.vkCreateQueryPool(dev->dev, &qi, NULL, &e->pool);
        if (r != VK_SUCCESS) {
            free(e);
            return bh_vk_fail(dev->h, bh_vk_status(r),
                              "event_create: vkCreateQueryPool: %s",
                              bh_vk_result_name(r));
        }
    }
    e->magic = BH_VK_EVENT_MAGIC;
    e->dev = dev;
    *out = e;
    return BHOST_OK;
}

/* Frees e (the device must be done with it: the host syncs before).
 * NULL and foreign handles are ignored. [instance] */
void BHOST_ABI bh_vk_event_destroy(bhost_dev *dev, bhost_event *e)
{
    if (e == NULL || e->magic != BH_VK_EVENT_MAGIC || e->dev != dev)
        return;
    if (e->recorded && e->stream != NULL &&
        e->stream->magic == BH_VK_STREAM_MAGIC)
        bh_vk_sync(e->stream);
    if (e->pool != VK_NULL_HANDLE)
        bh_vk.vkDestroyQueryPool(dev->dev, e->pool, NULL);
    e->magic = 0;
    free(e);
}

/* Records a timestamp write into s after all earlier work of s.
 * [instance] */
bhost_status BHOST_ABI bh_vk_event_record(bhost_dev *dev, bhost_stream *s,
                                          bhost_event *e)
{
    bhost_stream *t;
    VkCommandBuffer cb;
    bhost_status st = bh_vk_check_dev(dev, "event_record");

    if (st == BHOST_OK)
        st = bh_vk_check_event(dev, e, "event_record", "event");
    if (st != BHOST_OK)
        return st;
    t = bh_vk_stream_of(dev, s, "event_record");
    if (t == NULL)
        return BHOST_E_INVALID;
    e->stream = t;
    if (e->pool == VK_NULL_HANDLE) {
        st = bh_vk_sync(t);
        e->ns = bh_be_now_ns(); /* the no-timestamp fallback */
        e->recorded = st == BHOST_OK;
        return st;
    }
    cb = bh_vk_record(t);
    if (cb == VK_NULL_HANDLE)
        return BHOST_E_DEVICE;
    bh_vk.vkCmdResetQueryPool(cb, e->pool, 0, 1);
    bh_vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                              e->pool, 0);
    e->recorded = 1;
    return BHOST_OK;
}

/* The raw timestamp of a recorded event (its stream synced first, so the
 * wait below cannot block on an unsubmitted batch). */
static bhost_status read_stamp(bhost_dev *dev, const bhost_event *e,
                               uint64_t *v)
{
    VkResult r;
    bhost_status st = bh_vk_sync(e->stream);

    if (st != BHOST_OK)
        return st;
    r = bh_vk.vkGetQueryPoolResults(dev->dev, e->pool, 0, 1, sizeof(*v), v,
                                    sizeof(*v),
                                    VK_QUERY_RESULT_64_BIT |
                                        VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS)
        return bh_vk_fail(dev->h, bh_vk_status(r),
                          "event_elapsed_ns: vkGetQueryPoolResults: %s",
                          bh_vk_result_name(r));
    return BHOST_OK;
}

/* *ns = end - start in nanoseconds. [instance] */
bhost_status BHOST_ABI bh_vk_event_elapsed_ns(bhost_dev *dev,
                                              const bhost_event *start,
                                              const bhost_event *end,
                                              uint64_t *ns)
{
    uint64_t t0 = 0, t1 = 0, mask;
    uint32_t bits;
    bhost_status st = bh_vk_check_dev(dev, "event_elapsed_ns");

    if (st == BHOST_OK)
        st = bh_vk_check_event(dev, start, "event_elapsed_ns", "start");
    if (st == BHOST_OK)
        st = bh_vk_check_event(dev, end, "event_elapsed_ns", "end");
    if (st != BHOST_OK)
        return st;
    if (ns == NULL || !start->recorded || !end->recorded)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "event_elapsed_ns: NULL ns or event never recorded");
    if (start->pool == VK_NULL_HANDLE) {
        if (end->ns < start->ns)
            return bh_vk_fail(dev->h, BHOST_E_INVALID,
                              "event_elapsed_ns: end recorded before start");
        *ns = end->ns - start->ns;
        return BHOST_OK;
    }
    st = read_stamp(dev, start, &t0);
    if (st == BHOST_OK)
        st = read_stamp(dev, end, &t1);
    if (st != BHOST_OK)
        return st;
    bits = dev->phys->timestamp_bits;
    mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    *ns = (uint64_t)llround((double)((t1 - t0) & mask) *
                            (double)dev->phys->props.limits.timestampPeriod);
    return BHOST_OK;
}
