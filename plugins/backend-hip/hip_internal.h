// SPDX-License-Identifier: MIT
/*
 * hip_internal.h -- internal interface of the HIP (ROCm) backend plugin.
 *
 * Nothing HIP is linked: device_count() dlopens libamdhip64.so.6/.5
 * (hip_loader.c) and resolves the runtime functions below by name. The
 * kernels (kernels.hip: axpy, reduce, tiled gemm; Debian has no
 * hipBLAS) are a code-object bundle built by hipcc --genco for the
 * -Damd_offload_arch targets, embedded, and loaded with
 * hipModuleLoadData (hip_kernels.c). A device is a HIP device index;
 * open() creates a non-blocking stream as the default stream
 * (hip_device.c); events are HIP events (hip_events.c).
 */
#ifndef BH_BACKEND_HIP_INTERNAL_H
#define BH_BACKEND_HIP_INTERNAL_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#include <bhost/plugin.h>

#include <bhost/backend_helper.h>

/* The runtime functions used, resolved by their exported names. */
typedef struct bh_hiprt {
    hipError_t (*GetDeviceCount)(int *);
    hipError_t (*RuntimeGetVersion)(int *);
    hipError_t (*DriverGetVersion)(int *);
    const char *(*GetErrorName)(hipError_t);
    const char *(*GetErrorString)(hipError_t);
    hipError_t (*GetLastError)(void);
    hipError_t (*SetDevice)(int);
    hipError_t (*DeviceGetAttribute)(int *, hipDeviceAttribute_t, int);
    hipError_t (*DeviceGetName)(char *, int, int);
    hipError_t (*DeviceTotalMem)(size_t *, int);
    hipError_t (*Malloc)(void **, size_t);
    hipError_t (*Free)(void *);
    hipError_t (*HostMalloc)(void **, size_t, unsigned int);
    hipError_t (*HostFree)(void *);
    hipError_t (*MemcpyAsync)(void *, const void *, size_t, hipMemcpyKind,
                              hipStream_t);
    hipError_t (*StreamCreateWithFlags)(hipStream_t *, unsigned int);
    hipError_t (*StreamDestroy)(hipStream_t);
    hipError_t (*StreamSynchronize)(hipStream_t);
    hipError_t (*DeviceSynchronize)(void);
    hipError_t (*EventCreate)(hipEvent_t *);
    hipError_t (*EventDestroy)(hipEvent_t);
    hipError_t (*EventRecord)(hipEvent_t, hipStream_t);
    hipError_t (*EventElapsedTime)(float *, hipEvent_t, hipEvent_t);
    hipError_t (*ModuleLoadData)(hipModule_t *, const void *);
    hipError_t (*ModuleGetFunction)(hipFunction_t *, hipModule_t,
                                    const char *);
    hipError_t (*ModuleUnload)(hipModule_t);
    hipError_t (*ModuleLaunchKernel)(hipFunction_t, unsigned int, unsigned int,
                                     unsigned int, unsigned int, unsigned int,
                                     unsigned int, unsigned int, hipStream_t,
                                     void **, void **);
} bh_hiprt;

extern bh_hiprt bh_hip;

#define BH_HIP_DEV_MAGIC 0x48495044u    /* "HIPD" */
#define BH_HIP_BUF_MAGIC 0x48495042u    /* "HIPB" */
#define BH_HIP_STREAM_MAGIC 0x48495053u /* "HIPS" */
#define BH_HIP_EVENT_MAGIC 0x48495045u  /* "HIPE" */
#define BH_HIP_MAX_DEVICES 64u
#define BH_HIP_REDUCE_GROUPS 1024u

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
    hipStream_t s;
    void *scratch; /* reduce partials */
};

struct bhost_event {
    uint32_t magic;
    uint32_t recorded;
    struct bhost_dev *dev;
    hipEvent_t ev;
};

/* Kernels of the code object, per device (modules are per device). */
enum {
    BH_HIP_AXPY_F32, BH_HIP_AXPY_F64, BH_HIP_REDUCE_F32, BH_HIP_REDUCE_F64,
    BH_HIP_GEMM_F32, BH_HIP_GEMM_F64, BH_HIP_FUNCTIONS
};

