// SPDX-License-Identifier: MIT
/* The ceilings of a run (internal to host/results): collected from the
 * cases flagged "ceiling" (ABI 1.1 BHOST_BENCH_CEILING) and from the
 * legacy roof metrics, the memory level of a working set, and the
 * ceiling a case is held against. */
#ifndef BH_ROOF_CEILINGS_H
#define BH_ROOF_CEILINGS_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* What a ceiling bounds. */
enum { BH_CEIL_BANDWIDTH = 0, BH_CEIL_COMPUTE = 1, BH_CEIL_LATENCY = 2 };

/* Memory levels: 1..3 caches, BH_LEVEL_DRAM beyond. */
#define BH_LEVEL_DRAM 4

/* A cache level of the machine (data or unified caches of system.caches). */
typedef struct bh_roof_cache {
    int level;
    double size_bytes; /* of one instance */
    double count;      /* instances */
} bh_roof_cache;

/* The work profile of a case as the result records it. */
typedef struct bh_roof_profile {
    int known;           /* the case declared one */
    double working_set;  /* bytes; 0 unknown */
    const char *access;  /* "read", "write", "read-write", "unknown" */
    const char *compute; /* "f64", "f32", ..., "none" */
    int threads;         /* 0 unknown */
} bh_roof_profile;

/* One ceiling measured in the run. */
typedef struct bh_roof_ceiling {
    int kind;            /* BH_CEIL_* */
    int level;           /* bandwidth: 1..BH_LEVEL_DRAM */
    const char *access;  /* bandwidth: "read", "write", "read-write" */
    const char *compute; /* compute: "f64", "f32", ... */
    int threads;         /* 0 unknown */
    char at[64];         /* "@backend:device" of its case, "" on the host */
    double value;        /* B/s, FLOP/s, or ns per call (latency) */
    const char *case_id; /* borrowed from the document */
    char name[96];       /* "L2 read x2", "f32 x1", "DRAM read-write x2" */
} bh_roof_ceiling;

typedef struct bh_roof_set {
    bh_roof_cache caches[8];
    size_t n_caches;
    bh_roof_ceiling *v;
    size_t n;
} bh_roof_set;

/* Reads the caches of doc's system and the ceilings of its ok cases (the
 * best value of each kind, level, access, compute class, threads and
 * device). Free with bh_roof_set_free. */
void bh_roof_set_load(const cJSON *doc, bh_roof_set *s);

void bh_roof_set_free(bh_roof_set *s);

/* The work profile of case object c. */
bh_roof_profile bh_roof_profile_of(const cJSON *c);

/* "@backend:device" of case object c into at (cap bytes), "" for a host
 * case. */
void bh_roof_case_at(const cJSON *c, char *at, size_t cap);

/* Where the memory and arithmetic of a case on at live: "" (the host's
 * caches, DRAM and cores) for the host and for the CPU backend's devices
 * ("@cpu:N", the same machine), else at itself. */
const char *bh_roof_hierarchy_at(const char *at);

/* The memory level of working_set bytes on threads threads: the smallest
 * cache level whose capacity (one instance's size times min(threads,
 * instances)) holds it; BH_LEVEL_DRAM when none does or the size is
 * unknown (0). */
int bh_roof_level(const bh_roof_set *s, double working_set, int threads);

/* "L1", "L2", "L3" or "DRAM". */
const char *bh_roof_level_name(int level);

/* The bandwidth ceiling for a case of profile p on device at: its level
 * (else the nearest faster level; never a slower one), its access kind
 * (else read-write, read, write), the highest measured on at most its
 * threads (else the nearest above). NULL when the run measured none of
 * those for at. */
const bh_roof_ceiling *bh_roof_pick_memory(const bh_roof_set *s, const bh_roof_profile *p,
                                           const char *at);

/* The compute ceiling of p's class (f32 when the case declares no
 * profile; none for class "none") on device at, the highest measured on
 * at most its threads (else the nearest above); NULL
 * when the run measured none of that class: an int8 case is never held
 * against f32. */
const bh_roof_ceiling *bh_roof_pick_compute(const bh_roof_set *s, const bh_roof_profile *p,
                                            const char *at);

/* The per-call latency floor measured on device at (ns), NAN when none. */
double bh_roof_latency_floor(const bh_roof_set *s, const char *at);

#endif
