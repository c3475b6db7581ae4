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
 * non-blocking stream as the default stream. The entry, devices, memory,
 * streams, event handles and axpy/reduce are the C this backend shares
 * with backend-hip (plugins/common/bh_gpu_rt.h, under the names below).
 * Events are CUDA events; an optional L2 flush before each timed sample
 * and SM-clock throttle detection follow nvbench (cuda_events.c).
 */
#ifndef BH_BACKEND_CUDA_INTERNAL_H
#define BH_BACKEND_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>

#include <bhost/plugin.h>

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

/* The names the shared GPU code (plugins/common/bh_gpu_rt.h) uses. */
#define BH_GPU(name) bh_cu_##name
#define bh_gpu_rt bh_cu
typedef cudaError_t bh_gpu_error;
typedef cudaStream_t bh_gpu_stream_t;
#define BH_GPU_SUCCESS cudaSuccess
#define BH_GPU_E_NOMEM cudaErrorMemoryAllocation
#define BH_GPU_API "cuda"
#define BH_GPU_HOST_ALLOC_NAME "cudaHostAlloc"
#define BH_GPU_HOST_PORTABLE cudaHostAllocPortable
#define BH_GPU_HOST_MAPPED cudaHostAllocMapped
#define BH_GPU_MEMCPY_DEFAULT cudaMemcpyDefault
#define BH_GPU_STREAM_NON_BLOCKING cudaStreamNonBlocking
#define BH_GPU_DEV_MAGIC 0x43554444u    /* "CUDD" */
#define BH_GPU_BUF_MAGIC 0x43554442u    /* "CUDB" */
#define BH_GPU_STREAM_MAGIC 0x43554453u /* "CUDS" */
#define BH_GPU_EVENT_MAGIC 0x43554445u  /* "CUDE" */
#define BH_GPU_ID "cuda"
#define BH_GPU_NAME "backend-cuda"
#define BH_GPU_PLUGIN_ID "org.bhost.backend-cuda"
#define BH_GPU_SUMMARY                                                         \
    "CUDA backend: cudart and cuBLAS loaded lazily, CUDA events (optional "    \
    "L2 flush, throttle detection), pinned memory, nvcc-built kernels"

#include "bh_gpu_rt.h"

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
    struct bh_cu_sci *sci;  /* cuSPARSE/cuFFT/cuDNN state (cuda_sci.c) */
};

/* ---- cuda_loader.c ------------------------------------------------------- */

/* The runtime's version (cudaRuntimeGetVersion) once loaded. [main] */
int bh_cu_runtime_version(void);
/* libcublas, loaded on first use; NULL when absent (reason logged). */
const bh_cublas *bh_cu_cublas(bhost_host *h);

/* ---- cuda_kernels.c ------------------------------------------------------ */

/* The kernel named name (bh_axpy_f32, bh_clock_probe, ...) from the
 * embedded fatbin, loaded once per process; NULL when unavailable (the
 * reason is logged once). */
const void *bh_cu_function(bhost_host *h, const char *name);
/* Launches fn with args on s; BHOST_E_UNSUPPORTED for a NULL fn. */
bhost_status bh_cu_launch_fn(bhost_dev *dev, const void *fn, dim3 grid,
                             dim3 block, void **args, cudaStream_t s,
                             const char *op);

/* ---- cuda_sci.c, cuda_dnn.c: bhost/sci_kernels.h ----------------------- */

/* The scientific table for id when its library was built in and loads,
 * else NULL (the reason logged). [instance] */
const void *bh_cu_sci_kernel(bhost_dev *dev, const char *id);
/* Frees dev->sci (handles, plan, workspace). [main] */
void bh_cu_sci_release(bhost_dev *dev);
/* The device's shared workspace of at least bytes. [instance] */
bhost_status bh_cu_sci_workspace(bhost_dev *dev, size_t bytes, void **out);
/* Where the device's cuDNN handle lives (NULL when out of memory). */
void **bh_cu_sci_dnn(bhost_dev *dev);
/* cuDNN: loads libcudnn once (NULL, or why not); destroys a handle. */
const char *bh_cu_dnn_load(void);
void bh_cu_dnn_release(void *handle);
extern const bhost_kernel_conv2d bh_cu_conv2d_table;

#endif /* BH_BACKEND_CUDA_INTERNAL_H */
