// SPDX-License-Identifier: MIT
/*
 * tk_isa_avx2.c -- the kernel bodies compiled for AVX2 + FMA + F16C:
 * defines tk_ops_avx2. Nothing here runs unless tk_isa() selected it.
 */
#include "tk_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tk_simd256.h"

#include "tk_body_map.h"
#include "tk_body_vmath.h"
#include "tk_body_ew.h"
#include "tk_body_create.h"
#include "tk_body_reduce.h"
#include "tk_body_norm.h"
#include "tk_body_misc.h"
#include "tk_body_table.h"
