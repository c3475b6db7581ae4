// SPDX-License-Identifier: MIT
/*
 * cuda_internal.h -- internal interface of the CUDA backend plugin.
 *
 * Nothing CUDA is linked: device_count() dlopens libcudart.so.13/.12
 * (cuda_loader.c) and resolves the runtime functions below by name; the
 * first gemm dlopens libcublas. The kernels (kernels.cu) are a fatbin
 * embedded at build time and loaded with cudaLibraryLoadData (CUDA 12.0+
 * runtime). Never libcuda directly: the runtime loads the driver itself,
 * so a machine without a driver is "0 devices" with the runtime's reason.
 *
 * A device is a CUDA device index; open() makes it current and creates a
 * non-blocking stream as the default stream (cuda_device.c). Events are
 * CUDA events; an optional L2 flush before each timed sample and
 * SM-clock throttle detection follow nvbench (cuda_events.c).
 */
#ifndef BH_BACKEND_CUDA_INTERNAL_H
#define BH_BACKEND_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>

#include <bhost/plugin.h>

#include <bhost/backend_helper.h>

/* The runtime functions used, resolved by their exported names. */
typedef struct bh_cudart {
    cudaError_t (*GetDeviceCount)(int *);
    cudaError_t (*RuntimeGetVersion)(int *);
    cudaError_t (*DriverGetVersion)(int *);
    const char *(*GetErrorName)(cudaError_t);
    const char *(*GetErrorString)(cudaError_t);
    cudaError_t (*GetLastError)(void);
    cudaError_t (*SetDevice)(int);
    cudaError_t (*DeviceGetAttribute)(int *, enum cudaDeviceAttr, int);
    cudaError_t (*GetDeviceProperties)(void *, int); /* _v2 where present */
    cudaError_t (*Malloc)(void **, size_t);
    cudaError_t (*Free)(void *);
    cudaError_t (*HostAlloc)(void **, size_t, unsigned int);
    cudaError_t (*FreeHost)(void *);
    cudaError_t (*Memcpy)(void *, const void *, size_t, enum cudaMemcpyKind);
    cudaError_t (*MemcpyAsync)(void *, const void *, size_t,
                               enum cudaMemcpyKind, cudaStream_t);
    cudaError_t (*MemsetAsync)(void *, int, size_t, cudaStream_t);
    cudaError_t (*StreamCreateWithFlags)(cudaStream_t *, unsigned int);
    cudaError_t (*StreamDestroy)(cudaStream_t);
    cudaError_t (*StreamSynchronize)(cudaStream_t);
    cudaError_t (*DeviceSynchronize)(void);
    cudaError_t (*EventCreate)(cudaEvent_t *);
    cudaError_t (*EventDestroy)(cudaEvent_t);
    cudaError_t (*EventRecord)(cudaEvent_t, cudaStream_t);
    cudaError_t (*EventElapsedTime)(float *, cudaEvent_t, cudaEvent_t);
    cudaError_t (*LaunchKernel)(const void *, dim3, dim3, void **, size_t,
                                cudaStream_t);
    /* CUDA 12.0+; NULL on older runtimes (then no own kernels) */
    cudaError_t (*LibraryLoadData)(cudaLibrary_t *, const void *,
                                   enum cudaJitOption *, void **, unsigned int,
                                   enum cudaLibraryOption *, void **,
                                   unsigned int);
    cudaError_t (*LibraryGetKernel)(cudaKernel_t *, cudaLibrary_t,
                                    const char *);
    cudaError_t (*LibraryUnload)(cudaLibrary_t);
} bh_cudart;

/* cuBLAS, resolved by name (opaque handle; int enums as cublas_api.h). */
typedef int bh_cublas_status;
typedef struct bh_cublas {
    bh_cublas_status (*Create)(void **);
    bh_cublas_status (*Destroy)(void *);
    bh_cublas_status (*SetStream)(void *, cudaStream_t);
    bh_cublas_status (*GetVersion)(void *, int *);
    bh_cublas_status (*Sgemm)(void *, int, int, int, int, int, const float *,
                              const float *, int, const float *, int,
                              const float *, float *, int);
    bh_cublas_status (*Dgemm)(void *, int, int, int, int, int, const double *,
                              const double *, int, const double *, int,
                              const double *, double *, int);
    bh_cublas_status (*GemmEx)(void *, int, int, int, int, int, const void *,
                               const void *, int, int, const void *, int, int,
                               const void *, void *, int, int, int, int);
} bh_cublas;

extern bh_cudart bh_cu;

#define BH_CU_DEV_MAGIC 0x43554444u    /* "CUDD" */
#define BH_CU_BUF_MAGIC 0x43554442u    /* "CUDB" */
#define BH_CU_STREAM_MAGIC 0x43554453u /* "CUDS" */
#define BH_CU_EVENT_MAGIC 0x43554445u  /* "CUDE" */
#define BH_CU_MAX_DEVICES 64u
#define BH_CU_REDUCE_GROUPS 1024u

enum { BH_CU_K_AXPY = 0, BH_CU_K_REDUCE = 1, BH_CU_K_GEMM = 2, BH_CU_KERNELS = 3 };

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
    cudaStream_t s;
    void *scratch; /* reduce partials */
};

struct bhost_event {
    uint32_t magic;
    uint32_t recorded;
    struct bhost_dev *dev;
    cudaEvent_t ev;
    uint32_t starts_pair; /* recorded as the start of a timed pair */
    uint32_t probed;      /* clock probes bracket the pair it ends */
};

