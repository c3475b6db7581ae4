// SPDX-License-Identifier: MIT
/* The ceiling a case is held against (see roof_ceilings.h). */
#include "roof_ceilings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* True when a ceiling measured on t threads bounds a case on c threads: t
 * no more than c (more threads can always do what fewer do, so the best
 * ceiling on at most c threads bounds it), or either unknown (0). */
static int threads_bound(int t, int c)
{
    return t == 0 || c == 0 || t <= c;
}

/* Of a and b, the better ceiling for a case on c threads: one that bounds
 * it before one that does not, then the higher value (among those that
 * do not bound it, the nearest in threads). */
static const bh_roof_ceiling *better(const bh_roof_ceiling *a, const bh_roof_ceiling *b, int c)
{
    int ab = threads_bound(a->threads, c), bb = threads_bound(b->threads, c);

    if (ab != bb)
        return ab ? a : b;
    if (ab)
        return b->value > a->value ? b : a;
    return b->threads < a->threads ? b : a;
}

/* The bandwidth ceiling on at of level (0: any) and access that bounds a
 * case on threads threads, or NULL. */
static const bh_roof_ceiling *find_memory(const bh_roof_set *s, int level, const char *access,
                                          int threads, const char *at)
{
    const bh_roof_ceiling *best = NULL;

    for (size_t i = 0; i < s->n; i++) {
        const bh_roof_ceiling *k = &s->v[i];

        if (k->kind != BH_CEIL_BANDWIDTH || (level && k->level != level) ||
            strcmp(k->access, access) != 0 || strcmp(k->at, at) != 0)
            continue;
        best = best ? better(best, k, threads) : k;
    }
    return best;
}

/* The levels to try for a case at level: its own, then the faster ones
 * nearest first. A slower level's ceiling would overstate the case's
 * fraction, so none is used: without a ceiling at its level or a faster
 * one, a case has no memory ceiling. */
static size_t level_order(int level, int out[BH_LEVEL_DRAM])
{
    size_t n = 0;

    out[n++] = level;
    for (int l = level - 1; l >= 1; l--)
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

    /* a device's memory is not the host's cache hierarchy: any level */
    if (*at) {
        levels[0] = 0;
        nl = 1;
    } else {
        nl = level_order(level, levels);
    }
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
        best = best ? better(best, k, p->threads) : k;
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
