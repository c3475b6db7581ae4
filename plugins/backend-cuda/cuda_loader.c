// SPDX-License-Identifier: MIT
/*
 * cuda_loader.c -- loads the CUDA runtime (libcudart) lazily, counts
 * devices, describes them, and loads cuBLAS on first use.
 *
 * Library search: BHOST_CUDART_LIBRARY / BHOST_CUBLAS_LIBRARY when set,
 * then libcudart.so.13, .12, libcudart.so (and the same for libcublas,
 * the runtime's major first). With no driver the runtime answers
 * cudaErrorInsufficientDriver (35), with the stub libcuda
 * cudaErrorStubLibrary (34): both become 0 devices and that reason.
 */
#include "cuda_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

bh_cudart bh_cu;

static struct {
    int tried;
    bhost_status st;
    void *lib;
    char lib_name[64];
    int runtime, driver;
    uint32_t count;
    char error[512];
    int blas_tried;
    void *blas_lib;
    bh_cublas blas;
} L;

const char *bh_cu_load_error(void)
{
    return L.error;
}

uint32_t bh_cu_count(void)
{
    return L.st == BHOST_OK ? L.count : 0;
}

int bh_cu_runtime_version(void)
{
    return L.runtime;
}

/* Records why loading stopped in L.error; BHOST_E_UNSUPPORTED. */
#define stop(...) bh_be_stop(L.error, sizeof(L.error), __VA_ARGS__)

/* Resolves the runtime table; the first missing required name or NULL. */
static const char *resolve(void *lib)
{
#define REQ(field, name)                                                       \
    if (!bh_be_sym(lib, name, &bh_cu.field))                                   \
        return name;
    REQ(GetDeviceCount, "cudaGetDeviceCount")
    REQ(RuntimeGetVersion, "cudaRuntimeGetVersion")
    REQ(DriverGetVersion, "cudaDriverGetVersion")
    REQ(GetErrorName, "cudaGetErrorName")
    REQ(GetErrorString, "cudaGetErrorString")
    REQ(GetLastError, "cudaGetLastError")
    REQ(SetDevice, "cudaSetDevice")
    REQ(DeviceGetAttribute, "cudaDeviceGetAttribute")
    REQ(Malloc, "cudaMalloc")
    REQ(Free, "cudaFree")
    REQ(HostAlloc, "cudaHostAlloc")
    REQ(FreeHost, "cudaFreeHost")
    REQ(Memcpy, "cudaMemcpy")
    REQ(MemcpyAsync, "cudaMemcpyAsync")
    REQ(MemsetAsync, "cudaMemsetAsync")
    REQ(StreamCreateWithFlags, "cudaStreamCreateWithFlags")
    REQ(StreamDestroy, "cudaStreamDestroy")
    REQ(StreamSynchronize, "cudaStreamSynchronize")
    REQ(DeviceSynchronize, "cudaDeviceSynchronize")
    REQ(EventCreate, "cudaEventCreate")
    REQ(EventDestroy, "cudaEventDestroy")
    REQ(EventRecord, "cudaEventRecord")
    REQ(EventElapsedTime, "cudaEventElapsedTime")
    REQ(LaunchKernel, "cudaLaunchKernel")
#undef REQ
    if (!bh_be_sym(lib, "cudaGetDeviceProperties_v2",
                   &bh_cu.GetDeviceProperties) &&
        !bh_be_sym(lib, "cudaGetDeviceProperties", &bh_cu.GetDeviceProperties))
        return "cudaGetDeviceProperties";
    if (!bh_be_sym(lib, "cudaLibraryLoadData", &bh_cu.LibraryLoadData) ||
        !bh_be_sym(lib, "cudaLibraryGetKernel", &bh_cu.LibraryGetKernel) ||
        !bh_be_sym(lib, "cudaLibraryUnload", &bh_cu.LibraryUnload))
        bh_cu.LibraryLoadData = NULL; /* runtime older than 12.0 */
    return NULL;
}

bhost_status bh_cu_load(void)
{
    static const char *const names[] = {"libcudart.so.13", "libcudart.so.12",
                                        "libcudart.so"};
    const char *err, *missing;
    int n = 0;
    cudaError_t e;

    if (L.tried)
        return L.st;
    L.tried = 1;
    L.lib = bh_be_dlopen("BHOST_CUDART_LIBRARY", names, 3, L.lib_name,
                         sizeof(L.lib_name), &err);
    if (L.lib == NULL)
        return L.st = stop("no CUDA runtime: %s (install the CUDA toolkit or "
                           "nvidia-cuda-toolkit; BHOST_CUDART_LIBRARY names "
                           "another libcudart)", err);
    missing = resolve(L.lib);
    if (missing != NULL)
        return L.st = stop("%s lacks %s", L.lib_name, missing);
    bh_cu.RuntimeGetVersion(&L.runtime);
    if (bh_cu.DriverGetVersion(&L.driver) != cudaSuccess)
        L.driver = 0;
    e = bh_cu.GetDeviceCount(&n); /* leaves n untouched on error */
    if (e != cudaSuccess) {
        bh_cu.GetLastError();
        return L.st = stop("cudaGetDeviceCount: %s (%d): %s [%s, runtime "
                           "%d.%d; driver %s]",
                           bh_cu.GetErrorName(e), (int)e,
                           bh_cu.GetErrorString(e), L.lib_name,
                           L.runtime / 1000, L.runtime % 1000 / 10,
                           L.driver == 0 ? "none (no libcuda.so.1)"
                                         : "present");
    }
    if (n <= 0)
        return L.st = stop("cudaGetDeviceCount: 0 devices [%s, driver "
                           "%d.%d]", L.lib_name, L.driver / 1000,
                           L.driver % 1000 / 10);
    L.count = (uint32_t)n > BH_GPU_MAX_DEVICES ? BH_GPU_MAX_DEVICES : (uint32_t)n;
    L.st = BHOST_OK;
    return BHOST_OK;
}