struct bhost_dev {
    uint32_t magic;
    uint32_t index;
    bhost_host *h;
    bhost_stream *def;
    void *cublas;           /* handle, created on the first gemm */
    void *flush;            /* L2 flush buffer (BHOST_CUDA_L2_FLUSH=1) */
    uint64_t flush_bytes;
    unsigned long long *probe; /* 4 x u64: clock64/globaltimer at start, end */
    double threshold;       /* throttle fraction; 0 = off */
    double default_mhz;     /* cudaDevAttrClockRate */
    double min_mhz;         /* lowest measured SM clock */
    uint32_t open_pair;     /* a start event is recorded, no end yet */
    uint32_t throttled;     /* samples below threshold x default */
    uint32_t samples;       /* samples with a clock measurement */
    uint32_t sms;           /* multiprocessors (probe grid) */
    uint64_t live_bufs;
    bhost_build_stats stats;
};

/* ---- backend_cuda.c ------------------------------------------------------ */

/* This backend for the shared code (bhost/backend_helper.h): messages
 * start "backend-cuda: ", handles are checked against its magics. */
extern bh_be bh_cu_be;
#define bh_cu_fail(h, st, ...) bh_be_fail(&bh_cu_be, h, st, __VA_ARGS__)
#define bh_cu_log(h, level, ...) bh_be_log(&bh_cu_be, h, level, __VA_ARGS__)
#define bh_cu_check_dev(dev, op) bh_be_check_dev(&bh_cu_be, dev, op)
#define bh_cu_check_range(dev, buf, off, n, op, what)                          \
    bh_be_check_range(&bh_cu_be, dev, buf, off, n, op, what)

/* s, or dev->def for NULL; NULL after set_error for a foreign stream. */
static inline bhost_stream *bh_cu_stream_of(bhost_dev *dev, bhost_stream *s,
                                            const char *op)
{
    return bh_be_stream_of(&bh_cu_be, dev, dev->def, s, op);
}

/* Status for a runtime error, after set_error(h) naming call, the error's
 * name and text. cudaErrorMemoryAllocation gives BHOST_E_NOMEM. */
bhost_status bh_cu_err(bhost_host *h, cudaError_t e, const char *call);
/* Makes dev current (cudaSetDevice). */
bhost_status bh_cu_use(bhost_dev *dev);

/* ---- cuda_loader.c ------------------------------------------------------- */

/* Loads the runtime and counts devices; the reason for 0 devices in
 * bh_cu_load_error(). Idempotent. [main] */
bhost_status bh_cu_load(void);
const char *bh_cu_load_error(void);
uint32_t bh_cu_count(void);
int bh_cu_runtime_version(void);
void bh_cu_describe(uint32_t index, bhost_device_info *info);
/* libcublas, loaded on first use; NULL when absent (reason logged). */
const bh_cublas *bh_cu_cublas(bhost_host *h);

/* ---- cuda_device.c (table entries) --------------------------------------- */

bhost_status BHOST_ABI bh_cu_open(uint32_t index, bhost_host *h,
                                  bhost_dev **out);
void BHOST_ABI bh_cu_close(bhost_dev *dev);
bhost_status BHOST_ABI bh_cu_alloc(bhost_dev *dev, uint64_t bytes,
                                   uint32_t flags, bhost_buf **out);
void BHOST_ABI bh_cu_free(bhost_dev *dev, bhost_buf *buf);
void *BHOST_ABI bh_cu_map(bhost_dev *dev, bhost_buf *buf);
bhost_status BHOST_ABI bh_cu_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n);
bhost_status BHOST_ABI bh_cu_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n);
bhost_status BHOST_ABI bh_cu_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n);
bhost_status BHOST_ABI bh_cu_stream_create(bhost_dev *dev, bhost_stream **out);
void BHOST_ABI bh_cu_stream_destroy(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_cu_stream_sync(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_cu_device_sync(bhost_dev *dev);

/* ---- cuda_events.c ------------------------------------------------------- */

/* Reads BHOST_CUDA_L2_FLUSH and BHOST_CUDA_THROTTLE for dev (open). */
bhost_status bh_cu_timing_init(bhost_dev *dev);
void bh_cu_timing_release(bhost_dev *dev);
bhost_status BHOST_ABI bh_cu_event_create(bhost_dev *dev, bhost_event **out);
void BHOST_ABI bh_cu_event_destroy(bhost_dev *dev, bhost_event *e);
bhost_status BHOST_ABI bh_cu_event_record(bhost_dev *dev, bhost_stream *s,
                                          bhost_event *e);
bhost_status BHOST_ABI bh_cu_event_elapsed_ns(bhost_dev *dev,
                                              const bhost_event *start,
                                              const bhost_event *end,
                                              uint64_t *ns);

/* ---- cuda_kernels.c ------------------------------------------------------ */

/* The kernel named name (bh_axpy_f32, bh_clock_probe, ...) from the
 * embedded fatbin, loaded once per process; NULL when unavailable (the
 * reason is logged once). */
const void *bh_cu_function(bhost_host *h, const char *name);
/* Launches fn with args on s. */
bhost_status bh_cu_launch(bhost_dev *dev, const void *fn, dim3 grid,
                          dim3 block, void **args, cudaStream_t s,
                          const char *op);
/* The kernel or extension table for id, or NULL. [instance] */
const void *bh_cu_kernel(bhost_dev *dev, const char *id);

#endif /* BH_BACKEND_CUDA_INTERNAL_H */
