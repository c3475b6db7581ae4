// SPDX-License-Identifier: MIT
/*
 * coll_plugin_run.c -- collectives.so driven through its ABI under mpirun
 * (meson suite 'collectives'), as a multi-rank host drives it: dlopen'ed
 * RTLD_LOCAL, a stub host API whose ranks extension is served by MPI
 * here (allgather, report_digest compared across ranks), every benchmark
 * created, set up, run and verified on every rank, the algbw and busbw
 * metrics reported; memory: device unsupported with its reason here (no
 * GPU); a corrupted element of one rank's output makes verify() return
 * BHOST_E_VERIFY naming the rank, the element, got and expected.
 *
 * Built twice: with MPI linked (the ranks extension served by MPI), and
 * with -DCOLL_HOST_NO_MPI as bhost-worker is, a process that links no
 * MPI and loads the plugin RTLD_LOCAL (no ranks extension: each rank
 * reads its rank from Open MPI's environment and exits 1 on a failure).
 *
 *   mpirun -np N coll_plugin_run PLUGIN.so
 */
#include "coll_plugin.h"

#ifndef COLL_HOST_NO_MPI
#include <mpi.h>
#endif

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *g_params[16][2]; /* key, value; NULL-terminated */
static char g_error[512];
static int g_metrics; /* bit 0 algbw, bit 1 busbw */
static int g_rank, g_size, g_fails;
static uint64_t g_digest;

static const char *param(const char *key)
{
    for (int i = 0; g_params[i][0] != NULL; i++)
        if (strcmp(g_params[i][0], key) == 0)
            return g_params[i][1];
    return NULL;
}

static void BHOST_ABI h_log(bhost_host *h, bhost_log_level l, const char *msg)
{
    (void)h;
    (void)l;
    (void)msg;
}

static void BHOST_ABI h_set_error(bhost_host *h, const char *msg)
{
    (void)h;
    snprintf(g_error, sizeof(g_error), "%s", msg);
}

static void *BHOST_ABI h_alloc(bhost_host *h, uint64_t size, uint64_t align)
{
    void *p = NULL;

    (void)h;
    return posix_memalign(&p, align < 16 ? 16 : align, size ? size : 1) == 0 ? p : NULL;
}

static void BHOST_ABI h_free(bhost_host *h, void *p)
{
    (void)h;
    free(p);
}

