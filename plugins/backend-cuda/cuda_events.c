// SPDX-License-Identifier: MIT
/*
 * cuda_events.c -- CUDA events, with two nvbench-style options around the
 * host's timed samples. The host records a start event, runs the sample,
 * records an end event, syncs and asks for the elapsed time; the first
 * event recorded after open() or after an elapsed_ns() is taken as a
 * sample's start.
 *
 *  - BHOST_CUDA_L2_FLUSH=1: before each start event, cudaMemsetAsync over
 *    a buffer twice the L2 size, so every sample starts with a cold L2
 *    (nvbench's default for cold measurements). Not part of the time.
 *    Only a sample's first iteration is cold: for cold figures, make each
 *    sample one iteration (a sample_time below one iteration's time, as
 *    tools/gpu/run-cuda.sh does; nvbench times each launch alone too).
 *  - BHOST_CUDA_THROTTLE=F (default 0.75; 0 turns it off): a one-thread
 *    kernel reads clock64() and %globaltimer on SM 0 before the start and
 *    after the end event; the SM clock over the sample is their ratio. A sample
 *    below F x the default clock (cudaDevAttrClockRate) is counted: the
 *    case gets the metrics cuda.throttled_samples and cuda.sm_clock_mhz_min
 *    and a warning in its log (nvbench discards such samples; bhost keeps
 *    every sample and flags them). No probe kernel (runtime < 12.0): off.
 */
#include "cuda_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Reads BHOST_CUDA_L2_FLUSH and BHOST_CUDA_THROTTLE for dev: the flush
 * buffer, the clock probe. [main] */
bhost_status bh_cu_open_extra(bhost_dev *dev)
{
    const char *flush = getenv("BHOST_CUDA_L2_FLUSH");
    const char *thr = getenv("BHOST_CUDA_THROTTLE");
    int l2 = 0, khz = 0, sms = 0;
    cudaError_t e;

    dev->threshold = thr != NULL && *thr != '\0' ? atof(thr) : 0.75;
    if (!(dev->threshold > 0 && dev->threshold < 1))
        dev->threshold = 0;
    bh_cu.DeviceGetAttribute(&khz, cudaDevAttrClockRate, (int)dev->index);
    bh_cu.DeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                             (int)dev->index);
    dev->sms = sms > 0 ? (unsigned)sms : 1u;
    dev->default_mhz = khz / 1000.0;
    if (dev->threshold > 0 &&
        (dev->default_mhz <= 0 || bh_cu_function(dev->h, "bh_clock_probe") == NULL))
        dev->threshold = 0;
    if (dev->threshold > 0) {
        e = bh_cu.Malloc((void **)&dev->probe, 4 * sizeof(unsigned long long));
        if (e != cudaSuccess)
            return bh_cu_err(dev->h, e, "cudaMalloc (clock probe)");
    }
    if (flush != NULL && strcmp(flush, "1") == 0) {
        bh_cu.DeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, (int)dev->index);
        dev->flush_bytes = 2 * (uint64_t)(l2 > 0 ? l2 : 64 << 20);
        e = bh_cu.Malloc(&dev->flush, (size_t)dev->flush_bytes);
        if (e != cudaSuccess)
            return bh_cu_err(dev->h, e, "cudaMalloc (L2 flush buffer)");
        bh_gpu_log(dev->h, BHOST_LOG_INFO,
                  "L2 flush before every sample: %d-byte L2, %llu-byte buffer",
                  l2, (unsigned long long)dev->flush_bytes);
    }
    dev->min_mhz = INFINITY;
    return BHOST_OK;
}

/* Warns of throttled samples, destroys the cuBLAS handle, frees the
 * flush buffer and the probe. [main] */
void bh_cu_close_extra(bhost_dev *dev)
{
    const bh_cublas *blas;

    if (dev->throttled != 0)
        bh_gpu_log(dev->h, BHOST_LOG_WARN,
                   "%" PRIu32 " of %" PRIu32 " samples ran below %.0f%% of "
                   "the default SM clock %.0f MHz (lowest %.0f MHz)",
                   dev->throttled, dev->samples, 100 * dev->threshold,
                   dev->default_mhz, dev->min_mhz);
    bh_cu_sci_release(dev);
    blas = dev->cublas != NULL ? bh_cu_cublas(dev->h) : NULL;
    if (blas != NULL)
        blas->Destroy(dev->cublas);
    if (dev->probe != NULL)
        bh_cu.Free(dev->probe);
    if (dev->flush != NULL)
        bh_cu.Free(dev->flush);
    dev->probe = NULL;
    dev->flush = NULL;
}

