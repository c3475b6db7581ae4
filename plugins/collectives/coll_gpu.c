// SPDX-License-Identifier: MIT
/*
 * coll_gpu.c -- `memory: device`: a CUDA GPU through NCCL (libnccl.so.2)
 * or a ROCm GPU through RCCL (librccl.so.1, coll_nccl.c), or, without
 * that library, an MPI aware of the runtime (Open MPI's
 * MPIX_Query_cuda_support() or MPIX_Query_rocm_support(), looked up at
 * run time), on buffers
 * the runtime allocates (libcudart or libamdhip64 loaded at run time;
 * nothing CUDA or HIP is linked). The reason `memory: device` is
 * unsupported names what is missing (contracts in coll_gpu.h).
 */
#include "coll_gpu.h"

#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* One GPU software stack: its runtime's libraries and call prefix, and
 * the collectives library that goes with it. */
typedef struct gpu_stack {
    const char *vendor;             /* "CUDA", "ROCm" */
    const char *prefix;             /* "cuda", "hip" */
    const char *const *rt_sonames;  /* tried in order */
    const char *comm_soname, *comm; /* "libnccl.so.2", "NCCL" */
} gpu_stack;

static const char *const cuda_sonames[] = {"libcudart.so.13", "libcudart.so.12",
                                           "libcudart.so.11.0", "libcudart.so", NULL};
static const char *const hip_sonames[] = {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so",
                                          NULL};
static const gpu_stack stacks[] = {
    {"CUDA", "cuda", cuda_sonames, "libnccl.so.2", "NCCL"},
    {"ROCm", "hip", hip_sonames, "librccl.so.1", "RCCL"},
};

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

/* Loads st's runtime (the first of its sonames found) into rt: 0, or -1
 * with "the CUDA runtime (libcudart.so) is not installed" in why. */
static int rt_load(coll_gpu_rt *rt, const gpu_stack *st, char *why, size_t cap)
{
    static const char *const calls[] = {
        "SetDevice",    "GetDeviceCount",    "Malloc",        "Free",          "Memcpy",
        "StreamCreate", "StreamSynchronize", "StreamDestroy", "GetErrorString"};
    void *slots[] = {&rt->set_device,  &rt->device_count,   &rt->malloc_,
                     &rt->free_,       &rt->memcpy_,        &rt->stream_create,
                     &rt->stream_sync, &rt->stream_destroy, &rt->error_text};
    char names[sizeof(calls) / sizeof(calls[0])][40];
    coll_sym syms[sizeof(calls) / sizeof(calls[0])];
    void *lib = NULL;
    int i;

    for (i = 0; st->rt_sonames[i] != NULL && lib == NULL; i++)
        lib = dlopen(st->rt_sonames[i], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        snprintf(why, cap, "the %s runtime (%s) is not installed", st->vendor,
                 st->rt_sonames[i - 1]);
        return -1;
    }
    for (size_t k = 0; k < sizeof(calls) / sizeof(calls[0]); k++) {
        snprintf(names[k], sizeof(names[k]), "%s%s", st->prefix, calls[k]);
        syms[k] = (coll_sym){names[k], slots[k]};
    }
    rt->vendor = st->vendor;
    rt->prefix = st->prefix;
    return coll_dlsyms(lib, st->rt_sonames[i - 1], syms, sizeof(syms) / sizeof(syms[0]), why, cap);
}

int coll_lib_ok(const char *(*text)(int), int rc, const char *what, char *why, size_t cap)
{
    if (rc == 0)
        return 0;
    snprintf(why, cap, "%s: %s", what, text(rc));
    return -1;
}

/* coll_lib_ok() with the runtime's error text and the call's name
 * (prefix + call: "cuda" "Malloc"). */
static int rt_ok(const coll_gpu_rt *rt, int rc, const char *call, char *why, size_t cap)
{
    char what[48];

    snprintf(what, sizeof(what), "%s%s", rt->prefix, call);
    return coll_lib_ok(rt->error_text, rc, what, why, cap);
}

/* st's runtime loaded into g->rt with its device count in *n: 0, or -1
 * with why when the runtime or a device is missing. */
static int find_devices(coll_gpu *g, const gpu_stack *st, int *n, char *why, size_t cap)
{
    int rc;

    *n = 0;
    if (rt_load(&g->rt, st, why, cap) != 0)
        return -1;
    rc = g->rt.device_count(n);
    if (rc != 0 || *n < 1) {
        snprintf(why, cap, "%sGetDeviceCount: %s", st->prefix,
                 rc != 0 ? g->rt.error_text(rc) : "0 devices");
        return -1;
    }
    return 0;
}

int coll_gpu_open(coll_gpu *g, unsigned local_rank, unsigned local_size, char *why, size_t cap)
{
    char miss[sizeof(stacks) / sizeof(stacks[0])][256], comm_why[256], mpi[192];
    const gpu_stack *st = NULL;
    int n = 0;

    for (size_t i = 0; i < sizeof(stacks) / sizeof(stacks[0]) && st == NULL; i++)
        if (find_devices(g, &stacks[i], &n, miss[i], sizeof(miss[i])) == 0)
            st = &stacks[i];
    if (st == NULL) {
        snprintf(why, cap, "memory: device: no GPU on this node (CUDA: %.200s; ROCm: %.200s)",
                 miss[0], miss[1]);
        return -1;
    }
    if ((unsigned)n < local_size) {
        snprintf(why, cap,
                 "memory: device: %u ranks on this node but %d %s device(s): one GPU per rank",
                 local_size, n, st->vendor);
        return -1;
    }
    g->use_nccl =
        coll_nccl_load(&g->nccl, st->comm_soname, st->comm, comm_why, sizeof(comm_why)) == 0;
    if (!g->use_nccl && !coll_mpi_device_aware(st->vendor, mpi, sizeof(mpi))) {
        snprintf(
            why, cap,
            "memory: device: %d %s device(s) found, but it needs %s (%s: %.120s) or a %s-aware "
            "MPI (%s)",
            n, st->vendor, st->comm, st->comm_soname, comm_why, st->vendor, mpi);
        return -1;
    }
    g->device = (int)(local_rank % (unsigned)n);
    return rt_ok(&g->rt, g->rt.set_device(g->device), "SetDevice", why, cap);
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
    const coll_gpu_rt *rt = &g->rt;

    if (g->recv == NULL &&
        (rt_ok(rt, rt->stream_create(&g->stream), "StreamCreate", why, cap) != 0 ||
         rt_ok(rt, rt->malloc_(&g->recv, rb), "Malloc", why, cap) != 0 ||
         (sb > 0 && rt_ok(rt, rt->malloc_(&g->send, sb), "Malloc", why, cap) != 0)))
        return -1;
    if ((sb > 0 && rt_ok(rt, rt->memcpy_(g->send, c->send, sb, 1), "Memcpy", why, cap)) ||
        rt_ok(rt, rt->memcpy_(g->recv, c->recv, rb, 1), "Memcpy", why, cap))
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
    return rt_ok(&g->rt, g->rt.stream_sync(g->stream), "StreamSynchronize", why, cap);
}

int coll_gpu_fetch(coll_gpu *g, coll_case *c, char *why, size_t cap)
{
    return rt_ok(&g->rt, g->rt.memcpy_(c->recv, g->recv, coll_recv_bytes(c), 2), "Memcpy", why,
                 cap);
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
