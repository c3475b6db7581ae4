// SPDX-License-Identifier: MIT
/*
 * mem_replay.h -- replaying a trace (mem_trace.h) through an allocator
 * (mem_alloc.h) on one thread. Every allocated block is written whole
 * (one byte value per event, as a tensor's producer writes its output)
 * and checked when it is freed: whole in a checked or measured replay,
 * its first, middle and last byte in a timed one. A measured replay also samples the
 * process's resident set after every allocation. No bhost dependency.
 */
#ifndef MEM_REPLAY_H
#define MEM_REPLAY_H

#include "mem_alloc.h"
#include "mem_trace.h"

#include <stdint.h>

enum { MEM_REPLAY_TIMED = 0, MEM_REPLAY_CHECKED = 1, MEM_REPLAY_MEASURED = 2 };

typedef struct mem_replay {
    const mem_trace *trace;
    void **block;           /* [trace->slots] */
    unsigned char *val;     /* [trace->slots]: the byte each block holds */
    uint64_t rss_start;     /* MEASURED: resident bytes before the replay */
    uint64_t rss_peak;      /* MEASURED: most resident bytes after an allocation */
    uint64_t bytes_checked; /* CHECKED, MEASURED: bytes compared at the frees */
    size_t bad_event;       /* the event that failed (mem_replay_run -1 or -2) */
} mem_replay;

/* Prepares r for trace t (its tables from malloc). -1 out of memory. */
int mem_replay_init(mem_replay *r, const mem_trace *t);
void mem_replay_fini(mem_replay *r);

/* Replays the whole trace once through a (thread 0) in mode
 * MEM_REPLAY_*; seed varies the byte values. 0; -1 when an allocation
 * failed; -2 when a block did not hold its bytes at its free (the event
 * in r->bad_event; the replay stops there and frees what is live). */
int mem_replay_run(mem_replay *r, mem_alloc *a, int mode, uint64_t seed);

/* Resident bytes of this process (/proc/self/statm), 0 when unreadable. */
uint64_t mem_rss_bytes(void);

#endif /* MEM_REPLAY_H */
