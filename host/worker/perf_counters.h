// SPDX-License-Identifier: MIT
/* Hardware and software event counters of the timed samples, through the
 * kernel's perf_event_open ABI (no libpfm): docs/measurement.md.
 *
 * Three groups, each a leader with its siblings read at once
 * (PERF_FORMAT_GROUP with time_enabled and time_running):
 *   core:   cycles, instructions, branches, branch misses
 *   cache:  L1d read accesses and misses, LLC read accesses and misses
 *   sw:     task-clock, context switches, page faults (software events)
 * Two hardware groups rather than one of eight: most PMUs have 4 to 8
 * general counters (cycles and instructions may use fixed ones), and a
 * group larger than the PMU is never scheduled. When the two groups do not
 * fit at once the kernel multiplexes them; each group's counts are then
 * scaled by its time_enabled / time_running (ratios within a group need no
 * scaling: its events run in the same windows).
 *
 * Scope: the counters are opened with inherit=1 on the calling thread
 * (the worker's main thread) before the plugin is loaded, so that threads
 * it creates afterwards (a plugin's thread pool) are counted too; threads
 * that existed before (none in the worker) and work done by other
 * processes are not. Only user space is counted (exclude_kernel, allowed
 * at perf_event_paranoid <= 2); the software events count everything.
 * Thread-compatible: one bh_perf_counters per thread that drives it. */
#ifndef BH_PERF_COUNTERS_H
#define BH_PERF_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

/* The events, in group order. */
typedef enum bh_pc_event {
    BH_PC_CYCLES,
    BH_PC_INSTRUCTIONS,
    BH_PC_BRANCHES,
    BH_PC_BRANCH_MISSES,
    BH_PC_L1D_READS,
    BH_PC_L1D_READ_MISSES,
    BH_PC_LLC_READS,
    BH_PC_LLC_READ_MISSES,
    BH_PC_TASK_CLOCK,
    BH_PC_CONTEXT_SWITCHES,
    BH_PC_PAGE_FAULTS,
    BH_PC_N
} bh_pc_event;

#define BH_PC_GROUPS    3 /* core, cache, sw */
#define BH_PC_GROUP_MAX 4 /* events per group at most */

/* What one group read gave: its times and the scaled count of each of its
 * events (NaN for an event not in the group or never scheduled). */
typedef struct bh_pc_totals {
    double value[BH_PC_N];          /* scaled counts; NaN when not counted */
    uint64_t enabled[BH_PC_GROUPS]; /* ns the group was enabled */
    uint64_t running[BH_PC_GROUPS]; /* ns it was on the PMU */
    int read[BH_PC_GROUPS];         /* 1 when the group was read */
} bh_pc_totals;

/* The open counters of one run. */
typedef struct bh_perf_counters {
    int leader[BH_PC_GROUPS];               /* group leader fd, -1 none */
    int fds[BH_PC_GROUPS][BH_PC_GROUP_MAX]; /* every fd of the group */
    bh_pc_event events[BH_PC_GROUPS][BH_PC_GROUP_MAX];
    int n[BH_PC_GROUPS]; /* events open per group */
    char hw_reason[256]; /* why hardware events are missing, "" if none */
    char sw_reason[256]; /* why software events are missing, "" if none */
    int n_hw;            /* hardware events open */
    int n_hw_wanted;     /* hardware events asked for (8) */
} bh_perf_counters;

/* The event's name in the result ("cycles", "l1d_read_misses", ...). */
const char *bh_pc_event_name(bh_pc_event ev);

/* The index of ev's group (0 core, 1 cache, 2 sw). */
int bh_pc_event_group(bh_pc_event ev);

/* Opens every event it can, disabled, with inherit=1 on the calling
 * thread; what could not be opened is explained in hw_reason / sw_reason
 * ("perf_event_open: ENOENT (no hardware PMU in this VM)"). Returns the
 * number of events open (0: nothing to count). Call bh_perf_counters_close
 * in every case. */
int bh_perf_counters_open(bh_perf_counters *pc);

/* Starts (enable) or stops (disable) every open group at once; a no-op
 * when none is open. Called just outside the timed region of a sample. */
void bh_perf_counters_enable(bh_perf_counters *pc);
void bh_perf_counters_disable(bh_perf_counters *pc);

/* Reads every open group into t (accumulated over all enabled periods so
 * far, inherited threads included). Returns 0, or -1 when a group could
 * not be read (that group's events stay NaN). */
int bh_perf_counters_read(const bh_perf_counters *pc, bh_pc_totals *t);

/* Closes every fd; pc may then be opened again. */
void bh_perf_counters_close(bh_perf_counters *pc);

/* Parses one PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING
 * read of n_words 64-bit words: {nr, enabled, running, value[nr]}.
 * Stores the raw values (at most cap). Returns nr, or -1 when the buffer
 * is too short for its own nr or nr exceeds cap. */
int bh_pc_parse_group(const uint64_t *buf, size_t n_words, uint64_t *enabled, uint64_t *running,
                      uint64_t *values, size_t cap);

/* A raw count scaled to the whole enabled time: value * enabled / running;
 * value itself when running == enabled; NaN when running is 0 (the group
 * was never on the PMU). */
double bh_pc_scale(uint64_t value, uint64_t enabled, uint64_t running);

#endif
