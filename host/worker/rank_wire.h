// SPDX-License-Identifier: MIT
/* The wire between the rank hub (rank_hub.c) and the ranks of a
 * multi-rank case (rank_client.c), over TCP:
 *
 * Every rank opens two connections to the hub's address and starts each
 * with one hello line, a JSON object:
 *   {"t":"rank_hello","token":T,"chan":"data"|"sync","rank":R,"size":N,
 *    "host":H,"pid":P}
 * A connection whose token is not the launch's is closed unread.
 *   data: the hub answers with the rank's job (bytes, then EOF: it shuts
 *         its side down); the rank then sends its protocol messages
 *         (ipc.h) on it, as a worker does on its result pipe.
 *   sync: the host's allgather (bhost/ranks.h). The rank sends a frame
 *         u32 n (little-endian) + n bytes; once every rank has sent its
 *         frame of the round, the hub answers each with i32 status (0, or
 *         a bhost_status) + u32 total + total bytes, rank r's at r * n.
 * The environment tells a rank where to connect: BHOST_RANK_ADDR
 * ("host:port[,host:port...]", tried in order) and BHOST_RANK_TOKEN. */
#ifndef BH_RANK_WIRE_H
#define BH_RANK_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define BH_RANK_ENV_ADDR "BHOST_RANK_ADDR"
#define BH_RANK_ENV_TOKEN "BHOST_RANK_TOKEN"
/* The rank number and count of a launch that sets no MPI variables
 * (launcher: local). */
#define BH_RANK_ENV_RANK "BHOST_RANK"
#define BH_RANK_ENV_SIZE "BHOST_RANK_SIZE"
/* Largest allgather contribution of one rank. */
#define BH_RANK_MAX_EXCHANGE (1u << 20)
/* Longest hello line. */
#define BH_RANK_MAX_HELLO 4096u
/* Longest list of CPUs a hello carries ("0-3,8"); a longer one is sent
 * as "" (not known) rather than cut. */
#define BH_RANK_MAX_CPUS 256u

/* Writes all n bytes (retrying EINTR and short writes); 0 or -1. */
int bh_rank_write_all(int fd, const void *p, size_t n);
/* Reads exactly n bytes; 0, or -1 at EOF or an error. */
int bh_rank_read_all(int fd, void *p, size_t n);
/* Little-endian u32 to and from 4 bytes. */
void bh_rank_put_u32(unsigned char *b, uint32_t v);
uint32_t bh_rank_get_u32(const unsigned char *b);

/* This process's rank and the launch's size from the launcher's
 * environment (Open MPI, PMIx, Slurm, PMI, or BHOST_RANK for launcher:
 * local); 0, or -1 when none says. */
int bh_rank_from_env(uint32_t *rank, uint32_t *size);

#endif
