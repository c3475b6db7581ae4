// SPDX-License-Identifier: MIT
/*
 * coll_gpu.h -- `memory: device` of the collectives plugin: a GPU runtime
 * (CUDA's libcudart or ROCm's libamdhip64) and its collectives library
 * (NCCL's libnccl.so.2 or RCCL's librccl.so.1, which keeps NCCL's API)
 * loaded with dlopen at run time (nothing CUDA or HIP is linked at build
 * time), device buffers that mirror the host buffers of a coll_case, and
 * the collectives run on them through NCCL/RCCL or, without it, through
 * an MPI that is CUDA- or ROCm-aware (coll_gpu.c, coll_nccl.c).
 */
#ifndef BH_COLL_GPU_H
#define BH_COLL_GPU_H

#include "coll.h"

#include <stddef.h>
#include <stdint.h>

/* The entry points of the GPU runtime this plugin calls: CUDA's cudaX or
 * HIP's hipX, which take the same arguments (their error types are int,
 * streams opaque pointers, memcpy kind 1 host to device, 2 device to
 * host in both). */
typedef struct coll_gpu_rt {
    const char *vendor; /* "CUDA" or "ROCm", for reasons */
    const char *prefix; /* "cuda" or "hip": the calls' names in reasons */
    int (*set_device)(int);
    int (*device_count)(int *);
    int (*malloc_)(void **, size_t);
    int (*free_)(void *);
    int (*memcpy_)(void *, const void *, size_t, int);
    int (*stream_create)(void **);
    int (*stream_sync)(void *);
    int (*stream_destroy)(void *);
    const char *(*error_text)(int);
} coll_gpu_rt;

/* NCCL's unique id, passed by value: 128 bytes (NCCL_UNIQUE_ID_BYTES). */
typedef struct coll_nccl_id {
    char internal[128];
} coll_nccl_id;

/* The entry points of libnccl.so.2 or librccl.so.1 this plugin calls
 * (ncclResult_t and the enums are int; comms and streams opaque
 * pointers). */
typedef struct coll_nccl {
    const char *name; /* "NCCL" or "RCCL", for reasons */
    int (*get_unique_id)(coll_nccl_id *);
    int (*comm_init_rank)(void **, int, coll_nccl_id, int);
    int (*comm_destroy)(void *);
    int (*all_reduce)(const void *, void *, size_t, int, int, void *, void *);
    int (*all_gather)(const void *, void *, size_t, int, void *, void *);
    int (*reduce_scatter)(const void *, void *, size_t, int, int, void *, void *);
    int (*broadcast)(const void *, void *, size_t, int, int, void *, void *);
    int (*send)(const void *, size_t, int, int, void *, void *);
    int (*recv)(void *, size_t, int, int, void *, void *);
    int (*group_start)(void);
    int (*group_end)(void);
    const char *(*error_text)(int);
} coll_nccl;

/* One rank's device side of a case. */
typedef struct coll_gpu {
    coll_gpu_rt rt;
    coll_nccl nccl;
    int use_nccl; /* NCCL/RCCL; else a CUDA/ROCm-aware MPI gets the device pointers */
    int device;
    void *stream;
    void *comm;        /* ncclComm_t */
    void *send, *recv; /* device buffers, sized as the case's host ones */
} coll_gpu;

/* One entry point to look up: its name and where its address goes. */
typedef struct coll_sym {
    const char *name;
    void *slot; /* a function pointer's address */
} coll_sym;

/* Looks up every syms[i].name in lib and stores it through its slot. 0,
 * or -1 with "LIBNAME has no NAME" in why. */
int coll_dlsyms(void *lib, const char *libname, const coll_sym *syms, size_t n, char *why,
                size_t cap);

/* 0 when rc is 0 (cudaSuccess, ncclSuccess); else -1 with "what: " and
 * text(rc) in why. */
int coll_lib_ok(const char *(*text)(int), int rc, const char *what, char *why, size_t cap);

/* Finds a GPU for this rank, CUDA's first, else ROCm's (local_rank of
 * local_size ranks on this node: device local_rank mod the devices, one
 * per rank), and its collectives library (NCCL for CUDA, RCCL for ROCm)
 * or else an MPI aware of that runtime; makes the device current. 0, or
 * -1 with the reason `memory: device` is unsupported here in why, naming
 * what each runtime lacks. Call after coll_mpi_init. */
int coll_gpu_open(coll_gpu *g, unsigned local_rank, unsigned local_size, char *why, size_t cap);

/* Allocates c's buffers on the device, copies c's filled host buffers
 * there and (NCCL) joins the ranks' communicator: collective. 0 or -1
 * with why. */
int coll_gpu_setup(coll_gpu *g, const coll_case *c, char *why, size_t cap);

/* `iterations` repetitions of c on the device buffers, then waits for
 * the stream. 0 or -1 with why. */
int coll_gpu_run(coll_gpu *g, const coll_case *c, uint64_t iterations, char *why, size_t cap);

/* Copies the device's receive buffer back into c->recv. 0 or -1. */
int coll_gpu_fetch(coll_gpu *g, coll_case *c, char *why, size_t cap);

/* Frees the device buffers, the stream and the communicator. */
void coll_gpu_close(coll_gpu *g);

/* NCCL or RCCL (coll_nccl.c): loads the entry points of soname (named
 * name: "NCCL", "RCCL") into n (0, or -1 with dlerror in why); joins the
 * communicator of size ranks, rank 0's unique id sent over
 * MPI_COMM_WORLD; runs c on device buffers. */
int coll_nccl_load(coll_nccl *n, const char *soname, const char *name, char *why, size_t cap);
int coll_nccl_connect(const coll_nccl *n, unsigned rank, unsigned size, void **comm, char *why,
                      size_t cap);
int coll_nccl_run(const coll_nccl *n, void *comm, void *stream, const coll_case *dev,
                  uint64_t iterations, char *why, size_t cap);

#endif /* BH_COLL_GPU_H */
