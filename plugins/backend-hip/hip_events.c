// SPDX-License-Identifier: MIT
/*
 * hip_events.c -- HIP events: hipEventRecord on the stream,
 * hipEventElapsedTime (milliseconds as float, about 1 us resolution). The
 * handles and checks are the shared ones (plugins/common/bh_gpu_events.c).
 */
#include "hip_internal.h"

/* hipEventRecord on the stream named by s. [instance] */
bhost_status BHOST_ABI bh_hip_event_record(bhost_dev *dev, bhost_stream *s,
                                           bhost_event *e)
{
    bhost_stream *t;
    bhost_status st = bh_gpu_event_target(dev, s, e, &t);

    return st == BHOST_OK ? bh_gpu_event_put(dev, t, e) : st;
}

/* [instance] */
bhost_status BHOST_ABI bh_hip_event_elapsed_ns(bhost_dev *dev,
                                               const bhost_event *start,
                                               const bhost_event *end,
                                               uint64_t *ns)
{
    bhost_status st = bh_gpu_event_pair(dev, start, end, ns);

    return st == BHOST_OK ? bh_gpu_event_ns(dev, start, end, ns) : st;
}
