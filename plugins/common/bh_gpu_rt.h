// SPDX-License-Identifier: MIT
/*
 * bh_gpu_rt.h -- the C the CUDA and HIP backends share: their runtimes
 * (cudart, libamdhip64) have the same shape under other names, so the
 * plugin entry and backend table (bh_gpu_entry.c), open/close, memory,
 * copies and streams (bh_gpu_device.c), events (bh_gpu_events.c) and the
 * axpy/reduce launches (bh_gpu_kernels.c) are one source, compiled once
 * into each backend. Nothing here is linked on its own.
 *
 * A backend's internal header defines, before including this one:
 *
 *   BH_GPU(name)        its function prefix: bh_cu_##name, bh_hip_##name
 *   bh_gpu_rt           its runtime table (resolved by name), with the
 *                       members used below under the CUDA names (Malloc,
 *                       HostAlloc, FreeHost, MemcpyAsync, EventRecord ...)
 *   bh_gpu_error        the runtime's error type; BH_GPU_SUCCESS its 0
 *   bh_gpu_stream_t, bh_gpu_event_t   the runtime's handle types
 *   BH_GPU_API          the runtime's name prefix in messages ("cuda")
 *   BH_GPU_HOST_ALLOC_NAME  the pinned allocator's name in messages
 *   BH_GPU_HOST_PORTABLE, BH_GPU_HOST_MAPPED, BH_GPU_MEMCPY_DEFAULT,
 *   BH_GPU_STREAM_NON_BLOCKING, BH_GPU_E_NOMEM   runtime constants
 *   BH_GPU_*_MAGIC      the four handle magics
 *
 * and its own struct bhost_event (starting as bh_gpu_event_head's fields)
 * and struct bhost_dev (starting magic, index, h, def, live_bufs). The
 * shared sources include it through BH_GPU_INTERNAL_H, a -D of the build.
 */
#ifndef BH_GPU_RT_H
#define BH_GPU_RT_H

#include <bhost/plugin.h>

#include <bhost/backend_helper.h>

#include <stdint.h>

#define BH_GPU_MAX_DEVICES   64u   /* devices counted at most */
#define BH_GPU_REDUCE_GROUPS 1024u /* most blocks of a reduce's first pass */

struct bhost_dev;

struct bhost_buf {
    uint32_t magic;
    uint32_t flags;
    struct bhost_dev *dev;
    uint64_t size;
    void *ptr; /* device pointer, or host pointer for PINNED/HOST_VISIBLE */
};

struct bhost_stream {
    uint32_t magic;
    uint32_t reserved;
    struct bhost_dev *dev;
    bh_gpu_stream_t s;
    void *scratch; /* reduce partials */
};

/* The backend for the shared code (bhost/backend_helper.h): messages start
 * "backend-cuda: " / "backend-hip: ", handles are checked against its
 * magics. Defined in bh_gpu_entry.c. */
extern bh_be BH_GPU(be);
#define bh_gpu_fail(h, st, ...)   bh_be_fail(&BH_GPU(be), h, st, __VA_ARGS__)
#define bh_gpu_log(h, level, ...) bh_be_log(&BH_GPU(be), h, level, __VA_ARGS__)
#define bh_gpu_check_dev(dev, op) bh_be_check_dev(&BH_GPU(be), dev, op)
#define bh_gpu_check_range(dev, buf, off, n, op, what)                                             \
    bh_be_check_range(&BH_GPU(be), dev, buf, off, n, op, what)

/* s, or dev->def for NULL; NULL after set_error for a foreign stream. */
#define bh_gpu_stream_of(dev, s, op) bh_be_stream_of(&BH_GPU(be), dev, (dev)->def, s, op)

/* ---- bh_gpu_entry.c -------------------------------------------------------- */

/* Status for a runtime error, after set_error(h) naming call, the error's
 * name, number and text: BHOST_E_NOMEM for BH_GPU_E_NOMEM, else
 * BHOST_E_DEVICE. Clears the runtime's last error. [any-thread] */
bhost_status BH_GPU(err)(bhost_host *h, bh_gpu_error e, const char *call);

/* Makes dev current (cudaSetDevice, hipSetDevice); the runtime's error as
 * BH_GPU(err) gives it. [instance] */
bhost_status BH_GPU(use)(bhost_dev *dev);

/* ---- bh_gpu_device.c (table entries; contracts in plugin-api/README.md) -- */

bhost_status BHOST_ABI BH_GPU(open)(uint32_t index, bhost_host *h, bhost_dev **out);
void BHOST_ABI BH_GPU(close)(bhost_dev *dev);
bhost_status BHOST_ABI BH_GPU(alloc)(bhost_dev *dev, uint64_t bytes, uint32_t flags,
                                     bhost_buf **out);
void BHOST_ABI BH_GPU(free)(bhost_dev *dev, bhost_buf *buf);
void *BHOST_ABI BH_GPU(map)(bhost_dev *dev, bhost_buf *buf);
bhost_status BHOST_ABI BH_GPU(copy_h2d)(bhost_dev *dev, bhost_stream *s, bhost_buf *dst,
                                        uint64_t dst_off, const void *src, uint64_t n);
bhost_status BHOST_ABI BH_GPU(copy_d2h)(bhost_dev *dev, bhost_stream *s, void *dst,
                                        const bhost_buf *src, uint64_t src_off, uint64_t n);
bhost_status BHOST_ABI BH_GPU(copy_d2d)(bhost_dev *dev, bhost_stream *s, bhost_buf *dst,
                                        uint64_t dst_off, const bhost_buf *src, uint64_t src_off,
                                        uint64_t n);
