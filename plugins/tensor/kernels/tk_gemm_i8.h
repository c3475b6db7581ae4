// SPDX-License-Identifier: MIT
/*
 * tk_gemm_i8.h -- what the int8 matmul files share: the panel geometry
 * and the microkernel contract.
 */
#ifndef TK_GEMM_I8_H
#define TK_GEMM_I8_H

#include "tk_internal.h"

#define TK_I8_MR 8  /* rows of an A panel and of a C tile */
#define TK_I8_NR 32 /* columns of a B panel and of a C tile */
#define TK_I8_KC 512 /* k per cache block (a multiple of 4) */

/* One TK_I8_MR x TK_I8_NR tile of C (row stride ldc) from kg groups of 4 k:
 * a is the packed A panel (u8 = a + 128, [group][row][4]), b the packed B
 * panel ([group][col][4]). acc = 0: C = A'B + corr (corr[col] = -128 *
 * colsum, undoing the bias); acc = 1: C += A'B. Built on x86 only
 * (TK_HAVE_X86); elsewhere tk_has_vnni() is 0 and the portable kernel runs. */
void tk_i8_ukernel_vnni(const uint8_t *a, const int8_t *b, size_t kg,
                        int32_t *c, size_t ldc, const int32_t *corr, int acc);

#endif /* TK_GEMM_I8_H */
