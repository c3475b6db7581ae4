// SPDX-License-Identifier: MIT
/* See roof_peak.h: the x86 kernels, each compiled for its instruction set
 * with a target attribute and chosen at run time by
 * __builtin_cpu_supports. Each step is the one instruction in an asm
 * statement (with the intrinsics, GCC 12 surrounds vpdpbusd with register
 * copies that would share its ports). The inputs pass through an empty
 * asm so that the compiler cannot fold the chains; the accumulators pass
 * through a volatile asm after they are zeroed (so that the compiler
 * cannot see they are equal and compute one chain for all) and after each
 * iteration (so that no iteration is dead). */
#include "roof_peak.h"

#include <immintrin.h>

/* The twelve accumulators: declared, zeroed. */
#define DECLARE_CHAINS(VT, Z)                                                                      \
    VT c0 = Z, c1 = Z, c2 = Z, c3 = Z, c4 = Z, c5 = Z, c6 = Z, c7 = Z, c8 = Z, c9 = Z, c10 = Z,    \
       c11 = Z
#define RESET_CHAINS(Z) c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = c8 = c9 = c10 = c11 = Z
/* One step of every chain: INSN c += a * b (AT&T operand order). */
#define STEP_CHAINS(INSN, REG)                                                                     \
    __asm__(INSN " %2, %1, %0" : "+" REG(c0) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c1) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c2) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c3) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c4) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c5) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c6) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c7) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c8) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c9) : REG(a), REG(b));                                    \
    __asm__(INSN " %2, %1, %0" : "+" REG(c10) : REG(a), REG(b));                                   \
    __asm__(INSN " %2, %1, %0" : "+" REG(c11) : REG(a), REG(b))
/* The accumulators through a volatile asm: unknown to the compiler after. */
#define KEEP_CHAINS(REG)                                                                           \
    __asm__ __volatile__(""                                                                        \
                         : "+" REG(c0), "+" REG(c1), "+" REG(c2), "+" REG(c3), "+" REG(c4),        \
                           "+" REG(c5), "+" REG(c6), "+" REG(c7), "+" REG(c8), "+" REG(c9),        \
                           "+" REG(c10), "+" REG(c11))
/* The accumulators stored one after another from out, VB bytes each. */
#define STORE_CHAINS(STORE, out, VB)                                                               \
    do {                                                                                           \
        char *o_ = (out);                                                                          \
        STORE(o_ + 0 * (VB), c0);                                                                  \
        STORE(o_ + 1 * (VB), c1);                                                                  \
        STORE(o_ + 2 * (VB), c2);                                                                  \
        STORE(o_ + 3 * (VB), c3);                                                                  \
        STORE(o_ + 4 * (VB), c4);                                                                  \
        STORE(o_ + 5 * (VB), c5);                                                                  \
        STORE(o_ + 6 * (VB), c6);                                                                  \
        STORE(o_ + 7 * (VB), c7);                                                                  \
        STORE(o_ + 8 * (VB), c8);                                                                  \
        STORE(o_ + 9 * (VB), c9);                                                                  \
        STORE(o_ + 10 * (VB), c10);                                                                \
        STORE(o_ + 11 * (VB), c11);                                                                \
    } while (0)

/* A whole kernel: name, target isa, instruction INSN, input type IT with
 * a and b, accumulator type AT with its zero, STORE of an accumulator,
 * register class REG ("v" any of 32 vector registers, "x" the first 16),
 * vector bytes VB. */
#define PEAK_KERNEL(name, isa, INSN, IT, A, B, AT, ZERO, STORE, REG, VB)                           \
    __attribute__((target(isa))) static void name(uint64_t iterations, void *out)                  \
    {                                                                                              \
        IT a = A, b = B;                                                                           \
        DECLARE_CHAINS(AT, ZERO);                                                                  \
                                                                                                   \
        __asm__("" : "+" REG(a), "+" REG(b));                                                      \
        for (uint64_t it = 0; it < iterations; it++) {                                             \
            RESET_CHAINS(ZERO);                                                                    \
            KEEP_CHAINS(REG); /* twelve unknown values: no chain is a copy of another */           \
            for (unsigned s = 0; s < ROOF_PEAK_STEPS; s++) {                                       \
                STEP_CHAINS(INSN, REG);                                                            \
            }                                                                                      \
            KEEP_CHAINS(REG);                                                                      \
        }                                                                                          \
        STORE_CHAINS(STORE, out, VB);                                                              \
    }

