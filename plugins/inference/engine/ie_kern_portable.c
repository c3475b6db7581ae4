// SPDX-License-Identifier: MIT
/*
 * ie_kern_portable.c -- the kernel bodies for any CPU (generic vectors of
 * 4 floats, lowered to whatever the baseline target has): ie_kern_portable.
 */
#include "ie_internal.h"

#define IE_T
#define IE_FN(name) name##_portable
#define VN 4

#include "ie_kern_body.h"

const ie_kern ie_kern_portable = IE_KERN_TABLE("portable");
