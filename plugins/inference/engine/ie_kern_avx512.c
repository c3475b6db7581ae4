/*
 * ie_kern_avx512.c -- the kernel bodies compiled for AVX-512 (F, BW, DQ,
 * VL) + FMA: ie_kern_avx512. Nothing here runs unless ie_kern_get() chose
 * it.
 */
#include "ie_internal.h"

#define IE_T __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma,f16c")))
#define IE_FN(name) name##_avx512
#define VN 16

#include "ie_kern_body.h"

const ie_kern ie_kern_avx512 = IE_KERN_TABLE("avx512");