#define ST_512(p, v) _mm512_storeu_si512((void *)(p), (__m512i)(v))
#define ST_256(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (__m256i)(v))

PEAK_KERNEL(peak_f64_avx512, "avx512f", "vfmadd231pd", __m512d, _mm512_set1_pd(0.5),
            _mm512_set1_pd(4.0), __m512d, _mm512_setzero_pd(), ST_512, "v", 64)

PEAK_KERNEL(peak_f32_avx512, "avx512f", "vfmadd231ps", __m512, _mm512_set1_ps(0.5f),
            _mm512_set1_ps(4.0f), __m512, _mm512_setzero_ps(), ST_512, "v", 64)

PEAK_KERNEL(peak_f64_fma256, "avx2,fma", "vfmadd231pd", __m256d, _mm256_set1_pd(0.5),
            _mm256_set1_pd(4.0), __m256d, _mm256_setzero_pd(), ST_256, "x", 32)

PEAK_KERNEL(peak_f32_fma256, "avx2,fma", "vfmadd231ps", __m256, _mm256_set1_ps(0.5f),
            _mm256_set1_ps(4.0f), __m256, _mm256_setzero_ps(), ST_256, "x", 32)

/* bf16 0.5 is 0x3f00 and 4 is 0x4080 (the top halves of the f32 bits);
 * vdpbf16ps adds both products of each pair into the f32 lane. */
PEAK_KERNEL(peak_bf16_avx512, "avx512f,avx512bw,avx512bf16", "vdpbf16ps", __m512bh,
            (__m512bh)_mm512_set1_epi16(0x3f00), (__m512bh)_mm512_set1_epi16(0x4080), __m512,
            _mm512_setzero_ps(), ST_512, "v", 64)

/* f16 accumulates in f16: 512 (the value after ROOF_PEAK_STEPS steps) is
 * exact, as is every integer up to 2048. f16 0.5 is 0x3800 and 4 is
 * 0x4400 (bits, since ISO C has no _Float16 literal). */
PEAK_KERNEL(peak_f16_avx512, "avx512f,avx512bw,avx512vl,avx512fp16", "vfmadd231ph", __m512h,
            _mm512_castsi512_ph(_mm512_set1_epi16(0x3800)),
            _mm512_castsi512_ph(_mm512_set1_epi16(0x4400)), __m512h, _mm512_setzero_ph(), ST_512,
            "v", 64)

/* vpdpbusd: unsigned bytes a times signed bytes b, four products a lane
 * added into i32. */
PEAK_KERNEL(peak_int8_avx512, "avx512f,avx512bw,avx512vnni", "vpdpbusd", __m512i,
            _mm512_set1_epi8(3), _mm512_set1_epi8(-2), __m512i, _mm512_setzero_si512(), ST_512, "v",
            64)

static int has_avx512(void)
{
    return __builtin_cpu_supports("avx512f");
}

static int has_fma256(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

static int has_bf16(void)
{
    return __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512bw");
}

static int has_fp16(void)
{
    return __builtin_cpu_supports("avx512fp16") && __builtin_cpu_supports("avx512vl");
}

static int has_vnni(void)
{
    return __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw");
}

/* Operations an instruction does: 2 per multiply-add, times the lanes
 * (bf16: two products a f32 lane, int8: four a i32 lane). */
const roof_peak_kernel roof_peak_x86[] = {
    {ROOF_F64, "avx512f", 64, 2 * 8, peak_f64_avx512, has_avx512},
    {ROOF_F64, "fma256", 32, 2 * 4, peak_f64_fma256, has_fma256},
    {ROOF_F32, "avx512f", 64, 2 * 16, peak_f32_avx512, has_avx512},
    {ROOF_F32, "fma256", 32, 2 * 8, peak_f32_fma256, has_fma256},
    {ROOF_BF16, "avx512_bf16", 64, 2 * 2 * 16, peak_bf16_avx512, has_bf16},
    {ROOF_F16, "avx512_fp16", 64, 2 * 32, peak_f16_avx512, has_fp16},
    {ROOF_INT8, "avx512_vnni", 64, 2 * 4 * 16, peak_int8_avx512, has_vnni},
};

const unsigned roof_peak_x86_count = sizeof(roof_peak_x86) / sizeof(roof_peak_x86[0]);
