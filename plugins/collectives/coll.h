// SPDX-License-Identifier: MIT
/*
 * coll.h -- the collectives plugin's core, free of the host API: the
 * size and count rules and the bandwidth formulas of nccl-tests, the
 * deterministic input pattern and the exact check of what each rank
 * received (coll_sizes.c, coll_data.c, coll_check.c), and the MPI calls
 * that move the data (coll_mpi.c). The plugin (coll_plugin.h) and the
 * standalone test driver (tests/coll_driver.c) both link these files.
 *
 * Sizes follow nccl-tests (src/<coll>.cu, doc/PERFORMANCE.md): `bytes`
 * is nccl-tests' size, count = bytes / element size. allreduce and
 * broadcast move `count` elements per rank (S = count x elt). allgather,
 * reduce_scatter and alltoall split count over the ranks: the per-rank
 * chunk is count / n rounded down to a multiple of 16 bytes, and S is
 * chunk x n x elt (allgather: the output; reduce_scatter: the input;
 * alltoall: what each rank sends). algbw = S / t, busbw = algbw x
 * factor with factor 2(n-1)/n (allreduce), (n-1)/n (allgather,
 * reduce_scatter, alltoall), 1 (broadcast, point to point).
 */
#ifndef BH_COLL_H
#define BH_COLL_H

#include <stddef.h>
#include <stdint.h>

typedef enum coll_kind {
    COLL_ALLREDUCE,
    COLL_ALLGATHER,
    COLL_REDUCE_SCATTER,
    COLL_BROADCAST,
    COLL_ALLTOALL,
    COLL_P2P_LATENCY,   /* ping-pong 0 <-> 1, OSU osu_latency */
    COLL_P2P_BANDWIDTH, /* window of non-blocking sends + ack, OSU osu_bw */
    COLL_KIND_COUNT
} coll_kind;

/* Element types; COLL_BYTE is point to point's (not a user choice). */
typedef enum coll_dtype { COLL_F32, COLL_F64, COLL_I32, COLL_BYTE } coll_dtype;

typedef enum coll_op { COLL_SUM, COLL_MAX, COLL_MIN } coll_op;

/* Names in configs: "f32", "f64", "i32" and "sum", "max", "min",
 * NULL-terminated, in enum order. */
extern const char *const coll_dtype_names[];
extern const char *const coll_op_names[];

/* Element counts of one case (nccl-tests' getCollByteCount). */
typedef struct coll_sizes {
    uint64_t count;       /* bytes / element size */
    uint64_t param_count; /* the count the call takes (per-rank chunk) */
    uint64_t send_count;  /* elements of each rank's send buffer */
    uint64_t recv_count;  /* elements of each rank's receive buffer */
    uint64_t size_bytes;  /* S of algbw = S / t */
} coll_sizes;

/* Bytes of one element of t. */
size_t coll_dtype_size(coll_dtype t);

/* The id of kind k in configs ("allreduce", "p2p.latency", ...). */
const char *coll_kind_name(coll_kind k);

/* 1 when k reduces (takes an op): allreduce and reduce_scatter. */
int coll_kind_reduces(coll_kind k);

/* Fills *out for kind k, element type t, `bytes` and n ranks (window:
 * messages per iteration of p2p.bandwidth, else ignored). Returns 0, or
 * -1 when the case moves no element (bytes below one element, or a
 * chunk rounded down to 0 for the split collectives). */
int coll_sizes_of(coll_kind k, coll_dtype t, uint64_t bytes, unsigned n, unsigned window,
                  coll_sizes *out);

/* nccl-tests' bus bandwidth factor of k on n ranks, as its formulas
 * give it (0 on one rank for all but broadcast and point to point). */
double coll_busbw_factor(coll_kind k, unsigned n);

/* Algorithm bandwidth in GB/s (1e9 B/s, as nccl-tests): S / seconds; 0
 * when seconds <= 0. */
double coll_algbw_gbs(uint64_t size_bytes, double seconds);

/* One case on this rank: what is run and its buffers (owned by the
 * caller, sized by coll_send_bytes / coll_recv_bytes). */
typedef struct coll_case {
    coll_kind kind;
    coll_dtype dtype;
    coll_op op;
    unsigned rank, nranks, root;
    unsigned window; /* p2p.bandwidth */
    uint64_t seed;
    coll_sizes sz;
    void *send; /* NULL for broadcast (in place in recv) */
    void *recv;
} coll_case;

/* Bytes of c's send and receive buffers (0: none). */
uint64_t coll_send_bytes(const coll_case *c);
uint64_t coll_recv_bytes(const coll_case *c);

/* The value element `index` of rank `rank` contributes for `seed`: an
 * integer in [-8, 8] when small (reductions: every sum of up to 2^20
 * ranks is exact in f32), in [-2^20, 2^20) otherwise, in [0, 255] for
 * bytes (taken mod 256 by the caller). */
int32_t coll_value(uint64_t seed, unsigned rank, uint64_t index, int small);

/* Fills c's send buffer (and its receive buffer: a pattern that is not
 * the expected output, so a collective that does nothing fails the
 * check) from (seed, rank, index). */
void coll_fill(coll_case *c);

/* The first element of c's receive buffer that differs from what the
 * collective must have left there. */
typedef struct coll_mismatch {
    uint64_t element;
    double got, expected;
} coll_mismatch;

/* 0 when every element c->rank received is exactly what it must be;
 * else 1 with the first difference in *m. */
int coll_check(const coll_case *c, coll_mismatch *m);

/* FNV-1a 64 of c's receive buffer (the output every rank must share for
 * allreduce, broadcast and allgather). */
uint64_t coll_digest(const coll_case *c);

/* ---- MPI (coll_mpi.c) ---------------------------------------------- */

/* Initialises MPI once (MPI_THREAD_SINGLE: the plugin starts no thread
 * and a rank calls it from one; libmpi made global for
 * Open MPI's components, MPI_Finalize registered for process exit;
 * errors return instead of aborting) and stores this process's rank and
 * the world's size. 0, or -1 with the reason in why. */
int coll_mpi_init(unsigned *rank, unsigned *size, char *why, size_t cap);

/* Runs `iterations` repetitions of c on every rank. 0, or -1 with the MPI
 * error in why. */
int coll_mpi_run(coll_case *c, uint64_t iterations, char *why, size_t cap);

/* 1 when the MPI loaded in this process takes device pointers of vendor's
 * runtime ("CUDA" or "ROCm"), as its own MPIX_Query_cuda_support() or
 * MPIX_Query_rocm_support() answers (looked up in the library at run
 * time, not taken from the mpi-ext.h the plugin was built with: a CUDA-
 * or ROCm-aware build of the same MPI answers for itself), else 0; what
 * it is in `what` ("Open MPI v4.1.4 is not CUDA-aware (...)", "... has no
 * MPIX_Query_rocm_support"). */
int coll_mpi_device_aware(const char *vendor, char *what, size_t cap);

#endif /* BH_COLL_H */