struct bhost_dev {
    uint32_t magic;
    uint32_t index;
    bhost_host *h;
    bhost_stream *def;
    uint64_t live_bufs;
    hipModule_t mod;                     /* loaded on first kernel use */
    hipFunction_t fn[BH_HIP_FUNCTIONS];
    uint32_t mod_tried;
    uint32_t reserved;
    bhost_build_stats stats;
};

/* ---- backend_hip.c ------------------------------------------------------- */

/* This backend for the shared code (bhost/backend_helper.h): messages
 * start "backend-hip: ", handles are checked against its magics. */
extern bh_be bh_hip_be;
#define bh_hip_fail(h, st, ...) bh_be_fail(&bh_hip_be, h, st, __VA_ARGS__)
#define bh_hip_log(h, level, ...) bh_be_log(&bh_hip_be, h, level, __VA_ARGS__)
#define bh_hip_check_dev(dev, op) bh_be_check_dev(&bh_hip_be, dev, op)
#define bh_hip_check_range(dev, buf, off, n, op, what)                         \
    bh_be_check_range(&bh_hip_be, dev, buf, off, n, op, what)

/* s, or dev->def for NULL; NULL after set_error for a foreign stream. */
static inline bhost_stream *bh_hip_stream_of(bhost_dev *dev, bhost_stream *s,
                                             const char *op)
{
    return bh_be_stream_of(&bh_hip_be, dev, dev->def, s, op);
}

/* Status for a runtime error, after set_error(h) naming call and the
 * runtime's text. hipErrorOutOfMemory gives BHOST_E_NOMEM. */
bhost_status bh_hip_err(bhost_host *h, hipError_t e, const char *call);
/* Makes dev current (hipSetDevice). */
bhost_status bh_hip_use(bhost_dev *dev);

/* ---- hip_loader.c -------------------------------------------------------- */

/* Loads the runtime and counts devices; the reason for 0 in
 * bh_hip_load_error(). Idempotent. [main] */
bhost_status bh_hip_load(void);
const char *bh_hip_load_error(void);
uint32_t bh_hip_count(void);
void bh_hip_describe(uint32_t index, bhost_device_info *info);

/* ---- hip_device.c (table entries) ---------------------------------------- */

bhost_status BHOST_ABI bh_hip_open(uint32_t index, bhost_host *h,
                                   bhost_dev **out);
void BHOST_ABI bh_hip_close(bhost_dev *dev);
bhost_status BHOST_ABI bh_hip_alloc(bhost_dev *dev, uint64_t bytes,
                                    uint32_t flags, bhost_buf **out);
void BHOST_ABI bh_hip_free(bhost_dev *dev, bhost_buf *buf);
void *BHOST_ABI bh_hip_map(bhost_dev *dev, bhost_buf *buf);
bhost_status BHOST_ABI bh_hip_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                       bhost_buf *dst, uint64_t dst_off,
                                       const void *src, uint64_t n);
bhost_status BHOST_ABI bh_hip_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                       void *dst, const bhost_buf *src,
                                       uint64_t src_off, uint64_t n);
bhost_status BHOST_ABI bh_hip_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                       bhost_buf *dst, uint64_t dst_off,
                                       const bhost_buf *src, uint64_t src_off,
                                       uint64_t n);
bhost_status BHOST_ABI bh_hip_stream_create(bhost_dev *dev,
                                            bhost_stream **out);
void BHOST_ABI bh_hip_stream_destroy(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_hip_stream_sync(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_hip_device_sync(bhost_dev *dev);

/* ---- hip_events.c -------------------------------------------------------- */

bhost_status BHOST_ABI bh_hip_event_create(bhost_dev *dev, bhost_event **out);
void BHOST_ABI bh_hip_event_destroy(bhost_dev *dev, bhost_event *e);
bhost_status BHOST_ABI bh_hip_event_record(bhost_dev *dev, bhost_stream *s,
                                           bhost_event *e);
bhost_status BHOST_ABI bh_hip_event_elapsed_ns(bhost_dev *dev,
                                               const bhost_event *start,
                                               const bhost_event *end,
                                               uint64_t *ns);

/* ---- hip_kernels.c ------------------------------------------------------- */

/* The kernel or extension table for id, or NULL. [instance] */
const void *bh_hip_kernel(bhost_dev *dev, const char *id);

#endif /* BH_BACKEND_HIP_INTERNAL_H */
