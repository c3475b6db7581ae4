// SPDX-License-Identifier: MIT
/* The one seeded PRNG of bhost (xoshiro256** seeded through splitmix64):
 * identical seeds give identical streams on every platform. */
#ifndef BH_RNG_H
#define BH_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct bh_rng {
    uint64_t s[4];
} bh_rng;

void bh_rng_seed(bh_rng *r, uint64_t seed);
uint64_t bh_rng_next(bh_rng *r);
/* Uniform double in [0, 1) with 53 random bits. */
double bh_rng_uniform(bh_rng *r);
/* Uniform integer in [0, n), unbiased; n must be > 0. */
uint64_t bh_rng_below(bh_rng *r, uint64_t n);
/* Fisher-Yates shuffle of n elements of elem bytes each. */
void bh_rng_shuffle(bh_rng *r, void *base, size_t n, size_t elem);
/* Standard normal deviate (Box-Muller, no cached second value). */
double bh_rng_normal(bh_rng *r);

#endif
