// SPDX-License-Identifier: MIT
/* See roof_peak.h. Type names, the portable f64 and f32 kernels (one lane
 * per chain, for machines without the x86 kernels), the choice of kernel
 * and the closed-form check. */
#include "roof_peak.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const type_names[ROOF_TYPE_COUNT] = {"f64", "f32", "bf16", "f16", "int8"};

/* What each type needs of an x86 CPU, for the unsupported message. */
static const char *const type_needs[ROOF_TYPE_COUNT] = {"AVX-512F or AVX2 with FMA",
                                                        "AVX-512F or AVX2 with FMA", "AVX512_BF16",
                                                        "AVX512_FP16", "AVX512_VNNI"};

const char *roof_type_name(roof_type t)
{
    return (unsigned)t < ROOF_TYPE_COUNT ? type_names[t] : NULL;
}

roof_type roof_type_from_name(const char *s)
{
    for (unsigned t = 0; s != NULL && t < ROOF_TYPE_COUNT; t++)
        if (strcmp(s, type_names[t]) == 0)
            return (roof_type)t;
    return ROOF_TYPE_COUNT;
}

/* The body of a portable kernel over lane type T: the inputs are read
 * through volatile so that the chains cannot be folded at compile time,
 * and each iteration's accumulators are stored so that none is dead. */
#define PORTABLE_PEAK(name, T)                                                                     \
    static void name(uint64_t iterations, void *out)                                               \
    {                                                                                              \
        static volatile T half = (T)0.5, four = (T)4;                                              \
        T *o = out;                                                                                \
                                                                                                   \
        memset(out, 0, ROOF_PEAK_CHAINS * sizeof(T));                                              \
        for (uint64_t it = 0; it < iterations; it++) {                                             \
            T a = half, b = four;                                                                  \
            T c[ROOF_PEAK_CHAINS] = {0};                                                           \
                                                                                                   \
            for (unsigned s = 0; s < ROOF_PEAK_STEPS; s++)                                         \
                for (unsigned k = 0; k < ROOF_PEAK_CHAINS; k++)                                    \
                    c[k] = a * b + c[k];                                                           \
            memcpy(o, c, sizeof(c));                                                               \
            __asm__ __volatile__("" : : : "memory");                                               \
        }                                                                                          \
    }

PORTABLE_PEAK(peak_f64_portable, double)
PORTABLE_PEAK(peak_f32_portable, float)

static int always(void)
{
    return 1;
}

static const roof_peak_kernel portable[] = {
    {ROOF_F64, "portable", sizeof(double), 2, peak_f64_portable, always},
    {ROOF_F32, "portable", sizeof(float), 2, peak_f32_portable, always},
};

#define PORTABLE_COUNT (sizeof(portable) / sizeof(portable[0]))

unsigned roof_peak_kernel_count(void)
{
#if defined(ROOF_HAVE_X86)
    return roof_peak_x86_count + (unsigned)PORTABLE_COUNT;
#else
    return (unsigned)PORTABLE_COUNT;
#endif
}

const roof_peak_kernel *roof_peak_kernel_at(unsigned i)
{
#if defined(ROOF_HAVE_X86)
    if (i < roof_peak_x86_count)
        return &roof_peak_x86[i];
    i -= roof_peak_x86_count;
#endif
    return i < PORTABLE_COUNT ? &portable[i] : NULL;
}

const roof_peak_kernel *roof_peak_select(roof_type t, char *why, size_t cap)
{
    for (unsigned i = 0; i < roof_peak_kernel_count(); i++) {
        const roof_peak_kernel *k = roof_peak_kernel_at(i);

        if (k->type == t && k->runs_here())
            return k;
    }
    if ((unsigned)t >= ROOF_TYPE_COUNT)
        snprintf(why, cap, "no arithmetic type %d", (int)t);
    else
        snprintf(why, cap, "%s needs %s, which this CPU or build lacks", type_names[t],
                 type_needs[t]);
    return NULL;
}

double roof_peak_ops_per_iteration(const roof_peak_kernel *k)
{
    return (double)ROOF_PEAK_CHAINS * ROOF_PEAK_STEPS * k->ops_per_instr;
}

double roof_peak_expected(roof_type t)
{
    switch (t) {
    case ROOF_F64:
    case ROOF_F32:
    case ROOF_F16:
        return 2.0 * ROOF_PEAK_STEPS; /* 0.5 * 4 a step */
    case ROOF_BF16:
        return 4.0 * ROOF_PEAK_STEPS; /* two 0.5 * 4 a step */
    case ROOF_INT8:
        return -24.0 * ROOF_PEAK_STEPS; /* four 3 * -2 a step */
    case ROOF_TYPE_COUNT:
        break;
    }
    return NAN;
}

/* An IEEE binary16 value from its bits (independent of any conversion
 * instruction). */
static double half_value(uint16_t h)
{
    int exp = (h >> 10) & 0x1f;
    double mant = h & 0x3ff;
    double v;

    if (exp == 0x1f)
        return mant != 0 ? NAN : (h & 0x8000 ? -INFINITY : INFINITY);
    v = exp == 0 ? ldexp(mant, -24) : ldexp(1024 + mant, exp - 25);
    return h & 0x8000 ? -v : v;
}

/* Lane i of out as a double. */
static double lane_value(roof_type t, const void *out, size_t i)
{
    const unsigned char *p = out;

    switch (t) {
    case ROOF_F64: {
        double v;

        memcpy(&v, p + i * 8, 8);
        return v;
    }
    case ROOF_F32:
    case ROOF_BF16: {
        float v;

        memcpy(&v, p + i * 4, 4);
        return v;
    }
    case ROOF_F16: {
        uint16_t v;

        memcpy(&v, p + i * 2, 2);
        return half_value(v);
    }
    case ROOF_INT8: {
        int32_t v;

        memcpy(&v, p + i * 4, 4);
        return v;
    }
    case ROOF_TYPE_COUNT:
        break;
    }
    return NAN;
}

/* Bytes of one accumulator lane. */
static size_t lane_bytes(roof_type t)
{
    return t == ROOF_F64 ? 8 : t == ROOF_F16 ? 2 : 4;
}

int roof_peak_check(const roof_peak_kernel *k, const void *out, char *why, size_t cap)
{
    size_t lanes = ROOF_PEAK_CHAINS * (size_t)k->vector_bytes / lane_bytes(k->type);
    double want = roof_peak_expected(k->type);

    for (size_t i = 0; i < lanes; i++) {
        double got = lane_value(k->type, out, i);

        if (!(got == want)) {
            snprintf(why, cap, "%s %s: accumulator %zu lane %zu holds %.17g, expected %.17g",
                     type_names[k->type], k->isa, i / (lanes / ROOF_PEAK_CHAINS),
                     i % (lanes / ROOF_PEAK_CHAINS), got, want);
            return -1;
        }
    }
    return 0;
}
