/*
 * ie_kern_avx2.c -- the kernel bodies compiled for AVX2 + FMA + F16C:
 * ie_kern_avx2. Nothing here runs unless ie_kern_get() chose it.
 */
#include "ie_internal.h"

#define IE_T __attribute__((target("avx2,fma,f16c")))
#define IE_FN(name) name##_avx2
#define VN 8

#include "ie_kern_body.h"

const ie_kern ie_kern_avx2 = IE_KERN_TABLE("avx2");
