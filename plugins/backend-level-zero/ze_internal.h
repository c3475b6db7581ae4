// SPDX-License-Identifier: MIT
/*
 * ze_internal.h -- internal interface of the oneAPI Level Zero backend.
 *
 * The loader (libze_loader.so.1) is dlopen'ed in device_count
 * (ze_loader.c); only its headers come from pkg-config level-zero at
 * build time. A failed zeInit stops everything at once: calling further
 * into the loader after that can crash (a driver library that found no
 * GPU is already unloaded). A device is one ze_device_handle_t of any
 * driver; open() creates a context (ze_device.c). Streams are immediate
 * command lists on a compute queue group, synced through a host-visible
 * event. Events are kernel-timestamp events signaled by barriers
 * (ze_events.c). Kernels are SPIR-V modules compiled from kernels.cl at
 * build time by clang-14 + llvm-spirv-14 (ze_kernels.c); without those
 * tools the backend offers copies and events only (BH_ZE_NO_KERNELS).
 */
#ifndef BH_BACKEND_ZE_INTERNAL_H
#define BH_BACKEND_ZE_INTERNAL_H

#include <ze_api.h>

#include <bhost/plugin.h>

#include <bhost/backend_helper.h>

#define BH_ZE_FNS(X)                                                           \
    X(zeInit)                                                                  \
    X(zeDriverGet)                                                             \
    X(zeDriverGetProperties)                                                   \
    X(zeDriverGetApiVersion)                                                   \
    X(zeDeviceGet)                                                             \
    X(zeDeviceGetProperties)                                                   \
    X(zeDeviceGetMemoryProperties)                                             \
    X(zeDeviceGetModuleProperties)                                             \
    X(zeDeviceGetCommandQueueGroupProperties)                                  \
    X(zeContextCreate)                                                         \
    X(zeContextDestroy)                                                        \
    X(zeCommandListCreateImmediate)                                            \
    X(zeCommandListDestroy)                                                    \
    X(zeCommandListAppendMemoryCopy)                                           \
    X(zeCommandListAppendBarrier)                                              \
    X(zeCommandListAppendLaunchKernel)                                         \
    X(zeEventPoolCreate)                                                       \
    X(zeEventPoolDestroy)                                                      \
    X(zeEventCreate)                                                           \
    X(zeEventDestroy)                                                          \
    X(zeEventHostSynchronize)                                                  \
    X(zeEventHostReset)                                                        \
    X(zeEventQueryKernelTimestamp)                                             \
    X(zeMemAllocDevice)                                                        \
    X(zeMemAllocHost)                                                          \
    X(zeMemFree)                                                               \
    X(zeModuleCreate)                                                          \
    X(zeModuleDestroy)                                                         \
    X(zeModuleBuildLogGetString)                                               \
    X(zeModuleBuildLogDestroy)                                                 \
    X(zeModuleGetNativeBinary)                                                 \
    X(zeKernelCreate)                                                          \
    X(zeKernelDestroy)                                                         \
    X(zeKernelSetGroupSize)                                                    \
    X(zeKernelSetArgumentValue)

#define BH_ZE_DECLARE(name) __typeof__(&name) name;
typedef struct bh_ze_fns {
    BH_ZE_FNS(BH_ZE_DECLARE)
} bh_ze_fns;
#undef BH_ZE_DECLARE

extern bh_ze_fns bh_ze;

#define BH_ZE_DEV_MAGIC 0x5a454444u    /* "ZEDD" */
#define BH_ZE_BUF_MAGIC 0x5a454442u    /* "ZEDB" */
#define BH_ZE_STREAM_MAGIC 0x5a454453u /* "ZEDS" */
#define BH_ZE_EVENT_MAGIC 0x5a454445u  /* "ZEDE" */
#define BH_ZE_MAX_DEVICES 32u
#define BH_ZE_REDUCE_GROUPS 1024u

enum { BH_ZE_K_AXPY = 0, BH_ZE_K_REDUCE = 1, BH_ZE_K_GEMM = 2, BH_ZE_KERNELS = 3 };

/* What ze_loader.c knows of one device. */
typedef struct bh_ze_phys {
    ze_driver_handle_t driver;
    ze_device_handle_t dev;
    ze_device_properties_t props;
    uint64_t mem_bytes;
    uint32_t compute_ordinal; /* queue group with COMPUTE */
    uint32_t fp64;
    uint32_t driver_version;
    uint32_t api_version;
} bh_ze_phys;

/* One module with its kernels (f32 or f64). */
typedef struct bh_ze_prog {
    ze_module_handle_t mod;
    ze_kernel_handle_t k[BH_ZE_KERNELS];
} bh_ze_prog;

struct bhost_dev;

struct bhost_buf {
    uint32_t magic;
    uint32_t flags;
    struct bhost_dev *dev;
    uint64_t size;
    void *ptr; /* USM device or host allocation */
};

