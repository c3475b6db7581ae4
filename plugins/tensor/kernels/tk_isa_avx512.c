// SPDX-License-Identifier: MIT
/*
 * tk_isa_avx512.c -- the kernel bodies compiled for AVX-512 (F, BW, DQ, VL):
 * defines tk_ops_avx512. Nothing here runs unless tk_isa() selected it.
 */
#include "tk_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tk_simd512.h"

#include "tk_body_map.h"
#include "tk_body_vmath.h"
#include "tk_body_ew.h"
#include "tk_body_create.h"
#include "tk_body_reduce.h"
#include "tk_body_norm.h"
#include "tk_body_misc.h"
#include "tk_body_table.h"
