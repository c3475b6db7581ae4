// SPDX-License-Identifier: MIT
/*
 * ie_kern.c -- picks the kernel table for this CPU once, and the scalar
 * half-precision conversions the loaders and kernels share.
 */
#include "ie_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const ie_kern *chosen;
static pthread_once_t chosen_once = PTHREAD_ONCE_INIT;

/* Detects the best table; IE_ISA=portable|avx2 caps it (tests). */
static void choose(void)
{
    const char *cap = getenv("IE_ISA");

    chosen = &ie_kern_portable;
#if defined(IE_HAVE_X86)
    __builtin_cpu_init();
    if (cap != NULL && strcmp(cap, "portable") == 0)
        return;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        chosen = &ie_kern_avx2;
    if (cap != NULL && strcmp(cap, "avx2") == 0)
        return;
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl"))
        chosen = &ie_kern_avx512;
#else
    (void)cap;
#endif
}

const ie_kern *ie_kern_get(void)
{
    pthread_once(&chosen_once, choose);
    return chosen;
}

float ie_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;

    memcpy(&f, &u, sizeof(f));
    return f;
}

uint16_t ie_f32_to_bf16(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: keep it a quiet NaN */
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

float ie_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t u;
    float f;

    if (exp == 0) {
        if (man == 0) {
            u = sign;
        } else { /* subnormal: normalize */
            exp = 127 - 15 + 1;
            while ((man & 0x400u) == 0) {
                man <<= 1;
                exp--;
            }
            man &= 0x3ffu;
            u = sign | (exp << 23) | (man << 13);
        }
    } else if (exp == 31) {
        u = sign | 0x7f800000u | (man << 13);
    } else {
        u = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    memcpy(&f, &u, sizeof(f));
    return f;
}