bhost_status BHOST_ABI BH_GPU(stream_create)(bhost_dev *dev, bhost_stream **out);
void BHOST_ABI BH_GPU(stream_destroy)(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI BH_GPU(stream_sync)(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI BH_GPU(device_sync)(bhost_dev *dev);

/* ---- bh_gpu_events.c ------------------------------------------------------ */

bhost_status BHOST_ABI BH_GPU(event_create)(bhost_dev *dev, bhost_event **out);
void BHOST_ABI BH_GPU(event_destroy)(bhost_dev *dev, bhost_event *e);

/* The checks event_record() starts with: dev, current, e an event of dev;
 * the stream s names in *t. The status after set_error otherwise.
 * [instance] */
bhost_status bh_gpu_event_target(bhost_dev *dev, bhost_stream *s, bhost_event *e, bhost_stream **t);

/* Records e on t (the runtime's error otherwise) and marks it recorded.
 * [instance] */
bhost_status bh_gpu_event_put(bhost_dev *dev, bhost_stream *t, bhost_event *e);

/* The checks event_elapsed_ns() starts with: dev, current, both events of
 * dev and recorded, ns not NULL. The status after set_error otherwise.
 * [instance] */
bhost_status bh_gpu_event_pair(bhost_dev *dev, const bhost_event *start, const bhost_event *end,
                               const uint64_t *ns);

/* *ns from the runtime's elapsed time between two checked events
 * (milliseconds as float, rounded to ns; 0 when not positive); the
 * runtime's error otherwise. [instance] */
bhost_status bh_gpu_event_ns(bhost_dev *dev, const bhost_event *start, const bhost_event *end,
                             uint64_t *ns);

/* ---- bh_gpu_kernels.c ----------------------------------------------------- */

/* The kernels of kernels.cu / kernels.hip (same names, same signatures). */
typedef enum bh_gpu_fn {
    BH_GPU_AXPY_F32,
    BH_GPU_AXPY_F64,
    BH_GPU_REDUCE_F32,
    BH_GPU_REDUCE_F64,
    BH_GPU_GEMM_F32,
    BH_GPU_GEMM_F64,
    BH_GPU_FUNCTIONS
} bh_gpu_fn;

/* The kernel names in bh_gpu_fn order ("bh_axpy_f32", ...). */
extern const char *const bh_gpu_fn_names[BH_GPU_FUNCTIONS];

/* The kernel and extension tables (gemm, axpy, reduce, build_stats,
 * device_index) for the backend's get_kernel. */
extern const bh_be_tables BH_GPU(tables);

/* ---- provided by each backend --------------------------------------------- */

/* The loader (bh_be's load, load_error, count, describe) and get_kernel's
 * lookup; see bhost/backend_helper.h. */
bhost_status BH_GPU(load)(void);
const char *BH_GPU(load_error)(void);
uint32_t BH_GPU(count)(void);
void BH_GPU(describe)(uint32_t index, bhost_device_info *info);
const void *BH_GPU(kernel)(bhost_dev *dev, const char *id);

/* The event_record and event_elapsed_ns table entries: the shared checks
 * (bh_gpu_event_target, bh_gpu_event_pair) and bh_gpu_event_put /
 * bh_gpu_event_ns, with the backend's own timing around them.
 * [instance] */
bhost_status BHOST_ABI BH_GPU(event_record)(bhost_dev *dev, bhost_stream *s, bhost_event *e);
bhost_status BHOST_ABI BH_GPU(event_elapsed_ns)(bhost_dev *dev, const bhost_event *start,
                                                const bhost_event *end, uint64_t *ns);

/* What open() does for the backend once the device is current and has its
 * default stream; a failure closes it again. [main] */
bhost_status BH_GPU(open_extra)(bhost_dev *dev);

/* What close() releases for the backend before the default stream, after
 * the device is synchronized. [main] */
void BH_GPU(close_extra)(bhost_dev *dev);

/* The checks a kernel call starts with (dev, current, arguments, stream
 * in *t); the status after set_error otherwise. [instance] */
bhost_status BH_GPU(check_call)(bhost_dev *dev, bhost_stream *s, const void *args, const char *op,
                                bhost_stream **t);

/* Launches kernel fn on grid gx x gy of bx x by blocks with args on s. A
 * kernel that is not there or a launch error: the status after set_error.
 * [instance] */
bhost_status BH_GPU(launch)(bhost_dev *dev, bh_gpu_fn fn, unsigned gx, unsigned gy, unsigned bx,
                            unsigned by, void **args, bh_gpu_stream_t s, const char *op);

/* The gemm kernel and the build_stats extension's build and last (the
 * tables' entries the backends do differently). [instance] */
bhost_status BHOST_ABI BH_GPU(gemm_run)(bhost_dev *dev, bhost_stream *s, const bhost_gemm_args *g);
bhost_status BHOST_ABI BH_GPU(build)(bhost_dev *dev, uint32_t mode, bhost_build_stats *out);
bhost_status BHOST_ABI BH_GPU(last)(bhost_dev *dev, bhost_build_stats *out);

/* The plugin's entry: its id ("org.bhost.backend-cuda"), name
 * ("backend-cuda"), backend id ("cuda") and summary, as BH_GPU_PLUGIN_ID,
 * BH_GPU_NAME, BH_GPU_ID and BH_GPU_SUMMARY, defined by the backend too. */

#endif /* BH_GPU_RT_H */
