// SPDX-License-Identifier: MIT
/*
 * mpi_pingpong.c -- a plain MPI ping-pong, the small-message latency
 * reference for the collectives plugin's p2p.latency (configs/
 * collectives.yaml runs it through the command plugin; Debian packages no
 * OSU micro-benchmarks). As osu_latency: ranks 0 and 1 exchange BYTES
 * with MPI_Send/MPI_Recv, 1000 untimed round trips, then REPS timed ones;
 * the one-way latency is half the round trip. Rank 0 prints
 * "mpi_pingpong bytes=B reps=N one_way_ns=X" (its own MPI_Wtime figure,
 * without the launch) and checks every message it got back; exit 1 on a
 * wrong byte or bad usage.
 *
 *   mpirun -np 2 mpi_pingpong BYTES REPS
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#define WARMUP 1000

/* REPS round trips of n bytes between ranks 0 and 1 (others idle). */
static void round_trips(int rank, char *s, char *r, int n, long reps)
{
    for (long i = 0; i < reps; i++) {
        if (rank == 0) {
            MPI_Send(s, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(r, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(r, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0, n, bad = 0;
    long reps;
    char *s, *r;
    double t0, t1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    n = argc == 3 ? atoi(argv[1]) : 0;
    reps = argc == 3 ? atol(argv[2]) : -1;
    if (size < 2 || n < 1 || reps < 0) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 mpi_pingpong BYTES REPS (BYTES >= 1)\n");
        MPI_Finalize();
        return 1;
    }
    s = malloc((size_t)n);
    r = calloc(1, (size_t)n);
    if (s == NULL || r == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < n; i++)
        s[i] = (char)(i * 7 + rank + 1);
    round_trips(rank, s, r, n, WARMUP);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    round_trips(rank, s, r, n, reps);
    t1 = MPI_Wtime();
    for (int i = 0; rank <= 1 && i < n; i++)
        bad |= r[i] != (char)(i * 7 + (1 - rank) + 1);
    if (rank == 0)
        printf("mpi_pingpong bytes=%d reps=%ld one_way_ns=%.1f\n", n, reps,
               reps > 0 ? (t1 - t0) * 1e9 / (double)reps / 2.0 : 0.0);
    if (bad)
        fprintf(stderr, "mpi_pingpong: rank %d received a wrong byte\n", rank);
    free(s);
    free(r);
    MPI_Finalize();
    return bad ? 1 : 0;
}
