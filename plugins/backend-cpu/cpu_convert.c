// SPDX-License-Identifier: MIT
/*
 * cpu_convert.c -- half-precision gemm inputs for the CPU backend.
 *
 * Debian's OpenBLAS 0.3.21 is built without BUILD_BFLOAT16: cblas.h
 * declares cblas_sbgemm but libopenblas does not export it. gemm with
 * bf16 or f16 inputs therefore converts A and B to f32 (exact: every
 * bf16 and f16 value is an f32 value) and calls sgemm, accumulating in
 * f32; the conversion is part of the measured time. When the loaded
 * library does export cblas_sbgemm (a build with BUILD_BFLOAT16), bf16
 * goes straight to it. The path in use is in device_info.runtime_version
 * and in the log line of open().
 */
#define _GNU_SOURCE
#include "backend_cpu.h"

#include <cblas.h>
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_F16C_PATH 1
#elif defined(__aarch64__)
#include <arm_neon.h>
#define HAVE_NEON_PATH 1
#endif

/* IEEE half to float, exactly (subnormals, inf and NaN included). */
static float half_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu, b;
    float f;

    if (e == 0) {
        f = (float)m * 0x1p-24f;
        return sign ? -f : f;
    }
    b = sign | (e == 31 ? 0x7F800000u : (e + 112u) << 23) | (m << 13);
    memcpy(&f, &b, sizeof(f));
    return f;
}

#if defined(HAVE_F16C_PATH)
/* 8 halves per instruction with F16C; the tail element by element. */
__attribute__((target("avx,f16c"))) static void f16_f16c(const uint16_t *src,
                                                         float *dst,
                                                         uint64_t n)
{
    uint64_t i = 0;

    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128(
                                      (const __m128i *)(const void *)(src + i))));
    for (; i < n; i++)
        dst[i] = half_to_f32(src[i]);
}

/* bf16 is the top half of an f32: widen 8 at a time with AVX2. */
__attribute__((target("avx2"))) static void bf16_avx2(const uint16_t *src,
                                                      float *dst, uint64_t n)
{
    uint64_t i = 0;

    for (; i + 8 <= n; i += 8) {
        __m256i w = _mm256_cvtepu16_epi32(
            _mm_loadu_si128((const __m128i *)(const void *)(src + i)));

        _mm256_storeu_si256((__m256i *)(void *)(dst + i), _mm256_slli_epi32(w, 16));
    }
    for (; i < n; i++) {
        uint32_t b = (uint32_t)src[i] << 16;

        memcpy(dst + i, &b, sizeof(b));
    }
}
#endif

#if defined(HAVE_NEON_PATH)
/* 8 halves per step with the AArch64 base instruction set (fcvtl: exact,
 * subnormals, inf and NaN included); the tail element by element. */
static void f16_neon(const uint16_t *src, float *dst, uint64_t n)
{
    uint64_t i = 0;

    for (; i + 8 <= n; i += 8) {
        float16x8_t h = vreinterpretq_f16_u16(vld1q_u16(src + i));

        vst1q_f32(dst + i, vcvt_f32_f16(vget_low_f16(h)));
        vst1q_f32(dst + i + 4, vcvt_high_f32_f16(h));
    }
    for (; i < n; i++)
        dst[i] = half_to_f32(src[i]);
}

/* bf16 is the top half of an f32: widen 8 at a time (ushll by 16). */
static void bf16_neon(const uint16_t *src, float *dst, uint64_t n)
{
    uint64_t i = 0;

    for (; i + 8 <= n; i += 8) {
        uint16x8_t w = vld1q_u16(src + i);

        vst1q_f32(dst + i, vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(w), 16)));
        vst1q_f32(dst + i + 4, vreinterpretq_f32_u32(vshll_high_n_u16(w, 16)));
    }
    for (; i < n; i++) {
        uint32_t b = (uint32_t)src[i] << 16;

        memcpy(dst + i, &b, sizeof(b));
    }
}
#endif

void bh_cpu_half_to_f32(const uint16_t *src, float *dst, uint64_t n, int bf16)
{
    if (bf16) {
#if defined(HAVE_F16C_PATH)
        if (__builtin_cpu_supports("avx2")) {
            bf16_avx2(src, dst, n);
            return;
        }
#elif defined(HAVE_NEON_PATH)
        bf16_neon(src, dst, n);
        return;
#endif
        for (uint64_t i = 0; i < n; i++) {
            uint32_t b = (uint32_t)src[i] << 16;

            memcpy(dst + i, &b, sizeof(b));
        }
        return;
    }
#if defined(HAVE_F16C_PATH)
    if (__builtin_cpu_supports("f16c")) {
        f16_f16c(src, dst, n);
        return;
    }
#elif defined(HAVE_NEON_PATH)
    f16_neon(src, dst, n);
    return;
#endif
    for (uint64_t i = 0; i < n; i++)
        dst[i] = half_to_f32(src[i]);
}

static pthread_once_t sbgemm_once = PTHREAD_ONCE_INIT;
static bh_cpu_sbgemm_fn sbgemm_fn;

/* Looks cblas_sbgemm up in the library that provides cblas_sgemm (loaded
 * RTLD_LOCAL with this plugin, so not in the global scope). */
static void find_sbgemm(void)
{
    Dl_info info;
    void *lib, *sym;

    if (dladdr((void *)(uintptr_t)cblas_sgemm, &info) == 0 || info.dli_fname == NULL)
        return;
    lib = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL)
        return;
    sym = dlsym(lib, "cblas_sbgemm");
    if (sym != NULL)
        memcpy(&sbgemm_fn, &sym, sizeof(sym));
    dlclose(lib); /* drops only the reference NOLOAD added */
}

bh_cpu_sbgemm_fn bh_cpu_sbgemm(void)
{
    pthread_once(&sbgemm_once, find_sbgemm);
    return sbgemm_fn;
}
