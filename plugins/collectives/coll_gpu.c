// SPDX-License-Identifier: MIT
/*
 * coll_gpu.c -- `memory: device`: NCCL (libnccl.so.2, coll_nccl.c) or,
 * without it, an MPI that is CUDA-aware (Open MPI's
 * MPIX_Query_cuda_support()), on buffers the CUDA runtime allocates
 * (libcudart loaded at run time; nothing CUDA is linked). The reason
 * `memory: device` is unsupported names what is missing (contracts in
 * coll_gpu.h).
 */
#include "coll_gpu.h"

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

int coll_dlsyms(void *lib, const char *libname, const coll_sym *syms, size_t n, char *why,
                size_t cap)
{
    for (size_t i = 0; i < n; i++) {
        void *p = dlsym(lib, syms[i].name);

        if (p == NULL) {
            snprintf(why, cap, "%s has no %s", libname, syms[i].name);
            return -1;
        }
        memcpy(syms[i].slot, &p, sizeof(p));
    }
    return 0;
}

/* Loads libcudart (13, 12, 11 or unversioned) into rt; 0 or -1. */
static int rt_load(coll_cuda_rt *rt, char *why, size_t cap)
{
    static const char *const sonames[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0",
                                          "libcudart.so", NULL};
    void *lib = NULL;
    const coll_sym syms[] = {
        {"cudaSetDevice", &rt->set_device},
        {"cudaGetDeviceCount", &rt->device_count},
        {"cudaMalloc", &rt->malloc_},
        {"cudaFree", &rt->free_},
        {"cudaMemcpy", &rt->memcpy_},
        {"cudaStreamCreate", &rt->stream_create},
        {"cudaStreamSynchronize", &rt->stream_sync},
        {"cudaStreamDestroy", &rt->stream_destroy},
        {"cudaGetErrorString", &rt->error_text},
    };

    for (int i = 0; sonames[i] != NULL && lib == NULL; i++)
        lib = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        snprintf(why, cap, "the CUDA runtime (libcudart.so) is not installed");
        return -1;
    }
    return coll_dlsyms(lib, "libcudart", syms, sizeof(syms) / sizeof(syms[0]), why, cap);
}

int coll_lib_ok(const char *(*text)(int), int rc, const char *what, char *why, size_t cap)
{
    if (rc == 0)
        return 0;
    snprintf(why, cap, "%s: %s", what, text(rc));
    return -1;
}

/* coll_lib_ok() with the CUDA runtime's error text. */
#define cuda_ok(rt, rc, what, why, cap) coll_lib_ok((rt)->error_text, (rc), (what), (why), (cap))

/* The CUDA device of this rank made current: -1 with why when the
 * runtime or a device is missing or the node has fewer devices than
 * ranks. */
static int pick_device(coll_gpu *g, unsigned local_rank, unsigned local_size, char *why, size_t cap)
{
    char rt_why[256];
    int n = 0, rc;

    if (rt_load(&g->rt, rt_why, sizeof(rt_why)) != 0) {
        snprintf(why, cap, "%s", rt_why);
        return -1;
    }
    rc = g->rt.device_count(&n);
    if (rc != 0 || n < 1) {
        snprintf(why, cap, "no CUDA device (cudaGetDeviceCount: %s)",
                 rc != 0 ? g->rt.error_text(rc) : "0 devices");
        return -1;
    }
    if ((unsigned)n < local_size) {
        snprintf(why, cap, "%u ranks on this node but %d CUDA device(s): one GPU per rank",
                 local_size, n);
        return -1;
    }
    g->device = (int)(local_rank % (unsigned)n);
    return cuda_ok(&g->rt, g->rt.set_device(g->device), "cudaSetDevice", why, cap);
}

int coll_gpu_open(coll_gpu *g, unsigned local_rank, unsigned local_size, char *why, size_t cap)
{
    char mpi[192], nccl_why[256], dev_why[256];
    int aware = mpi_cuda_aware(mpi, sizeof(mpi));

    g->use_nccl = coll_nccl_load(&g->nccl, nccl_why, sizeof(nccl_why)) == 0;
    if (!g->use_nccl && !aware) {
        snprintf(why, cap,
                 "memory: device needs NCCL (libnccl.so.2: %.120s) or a CUDA-aware MPI (%s)",
                 nccl_why, mpi);
        return -1;
    }
    if (pick_device(g, local_rank, local_size, dev_why, sizeof(dev_why)) != 0) {
        snprintf(why, cap, "memory: device: %s found, but %s",
                 g->use_nccl ? "NCCL" : "a CUDA-aware MPI", dev_why);
        return -1;
    }
    return 0;
}

/* c with its buffers replaced by g's device buffers. */
static coll_case device_view(const coll_gpu *g, const coll_case *c)
{
    coll_case d = *c;

    d.send = c->send != NULL ? g->send : NULL;
    d.recv = g->recv;
    return d;
}

int coll_gpu_setup(coll_gpu *g, const coll_case *c, char *why, size_t cap)
{
    uint64_t sb = coll_send_bytes(c), rb = coll_recv_bytes(c);
    const coll_cuda_rt *rt = &g->rt;

    if (g->recv == NULL &&
        (cuda_ok(rt, rt->stream_create(&g->stream), "cudaStreamCreate", why, cap) != 0 ||
         cuda_ok(rt, rt->malloc_(&g->recv, rb), "cudaMalloc", why, cap) != 0 ||
         (sb > 0 && cuda_ok(rt, rt->malloc_(&g->send, sb), "cudaMalloc", why, cap) != 0)))
        return -1;
    if ((sb > 0 && cuda_ok(rt, rt->memcpy_(g->send, c->send, sb, 1), "cudaMemcpy", why, cap)) ||
        cuda_ok(rt, rt->memcpy_(g->recv, c->recv, rb, 1), "cudaMemcpy", why, cap))
        return -1;
    if (g->use_nccl && g->comm == NULL)
        return coll_nccl_connect(&g->nccl, c->rank, c->nranks, &g->comm, why, cap);
    return 0;
}

int coll_gpu_run(coll_gpu *g, const coll_case *c, uint64_t iterations, char *why, size_t cap)
{
    coll_case d = device_view(g, c);
    int rc = g->use_nccl ? coll_nccl_run(&g->nccl, g->comm, g->stream, &d, iterations, why, cap)
                         : coll_mpi_run(&d, iterations, why, cap);

    if (rc != 0)
        return -1;
    return cuda_ok(&g->rt, g->rt.stream_sync(g->stream), "cudaStreamSynchronize", why, cap);
}

int coll_gpu_fetch(coll_gpu *g, coll_case *c, char *why, size_t cap)
{
    return cuda_ok(&g->rt, g->rt.memcpy_(c->recv, g->recv, coll_recv_bytes(c), 2), "cudaMemcpy",
                   why, cap);
}

void coll_gpu_close(coll_gpu *g)
{
    if (g->comm != NULL)
        g->nccl.comm_destroy(g->comm);
    if (g->send != NULL)
        g->rt.free_(g->send);
    if (g->recv != NULL)
        g->rt.free_(g->recv);
    if (g->stream != NULL)
        g->rt.stream_destroy(g->stream);
    *g = (coll_gpu){0};
}