static uint64_t BHOST_ABI h_now(bhost_host *h)
{
    struct timespec ts;

    (void)h;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bhost_status BHOST_ABI h_i64(bhost_host *h, const char *key, int64_t *out)
{
    const char *v = param(key);

    (void)h;
    if (v == NULL)
        return BHOST_E_INVALID;
    *out = strtoll(v, NULL, 10);
    return BHOST_OK;
}

static bhost_status BHOST_ABI h_f64(bhost_host *h, const char *key, double *out)
{
    (void)h;
    (void)key;
    (void)out;
    return BHOST_E_INVALID;
}

static bhost_status BHOST_ABI h_str(bhost_host *h, const char *key, char *buf, uint32_t cap,
                                    uint32_t *len)
{
    const char *v = param(key);

    (void)h;
    if (v == NULL)
        return BHOST_E_INVALID;
    snprintf(buf, cap, "%s", v);
    if (len != NULL)
        *len = (uint32_t)strlen(v);
    return BHOST_OK;
}

static bhost_status BHOST_ABI h_metric(bhost_host *h, const char *name, const char *unit,
                                       bhost_direction d, double v)
{
    (void)h;
    (void)unit;
    (void)d;
    if (!(v > 0))
        return BHOST_OK;
    g_metrics |= strcmp(name, "algbw") == 0 ? 1 : strcmp(name, "busbw") == 0 ? 2 : 0;
    return BHOST_OK;
}

static uint64_t BHOST_ABI h_seed(bhost_host *h)
{
    (void)h;
    return 20261127;
}

#ifndef COLL_HOST_NO_MPI
static bhost_status BHOST_ABI r_info(bhost_host *h, bhost_rank_info *out)
{
    (void)h;
    out->rank = (uint32_t)g_rank;
    out->size = (uint32_t)g_size;
    return BHOST_OK;
}

static bhost_status BHOST_ABI r_allgather(bhost_host *h, const void *in, uint32_t bytes, void *out)
{
    (void)h;
    return MPI_Allgather(in, (int)bytes, MPI_BYTE, out, (int)bytes, MPI_BYTE, MPI_COMM_WORLD) ==
                   MPI_SUCCESS
               ? BHOST_OK
               : BHOST_E_DEVICE;
}

static bhost_status BHOST_ABI r_digest(bhost_host *h, uint64_t digest)
{
    (void)h;
    g_digest = digest;
    return BHOST_OK;
}

static const bhost_host_ranks g_ranks = {sizeof(bhost_host_ranks), 0, r_info, r_allgather,
                                         r_digest};

static const void *BHOST_ABI h_ext(bhost_host *h, const char *id)
{
    (void)h;
    return strcmp(id, BHOST_HOST_EXT_RANKS) == 0 ? &g_ranks : NULL;
}
#else
static const void *BHOST_ABI h_ext(bhost_host *h, const char *id)
{
    (void)h;
    (void)id;
    return NULL;
}
#endif

static const bhost_host_api g_api = {
    .struct_size = sizeof(bhost_host_api),
    .abi_minor = BHOST_ABI_MINOR,
    .host_version = "test",
    .log = h_log,
    .set_error = h_set_error,
    .alloc = h_alloc,
    .free = h_free,
    .now_ns = h_now,
    .param_i64 = h_i64,
    .param_f64 = h_f64,
    .param_str = h_str,
    .report_metric = h_metric,
    .seed = h_seed,
    .get_extension = h_ext,
};

/* One failure line from this rank. */
static void fail(const char *id, const char *what)
{
    fprintf(stderr, "rank %d: %s: %s (%s)\n", g_rank, id, what, g_error);
    g_fails++;
}

/* 1 when every rank reported the same digest. */
static int digests_agree(void)
{
#ifdef COLL_HOST_NO_MPI
    return 1;
#else
    uint64_t all[64];

    MPI_Allgather(&g_digest, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int r = 1; r < g_size && r < 64; r++)
        if (all[r] != all[0])
            return 0;
    return 1;
#endif
}

/* The whole lifecycle of d with the current parameters; corrupt: flip
 * element 5 of the last rank's output before verify. The status of
 * create (when not OK) or verify. */
static bhost_status lifecycle(const bhost_bench_desc *d, int corrupt)
{
    void *inst = NULL;
    bhost_status st = d->create((bhost_host *)&g_api, NULL, NULL, &inst);

    g_metrics = 0;
    g_digest = 0;
    if (st != BHOST_OK)
        return st;
    st = d->setup(inst, NULL);
    for (int i = 0; st == BHOST_OK && i < 4; i++)
        st = d->run(inst, NULL, 3);
    if (st == BHOST_OK && corrupt && g_rank == g_size - 1) {
        coll_case *c = &((coll_inst *)inst)->c;

        ((float *)c->recv)[5] += 1.0f;
    }
    if (st == BHOST_OK)
        st = d->verify(inst);
    d->destroy(inst);
    return st;
}

/* Every benchmark, host memory, on this world: all verify, report both
 * metrics, and the shared outputs agree. */
static void all_benchmarks(const bhost_bench_factory *f)
{
    char ranks[16];

    snprintf(ranks, sizeof(ranks), "%d", g_size);
    for (uint32_t i = 0; i < f->count(); i++) {
        const bhost_bench_desc *d = f->get(i);
        int p2p = strncmp(d->id, "p2p.", 4) == 0;
        bhost_status st;

        if (p2p && g_size != 2)
            continue;
        memcpy(g_params,
               (const char *[][2]){{"ranks", ranks},
                                   {"bytes", "65536"},
                                   {"dtype", "f64"},
                                   {"op", "max"},
                                   {"root", "1"},
                                   {"window", "4"},
                                   {"memory", "host"},
                                   {NULL, NULL}},
               8 * sizeof(g_params[0]));
        st = lifecycle(d, 0);
        if (st != BHOST_OK)
            fail(d->id, "lifecycle failed");
        else if (g_rank == 0 && g_metrics != 3)
            fail(d->id, "algbw or busbw missing");
        if (!digests_agree())
            fail(d->id, "digests differ");
    }
}

/* memory: device unsupported with its reason (naming what CUDA and ROCm
 * each lack when there is no GPU); a corrupted output caught. */
static void refusals(const bhost_bench_factory *f)
{
    char ranks[16];
    bhost_status st;

    snprintf(ranks, sizeof(ranks), "%d", g_size);
    memcpy(g_params,
           (const char *[][2]){{"ranks", ranks},
                               {"bytes", "4096"},
                               {"dtype", "f32"},
                               {"op", "sum"},
                               {"memory", "device"},
                               {NULL, NULL}},
           6 * sizeof(g_params[0]));
    st = lifecycle(f->get(0), 0);
    if (st != BHOST_E_UNSUPPORTED || strstr(g_error, "memory: device") == NULL)
        fail("allreduce", "memory: device not unsupported with a reason");
    /* without a GPU both stacks were looked for: CUDA's, then ROCm's */
    if (strstr(g_error, "no GPU on this node") != NULL &&
        (strstr(g_error, "CUDA: ") == NULL || strstr(g_error, "ROCm: ") == NULL))
        fail("allreduce", "memory: device: the reason does not name both CUDA and ROCm");
    g_params[4][1] = "host";
    g_error[0] = '\0';
    st = lifecycle(f->get(0), 1);
    if (g_rank == g_size - 1) {
        char want[64];

        snprintf(want, sizeof(want), "rank %d: element 5 of 1024: got ", g_rank);
        if (st != BHOST_E_VERIFY || strstr(g_error, want) == NULL ||
            strstr(g_error, "expected") == NULL)
            fail("allreduce", "corrupted output not reported");
    } else if (st != BHOST_OK) {
        fail("allreduce", "a clean rank failed verify");
    }
}

/* This process's rank and the world's size: MPI's, or Open MPI's
 * environment in a process without MPI. */
static void world(int *argc, char ***argv)
{
#ifdef COLL_HOST_NO_MPI
    const char *r = getenv("OMPI_COMM_WORLD_RANK"), *n = getenv("OMPI_COMM_WORLD_SIZE");

    (void)argc;
    (void)argv;
    g_rank = r != NULL ? atoi(r) : 0;
    g_size = n != NULL ? atoi(n) : 1;
#else
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
#endif
}

/* The failures of every rank (this rank's without MPI). */
static int all_failures(void)
{
    int total = g_fails;

#ifndef COLL_HOST_NO_MPI
    MPI_Allreduce(&g_fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
#endif
    return total;
}

int main(int argc, char **argv)
{
    const bhost_entry *e;
    const bhost_bench_factory *f;
    void *so;
    int total;

    world(&argc, &argv);
    so = argc == 2 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    e = so != NULL ? dlsym(so, BHOST_ENTRY_SYMBOL) : NULL;
    if (e == NULL || e->init(&g_api) != BHOST_OK) {
        fprintf(stderr, "usage: mpirun -np N coll_plugin_run PLUGIN.so (%s)\n",
                so == NULL ? dlerror() : g_error);
        return 1;
    }
    f = e->get_interface(BHOST_IFACE_BENCHMARKS);
    all_benchmarks(f);
    refusals(f);
    total = all_failures();
    if (g_rank == 0 || total)
        printf("coll_plugin_run: rank %d of %d: %s (%d failures)\n", g_rank, g_size,
               total ? "FAILED" : "ok", total);
    e->deinit();
#ifndef COLL_HOST_NO_MPI
    MPI_Finalize();
#endif
    return total ? 1 : 0;
}
