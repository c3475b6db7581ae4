// SPDX-License-Identifier: MIT
/*
 * coll_gpu.c -- the probe of `memory: device`: NCCL (libnccl.so.2 with
 * the CUDA runtime, both loaded at run time, nothing CUDA linked) or an
 * MPI that is CUDA-aware (Open MPI's MPIX_Query_cuda_support()). The
 * reason when neither is here names what is missing (contract in
 * coll_plugin.h).
 */
#include "coll_plugin.h"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* 1 when this MPI says it is CUDA-aware; what it is in `what`. */
static int mpi_cuda_aware(char *what, size_t cap)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, aware = 0;

    if (MPI_Get_library_version(lib, &len) != MPI_SUCCESS)
        snprintf(lib, sizeof(lib), "this MPI");
    lib[strcspn(lib, ",\n")] = '\0';
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    aware = MPIX_Query_cuda_support();
    snprintf(what, cap, "%.120s is %s (MPIX_Query_cuda_support)", lib,
             aware ? "CUDA-aware" : "not CUDA-aware at run time");
#elif defined(MPIX_CUDA_AWARE_SUPPORT)
    snprintf(what, cap, "%.120s is not (built without CUDA: MPIX_CUDA_AWARE_SUPPORT 0)", lib);
#else
    snprintf(what, cap, "%.120s has no MPIX_Query_cuda_support", lib);
#endif
    return aware;
}

/* 1 when `soname` loads; else 0 with dlerror() in why. */
static int loads(const char *soname, char *why, size_t cap)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    const char *err;

    if (h != NULL) {
        dlclose(h);
        return 1;
    }
    err = dlerror();
    snprintf(why, cap, "%s", err != NULL ? err : "not found");
    return 0;
}

/* The CUDA devices the runtime sees (0 with the reason in why when none):
 * libcudart loaded at run time, cudaGetDeviceCount called through it. */
static int cuda_devices(char *why, size_t cap)
{
    static const char *const sonames[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0",
                                          "libcudart.so", NULL};
    int (*count)(int *) = NULL;
    const char *(*err_text)(int) = NULL;
    void *rt = NULL;
    int n = 0, rc;

    for (int i = 0; sonames[i] != NULL && rt == NULL; i++)
        rt = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    if (rt == NULL) {
        snprintf(why, cap, "the CUDA runtime (libcudart.so) is not installed");
        return 0;
    }
    *(void **)&count = dlsym(rt, "cudaGetDeviceCount");
    *(void **)&err_text = dlsym(rt, "cudaGetErrorString");
    if (count == NULL) {
        snprintf(why, cap, "libcudart has no cudaGetDeviceCount");
        return 0;
    }
    rc = count(&n);
    if (rc != 0 || n < 1)
        snprintf(why, cap, "no CUDA device (cudaGetDeviceCount: %s)",
                 rc == 0            ? "0 devices"
                 : err_text != NULL ? err_text(rc)
                                    : "error");
    return rc == 0 ? n : 0;
}

int coll_gpu_probe(char *why, size_t cap)
{
    char mpi[192], nccl_why[256], rt_why[256];
    int nccl = loads("libnccl.so.2", nccl_why, sizeof(nccl_why));
    int aware = mpi_cuda_aware(mpi, sizeof(mpi));

    if (!nccl && !aware) {
        snprintf(why, cap,
                 "memory: device needs NCCL (libnccl.so.2 not found: %.120s) or a CUDA-aware "
                 "MPI (%s)",
                 nccl_why, mpi);
        return -1;
    }
    if (cuda_devices(rt_why, sizeof(rt_why)) < 1) {
        snprintf(why, cap, "memory: device: %s found, but %s", nccl ? "NCCL" : "a CUDA-aware MPI",
                 rt_why);
        return -1;
    }
    snprintf(why, cap,
             "memory: device: %s and a CUDA device found, but this build's device path "
             "(buffers in CUDA memory handed to %s) is not written yet",
             nccl ? "NCCL" : "a CUDA-aware MPI", nccl ? "ncclAllReduce and kin" : "MPI");
    return -1;
}
