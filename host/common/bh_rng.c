// SPDX-License-Identifier: MIT
#include "bh_rng.h"

#include <math.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void bh_rng_seed(bh_rng *r, uint64_t seed)
{
    uint64_t x = seed;

    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t bh_rng_next(bh_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double bh_rng_uniform(bh_rng *r)
{
    return (double)(bh_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t bh_rng_below(bh_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;

    do
        x = bh_rng_next(r);
    while (x >= limit);
    return x % n;
}

void bh_rng_shuffle(bh_rng *r, void *base, size_t n, size_t elem)
{
    unsigned char *b = base;

    if (n < 2)
        return;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)bh_rng_below(r, (uint64_t)i + 1);
        unsigned char *x = b + i * elem;
        unsigned char *y = b + j * elem;

        if (j == i)
            continue;
        for (size_t k = 0; k < elem; k++) {
            unsigned char t = x[k];
            x[k] = y[k];
            y[k] = t;
        }
    }
}

double bh_rng_normal(bh_rng *r)
{
    double u1;
    double u2 = bh_rng_uniform(r);

    do
        u1 = bh_rng_uniform(r);
    while (u1 <= 0.0);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}