/* One integer attribute of device i (0 when unknown). */
static int attr(enum cudaDeviceAttr a, int i)
{
    int v = 0;

    if (bh_cu.DeviceGetAttribute(&v, a, i) != cudaSuccess) {
        bh_cu.GetLastError();
        v = 0;
    }
    return v;
}

void bh_cu_describe(uint32_t index, bhost_device_info *info)
{
    /* the runtime fills its own (possibly larger) struct: over-allocate;
     * name and totalGlobalMem sit at the same offsets since CUDA 10 */
    static union {
        struct cudaDeviceProp p;
        unsigned char raw[4 * sizeof(struct cudaDeviceProp) + 4096];
    } props;
    int i = (int)index, cc_major, cc_minor;
    size_t mem = 0;
    const bh_cublas *blas = bh_cu_cublas(NULL);

    memset(info, 0, sizeof(*info));
    info->struct_size = sizeof(*info);
    if (index >= bh_cu_count())
        return;
    memset(&props, 0, sizeof(props));
    if (bh_cu.GetDeviceProperties(&props, i) == cudaSuccess) {
        snprintf(info->name, sizeof(info->name), "%.255s", props.p.name);
        memcpy(&mem, props.raw + offsetof(struct cudaDeviceProp, totalGlobalMem),
               sizeof(mem));
    } else {
        bh_cu.GetLastError();
        snprintf(info->name, sizeof(info->name), "CUDA device %d", i);
    }
    cc_major = attr(cudaDevAttrComputeCapabilityMajor, i);
    cc_minor = attr(cudaDevAttrComputeCapabilityMinor, i);
    snprintf(info->vendor, sizeof(info->vendor), "NVIDIA (sm_%d%d)", cc_major,
             cc_minor);
    snprintf(info->driver_version, sizeof(info->driver_version),
             "CUDA driver %d.%d", L.driver / 1000, L.driver % 1000 / 10);
    snprintf(info->runtime_version, sizeof(info->runtime_version),
             "cudart %d.%d; cuBLAS %s", L.runtime / 1000,
             L.runtime % 1000 / 10, blas ? "yes" : "no");
    info->compute_units = (uint32_t)attr(cudaDevAttrMultiProcessorCount, i);
    info->clock_mhz = attr(cudaDevAttrClockRate, i) / 1000.0;
    info->global_mem_bytes = mem;
    info->caps = BHOST_CAP_F64 | BHOST_CAP_EVENT_TIMING | BHOST_CAP_PINNED_HOST;
    if (bh_cu.LibraryLoadData != NULL)
        info->caps |= BHOST_CAP_KERNEL_AXPY | BHOST_CAP_KERNEL_REDUCE |
                      BHOST_CAP_KERNEL_GEMM;
    if (blas != NULL)
        info->caps |= BHOST_CAP_KERNEL_GEMM | BHOST_CAP_F16 | BHOST_CAP_BF16;
    info->timer_resolution_ns = 500.0; /* cudaEventElapsedTime: ~0.5 us */
}

const bh_cublas *bh_cu_cublas(bhost_host *h)
{
    const char *names[4] = {"libcublas.so.13", "libcublas.so.12",
                            "libcublas.so"};
    char name[64], same[32];
    const char *err;

    if (L.blas_tried)
        return L.blas_lib != NULL ? &L.blas : NULL;
    L.blas_tried = 1;
    snprintf(same, sizeof(same), "libcublas.so.%d", L.runtime / 1000);
    names[3] = names[0];
    names[0] = same; /* the runtime's own major first */
    L.blas_lib = bh_be_dlopen("BHOST_CUBLAS_LIBRARY", names, 4, name,
                              sizeof(name), &err);
    if (L.blas_lib != NULL &&
        !(bh_be_sym(L.blas_lib, "cublasCreate_v2", &L.blas.Create) &&
          bh_be_sym(L.blas_lib, "cublasDestroy_v2", &L.blas.Destroy) &&
          bh_be_sym(L.blas_lib, "cublasSetStream_v2", &L.blas.SetStream) &&
          bh_be_sym(L.blas_lib, "cublasGetVersion_v2", &L.blas.GetVersion) &&
          bh_be_sym(L.blas_lib, "cublasSgemm_v2", &L.blas.Sgemm) &&
          bh_be_sym(L.blas_lib, "cublasDgemm_v2", &L.blas.Dgemm) &&
          bh_be_sym(L.blas_lib, "cublasGemmEx", &L.blas.GemmEx))) {
        err = "a cuBLAS function is missing";
        L.blas_lib = NULL;
    }
    if (L.blas_lib == NULL)
        bh_gpu_log(h, BHOST_LOG_WARN,
                  "cuBLAS unavailable (%s): gemm uses the backend's own "
                  "kernel, f32/f64 only", err);
    return L.blas_lib != NULL ? &L.blas : NULL;
}
