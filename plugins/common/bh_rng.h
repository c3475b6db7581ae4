// SPDX-License-Identifier: MIT
/*
 * bh_rng.h -- splitmix64 (Steele, Lea, Flood 2014), the seeded generator
 * the in-tree plugins draw their inputs from. Header-only and inline, so a
 * loop that draws values compiles as it did with a local copy.
 */
#ifndef BH_RNG_H
#define BH_RNG_H

#include <stdint.h>

/* The splitmix64 golden-ratio increment. */
#define BH_RNG_GAMMA UINT64_C(0x9E3779B97F4A7C15)

/* splitmix64's output function (its finalizer) of x itself: a well-mixed
 * 64-bit value, a bijection of x; for counter-based draws that build
 * their own state. [any-thread] */
static inline uint64_t bh_rng_finalize(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
    return x ^ (x >> 31);
}

/* splitmix64's output function of x + BH_RNG_GAMMA: a well-mixed 64-bit
 * value, a bijection of x. [any-thread] */
static inline uint64_t bh_rng_mix(uint64_t x)
{
    return bh_rng_finalize(x + BH_RNG_GAMMA);
}

/* The next value of the splitmix64 stream *state; advances *state by
 * BH_RNG_GAMMA. Never a fixed point. [any-thread] */
static inline uint64_t bh_rng_next(uint64_t *state)
{
    uint64_t x = *state;

    *state = x + BH_RNG_GAMMA;
    return bh_rng_mix(x);
}

/* A double uniform in [0, 1) from the top 53 bits of v. */
static inline double bh_rng_unit(uint64_t v)
{
    return (double)(v >> 11) * 0x1.0p-53;
}

#endif /* BH_RNG_H */
