// SPDX-License-Identifier: MIT
/*
 * zr_formula.c -- the MPI-free part of the multi-rank layer: the ZeRO
 * paper's communication volume and the digest of a rank's parameters.
 *
 * Contracts of the exported functions: zr.h.
 */
#include "zr.h"

#include <string.h>

#include "bh_rng.h"

double zr_expected_bytes(int stage, unsigned ranks, uint64_t psi, double elem_bytes)
{
    double times_psi = stage == 3 ? 3.0 : 2.0;

    if (ranks == 0)
        return 0;
    return times_psi * (double)psi * (double)(ranks - 1) / (double)ranks * elem_bytes;
}

uint64_t zr_digest(const void *p, size_t bytes)
{
    const unsigned char *b = p;
    uint64_t h = bh_rng_mix(bytes);
    size_t i = 0;

    for (; i + 8 <= bytes; i += 8) {
        uint64_t w;

        memcpy(&w, b + i, 8);
        h = bh_rng_mix(h ^ w);
    }
    if (i < bytes) {
        uint64_t w = 0;

        memcpy(&w, b + i, bytes - i);
        h = bh_rng_mix(h ^ w);
    }
    return h;
}