/* Launches the clock probe writing probe[slot], probe[slot + 1] from SM
 * 0: 2 x SMs one-thread blocks, so that one runs there. */
static bhost_status probe(bhost_dev *dev, cudaStream_t s, int slot)
{
    unsigned long long *out = dev->probe + slot;
    void *args[1] = {&out};
    dim3 grid = {2 * (dev->sms > 0 ? dev->sms : 1), 1, 1};
    dim3 one = {1, 1, 1};

    return bh_cu_launch_fn(dev, bh_cu_function(dev->h, "bh_clock_probe"), grid,
                        one, args, s, "clock probe");
}

/* Records e on s; a sample's start gets the L2 flush and the first probe
 * before it, its end the second probe after it. [instance] */
bhost_status BHOST_ABI bh_cu_event_record(bhost_dev *dev, bhost_stream *s,
                                          bhost_event *e)
{
    bhost_stream *t;
    cudaError_t err;
    int start;
    bhost_status st = bh_gpu_event_target(dev, s, e, &t);

    if (st != BHOST_OK)
        return st;
    start = !dev->open_pair;
    if (start && dev->flush != NULL) {
        err = bh_cu.MemsetAsync(dev->flush, (int)(dev->samples & 0xff),
                                (size_t)dev->flush_bytes, t->s);
        if (err != cudaSuccess)
            return bh_cu_err(dev->h, err, "cudaMemsetAsync (L2 flush)");
    }
    if (start && dev->threshold > 0 &&
        (bh_cu.MemsetAsync(dev->probe, 0, 4 * sizeof(unsigned long long),
                           t->s) != cudaSuccess ||
         probe(dev, t->s, 0) != BHOST_OK)) {
        bh_cu.GetLastError();
        bh_gpu_log(dev->h, BHOST_LOG_WARN, "clock probe failed: throttle "
                                           "detection off for this device");
        dev->threshold = 0;
    }
    st = bh_gpu_event_put(dev, t, e);
    if (st != BHOST_OK)
        return st;
    e->starts_pair = (uint32_t)start;
    e->probed = 0;
    if (!start && dev->threshold > 0) {
        e->probed = probe(dev, t->s, 2) == BHOST_OK;
        if (!e->probed)
            bh_cu.GetLastError();
    }
    dev->open_pair = (uint32_t)start;
    return BHOST_OK;
}

/* The SM clock over the last pair from the probes; flags a throttled
 * sample. */
static void check_clock(bhost_dev *dev)
{
    unsigned long long p[4];
    double mhz;

    if (bh_cu.Memcpy(p, dev->probe, sizeof(p), cudaMemcpyDeviceToHost) !=
            cudaSuccess ||
        p[0] == 0 || p[1] == 0 || p[3] <= p[1] || p[2] <= p[0]) {
        /* a probe found no block on SM 0: no measurement this sample */
        bh_cu.GetLastError();
        return;
    }
    mhz = (double)(p[2] - p[0]) / (double)(p[3] - p[1]) * 1000.0;
    dev->samples++;
    if (mhz < dev->min_mhz)
        dev->min_mhz = mhz;
    if (mhz < dev->threshold * dev->default_mhz) {
        if (dev->throttled++ == 0)
            bh_gpu_log(dev->h, BHOST_LOG_WARN,
                      "sample ran at %.0f MHz, below %.0f%% of the default SM "
                      "clock %.0f MHz (throttled)",
                      mhz, 100 * dev->threshold, dev->default_mhz);
    }
    bh_be_metric_info(&bh_cu_be, dev->h, "cuda.throttled_samples", "", dev->throttled);
    bh_be_metric_info(&bh_cu_be, dev->h, "cuda.sm_clock_mhz_min", "MHz", dev->min_mhz);
}

/* *ns from cudaEventElapsedTime (ms as float: about 0.5 us resolution);
 * a pair bracketed by clock probes is checked for throttling. [instance] */
bhost_status BHOST_ABI bh_cu_event_elapsed_ns(bhost_dev *dev,
                                              const bhost_event *start,
                                              const bhost_event *end,
                                              uint64_t *ns)
{
    bhost_status st = bh_gpu_event_pair(dev, start, end, ns);

    if (st != BHOST_OK)
        return st;
    dev->open_pair = 0;
    st = bh_gpu_event_ns(dev, start, end, ns);
    if (st == BHOST_OK && end->probed && start->starts_pair)
        check_clock(dev);
    return st;
}
