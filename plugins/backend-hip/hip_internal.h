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
 * (the C this backend shares with backend-cuda: plugins/common/
 * bh_gpu_rt.h, under the names below); events are HIP events.
 */
#ifndef BH_BACKEND_HIP_INTERNAL_H
#define BH_BACKEND_HIP_INTERNAL_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#include <bhost/plugin.h>

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
    hipError_t (*HostAlloc)(void **, size_t, unsigned int);
    hipError_t (*FreeHost)(void *);
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

/* The names the shared GPU code (plugins/common/bh_gpu_rt.h) uses. */
#define BH_GPU(name) bh_hip_##name
#define bh_gpu_rt bh_hip
typedef hipError_t bh_gpu_error;
typedef hipStream_t bh_gpu_stream_t;
#define BH_GPU_SUCCESS hipSuccess
#define BH_GPU_E_NOMEM hipErrorOutOfMemory
#define BH_GPU_API "hip"
#define BH_GPU_HOST_ALLOC_NAME "hipHostMalloc"
#define BH_GPU_HOST_PORTABLE hipHostMallocPortable
#define BH_GPU_HOST_MAPPED hipHostMallocMapped
#define BH_GPU_MEMCPY_DEFAULT hipMemcpyDefault
#define BH_GPU_STREAM_NON_BLOCKING hipStreamNonBlocking
#define BH_GPU_DEV_MAGIC 0x48495044u    /* "HIPD" */
#define BH_GPU_BUF_MAGIC 0x48495042u    /* "HIPB" */
#define BH_GPU_STREAM_MAGIC 0x48495053u /* "HIPS" */
#define BH_GPU_EVENT_MAGIC 0x48495045u  /* "HIPE" */
#define BH_GPU_ID "hip"
#define BH_GPU_NAME "backend-hip"
#define BH_GPU_PLUGIN_ID "org.bhost.backend-hip"
#define BH_GPU_SUMMARY                                                         \
    "HIP (ROCm) backend: libamdhip64 loaded lazily, HIP events, pinned "       \
    "memory, hipcc-built axpy/reduce/tiled-gemm kernels"

#include "bh_gpu_rt.h"

struct bhost_event {
    uint32_t magic;
    uint32_t recorded;
    struct bhost_dev *dev;
    hipEvent_t ev;
};

struct bhost_dev {
    uint32_t magic;
    uint32_t index;
    bhost_host *h;
    bhost_stream *def;
    uint64_t live_bufs;
    bhost_build_stats stats;
    hipModule_t mod;                     /* loaded on first kernel use */
    hipFunction_t fn[BH_GPU_FUNCTIONS];  /* in bh_gpu_fn order */
    uint32_t mod_tried;
    uint32_t reserved;
};

#endif /* BH_BACKEND_HIP_INTERNAL_H */
