// SPDX-License-Identifier: MIT
/*
 * opt_cpu.c -- the instruction-set choice: probed once with
 * __builtin_cpu_supports, capped by opt_isa_limit(), mapped to a kernel
 * table.
 *
 * Contracts of the exported functions: opt.h and opt_internal.h.
 */
#include "opt_internal.h"

#include <stdatomic.h>
#include <string.h>

static atomic_int detected = -1;
static atomic_int cap = -1;

static const char *const isa_names[] = {"portable", "avx2", "avx512"};

/* The best level this CPU and this build support. */
static int probe(void)
{
#if defined(OPT_HAVE_X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
        return OPT_ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("f16c"))
        return OPT_ISA_AVX2;
#endif
    return OPT_ISA_PORTABLE;
}

int opt_isa_detected(void)
{
    int d = atomic_load_explicit(&detected, memory_order_relaxed);

    if (d < 0) {
        d = probe();
        atomic_store_explicit(&detected, d, memory_order_relaxed);
    }
    return d;
}

int opt_isa(void)
{
    int d = opt_isa_detected();
    int c = atomic_load_explicit(&cap, memory_order_relaxed);

    return c >= 0 && c < d ? c : d;
}

void opt_isa_limit(int limit)
{
    atomic_store_explicit(&cap, limit < 0 ? -1 : limit, memory_order_relaxed);
}

const char *opt_isa_name(int level)
{
    return level >= 0 && level <= OPT_ISA_AVX512 ? isa_names[level] : NULL;
}

int opt_isa_from_name(const char *s)
{
    for (int i = 0; s != NULL && i <= OPT_ISA_AVX512; i++)
        if (strcmp(s, isa_names[i]) == 0)
            return i;
    return -1;
}

const opt_isa_ops *opt_ops(void)
{
#if defined(OPT_HAVE_X86)
    switch (opt_isa()) {
    case OPT_ISA_AVX512:
        return &opt_ops_avx512;
    case OPT_ISA_AVX2:
        return &opt_ops_avx2;
    default:
        break;
    }
#endif
    return &opt_ops_portable;
}
