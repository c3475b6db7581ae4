// SPDX-License-Identifier: MIT
/*
 * tn_search.c -- the budgeted search of tn_tune.h: the default point
 * first (its time is the baseline the tuned one is held against), then
 * the rest of a small space exhaustively, in a seeded random order so that
 * a budget too short for the whole space still samples it evenly.
 */
#include "tn_tune.h"

#include <stdlib.h>

/* A splitmix64 step: the next value of the stream at *s. */
static uint64_t mix_next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* order[0] = def, then the other indices, shuffled when asked. */
static void make_order(size_t *order, size_t space, size_t def, int shuffle, uint64_t seed)
{
    size_t n = 0;

    order[n++] = def;
    for (size_t i = 0; i < space; i++)
        if (i != def)
            order[n++] = i;
    for (size_t i = space - 1; shuffle && i > 1; i--) {
        size_t j = 1 + (size_t)(mix_next(&seed) % i); /* in [1, i] */
        size_t t = order[i];

        order[i] = order[j];
        order[j] = t;
    }
}

tn_result tn_search(size_t space, size_t default_index, int shuffle, uint64_t seed, double budget_s,
                    tn_time_fn time_point, void *ctx, double (*now)(void))
{
    tn_result r = {space, 0, default_index, -1.0, -1.0, 0.0};
    size_t *order = malloc(space * sizeof(*order));
    double t0 = now();

    if (order == NULL || space == 0 || default_index >= space) {
        free(order);
        return r;
    }
    make_order(order, space, default_index, shuffle, seed);
    for (size_t i = 0; i < space; i++) {
        double left = budget_s - (now() - t0), s;

        if (i > 0 && left <= 0.0)
            break;
        s = time_point(ctx, order[i], left);
        r.tried++;
        if (i == 0)
            r.default_s = s;
        if (s >= 0.0 && (r.best_s < 0.0 || s < r.best_s)) {
            r.best_s = s;
            r.best = order[i];
        }
    }
    r.search_s = now() - t0;
    free(order);
    return r;
}
