// SPDX-License-Identifier: MIT
/* The ceiling a case is held against (see roof_ceilings.h). */
#include "roof_ceilings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How far ceiling threads t is from the case's c: 0 the same (or either
 * unknown), then fewer threads before more. */
static int thread_distance(int t, int c)
{
    if (t == c || t == 0 || c == 0)
        return 0;
    return t < c ? 2 * (c - t) : 2 * (t - c) + 1;
}

/* The bandwidth ceiling on at of level and access nearest in threads, or
 * NULL. */
static const bh_roof_ceiling *find_memory(const bh_roof_set *s, int level, const char *access,
                                          int threads, const char *at)
{
    const bh_roof_ceiling *best = NULL;

    for (size_t i = 0; i < s->n; i++) {
        const bh_roof_ceiling *k = &s->v[i];

        if (k->kind != BH_CEIL_BANDWIDTH || k->level != level || strcmp(k->access, access) != 0 ||
            strcmp(k->at, at) != 0)
            continue;
        if (!best ||
            thread_distance(k->threads, threads) < thread_distance(best->threads, threads))
            best = k;
    }
    return best;
}

/* The levels to try for a case at level: its own, then the faster ones
 * nearest first, then the slower ones (a faster level never overstates
 * a case's fraction). */
static size_t level_order(int level, int out[BH_LEVEL_DRAM])
{
    size_t n = 0;

    out[n++] = level;
    for (int l = level - 1; l >= 1; l--)
        out[n++] = l;
    for (int l = level + 1; l <= BH_LEVEL_DRAM; l++)
        out[n++] = l;
    return n;
}

/* See roof_ceilings.h. */
const bh_roof_ceiling *bh_roof_pick_memory(const bh_roof_set *s, const bh_roof_profile *p,
                                           const char *at)
{
    static const char *const fallbacks[] = {"read-write", "read", "write"};
    int levels[BH_LEVEL_DRAM];
    size_t nl;
    const char *access = p->known && strcmp(p->access, "unknown") != 0 ? p->access : "read-write";
    int level = p->known ? bh_roof_level(s, p->working_set, p->threads) : BH_LEVEL_DRAM;

    nl = level_order(level, levels);
    for (size_t i = 0; i < nl; i++) {
        const bh_roof_ceiling *k = find_memory(s, levels[i], access, p->threads, at);

        for (size_t f = 0; !k && f < sizeof(fallbacks) / sizeof(*fallbacks); f++)
            k = find_memory(s, levels[i], fallbacks[f], p->threads, at);
        if (k)
            return k;
    }
    return NULL;
}

/* See roof_ceilings.h. */
const bh_roof_ceiling *bh_roof_pick_compute(const bh_roof_set *s, const bh_roof_profile *p,
                                            const char *at)
{
    const char *cls = p->known ? p->compute : "f32";
    const bh_roof_ceiling *best = NULL;

    if (strcmp(cls, "none") == 0)
        return NULL;
    for (size_t i = 0; i < s->n; i++) {
        const bh_roof_ceiling *k = &s->v[i];

        if (k->kind != BH_CEIL_COMPUTE || strcmp(k->compute, cls) != 0 || strcmp(k->at, at) != 0)
            continue;
        if (!best ||
            thread_distance(k->threads, p->threads) < thread_distance(best->threads, p->threads))
            best = k;
    }
    return best;
}

/* See roof_ceilings.h. */
double bh_roof_latency_floor(const bh_roof_set *s, const char *at)
{
    double floor = NAN;

    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].kind == BH_CEIL_LATENCY && strcmp(s->v[i].at, at) == 0 &&
            !(s->v[i].value >= floor))
            floor = s->v[i].value;
    return floor;
}