struct bhost_stream {
    uint32_t magic;
    uint32_t reserved;
    struct bhost_dev *dev;
    ze_command_list_handle_t list; /* immediate */
    ze_event_pool_handle_t pool;
    ze_event_handle_t done;        /* signaled by the sync barrier */
    void *scratch;                 /* reduce partials */
};

struct bhost_event {
    uint32_t magic;
    uint32_t recorded;
    struct bhost_dev *dev;
    ze_event_pool_handle_t pool; /* kernel-timestamp pool of one event */
    ze_event_handle_t ev;
};

struct bhost_dev {
    uint32_t magic;
    uint32_t index;
    bhost_host *h;
    const bh_ze_phys *phys;
    ze_context_handle_t ctx;
    bhost_stream *def;
    bhost_stream *streams[64]; /* every live stream (device_sync) */
    bh_ze_prog progs[2]; /* [f64] */
    uint32_t kernels_tried;
    uint32_t reserved;
    uint64_t live_bufs;
    bhost_build_stats stats;
};

/* ---- backend_level_zero.c ------------------------------------------------ */

/* This backend for the shared code (bhost/backend_helper.h): messages
 * start "backend-level-zero: ", handles are checked against its magics. */
extern bh_be bh_ze_be;
#define bh_ze_fail(h, st, ...) bh_be_fail(&bh_ze_be, h, st, __VA_ARGS__)
#define bh_ze_log(h, level, ...) bh_be_log(&bh_ze_be, h, level, __VA_ARGS__)
#define bh_ze_check_dev(dev, op) bh_be_check_dev(&bh_ze_be, dev, op)
#define bh_ze_check_range(dev, buf, off, n, op, what)                          \
    bh_be_check_range(&bh_ze_be, dev, buf, off, n, op, what)

/* s, or dev->def for NULL; NULL after set_error for a foreign stream. */
static inline bhost_stream *bh_ze_stream_of(bhost_dev *dev, bhost_stream *s,
                                            const char *op)
{
    return bh_be_stream_of(&bh_ze_be, dev, dev->def, s, op);
}

/* Status for a failed call, after set_error(h) naming it and the code. */
bhost_status bh_ze_err(bhost_host *h, ze_result_t r, const char *call);

/* ---- ze_loader.c --------------------------------------------------------- */

bhost_status bh_ze_load(void);
const char *bh_ze_load_error(void);
uint32_t bh_ze_count(void);
const bh_ze_phys *bh_ze_phys_get(uint32_t index);
void bh_ze_describe(uint32_t index, bhost_device_info *info);
/* 1 when the SPIR-V kernels were built into this plugin. */
int bh_ze_have_kernels(void);

/* ---- ze_device.c (table entries) ----------------------------------------- */

bhost_status BHOST_ABI bh_ze_open(uint32_t index, bhost_host *h,
                                  bhost_dev **out);
void BHOST_ABI bh_ze_close(bhost_dev *dev);
bhost_status BHOST_ABI bh_ze_alloc(bhost_dev *dev, uint64_t bytes,
                                   uint32_t flags, bhost_buf **out);
void BHOST_ABI bh_ze_free(bhost_dev *dev, bhost_buf *buf);
void *BHOST_ABI bh_ze_map(bhost_dev *dev, bhost_buf *buf);
bhost_status BHOST_ABI bh_ze_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n);
bhost_status BHOST_ABI bh_ze_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n);
bhost_status BHOST_ABI bh_ze_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n);

/* ---- ze_events.c (streams and events) ------------------------------------ */

bhost_status bh_ze_stream_new(bhost_dev *dev, bhost_stream **out);
/* Appends a barrier to t: what follows starts after what precedes. */
bhost_status bh_ze_ordered(bhost_stream *t);
void bh_ze_stream_free(bhost_stream *s);
bhost_status BHOST_ABI bh_ze_stream_create(bhost_dev *dev, bhost_stream **out);
void BHOST_ABI bh_ze_stream_destroy(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_ze_stream_sync(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_ze_device_sync(bhost_dev *dev);
bhost_status BHOST_ABI bh_ze_event_create(bhost_dev *dev, bhost_event **out);
void BHOST_ABI bh_ze_event_destroy(bhost_dev *dev, bhost_event *e);
bhost_status BHOST_ABI bh_ze_event_record(bhost_dev *dev, bhost_stream *s,
                                          bhost_event *e);
bhost_status BHOST_ABI bh_ze_event_elapsed_ns(bhost_dev *dev,
                                              const bhost_event *start,
                                              const bhost_event *end,
                                              uint64_t *ns);

/* ---- ze_kernels.c -------------------------------------------------------- */

void bh_ze_kernels_release(bhost_dev *dev);
const void *bh_ze_kernel(bhost_dev *dev, const char *id);

#endif /* BH_BACKEND_ZE_INTERNAL_H */
