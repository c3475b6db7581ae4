// SPDX-License-Identifier: MIT
/*
 * tk_cpu.c -- what the whole library shares at run time: dtype and op
 * names, the instruction-set choice, the cache size behind the
 * non-temporal store decision, and the seed mixing of the random streams.
 */
#include "tk_internal.h"

#include "bh_rng.h"

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

size_t tk_dtype_size(tk_dtype t)
{
    switch (t) {
    case TK_F32:
    case TK_I32:
        return 4;
    case TK_F64:
    case TK_I64:
        return 8;
    case TK_F16:
    case TK_BF16:
        return 2;
    case TK_I8:
        return 1;
    }
    return 0;
}

tk_dtype tk_dtype_from_name(const char *s)
{
    static const struct {
        const char *name;
        tk_dtype t;
    } names[] = {
        {"f32", TK_F32}, {"f64", TK_F64}, {"f16", TK_F16}, {"bf16", TK_BF16},
        {"i8", TK_I8},   {"i32", TK_I32}, {"i64", TK_I64},
    };

    for (size_t i = 0; s != NULL && i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(s, names[i].name) == 0)
            return names[i].t;
    return (tk_dtype)0;
}

static const char *const op_names[TK_OP_COUNT] = {
    "add", "sub", "mul", "div", "fma", "relu",
    "gelu", "sigmoid", "tanh", "exp", "log", "sqrt",
};

int tk_op_arity(tk_op op)
{
    switch (op) {
    case TK_OP_ADD:
    case TK_OP_SUB:
    case TK_OP_MUL:
    case TK_OP_DIV:
        return 2;
    case TK_OP_FMA:
        return 3;
    case TK_OP_RELU:
    case TK_OP_GELU:
    case TK_OP_SIGMOID:
    case TK_OP_TANH:
    case TK_OP_EXP:
    case TK_OP_LOG:
    case TK_OP_SQRT:
        return 1;
    case TK_OP_COUNT:
        break;
    }
    return 0;
}

const char *tk_op_name(tk_op op)
{
    return (unsigned)op < TK_OP_COUNT ? op_names[op] : NULL;
}

tk_op tk_op_from_name(const char *s)
{
    for (int i = 0; s != NULL && i < TK_OP_COUNT; i++)
        if (strcmp(s, op_names[i]) == 0)
            return (tk_op)i;
    return TK_OP_COUNT;
}

int tk_op_transcendental(tk_op op)
{
    return op == TK_OP_GELU || op == TK_OP_SIGMOID || op == TK_OP_TANH ||
           op == TK_OP_EXP || op == TK_OP_LOG;
}

/* ---- ISA ------------------------------------------------------------------ */

static atomic_int isa_cap = -1;

/* The best level the CPU supports, probed with __builtin_cpu_supports (x86
 * builds; elsewhere the portable bodies, the only ones built). */
static int probe_isa(void)
{
#if defined(TK_HAVE_X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("f16c"))
        return TK_ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("f16c"))
        return TK_ISA_AVX2;
#endif
    return TK_ISA_PORTABLE;
}

int tk_isa_detected(void)
{
    static atomic_int detected = -1;
    int d = atomic_load_explicit(&detected, memory_order_relaxed);

    if (d < 0) {
        d = probe_isa();
        atomic_store_explicit(&detected, d, memory_order_relaxed);
    }
    return d;
}

int tk_isa(void)
{
    int d = tk_isa_detected();
    int cap = atomic_load_explicit(&isa_cap, memory_order_relaxed);

    return cap >= 0 && cap < d ? cap : d;
}

void tk_isa_limit(int limit)
{
    atomic_store_explicit(&isa_cap, limit < 0 ? -1 : limit,
                          memory_order_relaxed);
}

int tk_has_vnni(void)
{
#if defined(TK_HAVE_X86)
    return tk_isa() == TK_ISA_AVX512 &&
           __builtin_cpu_supports("avx512vnni");
#else
    return 0;
#endif
}

const char *tk_isa_name(int level)
{
    return level == TK_ISA_AVX512 ? "avx512"
           : level == TK_ISA_AVX2 ? "avx2"
                                  : "portable";
}

const tk_isa_ops *tk_ops(void)
{
#if defined(TK_HAVE_X86)
    switch (tk_isa()) {
    case TK_ISA_AVX512:
        return &tk_ops_avx512;
    case TK_ISA_AVX2:
        return &tk_ops_avx2;
    default:
        return &tk_ops_portable;
    }
#else
    return &tk_ops_portable;
#endif
}

/* ---- Caches and stores ----------------------------------------------------- */

size_t tk_llc_bytes(void)
{
    static atomic_size_t llc;
    size_t v = atomic_load_explicit(&llc, memory_order_relaxed);

    if (v == 0) {
        long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
        long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);

        v = l3 > 0 ? (size_t)l3 : l2 > 0 ? (size_t)l2 : (size_t)32 << 20;
        atomic_store_explicit(&llc, v, memory_order_relaxed);
    }
    return v;
}

int tk_want_nt(size_t bytes)
{
    return bytes > tk_llc_bytes() / 2;
}

/* ---- Random streams -------------------------------------------------------- */

void tk_rand_keys(uint64_t seed, uint32_t *k0, uint32_t *k1)
{
    uint64_t z = bh_rng_mix(seed);

    *k0 = (uint32_t)z;
    *k1 = (uint32_t)(z >> 32);
}

float tk_rand_at(uint64_t seed, uint64_t i)
{
    uint32_t k0, k1;

    tk_rand_keys(seed, &k0, &k1);
    return (float)(tk_hash32((uint32_t)i, k0, k1) >> 8) * 0x1p-24f;
}
