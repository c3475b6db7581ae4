// SPDX-License-Identifier: MIT
/*
 * roof_peak.h -- the kernels of the peak ceiling: ROOF_PEAK_CHAINS
 * independent multiply-add chains held in registers (enough to cover the
 * latency of the multiply-add on the units that issue two a cycle), each
 * ROOF_PEAK_STEPS instructions long per iteration, for one arithmetic
 * type and instruction set. Inputs are chosen so that every operation is
 * exact: after an iteration every accumulator lane holds
 * roof_peak_expected(type), whatever the order.
 *
 *   f64, f32, f16  fused multiply-add a * b + c, a = 0.5, b = 4: +2 a step
 *   bf16           vdpbf16ps, two bf16 products 0.5 * 4 into f32: +4 a step
 *   int8           vpdpbusd, four u8 * s8 products 3 * -2 into i32: -24 a step
 *
 * Operations count 2 per multiply-add (the usual FLOP and int8 TOPS
 * convention). Reentrant.
 */
#ifndef ROOF_PEAK_H
#define ROOF_PEAK_H

#include <stddef.h>
#include <stdint.h>

#define ROOF_PEAK_CHAINS    12
#define ROOF_PEAK_STEPS     256
/* Bytes of one thread's accumulators: ROOF_PEAK_CHAINS vectors of at most
 * 64 bytes; the kernels write it 64-byte aligned or not. */
#define ROOF_PEAK_OUT_BYTES (ROOF_PEAK_CHAINS * 64)

typedef enum roof_type {
    ROOF_F64,
    ROOF_F32,
    ROOF_BF16,
    ROOF_F16,
    ROOF_INT8,
    ROOF_TYPE_COUNT
} roof_type;

typedef struct roof_peak_kernel {
    roof_type type;
    const char *isa;       /* "avx512f", "avx512_bf16", "fma256", "portable", ... */
    unsigned vector_bytes; /* bytes of one accumulator (64, 32, or one lane) */
    double ops_per_instr;  /* operations of one multiply-add instruction */
    /* iterations x ROOF_PEAK_CHAINS x ROOF_PEAK_STEPS instructions, each
     * iteration from zeroed accumulators; the last iteration's
     * accumulators into out (ROOF_PEAK_CHAINS x vector_bytes; zeros when
     * iterations is 0). */
    void (*run)(uint64_t iterations, void *out);
    /* Non-zero when this CPU can run it. */
    int (*runs_here)(void);
} roof_peak_kernel;

/* "f64", "f32", "bf16", "f16", "int8"; NULL out of range. */
const char *roof_type_name(roof_type t);

/* The type named s, or ROOF_TYPE_COUNT when none is. */
roof_type roof_type_from_name(const char *s);

/* The kernels this build has (some may not run here), best first per
 * type. */
unsigned roof_peak_kernel_count(void);

/* Kernel i, or NULL out of range. Static data. */
const roof_peak_kernel *roof_peak_kernel_at(unsigned i);

/* The best kernel for t this CPU runs, or NULL with the reason in why
 * (cap bytes): "bf16 needs AVX512_BF16, which this CPU lacks". */
const roof_peak_kernel *roof_peak_select(roof_type t, char *why, size_t cap);

/* Operations of one iteration on one thread. */
double roof_peak_ops_per_iteration(const roof_peak_kernel *k);

/* The value every accumulator lane holds after one iteration. */
double roof_peak_expected(roof_type t);

/* Checks every lane of out (as run() left it after at least one
 * iteration) against roof_peak_expected(): 0, or -1 with the first lane
 * that differs in why (cap bytes). */
int roof_peak_check(const roof_peak_kernel *k, const void *out, char *why, size_t cap);

#if defined(ROOF_HAVE_X86)
/* The x86 kernels (roof_peak_x86.c), best first per type. */
extern const roof_peak_kernel roof_peak_x86[];
extern const unsigned roof_peak_x86_count;
#endif

#endif
