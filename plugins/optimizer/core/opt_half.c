// SPDX-License-Identifier: MIT
/*
 * opt_half.c -- scalar bf16 and f16 conversions (round to nearest even)
 * and typed element access for the reference and the checks.
 *
 * Contracts of the exported functions: opt.h.
 */
#include "opt.h"

#include <math.h>
#include <string.h>

float opt_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;

    memcpy(&f, &u, sizeof(f));
    return f;
}

uint16_t opt_f32_to_bf16(float f)
{
    uint32_t u;

    if (f != f)
        return 0x7FC0u;
    memcpy(&u, &f, sizeof(u));
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

float opt_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    uint32_t u;
    float f;

    if (exp == 0) {
        /* zero or subnormal: man x 2^-24, exact in f32 */
        f = ldexpf((float)man, -24);
        return sign ? -f : f;
    }
    if (exp == 31)
        u = sign | 0x7F800000u | (man << 13);
    else
        u = sign | ((exp + 112u) << 23) | (man << 13);
    memcpy(&f, &u, sizeof(f));
    return f;
}

uint16_t opt_f32_to_f16(float f)
{
    uint32_t u, sign, man;
    int exp;

    memcpy(&u, &f, sizeof(u));
    sign = (u >> 16) & 0x8000u;
    if (f != f)
        return (uint16_t)(sign | 0x7E00u);
    exp = (int)((u >> 23) & 0xFFu) - 127 + 15;
    man = u & 0x7FFFFFu;
    if (exp >= 31)
        return (uint16_t)(sign | 0x7C00u); /* overflow or inf */
    if (exp <= 0) {
        /* subnormal or zero: round man (with the implicit bit) at 2^-24 */
        uint32_t full, shift, r, half, rest;

        if (exp < -10)
            return (uint16_t)sign;
        full = man | 0x800000u;
        shift = (uint32_t)(14 - exp);
        r = full >> shift;
        half = 1u << (shift - 1);
        rest = full & ((1u << shift) - 1u);
        if (rest > half || (rest == half && (r & 1u)))
            r++;
        return (uint16_t)(sign | r);
    }
    {
        uint32_t r = ((uint32_t)exp << 10) | (man >> 13);
        uint32_t rest = man & 0x1FFFu;

        if (rest > 0x1000u || (rest == 0x1000u && (r & 1u)))
            r++; /* may carry into the exponent, up to inf: correct */
        return (uint16_t)(sign | r);
    }
}

double opt_load(const void *p, opt_dtype t, size_t i)
{
    switch (t) {
    case OPT_F32:
        return ((const float *)p)[i];
    case OPT_BF16:
        return opt_bf16_to_f32(((const uint16_t *)p)[i]);
    case OPT_F16:
        return opt_f16_to_f32(((const uint16_t *)p)[i]);
    }
    return NAN;
}

void opt_store(void *p, opt_dtype t, size_t i, double x)
{
    switch (t) {
    case OPT_F32:
        ((float *)p)[i] = (float)x;
        break;
    case OPT_BF16:
        ((uint16_t *)p)[i] = opt_f32_to_bf16((float)x);
        break;
    case OPT_F16:
        ((uint16_t *)p)[i] = opt_f32_to_f16((float)x);
        break;
    }
}
